"""Fast bot-against-bot FBSM games without files (tests and benchmarks): see `pbem.selfplay`.

The core loop binds the ruleset to the game's setup once (`pbem.core.ruleset.start`), so every
call in a game gets the same prepared context.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, Event, Resolution, State, Submission
from pbem.selfplay import play_states

from .context import Context
from .ruleset import Fbsm


def games_states(scenario: Mapping[str, Any], seed: bytes, max_phases: int = 4000) -> Iterator[dict[str, Any]]:
    """Yield the state after every resolved phase of one bot game (the last one is over)."""
    return play_states(Fbsm(), scenario, seed, max_phases=max_phases)


class _Recording(Fbsm):
    """Fbsm that keeps the events of each resolution that completed (one not stopped by a decision)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def resolve(self, context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        resolution = super().resolve(context, state, submissions, dice, decisions)
        self.events += resolution.events
        return resolution

    def take(self) -> list[Event]:
        found, self.events = self.events, []
        return found


def games_events(scenario: Mapping[str, Any], seed: bytes,
                 max_phases: int = 4000) -> Iterator[tuple[State, list[Event]]]:
    """`games_states` with the events of the phase that led to each state ([] with the initial state)."""
    recording = _Recording()
    for state in play_states(recording, scenario, seed, max_phases=max_phases):
        yield state, recording.take()
