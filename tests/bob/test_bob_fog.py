"""Concealment is the fog of war (15.0): what is under a conceal marker never reaches the other side.

Each test builds two states that differ only in what the markers cover (a decoy swapped with a
real squad, a stack's contents changed) and requires the other side's view, the events it is
shown, the decision requests it gets and the verdict on its orders to be byte-identical. No
field is blanked before comparing.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from pbem.core import ruleset, yamlio
from pbem.core.chance import ForcedDice, canonical_json
from pbem.core.ruleset import DecisionNeeded, Decisions, Rules, Submission, start

ruleset.register("bob", "pbem.rulesets.bob:Bob")

SCENARIO = Path(__file__).parent / "board" / "scenario.yaml"


def rules() -> Rules:
    return start(ruleset.get("bob"), yamlio.load_file(SCENARIO).data)[0]


def state(units: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A full state from the compact form (markers numbered as listed)."""
    r = rules()
    compact = {"setup": r.setup, "phase": "operations", "turn": 1, "active": "american", "units": units, **extra}
    from pbem.rulesets.bob.state import normalize
    return normalize(r.context, compact)


def german_view(s: dict[str, Any]) -> bytes:
    return canonical_json(rules().view(s, "german"))


# A concealed squad in the woods at 0503 and a decoy in the stone building at 0703, and the swap.
REAL_HERE: dict[str, Any] = {"A1": {"hex": "0503", "concealed": True, "marker": "US-1"},
             "AD1": {"hex": "0703", "concealed": True, "marker": "US-2"},
             "G1": {"hex": "0907"}}
SWAPPED: dict[str, Any] = {"A1": {"hex": "0703", "concealed": True, "marker": "US-2"},
           "AD1": {"hex": "0503", "concealed": True, "marker": "US-1"},
           "G1": {"hex": "0907"}}


def test_a_decoy_swapped_with_a_squad_under_markers_leaves_the_view_unchanged() -> None:
    assert german_view(state(REAL_HERE)) == german_view(state(SWAPPED))


def test_the_view_does_change_when_the_unit_is_face_up() -> None:
    face_up = copy.deepcopy(REAL_HERE)
    face_up["A1"]["concealed"] = False
    assert german_view(state(REAL_HERE)) != german_view(state(face_up))
    # the scenario (public: both sides hold it) names every unit, so look at the pieces on the map
    seen = canonical_json(rules().view(state(face_up), "german")["enemy"])
    hidden = canonical_json(rules().view(state(REAL_HERE), "german")["enemy"])
    assert b'"A1"' in seen and b'"A1"' not in hidden


def test_what_a_concealed_stack_holds_never_shows() -> None:
    mg_and_squad = {"AM1": {"hex": "0504", "concealed": True, "marker": "US-1"},
                    "A2": {"hex": "0504", "concealed": True, "marker": "US-2"}, "G1": {"hex": "0907"}}
    decoys = {"AD1": {"hex": "0504", "concealed": True, "marker": "US-1"},
              "AD2": {"hex": "0504", "concealed": True, "marker": "US-2"}, "G1": {"hex": "0907"}}
    assert german_view(state(mg_and_squad)) == german_view(state(decoys))


def _resolve_german_fire(units: dict[str, Any], dice: list[int]) -> list[bytes]:
    r = rules()
    s = state(units, active="german")
    orders = [{"fire": "G1", "at": "0503"}]
    assert r.validate(r.view(s, "german"), "german", orders) == []
    out = r.resolve(s, {"german": Submission("german", orders), "american": None}, ForcedDice([d - 1 for d in dice]), Decisions())
    shown = [r.visible(e, "german") for e in out.events]
    return [canonical_json(e) for e in shown if e is not None] + [german_view(out.state)]


def test_fire_that_misses_a_marker_tells_the_firer_nothing_of_what_is_under_it() -> None:
    near = {**REAL_HERE, "G1": {"hex": "0604"}}
    swapped = {**SWAPPED, "G1": {"hex": "0604"}}
    # G1 (firepower 5) rolls 9 at the woods hex: +1 woods, +1 concealed, -1 adjacent = 10: no effect
    assert _resolve_german_fire(near, [9]) == _resolve_german_fire(swapped, [9])


def test_a_suppression_result_takes_the_marker_off_and_shows_what_was_under_it() -> None:
    near = {**REAL_HERE, "G1": {"hex": "0604"}}
    swapped = {**SWAPPED, "G1": {"hex": "0604"}}
    assert _resolve_german_fire(near, [1]) != _resolve_german_fire(swapped, [1])


