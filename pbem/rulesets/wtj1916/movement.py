"""The move phase: the assumed frame around the firing chapter (docs/wtj1916.md, "The turn").

The moving (phasing) side moves each unit at most once with a positions clause (kit.positions):
`{move: U, to | path | toward (+ distance) | face, mode: walk | rush, posture: standing | prone}`,
or sets up a trench mortar in place (`{set_up: U}`, 3.7). Allowances are the unit
type's `move` (walk) and `rush` (rushing, 3.5) in yards, assumed; the bases keep their formation.
A move stops where a base would touch an enemy base. A unit that fired in the last fire phase
without declaring it would move is bound and may not move (3.5, 3.6); an immobilized vehicle
may not move (3.3). Moving along a trench (every base touching one at the start and the end)
is crouching: no passing fire (3.4, 3.7). A unit that moves while in cover is spotted (3.4).
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.errors import Problem
from pbem.core.ruleset import State
from pbem.rulesets.kit import positions

from .context import Context
from .geometry import footprint, in_kind
from .spotting import in_cover
from .state import bases_of, units_of

MOVE_SECTION = "F2"  # the assumed movement frame (a project label: the chapter has no movement rules)


def unit_of(order: Mapping[str, Any]) -> str:
    return str(order.get("move", order.get("set_up")))


def allowance(context: Context, unit: Mapping[str, Any], order: Mapping[str, Any]) -> int:
    kind = context.type_of(unit)
    return kind.rush if order.get("mode") == "rush" else kind.move


def plan(context: Context, board: State, order: Mapping[str, Any], index: int,
         obstacles: list[tuple[str, Any]] | None = None) -> tuple[positions.Movement | None, list[Problem]]:
    uid = unit_of(order)
    unit = board["units"][uid]
    kind = context.type_of(unit)
    bases = {bid: footprint(kind, b) for bid, b in bases_of(board, uid).items()}
    clause = {k: v for k, v in order.items() if k in positions.MOVE_KEYS}
    table = positions.Table(context.table.width, context.table.depth, context.table.unit, MOVE_SECTION)
    return positions.plan_move(clause, bases, sorted(bases)[0], allowance(context, unit, order), table,
                               obstacles=obstacles or [], reach=0, order=index)


def check_move(context: Context, board: State, side: str, order: Mapping[str, Any], index: int) -> list[Problem]:
    uid = unit_of(order)
    key = "move" if "move" in order else "set_up"
    own = [u for u, _ in units_of(board, side)]
    if uid not in own:
        return [Problem(f"{uid} is not one of your units on the table", order=index, path=(key,),
                        section=MOVE_SECTION, legal=", ".join(own) or "none")]
    unit = board["units"][uid]
    kind = context.type_of(unit)
    moves = any(k in order for k in ("to", "path", "toward"))
    if moves and unit["bound"]:
        return [Problem(f"{uid} fired in the last fire phase without the moving modifier and may not move",
                        order=index, path=("move",), section="3.5", legal="turn it (face) or leave it")]
    if moves and any(b["immobilized"] for b in bases_of(board, uid).values()):
        return [Problem(f"{uid} is immobilized", order=index, path=("move",), section="3.3",
                        legal="an immobilized vehicle may not move")]
    if key == "set_up":
        if not any(w.setup for w in kind.weapons):
            return [Problem(f"{uid} is not a trench mortar", order=index, path=("set_up",), section="3.7",
                            legal="trench mortars")]
        return []
    if order.get("mode") == "rush" and not kind.personnel:
        return [Problem(f"{uid} is not a personnel unit and cannot rush (3.5 names rushing for personnel only)",
                        order=index, path=("mode",), section=MOVE_SECTION, legal="walk")]
    if not moves and "face" not in order and "posture" not in order:
        return [Problem(f"order for {uid} neither moves, turns, changes posture nor sets up", order=index,
                        path=("move",), section=MOVE_SECTION, legal="to, path, toward, face or posture")]
    _, problems = plan(context, board, order, index)
    return problems


def resolve_move(context: Context, state: State, side: str, order: Mapping[str, Any],
                 events: list[dict[str, Any]]) -> tuple[str, int]:
    """Move one unit; returns the unit and the length moved (for passing fire)."""
    uid = unit_of(order)
    unit = state["units"][uid]
    if "set_up" in order:
        unit["set_up"] = True
        events.append({"type": "set-up", "side": side, "unit": uid, "section": "3.7"})
        return uid, 0
    kind = context.type_of(unit)
    enemies = [(bid, footprint(context.type_of(state["units"][b["unit"]]), b).shape)
               for bid, b in sorted(state["bases"].items()) if state["units"][b["unit"]]["side"] != side]
    was_in_cover = in_cover(context, state, uid)
    start_trench = all(in_kind(context, footprint(kind, b).shape, "hides_movers") for b in bases_of(state, uid).values())
    movement, problems = plan(context, state, order, 0, enemies)
    assert movement is not None and not problems, problems  # validated on the same own bases
    for bid, base in movement.bases.items():
        state["bases"][bid]["at"] = list(base.centre)
        state["bases"][bid]["facing"] = base.facing
    moved = movement.length > 0
    end_trench = all(in_kind(context, footprint(kind, b).shape, "hides_movers") for b in bases_of(state, uid).values())
    for bid in bases_of(state, uid):
        base = state["bases"][bid]
        if moved:
            base["rushed"] = order.get("mode") == "rush"
            base["crouching"] = start_trench and end_trench
        base["prone"] = order.get("posture") == "prone" if "posture" in order else (base["prone"] and not moved)
    if moved:
        unit["moved"] = True
        unit["set_up"] = False
        if was_in_cover or in_cover(context, state, uid):
            unit["revealed"] = state["turn"]
    event: dict[str, Any] = {"type": "move", "side": side, "unit": uid, "section": MOVE_SECTION,
                             "path": [list(p) for p in movement.path], "length": movement.length,
                             "to": {bid: [list(b.centre), b.facing] for bid, b in movement.bases.items()},
                             "mode": str(order.get("mode", "walk")),
                             "posture": "prone" if any(state["bases"][b]["prone"] for b in movement.bases) else "standing"}
    if movement.stop is not None:
        event["stopped"] = True
    events.append(event)
    return uid, movement.length
