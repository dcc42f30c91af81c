"""The ruleset kit: override schemas from the defaults, merging, stacks, dispatch, the hex index, events."""

from __future__ import annotations

import random
from typing import Callable

import jsonschema
import pytest

from pbem.core.errors import PbemError
from pbem.geometry.hexgrid import Hex
from pbem.geometry.hexmap import HexMap
from pbem.rulesets.fbsm import context as fbsm_context
from pbem.rulesets.kit import phases, stacks
from pbem.rulesets.kit.events import ANY, FLAG, LIST, NUMBER, TEXT, Catalogue, EventType, Fields
from pbem.rulesets.kit.hexboard import HexIndex, TerrainGroups, load_map
from pbem.rulesets.kit.overrides import shape_schema
from pbem.rulesets.kit.tables import merge
from pbem.rulesets.toc import context as toc_context

DEFAULTS = {"move_cost": {"clear": 2, "road": 1}, "impassable": ["river"], "rally": True,
            "melee": {"1": ["0/1", "1/0"]}, "open": None}


def valid(schema: dict, value: object) -> bool:
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError:
        return False
    return True


def test_a_partial_override_keeps_the_defaults_shape() -> None:
    schema = shape_schema(DEFAULTS, complete=False)
    assert valid(schema, {"move_cost": {"road": 2}})
    assert valid(schema, {"open": "anything"})
    assert not valid(schema, {"move_cost": {"swamp": 3}})  # unknown key
    assert not valid(schema, {"move_cost": {"road": "2"}})  # a string for a number
    assert not valid(schema, {"rally": 1})  # a number for a yes/no
    assert not valid(schema, {"move_cost": {"road": True}})  # a yes/no is not a number
    assert not valid(schema, {"impassable": [3]})


def test_a_complete_override_needs_every_key_and_the_default_length() -> None:
    schema = shape_schema(DEFAULTS, complete=True)
    assert not valid(schema, {"move_cost": {"road": 2}, "impassable": [], "rally": True, "melee": {"1": ["0/1", "1/0"]},
                              "open": None})
    assert not valid(schema["properties"]["melee"], {"1": ["0/1"]})
    assert valid(schema["properties"]["melee"], {"1": ["1/1", "0/2"]})


def test_refinements_replace_the_derived_schema_by_path_with_wildcards() -> None:
    schema = shape_schema(DEFAULTS, complete=False,
                          refine={"melee.*.*": {"type": "string", "pattern": "^[0-9]+/[0-9]+$"}})
    assert valid(schema, {"melee": {"1": ["2/3", "0/0"]}})
    assert not valid(schema, {"melee": {"1": ["2-3", "0/0"]}})


def test_whole_tables_may_be_left_out_but_each_one_given_replaces_the_default_entirely() -> None:
    schema = shape_schema(DEFAULTS, complete=False, whole=("*",))
    assert valid(schema, {}) and valid(schema, {"move_cost": {"clear": 3, "road": 1}})
    assert not valid(schema, {"move_cost": {"road": 2}})  # a part of a table
    assert not valid(schema, {"melee": {"1": ["0/1"]}})  # a list shorter than the default's
    only = shape_schema(DEFAULTS, complete=False, whole=("melee",))
    assert valid(only, {"move_cost": {"road": 2}}) and not valid(only, {"melee": {}})


UNITS = {"types": {"rifle": {"move": 4, "fire": [3, 2]}, "mg": {"move": 3, "fire": [5, 3]}}, "limit": 2}


def test_an_extensible_mapping_takes_new_entries_shaped_like_the_old_ones() -> None:
    schema = shape_schema(UNITS, complete=False, extensible={"types": "a new unit type, whole"})
    assert valid(schema, {"types": {"rifle": {"move": 5}}})  # an old entry, partly
    assert valid(schema, {"types": {"mortar": {"move": 2, "fire": [4, 1]}}})
    assert not valid(schema, {"types": {"mortar": {"move": 2}}})  # a new entry is given whole
    assert not valid(schema, {"types": {"mortar": {"move": 2, "fire": [4, 1], "range": 9}}})
    assert not valid(schema, {"limits": 3})  # only the named mapping is open
    assert schema["properties"]["types"]["additionalProperties"]["description"] == "a new unit type, whole"
    closed = shape_schema(UNITS, complete=False)
    assert not valid(closed, {"types": {"mortar": {"move": 2, "fire": [4, 1]}}})


