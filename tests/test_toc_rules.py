"""Unit tests of the ToC rules code: data, geometry examples, tables, losses, schemas, set-up."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pbem.core import ruleset as core_ruleset
from pbem.core import schemas, yamlio
from pbem.core.game import checked_scenario
from pbem.core.ruleset import rules_for, start
from pbem.core.errors import PbemError
from pbem.core.schemafiles import orders_schema, scenario_schema
from pbem.rulesets.toc import Toc, losses
from pbem.rulesets.toc.context import assumed_values, oob, plain_tables, prepare
from pbem.rulesets.toc.results import bombardment_result, defensive_fire_result, melee_result, odds
from pbem.rulesets.toc.state import normalize
from pbem.rulesets.toc.zoc import cut_off, in_zoc, projects_into, surrounded, zoc_hexes

core_ruleset.register("toc", "pbem.rulesets.toc:Toc")

ROOT = Path(__file__).resolve().parent.parent
CFG = prepare({"map": "mons"})
HEXES = CFG.hexes
RULESET = Toc()


# --- the map (every hex the rules name) ------------------------------------------------------------


def test_named_hexes_are_where_the_rules_put_them() -> None:
    assert HEXES.set("entry") == ("2100", "2700", "3100", "3900", "4300", "4700")  # 3.1
    assert HEXES.set("exit") == ("1327", "1628", "1927", "2228")  # 4.4
    assert HEXES.set("bridges") == ("2009", "2409", "2708", "2908", "3308", "4208")  # 4.2
    assert HEXES.set("bavai") == ("3122",)  # 4.3
    assert HEXES.terrain("1708") == "residential"  # 2.2 Conde
    for hex_id in HEXES.set("entry"):
        assert hex_id.endswith("00") and HEXES.on_map(hex_id)


def test_each_bridge_hex_is_reached_over_the_canal_by_a_bridge() -> None:
    for hex_id in HEXES.set("bridges"):
        crossings = [n for n in HEXES.neighbours(hex_id) if CFG.canal(hex_id, n) and CFG.bridged(hex_id, n)]
        assert crossings, hex_id
    two = [n for n in HEXES.neighbours("3308") if CFG.canal("3308", n) and CFG.bridged("3308", n)]
    kinds = sorted("road" if CFG.road("3308", n) else "rail" for n in two)
    assert kinds == ["rail", "road"]  # 4.2: one road and one rail bridge into 3308
    bridged = {(a, b) for (a, b), f in HEXES.sides_of.items() if "canal" in f and ("bridge" in f or "rail-bridge" in f)}
    assert all(a in HEXES.set("bridges") or b in HEXES.set("bridges") for a, b in bridged)


def test_the_canal_separates_north_from_south() -> None:
    """Without its bridges the Conde Canal cuts the map in two: the entry hexes reach no exit."""
    seen = set(HEXES.set("entry"))
    todo = list(seen)
    while todo:
        here = todo.pop()
        for n in HEXES.neighbours(here):
            if n not in seen and not CFG.canal(here, n):
                seen.add(n)
                todo.append(n)
    assert not seen & set(HEXES.set("exit"))
    assert not seen & set(HEXES.set("bridges"))


def test_rail_bridge_on_1523_1624() -> None:  # 9.16
    assert "rail-bridge" in HEXES.side_features("1523", "1624")
    assert CFG.river("1523", "1624")


def test_map_has_every_kind_of_terrain_and_hexside() -> None:
    assert set(HEXES.terrain_of.values()) == {"clear", "forest", "residential", "industrial"}
    features = {f for fs in HEXES.sides_of.values() for f in fs}
    assert features == {"canal", "river", "road", "bridge", "rail-bridge"}
    assert CFG.map.assumed


# --- 7.2, 10.2, 10.4: the geometry examples ----------------------------------------------------------


def test_7_2_zoc_projections() -> None:
    assert sorted(projects_into(CFG, "2707")) == ["2607", "2706", "2807"]
    assert projects_into(CFG, "3513") == []
    assert sorted(projects_into(CFG, "3506")) == ["3407", "3505", "3606", "3607"]


def test_7_2_zoc_extends_out_of_built_up_hexes() -> None:
    assert CFG.built_up("2707") and in_zoc(CFG, "2706", {"2707"})
    assert not in_zoc(CFG, "2708", {"2707"})


def test_10_2_range() -> None:
    assert HEXES.distance("2524", "2823") == 3


def test_10_4_lines_of_sight() -> None:
    assert not CFG.los_clear("3514", "3714")  # along the 3614/3615 hexside: forest 3615 blocks
    assert not CFG.los_clear("3714", "3911")  # residential 3813 between
    assert CFG.los_clear("4308", "4208") and CFG.los_clear("4308", "4209")  # end hexes never count
    line = HEXES.line("3514", "3714")
    assert [(s.kind, [h.id for h in s.left], [h.id for h in s.right]) for s in line.splits] == \
        [("hexside", ["3614"], ["3615"])]


def test_10_4_industrial_alone_does_not_block() -> None:
    """The same hexside line with the forest turned clear: industrial 3614 alone does not block."""
    doc = copy.deepcopy(yamlio.load_file(ROOT / "samples" / "toc" / "map.yaml").data)
    doc["hexes"]["3615"] = {"terrain": "clear"}
    ctx = prepare({"map": doc})
    assert ctx.hexes.terrain("3614") == "industrial" and ctx.los_clear("3514", "3714")
    doc["hexes"]["3813"] = {"terrain": "industrial"}
    assert prepare({"map": doc}).los_clear("3714", "3911")


def test_4_5_surrounded_and_cut_off() -> None:
    assert surrounded(CFG, "3122", {"3023", "3222"})
    assert not surrounded(CFG, "3122", {"3023"})
    assert cut_off(CFG, "3106", {"3105", "3107"})
    assert not cut_off(CFG, "3106", {"3105"})
    assert not cut_off(CFG, "1927", {"1926", "1826"})  # standing on an exit hex
    assert "3122" not in zoc_hexes(CFG, {"3023", "3222"})  # no ZOC into built-up Bavai


# --- the tables reproduce the examples ----------------------------------------------------------------


def test_tables_reproduce_the_worked_examples() -> None:
    tables = CFG.tables
    assert bombardment_result(tables, 4, 3) == 1  # 10.7
    assert bombardment_result(tables, 4, 3 - 2) == 0  # 10.8
    assert defensive_fire_result(tables, 4, 3) == 1  # 11.4
    assert odds(26, 7) == 3  # 12.7
    assert melee_result(tables, 26, 7, 3) == (1, 2, "3:1")  # 12.11
    assert melee_result(tables, 7, 8, None) == (4, 0, "poor-odds")  # 12.8
    assert melee_result(tables, 29, 4, None) == (1, 4, "high-odds")  # 12.9: 7:1
    assert melee_result(tables, 24, 4, 1)[2] == "6:1"


def test_tables_never_get_worse_for_the_firer_with_more_factors_or_a_higher_roll() -> None:
    for name, read in (("bombardment", bombardment_result), ("defensive_fire", defensive_fire_result)):
        for factors in range(1, 30):
            row = [read(CFG.tables, factors, die) for die in range(1, 7)]
            assert row == sorted(row), (name, factors)
            if factors > 1:
                assert all(read(CFG.tables, factors, d) >= read(CFG.tables, factors - 1, d) for d in range(1, 7))
    for ratio in range(1, 7):
        results = [melee_result(CFG.tables, ratio, 1, die)[:2] for die in range(1, 7)]
        assert [d for _, d in results] == sorted(d for _, d in results)
        assert [a for a, _ in results] == sorted((a for a, _ in results), reverse=True)


def test_every_assumed_value_is_marked_and_documented() -> None:
    assumed = {path for path, _, _ in assumed_values()}
    assert {"bombardment", "defensive_fire", "melee"} <= assumed
    doc = (ROOT / "docs" / "toc.md").read_text(encoding="utf-8")
    for path in sorted(assumed):
        assert f"`{path}`" in doc, path
    for name in oob()["unit_types"]:
        assert f"`{name}`" in doc, name


def scenario_doc(tables: dict[str, Any]) -> yamlio.Document:
    """A toc scenario file with these `tables:`, as YAML text (so the schema names lines and columns)."""
    text = yamlio.dump({"pbem": 1, "kind": "scenario", "ruleset": "toc", "title": "t", "setup": {"map": "mons"},
                        "tables": tables})
    return yamlio.load_bytes(text.encode("utf-8"), "scenario.yaml")


def checked_setup(tables: dict[str, Any]) -> dict[str, Any]:
    """The setup of a scenario with these tables, through the core's checks (schema, `Toc.setup`, `prepare`)."""
    doc, ruleset = checked_scenario(scenario_doc(tables))
    rules, _ = start(ruleset, doc.data)
    return rules.setup


