"""Table map documents (pbem/geometry/tablemap.py): the two sample tables, every validation
rule (a bad document is refused with its path, a good one accepted), the order properties
merge in, what a line of sight crosses on a sample table, being on the table and in a zone."""

from __future__ import annotations

import ast
import copy
import textwrap
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable

import pytest
from jsonschema import Draft202012Validator

from pbem.core import yamlio
from pbem.core.errors import YamlError
from pbem.geometry import plane, tablemap
from pbem.geometry.plane import Base, polygon, polyline
from pbem.geometry.tablemap import (RULESET_KINDS, TABLE_MAP_SCHEMA, Feature, TableMap, TableMapError,
                                    load_table_map)

ROOT = Path(__file__).resolve().parent.parent
BST = ROOT / "samples" / "bst" / "table.yaml"
WTJ = ROOT / "samples" / "wtj1916" / "table.yaml"

# A U-shaped outline: its arms at x 500..600 and 800..900 rise to y 400 from a bar at y 100..200.
U_HILL = [[500, 100], [900, 100], [900, 400], [800, 400], [800, 200], [600, 200], [600, 400], [500, 400]]
# The blue zone, a U opening south: arms at x 0..100 and 900..1000 reach down to y 350.
U_ZONE = [[0, 600], [1000, 600], [1000, 350], [900, 350], [900, 500], [100, 500], [100, 350], [0, 350]]


def sample() -> dict[str, Any]:
    """A small made-up table (not one of the samples) in the document format."""
    return {
        "unit": "mm",
        "width": 1000,
        "depth": 600,
        "north": 90,
        "edges": {"red": "south", "blue": "north"},
        "kinds": {
            "woods": {"area": True, "cover": True, "slows": {"value": True, "source": "made up 1.1"}},
            "wall": {"area": False, "high": {"value": True, "assumed": True, "note": "a guess"}},
            "hill": {"area": True},
        },
        "features": [
            {"id": "wood", "kind": "woods", "polygon": [[100, 100], [300, 100], [300, 300], [100, 300]], "label": "a wood"},
            {"id": "wall", "kind": "wall", "line": [[400, 100], [400, 500]]},
            {"id": "hill", "kind": "hill", "polygon": copy.deepcopy(U_HILL), "crest": [[550, 150], [850, 150]],
             "height": 30},
        ],
        "zones": [
            {"id": "red-zone", "side": "red", "polygon": [[0, 0], [1000, 0], [1000, 80], [0, 80]]},
            {"id": "blue-zone", "side": "blue", "polygon": copy.deepcopy(U_ZONE)},
        ],
        "objectives": [{"id": "centre", "at": [500, 300], "label": "the centre"}],
        "assumed": True,
        "source": "made up for tests",
    }


def load(doc: Any, kinds: Any = None) -> TableMap:
    return TableMap.from_dict(doc, kinds)


