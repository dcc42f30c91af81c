"""A hex map for a game: loaded from a packaged name or a whole document, and indexed by hex id.

Rules look hexes up by their printed ids thousands of times a phase, so `HexIndex` turns the
map into plain dicts once, when a ruleset prepares its context. Lines of sight are memoised in
the index too (per context, never across games).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pbem.core.errors import PbemError, Problem
from pbem.geometry.hexgrid import Hex, HexGrid, Line, SplitRule
from pbem.geometry.hexmap import HexMap, MapError

from .tables import packaged_yaml


def load_map(spec: Any, package: str, packaged: Mapping[str, str], required_sets: tuple[str, ...] = ()) -> HexMap:
    """The map a setup names (a key of `packaged`, a file in `package`) or gives whole (a map document)."""
    if isinstance(spec, str):
        if spec not in packaged:
            raise PbemError(Problem(f"unknown map {spec!r}", section="scenario", legal=", ".join(sorted(packaged))))
        doc = packaged_yaml(package, packaged[spec])
    else:
        doc = spec
    try:
        hexmap = HexMap.from_dict(doc)
    except MapError as error:
        raise PbemError(Problem(str(error), section="scenario")) from None
    missing = [name for name in required_sets if name not in hexmap.sets]
    if missing:
        raise PbemError(Problem(f"the map lacks the hex sets {', '.join(missing)}", section="scenario",
                                legal="a map document with sets: " + ", ".join(required_sets)))
    return hexmap


HexSide = tuple[str, str]


def side_key(a: str, b: str) -> HexSide:
    """The two hexes of a hexside in a fixed order (a hexside has no direction)."""
    return (a, b) if a < b else (b, a)


@dataclass
class HexIndex:
    """The map's hexes by printed id: terrain, features, neighbours, cube coordinates, hexsides, sets."""

    map: HexMap
    terrain_of: dict[str, str]
    features_of: dict[str, tuple[str, ...]]
    neighbours_of: dict[str, tuple[str, ...]]
    cube_of: dict[str, tuple[int, int, int]]
    sides_of: dict[HexSide, tuple[str, ...]]
    sets: dict[str, tuple[str, ...]]
    _clear: dict[tuple[str, str, SplitRule], bool] = field(default_factory=dict)

    @classmethod
    def of(cls, hexmap: HexMap) -> "HexIndex":
        hexes = hexmap.hexes()
        grid = hexmap.grid
        return cls(
            map=hexmap,
            terrain_of={h.id: hexmap.terrain(h) for h in hexes},
            features_of={h.id: hexmap.features(h) for h in hexes},
            neighbours_of={h.id: tuple(n.id for n in hexmap.neighbours(h)) for h in hexes},
            cube_of={h.id: grid.to_cube(h).coords() for h in hexes},
            sides_of={side_key(side.first.id, side.second.id): tuple(features)
                      for side, features in hexmap.side_features.items()},
            sets={name: tuple(h.id for h in members) for name, members in hexmap.sets.items()},
        )

    @property
    def grid(self) -> HexGrid:
        return self.map.grid

    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.terrain_of

    def hexes(self) -> list[str]:
        return sorted(self.terrain_of)

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
        return self.grid.line(a, b)

    def clear_line(self, a: str, b: str, blocks: Callable[[Hex], bool], at_split: SplitRule) -> bool:
        """Whether nothing between two hexes blocks (`at_split`: how a line along a hexside is judged).

        Adjacent hexes always see each other. Memoised per index for each `at_split` rule.
        """
        key = (a, b, at_split)
        found = self._clear.get(key)
        if found is None:
            found = True if self.distance(a, b) <= 1 else not self.line(a, b).blocked(blocks, at_split=at_split)
            self._clear[key] = found
        return found
