"""An attack on bst's part III and the new part II rules (issue #14 review): tanks (V1-V4),
split units (O3), crew rifles (W1), the HMG platoon (W2), extra bases (W5), flares (W6) and
smoke at the moment of contact (W10).

Tests marked `xfail(strict=True)` pin a defect: each fails at its own assertion today and
will pass (turning the strict xfail into an error) once the defect is fixed; the fixer then
drops the mark. Plain tests are things that held under attack, kept as guards. Each xfail's
reason names the heading and page of the rule text it holds the code to.

Situations are written as case dictionaries on the case boards in `tests/bst/board/`
(pbem.core.cases.situation), resolved through the public ruleset API.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.cases import CaseDice, case_orders, situation
from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import STANDING_KEY, Decisions, Resolution, Submission
from pbem.render import map_svg, report_text
from pbem.rulesets.bst import Bst
from pbem.testing import view_bytes

from .test_hostile import active_unit, refused_at_line, table, waiting  # noqa: F401 (table: a fixture)

FOLDER = Path(__file__).resolve().parent
BST = Bst()
SIDES = ["allies", "axis"]

Case = dict[str, Any]


def orders_of(case: Case) -> tuple[str, list[Any]]:
    side = str(case["orders"]["side"])
    return side, case_orders(case)[side]


def refusals(case: Case) -> list[Problem]:
    """The problems the sender's `pbem check` would print, judged on the sender's own view."""
    rules, state = situation(case, FOLDER)
    side, given = orders_of(case)
    found: list[Problem] = rules.validate(rules.view(state, side), side, given)
    return found


def played(case: Case, dice: Any = None) -> tuple[dict[str, Any], Resolution, Any]:
    """The state before, the resolution and the dice, for orders that must be accepted."""
    rules, state = situation(case, FOLDER)
    side, given = orders_of(case)
    assert rules.validate(rules.view(state, side), side, given) == [], "set-up: the orders must be accepted"
    dice = dice if dice is not None else CaseDice(case.get("dice") or [])
    out: Resolution = rules.resolve(copy.deepcopy(state), {s: Submission(s, given) if s == side else None
                                                            for s in SIDES},
                                    dice, Decisions(dict(enumerate(case.get("decisions") or []))))
    return state, out, dice


def everything_seen(case: Case, side: str) -> bytes:
    """All `side` gets from one adjudication of `case` with fixed real dice: the view's bytes
    (state, events, rolls with labels), the table picture (SVG) and the report drawn from it."""
    _, out, dice = played(case, Dice(b"\x07" * 32))
    raw = view_bytes(BST, out.state, side, SIDES, out.events, [r.record() for r in dice.rolls])
    doc = yamlio.load_bytes(raw, "view").data
    return raw + map_svg(doc).encode("utf-8") + report_text(doc).encode("utf-8")


def events_of(out: Resolution, kind: str) -> list[dict[str, Any]]:
    return [e for e in out.events if e["type"] == kind]


# --- 1. Fog of war ------------------------------------------------------------------------------------

def mortar_call(rounds: list[str], aim: Any, activated: list[str] | None = None) -> Case:
    return {"scenario": "board/mortar.yaml",
            "state": {"card": "JD", "awaiting": "allies", "activated": activated or [],
                      "bases": {"p1a": {"at": [500, 100]}, "m1a": {"at": [560, 100]},
                                "b1": {"at": [480, 560]}, "b2": {"at": [700, 700]}}},
            "orders": {"side": "allies", "orders": [{"unit": "p1", "act": "call-mortar", "mortar": "m1a",
                                                     "aim": aim, "rounds": rounds}]}}


def test_fog_the_rounds_after_the_first_are_unknown_until_they_land() -> None:
    """W6: the first round lands at once (it is seen); the rest of the order (the number and
    kinds of the bombs to come) changes nothing in the axis view, picture or report."""
    one = everything_seen(mortar_call(["he"], [560, 600]), "axis")
    assert everything_seen(mortar_call(["he", "smoke", "flare", "he"], [560, 600]), "axis") == one
    assert everything_seen(mortar_call(["smoke"], [560, 600]), "axis") != one  # the first bomb is seen


def test_fog_a_call_to_an_activated_mortar_hides_aim_and_rounds() -> None:
    """W6: when the mortar's unit has activated no round fires now: the axis side learns that
    an order was given, not where or what, in view, picture and report."""
    seen = [everything_seen(mortar_call(rounds, aim, ["m1"]), "axis")
            for rounds, aim in ((["he"], [560, 600]), (["flare", "smoke"], [400, 650]), (["he"], "b1"))]
    assert seen[0] == seen[1] == seen[2]
    assert everything_seen(mortar_call(["he"], [560, 600], ["m1"]), "allies") != \
        everything_seen(mortar_call(["smoke"], [560, 600], ["m1"]), "allies")  # the caller sees its own order


def surprise(answer: str) -> Case:
    return {"scenario": "board/scenario.yaml",
            "state": {"card": "AD", "awaiting": "allies",
                      "smoke": [{"id": 1, "bases": [[600, 340], [600, 370]], "facing": 90, "jokers": 0}],
                      STANDING_KEY: {"axis": {"opfire": {"t1": "hold"}, "close_combat": {"t1": answer}}},
                      "bases": {"f3": {"at": [600, 330]}, "b1": {"at": [600, 440], "markers": 2}}},
            "orders": {"side": "allies", "orders": [{"unit": "g1", "act": "move", "toward": [600, 600],
                                                     "distance": 150}]}}


def test_fog_a_surprised_defender_s_close_combat_answer_is_never_read() -> None:
    """W10, C2: out of the smoke the defender makes no reaction, so its standing close combat
    answer (hunker, fire or ask) leaves the attacker's whole view the same."""
    seen = [everything_seen(surprise(answer), "allies") for answer in ("hunker", "fire", "ask")]
    assert seen[0] == seen[1] == seen[2]