def test_scenario_may_override_a_table() -> None:
    melee = copy.deepcopy(plain_tables()["melee"])
    melee["3"][2] = "0/3"
    ctx = prepare(checked_setup({"melee": melee, "unit_types": {"british-infantry": {"melee": [3, 5]}}}))
    assert melee_result(ctx.tables, 26, 7, 3) == (0, 3, "3:1")
    assert ctx.counters["B-RF"].melee(2) == 5


def test_scenario_may_override_terrain_effects() -> None:
    terrain = copy.deepcopy(plain_tables()["terrain"])
    terrain["blocks_line_of_sight"] = ["forest"]
    ctx = prepare(checked_setup({"terrain": terrain}))
    assert ctx.los_clear("3714", "3911") and not ctx.los_clear("3514", "3714")


def test_every_packaged_table_passes_as_its_own_override() -> None:
    tables = {**plain_tables(), "unit_types": {"german-cavalry": {"move": 5, "melee": [1, 3]}}}
    assert prepare(checked_setup(tables)).counters["G-CAV3"].move == 5


def _bad_melee() -> dict:
    melee = copy.deepcopy(plain_tables()["melee"])
    melee["2"][0] = "two/one"
    return {"melee": melee}


def _bad_results(name: str, result: str) -> dict:
    return {name: result}


