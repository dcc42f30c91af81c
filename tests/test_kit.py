"""The ruleset kit: override schemas from the defaults, merging, stacks, dispatch, the hex index."""

from __future__ import annotations

import jsonschema
import pytest

from pbem.core.errors import PbemError
from pbem.geometry.hexmap import HexMap
from pbem.rulesets.kit import phases, stacks
from pbem.rulesets.kit.hexboard import HexIndex, load_map
from pbem.rulesets.kit.overrides import shape_schema
from pbem.rulesets.kit.tables import merge

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