def _opfire_request(units: dict[str, Any]) -> bytes:
    r = rules()
    s = state(units, standing={"german": {"opfire": {"G1": {"at": "ask"}}}})
    orders = [{"move": "A1", "path": ["0604"]}] if units["A1"]["hex"] == "0503" else [{"move": "AD1", "path": ["0604"]}]
    try:
        r.resolve(s, {"american": Submission("american", orders), "german": None}, ForcedDice([]), Decisions())
    except DecisionNeeded as needed:
        return canonical_json({"question": needed.request.question, "options": needed.request.options,
                               "topic": needed.request.topic})
    raise AssertionError("no decision was asked")


def test_the_op_fire_question_names_the_marker_not_the_unit() -> None:
    real = {**REAL_HERE, "G1": {"hex": "0607"}}
    swapped = {**SWAPPED, "G1": {"hex": "0607"}}
    assert _opfire_request(real) == _opfire_request(swapped)
    assert b"US-1" in _opfire_request(real) and b"A1" not in _opfire_request(real)


def test_the_german_verdict_on_its_orders_is_the_same_whatever_the_markers_cover() -> None:
    r = rules()
    for orders in ([{"fire": "G1", "at": "0503"}], [{"fire": "G1", "at": "0101"}], [{"move": "G1", "path": ["0503"]}]):
        a = r.validate(r.view(state(REAL_HERE, active="german"), "german"), "german", orders)
        b = r.validate(r.view(state(SWAPPED, active="german"), "german"), "german", orders)
        assert [p.message for p in a] == [p.message for p in b]


# Part 2: a gun or vehicle under a marker (V1) shows nothing of itself: neither which it is nor its facing.
def _under_marker(uid: str, **extra: Any) -> dict[str, Any]:
    return {uid: {"hex": "0503", "concealed": True, "marker": "US-1", **extra}, "G1": {"hex": "0907"}}


def test_a_vehicle_a_gun_and_a_decoy_under_a_marker_look_the_same() -> None:
    views = {german_view(state(_under_marker(uid))) for uid in ("AV1", "AT1", "AD1", "A1")}
    assert len(views) == 1


def test_a_concealed_vehicles_facing_and_move_marker_stay_hidden() -> None:
    assert german_view(state(_under_marker("AV1", facing=0))) == \
        german_view(state(_under_marker("AV1", facing=3, moved=True)))


def test_a_face_up_vehicles_facing_shows() -> None:
    shown = {"AV1": {"hex": "0503", "facing": 0}, "G1": {"hex": "0907"}}
    turned = {"AV1": {"hex": "0503", "facing": 3}, "G1": {"hex": "0907"}}
    assert german_view(state(shown)) != german_view(state(turned))


def _rules_with_artillery() -> Rules:
    scenario = yamlio.load_file(SCENARIO).data
    scenario["setup"]["artillery"] = {"german": [{"id": "DE-ART", "firepower": 6, "prof": 7, "accuracy": 7}]}
    return start(ruleset.get("bob"), scenario)[0]


def _german_artillery(units: dict[str, Any]) -> list[bytes]:
    r = _rules_with_artillery()
    from pbem.rulesets.bob.state import normalize
    s = normalize(r.context, {"setup": r.setup, "phase": "operations", "turn": 1, "active": "german",
                              "units": units})
    orders = [{"artillery": "DE-ART", "at": "0503"}]
    assert r.validate(r.view(s, "german"), "german", orders) == []
    # Prof 1, accuracy 1 (on target), then a 10 in each of the seven hexes: nothing happens to anyone.
    out = r.resolve(s, {"german": Submission("german", orders), "american": None},
                    ForcedDice([0, 0] + [9] * 7), Decisions())
    shown = [r.visible(e, "german") for e in out.events]
    assert any(e and e["type"] == "bombard" for e in shown)
    return [canonical_json(e) for e in shown if e is not None] + [canonical_json(r.view(out.state, "german"))]


def test_a_fire_mission_that_misses_tells_the_caller_nothing_of_the_markers() -> None:
    assert _german_artillery(REAL_HERE) == _german_artillery(SWAPPED)


def test_a_concealed_gun_that_turns_and_fails_shows_the_enemy_no_turn() -> None:
    r = rules()
    units = {"A1": {"hex": "0203"}, "GG1": {"hex": "0503", "facing": 1, "opfire": True, "concealed": True},
             "G1": {"hex": "1208"}}
    s = state(units)
    orders = [{"move": "A1", "path": ["0303"]}]
    # two hexes off, in sight: the gun turns to face 0303 (+1), +2 Op Fire, -1 marked: 9 + 2 > 7 fails; it keeps its new facing
    out = r.resolve(s, {"american": Submission("american", orders), "german": None}, ForcedDice([8]), Decisions())
    assert any(e["type"] == "turn-facing" for e in out.events)
    shown = [r.visible(e, "american") for e in out.events]
    text = b"".join(canonical_json(e) for e in shown if e is not None)
    assert b"turn-facing" not in text and b"GG1" not in text and b"modifiers" not in text
    enemy = canonical_json(r.view(out.state, "american")["enemy"])
    assert b"GG1" not in enemy and b"facing" not in enemy