def split_move(split: str) -> Case:
    return {"scenario": "board/scenario.yaml",
            "state": {"card": "KD", "awaiting": "allies",
                      STANDING_KEY: {"axis": {"opfire": {"t1": "hold"}}},
                      "bases": {"a1": {"at": [500, 300]}, "a2": {"at": [530, 300]}, "b1": {"at": [600, 900]}}},
            "orders": {"side": "allies", "orders": [{"unit": "g2", "act": "move",
                                                     "toward": [515, 600], "distance": 100, "split": split}]}}


def test_fog_a_split_choice_that_no_hit_calls_on_is_not_seen() -> None:
    """O3: `split: stay` or `go` matters only when a hit stops a base; with no opportunity fire
    the axis view is the same bytes."""
    assert everything_seen(split_move("go"), "axis") == everything_seen(split_move("stay"), "axis")


# --- 2. Rules lawyer: W5 extra bases ----------------------------------------------------------------------

def hmg_pair(**bases: Any) -> dict[str, Any]:
    """The platoon board's HMG h1a with its extra base h1c touching it, and what else is given."""
    return {"h1a": {"at": [700, 100]}, "h1c": {"at": [670, 100]}, **bases}


def test_w5_an_extra_base_fights_in_close_combat() -> None:
    _, out, _ = played({"scenario": "board/platoon.yaml",
                        "state": {"card": "AC", "awaiting": "axis",
                                  "bases": hmg_pair(b1={"at": [730, 145], "facing": 180})},
                        "orders": {"side": "axis", "orders": [{"unit": "t1", "act": "fight", "bases": ["b1"]}]}},
                       Dice(b"\x07" * 32))
    placed = events_of(out, "close-combat-markers")[0]["placed"]
    assert placed["h1c"]["b1"] >= 2  # Table 4: a crew places 2, a rifle base 3


def test_w5_an_extra_base_fires_at_enemies_closing_in() -> None:
    _, out, _ = played({"scenario": "board/platoon.yaml",
                        "state": {"card": "AC", "awaiting": "axis",
                                  STANDING_KEY: {"allies": {"close_combat": {"h1": "fire"}, "opfire": {"h1": "hold"}}},
                                  "bases": hmg_pair(b1={"at": [670, 300], "facing": 180})},
                        "orders": {"side": "axis", "orders": [{"unit": "t1", "act": "move", "bases": ["b1"],
                                                               "toward": [670, 100], "distance": 150}]}},
                       Dice(b"\x07" * 32))
    fired = [e for e in events_of(out, "fired") if e["section"] == "C2"]
    assert fired and fired[0]["firers"].get("h1c", 0) > 0


