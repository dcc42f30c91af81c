"""How to win (4.3-4.6) and the play-balance game length (13.2-13.3).

Victory is judged the instant it happens. Nothing but an elimination can empty a side's
units from the map, and only an exit takes a German unit off the south edge, so the rules
code calls `check` right after every elimination and every exit; the first condition met wins
and resolution stops there. Drawn units waiting for placement count as German units still in
play (they must be placed, 8.6).
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State

from .context import Context, other


def check(cfg: Context, state: State) -> dict[str, Any] | None:
    """Set and return the result if a victory condition holds now."""
    if state.get("result"):
        return dict(state["result"])
    # One pass over the units for the three conditions, judged in their order below (a unit's
    # side is looked up only for the statuses a condition counts).
    german_exited = us_on_map = german_left = False
    counters = cfg.counters
    for uid, unit in state["units"].items():
        status = unit["status"]
        if status == "exited":
            if counters[uid].side == "german":
                german_exited = True
                break  # the first condition: nothing else matters
        elif status == "active":
            side = counters[uid].side
            us_on_map = us_on_map or side == "us"
            german_left = german_left or side == "german"
        elif status in ("container", "drawn"):
            german_left = german_left or counters[uid].side == "german"
    if german_exited:
        state["result"] = {"winner": "german", "section": "4.3",
                           "reason": "a German unit moved off the south edge of the map"}
        return dict(state["result"])
    if not us_on_map:
        state["result"] = {"winner": "german", "section": "4.3",
                           "reason": "no US infantry or heavy weapons unit is left on the map"}
        return dict(state["result"])
    if not german_left:
        state["result"] = {"winner": "us", "section": "4.4",
                           "reason": "no German unit is on the map and the holding container is empty"}
        return dict(state["result"])
    return None


def concede(state: State, side: str) -> dict[str, Any]:
    """4.5: the other side wins (the events are the kit's `concession_events`)."""
    state["result"] = {"winner": other(side), "section": "4.5", "reason": f"the {side} player conceded"}
    return dict(state["result"])


def end_of_turn(cfg: Context, state: State) -> dict[str, Any] | None:
    """13.2-13.3: with play balance, the US wins once turn 16 ends without a German victory."""
    if cfg.play_balance and state["turn"] >= int(cfg.tables["play_balance"]["last_turn"]):
        state["result"] = {"winner": "us", "section": "13.3",
                           "reason": f"game turn {state['turn']} ended without a German victory"}
        return dict(state["result"])
    return None
