"""Fast bot-against-bot ToC games without files (tests and benchmarks): see `pbem.selfplay`.

`standing` sets the sides' standing answers; `stats` counts order rounds and decision
requests per game turn (the mail exchanges a game by mail would take).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from pbem.selfplay import Stats, play_states

from .ruleset import Toc

__all__ = ["Stats", "games_states"]


def games_states(scenario: Mapping[str, Any], seed: bytes, *, standing: Mapping[str, Mapping[str, str]] | None = None,
                 stats: Stats | None = None, max_phases: int = 400) -> Iterator[dict[str, Any]]:
    """Yield the state after every resolved phase of one bot game (the last one is over)."""
    return play_states(Toc(), scenario, seed, standing=standing or {}, stats=stats, max_phases=max_phases)