def the_hmg_hunkers(marked: dict[str, Any], dice: Any) -> Resolution:
    """The HMG unit's card: h1a hunkers, h1c is given no action; `marked` sets their markers."""
    _, out, _ = played({"scenario": "board/platoon.yaml",
                        "state": {"card": "9D", "awaiting": "allies", "bases": hmg_pair(b1={"at": [530, 900]}, **marked)},
                        "orders": {"side": "allies", "orders": [{"unit": "h1", "act": "hunker", "bases": ["h1a"]}]}},
                       dice)
    return out


def test_w5_a_kill_on_the_hmg_passes_to_the_extra_base() -> None:
    out = the_hmg_hunkers({"h1a": {"at": [700, 100], "markers": 1}},
                          CaseDice([6, 6] + [0] * 20))  # a 6 hits at 6; the rethrown 6 is a kill
    assert events_of(out, "resolved")[0]["results"] == ["kill"]  # the kill happened
    assert (out.state["bases"]["h1a"]["kills"], out.state["bases"]["h1c"]["kills"]) == (0, 1)


def test_w5_the_extra_base_resolves_at_the_hmg_s_to_hit() -> None:
    out = the_hmg_hunkers({"h1c": {"at": [670, 100], "markers": 1}}, Dice(b"\x07" * 32))
    extra = next(e for e in events_of(out, "resolved") if e["base"] == "h1c")
    assert extra["to_hit"] == 6


def platoon_orders(card: str, bases: dict[str, Any], orders: list[dict[str, Any]]) -> Case:
    return {"scenario": "board/platoon.yaml", "state": {"card": card, "awaiting": "allies", "bases": bases},
            "orders": {"side": "allies", "orders": orders}}


def test_w2_an_hmg_unit_s_other_bases_move_only_when_led() -> None:
    found = refusals(platoon_orders("9D", hmg_pair(h1b={"at": [730, 100]}, b1={"at": [530, 900]}),
                                    [{"unit": "h1", "act": "move", "bases": ["h1b"], "toward": [730, 200],
                                      "distance": 20}]))
    assert [p.section for p in found] == ["W2"]


def test_w2_the_hmg_itself_moves_only_when_led() -> None:
    found = refusals(platoon_orders("9D", hmg_pair(b1={"at": [530, 900]}),
                                    [{"unit": "h1", "act": "move", "bases": ["h1a", "h1c"], "toward": [700, 200],
                                      "distance": 20}]))
    assert "W2" in [p.section for p in found]


def test_w2_type_c_command_of_an_hmg_unit_is_the_platoon_leader_s() -> None:
    found = refusals(platoon_orders("JD", hmg_pair(p1a={"at": [640, 100]}, h1b={"at": [900, 100]},
                                                   b1={"at": [530, 900]}),
                                    [{"unit": "p1", "act": "lead", "do": "move", "bases": ["h1a", "h1c"],
                                      "toward": [685, 300], "distance": 20}]))  # h1c ends touching p1a
    assert [str(p) for p in found] == []


def test_w5_an_extra_base_that_lost_its_hmg_may_still_move() -> None:
    found = refusals(platoon_orders("JD", {"p1a": {"at": [640, 100]}, "h1b": {"at": [700, 100]},
                                           "h1c": {"at": [670, 100]}, "b1": {"at": [530, 900]}},
                                    [{"unit": "p1", "act": "lead", "do": "move", "bases": ["h1c", "h1b"],
                                      "toward": [700, 200], "distance": 20}]))
    assert [str(p) for p in found] == []


def test_w5_the_extra_base_does_not_start_a_close_combat() -> None:
    found = refusals(platoon_orders("JD", hmg_pair(p1a={"at": [640, 100]}, h1b={"at": [730, 100]},
                                                   b1={"at": [670, 200], "facing": 180}),
                                    [{"unit": "p1", "act": "lead", "do": "move", "bases": ["h1c"],
                                      "toward": [670, 300], "distance": 45}]))  # h1c ends touching b1 and h1a
    assert [p.section for p in found] in (["W1"], ["W5"])


# --- W10: smoke at the moment of contact ----------------------------------------------------------------

def out_of_smoke(screens: list[dict[str, Any]], start: list[int]) -> Case:
    return {"scenario": "board/scenario.yaml",
            "state": {"card": "AD", "awaiting": "allies", "smoke": screens,
                      STANDING_KEY: {"axis": {"opfire": {"t1": "hold"}}},
                      "bases": {"f3": {"at": start}, "b1": {"at": [700, 500]}}},
            "orders": {"side": "allies", "orders": [{"unit": "g1", "act": "move", "toward": [700, 440],
                                                     "distance": 150}]}}


