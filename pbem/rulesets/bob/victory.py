"""Victory (18.0): the scenario card's objectives and eliminations, counted at the end of the last turn.

A side holds an objective hex once its units alone stand in it, and keeps it until enemy units
alone stand there (the card says who holds each at the start). Each side scores the VP of the
objectives it holds plus the card's VP for each enemy unit eliminated (decoys never count);
the higher score wins, equal scores draw.
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State

from .context import SIDES, Context, other
from .state import in_hex


def update_held(ctx: Context, state: State) -> None:
    for hex_id in state["held"]:
        present = [side for side in SIDES if in_hex(ctx, state, hex_id, side)]
        if len(present) == 1:
            state["held"][hex_id] = present[0]


def scores(ctx: Context, state: State) -> dict[str, int]:
    found = {side: 0 for side in SIDES}
    for hex_id, side in state["held"].items():
        found[side] += ctx.card.objectives[hex_id][0]
    for uid, unit in state["units"].items():
        if unit["status"] == "eliminated" and not ctx.units[uid].decoy:
            found[other(ctx.units[uid].side)] += ctx.card.elimination_vp
    return found


def final(ctx: Context, state: State) -> dict[str, Any]:
    points = scores(ctx, state)
    a, b = SIDES
    winner = a if points[a] > points[b] else b if points[b] > points[a] else None
    return {"winner": winner, "section": "18.0", "reason": "the last turn is over", "scores": points}


def concede(side: str) -> dict[str, Any]:
    return {"winner": other(side), "section": "18.0", "reason": f"{side} conceded"}
