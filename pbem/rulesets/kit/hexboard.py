"""A hex map for a game: loaded from a packaged name or a whole document, and indexed by hex id.

Rules look hexes up by their printed ids thousands of times a phase, so `HexIndex` turns the
map into plain dicts once, when a ruleset prepares its context. Lines and lines of sight are
memoised in the index too (per context, never across games). `TerrainGroups` names sets of
terrain types as a game's tables do ("built up": residential and industrial).
"""

from __future__ import annotations

import marshal
import sys
from functools import lru_cache
from typing import Any, Callable, Container, Iterable, Mapping

from pbem.core.errors import PbemError, Problem
from pbem.core.yamlio import packaged_file, read_packaged
from pbem.geometry.hexgrid import CUBE_DIRECTIONS, STAGGERS, Hex, HexGrid, Line, SplitRule, Stagger
from pbem.geometry.hexmap import HexMap, MapError

from .tables import keep_bytes, kept_bytes, packaged_doc, packaged_yaml


def load_map(spec: Any, package: str, packaged: Mapping[str, str], required_sets: tuple[str, ...] = ()) -> HexMap:
    """The map a setup names (a key of `packaged`, a file in `package`) or gives whole (a map document)."""
    if isinstance(spec, str):
        if spec not in packaged:
            raise PbemError(Problem(f"unknown map {spec!r}", section="scenario", legal=", ".join(sorted(packaged))))
        return _map_of(packaged_yaml(package, packaged[spec]), required_sets)
    return _map_of(spec, required_sets)


def _map_of(doc: Any, required_sets: tuple[str, ...]) -> HexMap:
    try:
        hexmap = HexMap.from_dict(doc)
    except MapError as error:
        raise PbemError(Problem(str(error), section="scenario")) from None
    _require_sets(hexmap.sets, required_sets)
    return hexmap


def _require_sets(sets: Container[str], required_sets: tuple[str, ...]) -> None:
    missing = [name for name in required_sets if name not in sets]
    if missing:
        raise PbemError(Problem(f"the map lacks the hex sets {', '.join(missing)}", section="scenario",
                                legal="a map document with sets: " + ", ".join(required_sets)))


def map_index(spec: Any, package: str, packaged: Mapping[str, str], required_sets: tuple[str, ...] = ()) -> HexIndex:
    """`HexIndex.of(load_map(...))`. A packaged map's index is kept beside the package's byte-code (as
    `tables.packaged_yaml` keeps what the file reads to) and read back with `marshal`: checking and
    indexing fbsm's map cost every command about 4.5 ms, reading its kept index 0.5 ms. The `HexMap`
    behind a kept index is loaded only when a rule asks for it (`HexIndex.map`).
    """
    if not isinstance(spec, str) or spec not in packaged:  # a scenario's own map (or an unknown name's error)
        return HexIndex.of(load_map(spec, package, packaged, required_sets))
    name = packaged[spec]
    path = packaged_file(package, name)
    if path is None:  # not a file on disk (a zip): nowhere to keep an index
        return HexIndex.of(load_map(spec, package, packaged, required_sets))
    data = read_packaged(package, name)  # the bytes the index is of, whether kept or built, and its map too
    kept = _kept_index(path, data, lambda: _map_of(packaged_doc(package, name, path, data), required_sets))
    if kept is not None:
        _require_sets(kept.sets, required_sets)
        return kept
    index = HexIndex.of(_map_of(packaged_doc(package, name, path, data), required_sets))
    keep_bytes(path, data, "index", _index_key(), marshal.dumps(index.fields()))
    return index


@lru_cache(maxsize=None)
def _index_key() -> str:
    """What decides a kept index: the reader's key (`tables`), the sources of the code that checks a map
    document and indexes it (this module, hexmap with the fields and records it reads with, hexgrid),
    and this Python's `marshal` (its format may change with it)."""
    from pbem.core import records
    from pbem.geometry import fields, hexgrid, hexmap

    from . import tables

    return tables.sources_key(f"{tables._reader_key()}/{sys.implementation.cache_tag}/{marshal.version}/",
                              (__file__, hexmap.__file__, fields.__file__, records.__file__, hexgrid.__file__))


def _kept_index(path: str, data: bytes, load: Callable[[], HexMap]) -> HexIndex | None:
    body = kept_bytes(path, data, "index", _index_key())
    if body is None:
        return None
    try:
        fields = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None
    if (type(fields) is not tuple or len(fields) != len(_FIELDS) or fields[0] not in STAGGERS
            or any(type(field) is not dict for field in fields[1:])):
        return None
    stagger, terrain_of, features_of, neighbours_of, cube_of, sides_of, sets = fields
    return HexIndex(load, terrain_of, features_of, neighbours_of, cube_of, sides_of, sets, stagger=stagger)