def test_w10_from_inside_one_screen_the_defender_is_surprised() -> None:
    """W10 holds on a move whose centre stays in smoke: two screens side by side as one cloud."""
    screens = [{"id": 1, "bases": [[700, 410]], "facing": 90, "jokers": 0},
               {"id": 2, "bases": [[700, 440]], "facing": 90, "jokers": 0}]
    _, out, _ = played(out_of_smoke(screens, [700, 400]), Dice(b"\x07" * 32))
    assert events_of(out, "moved")[0].get("contact") == "b1"
    assert events_of(out, "surprised")


def test_w10_a_centre_that_left_the_smoke_gives_no_surprise() -> None:
    screens = [{"id": 1, "bases": [[600, 340]], "facing": 90, "jokers": 0},
               {"id": 2, "bases": [[700, 440]], "facing": 90, "jokers": 0}]
    _, out, _ = played(out_of_smoke(screens, [600, 340]), Dice(b"\x07" * 32))
    assert events_of(out, "moved")[0].get("contact") == "b1"  # the set-up: the move ends in contact
    assert not events_of(out, "surprised")


# --- O3: a split unit's later moves ------------------------------------------------------------------------

def test_o3_a_base_slowed_by_cover_may_still_go_toward_the_other() -> None:
    found = refusals({"scenario": "board/scenario.yaml",
                      "state": {"card": "KD", "awaiting": "allies", "split": {"g2": "rejoin"},
                                "bases": {"a1": {"at": [900, 900]}, "a2": {"at": [900, 720]},
                                          "b1": {"at": [100, 1100]}}},
                      "orders": {"side": "allies", "orders": [{"unit": "g2", "act": "move", "bases": ["a2"],
                                                               "toward": [900, 900], "distance": "max"}]}})
    assert [str(p) for p in found if p.section == "O3"] == []


# --- V2: aspects at their boundaries ---------------------------------------------------------------------

def test_v2_an_observer_touching_an_arc_line_is_not_completely_behind_it() -> None:
    """V2: to claim the flank or the side the observer must be completely behind the line: a
    corner on the front arc's line is front, one millimetre more is flank; a base touching
    the line across the front is flank, wholly behind it side."""
    from pbem.geometry import plane
    from pbem.rulesets.bst.vehicles import aspect

    tank = plane.Base((0, 0), 0, 30, 60)  # facing north, front edge y = 30, front centre (0, 30)
    seen = [aspect(tank, plane.Base(at, 0, 30, 30).shape) for at in ((100, 100), (101, 100), (100, 15), (100, 14))]
    assert seen == ["front", "flank", "flank", "side"]


# --- V3: convoys ------------------------------------------------------------------------------------------

def two_roads() -> dict[str, Any]:
    board = yamlio.load_file(FOLDER / "board" / "tanks.yaml").data
    table = copy.deepcopy(dict(board["setup"]["table"]))
    table["features"] = [*table["features"], {"id": "lane", "kind": "road", "line": [[0, 670], [1200, 670]]}]
    return table


def test_v3_tanks_abreast_are_no_convoy() -> None:
    found = refusals({"scenario": "board/tanks.yaml",
                      "state": {"setup": {"table": two_roads()}, "card": "2S", "awaiting": "allies",
                                "bases": {"m1": {"at": [300, 600]}, "m2": {"at": [300, 670]}, "p1": {}}},
                      "orders": {"side": "allies", "orders": [{"unit": "t1", "act": "hunker"},
                                                              {"unit": "t2", "act": "hunker", "convoy": True}]}})
    assert [p.section for p in found] == ["V3"]


def test_v3_nose_to_tail_on_the_second_road_is_a_convoy() -> None:
    """The control for the test above: the same board, the tanks in file on one road."""
    assert refusals({"scenario": "board/tanks.yaml",
                     "state": {"setup": {"table": two_roads()}, "card": "2S", "awaiting": "allies",
                               "bases": {"m1": {"at": [300, 670]}, "m2": {"at": [210, 670]}, "p1": {}}},
                     "orders": {"side": "allies", "orders": [{"unit": "t1", "act": "hunker"},
                                                             {"unit": "t2", "act": "hunker", "convoy": True}]}}) == []


# --- V4: the hull gun operates as an HMG ------------------------------------------------------------------

