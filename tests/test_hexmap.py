"""Map documents: loading, queries, and every validation error naming what is wrong."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from pbem.geometry.hexgrid import Hex, HexGrid, Hexside
from pbem.geometry.hexmap import MAP_SCHEMA, HexMap, MapError


def sample() -> dict[str, Any]:
    """A small made-up map (not a printed one) in the document format."""
    return {
        "bounds": {"columns": [30, 36], "rows": [5, 14]},
        "stagger": "odd-low",
        "north": 0,
        "default_terrain": "clear",
        "omit": ["3005"],
        "hexes": {
            "3311": {"terrain": "town", "features": ["bridge"]},
            "3513": {"terrain": "built_up_residential"},
            "3612": {"features": ["church"]},
        },
        "hexsides": [
            {"between": ["3311", "3411"], "features": ["road", "bridge"]},
            {"between": ["3410", "3411"], "features": ["river"]},
        ],
        "sets": {"exit": ["3614", "3514", "3414"], "zone": ["3311"]},
        "assumed": True,
        "source": "made up for tests",
    }


def load(doc: dict[str, Any]) -> HexMap:
    return HexMap.from_dict(doc)


def test_queries() -> None:
    m = load(sample())
    assert m.grid == HexGrid("odd-low")
    assert m.on_map("3311") and m.on_map(Hex(36, 14))
    assert not m.on_map("3005") and not m.on_map("2911") and not m.on_map("3715") and not m.on_map("3004")
    assert m.terrain("3311") == "town" and m.terrain("3312") == "clear"
    assert m.features("3311") == ("bridge",) and m.features("3312") == ()
    assert m.features("3612") == ("church",) and m.terrain("3612") == "clear"
    assert m.hexside_features("3411", "3311") == ("road", "bridge")
    assert m.hexside_features("3311", "3411") == ("road", "bridge")
    assert m.hexside_features("3311", "3312") == ()
    assert [h.id for h in m.set("exit")] == ["3614", "3514", "3414"]
    assert len(m.hexes()) == 7 * 10 - 1
    assert [h.id for h in m.neighbours("3006")] == ["3105", "3106", "3007"]


def test_query_errors() -> None:
    m = load(sample())
    with pytest.raises(ValueError, match="3005.*off the map"):
        m.terrain("3005")
    with pytest.raises(ValueError, match="not adjacent"):
        m.hexside_features("3311", "3313")
    with pytest.raises(ValueError, match="no set named 'nope'"):
        m.set("nope")
    with pytest.raises(ValueError, match="four digits"):
        m.on_map("331")


def test_defaults_and_north() -> None:
    doc = {"bounds": {"columns": [10, 42], "rows": [0, 42]}, "default_terrain": "clear", "north": 3,
           "assumed": False, "source": "FBSM 4.3, 11.3"}
    m = load(doc)
    assert m.stagger == "odd-low" and m.sets == {} and m.omitted == frozenset()
    # FBSM 11.3: German drift "south" goes from 2136 to 2135.
    assert m.grid.step("2136", m.direction("S")) == Hex.parse("2135")


def test_round_trip() -> None:
    m = load(sample())
    again = load(m.to_dict())
    assert again == m
    assert again.to_dict() == m.to_dict()
    assert Draft202012Validator(MAP_SCHEMA).is_valid(m.to_dict())


def test_hexside_key_is_order_free() -> None:
    m = load(sample())
    side = Hexside.of(Hex.parse("3411"), Hex.parse("3311"))
    assert m.side_features[side] == ("road", "bridge")


def mutate(path: list[Any], value: Any) -> dict[str, Any]:
    doc = sample()
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


DELETE = object()

BAD: list[tuple[str, list[Any], Any, str]] = [
    ("unknown top key", ["colour"], "red", r"unknown key 'colour'"),
    ("missing source", ["source"], DELETE, r"missing key 'source'"),
    ("missing assumed", ["assumed"], DELETE, r"missing key 'assumed'"),
    ("assumed not bool", ["assumed"], 1, r"assumed: expected true or false"),
    ("bad stagger", ["stagger"], "odd", r"stagger must be"),
    ("north out of range", ["north"], 6, r"north: expected a whole number 0-5"),
    ("north a bool", ["north"], True, r"north: expected a whole number 0-5"),
    ("bounds reversed", ["bounds", "rows"], [14, 5], r"bounds.rows: first 14 is after last 5"),
    ("bounds not pair", ["bounds", "columns"], [30], r"bounds.columns: expected \[first, last\]"),
    ("unknown bounds key", ["bounds", "layers"], [1, 2], r"unknown key 'layers'"),
    ("hex off map", ["hexes", "3715"], {"terrain": "town"}, r"hexes.3715: hex 3715 is off the map"),
    ("omitted hex described", ["hexes", "3005"], {"terrain": "town"}, r"hex 3005 is off the map \(omitted\)"),
    ("malformed id", ["hexes", "331"], {"terrain": "town"}, r"hexes.331: .*four digits"),
    ("int id", ["hexes", 3312], {"terrain": "town"}, r"quoted four-digit string, got 3312"),
    ("unknown hex key", ["hexes", "3311", "height"], 2, r"hexes.3311: unknown key 'height'"),
    ("terrain not a name", ["hexes", "3311", "terrain"], "Town!", r"hexes.3311.terrain: expected a lower-case name"),
    ("float sneaks in", ["hexes", "3311", "terrain"], 1.5, r"hexes.3311.terrain: expected a lower-case name"),
    ("duplicate feature", ["hexes", "3311", "features"], ["a", "a"], r"'a' listed twice"),
    ("hexside not adjacent", ["hexsides", 0, "between"], ["3311", "3511"],
     r"hexsides\[0\].between: hexside 3311-3511: the hexes are not adjacent"),
    ("hexside off map", ["hexsides", 0, "between"], ["3614", "3615"], r"hexsides\[0\].between\[1\]: hex 3615 is off"),
    ("hexside one hex", ["hexsides", 0, "between"], ["3311"], r"exactly two hexes"),
    ("hexside same hex", ["hexsides", 0, "between"], ["3311", "3311"], r"3311-3311: the hexes are not adjacent"),
    ("hexside listed twice", ["hexsides", 1, "between"], ["3411", "3311"],
     r"hexside 3311-3411 listed twice \(hexsides\[0\] and \[1\]\)"),
    ("hexside no features", ["hexsides", 0, "features"], [], r"hexside 3311-3411 has no features"),
    ("hexside missing features", ["hexsides", 0, "features"], DELETE, r"missing key 'features'"),
    ("set with off-map hex", ["sets", "exit", 1], "3615", r"sets.exit\[1\]: hex 3615 is off the map"),
    ("set with duplicate", ["sets", "exit", 2], "3614", r"sets.exit\[2\]: hex 3614 listed twice"),
    ("set name", ["sets", "Exit Hexes"], ["3311"], r"sets.Exit Hexes: expected a lower-case name"),
    ("omit outside bounds", ["omit"], ["2905"], r"omit\[0\]: hex 2905 is off the map \(columns 30-36"),
    ("omit duplicate", ["omit"], ["3005", "3005"], r"omit\[1\]: hex 3005 listed twice"),
    ("hexes not a mapping", ["hexes"], ["3311"], r"hexes: expected a mapping, got list"),
]


@pytest.mark.parametrize("name, path, value, message", BAD, ids=[b[0] for b in BAD])
def test_validation_errors(name: str, path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(MapError, match=message) as info:
        load(mutate(path, value))
    assert isinstance(info.value, ValueError)


def test_not_a_mapping() -> None:
    with pytest.raises(MapError, match="expected a mapping, got list"):
        HexMap.from_dict([])


SCHEMA_ALSO_REJECTS = [b for b in BAD if b[0] not in {
    # Needs the geometry or cross-references, which a schema cannot express.
    "bounds reversed", "hex off map", "omitted hex described", "hexside not adjacent", "hexside off map",
    "hexside listed twice", "set with off-map hex", "omit outside bounds",
    # JSON object keys are always strings, so an int key cannot reach the schema.
    "int id",
}]


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(MAP_SCHEMA)
    assert Draft202012Validator(MAP_SCHEMA).is_valid(sample())


@pytest.mark.parametrize("name, path, value, message", SCHEMA_ALSO_REJECTS, ids=[b[0] for b in SCHEMA_ALSO_REJECTS])
def test_schema_agrees_with_validator(name: str, path: list[Any], value: Any, message: str) -> None:
    assert not Draft202012Validator(MAP_SCHEMA).is_valid(mutate(path, value))

