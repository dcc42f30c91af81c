"""Bot-against-bot play straight through `resolve`, without keys or files (tests and benchmarks).

The same loop as the referee's (`pbem.core.adjudicator.resolve_adjudication`), minus the archive:
each awaited side's bot writes orders from its own view, the orders are validated against that
view exactly as the referee would, and phases resolve with a seeded `Dice`; every decision goes
to the deciding side's `bot_answer`, as a mail exchange would. A full game through real files
is `pbem.demo`; this is the fast path for playing many games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from .core import chance
from .core.errors import PbemError
from .core.ruleset import STANDING_KEY, DecisionNeeded, Decisions, Ruleset, State, Submission, start


@dataclass
class Stats:
    """Mail exchanges a game would take, by game turn (the state's `turn`)."""

    exchanges: dict[int, int] = field(default_factory=dict)  # game turn -> order rounds
    decisions: dict[int, int] = field(default_factory=dict)  # game turn -> decision requests

    def count(self, table: dict[int, int], state: State) -> None:
        turn = int(state.get("turn", 0))
        table[turn] = table.get(turn, 0) + 1


def play_states(ruleset: Ruleset[Any], scenario: Mapping[str, Any], seed: bytes, *,
                standing: Mapping[str, Mapping[str, Any]] | None = None, stats: Stats | None = None,
                max_phases: int = 4000) -> Iterator[State]:
    """Yield the state after every resolved phase of one bot game (the last one is over).

    `standing`, when given, replaces every side's standing answers at the start.
    """
    rules, state = start(ruleset, scenario)
    sides = ruleset.sides(scenario)
    if standing is not None:
        state[STANDING_KEY] = {side: dict(standing.get(side, {})) for side in sides}
    yield state
    for number in range(max_phases):
        if rules.result(state) is not None:
            return
        submissions: dict[str, Submission | None] = {side: None for side in sides}
        awaited = rules.awaiting(state)
        for side in awaited:
            view = rules.view(state, side)
            orders = rules.bot_orders(view, side, chance.sha256(seed + side.encode() + number.to_bytes(4, "big")))
            problems = rules.validate(view, side, orders)
            if problems:
                raise PbemError(problems)
            submissions[side] = Submission(side, orders)
        if stats is not None and awaited:
            stats.count(stats.exchanges, state)
        phase_seed = chance.sha256(seed + b"phase" + number.to_bytes(4, "big"))
        answers: dict[int, Any] = {}
        while True:
            try:
                resolution = rules.resolve(state, submissions, chance.Dice(phase_seed), Decisions(answers))
                break
            except DecisionNeeded as need:
                request = need.request
                if stats is not None:
                    stats.count(stats.decisions, state)
                answers[request.index] = ruleset.bot_answer(
                    {"topic": request.topic, "section": request.section, "question": request.question,
                     "options": request.options, "side": request.side}, seed)
        state = resolution.state
        yield state
    raise PbemError(f"the game did not end within {max_phases} phases")