def test_v4_a_tank_may_sustain_its_machine_gun_fire() -> None:
    found = refusals({"scenario": "board/tanks.yaml",
                      "state": {"card": "2S", "awaiting": "allies", "bases": {"m1": {}, "e1": {}}},
                      "orders": {"side": "allies", "orders": [{"unit": "t1", "act": "sustain"}]}})
    assert found == []


# --- W6: flares -------------------------------------------------------------------------------------------

def test_w6_a_flare_has_no_minimum_range() -> None:
    assert refusals(mortar_call(["flare"], [560, 150])) == []


def test_w6_smoke_and_he_keep_their_minimum_range() -> None:
    for rounds in (["he"], ["smoke"]):
        found = refusals(mortar_call(rounds, [560, 150]))
        assert [p.section for p in found] == ["W6"] and "100 to 1000 mm" in str(found[0])


# --- 3. Hostile input -------------------------------------------------------------------------------------

def tank_orders(orders: list[dict[str, Any]]) -> Case:
    return {"scenario": "board/tanks.yaml",
            "state": {"card": "2S", "awaiting": "allies",
                      "bases": {"m1": {}, "m2": {}, "p1": {}, "l1": {}, "e1": {}, "f1": {}, "f2": {}}},
            "orders": {"side": "allies", "orders": orders}}


HOSTILE_TANK_ORDERS = [  # (orders, the section the refusal cites, a word of what is legal)
    ([{"unit": "t1", "act": "hunker"}, {"unit": "x1", "act": "hunker", "convoy": True}], "A1", "t2"),
    ([{"unit": "t1", "act": "hunker"}, {"unit": "g1", "act": "hunker", "convoy": True}], "V3", "tanks"),
    ([{"unit": "t1", "act": "hunker"}, {"unit": "t2", "act": "hunker", "convoy": True, "queued": True}], "V3",
     "without queued"),
    ([{"unit": "t1", "act": "hunker", "convoy": True}], "V3", "other tanks"),
    ([{"unit": "t1", "act": "fire", "target": "x1", "bases": ["p1"]}], "D2", "m1"),
    ([{"unit": "t1", "act": "fire", "target": "x1", "arms": "rifles"}], "W1", "crewed"),
    ([{"unit": "t1", "act": "fire", "target": "t2"}], "F4", "x1"),
    ([{"unit": "t1", "act": "fight"}], "C3", "contact"),
    ([{"unit": "t1", "act": "set-up"}], "W3", "crewed"),
    ([{"unit": "t1", "act": "call-mortar", "mortar": "m2", "aim": "p1", "rounds": ["he"]}], "W6", "leader"),
    ([{"unit": "t1", "act": "lead", "do": "move", "bases": ["m2"]}], "L1", "another"),
    ([{"unit": "t1", "act": "move", "toward": [1200, 600], "distance": 200},
      {"unit": "t2", "act": "move-fire", "target": "h1", "toward": [1200, 600], "convoy": True}], "V4", "act: move"),
]


@pytest.mark.parametrize(("orders", "section", "legal"), HOSTILE_TANK_ORDERS)
def test_hostile_tank_orders_are_refused_with_the_heading_and_what_is_legal(
        orders: list[dict[str, Any]], section: str, legal: str) -> None:
    """Tank, convoy, lead and call-mortar orders naming enemy units, enemy bases, infantry as
    tanks and tanks as crews: refused, citing the heading and a legal choice, and the
    sender's view is not touched by the check."""
    case = tank_orders(orders)
    rules, state = situation(case, FOLDER)
    view = rules.view(state, "allies")
    before = copy.deepcopy(view)
    found = rules.validate(view, "allies", orders)
    assert view == before
    assert found and found[0].section == section and legal in (found[0].legal or ""), [str(p) for p in found]


def test_hostile_a_lead_on_a_convoy_tank_is_blamed_on_that_tank() -> None:
    found = refusals(tank_orders([{"unit": "t1", "act": "hunker"},
                                  {"unit": "t2", "act": "lead", "do": "move", "bases": ["m2"], "convoy": True}]))
    assert found and all("t1 leads" not in p.message for p in found), [str(p) for p in found]