def _american_sees_the_opfire_attempt(german: dict[str, Any], dice: list[int]) -> list[bytes]:
    r = rules()
    s = state({"A1": {"hex": "0203"}, **german, "G2": {"hex": "1208"}})
    out = r.resolve(s, {"american": Submission("american", [{"move": "A1", "path": ["0303"]}]), "german": None},
                    ForcedDice([d - 1 for d in dice]), Decisions())
    shown = [r.visible(e, "american") for e in out.events]
    return [canonical_json(e) for e in shown if e is not None] + [canonical_json(r.view(out.state, "american"))]


def test_a_concealed_gun_and_a_concealed_squad_failing_op_fire_look_alike() -> None:
    # Under marker DE-1 in the woods, marked Op Fire, each tries to fire at A1 entering 0303 and
    # fails on a 10: the gun its Prof Check (V4, after turning), the suppressed squad its own (9.0).
    # Neither the check's section, its kind, nor the gun's turn may tell the American which it was.
    gun = {"GG1": {"hex": "0503", "facing": 1, "opfire": True, "concealed": True, "marker": "DE-1"}}
    squad = {"G1": {"hex": "0503", "opfire": True, "supp": 1, "concealed": True, "marker": "DE-1"}}
    assert _american_sees_the_opfire_attempt(gun, [10]) == _american_sees_the_opfire_attempt(squad, [10])


def test_a_suppressed_concealed_gun_passing_morale_then_failing_looks_like_one_failed_check() -> None:
    # V5: the suppressed gun passes its Morale Check (1), then fails its Prof Check (10): two checks
    # where the squad takes one; the American sees one failed check either way.
    gun = {"GG1": {"hex": "0503", "facing": 1, "opfire": True, "supp": 1, "concealed": True, "marker": "DE-1"}}
    squad = {"G1": {"hex": "0503", "opfire": True, "supp": 1, "concealed": True, "marker": "DE-1"}}
    assert _american_sees_the_opfire_attempt(gun, [1, 10]) == _american_sees_the_opfire_attempt(squad, [10])


# A marker at 0503 (woods) hides a StuG, a squad or a decoy; the American mortar at 0102 cannot see
# it but a hex next to it can (16.0 directed fire). Nothing the American is shown may tell which.
def _american_mortar_fire(hidden: str, dice: list[int]) -> list[bytes]:
    r = rules()
    extra = {"facing": 2} if hidden == "GV1" else {}
    s = state({"AR1": {"hex": "0102"}, hidden: {"hex": "0503", "concealed": True, "marker": "DE-1", **extra},
               "G2": {"hex": "1208"}})
    orders = [{"fire": "AR1", "at": "0503"}]
    assert r.validate(r.view(s, "american"), "american", orders) == []
    out = r.resolve(s, {"american": Submission("american", orders), "german": None},
                    ForcedDice([d - 1 for d in dice]), Decisions())
    shown = [r.visible(e, "american") for e in out.events]
    return [canonical_json(e) for e in shown if e is not None] + [canonical_json(r.view(out.state, "american"))]


def test_a_mortar_missing_a_marker_cannot_tell_a_vehicle_from_a_squad_or_a_decoy() -> None:
    seen = {b"".join(_american_mortar_fire(uid, [10])) for uid in ("GV1", "G1", "GD1")}
    assert len(seen) == 1


def test_a_mortar_result_that_would_suppress_takes_a_vehicles_marker_off_and_nothing_else() -> None:
    r = rules()
    s = state({"AR1": {"hex": "0102"}, "GV1": {"hex": "0503", "concealed": True, "marker": "DE-1", "facing": 2},
               "G2": {"hex": "1208"}})
    out = r.resolve(s, {"american": Submission("american", [{"fire": "AR1", "at": "0503"}]), "german": None},
                    ForcedDice([0]), Decisions())
    fire = next(e for e in out.events if e["type"] == "fire")
    assert fire["results"] == [{"unit": "GV1", "as": "DE-1", "modifiers": {"woods": 1, "airburst": -1, "concealed": 1,
                                                                            "directed": 1},
                                "modified": 3, "result": "revealed", "moving": False}]
    assert out.state["units"]["GV1"]["concealed"] is False and out.state["units"]["GV1"]["status"] == "active"


def _german_artillery_at(units: dict[str, Any], dice: list[int]) -> list[bytes]:
    r = _rules_with_artillery()
    from pbem.rulesets.bob.state import normalize
    s = normalize(r.context, {"setup": r.setup, "phase": "operations", "turn": 1, "active": "german", "units": units})
    orders = [{"artillery": "DE-ART", "at": "0503"}]
    out = r.resolve(s, {"german": Submission("german", orders), "american": None},
                    ForcedDice([d - 1 for d in dice]), Decisions())
    shown = [r.visible(e, "german") for e in out.events]
    return [canonical_json(e) for e in shown if e is not None] + [canonical_json(r.view(out.state, "german"))]


