"""The rules' messages a newcomer's hand-written toc and fbsm orders found wanting (issue: newcomer 3).

1. a unit id with a leading zero dropped or added (G7 for G07) is answered with that id first;
   an fbsm move of an id no counter has is refused, not a crash;
2. toc: an order of the wrong kind for the phase says what is legal now and where it goes; a
   stack that did not begin together says where each began; a bombardment or melee of an empty
   hex names the enemy hexes the side sees that it may bombard or attack;
3. toc's picture says whose victory points, and of what;
4. a schema refusal says the form a pattern demands in words, a unit id's guess first;
5. fbsm set-up, fire and bombardment refusals list what is legal: the US units still to set up,
   the map's extent, the nearest free zone hexes, the enemy hexes in sight.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.core.cases import situation
from pbem.core.errors import Problem
from tests.test_cli_lifecycle import run

REPO = Path(__file__).resolve().parent.parent
FBSM_GAME = REPO / "samples" / "fbsm" / "game"


def orders_file(tmp_path: Path, view: Path, orders: str, name: str = "o.yaml") -> Path:
    """An orders file for the side and seq `view` awaits (`pbem orders` made), with `orders` as its list."""
    made = run("orders", view)
    assert made.rc == 0, made.err
    header = [line for line in made.out.splitlines() if not line.startswith("#") and not line.startswith("orders")]
    path = tmp_path / name
    path.write_text("\n".join(header) + "\norders:\n" + orders, encoding="utf-8")
    return path


def validate(case: dict[str, Any], side: str, orders: list[Any]) -> list[Problem]:
    rules, state = situation(case, REPO)
    return list(rules.validate(rules.view(state, side), side, orders))


# --- 1. a leading zero ----------------------------------------------------------------------------------------


def test_a_dropped_or_added_leading_zero_is_the_one_guess() -> None:
    from pbem.core.guesses import close_names

    names = ["G97", "G87", "G79", "G07", "G70"]
    assert close_names("G7", names) == ["G07"]  # was G97, G87, G79: difflib's ties, highest first
    assert close_names("G007", names) == ["G07"]
    assert close_names("US1", ["US01", "US11", "US10", "HW01"]) == ["US01"]
    assert close_names("GO7", names) == ["G07"]  # a look-alike letter and no zero dropped
    assert close_names("G8", ["G87", "G98"]) != []  # no zero to restore: difflib still guesses


def test_an_fbsm_move_of_an_unknown_id_is_refused_with_the_id_meant(tmp_path: Path) -> None:
    view = FBSM_GAME / "turns" / "0003" / "german.yaml"
    result = run("check", view, orders_file(tmp_path, view, '  - {move: G7, path: ["4130"]}\n'))
    assert result.rc == 1 and "Traceback" not in result.err, result.err  # was a KeyError
    [line] = [line for line in result.out.splitlines() if "G7 is not" in line]
    assert "G7 is not one of your units: did you mean G07? (rule 9.1)" in line, line


def test_a_schema_refusal_of_an_unpadded_id_names_the_padded_one() -> None:
    from pbem.core.guesses import with_a_look_alike

    view = {"units": {"G07": {"side": "german"}, "U07": {"side": "us"}}}
    problem = Problem('"g7" does not have the expected form', path=("orders", 0, "move"))
    said = with_a_look_alike(problem, {"orders": [{"move": "g7"}]}, view, "german")
    assert said.message.endswith(": did you mean G07?"), said
    assert "U07" not in with_a_look_alike(problem, {"orders": [{"move": "u7"}]}, view, "german").message  # not ours


# --- 2. toc: what the phase takes, where each unit began, what may be bombarded -------------------------------

TOC_FRONT = {"B-FA27": {"hex": "3108"}, "B-RF": {"hex": "3107"}, "G-IR8": {"hex": "3106"}}


def toc_case(phase: str, units: dict[str, Any], **state: Any) -> dict[str, Any]:
    return {"scenario": "samples/toc/scenario.yaml", "state": {"phase": phase, "turn": 3, "units": units, **state}}


def test_a_bombardment_in_the_british_movement_phase_says_where_it_goes() -> None:
    [problem] = validate(toc_case("british-first", TOC_FRONT), "british", [{"bombard": "3106", "with": ["B-FA27"]}])
    assert problem.section == "5.2" and problem.path == ("bombard",), problem  # was "this is a movement phase"
    assert problem.message == "a bombard order is not allowed in british-first, a movement phase (sequence move-fight)"
    assert problem.legal == ("sequence (first), move, top, next_phase (last), concede; a bombard order goes in the "
                             "last order, {next_phase: [...]}, for british-second, or name {sequence: fight-move} or "
                             "{sequence: fight-fight} as the first order to make this a combat phase (5.3)")
    for legal in ([{"sequence": "fight-move"}, {"bombard": "3106", "with": ["B-FA27"]}],  # each way it names is legal
                  [{"next_phase": [{"bombard": "3106", "with": ["B-FA27"]}]}]):
        assert validate(toc_case("british-first", TOC_FRONT), "british", legal) == []


def test_a_move_carried_into_a_combat_phase_is_told_the_sequence_stands() -> None:
    orders = [{"sequence": "fight-fight"}, {"bombard": "3106", "with": ["B-FA27"]}]
    [problem] = validate(toc_case("british-second", TOC_FRONT, sequence="fight-fight"), "british",
                         [{"move": ["B-RF"], "path": ["3007"]}])
    assert problem.legal == ("bombard, melee, concede; the British sequence named for this player turn stands to its "
                             "end (5.3): no movement phase is left"), problem
    assert validate(toc_case("british-first", TOC_FRONT), "british", orders) == []  # the control
    [carried] = validate(toc_case("british-first", TOC_FRONT), "british",
                         [{"sequence": "move-move"}, {"next_phase": [{"melee": "3106", "with": ["B-RF"]}]}])
    assert carried.path == ("next_phase", 0, "melee") and carried.message.startswith(
        "british-second, the next phase, is a movement phase (sequence move-move)"), carried
    assert carried.legal is not None and carried.legal.startswith("move, top; "), carried


@pytest.mark.parametrize("began, said, path", [  # 9.5: began apart / began together but split during the phase
    ("1404", ": G-IR8 began in 1403; G-FA18 began in 1404", ["1405"]),
    ("1403", ": G-IR8 in 1404; G-FA18 in 1403 (9.5: a stack moves from where it stands)", ["1404", "1405"]),
])
def test_a_stack_that_is_no_stack_is_told_where_each_unit_began_or_stands(began: str, said: str,
                                                                          path: list[str]) -> None:
    case = toc_case("german-movement", {"G-IR8": {"hex": "1403"}, "G-FA18": {"hex": began}, "B-WK": {"hex": "3122"}})
    [problem] = validate(case, "german", [{"move": ["G-IR8"], "path": ["1404"]},
                                          {"move": ["G-IR8", "G-FA18"], "path": ["1405"]}])
    assert problem.section == "9.5" and problem.order == 1 and problem.message.endswith(said), problem
    assert problem.legal == "one move order for each of [G-IR8], [G-FA18]", problem
    assert validate(case, "german", [{"move": ["G-IR8"], "path": ["1404", "1405"]},  # what it names, done
                                     {"move": ["G-FA18"], "path": path}]) == []


BOMBARD_FRONT = {"G-FA18": {"hex": "3104"}, "G-IR8": {"hex": "3105"}, "B-RF": {"hex": "3106"},
                 "B-N": {"hex": "3106"}, "B-WK": {"hex": "3122"}}


def test_a_bombardment_of_an_empty_hex_names_the_enemy_hexes_in_range() -> None:
    [problem] = validate(toc_case("german-combat", BOMBARD_FRONT), "german", [{"bombard": "3107", "with": ["G-FA18"]}])
    assert problem.section == "10.1" and problem.legal == "3106 (by G-FA18)", problem  # 3122 is out of its range
    assert validate(toc_case("german-combat", BOMBARD_FRONT), "german", [{"bombard": "3106", "with": ["G-FA18"]}]) == []
    far = {uid: unit for uid, unit in BOMBARD_FRONT.items() if uid != "B-RF" and uid != "B-N"}
    [none] = validate(toc_case("german-combat", far), "german", [{"bombard": "3107", "with": ["G-FA18"]}])
    assert none.legal is not None and none.legal.startswith("none: "), none


def test_the_bombardment_targets_named_never_tell_what_the_view_hides() -> None:
    """B-N under B-RF is hidden from the German side (6.6): another unit there changes no byte of the refusal."""
    said = []
    for hidden in ("B-N", "B-SF"):
        units = {hidden: {"hex": "3106"}, **{k: v for k, v in BOMBARD_FRONT.items() if k != "B-N"}}  # B-RF on top
        rules, state = situation(toc_case("german-combat", units), REPO)
        view = rules.view(state, "german")
        assert hidden not in str(view), hidden  # the view hides it ...
        said.append(rules.validate(view, "german", [{"bombard": "3107", "with": ["G-FA18"]}]))
    assert said[0] == said[1] and "B-N" not in str(said[0][0]) and "B-RF" not in str(said[0][0]), said


# --- 3. toc's victory points, whose and of what ---------------------------------------------------------------

TOC_GAME = REPO / "samples" / "toc" / "game"


def test_the_toc_report_says_whose_victory_points_and_their_parts() -> None:
    lines = {side: run("report", TOC_GAME / "turns" / "0025" / f"{side}.yaml").out.splitlines()
             for side in ("german", "british")}
    [said] = [line.strip() for line in lines["german"] if "victory points so far" in line]
    assert said == ("German victory points so far: 2 (Bavai 1, dead pile 1, exits 0; 4.3): the dead pile counts 21, "
                    "one VP per 20; 25 British unit(s) exited, the exits VP holds while 8 or fewer have; 2 win at "
                    "the end of turn 14."), said  # was "Victory points so far: 2."
    assert said in [line.strip() for line in lines["british"]]  # the same public tally in both views
    early = run("report", TOC_GAME / "turns" / "0003" / "british.yaml").out
    assert "German victory points so far: 1 (Bavai 0, dead pile 0, exits 1; 4.3)" in early, early


def test_the_victory_line_reads_only_the_views_tally() -> None:
    """The line is read from the view's public tally alone: the units and stacks the view shows change nothing."""
    from pbem.core import yamlio
    from pbem.core.ruleset import bind, get

    view = yamlio.load_file(TOC_GAME / "turns" / "0025" / "german.yaml").data
    adapter = bind(get("toc"), view["state"]["setup"]).picture()
    assert adapter is not None
    line = adapter.victory_points(view["state"])
    assert line is not None and line.startswith("German victory points so far: 2 ")
    assert adapter.victory_points({**view["state"], "units": {}, "enemy": {}}) == line