@pytest.mark.parametrize(("aim", "mortar", "needle"), [
    ("p1a", "m1a", "not an enemy base"),  # its own leader
    ("2S", "m1a", "not an enemy base"),  # a card, not a base
    ([560, 130], "m1a", "100 to 1000 mm"),
    ([10 ** 30, 5], "m1a", "100 to 1000 mm"),
    ("b1", "b1", "not a mortar"),  # an enemy base as the mortar
    ("b1", "8D", "not a mortar"),  # the mortar's card, not its base
    ("b1", "m1b", "not a mortar"),  # the mortar team's rifle base
])
def test_hostile_mortar_calls_are_refused(aim: Any, mortar: str, needle: str) -> None:
    case = mortar_call(["he"], aim)  # H.E.: a flare has no minimum range
    case["orders"]["orders"][0]["mortar"] = mortar
    found = refusals(case)
    assert [p.section for p in found] == ["W6"] and needle in found[0].message and found[0].legal


def test_hostile_a_mortar_aimed_off_the_table_is_refused() -> None:
    found = refusals(mortar_call(["he"], [-100, 300]))
    assert [p.section for p in found] == ["W6"]


def test_fog_check_errors_do_not_depend_on_the_other_side_s_hidden_orders() -> None:
    """`pbem check` judges on the sender's view: the axis refusals (and acceptances) are the
    same text whatever allied mortar order and standing answers are hidden in the state."""
    orders = [{"unit": "t1", "act": "fire", "target": "m1"}, {"unit": "t1", "act": "hunker"},
              {"unit": "t1", "act": "call-mortar", "mortar": "m1a", "aim": "p1a", "rounds": ["he"]}]
    said = []
    for hidden in ({}, {"mortars": {"m1a": {"aim": "b1", "rounds": ["he", "he"]}},
                        STANDING_KEY: {"allies": {"opfire": {"p1": "any", "m1": {"within": 50}},
                                                  "close_combat": {"m1": "fire"}}}}):
        case = mortar_call(["he"], [560, 600])
        case["state"].update(card="AC", awaiting="axis", **copy.deepcopy(hidden))
        rules, state = situation(case, FOLDER)
        said.append([[str(p) for p in rules.validate(rules.view(state, "axis"), "axis", [order])] for order in orders])
    assert said[0] == said[1]
    assert said[0][1] == [] and said[0][2] != []  # the check does answer: one order passes, one does not


def test_hostile_an_enemy_tank_in_a_convoy_is_refused_at_its_line(table: Any) -> None:
    """Intake (`pbem submit`) on the sample game: an order putting the enemy's tank in a convoy
    is refused naming the file, line:column, the order, the heading and what is legal, and
    nothing in the game directory changes."""
    side, state = waiting(table)
    unit = active_unit(state)
    enemy_tank = next(u for u, entry in sorted(state["setup"]["units"].items()) if entry["side"] != side
                      and any("vehicle" in b for b in entry["bases"].values()))
    refused_at_line(table, side, table.orders(side, [{"unit": unit, "act": "hold"},
                                                     {"unit": enemy_tank, "act": "hunker", "convoy": True}]),
                    "order 2", "(rule", "legal:")


def test_hostile_a_shot_through_a_friend_does_not_offer_the_friend_as_target() -> None:
    found = refusals({"scenario": "board/tanks.yaml",
                      "state": {"card": "2S", "awaiting": "allies",
                                "bases": {"m1": {}, "p1": {}, "f1": {"at": [600, 600]}}},
                      "orders": {"side": "allies", "orders": [{"unit": "t1", "act": "fire", "target": "x1"}]}})
    assert found and "through f1" in found[0].message  # the set-up: f1 is in the way
    assert "f1" not in (found[0].legal or "")


@pytest.mark.parametrize("kind", ["flare", "smoke", "he"])
def test_w6_a_round_that_lands_off_the_table_is_drawn_and_reported(kind: str) -> None:
    """W6-W9: a bomb aimed near the edge deviates off the table (direction 2, long, 6 cm):
    no crash; both sides' picture and report say where it landed."""
    case = mortar_call([kind], [1190, 900])
    case["state"]["bases"]["m1a"]["at"], case["state"]["bases"]["p1a"]["at"] = [560, 250], [530, 250]
    _, out, dice = played(case, CaseDice([2, 6] + [0] * 10))
    assert events_of(out, "bomb")[0]["landing"] == [1231, 943]  # off the 1200 mm table
    for side in SIDES:
        doc = yamlio.load_bytes(view_bytes(BST, out.state, side, SIDES, out.events,
                                           [r.record() for r in dice.rolls]), "view").data
        assert "<svg" in map_svg(doc) and "[1231, 943]" in report_text(doc)


