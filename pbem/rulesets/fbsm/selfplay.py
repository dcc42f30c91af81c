"""Bot-against-bot play straight through `resolve`, without keys or files (tests and benchmarks).

The same loop as the referee's (`pbem.core.adjudicator.resolve_adjudication`), minus the archive:
each awaited side's bot writes orders from its own view, the orders are validated against that
view exactly as the referee would, and the phase is resolved with a seeded `Dice`. A full game
through real files is `pbem.demo`; this is the fast path for playing many games.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from pbem.core import chance
from pbem.core.errors import PbemError
from pbem.core.ruleset import DecisionNeeded, Decisions, Submission

from .ruleset import Fbsm


def games_states(scenario: Mapping[str, Any], seed: bytes, max_phases: int = 4000) -> Iterator[dict[str, Any]]:
    """Yield the state after every resolved phase of one bot game (the last one is over)."""
    ruleset = Fbsm()
    state = ruleset.initial_state(scenario)
    yield state
    for number in range(max_phases):
        if ruleset.result(state) is not None:
            return
        submissions: dict[str, Submission | None] = {side: None for side in ruleset.sides(scenario)}
        for side in ruleset.awaiting(state):
            view = ruleset.view(state, side)
            orders = ruleset.bot_orders(view, side, chance.sha256(seed + side.encode() + number.to_bytes(4, "big")))
            problems = ruleset.validate(view, side, orders)
            if problems:
                raise PbemError(problems)
            submissions[side] = Submission(side, orders)
        phase_seed = chance.sha256(seed + b"phase" + number.to_bytes(4, "big"))
        answers: dict[int, Any] = {}
        while True:
            try:
                resolution = ruleset.resolve(state, submissions, chance.Dice(phase_seed), Decisions(answers))
                break
            except DecisionNeeded as need:
                request = need.request
                answers[request.index] = ruleset.bot_answer(
                    {"topic": request.topic, "section": request.section, "question": request.question,
                     "options": request.options, "side": request.side}, seed)
        state = resolution.state
        yield state
    raise PbemError(f"the game did not end within {max_phases} phases")
