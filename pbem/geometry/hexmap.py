"""Hex maps as data: bounds, terrain, hex and hexside features, named sets of hexes.

A map document is the plain data a strict YAML loader returns (dicts, lists,
strings, ints, bools; never floats). `HexMap.from_dict` validates it completely
and raises `MapError` (a ValueError) naming the offending hex id or hexside and
the path in the document. `MAP_SCHEMA` is the same format as a JSON Schema.

Example::

    bounds: {columns: [10, 42], rows: [0, 42]}
    stagger: odd-low          # optional, default odd-low
    north: 3                  # optional, direction index of map north, default 0
    default_terrain: clear
    omit: ["1000"]            # optional: hexes inside the bounds that are not on the map
    hexes:
      "2717": {terrain: town, features: [church]}
    hexsides:
      - {between: ["3311", "3411"], features: [road, bridge]}
    sets:
      riverbank: ["4232", "4131"]
    assumed: true
    source: "drawn for testing; the printed map is not in the rule text"

Hex ids must be quoted strings: an unquoted 0507 would reach us as a number.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from pbem.core.records import FrozenRecord, set_field
from pbem.geometry.fields import NAME_PATTERN as _NAME_PATTERN, Fields
from pbem.geometry.hexgrid import STAGGERS, Hex, HexGrid, HexLike, Hexside, Stagger, as_hex, toward

DocPath = tuple[str | int, ...]

_ID_PATTERN = "^[0-9]{4}$"

_TOP_KEYS = ("bounds", "stagger", "north", "default_terrain", "omit", "hexes", "hexsides", "sets", "assumed", "source")
_REQUIRED_TOP = ("bounds", "default_terrain", "assumed", "source")

_NAME_SCHEMA: dict[str, Any] = {"type": "string", "pattern": _NAME_PATTERN}
_NAMES_SCHEMA: dict[str, Any] = {"type": "array", "items": {"$ref": "#/$defs/name"}, "uniqueItems": True}

MAP_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "pbem hex map",
    "description": "A printed hex map as data: bounds, terrain, hex and hexside features, named sets.",
    "type": "object",
    "additionalProperties": False,
    "required": list(_REQUIRED_TOP),
    "properties": {
        "bounds": {
            "type": "object",
            "additionalProperties": False,
            "required": ["columns", "rows"],
            "properties": {"columns": {"$ref": "#/$defs/span"}, "rows": {"$ref": "#/$defs/span"}},
        },
        "stagger": {"enum": list(STAGGERS)},
        "north": {"type": "integer", "minimum": 0, "maximum": 5},
        "default_terrain": {"$ref": "#/$defs/name"},
        "omit": {"$ref": "#/$defs/hex_list"},
        "hexes": {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/hex_id"},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"terrain": {"$ref": "#/$defs/name"}, "features": {"$ref": "#/$defs/names"}},
            },
        },
        "hexsides": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["between", "features"],
                "properties": {
                    "between": {
                        "type": "array",
                        "items": {"$ref": "#/$defs/hex_id"},
                        "minItems": 2,
                        "maxItems": 2,
                        "uniqueItems": True,
                    },
                    "features": {"$ref": "#/$defs/names", "minItems": 1},
                },
            },
        },
        "sets": {
            "type": "object",
            "propertyNames": {"$ref": "#/$defs/name"},
            "additionalProperties": {"$ref": "#/$defs/hex_list"},
        },
        "assumed": {"type": "boolean"},
        "source": {"type": "string", "minLength": 1},
    },
    "$defs": {
        "hex_id": {"type": "string", "pattern": _ID_PATTERN},
        "hex_list": {"type": "array", "items": {"$ref": "#/$defs/hex_id"}, "uniqueItems": True},
        "name": _NAME_SCHEMA,
        "names": _NAMES_SCHEMA,
        "span": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 99},
            "minItems": 2,
            "maxItems": 2,
        },
    },
}


class MapError(ValueError):
    """A map document that is not valid; `path` locates the fault in the document."""

    def __init__(self, message: str, path: DocPath = ()) -> None:
        where = _format_path(path)
        super().__init__(f"map: {where}: {message}" if where else f"map: {message}")
        self.path = path


_FIELDS = Fields(MapError, 'wooded_hills')
_mapping, _list, _keys, _int, _bool, _text, _name = (_FIELDS.mapping, _FIELDS.list, _FIELDS.keys, _FIELDS.int,
                                                     _FIELDS.bool, _FIELDS.text, _FIELDS.name)


def _format_path(path: DocPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


_HEXMAP_FIELDS = ("columns", "rows", "stagger", "north", "default_terrain", "omitted", "hex_terrain", "hex_features",
                  "side_features", "sets", "assumed", "source")


class HexMap(FrozenRecord):
    """A validated map. Build it with `HexMap.from_dict`."""

    __slots__ = _HEXMAP_FIELDS
    columns: tuple[int, int]
    rows: tuple[int, int]
    stagger: Stagger
    north: int
    default_terrain: str
    omitted: frozenset[Hex]
    hex_terrain: Mapping[Hex, str]
    hex_features: Mapping[Hex, tuple[str, ...]]
    side_features: Mapping[Hexside, tuple[str, ...]]
    sets: Mapping[str, tuple[Hex, ...]]
    assumed: bool
    source: str

    def __init__(self, columns: tuple[int, int], rows: tuple[int, int], stagger: Stagger, north: int,
                 default_terrain: str, omitted: frozenset[Hex], hex_terrain: Mapping[Hex, str],
                 hex_features: Mapping[Hex, tuple[str, ...]], side_features: Mapping[Hexside, tuple[str, ...]],
                 sets: Mapping[str, tuple[Hex, ...]], assumed: bool, source: str) -> None:
        for name, value in zip(self.__slots__, (columns, rows, stagger, north, default_terrain, omitted, hex_terrain,
                                                 hex_features, side_features, sets, assumed, source)):
            set_field(self, name, value)

    @classmethod
    def from_dict(cls, data: object) -> HexMap:
        return _Reader().read(data)

    def replaced(self, **changes: Any) -> HexMap:
        """A copy with the named fields changed, as `dataclasses.replace` makes it (callers use this
        so that HexMap can stop being a dataclass without touching them again)."""
        values: dict[str, Any] = {name: getattr(self, name) for name in _HEXMAP_FIELDS}
        values.update(changes)
        return HexMap(**values)

    @property
    def grid(self) -> HexGrid:
        return HexGrid(self.stagger)

    def on_map(self, hex: HexLike) -> bool:
        h = as_hex(hex)
        inside = self.columns[0] <= h.col <= self.columns[1] and self.rows[0] <= h.row <= self.rows[1]
        return inside and h not in self.omitted

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex on the map, in id order."""
        return tuple(
            h
            for c in range(self.columns[0], self.columns[1] + 1)
            for r in range(self.rows[0], self.rows[1] + 1)
            if (h := Hex(c, r)) not in self.omitted
        )

    def neighbours(self, hex: HexLike) -> tuple[Hex, ...]:
        """The neighbours that are on the map, in direction order."""
        return tuple(n for n in self.grid.neighbours(hex) if self.on_map(n))

    def terrain(self, hex: HexLike) -> str:
        return self.hex_terrain.get(self._on_map(hex), self.default_terrain)

    def features(self, hex: HexLike) -> tuple[str, ...]:
        return self.hex_features.get(self._on_map(hex), ())

    def hexside_features(self, a: HexLike, b: HexLike) -> tuple[str, ...]:
        """Features of the hexside between two adjacent hexes (none where either is off the map)."""
        return self.side_features.get(self.grid.hexside(a, b), ())

    def set(self, name: str) -> tuple[Hex, ...]:
        if name not in self.sets:
            known = ", ".join(sorted(self.sets)) or "none"
            raise MapError(f"no set named {name!r} (sets: {known})")
        return self.sets[name]

    def direction(self, compass: str) -> int:
        """The direction index of a compass point (N, NE, SE, S, SW, NW) on this map."""
        return toward(compass, self.north)

    def to_dict(self) -> dict[str, Any]:
        """The plain document this map reads from (canonical order)."""
        hexes: dict[str, Any] = {}
        for h in sorted(set(self.hex_terrain) | set(self.hex_features)):
            entry: dict[str, Any] = {}
            if h in self.hex_terrain:
                entry["terrain"] = self.hex_terrain[h]
            if h in self.hex_features:
                entry["features"] = list(self.hex_features[h])
            hexes[h.id] = entry
        return {
            "bounds": {"columns": list(self.columns), "rows": list(self.rows)},
            "stagger": self.stagger,
            "north": self.north,
            "default_terrain": self.default_terrain,
            "omit": [h.id for h in sorted(self.omitted)],
            "hexes": hexes,
            "hexsides": [
                {"between": [s.first.id, s.second.id], "features": list(f)}
                for s, f in sorted(self.side_features.items())
            ],
            "sets": {name: [h.id for h in hs] for name, hs in self.sets.items()},
            "assumed": self.assumed,
            "source": self.source,
        }

    def _on_map(self, hex: HexLike) -> Hex:
        h = as_hex(hex)
        if not self.on_map(h):
            raise MapError(f"hex {h} is off the map")
        return h