def test_fog_a_dropped_queued_mortar_call_is_never_seen() -> None:
    """A1, W6: on the mortar's card the allies queue a call for p1's next card; the axis card comes first,
    the queue is dropped, and the axis view, picture and report are those of no queue."""
    def with_queue(queue: list[dict[str, Any]]) -> Case:
        case = mortar_call(["he"], [560, 600])
        case["state"].update(card="8D", deck={"left": ["AC"], "drawn": ["8D"], "turn": 1})
        case["orders"]["orders"] = [{"unit": "m1", "act": "hunker"}, *queue]
        return case

    queued = [{"unit": "p1", "act": "call-mortar", "mortar": "m1a", "aim": "b1", "rounds": ["smoke", "he"],
               "queued": True}]
    assert everything_seen(with_queue(queued), "axis") == everything_seen(with_queue([]), "axis")


def test_a1_an_order_queued_for_the_drawn_unit_waits_for_its_next_card() -> None:
    _, out, _ = played({"scenario": "board/scenario.yaml",
                        "state": {"card": "AD", "awaiting": "allies",
                                  "bases": {"f1": {"at": [100, 100]}, "f2": {"at": [130, 100], "markers": 1},
                                            "b1": {"at": [600, 1000]}}},
                        "orders": {"side": "allies", "orders": [
                            {"unit": "g1", "act": "hunker", "bases": ["f1"]},
                            {"unit": "g1", "act": "hunker", "bases": ["f2"], "queued": True}]}},
                       Dice(b"\x07" * 32))
    first = events_of(out, "resolved")[0]
    assert (first["base"], first["to_hit"]) == ("f2", 5)  # f2 takes no action now: it resolves as a firer


def test_a1_hold_now_and_queue_for_the_next_card() -> None:
    found = refusals({"scenario": "board/scenario.yaml",
                      "state": {"card": "AD", "awaiting": "allies",
                                "bases": {"f1": {"at": [100, 100]}, "f2": {"at": [130, 100]}, "b1": {"at": [600, 1000]}}},
                      "orders": {"side": "allies", "orders": [{"unit": "g1", "act": "hold"},
                                                              {"unit": "g1", "act": "hunker", "queued": True}]}})
    assert [str(p) for p in found] == []


@pytest.mark.parametrize(("m2", "refused"), [
    ({"at": [210, 620]}, []),  # the centre 20 mm off the road's line: half of its 40 mm width, on the road
    ({"at": [210, 621]}, ["V3"]),  # 21 mm off: not on the road
    ({"at": [90, 600]}, []),  # 150 mm edge to edge behind t1's tank: within the printed gap
    ({"at": [89, 600]}, ["V3"]),  # 151 mm: too far
    ({"facing": 135}, []),  # 45 degrees off t1's heading: the same way (convoy_heading, assumed)
    ({"facing": 136}, ["V3"]),
])
def test_v3_a_convoy_at_its_boundaries(m2: dict[str, Any], refused: list[str]) -> None:
    """V3 at the exact limits: on the road within half its width (closed), within 15 cm of
    the tank in front (closed, edge to edge), heading within 45 degrees (closed)."""
    found = refusals({"scenario": "board/tanks.yaml",
                      "state": {"card": "2S", "awaiting": "allies", "bases": {"m1": {}, "m2": m2, "p1": {}}},
                      "orders": {"side": "allies", "orders": [{"unit": "t1", "act": "hunker"},
                                                              {"unit": "t2", "act": "hunker", "convoy": True}]}})
    assert [p.section for p in found] == refused, [str(p) for p in found]


@pytest.mark.parametrize(("extra", "needle"), [
    ({"buttoned": "yes"}, "buttoned"),
    ({"convoy": 1}, "convoy"),
    ({"split": "sideways"}, "split"),
    ({"arms": "cannon"}, "arms"),
])
def test_hostile_odd_types_on_the_new_keys_are_refused_at_their_line(table: Any, extra: dict[str, Any],
                                                                      needle: str) -> None:
    """Intake: the part III and O3/W1 keys with the wrong type or an unknown word are refused
    at their line and column, naming the key, and nothing changes."""
    side, state = waiting(table)
    unit = active_unit(state)
    refused_at_line(table, side, table.orders(side, [{"unit": unit, "act": "hunker", **extra}]), needle)


