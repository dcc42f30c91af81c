"""Move distances (M3) and the contact that stops a move (C1).

A base moves up to 15 cm, or 10 cm when it fires on the move (a flame-thrower 6 cm, W11).
The terrain takes its part off the allowance, measured on the path of the unit's reference
base (docs/bst.md): each crossing of a high linear line (its kind's `crossing_penalty`) and,
once in the move, entering or moving through cover (the largest `entering_penalty` of the
areas the path runs inside). `penalty` is what `kit.positions.plan_move` takes.
"""

from __future__ import annotations

from typing import Sequence

from pbem.geometry import plane
from pbem.geometry.tablemap import TableMap

from .tables import Tables


def allowance(tables: Tables, action: str, weapon: str = "", vehicle: str | None = None) -> int:
    """M3 (and W11): how far a base may move for this action; a vehicle, its type's move
    (assumed: part III's Movement heading prints nothing; a tank never fires on the move, V4)."""
    if vehicle is not None:
        return tables.vehicle(vehicle).move
    if action == "move":
        return tables.number("move")
    if action == "move-fire":
        return tables.number("flamer_move_and_fire" if weapon == "flamer" else "move_and_fire")
    raise ValueError(f"M3: {action!r} is not a move")


def penalty(table: TableMap, path: Sequence[plane.Point]) -> int:
    """M3: what the terrain along the path takes off the allowance."""
    crossing_cost = 0
    cover_cost = 0
    for a, b in zip(path, path[1:]):
        for crossing in table.sight(a, b):
            props = table.properties(crossing.key)
            if table.feature(crossing.key).area:
                if crossing.enter < crossing.leave or crossing.leave == 1:
                    cover_cost = max(cover_cost, int(props.get("entering_penalty", 0)))
            elif crossing.enter > 0:  # a leg starting on the line was charged on the leg before
                crossing_cost += int(props.get("crossing_penalty", 0))
    return crossing_cost + cover_cost