@pytest.mark.parametrize("tables, where", [
    (_bad_melee(), "tables.melee.2[0]"),  # a result like "1/2"
    ({"poor_odds_result": "four"}, "tables.poor_odds_result"),
    ({"terrain": {**plain_tables()["terrain"], "built_up": ["swamp"]}}, "tables.terrain.built_up[0]"),
    ({"terrain": {"built_up": ["forest"]}}, "tables.terrain"),  # a table given is given whole
    ({"melee": {"1": ["1/1"]}}, "tables.melee"),  # lists of the default's length
    ({"melee": {**plain_tables()["melee"], "1": ["1/1"]}}, "tables.melee.1"),
    ({"max_odds": "6"}, "tables.max_odds"),
    ({"max_odds": True}, "tables.max_odds"),
    ({"move_cost": {**plain_tables()["move_cost"], "road": None}}, "tables.move_cost.road"),
    ({"bombardment": []}, "tables.bombardment"),
    ({"bombardment": [{"factors": [1], "die": [0, 0, 0, 0, 0, 0]}]}, "tables.bombardment[0].factors"),
    ({"bombardment": [{"factors": [1, None], "die": [0, 0, 0, 0, 0]}]}, "tables.bombardment[0].die"),
    ({"defensive_fire": [{"factors": [1, None], "die": [0, 0, 0, 0, 0, -1]}]}, "tables.defensive_fire[0].die[5]"),
    ({"nonsense": 1}, "nonsense"),  # unknown table
    ({"unit_types": {"british-infantry": {"side": "german"}}}, "side"),  # never side or kind
    ({"unit_types": {"british-infantry": {"bombard": [1, 2]}}}, "bombard"),  # a field the type has not
    ({"unit_types": {"british-lancers": {"move": 4}}}, "british-lancers"),  # an unknown type
    ({"unit_types": {"british-infantry": {"move": -1}}}, "tables.unit_types.british-infantry.move"),
    ({"unit_types": {"british-infantry": {"melee": [2, "4"]}}}, "tables.unit_types.british-infantry.melee[1]"),
])
def test_bad_overrides_are_refused_by_the_schema(tables: dict, where: str) -> None:
    with pytest.raises(PbemError) as caught:
        checked_setup(tables)
    assert where in str(caught.value), str(caught.value)