def test_new_entries_may_take_the_shape_of_any_old_one_and_refinements_apply_to_them() -> None:
    mixed = {"types": {"rifle": {"move": 4}, "gun": {"move": 1, "range": 8}}}
    schema = shape_schema(mixed, complete=False, extensible=("types",), refine={"types.*.move": {"enum": [1, 4]}})
    assert valid(schema, {"types": {"a": {"move": 4}, "b": {"move": 1, "range": 3}}})
    assert not valid(schema, {"types": {"a": {"range": 3}}})
    assert not valid(schema, {"types": {"a": {"move": 2}}})  # the refinement holds for a new entry too
    with pytest.raises(ValueError, match="types is extensible but has no entry"):
        shape_schema({"types": {}}, complete=False, extensible=("types",))


def test_merge_lays_mappings_key_by_key_and_replaces_the_rest() -> None:
    merged = merge(DEFAULTS, {"move_cost": {"road": 3}, "impassable": ["lake"]})
    assert merged["move_cost"] == {"clear": 2, "road": 3} and merged["impassable"] == ["lake"]
    assert DEFAULTS["move_cost"]["road"] == 1  # the defaults are not touched


def test_stacks_number_bottom_first_and_arrivals_go_on_top() -> None:
    numbered = list(stacks.numbered({"a": {"hex": "0101"}, "b": {"hex": "0101", "z": 7}, "c": {"hex": "0101"}}))
    assert [(uid, z) for uid, _, z in numbered] == [("a", 1), ("b", 7), ("c", 8)]
    state = {"units": {uid: {"hex": e["hex"], "status": "active", "z": z} for uid, e, z in numbered},
             "next_z": 9}
    side_of = {"a": "red", "b": "blue", "c": "red"}.__getitem__
    assert stacks.stack(state, "0101", side_of) == ["a", "b", "c"]
    stacks.place(state, "a", "0101")
    assert stacks.stack(state, "0101", side_of) == ["b", "c", "a"]
    assert stacks.stack(state, "0101", side_of, "red") == ["c", "a"]
    stacks.put_on_top(state, ["b"])
    assert stacks.stacks(state, side_of) == {"0101": ["c", "a", "b"]}
    assert stacks.next_z(state["units"]) == state["next_z"]


def test_numbered_says_the_next_z_even_when_an_own_z_is_low() -> None:
    listed = stacks.numbered({"a": {"z": 5}, "b": None, "c": {"z": 2}})
    assert [z for _, _, z in listed] == [5, 6, 2] and listed.next_z == 8 and len(listed) == 3
    assert stacks.numbered({"a": {"z": 0}, "b": {"z": 0}}).next_z == 3  # never below the count listed + 1
    assert stacks.numbered({}).next_z == 1


def test_on_map_and_occupied_count_only_active_units_of_the_side() -> None:
    state = {"units": {"a": {"hex": "0101", "status": "active", "z": 1},
                       "b": {"hex": "0102", "status": "eliminated", "z": 2},
                       "c": {"hex": "0103", "status": "active", "z": 3},
                       "d": {"hex": "0103", "status": "active", "z": 4},
                       "e": {"hex": None, "status": "container", "z": 5}}}
    side_of = {"a": "red", "b": "red", "c": "blue", "d": "red", "e": "red"}.__getitem__
    assert stacks.on_map(state, side_of, "red") == {"a": "0101", "d": "0103"}
    assert stacks.on_map(state, side_of) == {"a": "0101", "c": "0103", "d": "0103"}
    assert stacks.occupied(state, side_of, "blue") == {"0103"}
    assert stacks.occupied(state, side_of) == {"0101", "0103"}


def test_dispatch_names_the_known_phases_and_concession_is_found() -> None:
    table = {"movement": "move", "combat": "fight"}
    assert phases.handler_for(table, "combat") == "fight"
    with pytest.raises(PbemError, match="movement, combat"):
        phases.handler_for(table, "supply")
    assert phases.conceding([{"move": 1}, {"concede": True}, {"concede": True}]) == 1
    assert phases.conceding([{"move": 1}]) is None
    events = phases.concession_events("red", "4.5", {"winner": "blue", "section": "4.5"})
    assert events == [{"type": "concede", "side": "red", "section": "4.5"},
                      {"type": "victory", "winner": "blue", "section": "4.5"}]


