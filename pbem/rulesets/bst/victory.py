"""The end of the game (P1): the text leaves victory to the players; pbem's rule is ours.

A side with no bases left loses at once. When the last turn's Joker is drawn, each
objective of the table is held by the side with a base in contact with its point (within a
base width) when the other side has none there; the side holding more objectives wins,
otherwise the game is drawn (assumed: docs/bst.md).
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.geometry import plane

from .context import SIDES, Context


def holders(context: Context, state: Mapping[str, Any]) -> dict[str, str | None]:
    """Each objective's holder, or None."""
    reach = context.tables.number("contact")
    out: dict[str, str | None] = {}
    for objective in context.table.objectives:
        near = {s.side for s in context.stands(state)
                if plane.within(s.shape, plane.Shape((objective.at,)), reach)}
        out[objective.id] = next(iter(near)) if len(near) == 1 else None
    return out


def outcome(context: Context, state: Mapping[str, Any], final: bool = True) -> dict[str, Any] | None:
    """The result, or None while the game goes on."""
    left = {side: sum(1 for s in context.stands(state) if s.side == side) for side in SIDES}
    for side in SIDES:
        if not left[side]:
            other = SIDES[1] if side == SIDES[0] else SIDES[0]
            return {"winner": other, "section": "P1", "reason": f"{side} has no bases left"}
    if not final:
        return None
    held = holders(context, state)
    score = {side: sum(1 for h in held.values() if h == side) for side in SIDES}
    held_by = ", ".join(f"{side} {score[side]}" for side in SIDES)
    reason = f"the last turn is over; objectives held: {held_by}"
    if score[SIDES[0]] == score[SIDES[1]]:
        return {"winner": None, "section": "P1", "reason": reason}
    winner = max(SIDES, key=lambda side: score[side])
    return {"winner": winner, "section": "P1", "reason": reason}
