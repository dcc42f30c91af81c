"""The turn sequence (5.1-5.4): the German player turn, then the British one in the order it chooses.

Phases, every game turn:

- `german-movement` (9.x, with entry 8.x), then `german-combat` (bombardment, then melee);
- `british-first` and `british-second`: the British player names the sequence in the first
  orders of his player turn (5.3: move-fight, fight-move, fight-fight or move-move; default
  move-fight) and each phase is a movement or a combat phase accordingly.

A combat phase in which the side has nothing it could bombard or melee passes without orders,
and so do the British phases once no British unit is left on the map; the adjudicator runs such
phases straight on. After the British player turn the turn marker advances (5.4), with the
victory checks of 4.2 (end of turn 7) and 4.3 (end of turn 14).
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import on_map

from . import combat, victory
from .context import Context

PHASES = ("german-movement", "german-combat", "british-first", "british-second")
SEQUENCES = {
    "move-fight": ("movement", "combat"),
    "fight-move": ("combat", "movement"),
    "fight-fight": ("combat", "combat"),
    "move-move": ("movement", "movement"),
}
DEFAULT_SEQUENCE = "move-fight"


def owner(phase: str) -> str:
    return "german" if phase.startswith("german") else "british"


def kind(phase: str, sequence: str | None) -> str:
    """`movement` or `combat` (british-first before the choice: the default sequence's first)."""
    if phase == "german-movement":
        return "movement"
    if phase == "german-combat":
        return "combat"
    chosen = SEQUENCES[sequence or DEFAULT_SEQUENCE]
    return chosen[0] if phase == "british-first" else chosen[1]


def awaiting(ctx: Context, state: State) -> list[str]:
    if state.get("result"):
        return []
    phase = state["phase"]
    side = owner(phase)
    if side == "british" and not on_map(state, ctx.side_of, "british"):
        return []
    if (state.get("next_orders") or {}).get("phase") == phase:
        return []  # given with the movement phase before it (`next_phase`)
    if phase == "british-first":
        return ["british"]  # 5.3: the sequence is chosen in these orders
    if kind(phase, state.get("sequence")) == "combat" and not combat.possible_public(ctx, state, side):
        return []
    return [side]


def advance(ctx: Context, state: State, events: list[dict[str, Any]]) -> None:
    """Move on to the next phase; at the end of a game turn check victory and turn the marker."""
    phase = state["phase"]
    if phase == "german-movement":
        state["phase"] = "german-combat"
        return
    if phase == "german-combat":
        state["phase"] = "british-first"
        state["sequence"] = None
        return
    if phase == "british-first":
        state["sequence"] = state.get("sequence") or DEFAULT_SEQUENCE
        state["phase"] = "british-second"
        return
    turn = state["turn"]
    if turn == int(ctx.tables["first_day_turn"]):
        won = victory.first_day(ctx, state)
        if won:
            state["result"] = won
            events.append({"type": "victory", "section": "4.2", **won})
            return
    if turn >= int(ctx.tables["last_turn"]):
        state["result"] = victory.final(ctx, state)
        events.append({"type": "victory", **state["result"]})
        return
    state["turn"] = turn + 1
    state["phase"] = "german-movement"
    state["sequence"] = None
    state["marched"] = []
    events.append({"type": "turn", "section": "5.4", "turn": turn + 1})