# --- 4. a pattern said in words ---------------------------------------------------------------------------------


def test_a_misformed_marker_is_told_its_form_in_words(tmp_path: Path) -> None:
    view = FBSM_GAME / "turns" / "0001" / "german.yaml"
    result = run("check", view, orders_file(tmp_path, view, '  - {bombard: "3531", markers: [heavy1], spotter: G65}\n'))
    assert result.rc == 1
    [line] = [line for line in result.out.splitlines() if '"heavy1"' in line]
    assert '"heavy1" does not have the expected form: heavy-N or light-N (N a number), like heavy-1 (rule 11.1)' in line
    assert "^" not in line and "pattern" not in line, line  # was (pattern ^(heavy|light)-[0-9]+$)


def test_a_misformed_unit_id_gets_the_guess_first_then_its_form(tmp_path: Path) -> None:
    view = REPO / "samples" / "toc" / "game" / "turns" / "0001" / "british.yaml"
    result = run("check", view, orders_file(tmp_path, view, '  - {move: [B-DCl], path: ["1608"]}\n'))
    [line] = [line for line in result.out.splitlines() if '"B-DCl"' in line]
    assert line.endswith('at orders[0].move[0]: the string "B-DCl": did you mean B-DC1? It should be a unit id like '
                         "B-DC1: G- or B-, then capital letters and digits"), line


