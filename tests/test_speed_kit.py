"""The map index built the quick way (issue #17) says what the map itself says, hex by hex."""

from __future__ import annotations

import pytest

from pbem.geometry.hexmap import HexMap
from pbem.rulesets.kit.hexboard import HexIndex, load_map

MAPS = [
    ("pbem.rulesets.fbsm.data", "map.yaml"),
    ("pbem.rulesets.toc.data", "map.yaml"),
    ("pbem.rulesets.bob.data", "board1.yaml"),
]

# a small map with omitted hexes and an edge, so "on the map" is decided by more than the bounds
HOLED = {
    "bounds": {"columns": [1, 4], "rows": [1, 3]}, "stagger": "odd-low", "north": 0,
    "default_terrain": "clear", "omit": ["0202", "0401"],
    "hexes": {"0101": {"terrain": "woods"}, "0303": {"features": ["town"]}},
    "hexsides": [], "sets": {"edge": ["0101", "0102"]}, "assumed": True, "source": "test",
}


# the other stagger, and a map reaching both ends of the printed ids (00 and 99), where the index's
# packed coordinates are furthest apart
EVEN = {**HOLED, "stagger": "even-low"}
CORNERS = {**HOLED, "bounds": {"columns": [0, 99], "rows": [0, 99]}, "omit": ["0000", "9999", "5050"],
           "hexes": {"0099": {"terrain": "woods"}, "9900": {"features": ["town"]}}, "stagger": "even-low"}


def _maps() -> list[HexMap]:
    return ([load_map("m", package, {"m": name}) for package, name in MAPS]
            + [HexMap.from_dict(doc) for doc in (HOLED, EVEN, CORNERS, {**CORNERS, "stagger": "odd-low"})])


@pytest.mark.parametrize("hexmap", _maps(), ids=["fbsm", "toc", "bob", "holed", "even", "corners", "corners-odd"])
def test_index_matches_the_map(hexmap: HexMap) -> None:
    index = HexIndex.of(hexmap)
    hexes = hexmap.hexes()
    assert sorted(index.terrain_of) == [h.id for h in hexes]
    for h in hexes:
        assert index.terrain_of[h.id] == hexmap.terrain(h)
        assert index.features_of[h.id] == hexmap.features(h)
        assert index.neighbours_of[h.id] == tuple(n.id for n in hexmap.neighbours(h))
        assert index.cube_of[h.id] == hexmap.grid.to_cube(h).coords()


def test_an_omitted_hex_is_nobody_s_neighbour() -> None:
    index = HexIndex.of(HexMap.from_dict(HOLED))
    assert "0202" not in index.terrain_of
    assert all("0202" not in around and "0401" not in around for around in index.neighbours_of.values())
    assert index.terrain("0101") == "woods" and index.terrain("0102") == "clear"
