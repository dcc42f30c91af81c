"""The fbsm event catalogue (pbem/rulesets/fbsm/events.py) is the whole truth about fbsm's events.

Every event bot games produce, every event of the recorded sample and every event the case files
resolve to has a catalogued type, exactly the catalogued fields (nested ones too) and one of its
catalogued sections; every catalogued type turns up somewhere, and fog and pictures know each one.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.cases import RESOLUTION_KEYS, CaseDice, case_orders, load_case, situation
from pbem.core.ruleset import Decisions, DecisionNeeded, Submission, rules_for
from pbem.rulesets.fbsm import Fbsm, events, random_events, selfplay
from pbem.rulesets.fbsm.context import plain_tables

from .layout import case_files

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
RULESET = Fbsm()
GAMES = 4


def bot_events() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for number in range(GAMES):
        for _, produced in selfplay.games_events(SCENARIO, b"catalogue" + bytes([number])):
            found += produced
    return found


def sample_events() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in sorted((ROOT / "samples" / "fbsm" / "game" / "turns").glob("*/turn.yaml")):
        found += yamlio.load_file(path).data["events"]
    return found


def case_events() -> list[dict[str, Any]]:
    """The events of every fbsm case file whose orders are accepted and whose phase resolves."""
    found: list[dict[str, Any]] = []
    for path in case_files(ROOT, "fbsm"):
        case = load_case(path).data
        expect = case["expect"]
        if not expect["accepted"] or not (case.get("dice") or case.get("decisions")
                                          or any(key in expect for key in RESOLUTION_KEYS)):
            continue  # refused orders, or an acceptance case (as pbem.core.cases runs them)
        rules, state = situation(case, path.parent)
        orders = case_orders(case)
        submissions = {side: Submission(side, list(orders[side])) if side in orders else None
                       for side in case.get("sides") or RULESET.sides({})}
        try:
            resolution = rules.resolve(copy.deepcopy(state), submissions, CaseDice(case.get("dice") or []),
                                       Decisions(dict(enumerate(case.get("decisions") or []))))
        except DecisionNeeded:
            continue
        found += resolution.events
    return found


def void_events() -> list[dict[str, Any]]:
    """`order-void` guards orders that no longer apply; validated orders never reach it, so these are not validated."""
    found: list[dict[str, Any]] = []
    for phase, orders in (("german-first-fire", [{"fire": "2234", "with": ["G01"]}]),
                          ("german-movement", [{"move": "G02", "path": ["2235"]}])):
        state = {"phase": phase, "units": {"G01": {"hex": "2236"}, "G02": {"status": "container"},
                                           "US01": {"hex": "2230"}}}
        resolution = rules_for(RULESET, state).resolve(state, {"german": Submission("german", orders), "us": None},
                                                       CaseDice([]), Decisions())
        found += resolution.events
    return found


BOTS = bot_events()
SAMPLE = sample_events()
CASES = case_events()
VOID = void_events()


@pytest.mark.parametrize("source", ["bots", "sample", "cases", "void"])
def test_every_event_matches_the_catalogue(source: str) -> None:
    found = {"bots": BOTS, "sample": SAMPLE, "cases": CASES, "void": VOID}[source]
    assert len(found) > (1 if source == "void" else 100)
    wrong = [f"{problem}: {event}" for event in found for problem in events.problems(event)]
    assert wrong == []


def test_every_catalogued_type_happens() -> None:
    seen = {event["type"] for event in BOTS + SAMPLE + CASES + VOID}
    assert seen == set(events.EVENTS)


def test_the_check_finds_what_is_off() -> None:
    good = {"type": "turn", "section": "5.3", "turn": 2}
    assert events.problems(good) == []
    assert events.problems({"type": "earthquake"}) == ["unknown event type 'earthquake'"]
    assert events.problems({**good, "extra": 1}) == ["turn: unlisted extra"]
    assert events.problems({"type": "turn", "section": "5.3"}) == ["turn: missing turn"]
    assert events.problems({**good, "section": "5.2"}) == ["turn: section '5.2' is not one of 5.3"]
    fire = next(event for event in CASES if event["type"] == "fire")
    broken = copy.deepcopy(fire)
    broken["results"] = [{"unit": "G01"}]
    assert events.problems(broken) == ["fire.results[0]: missing side, roll, eliminated"]


def test_the_public_events_are_6_5s() -> None:
    assert events.PUBLIC == {"us-setup", "german-setup", "random-event", "breakthrough", "reinforcements", "drift",
                             "victory", "turn", "markers-drawn", "concede"}
    for name, spec in events.EVENTS.items():
        assert spec.sections and spec.what, name
        assert not (spec.public and spec.shown), name  # a public event is seen whole
        if spec.shown is not None:
            assert {"type", "side", "section"} <= set(spec.shown) <= {"type", *spec.fields}, name


def test_the_other_side_sees_no_more_than_the_catalogue_shows() -> None:
    rules = rules_for(RULESET, {})
    derived = {"fire": {"firers", "results"}, "advance": {"count"}, "placed": {"hexes"}, "move": {"exit", "unit"},
               "bombardment": {"results"}}
    for event in BOTS + CASES + VOID:
        spec = events.EVENTS[event["type"]]
        other = "us" if event.get("side") == "german" else "german"
        shown = rules.visible(event, other)
        if spec.public or "side" not in event:
            assert shown == event
        elif spec.shown is None:
            assert shown is None
        else:
            assert shown is not None
            assert set(shown) <= set(spec.shown) | derived.get(event["type"], set()), event["type"]


def test_every_event_type_has_a_sentence() -> None:
    adapter = RULESET.picture(rules_for(RULESET, {}).context)
    examples = {event["type"]: event for event in BOTS + CASES + VOID}
    for name in events.EVENTS:
        assert adapter.sentence(examples[name], {"side": "us", "state": {}, "events": []}), name


def test_the_random_events_table_names_the_catalogued_events() -> None:
    sections = events.EVENTS["random-event"].sections
    assert set(random_events.SECTIONS) == set(plain_tables()["random_events"].values())
    assert set(random_events.SECTIONS.values()) | {"7.1"} == set(sections)