@pytest.mark.parametrize("tables, words", [
    ({"bombardment": [{"factors": [2, 3], "die": [0, 0, 0, 0, 0, 0]}]}, "tables.bombardment[0]: columns must run on "
                                                                         "from 1 without gaps"),
    ({"defensive_fire": [{"factors": [1, 2], "die": [0] * 6}, {"factors": [4, None], "die": [0] * 6}]},
     "tables.defensive_fire[1]: columns must run on from 3 without gaps"),
    ({"bombardment": [{"factors": [1, None], "die": [0] * 6}, {"factors": [1, 2], "die": [0] * 6}]},
     "tables.bombardment[0]: only the last column may be open-ended"),
    ({"unit_types": {"british-infantry": {"steps": 3}}}, "unit type british-infantry: melee needs one value per step"),
    ({"unit_types": {"german-field-artillery": {"bombard": [1, 2, 3]}}},
     "unit type german-field-artillery: bombard needs one value per step"),
])
def test_what_the_schema_cannot_say_is_refused_when_the_game_starts(tables: dict, words: str) -> None:
    doc, ruleset = checked_scenario(scenario_doc(tables))  # the shape is right
    with pytest.raises(PbemError) as caught:
        start(ruleset, doc.data)  # Toc.setup (the columns), then Toc.prepare (values per step, the map)
    assert words in str(caught.value), str(caught.value)


def test_the_tables_schema_is_a_valid_schema() -> None:
    schemas.check_schema(RULESET.tables_schema())


# --- losses -----------------------------------------------------------------------------------------------


def test_constrained_allocations_eliminate_nobody_early() -> None:
    assert losses.allocations({"A": 2, "B": 2}, 2, True) == [{"A": 1, "B": 1}]
    options = losses.allocations({"A": 2, "B": 1}, 2, True)
    assert {"B": 1, "A": 1} in options and {"A": 2} in options  # A at one step with B: then A may go
    assert losses.allocations({"A": 2, "B": 2}, 5, True) == [{"A": 2, "B": 2}]  # excess ignored


def test_unconstrained_allocations() -> None:
    options = losses.allocations({"A": 2, "B": 1}, 2, False)
    assert sorted(map(sorted, (o.items() for o in options))) == [[("A", 1), ("B", 1)], [("A", 2)]]


def test_rules_pick_by_worth() -> None:
    steps = {"B-RF": 2, "B-FA27": 1, "B-DG": 2}
    assert losses.by_rule(CFG, steps, 1, "strongest-first", False) == {"B-RF": 1}
    assert losses.by_rule(CFG, steps, 1, "weakest-first", False) == {"B-FA27": 1}
    assert losses.by_rule(CFG, steps, 1, "weakest-first", True) == {"B-DG": 1}
    assert losses.by_rule(CFG, steps, 2, "spread", False) == {"B-RF": 1, "B-DG": 1}


# --- set-up, state, schemas -----------------------------------------------------------------------------------


def test_initial_state() -> None:
    rules, state = start(RULESET, yamlio.load_file(ROOT / "samples" / "toc" / "scenario.yaml").data)
    cfg = rules.context
    assert state["turn"] == 1 and state["phase"] == "german-movement" and state["control"] == []  # 3.2
    for uid, unit in state["units"].items():
        counter = cfg.counters[uid]
        if counter.side == "british":
            assert unit["status"] == "active" and unit["hex"] == counter.start  # 3.1
        else:
            assert unit["status"] == "container" and unit["hex"] is None  # 3.1, 8.1
        assert unit["steps"] == counter.steps  # 2.13
    assert rules_for(RULESET, state).awaiting(state) == ["german"]


def test_order_of_battle() -> None:
    german = [c for c in CFG.counters.values() if c.side == "german"]
    for corps in ("III", "IV", "IX"):  # 2.12
        units = [c for c in german if c.corps == corps]
        assert len({c.division for c in units if c.division}) == 2
        assert sorted(c.kind for c in units if c.division is None) == ["cavalry", "heavy-artillery"]
    assert all(c.steps == 4 and c.stacking == 4 for c in german if c.kind == "infantry")  # 2.13, 6.3
    assert all(c.stacking == 1 for c in CFG.counters.values() if c.kind != "infantry" or c.side == "british")
    assert CFG.counters["G-IR8"].counter_face(2) == {"counter": "substitute", "face": "front"}
    british = [c for c in CFG.counters.values() if c.side == "british"]
    assert all(c.start and HEXES.on_map(c.start) for c in british)
    used = {abbr for c in british for abbr in [c.id[2:].rstrip("0123456789")]}
    assert {"RF", "N", "DC", "AS", "DG", "H", "L", "CMP"} <= used