def test_a_fire_mission_missing_a_concealed_vehicle_looks_like_missing_a_squad() -> None:
    vehicle = {"AV1": {"hex": "0503", "concealed": True, "marker": "US-1", "facing": 0}, "G1": {"hex": "1208"}}
    squad = {"A1": {"hex": "0503", "concealed": True, "marker": "US-1"}, "G1": {"hex": "1208"}}
    decoy = {"AD1": {"hex": "0503", "concealed": True, "marker": "US-1"}, "G1": {"hex": "1208"}}
    # on target (1, 1), then 8 in the woods hex: the squad's 8 +1 woods -1 airburst +1 concealed = 9
    # misses firepower 6, the Sherman's 8 misses too; 10 in the other six hexes
    dice = [1, 1, 8] + [10] * 6
    assert len({b"".join(_german_artillery_at(u, dice)) for u in (vehicle, squad, decoy)}) == 1


def test_two_markers_missed_in_one_hex_are_listed_by_marker_whatever_they_hide() -> None:
    a = {"A1": {"hex": "0503", "concealed": True, "marker": "US-2"},
         "AV1": {"hex": "0503", "concealed": True, "marker": "US-1", "facing": 0}, "G1": {"hex": "1208"}}
    b = {"A1": {"hex": "0503", "concealed": True, "marker": "US-1"},
         "AV1": {"hex": "0503", "concealed": True, "marker": "US-2", "facing": 0}, "G1": {"hex": "1208"}}
    dice = [1, 1] + [10] * 7
    assert _german_artillery_at(a, dice) == _german_artillery_at(b, dice)


# A marker at 0104, out of the sight of the one German unit (G1 at 0803): a Sherman or a squad under it.
def _german_sees_the_american_impulse(units: dict[str, Any], orders: list[dict[str, Any]]) -> list[bytes]:
    r = rules()
    s = state({**units, "G1": {"hex": "0803"}})
    assert r.validate(r.view(s, "american"), "american", orders) == []
    out = r.resolve(s, {"american": Submission("american", orders), "german": None}, ForcedDice([]), Decisions())
    shown = [r.visible(e, "german") for e in out.events]
    return [canonical_json(e) for e in shown if e is not None] + [canonical_json(r.view(out.state, "german"))]


def test_a_concealed_vehicle_moving_out_of_sight_moves_like_a_marker() -> None:
    vehicle = _german_sees_the_american_impulse({"AV1": {"hex": "0104", "facing": 2, "concealed": True,
                                                          "marker": "US-1"}}, [{"move": "AV1", "path": ["0204"]}])
    squad = _german_sees_the_american_impulse({"A1": {"hex": "0104", "concealed": True, "marker": "US-1"}},
                                              [{"move": "A1", "path": ["0204"]}])
    assert vehicle == squad


def test_a_concealed_vehicle_turning_in_its_hex_looks_like_a_marker_marked_used() -> None:
    vehicle = _german_sees_the_american_impulse({"AV1": {"hex": "0104", "facing": 0, "concealed": True,
                                                          "marker": "US-1"}},
                                                [{"move": "AV1", "path": ["0104"], "facing": 3}])
    squad = _german_sees_the_american_impulse({"A1": {"hex": "0104", "concealed": True, "marker": "US-1"}},
                                              [{"used": "A1"}])
    assert vehicle == squad


def _american_gun_fire(hidden: str, dice: list[int]) -> list[bytes]:
    r = rules()
    extra = {"facing": 4} if hidden == "GG1" else {}
    s = state({"AT1": {"hex": "0303", "facing": 1}, hidden: {"hex": "0503", "concealed": True, "marker": "DE-1", **extra},
               "G2": {"hex": "1208"}})
    orders = [{"fire": "AT1", "at": "0503"}]
    assert r.validate(r.view(s, "american"), "american", orders) == []
    out = r.resolve(s, {"american": Submission("american", orders), "german": None},
                    ForcedDice([d - 1 for d in dice]), Decisions())
    shown = [r.visible(e, "american") for e in out.events]
    return [canonical_json(e) for e in shown if e is not None] + [canonical_json(r.view(out.state, "american"))]


def test_a_gun_missing_a_marker_cannot_tell_a_gun_from_a_squad_or_a_decoy() -> None:
    assert len({b"".join(_american_gun_fire(uid, [10])) for uid in ("GG1", "G1", "GD1")}) == 1
    assert len({b"".join(_american_gun_fire(uid, [9])) for uid in ("GG1", "G1", "GD1")}) == 1
