"""Every event toc emits matches its catalogue (`pbem.rulesets.toc.events`), and `visible` follows it.

The events come from bot games straight through `resolve` (`selfplay`, with the default standing
answers and with `ask` for every decision) and from the recorded sample game
(samples/toc/game/turns/*/turn.yaml).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.cases import CaseDice
from pbem.core.ruleset import Decisions, Submission, rules_for
from pbem.rulesets.toc import Toc, selfplay
from pbem.rulesets.toc.context import prepare
from pbem.rulesets.toc.events import EVENTS, PUBLIC, problems
from pbem.rulesets.toc.fog import visible
from pbem.rulesets.toc.picture import SENTENCES, SILENT

ROOT = Path(__file__).resolve().parent.parent
SIDES = ("german", "british")
ASK = {topic: "ask" for topic in ("defensive_fire", "fire_losses", "own_losses", "bombard_losses", "advance",
                                  "overstack")}


def game_events(seed: bytes, standing: dict[str, dict[str, str]] | None = None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for _ in selfplay.games_states({"setup": {}}, seed, standing=standing, events=found):
        pass
    return found


GAMES = [game_events(b"events" + bytes([n])) for n in range(3)] + [game_events(b"events ask", {s: ASK for s in SIDES})]


def sample_events() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in sorted((ROOT / "samples" / "toc" / "game" / "turns").glob("*/turn.yaml")):
        found += yamlio.load_file(path).data["events"]
    return found


SAMPLE = sample_events()


@pytest.mark.parametrize("events", GAMES + [SAMPLE], ids=[f"game{n}" for n in range(len(GAMES))] + ["sample"])
def test_every_event_matches_the_catalogue(events: list[dict[str, Any]]) -> None:
    assert events
    wrong = [(event.get("type"), problem) for event in events for problem in problems(event)]
    assert wrong == []


def test_the_games_emit_most_types_of_the_catalogue() -> None:
    seen = {event["type"] for events in GAMES + [SAMPLE] + [made_by_hand()] for event in events}
    assert seen == set(EVENTS)


def made_by_hand() -> list[dict[str, Any]]:
    """Events the bots never cause: a restacking, a void order, an overstacked hex, a concession."""
    ruleset = Toc()
    found: list[dict[str, Any]] = []
    units = {"G-IR8": {"hex": "3105"}, "G-IR12": {"hex": "3105"}, "G-FA18": {"hex": "3106"}, "B-RF": {"hex": "3122"}}
    for orders in ([{"top": "G-FA18"}, {"move": ["G-IR8"], "path": ["9999"]}], [{"concede": True}]):
        state = {"phase": "german-movement", "turn": 2, "units": units}
        submissions: dict[str, Submission | None] = {"german": Submission("german", orders), "british": None}
        found += rules_for(ruleset, state).resolve(state, submissions, CaseDice([]), Decisions()).events
    return found


def test_events_the_bots_never_cause_match_the_catalogue() -> None:
    events = made_by_hand()
    assert {"top", "order-void", "overstack", "concede", "victory"} <= {event["type"] for event in events}
    assert [(event["type"], problem) for event in events for problem in problems(event)] == []


def test_catalogue_checks_catch_a_bad_event() -> None:
    good = {"type": "turn", "section": "5.4", "turn": 3}
    assert problems(good) == []
    assert problems({**good, "section": "9.1"}) and problems({**good, "turn": "3"})
    assert problems({**good, "extra": 1}) and problems({"type": "turn", "section": "5.4"})
    assert problems({"type": "teleport", "section": "9.1"})
    assert problems({"type": "move", "section": "9.1", "side": "german", "units": [], "from": None, "path": [],
                     "march": 1})  # a number is not a yes/no


def test_visible_follows_the_catalogue() -> None:
    ctx = prepare({})
    for event in [e for events in GAMES for e in events] + SAMPLE:
        kind = EVENTS[event["type"]]
        for side in SIDES:
            shown = visible(ctx, event, side)
            if event.get("side") == side:
                assert shown == event
            elif not kind.public:
                assert shown is None
            else:
                assert shown is not None and event["type"] in PUBLIC
                assert set(shown) == set(event) - set(kind.hidden)
                for name in shown:
                    expected = len(event[name]) if name in kind.counted else event[name]
                    assert shown[name] == expected, (event["type"], name)


def test_the_report_has_a_sentence_for_every_type_it_does_not_leave_out() -> None:
    assert set(SENTENCES) | SILENT == set(EVENTS) and not set(SENTENCES) & SILENT