MAP = {"bounds": {"columns": [1, 4], "rows": [1, 4]}, "default_terrain": "clear", "assumed": True, "source": "test",
       "hexes": {"0202": {"terrain": "forest"}}, "hexsides": [{"between": ["0101", "0102"], "features": ["river"]}],
       "sets": {"entry": ["0101"]}}


def test_the_hex_index_answers_by_printed_id() -> None:
    index = HexIndex.of(load_map(MAP, "pbem.rulesets.kit", {}, ("entry",)))
    assert index.terrain("0202") == "forest" and index.on_map("0404") and not index.on_map("0505")
    assert index.side_features("0102", "0101") == ("river",)
    assert index.set("entry") == ("0101",)
    assert index.distance("0101", "0404") == index.map.grid.distance("0101", "0404")
    assert index.adjacent("0101", "0102") and not index.adjacent("0101", "0101")
    assert index.clear_line("0101", "0303", lambda h: index.terrain_of.get(h.id) == "forest", "either") is False
    with pytest.raises(PbemError, match="lacks the hex sets exit"):
        load_map(MAP, "pbem.rulesets.kit", {}, ("entry", "exit"))
    with pytest.raises(PbemError, match="unknown map 'elsewhere'"):
        load_map("elsewhere", "pbem.rulesets.kit", {"mons": "map.yaml"})
    assert isinstance(index.map, HexMap)


CATALOGUE = Catalogue({
    "turn": EventType("a new turn", ("5.3",), {"turn": NUMBER}, public=True),
    "fire": EventType("one fire", ("10.1", "10.2"), {"side": TEXT, "results": LIST, "march": FLAG},
                      optional={"note": ANY}, items={"results": Fields({"unit": TEXT, "roll": NUMBER},
                                                                         {"lost": FLAG})},
                      shown=("type", "side", "section")),
})
FIRE = {"type": "fire", "section": "10.1", "side": "red", "march": False,
        "results": [{"unit": "a", "roll": 3}, {"unit": "b", "roll": 6, "lost": True}]}


def test_an_event_that_matches_its_type_has_no_problems() -> None:
    assert CATALOGUE.problems(FIRE) == []
    assert CATALOGUE.problems({**FIRE, "note": None}) == []  # ANY: present with any value
    assert CATALOGUE.public == {"turn"} and CATALOGUE["fire"].what == "one fire"


def test_an_unknown_type_is_named() -> None:
    assert CATALOGUE.problems({"type": "earthquake", "section": "5.3"}) == ["unknown event type 'earthquake'"]
    assert CATALOGUE.problems({"section": "5.3"}) == ["unknown event type None"]


def test_a_section_the_type_does_not_cite_is_named_with_those_it_does() -> None:
    assert CATALOGUE.problems({**FIRE, "section": "5.3"}) == ["fire: section '5.3' is not one of 10.1, 10.2"]


def test_missing_fields_are_named() -> None:
    event = {key: value for key, value in FIRE.items() if key not in ("side", "section")}
    assert CATALOGUE.problems(event) == ["fire: missing section, side"]


def test_a_field_of_the_wrong_kind_is_named_and_a_flag_is_never_a_number() -> None:
    assert CATALOGUE.problems({**FIRE, "side": 3}) == ["fire: side is 3, not text"]
    assert CATALOGUE.problems({"type": "turn", "section": "5.3", "turn": True}) == \
        ["turn: turn is True, not a whole number"]
    assert CATALOGUE.problems({**FIRE, "march": 0}) == ["fire: march is 0, not yes or no"]


def test_an_unlisted_field_is_named() -> None:
    assert CATALOGUE.problems({**FIRE, "zz": 1, "extra": 2}) == ["fire: unlisted extra, zz"]


def test_each_item_of_a_list_field_is_checked() -> None:
    results = [{"unit": "a", "roll": 3}, "b", {"roll": "6", "lost": 1, "why": "x"}]
    assert CATALOGUE.problems({**FIRE, "results": results}) == [
        "fire.results[1]: 'b' is not a mapping", "fire.results[2]: missing unit", "fire.results[2]: unlisted why",
        "fire.results[2]: roll is '6', not a whole number", "fire.results[2]: lost is 1, not yes or no"]
    assert CATALOGUE.problems({**FIRE, "results": "none"}) == ["fire: results is 'none', not a list"]


