"""Table maps as data: the table's size and unit, terrain features as integer polygons and
polylines, deployment zones, objectives, the sides' home edges.

A table map document is the plain data the strict YAML loader returns (dicts, lists,
strings, ints, bools; never decimal numbers). `TableMap.from_dict` validates it completely
and raises `TableMapError` (a ValueError) naming the path in the document and what would be
legal; `load_table_map` reads a file and adds the file, line and column. `TABLE_MAP_SCHEMA`
is the same format as a JSON Schema (it cannot check geometry: simple polygons, points on the
table, crests inside hills, unique ids and known kinds are `from_dict`'s).

Coordinates are whole units of the table (`unit`: "mm" or "yd"), as in `pbem.geometry.plane`:
x grows to the east, y to the north, the origin is the south-west corner, and a point may lie
anywhere from (0, 0) to (width, depth) inclusive. The table's own directions name its edges:
"north" is the up edge (y = depth), "south" the down edge (y = 0), "west" x = 0, "east"
x = width, and a facing of 0 in orders is always the table's up. `north` is the compass
bearing (whole degrees) that the up edge faces in the world the table shows; it changes no
geometry, it is for pictures and scenario text.

Kinds and their properties are data. The ruleset passes its table of known kinds with their
default properties (`kinds=` to `from_dict`); the document's `kinds:` section overrides single
property values of a known kind or declares a new kind; a feature may override single
properties of its kind (`properties:`). `Feature.properties` holds the merged result, in that
order: ruleset, document kind, feature. This module reads one property itself: `area`, when a
kind declares it, says whether its features are polygons (`true`) or polylines (`false`).
Everything else (what blocks sight, gives cover, slows movement) is the ruleset's to read.

Any property value may carry where it came from, as the rulesets' tables do
(`pbem/rulesets/kit/tables.py`): `{value: 50, source: "bst Move Distances"}` or
`{value: 0, assumed: true, note: "..."}`. The properties hold the plain value;
`TableMap.assumed_values` lists every assumed one the document gives.

Example::

    unit: mm
    width: 1800
    depth: 1200
    north: 0                        # optional, default 0
    edges: {allies: south, axis: north}
    kinds:
      woods: {area: true, blocks_sight: inside-only, cover: inside}
      hill: {area: true, cover: behind-crest}
      wall:
        area: false
        crossing_penalty: {value: 50, source: "bst Move Distances"}
    features:
      - {id: wood-a, kind: woods, polygon: [[300, 800], [400, 800], [400, 950], [300, 950]]}
      - {id: wall-1, kind: wall, line: [[760, 760], [1080, 760]], label: "churchyard wall"}
      - id: long-hill
        kind: hill
        polygon: [[1250, 250], [1650, 300], [1450, 520]]
        crest: [[1350, 320], [1500, 340]]
        height: 20
        properties: {cover: false}
    zones:
      - {id: allied-deployment, side: allies, polygon: [[0, 0], [1800, 0], [1800, 150], [0, 150]]}
    objectives:
      - {id: crossroads, at: [900, 620], label: "the crossroads"}
    assumed: true
    source: "drawn for the project"

Smoke and other areas made during play are not in the map: `sight(a, b, extra=...)` takes
temporary shapes for one question, `with_features(...)` returns a map with more features.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from pbem.core import yamlio
from pbem.core.errors import DocPath, Problem, format_path
from pbem.geometry import plane
from pbem.geometry.fields import NAME_PATTERN as _NAME_PATTERN, NAME_RE as _NAME_RE, Fields
from pbem.geometry.plane import Crossing, FeatureIndex, Point, Shape

__all__ = [
    "EDGES",
    "UNITS",
    "RULESET_KINDS",
    "TABLE_MAP_SCHEMA",
    "TableMapError",
    "Feature",
    "Zone",
    "Objective",
    "TableMap",
    "load_table_map",
]

UNITS: tuple[str, ...] = ("mm", "yd")
EDGES: tuple[str, ...] = ("north", "south", "east", "west")
MAX_SIZE: int = 1_000_000
MAX_POINTS: int = 256  # per polygon or line: a hostile map must not make is_simple and sight slow
MAX_FEATURES: int = 500
MAX_MARKS: int = 64  # zones, and objectives
"""The largest table side in whole units (a kilometre of millimetres; 500+ miles of yards)."""

RULESET_KINDS = "(ruleset kinds)"
"""The first element of an error's path when the fault is in the ruleset's `kinds` table, not
in the document."""

_TOP_KEYS = ("unit", "width", "depth", "north", "edges", "kinds", "features", "zones", "objectives",
             "assumed", "source")
_REQUIRED_TOP = ("unit", "width", "depth", "assumed", "source")
_FEATURE_KEYS = ("id", "kind", "polygon", "line", "crest", "height", "properties", "label")
_ZONE_KEYS = ("id", "side", "polygon")
_OBJECTIVE_KEYS = ("id", "at", "label")
_PROVENANCE_KEYS = ("value", "source", "assumed", "note")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[str, Any]:
    return _EMPTY


# --- the JSON Schema -------------------------------------------------------------------------

TABLE_MAP_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "pbem table map",
    "description": "A miniatures table as data: size and unit, terrain features as polygons and "
                   "polylines with a kind and properties, deployment zones, objectives, home edges.",
    "type": "object",
    "additionalProperties": False,
    "required": list(_REQUIRED_TOP),
    "properties": {
        "unit": {"enum": list(UNITS)},
        "width": {"type": "integer", "minimum": 1, "maximum": MAX_SIZE},
        "depth": {"type": "integer", "minimum": 1, "maximum": MAX_SIZE},
        "north": {"type": "integer", "minimum": 0, "maximum": 359},
        "edges": {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/name"},
            "additionalProperties": {"enum": list(EDGES)},
        },
        "kinds": {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/name"},
            "additionalProperties": {"$ref": "#/$defs/properties"},
        },
        "features": {
            "type": "array",
            "maxItems": MAX_FEATURES,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "kind"],
                "oneOf": [{"required": ["polygon"]}, {"required": ["line"]}],
                "properties": {
                    "id": {"$ref": "#/$defs/name"},
                    "kind": {"$ref": "#/$defs/name"},
                    "polygon": {"$ref": "#/$defs/polygon"},
                    "line": {"$ref": "#/$defs/line"},
                    "crest": {"$ref": "#/$defs/line"},
                    "height": {"type": "integer"},
                    "properties": {"$ref": "#/$defs/properties"},
                    "label": {"type": "string"},
                },
            },
        },
        "zones": {
            "type": "array",
            "maxItems": MAX_MARKS,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": list(_ZONE_KEYS),
                "properties": {
                    "id": {"$ref": "#/$defs/name"},
                    "side": {"$ref": "#/$defs/name"},
                    "polygon": {"$ref": "#/$defs/polygon"},
                },
            },
        },
        "objectives": {
            "type": "array",
            "maxItems": MAX_MARKS,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "at"],
                "properties": {
                    "id": {"$ref": "#/$defs/name"},
                    "at": {"$ref": "#/$defs/point"},
                    "label": {"type": "string"},
                },
            },
        },
        "assumed": {"type": "boolean"},
        "source": {"type": "string", "minLength": 1},
    },
    "$defs": {
        "name": {"type": "string", "pattern": _NAME_PATTERN},
        "point": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": MAX_SIZE},
            "minItems": 2,
            "maxItems": 2,
        },
        "polygon": {"type": "array", "items": {"$ref": "#/$defs/point"}, "minItems": 3, "maxItems": MAX_POINTS},
        "line": {"type": "array", "items": {"$ref": "#/$defs/point"}, "minItems": 2, "maxItems": MAX_POINTS},
        "properties": {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/name"},
            "additionalProperties": {"anyOf": [{"$ref": "#/$defs/annotated"}, {"$ref": "#/$defs/value"}]},
        },
        "annotated": {
            "type": "object",
            "additionalProperties": False,
            "required": ["value"],
            "properties": {
                "value": {"$ref": "#/$defs/value"},
                "source": {"type": "string", "minLength": 1},
                "assumed": {"type": "boolean"},
                "note": {"type": "string"},
            },
            "anyOf": [{"required": ["source"]}, {"required": ["assumed"], "properties": {"assumed": {"const": True}}}],
        },
        "value": {
            "anyOf": [
                {"type": ["string", "integer", "boolean"]},
                {"type": "array", "items": {"$ref": "#/$defs/value"}},
                {
                    "type": "object",
                    "not": {"required": ["value"]},
                    "propertyNames": {"$ref": "#/$defs/name"},
                    "additionalProperties": {"$ref": "#/$defs/value"},
                },
            ],
        },
    },
}


# --- errors ----------------------------------------------------------------------------------

class TableMapError(ValueError):
    """A table map that is not valid: `path` locates the fault in the document (its first
    element is `RULESET_KINDS` when the fault is in the ruleset's kinds table); `file`, `line`
    and `column` are filled in by `load_table_map` where the loader knows them."""

    def __init__(self, message: str, path: DocPath = (), *, file: str | None = None,
                 line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.path = path
        self.file = file
        self.line = line
        self.column = column
        where = format_path(path)
        text = f"table map: {where}: {message}" if where else f"table map: {message}"
        located = file or ""
        if line is not None:
            located += f":{line}" if located else f"line {line}"
            if column is not None:
                located += f":{column}"
        super().__init__(f"{located}: {text}" if located else text)

    def problem(self) -> Problem:
        """The same fault as a `Problem`, for reports that collect them."""
        return Problem(f"table map: {self.message}", file=self.file, line=self.line, column=self.column,
                       path=self.path)


_FIELDS = Fields(TableMapError, 'wood-a')
_mapping, _list, _keys, _int, _bool, _text, _name = (_FIELDS.mapping, _FIELDS.list, _FIELDS.keys, _FIELDS.int,
                                                     _FIELDS.bool, _FIELDS.text, _FIELDS.name)


# --- the map ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Feature:
    """One terrain feature: a closed polygon for an area, a polyline for a linear feature.

    `crest` is a hill's ridge line (a polyline inside the polygon); `height` is in the table's
    unit; `properties` are the merged properties (kind defaults, then the feature's own)."""

    id: str
    kind: str
    shape: Shape
    crest: Shape | None = None
    height: int | None = None
    properties: Mapping[str, Any] = field(default_factory=_empty)
    label: str = ""

    @property
    def area(self) -> bool:
        """Whether the feature is an area (a closed polygon) rather than a line."""
        return self.shape.closed


@dataclass(frozen=True)
class Zone:
    """A deployment zone of one side: a simple polygon."""

    id: str
    side: str
    shape: Shape


@dataclass(frozen=True)
class Objective:
    """A point that matters to the scenario."""

    id: str
    at: Point
    label: str = ""


@dataclass(frozen=True)
class TableMap:
    """A validated table map. Build it with `TableMap.from_dict` or `load_table_map`.

    `kinds` holds every known kind's default properties (ruleset, then document, merged, plain
    values); `assumed_values` lists (path, value, note) of every property value the document
    marks as assumed, in document order."""

    width: int
    depth: int
    unit: str
    features: tuple[Feature, ...] = ()
    zones: tuple[Zone, ...] = ()
    objectives: tuple[Objective, ...] = ()
    edges: Mapping[str, str] = field(default_factory=_empty)
    assumed: bool = False
    source: str = ""
    north: int = 0
    kinds: Mapping[str, Mapping[str, Any]] = field(default_factory=_empty)
    assumed_values: tuple[tuple[str, Any, str], ...] = ()

    @classmethod
    def from_dict(cls, doc: object, kinds: Mapping[str, Mapping[str, Any]] | None = None) -> TableMap:
        """Validate a map document; `kinds` is the ruleset's table of known kinds and their
        default properties (plain or `{value, source|assumed}` values)."""
        return _Reader().read(doc, kinds)

    # -- looking things up

    @cached_property
    def _features_by_id(self) -> dict[str, Feature]:
        return {f.id: f for f in self.features}

    def feature(self, id: str) -> Feature:
        """The feature with this id."""
        found = self._features_by_id.get(id)
        if found is None:
            raise TableMapError(f"no feature {id!r} (features: {_listing(self._features_by_id)})")
        return found

    def properties(self, id: str) -> Mapping[str, Any]:
        """The merged properties of one feature."""
        return self.feature(id).properties

    def zone(self, id: str) -> Zone:
        """The zone with this id."""
        for z in self.zones:
            if z.id == id:
                return z
        raise TableMapError(f"no zone {id!r} (zones: {_listing(z.id for z in self.zones)})")

    def objective(self, id: str) -> Objective:
        """The objective with this id."""
        for o in self.objectives:
            if o.id == id:
                return o
        raise TableMapError(f"no objective {id!r} (objectives: {_listing(o.id for o in self.objectives)})")

    def of_kind(self, *kinds: str) -> tuple[Feature, ...]:
        """The features of the given kinds, in map order."""
        return tuple(f for f in self.features if f.kind in kinds)

    # -- geometry

    @cached_property
    def _index(self) -> FeatureIndex:
        return FeatureIndex([(f.id, f.shape) for f in self.features])

    def index(self) -> FeatureIndex:
        """The features for crossing queries, keyed by feature id (built once per map)."""
        return self._index

    def sight(self, a: Point, b: Point, extra: Iterable[tuple[str, Shape]] = ()) -> list[Crossing]:
        """What the closed segment ab crosses (`plane.FeatureIndex.crossings`), with `extra`
        temporary shapes (smoke bases, say) counted after the map's features where two
        crossings tie. An extra key must not be a feature id."""
        found = self._index.crossings(a, b)
        extras = list(extra)
        if not extras:
            return found
        for key, _ in extras:
            if key in self._features_by_id:
                raise TableMapError(f"the extra shape {key!r} has the id of a map feature: give it its own id")
        found += FeatureIndex(extras).crossings(a, b)
        found.sort(key=lambda c: (c.enter, c.leave))  # stable: map features first on a tie
        return found

    def on_table(self, where: Point | Shape) -> bool:
        """Whether a point (or every point of a shape) lies on the table, edges included."""
        points = where.points if isinstance(where, Shape) else (where,)
        return all(0 <= x <= self.width and 0 <= y <= self.depth for x, y in points)

    def touching(self, where: Point | Shape) -> tuple[str, ...]:
        """The ids of the features a point or shape shares any point with (areas: inside or on
        the boundary; lines: crossing or touching), in map order."""
        shape = where if isinstance(where, Shape) else Shape((where,))
        return tuple(f.id for f in self.features if plane.overlap(shape, f.shape))

    def in_zone(self, side_or_zone: str, where: Point | Shape) -> bool:
        """Whether a point or shape lies wholly within a zone (by zone id), or wholly within one
        of a side's zones (by side name). Boundaries count as inside."""
        zones = [z for z in self.zones if z.id == side_or_zone]
        if not zones:
            zones = [z for z in self.zones if z.side == side_or_zone]
        if not zones:
            raise TableMapError(f"no zone or side {side_or_zone!r} (zones: {_listing(z.id for z in self.zones)}; "
                                f"sides: {_listing(self.edges)})")
        shape = where if isinstance(where, Shape) else Shape((where,))
        return any(_holds(z.shape, shape) for z in zones)

    def edge(self, name: str) -> Shape:
        """A table edge (north, south, east, west) as a two-point polyline."""
        w, d = self.width, self.depth
        ends: dict[str, tuple[Point, Point]] = {
            "north": ((0, d), (w, d)), "south": ((0, 0), (w, 0)), "west": ((0, 0), (0, d)), "east": ((w, 0), (w, d)),
        }
        if name not in ends:
            raise TableMapError(f"no edge {name!r} (edges: {', '.join(EDGES)})")
        return Shape(ends[name])

    def home_edge(self, side: str) -> Shape:
        """The home edge of a side, as a polyline."""
        if side not in self.edges:
            raise TableMapError(f"no side {side!r} (sides: {_listing(self.edges)})")
        return self.edge(self.edges[side])

    # -- features added during play

    def make_feature(self, id: str, kind: str, shape: Shape,
                     properties: Mapping[str, Any] | None = None, label: str = "") -> Feature:
        """A feature of a known kind with the kind's default properties (then `properties`),
        for `with_features` (a smoke base laid during play, say)."""
        if kind not in self.kinds:
            raise TableMapError(f"unknown kind {kind!r} (kinds: {_listing(self.kinds)})")
        _check_shape_kind(self.kinds[kind], kind, shape, ())
        merged = dict(self.kinds[kind])
        for key, value in (properties or {}).items():
            merged[key] = copy.deepcopy(value)
        return Feature(id, kind, shape, None, None, MappingProxyType(merged), label)

    def with_features(self, features: Iterable[Feature]) -> TableMap:
        """A copy of the map with more features after its own (ids unique across the map)."""
        added = tuple(features)
        taken = {f.id for f in self.features} | {z.id for z in self.zones} | {o.id for o in self.objectives}
        for f in added:
            if not _NAME_RE.fullmatch(f.id):
                raise TableMapError(f"expected a lower-case id like 'smoke-1', got {f.id!r}")
            if f.id in taken:
                raise TableMapError(f"id {f.id!r} is already used on the map: give each feature its own id")
            taken.add(f.id)
        return TableMap(self.width, self.depth, self.unit, self.features + added, self.zones, self.objectives,
                        self.edges, self.assumed, self.source, self.north, self.kinds, self.assumed_values)


def load_table_map(path: Path | str, kinds: Mapping[str, Mapping[str, Any]] | None = None) -> TableMap:
    """Read a table map file with the strict loader (`pbem.core.yamlio`) and validate it.

    Raises `pbem.core.errors.YamlError` for YAML the loader refuses, `TableMapError` (with the
    file, and the line and column of the faulty value) for a document that is not a table map.
    """
    document = yamlio.load_file(path)
    try:
        return TableMap.from_dict(document.data, kinds)
    except TableMapError as error:
        mark = None if error.path[:1] == (RULESET_KINDS,) else document.mark(error.path)
        raise TableMapError(error.message, error.path, file=document.file,
                            line=mark.line if mark else None, column=mark.column if mark else None) from None


# --- reading a document ----------------------------------------------------------------------

class _Reader:
    """One validation pass over a table map document."""

    width: int
    depth: int
    unit: str

    def read(self, data: object, ruleset_kinds: Mapping[str, Mapping[str, Any]] | None) -> TableMap:
        doc = _mapping(data, ())
        _keys(doc, _TOP_KEYS, _REQUIRED_TOP, ())
        if doc["unit"] not in UNITS:
            raise TableMapError(f"unit must be one of {', '.join(UNITS)}, got {doc['unit']!r}", ("unit",))
        self.unit = doc["unit"]
        self.width = _int(doc["width"], 1, MAX_SIZE, ("width",))
        self.depth = _int(doc["depth"], 1, MAX_SIZE, ("depth",))
        north = _int(doc.get("north", 0), 0, 359, ("north",))
        self.assumed_values: list[tuple[str, Any, str]] = []
        self.ids: dict[str, DocPath] = {}
        edges = self._edges(doc.get("edges", {}))
        kinds = self._kinds(ruleset_kinds, doc.get("kinds", {}))
        features = self._features(doc.get("features", []), kinds)
        zones = self._zones(doc.get("zones", []), edges)
        objectives = self._objectives(doc.get("objectives", []))
        return TableMap(
            width=self.width,
            depth=self.depth,
            unit=self.unit,
            features=features,
            zones=zones,
            objectives=objectives,
            edges=MappingProxyType(edges),
            assumed=_bool(doc["assumed"], ("assumed",)),
            source=_text(doc["source"], ("source",)),
            north=north,
            kinds=MappingProxyType({k: MappingProxyType(v) for k, v in kinds.items()}),
            assumed_values=tuple(self.assumed_values),
        )

    # -- names and ids

    def _id(self, value: object, path: DocPath) -> str:
        name = _name(value, path)
        if name in self.ids:
            raise TableMapError(f"id {name!r} is already used at {format_path(self.ids[name])}: "
                                "ids are unique across features, zones and objectives", path)
        self.ids[name] = path
        return name

    def _edges(self, value: object) -> dict[str, str]:
        out: dict[str, str] = {}
        for side, edge in _mapping(value, ("edges",)).items():
            path: DocPath = ("edges", str(side))
            _name(side, path)
            if edge not in EDGES:
                raise TableMapError(f"a side's home edge is one of {', '.join(EDGES)}, got {edge!r}", path)
            out[side] = edge
        return out

    # -- kinds and properties

    def _kinds(self, ruleset: Mapping[str, Mapping[str, Any]] | None, value: object) -> dict[str, dict[str, Any]]:
        kinds: dict[str, dict[str, Any]] = {}
        for kind, props in (ruleset or {}).items():
            path: DocPath = (RULESET_KINDS, str(kind))
            _name(kind, path)
            kinds[kind] = self._properties(props, path, note_assumed=False)
            _check_area(kinds[kind], path)
        for kind, props in _mapping(value, ("kinds",)).items():
            path = ("kinds", str(kind))
            _name(kind, path)
            own = self._properties(props, path, note_assumed=True)
            _check_area(own, path)
            kinds[kind] = {**kinds.get(kind, {}), **own}
        return kinds

    def _properties(self, value: object, path: DocPath, *, note_assumed: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if not isinstance(value, Mapping):
            raise TableMapError(f"expected a mapping of property names to values, got {type(value).__name__}", path)
        for key, entry in value.items():
            where = path + (str(key),)
            _name(key, where)
            out[key] = self._property(entry, where, note_assumed)
        return out

    def _property(self, entry: object, path: DocPath, note_assumed: bool) -> Any:
        if isinstance(entry, Mapping) and "value" in entry:
            for key in entry:
                if key not in _PROVENANCE_KEYS:
                    raise TableMapError(f"unknown key {key!r} in a value with its source "
                                        f"(allowed: {', '.join(_PROVENANCE_KEYS)})", path)
            if "source" in entry:
                _text(entry["source"], path + ("source",))
            if "assumed" in entry:
                _bool(entry["assumed"], path + ("assumed",))
            if "source" not in entry and entry.get("assumed") is not True:
                raise TableMapError("a value with `value:` says where it came from: add source: \"<rule section>\" "
                                    "or assumed: true", path)
            note = entry.get("note", "")
            if not isinstance(note, str):
                raise TableMapError(f"a note is text, got {note!r}", path + ("note",))
            plain = _plain(entry["value"], path + ("value",))
            if note_assumed and entry.get("assumed") is True:
                self.assumed_values.append((format_path(path), plain, note))
            return plain
        return _plain(entry, path)

    # -- shapes

    def _point(self, value: object, path: DocPath) -> Point:
        pair = _list(value, path)
        if len(pair) != 2 or any(type(v) is not int for v in pair):
            raise TableMapError(f"a point is [x, y] in whole {self.unit}, got {value!r}", path)
        x, y = pair
        if not (0 <= x <= self.width and 0 <= y <= self.depth):
            raise TableMapError(f"point [{x}, {y}] is off the table: x must be 0..{self.width} and y 0..{self.depth} "
                                f"({self.width} x {self.depth} {self.unit})", path)
        return x, y

    def _points(self, value: object, path: DocPath, least: int, what: str) -> tuple[Point, ...]:
        items = _list(value, path)
        if len(items) < least:
            raise TableMapError(f"{what} needs at least {least} points [[x, y], ...], got {len(items)}", path)
        if len(items) > MAX_POINTS:
            raise TableMapError(f"{what} may have at most {MAX_POINTS} points, got {len(items)}: split it into "
                                "several features", path)
        return tuple(self._point(item, path + (i,)) for i, item in enumerate(items))

    def _polygon(self, value: object, path: DocPath) -> Shape:
        points = self._points(value, path, 3, "a polygon")
        shape = Shape(points, closed=True)
        if not plane.is_simple(shape):
            raise TableMapError(_why_not_simple(shape) + ": a polygon's points go once round its boundary, "
                                "without repeating a point or crossing an edge", path)
        return shape

    def _line(self, value: object, path: DocPath) -> Shape:
        points = self._points(value, path, 2, "a line")
        for i in range(1, len(points)):
            if points[i] == points[i - 1]:
                raise TableMapError(f"point [{i}] repeats the point before it: a line's consecutive points differ",
                                    path + (i,))
        return Shape(points)

    # -- features, zones, objectives

    def _features(self, value: object, kinds: dict[str, dict[str, Any]]) -> tuple[Feature, ...]:
        out: list[Feature] = []
        entries = _list(value, ("features",))
        if len(entries) > MAX_FEATURES:
            raise TableMapError(f"a table may have at most {MAX_FEATURES} features, got {len(entries)}", ("features",))
        for i, entry in enumerate(entries):
            path: DocPath = ("features", i)
            body = _mapping(entry, path)
            _keys(body, _FEATURE_KEYS, ("id", "kind"), path)
            fid = self._id(body["id"], path + ("id",))
            kind = _name(body["kind"], path + ("kind",))
            if kind not in kinds:
                raise TableMapError(f"unknown kind {kind!r} (kinds: {_listing(kinds)}; declare a new one under "
                                    "kinds:)", path + ("kind",))
            if ("polygon" in body) == ("line" in body):
                raise TableMapError("a feature has exactly one shape: polygon: [[x, y], ...] for an area, or "
                                    "line: [[x, y], ...] for a linear feature", path)
            if "polygon" in body:
                shape = self._polygon(body["polygon"], path + ("polygon",))
            else:
                shape = self._line(body["line"], path + ("line",))
            crest = None
            if "crest" in body:
                if not shape.closed:
                    raise TableMapError("only an area (a polygon) has a crest line", path + ("crest",))
                crest = self._line(body["crest"], path + ("crest",))
                if not _holds(shape, crest):
                    raise TableMapError(f"the crest leaves the feature's polygon: every point of the crest line "
                                        f"lies inside {fid!r} or on its boundary", path + ("crest",))
            height = None
            if "height" in body:
                if type(body["height"]) is not int:
                    raise TableMapError(f"a height is a whole number of {self.unit}, got {body['height']!r}",
                                        path + ("height",))
                height = body["height"]
            merged = dict(kinds[kind])
            if "properties" in body:
                for key, override in self._properties(body["properties"], path + ("properties",),
                                                      note_assumed=True).items():
                    if key not in merged:
                        raise TableMapError(f"kind {kind!r} has no property {key!r} to override (its properties: "
                                            f"{_listing(merged)}; declare new ones under kinds:)",
                                            path + ("properties", key))
                    merged[key] = override
                _check_area(merged, path + ("properties",))
            _check_shape_kind(merged, kind, shape, path + ("polygon" if shape.closed else "line",))
            label = body.get("label", "")
            if not isinstance(label, str):
                raise TableMapError(f"a label is text, got {label!r}", path + ("label",))
            out.append(Feature(fid, kind, shape, crest, height, MappingProxyType(merged), label))
        return tuple(out)

    def _zones(self, value: object, edges: dict[str, str]) -> tuple[Zone, ...]:
        out: list[Zone] = []
        entries = _list(value, ("zones",))
        if len(entries) > MAX_MARKS:
            raise TableMapError(f"a table may have at most {MAX_MARKS} zones, got {len(entries)}", ("zones",))
        for i, entry in enumerate(entries):
            path: DocPath = ("zones", i)
            body = _mapping(entry, path)
            _keys(body, _ZONE_KEYS, _ZONE_KEYS, path)
            zid = self._id(body["id"], path + ("id",))
            side = _name(body["side"], path + ("side",))
            if side not in edges:
                raise TableMapError(f"side {side!r} has no home edge: name it under edges: (sides: "
                                    f"{_listing(edges)})", path + ("side",))
            out.append(Zone(zid, side, self._polygon(body["polygon"], path + ("polygon",))))
        return tuple(out)

    def _objectives(self, value: object) -> tuple[Objective, ...]:
        out: list[Objective] = []
        entries = _list(value, ("objectives",))
        if len(entries) > MAX_MARKS:
            raise TableMapError(f"a table may have at most {MAX_MARKS} objectives, got {len(entries)}", ("objectives",))
        for i, entry in enumerate(entries):
            path: DocPath = ("objectives", i)
            body = _mapping(entry, path)
            _keys(body, _OBJECTIVE_KEYS, ("id", "at"), path)
            oid = self._id(body["id"], path + ("id",))
            at = self._point(body["at"], path + ("at",))
            label = body.get("label", "")
            if not isinstance(label, str):
                raise TableMapError(f"a label is text, got {label!r}", path + ("label",))
            out.append(Objective(oid, at, label))
        return tuple(out)


# --- helpers ---------------------------------------------------------------------------------

def _check_area(props: Mapping[str, Any], path: DocPath) -> None:
    if "area" in props and type(props["area"]) is not bool:
        raise TableMapError(f"the property 'area' says whether the kind's features are polygons (true) or lines "
                            f"(false), got {props['area']!r}", path + ("area",))


def _holds(area: Shape, shape: Shape) -> bool:
    """Whether every point of `shape` lies in the closed polygon `area` (exact: each corner is
    in it and each edge runs inside it from end to end; a polygon without holes then holds the
    inside of a closed shape too)."""
    if any(plane.locate(p, area) < 0 for p in shape.points):
        return False
    for a, b in shape.edges:
        if a == b:
            continue
        stretches = plane.inside_intervals(a, b, area)
        if len(stretches) != 1 or stretches[0][0] != 0 or stretches[0][1] != 1:
            return False
    return True


def _check_shape_kind(props: Mapping[str, Any], kind: str, shape: Shape, path: DocPath) -> None:
    area = props.get("area")
    if area is True and not shape.closed:
        raise TableMapError(f"kind {kind!r} is an area: give polygon: [[x, y], ...] (three or more points)", path)
    if area is False and shape.closed:
        raise TableMapError(f"kind {kind!r} is a linear feature: give line: [[x, y], ...] (two or more points)", path)


def _why_not_simple(shape: Shape) -> str:
    pts = shape.points
    for i, p in enumerate(pts):
        if p in pts[:i]:
            return f"point [{i}] repeats point [{pts.index(p)}]"
    if all(plane.cross(pts[0], pts[1], p) == 0 for p in pts[2:]):
        return "the points lie on one line (no area)"
    n = len(pts)
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if plane.segments_meet(pts[i], pts[(i + 1) % n], pts[j], pts[(j + 1) % n]):
                return f"edge [{i}]-[{(i + 1) % n}] meets edge [{j}]-[{(j + 1) % n}]"
    return "an edge folds back over its neighbour"


def _plain(value: object, path: DocPath) -> Any:
    """A deep copy of a plain property value: text, whole number, true/false, or lists and
    mappings (lower-case names as keys) of those."""
    if type(value) in (str, bool, int):
        return value
    if isinstance(value, list):
        return [_plain(item, path + (i,)) for i, item in enumerate(value)]
    if isinstance(value, Mapping):
        if "value" in value:
            raise TableMapError("only a property's own value may say where it came from "
                                "({value: ..., source: ...}); a mapping inside a value has no 'value' key", path)
        out: dict[str, Any] = {}
        for key, item in value.items():
            _name(key, path + (str(key),))
            out[key] = _plain(item, path + (key,))
        return out
    raise TableMapError(f"a property value is text, a whole number, true or false, or a list or mapping of those; "
                        f"got {value!r}", path)


def _listing(names: Iterable[str]) -> str:
    found = sorted(names)
    return ", ".join(found) if found else "none"