class _Reader:
    """One validation pass over a map document."""

    def read(self, data: object) -> HexMap:
        doc = _mapping(data, ())
        _keys(doc, _TOP_KEYS, _REQUIRED_TOP, ())
        bounds = _mapping(doc["bounds"], ("bounds",))
        _keys(bounds, ("columns", "rows"), ("columns", "rows"), ("bounds",))
        self.columns = _span(bounds["columns"], ("bounds", "columns"))
        self.rows = _span(bounds["rows"], ("bounds", "rows"))
        stagger = doc.get("stagger", "odd-low")
        if stagger not in STAGGERS:
            raise MapError(f"stagger must be one of {', '.join(STAGGERS)}, got {stagger!r}", ("stagger",))
        self.grid = HexGrid(stagger)
        self.omitted: frozenset[Hex] = frozenset()
        self.omitted = frozenset(self._hex_list(doc.get("omit", []), ("omit",), in_bounds_only=True))
        terrain, features = self._hexes(doc.get("hexes", {}))
        return HexMap(
            columns=self.columns,
            rows=self.rows,
            stagger=stagger,
            north=_int(doc.get("north", 0), 0, 5, ("north",)),
            default_terrain=_name(doc["default_terrain"], ("default_terrain",)),
            omitted=self.omitted,
            hex_terrain=MappingProxyType(terrain),
            hex_features=MappingProxyType(features),
            side_features=MappingProxyType(self._hexsides(doc.get("hexsides", []))),
            sets=MappingProxyType(self._sets(doc.get("sets", {}))),
            assumed=_bool(doc["assumed"], ("assumed",)),
            source=_text(doc["source"], ("source",)),
        )

    def _hex(self, value: object, path: DocPath, in_bounds_only: bool = False) -> Hex:
        if not isinstance(value, str):
            raise MapError(f"hex id must be a quoted four-digit string, got {value!r}", path)
        try:
            h = Hex.parse(value)
        except ValueError as exc:
            raise MapError(str(exc), path) from None
        inside = self.columns[0] <= h.col <= self.columns[1] and self.rows[0] <= h.row <= self.rows[1]
        if not inside or (not in_bounds_only and h in self.omitted):
            span = f"columns {self.columns[0]:02d}-{self.columns[1]:02d}, rows {self.rows[0]:02d}-{self.rows[1]:02d}"
            why = "omitted" if inside else span
            raise MapError(f"hex {value} is off the map ({why})", path)
        return h

    def _hex_list(self, value: object, path: DocPath, in_bounds_only: bool = False) -> list[Hex]:
        out: list[Hex] = []
        for i, item in enumerate(_list(value, path)):
            h = self._hex(item, path + (i,), in_bounds_only)
            if h in out:
                raise MapError(f"hex {h} listed twice (at [{out.index(h)}] and [{i}])", path + (i,))
            out.append(h)
        return out

    def _hexes(self, value: object) -> tuple[dict[Hex, str], dict[Hex, tuple[str, ...]]]:
        terrain: dict[Hex, str] = {}
        features: dict[Hex, tuple[str, ...]] = {}
        for key, entry in _mapping(value, ("hexes",)).items():
            path: DocPath = ("hexes", str(key))
            h = self._hex(key, path)
            if h in terrain or h in features:
                raise MapError(f"hex {h} described twice", path)
            body = _mapping(entry, path)
            _keys(body, ("terrain", "features"), (), path)
            if "terrain" in body:
                terrain[h] = _name(body["terrain"], path + ("terrain",))
            if "features" in body:
                features[h] = _names(body["features"], path + ("features",))
        return terrain, features

    def _hexsides(self, value: object) -> dict[Hexside, tuple[str, ...]]:
        out: dict[Hexside, tuple[str, ...]] = {}
        where: dict[Hexside, int] = {}
        for i, entry in enumerate(_list(value, ("hexsides",))):
            path: DocPath = ("hexsides", i)
            body = _mapping(entry, path)
            _keys(body, ("between", "features"), ("between", "features"), path)
            pair = _list(body["between"], path + ("between",))
            if len(pair) != 2:
                raise MapError(f"a hexside is between exactly two hexes, got {len(pair)}", path + ("between",))
            a, b = (self._hex(item, path + ("between", k)) for k, item in enumerate(pair))
            if not self.grid.adjacent(a, b):
                raise MapError(f"hexside {a}-{b}: the hexes are not adjacent", path + ("between",))
            side = Hexside.of(a, b)
            if side in out:
                raise MapError(f"hexside {side} listed twice (hexsides[{where[side]}] and [{i}])", path)
            names = _names(body["features"], path + ("features",))
            if not names:
                raise MapError(f"hexside {side} has no features", path + ("features",))
            out[side], where[side] = names, i
        return out

    def _sets(self, value: object) -> dict[str, tuple[Hex, ...]]:
        out: dict[str, tuple[Hex, ...]] = {}
        for name, members in _mapping(value, ("sets",)).items():
            path: DocPath = ("sets", str(name))
            out[_name(name, path)] = tuple(self._hex_list(members, path))
        return out
















def _names(value: object, path: DocPath) -> tuple[str, ...]:
    names = [_name(item, path + (i,)) for i, item in enumerate(_list(value, path))]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise MapError(f"{name!r} listed twice", path + (i,))
    return tuple(names)


def _span(value: object, path: DocPath) -> tuple[int, int]:
    pair = _list(value, path)
    if len(pair) != 2:
        raise MapError(f"expected [first, last], got {value!r}", path)
    first, last = (_int(v, 0, 99, path + (i,)) for i, v in enumerate(pair))
    if first > last:
        raise MapError(f"first {first} is after last {last}", path)
    return first, last