def test_a_catalogue_that_contradicts_itself_is_refused() -> None:
    with pytest.raises(ValueError, match="public, so it is shown whole"):
        Catalogue({"turn": EventType("x", ("1",), {}, public=True, shown=("type",))})
    with pytest.raises(ValueError, match="names 'who', which is not one of its fields"):
        Catalogue({"fire": EventType("x", ("1",), {"side": TEXT}, hidden=("who",))})
    with pytest.raises(ValueError, match="items but is not a list field"):
        Catalogue({"fire": EventType("x", ("1",), {"side": TEXT}, items={"side": Fields({})})})
    with pytest.raises(ValueError, match="cites no section"):
        Catalogue({"turn": EventType("x", (), {})})


def _game_indexes() -> list[tuple[str, HexIndex, Callable[[Hex], bool]]]:
    fbsm = fbsm_context.prepare({})
    toc = toc_context.prepare({})
    return [("fbsm", fbsm.hexes, fbsm.blocks), ("toc", toc.hexes, toc.blocks_los)]


def _near_pairs(draw: random.Random, index: HexIndex, count: int, reach: int) -> list[tuple[str, str]]:
    hexes = index.hexes()
    found: list[tuple[str, str]] = []
    while len(found) < count:
        a, b = draw.choice(hexes), draw.choice(hexes)
        if a != b and index.distance(a, b) <= reach:
            found.append((a, b))
    return found


def test_a_line_blocks_the_same_both_ways_on_the_game_maps() -> None:
    """What `clear_between` relies on: for both split rules, a line is blocked from a to b exactly when
    it is from b to a, with each game's own terrain and with random terrain (a blocker in one hex in
    three), over pairs up to 8 hexes apart, many of them along hexsides or through corners."""
    draw = random.Random(20240611)
    checked = split = decided_by_rule = 0
    for name, index, game_blocks in _game_indexes():
        walls = frozenset(h for h in index.hexes() if draw.randrange(3) == 0)
        for blocks in (game_blocks, lambda h: h.has_id and h.id in walls):
            for a, b in _near_pairs(draw, index, 2000, 8):
                there, back = index.grid.line(a, b), index.grid.line(b, a)
                answers = {rule: there.blocked(blocks, at_split=rule) for rule in ("both", "either")}
                for rule in ("both", "either"):
                    assert back.blocked(blocks, at_split=rule) == answers[rule], (name, a, b, rule)
                checked += 1
                split += bool(there.splits)
                decided_by_rule += answers["both"] != answers["either"]
    assert checked == 8000 and split > 1000 and decided_by_rule > 100, (split, decided_by_rule)


def test_clear_between_is_one_answer_per_pair_and_blocking_rule() -> None:
    index = HexIndex.of(load_map(MAP, "pbem.rulesets.kit", {}, ("entry",)))
    forest = lambda h: index.terrain_of.get(h.id) == "forest"  # noqa: E731
    nothing = lambda h: False  # noqa: E731
    assert index.clear_between("0303", "0101", forest, "either", key="forest") is False
    assert index.clear_between("0101", "0303", nothing, "either", key="forest") is False  # the memo answers
    assert index.clear_between("0101", "0303", nothing, "either", key="nothing") is True
    assert index.clear_between("0101", "0303", forest, "both", key="forest") is False
    assert index.clear_between("0202", "0201", forest, "either", key="forest") is True  # adjacent hexes
    assert index.line("0101", "0303") is index.line("0101", "0303")
    assert [h.id for h in index.line("0303", "0101").hexes] == [h.id for h in reversed(index.line("0101", "0303").hexes)]


def test_terrain_groups_name_their_members_and_the_known_groups() -> None:
    groups = TerrainGroups({"built_up": ["residential", "industrial"], "cover": ("forest",)})
    assert groups.has("industrial", "built_up") and not groups.has("forest", "built_up")
    assert groups.names("cover") == frozenset({"forest"})
    with pytest.raises(KeyError, match="no terrain group 'woods'; the groups are built_up, cover"):
        groups.has("forest", "woods")
    index = HexIndex.of(load_map(MAP, "pbem.rulesets.kit", {}, ("entry",)))
    assert index.terrain_in("0202", groups.names("cover")) and not index.terrain_in("0101", groups.names("cover"))
    assert not index.terrain_in("0909", {"clear"})  # off the map