def test_hostile_an_odd_mortar_round_is_refused_at_its_line(table: Any) -> None:
    side, state = waiting(table)
    unit = active_unit(state)
    refused_at_line(table, side, table.orders(side, [{"unit": unit, "act": "call-mortar", "mortar": "x",
                                                      "aim": [100, 100], "rounds": ["nuke"]}]), "rounds")


def test_w6_a_company_commander_does_not_call_a_platoon_s_mortar() -> None:
    board = yamlio.load_file(FOLDER / "board" / "mortar.yaml").data
    units = copy.deepcopy(dict(board["setup"]["units"]))
    units["c0"] = {"side": "allies", "card": "QD", "card2": "QH", "leads": ["p1"],
                   "bases": {"c0a": {"at": [470, 100], "facing": 0, "weapon": "smg"}}}
    case = mortar_call(["he"], [400, 600])
    case["state"].update(setup={"units": units}, card="QD")
    case["state"]["bases"]["c0a"] = {"at": [530, 100]}
    case["orders"]["orders"][0]["unit"] = "c0"
    assert [p.section for p in refusals(case)] == ["W6"]


@pytest.mark.parametrize("bases", [["b1"], ["h1a", "b1"], ["JD"]])
def test_hostile_a_lead_of_enemy_bases_or_cards_is_refused(bases: list[str]) -> None:
    """L1: a platoon leader leads only bases of its platoon; an enemy base or a card named
    among them is refused, naming the bases it may lead."""
    found = refusals(platoon_orders("JD", hmg_pair(p1a={"at": [640, 100]}, b1={"at": [530, 900]}),
                                    [{"unit": "p1", "act": "lead", "do": "hunker", "bases": bases}]))
    assert found and {p.section for p in found} == {"L1"} and "h1a" in (found[0].legal or "")


def test_fog_an_opfire_question_does_not_tell_the_mover_s_split_choice() -> None:
    """O1, O3: the decision request `ask` sends the reacting side is the same whether the
    movers would stay together or go on after a hit."""
    from pbem.core.ruleset import DecisionNeeded

    asked = []
    for choice in ("go", "stay"):
        case = split_move(choice)
        case["state"][STANDING_KEY] = {"axis": {"opfire": {"t1": "ask"}}}
        case["state"]["bases"]["b1"] = {"at": [515, 650]}
        with pytest.raises(DecisionNeeded) as need:
            played(case, Dice(b"\x07" * 32))
        asked.append(repr(need.value.request))
    assert asked[0] == asked[1] and "a1" in asked[0]


def test_hostile_a_scenario_tank_with_a_weapon_is_refused() -> None:
    from pbem.core.errors import PbemError
    from pbem.core.ruleset import start

    board = copy.deepcopy(dict(yamlio.load_file(FOLDER / "board" / "tanks.yaml").data))
    board["setup"]["units"]["t1"]["bases"]["m1"]["weapon"] = "smg"
    with pytest.raises(PbemError, match="m1"):
        start(BST, board)


def test_w6_a_suppressed_mortar_with_orders_may_recover() -> None:
    found = refusals({"scenario": "board/mortar.yaml",
                      "state": {"card": "8D", "awaiting": "allies",
                                "mortars": {"m1a": {"aim": [560, 600], "rounds": ["he", "he"]}},
                                "bases": {"p1a": {"at": [500, 100]}, "b1": {"at": [480, 560]},
                                          "m1a": {"at": [560, 100], "status": "suppressed", "markers": 1}}},
                      "orders": {"side": "allies", "orders": [{"unit": "m1", "act": "recover", "bases": ["m1a"]}]}})
    assert [str(p) for p in found] == []


def test_w6_a_light_mortar_s_command_is_its_platoon_leader_s() -> None:
    """W6 (p. 32): a light mortar is type C under its platoon leader's command: led away from its
    unit's rifle base to end touching the leader, it ends in command."""
    def led(p1a: list[int]) -> list[str]:
        return [str(p) for p in refusals({
            "scenario": "board/mortar.yaml",
            "state": {"card": "JD", "awaiting": "allies",
                      "bases": {"p1a": {"at": p1a}, "m1a": {"at": [700, 100]}, "m1b": {"at": [760, 100]},
                                "b1": {"at": [480, 900]}}},
            "orders": {"side": "allies", "orders": [{"unit": "p1", "act": "lead", "do": "move", "bases": ["m1a"],
                                                     "toward": [640, 300], "distance": 40}]}})]
    assert led([640, 100]) == []
    assert any("M2" in p for p in led([640, 70]))  # the control: the mortar ends touching neither