def mutate(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    doc = sample()
    change(doc)
    return doc


def square(x: int, y: int, side: int) -> list[list[int]]:
    return [[x, y], [x + side, y], [x + side, y + side], [x, y + side]]


# --- the sample tables -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bst() -> TableMap:
    return load_table_map(BST)


@pytest.fixture(scope="module")
def wtj() -> TableMap:
    return load_table_map(WTJ)


def test_both_samples_load_as_assumed_tables_drawn_for_the_project(bst: TableMap, wtj: TableMap) -> None:
    assert (bst.unit, bst.width, bst.depth) == ("mm", 1800, 1200)
    assert (wtj.unit, wtj.width, wtj.depth) == ("yd", 1200, 800)
    for table in (bst, wtj):
        assert table.assumed is True
        assert "drawn for the project" in table.source
        assert len(table.zones) == 2 and {z.side for z in table.zones} == set(table.edges)
        assert table.objectives
        assert all(table.on_table(f.shape) for f in table.features)
        assert all(table.on_table(o.at) for o in table.objectives)
        assert all(z.shape.closed and plane.is_simple(z.shape) for z in table.zones)
    assert dict(bst.edges) == {"allies": "south", "axis": "north"}
    assert dict(wtj.edges) == {"british": "south", "german": "north"}


@pytest.mark.parametrize("path", [BST, WTJ], ids=["bst", "wtj1916"])
def test_samples_match_the_schema_and_every_property_says_where_it_came_from(path: Path) -> None:
    data = yamlio.load_file(path).data
    Draft202012Validator(TABLE_MAP_SCHEMA).validate(data)
    for kind, props in data["kinds"].items():
        for name, entry in props.items():
            assert isinstance(entry, dict) and "value" in entry, f"{kind}.{name} has no source"
            assert entry.get("source") or entry.get("assumed") is True, f"{kind}.{name} has no source"
    used = {f["kind"] for f in data["features"]}
    assert used <= set(data["kinds"]), "every feature's kind is declared in the sample itself"


def test_the_schema_is_a_valid_draft_2020_12_schema_and_refuses_bad_documents() -> None:
    Draft202012Validator.check_schema(TABLE_MAP_SCHEMA)
    check = Draft202012Validator(TABLE_MAP_SCHEMA)
    assert check.is_valid(sample())
    bad = [
        mutate(lambda d: d.update(unit="cm")),
        mutate(lambda d: d["features"][0].update(line=[[1, 1], [2, 2]])),  # polygon and line
        mutate(lambda d: d["features"][0].pop("polygon")),  # no shape
        mutate(lambda d: d["features"][0].update(polygon=[[1, 1], [2, 2]])),  # two points
        mutate(lambda d: d["features"][0].update(polygon=[[1, 1], [2, 2], [1.5, 3]])),
        mutate(lambda d: d["kinds"]["woods"].update(slows={"value": True})),  # no source
        mutate(lambda d: d["kinds"]["woods"].update(slows={"value": True, "assumed": False})),
        mutate(lambda d: d["kinds"]["woods"].update(slows=None)),
        mutate(lambda d: d.update(north=360)),
        mutate(lambda d: d["edges"].update(red="up")),
        mutate(lambda d: d["zones"][0].pop("side")),
    ]
    for doc in bad:
        assert not check.is_valid(doc)


def test_bst_sample_has_every_terrain_type_the_rules_mention(bst: TableMap) -> None:
    kinds = {f.kind for f in bst.features}
    assert {"wall", "bocage", "low-wall", "fence", "low-rise", "woods", "crops", "rough", "building", "hill",
            "road", "water"} <= kinds
    assert "smoke" in bst.kinds and "smoke" not in kinds, "smoke is laid in play, declared but not drawn"
    high = {f.kind for f in bst.features if f.properties.get("height_class") == "high"}
    low = {f.kind for f in bst.features if f.properties.get("height_class") == "low"}
    assert high == {"wall", "bocage"} and low == {"low-wall", "fence", "low-rise"}
    assert all(not f.area for f in bst.features if f.kind in high | low)


def _sides(f: Feature) -> tuple[int, int]:
    west, south, east, north = f.shape.box
    return min(east - west, north - south), max(east - west, north - south)


def test_bst_sample_areas_have_the_sizes_table_1_gives(bst: TableMap) -> None:
    buildings = bst.of_kind("building")
    assert len(buildings) >= 3
    for f in buildings:
        short, long = _sides(f)
        assert 50 <= short and long <= 150, f"{f.id} is {short} x {long} mm"
    for f in bst.of_kind("woods", "crops"):
        short, long = _sides(f)
        assert 100 <= short and long <= 200, f"{f.id} is {short} x {long} mm"
    assert any(not _is_rectangle(f.shape) for f in buildings), "one building is not a plain rectangle"


def _is_rectangle(shape: plane.Shape) -> bool:
    return len(shape.points) == 4 and all(x in (shape.box[0], shape.box[2]) and y in (shape.box[1], shape.box[3])
                                          for x, y in shape.points)


def test_bst_sample_wood_is_several_touching_areas(bst: TableMap) -> None:
    parts = [bst.feature(i) for i in ("wood-a", "wood-b", "wood-c")]
    assert {p.label for p in parts} == {"Bois Carre"}
    assert plane.overlap(parts[0].shape, parts[1].shape) and plane.overlap(parts[0].shape, parts[2].shape)
    # touching along an edge, not overlapping: a point just inside one is outside the other
    assert plane.locate((399, 850), parts[1].shape) == -1 and plane.locate((401, 850), parts[0].shape) == -1


def test_bst_sample_hill_has_its_ridge_along_the_longest_axis(bst: TableMap) -> None:
    hill = bst.feature("long-hill")
    assert hill.crest is not None and hill.height == 20 and hill.properties["cover"] == "behind-crest"
    assert all(plane.locate(p, hill.shape) == 1 for p in hill.crest.points)
    west, south, east, north = hill.shape.box
    cwest, csouth, ceast, cnorth = hill.crest.box
    assert east - west > north - south and ceast - cwest > cnorth - csouth


def test_wtj1916_sample_has_the_terrain_of_the_firing_chapter(wtj: TableMap) -> None:
    kinds = {f.kind for f in wtj.features}
    assert {"woods", "building", "scrub", "trench", "pillbox", "bunker", "shell-holes", "road", "wire"} <= kinds
    assert all(not f.area for f in wtj.of_kind("trench")), "trenches are drawn as lines (see the sample's header)"
    full = {k for k, props in wtj.kinds.items() if props.get("full_cover") is True}
    assert full == {"woods", "building", "scrub"}
    assert wtj.kinds["pillbox"]["holds"] == {"machine_gun": 1, "infantry": 1}
    assert wtj.kinds["bunker"]["arc"] == 90 and wtj.kinds["pillbox"]["arc"] == 180
    assumed = {path for path, _, _ in wtj.assumed_values}
    assert {f"kinds.wire.{p}" for p in wtj.kinds["wire"]} <= assumed, "wire is not in the chapter: all assumed"
    assert "kinds.trench.cover" not in assumed and "kinds.bunker.cover" not in assumed


def test_a_base_on_a_trench_line_occupies_it(wtj: TableMap) -> None:
    trench = wtj.feature("german-front")
    on = Base((600, 562), 0, 20, 10)
    off = Base((600, 600), 0, 20, 10)
    assert plane.overlap(on.shape, trench.shape) and "german-front" in wtj.touching(on.shape)
    assert not plane.overlap(off.shape, trench.shape)


# --- validation: each rule refuses a bad document and names its path ----------------------------

def test_the_sample_document_is_accepted() -> None:
    m = load(sample())
    assert [f.id for f in m.features] == ["wood", "wall", "hill"]
    assert m.north == 90 and m.feature("wood").label == "a wood" and m.feature("wall").label == ""
    assert m.feature("hill").height == 30 and m.feature("wood").height is None
    assert m.feature("hill").crest == polyline([[550, 150], [850, 150]])
    assert m.feature("wood").shape == polygon([[100, 100], [300, 100], [300, 300], [100, 300]])
    assert m.feature("wall").shape.closed is False
    assert m.objectives[0].at == (500, 300) and m.objectives[0].label == "the centre"
    minimal = load({"unit": "yd", "width": 5, "depth": 5, "assumed": False, "source": "x"})
    assert minimal.features == () and minimal.north == 0 and dict(minimal.edges) == {}


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _drop(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    # (name, change, path in the message, what the message says)
    ("unknown top key", _set(("size",), 3), "table map: unknown key 'size'", "allowed: unit"),
    ("missing width", _drop(("width",)), "table map: missing key 'width'", "missing"),
    ("unit", _set(("unit",), "cm"), "table map: unit:", "mm, yd"),
    ("width zero", _set(("width",), 0), "table map: width:", "1-1000000"),
    ("width text", _set(("width",), "1000"), "table map: width:", "whole number"),
    ("width bool", _set(("width",), True), "table map: width:", "whole number"),
    ("width decimal", _set(("width",), 1000.5), "table map: width:", "whole number"),
    ("north", _set(("north",), 360), "table map: north:", "0-359"),
    ("edge name", _set(("edges", "red"), "up"), "table map: edges.red:", "north, south, east, west"),
    ("side name", _set(("edges", "Red Army"), "south"), "table map: edges.Red Army:", "lower-case name"),
    ("polygon two points", _set(("features", 0, "polygon"), [[1, 1], [5, 5]]), "features[0].polygon:",
     "at least 3 points"),
    ("polygon crosses itself", _set(("features", 0, "polygon"), [[100, 100], [300, 300], [300, 100], [100, 300]]),
     "features[0].polygon:", "edge [0]-[1] meets edge [2]-[3]"),
    ("polygon repeats a point", _set(("features", 0, "polygon"), [[100, 100], [300, 100], [300, 300], [300, 100]]),
     "features[0].polygon:", "point [3] repeats point [1]"),
    ("polygon flat", _set(("features", 0, "polygon"), [[100, 100], [200, 100], [300, 100]]),
     "features[0].polygon:", "on one line"),
    ("point off the table east", _set(("features", 0, "polygon", 1), [1001, 100]), "features[0].polygon[1]:",
     "x must be 0..1000 and y 0..600"),
    ("point off the table south", _set(("features", 1, "line", 0), [400, -1]), "features[1].line[0]:",
     "off the table"),
    ("point decimal", _set(("features", 0, "polygon", 2), [300, 299.5]), "features[0].polygon[2]:", "whole mm"),
    ("point bool", _set(("features", 0, "polygon", 2), [True, 300]), "features[0].polygon[2]:", "whole mm"),
    ("point three numbers", _set(("features", 0, "polygon", 2), [300, 300, 1]), "features[0].polygon[2]:",
     "[x, y]"),
    ("points not a list", _set(("features", 0, "polygon"), "square"), "features[0].polygon:", "expected a list"),
    ("line one point", _set(("features", 1, "line"), [[400, 100]]), "features[1].line:", "at least 2 points"),
    ("line repeats", _set(("features", 1, "line"), [[400, 100], [400, 100], [400, 300]]), "features[1].line[1]:",
     "repeats the point before it"),
    ("crest off the hill", _set(("features", 2, "crest"), [[550, 150], [950, 150]]), "features[2].crest:",
     "leaves the feature's polygon"),
    ("crest leaves a concave hill", _set(("features", 2, "crest"), [[550, 300], [850, 300]]),
     "features[2].crest:", "leaves the feature's polygon"),
    ("crest on a line", _set(("features", 1, "crest"), [[400, 200], [400, 300]]), "features[1].crest:",
     "only an area"),
    ("duplicate feature id", _set(("features", 1, "id"), "wood"), "features[1].id:",
     "already used at features[0].id"),
    ("zone id of a feature", _set(("zones", 0, "id"), "hill"), "zones[0].id:", "already used at features[2].id"),
    ("objective id of a zone", _set(("objectives", 0, "id"), "red-zone"), "objectives[0].id:",
     "already used at zones[0].id"),
    ("bad id", _set(("features", 0, "id"), "Wood A"), "features[0].id:", "^[a-z][a-z0-9_-]*$"),
    ("unknown kind", _set(("features", 0, "kind"), "forest"), "features[0].kind:",
     "unknown kind 'forest' (kinds: hill, wall, woods"),
    ("two shapes", _set(("features", 0, "line"), [[1, 1], [2, 2]]), "features[0]:", "exactly one shape"),
    ("no shape", _drop(("features", 0, "polygon")), "features[0]:", "exactly one shape"),
    ("area kind given a line", _set(("features", 0, "kind"), "wall"), "features[0].polygon:",
     "kind 'wall' is a linear feature"),
    ("line kind given a polygon", _set(("features", 1, "kind"), "woods"), "features[1].line:",
     "kind 'woods' is an area"),
    ("area not a bool", _set(("kinds", "hill", "area"), "yes"), "kinds.hill.area:", "true) or lines (false)"),
    ("override of an unknown property", _set(("features", 0, "properties"), {"blocks": True}),
     "features[0].properties.blocks:", "kind 'woods' has no property 'blocks' to override (its properties: area, "
     "cover, slows"),
    ("property null", _set(("kinds", "woods", "cover"), None), "kinds.woods.cover:", "a property value is text"),
    ("property decimal", _set(("kinds", "woods", "cover"), 0.5), "kinds.woods.cover:", "a property value is text"),
    ("property name", _set(("kinds", "woods", "Cover"), True), "kinds.woods.Cover:", "lower-case name"),
    ("kind name", _set(("kinds", "Woods"), {}), "kinds.Woods:", "lower-case name"),
    ("kind not a mapping", _set(("kinds", "woods"), ["area"]), "kinds.woods:", "mapping of property names"),
    ("value without source", _set(("kinds", "woods", "cover"), {"value": True}), "kinds.woods.cover:",
     "source: \"<rule section>\" or assumed: true"),
    ("value assumed false", _set(("kinds", "woods", "cover"), {"value": True, "assumed": False}),
     "kinds.woods.cover:", "or assumed: true"),
    ("value with unknown key", _set(("kinds", "woods", "cover"), {"value": True, "source": "1.1", "page": 4}),
     "kinds.woods.cover:", "unknown key 'page'"),
    ("value with empty source", _set(("kinds", "woods", "cover"), {"value": True, "source": ""}),
     "kinds.woods.cover.source:", "non-empty string"),
    ("nested value key", _set(("kinds", "woods", "cover"), {"value": {"value": 1}, "source": "1.1"}),
     "kinds.woods.cover.value:", "only a property's own value"),
    ("zone side without an edge", _set(("zones", 0, "side"), "green"), "zones[0].side:",
     "side 'green' has no home edge: name it under edges: (sides: blue, red)"),
    ("zone off the table", _set(("zones", 0, "polygon", 2), [1000, 601]), "zones[0].polygon[2]:", "off the table"),
    ("zone missing polygon", _drop(("zones", 0, "polygon")), "zones[0]:", "missing key 'polygon'"),
    ("objective off the table", _set(("objectives", 0, "at"), [500, 700]), "objectives[0].at:", "off the table"),
    ("objective without at", _drop(("objectives", 0, "at")), "objectives[0]:", "missing key 'at'"),
    ("height decimal", _set(("features", 2, "height"), 2.5), "features[2].height:", "whole number of mm"),
    ("label not text", _set(("features", 0, "label"), 3), "features[0].label:", "a label is text"),
    ("assumed not bool", _set(("assumed",), "yes"), "table map: assumed:", "true or false"),
    ("source empty", _set(("source",), ""), "table map: source:", "non-empty string"),
    ("features not a list", _set(("features",), {"wood": {}}), "table map: features:", "expected a list"),
]


@pytest.mark.parametrize("change,where,what", [item[1:] for item in BAD], ids=[item[0] for item in BAD])
def test_a_bad_document_is_refused_naming_its_path(change: Callable[[dict[str, Any]], None], where: str,
                                                    what: str) -> None:
    with pytest.raises(TableMapError) as caught:
        load(mutate(change))
    assert where in str(caught.value) and what in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_the_example_in_the_module_docstring_is_a_valid_table() -> None:
    doc = tablemap.__doc__ or ""
    text = textwrap.dedent(doc.split("Example::\n\n", 1)[1].split("\n\n", 1)[0])
    m = load(yamlio.load_bytes(text.encode("utf-8"), "example").data)
    assert [f.id for f in m.features] == ["wood-a", "wall-1", "long-hill"]
    assert m.properties("long-hill")["cover"] is False and m.properties("wall-1")["crossing_penalty"] == 50


def test_not_a_mapping_is_refused() -> None:
    with pytest.raises(TableMapError, match="table map: expected a mapping, got list"):
        load([])


def test_the_same_shapes_just_inside_the_rules_are_accepted() -> None:
    m = load(mutate(lambda d: d["features"][0].update(polygon=[[0, 0], [1000, 0], [1000, 600]])))
    assert m.feature("wood").shape.points == ((0, 0), (1000, 0), (1000, 600))  # corners of the table are on it
    crest_on_boundary = load(mutate(_set(("features", 2, "crest"), [[500, 100], [900, 100], [900, 400]])))
    assert crest_on_boundary.feature("hill").crest is not None
    concave_ok = load(mutate(_set(("features", 2, "crest"), [[550, 350], [550, 150], [850, 150], [850, 350]])))
    assert concave_ok.feature("hill").crest == polyline([[550, 350], [550, 150], [850, 150], [850, 350]])
    clockwise = load(mutate(_set(("features", 0, "polygon"), [[100, 100], [100, 300], [300, 300], [300, 100]])))
    assert plane.twice_area(clockwise.feature("wood").shape) < 0


def test_errors_in_the_rulesets_kinds_say_so() -> None:
    with pytest.raises(TableMapError) as caught:
        load(sample(), {"woods": {"cover": 0.5}})
    assert caught.value.path[:1] == (RULESET_KINDS,) and "(ruleset kinds).woods.cover" in str(caught.value)
    with pytest.raises(TableMapError, match=r"\(ruleset kinds\)\.moor\.area"):
        load(sample(), {"moor": {"area": "maybe"}})


# --- kinds and properties ----------------------------------------------------------------------

def test_properties_merge_ruleset_then_document_kind_then_feature() -> None:
    ruleset = {
        "woods": {"area": True, "cover": True, "slows": True, "blocks_sight": "inside-only"},
        "marsh": {"area": True, "slows": {"value": True, "source": "9.1"}},
    }
    doc = sample()
    doc["kinds"] = {"woods": {"slows": False, "dense": {"value": 2, "assumed": True}},
                    "wall": {"area": False}, "hill": {"area": True}}
    doc["features"].append({"id": "thicket", "kind": "woods", "polygon": square(120, 400, 100),
                            "properties": {"cover": False, "dense": 3}})
    doc["features"].append({"id": "bog", "kind": "marsh", "polygon": square(700, 450, 50)})
    m = load(doc, MappingProxyType(ruleset))
    assert dict(m.properties("wood")) == {"area": True, "cover": True, "slows": False,
                                          "blocks_sight": "inside-only", "dense": 2}
    assert dict(m.properties("thicket")) == {"area": True, "cover": False, "slows": False,
                                             "blocks_sight": "inside-only", "dense": 3}
    assert dict(m.properties("bog")) == {"area": True, "slows": True}  # the ruleset's kind, its source stripped
    assert dict(m.kinds["woods"]) == dict(m.properties("wood"))
    assert ruleset["woods"]["slows"] is True, "the ruleset's table is not changed"
    assert m.assumed_values == (("kinds.woods.dense", 2, ""),)
    with pytest.raises(TypeError):
        m.properties("wood")["cover"] = False  # type: ignore[index]


def test_a_feature_override_carries_its_source_and_may_be_assumed() -> None:
    doc = sample()
    doc["features"][0]["properties"] = {"cover": {"value": False, "assumed": True, "note": "thin"}}
    m = load(doc)
    assert m.properties("wood")["cover"] is False
    assert ("features[0].properties.cover", False, "thin") in m.assumed_values
    assert ("kinds.wall.high", True, "a guess") in m.assumed_values
    assert m.properties("wood")["slows"] is True and m.properties("wall")["high"] is True


def test_an_override_may_not_turn_an_area_kind_into_a_line() -> None:
    with pytest.raises(TableMapError, match=r"features\[0\]\.polygon: kind 'woods' is a linear feature"):
        load(mutate(_set(("features", 0, "properties"), {"area": False})))


def test_nested_property_values_are_copied() -> None:
    doc = sample()
    doc["kinds"]["woods"]["holds"] = {"infantry": [1, 2]}
    m = load(doc)
    doc["kinds"]["woods"]["holds"]["infantry"].append(3)
    assert m.properties("wood")["holds"] == {"infantry": [1, 2]}


# --- sight across the sample tables -------------------------------------------------------------

def test_a_line_through_the_wood_enters_each_area_before_leaving_it(bst: TableMap) -> None:
    found = bst.sight((250, 850), (550, 850))
    assert [(c.key, c.enter, c.leave) for c in found] == [
        ("wood-a", Fraction(1, 6), Fraction(1, 2)), ("wood-b", Fraction(1, 2), Fraction(5, 6))]
    assert all(c.enter < c.leave for c in found)
    backwards = bst.sight((550, 850), (250, 850))
    assert [(c.key, c.enter, c.leave) for c in backwards] == [
        ("wood-b", Fraction(1, 6), Fraction(1, 2)), ("wood-a", Fraction(1, 2), Fraction(5, 6))]


def test_a_line_across_a_wall_meets_it_at_one_point(bst: TableMap) -> None:
    found = bst.sight((900, 700), (900, 800))
    assert [(c.key, c.enter, c.leave) for c in found] == [("village-wall", Fraction(3, 5), Fraction(3, 5))]


def test_a_line_along_a_wall_meets_it_from_where_it_starts_to_where_it_ends(bst: TableMap) -> None:
    found = bst.sight((700, 760), (1100, 760))
    assert found and {c.key for c in found} == {"village-wall"}
    assert all(c.enter <= c.leave for c in found)
    assert min(c.enter for c in found) == Fraction(3, 20) and max(c.leave for c in found) == Fraction(19, 20)


def test_a_line_over_the_hill_and_through_the_village(bst: TableMap) -> None:
    over = [c.key for c in bst.sight((1450, 100), (1450, 600))]
    assert over == ["long-hill"]
    assert [c.key for c in bst.sight((700, 500), (1100, 700))].count("house-4") == 1
    assert bst.sight((100, 100), (100, 200)) == [], "open ground crosses nothing"


def test_sight_with_smoke_laid_in_play(bst: TableMap) -> None:
    smoke = Base((1150, 330), 90, 30, 30).shape
    found = bst.sight((1150, 100), (1150, 450), extra=[("smoke-1", smoke)])
    assert [c.key for c in found] == ["fold", "smoke-1"]  # the low rise at y 285, then smoke from 315 to 345
    assert found[0].enter == found[0].leave == Fraction(185, 350)
    assert (found[1].enter, found[1].leave) == (Fraction(215, 350), Fraction(245, 350))
    assert [c.key for c in bst.sight((1150, 100), (1150, 450))] == ["fold"]
    twin = bst.feature("wood-a").shape
    tie = bst.sight((250, 850), (550, 850), extra=[("smoke-2", twin)])
    assert [c.key for c in tie] == ["wood-a", "smoke-2", "wood-b"], "a map feature comes first on a tie"
    with pytest.raises(TableMapError, match="'wood-a' has the id of a map feature"):
        bst.sight((0, 0), (1, 1), extra=[("wood-a", smoke)])


def test_with_features_adds_a_smoke_base_of_the_smoke_kind(bst: TableMap) -> None:
    smoke = bst.make_feature("smoke-1", "smoke", Base((1150, 330), 0, 30, 30).shape)
    assert smoke.properties["blocks_sight"] is True and smoke.properties["size"] == 30
    played = bst.with_features([smoke])
    assert [c.key for c in played.sight((1150, 100), (1150, 450))] == ["fold", "smoke-1"]
    assert [c.key for c in bst.sight((1150, 100), (1150, 450))] == ["fold"], "the map is unchanged"
    assert played.feature("smoke-1") == smoke and len(played.features) == len(bst.features) + 1
    with pytest.raises(TableMapError, match="already used"):
        played.with_features([smoke])
    with pytest.raises(TableMapError, match="already used"):
        bst.with_features([bst.make_feature("crossroads", "smoke", smoke.shape)])  # an objective's id
    with pytest.raises(TableMapError, match="unknown kind 'gas'"):
        bst.make_feature("gas-1", "gas", smoke.shape)
    with pytest.raises(TableMapError, match="is an area"):
        bst.make_feature("smoke-2", "smoke", polyline([[0, 0], [5, 5]]))


def test_the_index_is_built_once_and_keyed_by_feature_id(bst: TableMap) -> None:
    assert bst.index() is bst.index()
    assert [key for key, _ in bst.index().features] == [f.id for f in bst.features]


def test_looking_up_unknown_ids_names_the_known_ones() -> None:
    m = load(sample())
    with pytest.raises(TableMapError, match="no feature 'lake' \\(features: hill, wall, wood\\)"):
        m.feature("lake")
    with pytest.raises(TableMapError, match="no zone 'x'"):
        m.zone("x")
    with pytest.raises(TableMapError, match="no objective 'x'"):
        m.objective("x")
    assert m.zone("red-zone").side == "red" and m.objective("centre").at == (500, 300)


# --- on the table, in a zone, edges ---------------------------------------------------------------

def test_on_table_includes_the_edges_and_nothing_beyond() -> None:
    m = load(sample())
    assert m.on_table((0, 0)) and m.on_table((1000, 600)) and m.on_table((1000, 0))
    assert not m.on_table((1001, 0)) and not m.on_table((0, -1)) and not m.on_table((500, 601))
    assert m.on_table(Base((15, 15), 0, 30, 30).shape)
    assert not m.on_table(Base((14, 15), 0, 30, 30).shape)


def test_in_zone_by_side_and_by_zone_id() -> None:
    m = load(sample())
    assert m.in_zone("red", Base((500, 40), 0, 30, 30).shape)
    assert m.in_zone("red-zone", Base((500, 65), 0, 30, 30).shape)  # back edge on the zone's edge at y 80
    assert not m.in_zone("red", Base((500, 66), 0, 30, 30).shape)
    assert not m.in_zone("blue", Base((500, 40), 0, 30, 30).shape)
    assert m.in_zone("blue", (500, 550)) and not m.in_zone("blue", (500, 400))
    with pytest.raises(TableMapError, match="no zone or side 'green'"):
        m.in_zone("green", (0, 0))


def test_in_zone_is_exact_for_a_concave_zone() -> None:
    m = load(sample())
    across = polyline([[50, 400], [950, 400]])  # both ends in the arms, its middle under the notch
    assert all(plane.locate(p, m.zone("blue-zone").shape) == 1 for p in across.points)
    assert not m.in_zone("blue", across)
    assert m.in_zone("blue", polyline([[50, 400], [50, 550], [950, 550], [950, 400]]))
    assert not m.in_zone("blue", polygon([[50, 400], [950, 400], [950, 550], [50, 550]]))


def test_edges_and_home_edges() -> None:
    m = load(sample())
    assert m.home_edge("red") == polyline([[0, 0], [1000, 0]])
    assert m.home_edge("blue") == polyline([[0, 600], [1000, 600]])
    assert m.edge("east") == polyline([[1000, 0], [1000, 600]])
    with pytest.raises(TableMapError, match="no side 'green'"):
        m.home_edge("green")


def test_touching_lists_the_features_a_base_is_on() -> None:
    m = load(sample())
    assert m.touching(Base((300, 200), 0, 30, 30).shape) == ("wood",)  # straddles the wood's edge
    assert m.touching(Base((400, 200), 0, 30, 30).shape) == ("wall",)
    assert m.touching((700, 300)) == ()  # under the hill's notch
    assert m.touching((550, 300)) == ("hill",)


# --- reading files ------------------------------------------------------------------------------

TEXT = """\
unit: mm
width: 1000
depth: 600
kinds:
  woods: {area: true}
features:
  - id: wood
    kind: woods
    polygon: [[100, 100], [1300, 100], [300, 300]]
assumed: true
source: made up
"""


def test_a_file_error_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TEXT, encoding="utf-8")
    with pytest.raises(TableMapError) as caught:
        load_table_map(path)
    line = TEXT.splitlines()[8]
    column = line.index("[1300") + 1
    assert str(caught.value).startswith(f"{path}:9:{column}: table map: features[0].polygon[1]: point [1300, 100]")
    assert (caught.value.file, caught.value.line, caught.value.column) == (str(path), 9, column)
    problem = caught.value.problem()
    assert (problem.line, problem.column, problem.path) == (9, column, ("features", 0, "polygon", 1))


