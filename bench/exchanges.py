"""Mail exchanges per game turn against the least any adjudicator could need.

An exchange is one round trip of mail: the referee sends views (or a decision request) and the
awaited side(s) send orders (or a reply) back. The floor is the number of times the phase
sequence hands the initiative to another side (the awaited set of sides changes): two phases in
a row awaited from the same side could, at best, share one exchange, so every exchange beyond
the hand-overs is one the phase sequence does not force. Counted on complete bot games.

    python bench/exchanges.py [--games 3] [--ask]

With --ask every side keeps `ask` for every decision its ruleset lets it put to `ask` (the
most mail a player can choose); without it, the rulesets' default standing answers. A topic
answered per unit (bst's `opfire` and `close_combat`: a mapping from unit to answer) gets `ask`
for every unit of the side in the scenario's `setup.units`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Mapping, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import setup_game, table  # noqa: E402
from pbem.core import yamlio  # noqa: E402
from pbem.core.adjudicator import adjudicate  # noqa: E402
from pbem.core.game import load_game  # noqa: E402
from pbem.core.position import current_position  # noqa: E402
from pbem.core.ruleset import get as get_ruleset, shipped  # noqa: E402


def offers_ask(schema: Mapping[str, Any]) -> bool:
    """Whether a standing answer's schema lets it be `ask` (directly or in a oneOf branch)."""
    return "ask" in schema.get("enum", []) or any(offers_ask(branch) for branch in schema.get("oneOf", []))


def ask_everything(ruleset_id: str, units: Sequence[str] = ()) -> dict[str, object]:
    """Standing answers `ask` for every topic whose options include it; a topic answered per
    unit (an object whose values may be `ask`) gets `ask` for each of `units`."""
    topics = get_ruleset(ruleset_id).standing_schema().get("properties", {})
    answers: dict[str, object] = {topic: "ask" for topic, schema in topics.items() if offers_ask(schema)}
    for topic, schema in topics.items():
        per_unit = schema.get("additionalProperties")
        if schema.get("type") == "object" and isinstance(per_unit, dict) and offers_ask(per_unit) and units:
            answers[topic] = {unit: "ask" for unit in units}
    return answers


def units_of(scenario: Mapping[str, Any], side: str) -> list[str]:
    """The side's units in the scenario's `setup.units` (empty when it has none)."""
    setup = scenario.get("setup") or {}
    found = setup.get("units") if isinstance(setup, Mapping) else None
    if not isinstance(found, Mapping):
        return []
    return sorted(uid for uid, unit in found.items() if isinstance(unit, Mapping) and unit.get("side") == side)


def game_turn(state: dict) -> object:  # type: ignore[type-arg]
    return state.get("turn", "?")


def play(ruleset_id: str, workdir: Path, secret: bytes, ask: bool = False) -> list[tuple[object, tuple[str, ...], str]]:
    """(game turn, sides asked, what) for every exchange of one complete bot game."""
    game = setup_game(ruleset_id, workdir, secret=secret)
    if ask:
        doc = load_game(game.root).doc
        scenario = yamlio.load_file(game.root / doc["scenario"]["file"]).data
        game.standing = {side: ask_everything(ruleset_id, units_of(scenario, side)) for side in game.players}
    asked: list[tuple[object, tuple[str, ...], str]] = []
    while True:
        position = current_position(load_game(game.root))
        if position.over():
            return asked
        turn = game_turn(position.state)
        awaiting = position.awaiting()
        asked.append((turn, tuple(sorted(awaiting)), "orders"))
        for side in awaiting:
            game.play_orders(side)
        report = adjudicate(game.root, game.referee)
        while not report.committed:
            side = yamlio.load_bytes((game.root / report.files[0]).read_bytes(), report.files[0]).data["side"]
            asked.append((turn, (side,), "decision"))
            game.answer(side, report.files[0])
            report = adjudicate(game.root, game.referee)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rulesets", default=",".join(shipped()))
    parser.add_argument("--ask", action="store_true", help="every side answers `ask` to every decision it can")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset_id in args.rulesets.split(","):
            per_turn_ex: dict[object, int] = defaultdict(int)
            per_turn_ho: dict[object, int] = defaultdict(int)
            decisions = 0
            for g in range(args.games):
                asked = play(ruleset_id, Path(tmp) / f"{ruleset_id}-{g}", bytes([g + 1]) * 32, args.ask)
                previous: tuple[str, ...] | None = None
                for turn, sides, what in asked:
                    per_turn_ex[(g, turn)] += 1
                    decisions += what == "decision"
                    if sides != previous:
                        per_turn_ho[(g, turn)] += 1  # the first exchange of a game counts as one hand-over
                    previous = sides
            turns = len(per_turn_ex)
            exchanges, handovers = sum(per_turn_ex.values()), sum(per_turn_ho.values())
            rows.append([ruleset_id, args.games, turns, exchanges, decisions, f"{exchanges / turns:.2f}",
                         f"{handovers / turns:.2f}", f"{exchanges / handovers:.2f}"])
    print(table(["ruleset", "games", "game turns (incl. setup)", "exchanges", "of which decisions",
                 "exchanges/turn", "hand-overs/turn (floor)", "exchanges/floor"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
