"""fbsm's answers to the newcomer's fourth run: legal examples in docs/fbsm.md, and problems that cite a rule and
say what is legal (a schema refusal included), judged from the side's own view only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.core import order_shapes, schemas, yamlio
from pbem.core.errors import Problem
from pbem.core.orders import rule_problems
from pbem.core.ruleset import rules_for, start
from pbem.rulesets.fbsm import Fbsm
from pbem.rulesets.fbsm.context import prepare

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
CFG = prepare({"map": "second-marne", "play_balance": False})
RULESET = Fbsm()

# The phase each kind of order of the docs' examples is for, and the side that gives it there.
PHASE_OF = {"setup": ("us-setup", "us"), "place": ("german-placement", "german"),
            "bombard": ("german-first-bombardment", "german"), "move": ("german-movement", "german"),
            "fire": ("german-first-fire", "german"), "heavy_mg": ("german-first-fire", "german"),
            "concede": ("us-movement", "us")}


def _examples() -> list[str]:
    return re.findall(r"`(\{[a-z_]+: [^`]*\})`", (ROOT / "docs" / "fbsm.md").read_text())


def _problems(state: dict[str, Any], side: str, order: dict[str, Any]) -> list[Problem]:
    rules = rules_for(RULESET, state)
    view = rules.view(state, side)
    return rules.validate(view, side, [order])


def _next_to(target: str) -> list[str]:
    return [hex_id for hex_id in CFG.neighbours(target) if CFG.on_map(hex_id) and not CFG.impassable(hex_id)]


def _positions(order: dict[str, Any], phase: str) -> list[dict[str, Any]]:
    """The positions (compact states) the example is meant for: its units near the hexes it names, the
    enemy in the hex it fires at; each tried until one takes the order (the rules decide)."""
    tag = next(iter(order))
    if tag == "setup":
        return [start(RULESET, SCENARIO)[1]]
    if tag == "place":
        return [{"phase": phase, "turn": 2, "units": {order["place"]: {"status": "drawn"}, "US01": {"hex": "2236"}},
                 "pending": {"kind": "reinforcement", "units": [order["place"]]}}]
    if tag == "move":
        first = order["path"][0]
        return [{"phase": phase, "turn": 2, "units": {order["move"]: {"hex": here}, "US01": {"hex": "1001"}}}
                for here in _next_to(first) if here not in order["path"]]
    if tag in ("fire", "bombard"):
        target = order[tag]
        firers = order["with"] if tag == "fire" else [order["spotter"]]
        return [{"phase": phase, "turn": 2, "units": {**{uid: {"hex": here} for uid in firers},
                                                      "US01": {"hex": target}}}
                for here in _next_to(target)]
    if tag == "heavy_mg":
        return [{"phase": phase, "turn": 2, "effects": {"heavy_mg": True},
                 "units": {order["heavy_mg"]: {"hex": "2236"}, "US01": {"hex": "1001"}}}]
    return [{"phase": phase, "turn": 2, "units": {"US01": {"hex": "2236"}, "G01": {"hex": "3000"}}}]


def test_the_docs_give_an_example_of_every_kind() -> None:
    assert {next(iter(yaml.safe_load(text))) for text in _examples()} == set(PHASE_OF)


@pytest.mark.parametrize("text", _examples())
def test_every_order_example_in_the_docs_is_legal_in_its_phase(text: str) -> None:
    order = yaml.safe_load(text)
    phase, side = PHASE_OF[next(iter(order))]
    assert schemas.is_valid([order], RULESET.order_schema(phase)), text
    said = [_problems(state, side, order) for state in _positions(order, phase)]
    assert said and any(not found for found in said), (text, said[0])


def test_the_us_setup_example_is_in_a_us_setup_zone() -> None:
    """The example the newcomer met (2717, in neither zone, 3.4) is refused: the test above can fail."""
    state = start(RULESET, SCENARIO)[1]
    assert [p.section for p in _problems(state, "us", {"setup": "US01", "hex": "2717"})] == ["3.4"]
    assert _problems(state, "us", {"setup": "US01", "hex": "2617"}) == []


def test_the_templates_setup_hint_is_the_docs_example() -> None:
    hint = RULESET.order_kinds("us-setup")[0]
    assert hint.split("   ")[0] in _examples()


# --- the schema's refusals cite a rule and say what is legal -------------------------------------------------


def _checked(phase: str, side: str, state: dict[str, Any], orders: str) -> list[Problem]:
    doc = yamlio.load_bytes(f"orders:\n{orders}".encode(), "orders.yaml")
    rules = rules_for(RULESET, state)
    found = rule_problems(doc, rules, rules.view(state, side), side, phase)
    return [problem for problem in found if problem.order is not None]  # (this file has no envelope)


MOVEMENT = {"phase": "german-movement", "turn": 2, "units": {"G02": {"hex": "3137"}, "G07": {"hex": "2236"},
                                                              "US01": {"hex": "1733"}, "US02": {"hex": "2230"}}}
BOMBARDMENT = {**MOVEMENT, "phase": "german-first-bombardment"}
FIRE_PHASE = {**MOVEMENT, "phase": "german-first-fire"}
US_MOVEMENT = {**MOVEMENT, "phase": "us-movement"}


def test_a_move_order_given_a_list_says_one_unit_per_move_order() -> None:
    [problem] = _checked("german-movement", "german", MOVEMENT, '- {move: [G02], path: ["3136"]}\n')
    assert "got a list" in problem.message and "a move order names one unit" in problem.message
    assert problem.section == "9.4" and (problem.legal or "").startswith("a move order like {move: G")
    assert "(rule 9.4)" in str(problem) and "legal: a move order like" in str(problem)


def test_a_bombard_order_without_its_spotter_cites_11_2() -> None:
    [problem] = _checked("german-first-bombardment", "german", BOMBARDMENT, '- {bombard: "2230", markers: [heavy-1]}\n')
    assert 'missing required key "spotter"' in problem.message
    assert problem.section == "11.2" and problem.legal is not None and "spotter: " in problem.legal


def test_an_unknown_key_keeps_its_guess_and_cites_its_kind() -> None:
    problems = _checked("german-movement", "german", MOVEMENT, '- {move: G02, pth: ["3136"]}\n')
    [unknown] = [problem for problem in problems if "pth" in problem.message]
    assert 'did you mean "path"?' in unknown.message and unknown.section == "9.1" and unknown.legal


def test_a_rule_problem_keeps_its_own_section_and_legal() -> None:
    branch = {"description": "9.1: a move", "properties": {"move": {"description": "9.4: one unit"}}}
    problem = Problem("expected a string, got a list", path=("orders", 0, "move"), section="3.1", legal="X")
    assert order_shapes._cited(problem, branch, "a move order") is problem


def test_a_kind_without_a_section_is_left_as_the_schema_says() -> None:
    branch = {"type": "object", "required": ["x"], "properties": {"x": {"type": "string"}}}
    problem = Problem("missing required key \"x\"", path=("orders", 0))
    assert order_shapes._cited(problem, branch, "a x order") is problem
    cited = order_shapes._cited(problem, {**branch, "description": "V2, V4: an x"}, "a x order")
    assert (cited.section, cited.legal) == ("V2, V4", "a x order")


# --- the rules' refusals say what is legal, from the side's own view ---------------------------------------


def test_an_unknown_spotter_is_guessed_and_the_legal_names_your_units_on_the_map() -> None:
    [problem] = _checked("german-first-bombardment", "german", BOMBARDMENT,
                         '- {bombard: "2230", markers: [heavy-1], spotter: G7}\n')
    assert problem.message == "G7 is not one of your units on the map: did you mean G07?"
    assert problem.section == "11.2" and problem.legal == "one of your units on the map: G02, G07"


def test_a_us_unit_that_exits_is_told_to_leave_exit_out() -> None:
    [problem] = _checked("us-movement", "us", US_MOVEMENT, '- {move: US02, path: ["2229"], exit: true}\n')
    assert "only German units move off the map" in problem.message
    assert problem.section == "4.3" and problem.legal is not None and "leave exit out" in problem.legal


def test_a_firer_out_of_range_is_told_the_hexes_in_its_range_and_sight() -> None:
    [problem] = _checked("german-first-fire", "german", FIRE_PHASE, '- {fire: "1733", with: [G07]}\n')
    assert "beyond its range" in problem.message and problem.section == "10.6"
    assert problem.legal is not None and "in range and sight of G07" in problem.legal
    assert "1733" not in problem.legal.rsplit(":", 1)[-1]


def test_the_legal_of_a_firer_out_of_range_shows_no_hidden_unit() -> None:
    """6.5: the legal lists enemy hexes the side sees: a hidden enemy's id never shows, only its hex."""
    [problem] = _checked("german-first-fire", "german", {**FIRE_PHASE, "units": {**FIRE_PHASE["units"],
                                                                                  "US03": {"hex": "2235"}}},
                         '- {fire: "1733", with: [G07]}\n')
    assert problem.legal == "an enemy hex in range and sight of G07: 2235"


