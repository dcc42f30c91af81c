"""Fast bot-against-bot FBSM games without files (tests and benchmarks): see `pbem.selfplay`."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from pbem.selfplay import play_states

from .ruleset import Fbsm


def games_states(scenario: Mapping[str, Any], seed: bytes, max_phases: int = 4000) -> Iterator[dict[str, Any]]:
    """Yield the state after every resolved phase of one bot game (the last one is over)."""
    return play_states(Fbsm(), scenario, seed, max_phases=max_phases)