def test_every_pattern_of_the_shipped_schemas_has_its_words() -> None:
    import json

    from pbem.core.pattern_words import FORMS

    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.add(node["pattern"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted((REPO / "schemas").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    assert found and sorted(found - set(FORMS)) == []



# --- 5. fbsm set-up: lists, not descriptions ------------------------------------------------------------------


def test_fbsm_set_up_refusals_list_what_is_legal(tmp_path: Path) -> None:
    view = FBSM_GAME / "views" / "0000" / "us.yaml"
    orders = '  - {setup: US1, hex: "2717"}\n  - {setup: US02, hex: "0101"}\n  - {setup: US03, hex: "1001"}\n'
    result = run("check", view, orders_file(tmp_path, view, orders))
    unit, off_map, no_zone = [line for line in result.out.splitlines() if ": order " in line]
    assert unit.endswith("US1 is not a US unit: did you mean US01? (rule 3.2); legal: HW01-HW09, US01-US48"), unit
    assert off_map.endswith("0101 is not on the map (rule 3.2); legal: a hex of the map, CCRR: column 10-42, "
                            "row 00-42 (1000-4242)"), off_map
    nearest = no_zone.split("the nearest free ones ")[1].split("; ")[0].split(", ")
    assert len(nearest) == 6 and "pbem render VIEW.yaml --area " in no_zone, no_zone
    fixed = "".join(f'  - {{setup: US0{k + 1}, hex: "{hex_id}"}}\n' for k, hex_id in enumerate(nearest[:3]))
    assert run("check", view, orders_file(tmp_path, view, fixed, "fixed.yaml")).rc == 0  # what it names is legal


def test_a_hex_already_taken_at_set_up_names_the_free_hexes_nearest() -> None:
    case = {"scenario": "samples/fbsm/scenario.yaml"}
    [problem] = validate(case, "us", [{"setup": "US01", "hex": "2204"}, {"setup": "US02", "hex": "2204"}])
    assert problem.section == "3.2" and problem.legal is not None, problem
    assert problem.legal.startswith("one US unit per hex at set-up (6.6): the nearest free ones 2205, "), problem
    assert "2204" not in problem.legal.split("; ")[0], problem  # the taken hex is not offered


def test_fbsm_fire_and_bombardment_at_an_empty_hex_name_the_hexes_in_sight(tmp_path: Path) -> None:
    bombard = FBSM_GAME / "turns" / "0001" / "german.yaml"
    result = run("check", bombard, orders_file(tmp_path, bombard, '  - {bombard: "3731", markers: [heavy-1], '
                                                                  'spotter: G65}\n  - {bombard: "0101", markers: '
                                                                  '[heavy-2], spotter: G65}\n'))
    empty, off_map = [line for line in result.out.splitlines() if ": order " in line]
    assert empty.endswith("3731 holds no enemy unit (rule 11.1); legal: an enemy hex in range and sight of the "
                          "spotter G65: 3531"), empty  # was "an enemy-occupied hex"
    assert off_map.endswith("legal: a hex of the map, CCRR: column 10-42, row 00-42 (1000-4242)"), off_map
    fire = FBSM_GAME / "turns" / "0005" / "german.yaml"
    result = run("check", fire, orders_file(tmp_path, fire, '  - {fire: "3532", with: [G30, G59, G72]}\n', "f.yaml"))
    [line] = [line for line in result.out.splitlines() if ": order " in line]
    assert line.endswith("3532 holds no enemy unit (rule 10.2); legal: an enemy hex in range and sight of these "
                         "firers: 3529, 3530, 3531"), line  # was "a hex holding at least one enemy unit"
    assert run("check", fire, orders_file(tmp_path, fire, '  - {fire: "3530", with: [G30, G59, G72]}\n',
                                          "ok.yaml")).rc == 0  # one it names


def test_a_melee_on_an_empty_hex_names_the_enemy_hexes_the_side_may_attack() -> None:
    [problem] = validate(toc_case("german-combat", BOMBARD_FRONT), "german", [{"melee": "3107", "with": ["G-IR8"]}])
    assert problem.section == "12.1" and problem.legal == "3106 (by G-IR8)", problem  # G-FA18 is artillery (12.1)
    assert validate(toc_case("german-combat", BOMBARD_FRONT), "german", [{"melee": "3106", "with": ["G-IR8"]}]) == []

