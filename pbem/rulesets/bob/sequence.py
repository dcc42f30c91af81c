"""The turn (1.0): set-up (18.0), the pre-turn CP actions (3.0), the Operations Phase in impulses
(4.0), then the Rout (11.0), Melee (12.0) and Recovery (13.0) Phases, which resolve by themselves.

`awaiting` and the next impulse are computed from facts both sides know (which units are Used or
marked, which reinforcements are due), so a view never says more than the table would.
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State, standing_answer

from .context import SIDES, Context, other

PHASES = ("setup", "preturn", "operations", "rout", "melee", "recovery")
AUTOMATIC = ("rout", "melee", "recovery")


def awaiting(ctx: Context, state: State) -> list[str]:
    if state.get("result"):
        return []
    phase = state["phase"]
    if phase == "setup":
        return list(SIDES)
    if phase in ("preturn", "operations"):
        return [state["active"]]
    return []


def available(ctx: Context, state: State, side: str) -> list[str]:
    """4.0: the side's units that may still be Used this phase (on the map or due to enter)."""
    found = []
    for uid, unit in state["units"].items():
        if ctx.units[uid].side != side or unit["used"] or unit["opfire"]:
            continue
        due = unit["status"] == "waiting" and (ctx.units[uid].enters or 0) <= state["turn"]
        if unit["status"] == "active" or due:
            found.append(uid)
    return found


def next_impulse(ctx: Context, state: State, events: list[dict[str, Any]]) -> None:
    """4.0: the sides alternate; a side with nothing left to Use is passed over; then the Rout Phase."""
    current = state["active"]
    if state["phase"] == "preturn":
        order = [ctx.card.first, ctx.card.second]
    else:
        order = [other(current), current]
    state["phase"] = "operations"
    for side in order:
        if available(ctx, state, side):
            state["active"] = side
            state["impulse"] += 1
            return
    state["phase"] = "rout"
    if "artillery" in state:
        state["artillery"]["missions"] = []  # 17.0: the Fire Missions lift with the Operations Phase
    events.append({"type": "phase", "section": "1.0", "phase": "rout", "turn": state["turn"]})


def start_turn(ctx: Context, state: State, events: list[dict[str, Any]]) -> None:
    """3.0, 4.0: CPs refreshed; the second side's pre-turn when it has CPs and plays it; then impulses."""
    state["cps"] = {side: ctx.card.cps[side] for side in SIDES}
    state["impulse"] = 0
    events.append({"type": "turn", "section": "1.0", "turn": state["turn"]})
    second = ctx.card.second
    if state["cps"][second] > 0 and standing_answer(state, second, "preturn", "skip") == "play" \
            and available(ctx, state, second):
        state["phase"] = "preturn"
        state["active"] = second
        return
    state["phase"] = "operations"
    state["active"] = ctx.card.second  # so that the first side's impulse comes next
    next_impulse(ctx, state, events)

