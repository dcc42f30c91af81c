"""Bot-against-bot play straight through `resolve`, without keys or files (tests and benchmarks).

The same loop as the referee's (`pbem.core.adjudicator.resolve_adjudication`) minus the archive:
each awaited side's bot writes orders from its own view, the orders are validated against that
view exactly as the referee would, and phases resolve with a seeded `Dice`; automatic phases run
straight on. `standing` sets the sides' standing answers (every decision then goes to the bots'
`bot_answer`, as a mail exchange would). A full game through real files is `pbem.demo`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from pbem.core import chance
from pbem.core.errors import PbemError
from pbem.core.ruleset import STANDING_KEY, DecisionNeeded, Decisions, Submission

from .ruleset import Toc


@dataclass
class Stats:
    exchanges: dict[int, int] = field(default_factory=dict)  # game turn -> order rounds
    decisions: dict[int, int] = field(default_factory=dict)  # game turn -> decision requests


def games_states(scenario: Mapping[str, Any], seed: bytes, *, standing: Mapping[str, Mapping[str, str]] | None = None,
                 stats: Stats | None = None, max_phases: int = 400) -> Iterator[dict[str, Any]]:
    """Yield the state after every resolved phase of one bot game (the last one is over)."""
    ruleset = Toc()
    state = ruleset.initial_state(scenario)
    state[STANDING_KEY] = {side: dict((standing or {}).get(side, {})) for side in ruleset.sides(scenario)}
    yield state
    for number in range(max_phases):
        if ruleset.result(state) is not None:
            return
        submissions: dict[str, Submission | None] = {side: None for side in ruleset.sides(scenario)}
        awaited = ruleset.awaiting(state)
        for side in awaited:
            view = ruleset.view(state, side)
            orders = ruleset.bot_orders(view, side, chance.sha256(seed + side.encode() + number.to_bytes(4, "big")))
            problems = ruleset.validate(view, side, orders)
            if problems:
                raise PbemError(problems)
            submissions[side] = Submission(side, orders)
        turn = state["turn"]
        if stats is not None and awaited:
            stats.exchanges[turn] = stats.exchanges.get(turn, 0) + 1
        phase_seed = chance.sha256(seed + b"phase" + number.to_bytes(4, "big"))
        answers: dict[int, Any] = {}
        while True:
            try:
                resolution = ruleset.resolve(state, submissions, chance.Dice(phase_seed), Decisions(answers))
                break
            except DecisionNeeded as need:
                request = need.request
                if stats is not None:
                    stats.decisions[turn] = stats.decisions.get(turn, 0) + 1
                answers[request.index] = ruleset.bot_answer(
                    {"topic": request.topic, "section": request.section, "question": request.question,
                     "options": request.options, "side": request.side}, seed)
        state = resolution.state
        yield state
    raise PbemError(f"the game did not end within {max_phases} phases")
