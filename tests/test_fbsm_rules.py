"""FBSM unit tests: the sample map honours every hex the rules name, the tables say where each
value comes from, scenarios override them, and the ruleset's interface behaves (schemas, the
sequence, determinism, plain data)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from pbem.core import chance, yamlio
from pbem.core.errors import PbemError
from pbem.core.game import checked_scenario
from pbem.core.ruleset import Decisions, Submission, get, rules_for, start
from pbem.geometry.hexmap import HexMap
from pbem.rulesets.fbsm import Fbsm, selfplay
from pbem.rulesets.fbsm.context import annotated_tables, assumed_values, plain_tables, prepare
from pbem.rulesets.fbsm.sequence import PHASES

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
CFG = prepare({"map": "second-marne", "play_balance": False})
RIVERBANK = ("4232 4131 4032 3931 3831 3832 3732 3733 3633 3533 3534 3434 3435 3335 3236 3136 3137 3037 3038 2938 "
             "2838 2839 2739 2740 2640 2540 2541 2441 2442 2342").split()


def test_registry_finds_the_ruleset() -> None:
    ruleset = get("fbsm")
    assert isinstance(ruleset, Fbsm) and ruleset.sides(SCENARIO) == ["us", "german"]


# --- the map -----------------------------------------------------------------------------------------

def test_sample_map_is_the_packaged_map() -> None:
    sample = yamlio.load_file(ROOT / "samples" / "fbsm" / "map.yaml").data
    packaged = yamlio.load_file(ROOT / "pbem" / "rulesets" / "fbsm" / "data" / "map.yaml").data
    assert sample == packaged
    assert HexMap.from_dict(sample).assumed is True


def test_riverbank_sequence_3_6() -> None:
    assert list(CFG.riverbank) == RIVERBANK
    for a, b in zip(RIVERBANK, RIVERBANK[1:]):
        assert CFG.adjacent(a, b), (a, b)
    assert all(CFG.terrain(h) == "riverbank" for h in RIVERBANK)


def test_named_hexes() -> None:
    assert CFG.map.features("1927") == ("hill-231",) and CFG.map.features("1928") == ("hill-231",)
    assert CFG.terrain("1927") == "clear" and CFG.blocks("1927")  # 10.8
    road = [h.id for h in CFG.map.sets["paris-metz-road"]]
    assert road[0] == "1032" and road[-1] == "4222"  # 3.3
    for a, b in zip(road, road[1:]):
        assert CFG.road_between(a, b), (a, b)
    for bridge in ("3311", "3520"):  # 9.6
        assert CFG.terrain(bridge) == "surmelin"
        assert sum(CFG.road_between(bridge, n) for n in CFG.neighbours(bridge)) == 2
    for crossing in ("3511", "3721"):
        assert CFG.terrain(crossing) == "railroad"
        assert sum(CFG.road_between(crossing, n) for n in CFG.neighbours(crossing)) >= 2
    assert list(CFG.south_exit) == [f"{c}00" for c in range(19, 34)]  # 4.3
    assert list(CFG.west_edge) == [f"42{r}" for r in range(31, 21, -1)]  # 7.5
    assert CFG.east_edge[0] == "2242" and CFG.east_edge[-1] == "1031"  # 7.7
    for a, b in zip(CFG.east_edge, CFG.east_edge[1:]):
        assert CFG.adjacent(a, b)
    for name in ("varennes", "paroy", "crezancy"):
        assert all(CFG.terrain(h.id) == "town" for h in CFG.map.sets[name])
    assert [CFG.terrain(h.id) for h in CFG.map.sets["moulin-ruine"]] == ["prepared-position"] * 3
    assert CFG.terrain("2618") == "wooded-hills"  # 10.8's example
    assert CFG.terrain("3305") == "surmelin" and CFG.defense("3305") == 3  # 10.3


def test_roads_cross_river_and_rail_only_where_named() -> None:
    road_hexes = {h for pair, features in CFG.hexes.sides_of.items() if "road" in features for h in pair}
    assert {h for h in road_hexes if CFG.terrain(h) == "surmelin"} == {"3311", "3520"}
    assert {h for h in road_hexes if CFG.terrain(h) == "railroad"} == {"3511", "3721"}


def test_zones_3_3_and_3_4() -> None:
    found = CFG.zones
    forward, rear = found["forward"], found["rear"]
    assert "1927" in forward and "1928" in forward
    assert not forward & set(RIVERBANK) and not forward & CFG.varennes and not forward & CFG.road_hexes
    assert "2236" in forward and "2717" not in forward
    assert {"3916", "3917", "3208", "3209", "3109", "3819", "3820", "3920", "2618"} <= rear
    assert len(forward) >= 24 and len(rear) >= 33  # room for 3.2's set-up
    assert not forward & rear


def test_geometry_examples() -> None:
    assert CFG.distance("2236", "2232") == 4 and CFG.distance("2236", "2034") == 3  # 10.6
    assert CFG.step("2136", "S", 1) == "2135" and CFG.step("2136", "S", 2) == "2134"  # 11.3
    assert not CFG.lof_clear("2717", "2518") and CFG.lof_clear("2717", "2618")  # 10.8
    line = CFG.line("2819", "2717")
    assert len(line.splits) == 1 and line.splits[0].kind == "hexside"  # a real 10.9 line
    assert CFG.lof_clear("2819", "2717") and not CFG.lof_clear("1436", "1636")


# --- tables --------------------------------------------------------------------------------------------

def test_every_table_value_has_a_source() -> None:
    def walk(node: object, path: str) -> None:
        assert isinstance(node, dict), path
        if "value" in node:
            assert "source" in node or node.get("assumed") is True, path
            return
        for key, sub in node.items():
            walk(sub, f"{path}.{key}")

    walk(annotated_tables(), "tables")
    assumed = {path for path, _, _ in assumed_values()}
    assert "defense.clear" in assumed and "bombardment.heavy_strength" in assumed
    assert "defense.surmelin" not in assumed  # printed in 10.3


def test_counter_mix() -> None:
    counters = CFG.counters
    assert sum(1 for c in counters.values() if c.side == "us" and c.kind == "infantry") == 48  # 3.2
    assert sum(1 for c in counters.values() if c.kind == "hw") == 9
    assert all(c.move == 0 for c in counters.values() if c.kind == "hw")  # 9.3
    german = [c for c in counters.values() if c.side == "german"]
    assert len(german) == 99 and all(c.move == 4 for c in german)
    assert "US01" in counters and "HW09" in counters and "G01" in counters and "G99" in counters


def test_scenario_overrides_tables() -> None:
    scenario = copy.deepcopy(SCENARIO)
    scenario["tables"] = {"defense": {"clear": 3}, "counters": {"us-infantry": {"fire": 4}}}
    rules, state = start(Fbsm(), scenario)
    cfg = rules.context
    assert cfg.defense("2236") == 3 and cfg.counters["US01"].fire == 4
    assert plain_tables()["defense"]["clear"] == 2  # the packaged default is untouched


def checked(tables: object) -> None:
    """A scenario with these overrides through the core's check (the schemas), then the ruleset's set-up."""
    text = yamlio.dump({**SCENARIO, "tables": tables})
    doc, ruleset = checked_scenario(yamlio.load_bytes(text.encode("utf-8"), "scenario.yaml"))
    ruleset.setup(doc.data)


@pytest.mark.parametrize("tables, where", [
    ({"defence": {"clear": 3}}, "defence"),  # an unknown key
    ({"defense": {"swamp": 3}}, "swamp"),
    ({"defense": {"clear": "3"}}, "tables.defense.clear"),  # a string for a number
    ({"defense": 3}, "tables.defense"),  # a number for a table
    ({"play_balance": {"last_turn": True}}, "tables.play_balance.last_turn"),  # a yes/no is not a number
    ({"impassable": "marne"}, "tables.impassable"),  # a list is a list
    ({"counters": {"new-group": {"fire": 3}}}, "tables.counters.new-group"),  # 2.5: a new group needs every field
    ({"counters": {"new-group": {"side": "us", "kind": "infantry", "prefix": "X", "count": 2, "fire": 3, "range": 4,
                                 "move": 4, "morale": 2}}}, "morale"),
    ({"counters": {"us-infantry": {"fire": "4"}}}, "tables.counters.us-infantry.fire"),
    ({"random_events": {"7": "air-raid"}}, "tables.random_events.7"),  # 7.1: the events of 7.2-7.10 only
    ({"random_events": {"13": "gas"}}, "13"),  # two dice make 2 to 12
])
def test_bad_overrides_are_refused(tables: object, where: str) -> None:
    with pytest.raises(PbemError) as refused:
        checked(tables)
    assert where in str(refused.value)
    assert "scenario.yaml:" in str(refused.value)  # with the file and the line


def test_good_overrides_pass_the_core_check() -> None:
    checked({"defense": {"clear": 3}, "impassable": ["marne", "town"], "random_events": {"7": "gas"},
             "counters": {"us-infantry": {"fire": 4},
                          "us-marines": {"side": "us", "kind": "infantry", "prefix": "M", "count": 2, "fire": 3,
                                         "range": 4, "move": 4}}})


def test_a_map_the_rules_cannot_use_is_refused_by_the_setup() -> None:
    doc = yamlio.load_file(ROOT / "samples" / "fbsm" / "map.yaml").data
    del doc["sets"]["south-exit"]
    with pytest.raises(PbemError, match="south-exit"):
        Fbsm().setup({**SCENARIO, "setup": {"map": doc}})


def test_play_balance_option() -> None:
    rules, state = start(Fbsm(), {**SCENARIO, "setup": {"map": "second-marne", "play_balance": True}})
    assert rules.context.play_balance and state["setup"]["play_balance"] is True


# --- the interface -------------------------------------------------------------------------------------

def test_initial_state() -> None:
    ruleset = Fbsm()
    state = start(ruleset, SCENARIO)[1]
    assert state["phase"] == "us-setup" and state["turn"] == 1
    assert len(state["units"]) == 156 and {u["status"] for u in state["units"].values()} == {"container"}
    assert rules_for(ruleset, state).awaiting(state) == ["us"] and rules_for(ruleset, state).result(state) is None
    assert json.loads(json.dumps(state)) == state


def test_phases_and_schemas() -> None:
    ruleset = Fbsm()
    assert ruleset.phase_names() == PHASES
    samples = {
        "us-setup": [{"setup": "US01", "hex": "2717"}],
        "german-movement": [{"move": "G07", "path": ["2235", "2234"]}, {"move": "G08", "path": [], "exit": True}],
        "german-first-fire": [{"fire": "2232", "with": ["G07", "G08"], "advance": ["G07"]}, {"heavy_mg": "G07"}],
        "us-first-bombardment": [{"bombard": "2136", "markers": ["heavy-1", "light-2"], "spotter": "US07"}],
        "german-placement": [{"place": "G31", "hex": "3931"}],
        "us-movement": [{"concede": True}],
    }
    for phase, orders in samples.items():
        jsonschema.validate(orders, ruleset.order_schema(phase))
        assert ruleset.order_kinds(phase)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{"fire": "2232"}], ruleset.order_schema("us-first-fire"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{"move": "G07", "path": ["2235"]}], ruleset.order_schema("random-events"))
    jsonschema.validate({"rally": "decline", "advance": "all", "placement": "orders"}, ruleset.standing_schema())


def test_a_placement_standing_answer_cannot_skip_the_phase() -> None:
    # 6.5: standing answers are private; the phases the US sees must not depend on them.
    ruleset = Fbsm()
    state = {"phase": "german-placement", "units": {"G01": {"status": "drawn"}, "US01": {"hex": "2236"}},
             "pending": {"kind": "reinforcement", "units": ["G01"]}}
    assert rules_for(ruleset, state).awaiting(state) == ["german"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"placement": "auto"}, ruleset.standing_schema())


def test_orders_from_the_wrong_side_are_refused() -> None:
    ruleset = Fbsm()
    state = {"phase": "german-movement", "units": {"G01": {"hex": "2236"}, "US01": {"hex": "2230"}}}
    rules = rules_for(ruleset, state)
    problems = rules.validate(rules.view(state, "us"), "us", [{"move": "US01", "path": ["2229"]}])
    assert problems and problems[0].section == "5.3"


def test_resolution_is_deterministic_and_plain() -> None:
    ruleset = Fbsm()
    states = list(selfplay.games_states(SCENARIO, b"determinism"))[:40]
    state = states[-1]
    submissions = {side: None for side in ("us", "german")}
    for side in rules_for(ruleset, state).awaiting(state):
        view = rules_for(ruleset, state).view(state, side)
        submissions[side] = Submission(side, rules_for(ruleset, view).bot_orders(view, side, b"seed"))
    seed = chance.sha256(b"same")
    first = rules_for(ruleset, state).resolve(copy.deepcopy(state), submissions, chance.Dice(seed), Decisions())
    second = rules_for(ruleset, state).resolve(copy.deepcopy(state), submissions, chance.Dice(seed), Decisions())
    assert chance.canonical_json(first.state) == chance.canonical_json(second.state)
    assert chance.canonical_json(first.events) == chance.canonical_json(second.events)
    assert "float" not in json.dumps(first.state)  # json round-trip keeps ints only
    for item in states:
        assert json.loads(json.dumps(item)) == item
        assert not any(isinstance(v, float) for v in _leaves(item))


def _leaves(node: object) -> list[object]:
    if isinstance(node, dict):
        return [x for v in node.values() for x in _leaves(v)]
    if isinstance(node, list):
        return [x for v in node for x in _leaves(v)]
    return [node]


def test_bot_orders_are_legal_from_the_view_alone() -> None:
    ruleset = Fbsm()
    for state in list(selfplay.games_states(SCENARIO, b"legal"))[::5]:
        for side in rules_for(ruleset, state).awaiting(state):
            view = rules_for(ruleset, state).view(state, side)
            orders = rules_for(ruleset, view).bot_orders(view, side, b"x")
            assert rules_for(ruleset, view).validate(view, side, orders) == []


def test_bot_answers() -> None:
    ruleset = Fbsm()
    assert ruleset.bot_answer({"topic": "rally", "options": ["accept", "decline"]}, b"") == "accept"
    assert ruleset.bot_answer({"topic": "advance", "options": [[], ["G01"], ["G01", "G02"]]}, b"") == ["G01", "G02"]


def test_docs_list_every_assumed_value() -> None:
    docs = (ROOT / "docs" / "fbsm.md").read_text(encoding="utf-8")
    for path, _, _ in assumed_values():
        group = ".".join(path.split(".")[:2])
        assert f"`{group}" in docs, path


def test_bot_games_do_not_depend_on_hash_seeds() -> None:
    """No set-iteration order leaks into results: the same game under two PYTHONHASHSEEDs."""
    import os
    import subprocess
    import sys

    script = ("from pbem.core import yamlio, chance\n"
              "from pbem.rulesets.fbsm import selfplay\n"
              f"sc = yamlio.load_file({str(ROOT / 'samples' / 'fbsm' / 'scenario.yaml')!r}).data\n"
              "states = list(selfplay.games_states(sc, b'hash-seed'))\n"
              "print(len(states), chance.state_hash(states[-1]))\n")
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1
