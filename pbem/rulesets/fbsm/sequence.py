"""The sequence of play (5.1-5.3) with the set-up before it (3.x) and the placement exchanges.

Set-up: `us-setup` (US orders), `german-setup` (automatic, 3.6). Then turn 1 starts at the
German First Bombardment Phase: its Random Events and Reinforcement phases are skipped (5.2).
Each turn: the twelve phases of 5.3, with `german-placement` slipped in after a phase that drew
units (7.5, 7.7, 8.3) so the German can place them once he knows what he drew.

Automatic phases (nobody gives orders): german-setup, random-events, german-reinforcement.
`german-placement` always awaits the German (8.3, 7.5, 7.7: he places what he drew, by choice),
whatever anyone's standing answers: a standing answer is private (6.5), so the phases a side
sees, and who they await, may depend only on what that side may know. Whether units were drawn
(hence whether there is a placement phase) is public: the US sees the number drawn.
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.ruleset import State

from .context import Context
from .state import NO_EFFECTS
from . import bombardment, victory

SETUP_PHASES = ["us-setup", "german-setup"]
TURN_PHASES = [
    "random-events",  # I
    "german-reinforcement",  # II
    "german-placement",  # after I or II when units were drawn
    "german-first-bombardment",  # III
    "us-first-bombardment",  # IV
    "german-movement",  # V
    "us-first-fire",  # VI
    "german-first-fire",  # VII
    "us-movement",  # VIII
    "german-second-fire",  # IX
    "us-second-fire",  # X
    "german-second-bombardment",  # XI
    "us-second-bombardment",  # XII
]
PHASES = SETUP_PHASES + TURN_PHASES
AUTOMATIC = {"german-setup", "random-events", "german-reinforcement"}
KIND = {
    "us-setup": "setup", "german-setup": "setup", "random-events": "events", "german-reinforcement": "reinforcement",
    "german-placement": "placement", "german-first-bombardment": "bombardment", "us-first-bombardment": "bombardment",
    "german-movement": "movement", "us-first-fire": "fire", "german-first-fire": "fire", "us-movement": "movement",
    "german-second-fire": "fire", "us-second-fire": "fire", "german-second-bombardment": "bombardment",
    "us-second-bombardment": "bombardment",
}
SECTION = {"setup": "3.2", "placement": "8.3", "bombardment": "11.1", "movement": "9.1", "fire": "10.1",
           "events": "7.1", "reinforcement": "8.3"}


def owner(phase: str) -> str:
    return "us" if phase.startswith("us-") else "german"


def awaiting(state: State) -> list[str]:
    if state.get("result"):
        return []
    phase = state["phase"]
    if phase in AUTOMATIC:
        return []
    return [owner(phase)]  # never a standing answer: the other side sees `next` (see the module's docstring)


def following(state: State, placed_kind: str | None = None) -> str:
    phase = state["phase"]
    if phase == "us-setup":
        return "german-setup"
    if phase == "german-setup":
        return "german-first-bombardment"  # 5.2: turn 1 skips phases I and II
    if phase == "random-events":
        return "german-placement" if state.get("pending") else "german-reinforcement"
    if phase == "german-reinforcement":
        return "german-placement" if state.get("pending") else "german-first-bombardment"
    if phase == "german-placement":
        return "german-reinforcement" if (placed_kind or "").startswith("breakthrough") else "german-first-bombardment"
    if phase == "us-second-bombardment":
        return "random-events"
    return TURN_PHASES[TURN_PHASES.index(phase) + 1]


def advance(cfg: Context, state: State, dice: Dice, events: list[dict[str, Any]],
            placed_kind: str | None = None) -> None:
    """Move the Phase Now marker on (5.3), starting a new turn after phase XII."""
    nxt = following(state, placed_kind)
    if state["phase"] == "us-second-bombardment":
        result = victory.end_of_turn(cfg, state)
        if result:
            events.append({"type": "victory", **result})
            return
        state["turn"] += 1
        state["effects"] = dict(NO_EFFECTS)
        events.append({"type": "turn", "section": "5.3", "turn": state["turn"]})
    state["phase"] = nxt
    state["markers"] = {"us": None, "german": None}
    enter(cfg, state, dice, events)


def enter(cfg: Context, state: State, dice: Dice, events: list[dict[str, Any]]) -> None:
    """What happens on entering a phase: 13.4 German bombardment deterioration."""
    phase = state["phase"]
    if not (cfg.play_balance and phase.startswith("german-") and KIND[phase] == "bombardment"):
        return
    if state["turn"] < int(cfg.tables["play_balance"]["deterioration_from"]):
        return
    roll = dice.die(6, f"13.4 German bombardment deterioration, turn {state['turn']} {phase}")
    pool = bombardment.marker_names(cfg)
    drawn: list[str] = []
    for number in range(1, min(roll, len(pool)) + 1):
        marker = dice.draw(pool, f"13.4 German marker draw {number} of {roll}")
        pool.remove(marker)
        drawn.append(marker)
    state["markers"] = {"us": None, "german": sorted(drawn)}
    events.append({"type": "markers-drawn", "side": "german", "section": "13.4", "roll": roll,
                   "markers": sorted(drawn)})