def test_entry_schedule_8_2() -> None:
    by = {(e.corps, e.division): (e.turn, e.hexes) for e in CFG.entries}
    assert by[("IX", "17")] == (1, ("4700",)) and by[("IX", "18")] == (1, ("4300",))
    assert by[("III", "6")] == (1, ("3900",)) and by[("III", "5")] == (1, ("3100",))
    assert by[("IV", "7")] == (4, ("3900",)) and by[("IV", "8")] == (4, ("2100",))
    assert by[("IV", None)] == (4, ("3900", "2100"))  # the erratum: IV Corps', not III Corps'
    assert by[("III", None)] == (1, ("3900", "3100"))


def test_compact_state_normalizes() -> None:
    state = normalize(CFG, {"phase": "german-combat", "units": {"G-IR8": {"hex": "3105", "steps": 2},
                                                               "B-RF": {"status": "eliminated"}}})
    assert state["units"]["G-IR8"] == {"hex": "3105", "steps": 2, "status": "active", "z": 1}
    assert state["units"]["B-RF"]["status"] == "eliminated" and state["turn"] == 2
    with pytest.raises(PbemError):
        normalize(CFG, {"phase": "german-combat", "units": {"X-1": {"hex": "3105"}}})


def test_schemas_are_valid() -> None:
    for phase in RULESET.phase_names():
        schemas.check_schema(orders_schema(RULESET, phase))
        assert RULESET.order_kinds(phase)
    schemas.check_schema(orders_schema(RULESET))
    schemas.check_schema(scenario_schema(RULESET))
    doc = yamlio.load_file(ROOT / "samples" / "toc" / "scenario.yaml")
    schemas.validate(doc, scenario_schema(RULESET))


def _orders_doc(text: bytes, phase: str) -> None:
    doc = yamlio.load_bytes(text, "o.yaml")
    full = orders_schema(RULESET, phase)
    schema = {"type": "object", "properties": {"orders": full["properties"]["orders"],
                                               "standing": full["properties"]["standing"]}}
    schemas.validate(doc, schema)


def test_issue_vocabulary_parses() -> None:
    _orders_doc(b"""orders:
  - {sequence: fight-move}
  - {bombard: "3122", with: [B-FA27, B-FA28], losses: [G-IR8, G-IR12]}
  - {melee: "3122", with: [B-RF, B-N], losses: [B-N], advance: [B-RF], then: "3123"}
standing:
  defensive_fire: largest-attack
  fire_losses: strongest-first
  own_losses: weakest-first
""", "british-first")
    _orders_doc(b"""orders:
  - {move: [G-IR8, G-IR12], path: ["3101", "3102"], march: true}
  - {move: [B-RF], path: ["1427", "1327", off]}
""", "german-movement")
    with pytest.raises(PbemError):
        _orders_doc(b"orders:\n  - {bombard: \"3122\", with: [G-HA2]}\n", "german-movement")
    with pytest.raises(PbemError):
        _orders_doc(b"orders: []\nstanding: {own_losses: sometimes}\n", "german-movement")


def test_resolve_is_pure() -> None:
    from pbem.core import chance
    from pbem.core.ruleset import Decisions, Submission

    state = start(RULESET, {"setup": {}})[1]
    view = rules_for(RULESET, state).view(state, "german")
    orders = rules_for(RULESET, view).bot_orders(view, "german", b"s")
    before = copy.deepcopy(state)
    one = rules_for(RULESET, state).resolve(state, {"german": Submission("german", orders), "british": None},
                          chance.Dice(b"\x01" * 32), Decisions())
    two = rules_for(RULESET, state).resolve(state, {"german": Submission("german", orders), "british": None},
                          chance.Dice(b"\x01" * 32), Decisions())
    assert state == before
    assert one.state == two.state and one.events == two.events
