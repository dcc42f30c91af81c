"""Fast bot-against-bot ToC games without files (tests and benchmarks): see `pbem.selfplay`.

`standing` sets the sides' standing answers; `stats` counts order rounds and decision
requests per game turn (the mail exchanges a game by mail would take); `events`, when given,
receives every event of every resolved phase, in order.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, Resolution, State, Submission
from pbem.selfplay import Stats, play_states

from .context import Context
from .ruleset import Toc

__all__ = ["Stats", "games_states"]

TOC = Toc()  # one instance: the core's binding keeps its prepared context from one game to the next


class _Recording(Toc):
    """`Toc`, keeping the events of every resolution that completes (a DecisionNeeded retry records none)."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.events = events

    def resolve(self, context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        resolution = super().resolve(context, state, submissions, dice, decisions)
        self.events.extend(resolution.events)
        return resolution


def games_states(scenario: Mapping[str, Any], seed: bytes, *, standing: Mapping[str, Mapping[str, str]] | None = None,
                 stats: Stats | None = None, max_phases: int = 400,
                 events: list[dict[str, Any]] | None = None) -> Iterator[dict[str, Any]]:
    """Yield the state after every resolved phase of one bot game (the last one is over)."""
    ruleset = TOC if events is None else _Recording(events)
    return play_states(ruleset, scenario, seed, standing=standing or {}, stats=stats, max_phases=max_phases)