def test_a_file_error_in_a_missing_key_points_at_the_mapping(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TEXT.replace("    kind: woods\n", ""), encoding="utf-8")
    with pytest.raises(TableMapError, match=r":7:5: table map: features\[0\]: missing key 'kind'"):
        load_table_map(path)


def test_a_decimal_in_the_file_is_refused_by_the_loader_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TEXT.replace("[300, 300]", "[300, 300.5]"), encoding="utf-8")
    with pytest.raises(YamlError, match=":9:"):
        load_table_map(path)


def test_a_file_error_in_the_rulesets_kinds_has_no_position_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TEXT.replace("[1300, 100]", "[300, 100]").replace("[300, 300]]", "[100, 300]]"),
                    encoding="utf-8")
    assert load_table_map(path).feature("wood").shape.box == (100, 100, 300, 300)
    with pytest.raises(TableMapError) as caught:
        load_table_map(path, {"Heath": {}})
    assert caught.value.line is None and str(caught.value).startswith(f"{path}: table map: (ruleset kinds).Heath")


# --- exact arithmetic only ----------------------------------------------------------------------

def test_tablemap_uses_no_float_and_no_true_division() -> None:
    tree = ast.parse((ROOT / "pbem" / "geometry" / "tablemap.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        assert not (isinstance(node, ast.Name) and node.id in ("float", "round")), f"line {node.lineno}"
        assert not (isinstance(node, ast.Constant) and type(node.value) is float), f"line {node.lineno}"
        assert not isinstance(node, ast.Div), "true division"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            assert not any(n == "math" or n.startswith(("shapely", "numpy")) for n in names)
    assert tablemap.__all__ and all(hasattr(tablemap, name) for name in tablemap.__all__)


def test_a_table_too_big_to_check_quickly_is_refused_with_the_limit() -> None:
    """A hostile map must not make the referee's and every player's commands slow: a polygon
    or line has at most MAX_POINTS points, a table at most MAX_FEATURES features."""
    from pbem.geometry import tablemap
    comb = [[10 + 2 * i, 10 + (i % 2) * 5] for i in range(tablemap.MAX_POINTS)] + [[700, 500]]
    doc = {"unit": "mm", "width": 1000, "depth": 600, "assumed": True, "source": "test",
           "kinds": {"woods": {"area": True}},
           "features": [{"id": "comb", "kind": "woods", "polygon": comb}]}
    with pytest.raises(TableMapError, match=f"at most {tablemap.MAX_POINTS} points"):
        TableMap.from_dict(doc)
    doc["features"] = [{"id": f"w{i}", "kind": "woods", "polygon": [[1, 1], [2, 1], [2, 2]]}
                       for i in range(tablemap.MAX_FEATURES + 1)]
    with pytest.raises(TableMapError, match=f"at most {tablemap.MAX_FEATURES} features"):
        TableMap.from_dict(doc)
    import jsonschema
    assert not jsonschema.Draft202012Validator(tablemap.TABLE_MAP_SCHEMA).is_valid(doc)