# --- fbsm: the unit's own hex at the head of its path -------------------------------------------------------


def test_a_path_starting_at_the_units_own_hex_says_leave_it_out() -> None:
    [problem] = _checked("german-movement", "german", MOVEMENT, '- {move: G07, path: ["2236", "2235"]}\n')
    assert "leave 2236 out: a path starts with the first hex entered" in problem.message
    assert problem.section == "9.1" and problem.path[-1] == 0
    steps = (problem.legal or "").split(", ")
    assert steps and all(re.fullmatch(r"[0-9]{4}", step) for step in steps), problem.legal
    assert set(steps) <= set(CFG.neighbours("2236")) and "2235" in steps


def test_a_first_step_that_is_not_adjacent_is_still_said_so() -> None:
    [problem] = _checked("german-movement", "german", MOVEMENT, '- {move: G07, path: ["2238"]}\n')
    assert "2238 is not adjacent to 2236" in problem.message


def test_a_guess_reads_the_first_id_of_a_legal_that_opens_with_words() -> None:
    [problem] = _checked("german-first-bombardment", "german", BOMBARDMENT,
                         '- {bombard: "2230", markers: [heavy-1], spotter: G2}\n')
    assert problem.message == "G2 is not one of your units on the map: did you mean G02?"


def test_a_hex_listed_twice_in_a_row_is_told_to_be_left_out_once() -> None:
    [problem] = _checked("german-movement", "german", MOVEMENT, '- {move: G07, path: ["2235", "2235"]}\n')
    assert problem.message == "2235 is listed twice in a row: leave one out" and problem.path[-1] == 1


def test_an_unknown_mover_is_guessed_among_your_infantry_on_the_map() -> None:
    [problem] = _checked("german-movement", "german", MOVEMENT, '- {move: G7, path: ["2235"]}\n')
    assert problem.message == "G7 is not one of your units: did you mean G07?"
    assert problem.section == "9.1" and problem.legal == "your infantry on the map: G02, G07"