HexSide = tuple[str, str]
_FIELDS = ("stagger", "terrain_of", "features_of", "neighbours_of", "cube_of", "sides_of", "sets")


class TerrainGroups:
    """Named groups of terrain types, from a table such as `{built_up: [residential, industrial]}`."""

    def __init__(self, mapping: Mapping[str, Iterable[str]]) -> None:
        self._groups = {name: frozenset(members) for name, members in mapping.items()}

    def names(self, group: str) -> frozenset[str]:
        """The terrain types of a group (KeyError, naming the known groups, for an unknown one)."""
        found = self._groups.get(group)
        if found is None:
            raise KeyError(f"no terrain group {group!r}; the groups are {', '.join(sorted(self._groups))}")
        return found

    def has(self, terrain: str, group: str) -> bool:
        return terrain in self.names(group)

    def groups(self) -> list[str]:
        return sorted(self._groups)


def side_key(a: str, b: str) -> HexSide:
    """The two hexes of a hexside in a fixed order (a hexside has no direction)."""
    return (a, b) if a < b else (b, a)


class HexIndex:
    """The map's hexes by printed id: terrain, features, neighbours, cube coordinates, hexsides, sets.

    A plain class (built by `of`), not a dataclass: creating one at import costs every command about
    half a millisecond, and an index is never compared or printed.
    """

    def __init__(self, map: HexMap | Callable[[], HexMap], terrain_of: dict[str, str],
                 features_of: dict[str, tuple[str, ...]], neighbours_of: dict[str, tuple[str, ...]],
                 cube_of: dict[str, tuple[int, int, int]], sides_of: dict[HexSide, tuple[str, ...]],
                 sets: dict[str, tuple[str, ...]], stagger: Stagger | None = None) -> None:
        """`map`: the map, or how to load it when first asked (a kept index); `stagger` the map's, when
        `map` is not at hand yet."""
        if isinstance(map, HexMap):
            self._map: HexMap | None = map
            self._load_map: Callable[[], HexMap] | None = None
            self._grid = map.grid
        else:
            if stagger is None:
                raise ValueError("an index whose map is loaded later needs the map's stagger")
            self._map, self._load_map, self._grid = None, map, HexGrid(stagger)
        self.terrain_of = terrain_of
        self.features_of = features_of
        self.neighbours_of = neighbours_of
        self.cube_of = cube_of
        self.sides_of = sides_of
        self.sets = sets
        self._clear: dict[tuple[str, str, SplitRule], bool] = {}
        self._lines: dict[tuple[str, str], Line] = {}
        self._between: dict[tuple[str, str, str, SplitRule], bool] = {}

    @classmethod
    def of(cls, hexmap: HexMap) -> "HexIndex":
        grid = hexmap.grid
        default = hexmap.default_terrain
        terrain_by_id = {h.id: terrain for h, terrain in hexmap.hex_terrain.items()}
        features_by_id = {h.id: features for h, features in hexmap.hex_features.items()}
        omitted = {h.id for h in hexmap.omitted}
        terrain_of: dict[str, str] = {}
        features_of: dict[str, tuple[str, ...]] = {}
        cube_of: dict[str, tuple[int, int, int]] = {}
        # Offset and cube coordinates are one-to-one, so a neighbour is on the map exactly when its
        # cube coordinates are a map hex's: `HexMap.neighbours` without building a Hex per step. A
        # hex's (q, r) is packed in one int, q * 1024 + r: a printed hex has q and its row in 0-99,
        # so |r| < 150 and the packing is one-to-one, and a step is one addition.
        by_key: dict[int, str] = {}
        key_of: dict[str, int] = {}
        (first_col, last_col), (first_row, last_row) = hexmap.columns, hexmap.rows
        Hex(first_col, first_row).id, Hex(last_col, last_row).id  # noqa: B018  (ValueError if not printed ids)
        rows = [(row, f"{row:02d}") for row in range(first_row, last_row + 1)]
        # `HexMap.hexes` without a Hex per hex: the bounds less the omitted hexes, in id order
        for col in range(first_col, last_col + 1):
            column, base = f"{col:02d}", grid.to_cube(Hex(col, 0)).r  # r grows with the row from base
            for row, row_text in rows:
                hex_id = column + row_text
                if hex_id in omitted:
                    continue
                r = row + base
                terrain_of[hex_id] = terrain_by_id.get(hex_id, default)
                features_of[hex_id] = features_by_id.get(hex_id, ())
                cube_of[hex_id] = (col, r, -col - r)
                key = (col << 10) + r
                by_key[key] = hex_id
                key_of[hex_id] = key
        steps = [(d.q << 10) + d.r for d in CUBE_DIRECTIONS]
        find = by_key.get
        neighbours_of = {hex_id: tuple(filter(None, [find(key + step) for step in steps]))
                         for hex_id, key in key_of.items()}
        return cls(
            map=hexmap,
            terrain_of=terrain_of,
            features_of=features_of,
            neighbours_of=neighbours_of,
            cube_of=cube_of,
            sides_of={side_key(side.first.id, side.second.id): tuple(features)
                      for side, features in hexmap.side_features.items()},
            sets={name: tuple(h.id for h in members) for name, members in hexmap.sets.items()},
        )

    @property
    def map(self) -> HexMap:
        if self._map is None:
            assert self._load_map is not None
            self._map = self._load_map()
        return self._map

    @property
    def grid(self) -> HexGrid:
        return self._grid

    def fields(self) -> tuple[Any, ...]:
        """What a kept index holds (`_FIELDS`, in that order): plain values `marshal` writes exactly."""
        return (self._grid.stagger, self.terrain_of, self.features_of, self.neighbours_of, self.cube_of,
                self.sides_of, self.sets)

    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.terrain_of

    def hexes(self) -> list[str]:
        return sorted(self.terrain_of)

    def terrain_in(self, hex_id: str, terrains: Container[str]) -> bool:
        """Whether the hex is on the map with one of these terrain types (`TerrainGroups.names`)."""
        found = self.terrain_of.get(hex_id)
        return found is not None and found in terrains

    def terrain(self, hex_id: str) -> str:
        found = self.terrain_of.get(hex_id)
        if found is None:
            raise MapError(f"hex {hex_id} is off the map")
        return found

    def features(self, hex_id: str) -> tuple[str, ...]:
        return self.features_of.get(hex_id, ())

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        found = self.neighbours_of.get(hex_id)
        if found is None:
            return tuple(h.id for h in self.map.neighbours(hex_id))
        return found

    def side_features(self, a: str, b: str) -> tuple[str, ...]:
        return self.sides_of.get(side_key(a, b), ())

    def set(self, name: str) -> tuple[str, ...]:
        return self.sets.get(name, ())

    def distance(self, a: str, b: str) -> int:
        """Hexes between centres; a hex id off the map (but on the grid) is measured on the grid."""
        ca, cb = self.cube_of.get(a), self.cube_of.get(b)
        if ca is None or cb is None:
            return self.grid.distance(a, b)
        return max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))

    def adjacent(self, a: str, b: str) -> bool:
        return a != b and self.distance(a, b) == 1

    def line(self, a: str, b: str) -> Line:
        """The line from a's centre to b's (`HexGrid.line`), memoised per index."""
        found = self._lines.get((a, b))
        if found is None:
            found = self._lines[(a, b)] = self.grid.line(a, b)
        return found

    def clear_line(self, a: str, b: str, blocks: Callable[[Hex], bool], at_split: SplitRule) -> bool:
        """Whether nothing between two hexes blocks (`at_split`: how a line along a hexside is judged).

        Adjacent hexes always see each other. Memoised per index for each `at_split` rule, so an
        index answers for one `blocks` rule only: a game with two uses `clear_between`.
        """
        key = (a, b, at_split)
        found = self._clear.get(key)
        if found is None:
            found = self._clear[key] = self._clear_of(a, b, blocks, at_split)
        return found

    def clear_between(self, a: str, b: str, blocks: Callable[[Hex], bool], at_split: SplitRule, *,
                      key: str) -> bool:
        """`clear_line` with no direction: the line is drawn from the lower hex id to the higher, and
        the answer memoised for the pair, `at_split` and `key` (the name of the `blocks` rule).

        A line crosses the same hexes and the same splits either way (the left of one direction is
        the right of the other), so `blocked` is the same both ways (tests/test_kit.py checks it).
        """
        low, high = side_key(a, b)
        memo = (low, high, key, at_split)
        found = self._between.get(memo)
        if found is None:
            found = self._between[memo] = self._clear_of(low, high, blocks, at_split)
        return found

    def _clear_of(self, a: str, b: str, blocks: Callable[[Hex], bool], at_split: SplitRule) -> bool:
        # the answer is memoised, so the line is not: most lines of sight are asked about once
        return self.distance(a, b) <= 1 or not self.grid.line(a, b).blocked(blocks, at_split=at_split)
