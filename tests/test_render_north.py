"""Map north is up: the picture turns the printed layout by the map's declared north.

A map says which direction index is its north (`north` in the map file; fbsm: 3, row + 1;
toc: 0, row - 1). Whatever it says, a hex's northern neighbour is drawn straight above it and
its north-eastern one up and to the right, every hex fits the drawing, and the legend has a
north arrow.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.geometry.hexgrid import Hex
from pbem.render import map_svg
from pbem.render.svg import Layout, R
from pbem.rulesets.fbsm.context import prepare as fbsm_config
from pbem.rulesets.toc.context import prepare as toc_prepare

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
FBSM_MAP = fbsm_config({"map": "second-marne"}).map
TOC_MAP = toc_prepare({"map": "mons"}).map


def sample_view(ruleset: str, side: str) -> dict[str, Any]:
    return dict(yamlio.load_file(ROOT / "samples" / ruleset / "game" / "turns" / "0003" / f"{side}.yaml").data)


def test_the_sample_maps_declare_different_norths() -> None:
    assert FBSM_MAP.north == 3 and TOC_MAP.north == 0


@pytest.mark.parametrize("hexmap", [FBSM_MAP, TOC_MAP], ids=["fbsm", "toc"])
@pytest.mark.parametrize("north", range(6))
def test_north_is_up_and_east_is_right_whatever_the_map_declares(hexmap: Any, north: int) -> None:
    m = hexmap.replaced(north=north)
    lay = Layout(m, None)
    h = Hex(26, 14)
    x, y = lay.centre(h)
    step = {c: lay.centre(m.grid.neighbour(h, m.direction(c))) for c in ("N", "NE", "SE", "S", "SW", "NW")}
    assert abs(step["N"][0] - x) < 0.01 and step["N"][1] < y - R
    assert abs(step["S"][0] - x) < 0.01 and step["S"][1] > y + R
    assert step["NE"][0] > x and step["NE"][1] < y and step["SE"][0] > x and step["SE"][1] > y
    assert step["NW"][0] < x and step["NW"][1] < y and step["SW"][0] < x and step["SW"][1] > y
    for cell in m.hexes():  # the whole map fits the drawing, below the title
        for cx, cy in lay.corners(cell):
            assert 0 <= cx <= lay.width and 60 <= cy <= lay.height


@pytest.mark.parametrize("ruleset,side,hexmap", [("fbsm", "us", FBSM_MAP), ("toc", "british", TOC_MAP)])
def test_in_the_svg_the_northern_row_is_drawn_higher(ruleset: str, side: str, hexmap: Any) -> None:
    root = ET.fromstring(map_svg(sample_view(ruleset, side)))
    at = {"".join(t.itertext()): float(t.get("y", 0)) for t in root.findall(f".//{NS}g[@id='hex-ids']/{NS}text")}
    h = Hex(30, 10)
    north_row = hexmap.grid.neighbour(h, hexmap.north).row  # what the map declares: rows up or down
    northern, southern = Hex(30, north_row).id, Hex(30, 2 * h.row - north_row).id
    assert at[northern] < at[h.id] < at[southern]
    if hexmap.north == 3:  # rows grow northwards: the smaller row number is drawn lower
        assert at["3009"] > at["3010"]
    else:
        assert at["3009"] < at["3010"]
    arrow = root.find(f".//{NS}g[@id='legend']/{NS}g[@id='north-arrow']")
    assert arrow is not None and "N" in "".join(arrow.itertext())


def test_hex_ids_stay_upright_and_inside_their_hex() -> None:
    root = ET.fromstring(map_svg(sample_view("fbsm", "us"), area="2030-2640"))
    lay = Layout(FBSM_MAP, (Hex.parse("2030"), Hex.parse("2640")))
    texts = root.findall(f".//{NS}g[@id='hex-ids']/{NS}text")
    assert texts
    for t in texts:
        assert t.get("transform") is None and t.get("rotate") is None
        x, y = lay.centre("".join(t.itertext()))
        assert float(t.get("x", 0)) == x and y - R < float(t.get("y", 0)) < y
