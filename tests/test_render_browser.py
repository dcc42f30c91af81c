"""The map as a person sees it: headless Chromium opens the SVG and takes a screenshot.

Skipped where no Chromium is installed (Debian: apt-get install chromium) or Pillow is missing.
"""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.render import map_svg
from pbem.render.svg import Layout, R
from pbem.rulesets.fbsm import Fbsm, selfplay
from pbem.rulesets.fbsm.context import prepare as config
from pbem.testing import view_bytes

Image = pytest.importorskip("PIL.Image")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium installed")

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
STATE = next(s for i, s in enumerate(selfplay.games_states(SCENARIO, b"browser")) if i == 8)
AREA = "2826-4234"


def screenshot(svg: str, tmp_path: Path) -> tuple[Any, int, int]:
    root = ET.fromstring(svg)
    width, height = int(float(root.get("width", 0))), int(float(root.get("height", 0)))
    src, shot = tmp_path / "map.svg", tmp_path / "shot.png"
    src.write_text(svg, encoding="utf-8")
    subprocess.run([str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}",
                    f"--window-size={width},{height}", src.as_uri()],
                   check=True, capture_output=True, timeout=120)
    return Image.open(shot).convert("RGB"), width, height


def test_chromium_shows_the_map_with_the_counters_where_they_belong(tmp_path: Path) -> None:
    view = dict(yamlio.load_bytes(view_bytes(Fbsm(), STATE, "us", ["us", "german"]), "v.yaml").data)
    svg = map_svg(view, area=AREA)
    image, width, height = screenshot(svg, tmp_path)
    assert image.size == (width, height)
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, "the screenshot is (nearly) blank"
    # a lone US counter is drawn in the US blue where its hex is
    cfg = config(view["state"]["setup"])
    a, b = AREA.split("-")
    from pbem.geometry.hexgrid import Hex

    lay = Layout(cfg.map, (Hex.parse(a), Hex.parse(b)))
    hexes = [u["hex"] for u in view["state"]["units"].values() if u["status"] == "active"]
    lone = [h for h in hexes if hexes.count(h) == 1 and lay.inside(Hex.parse(h))]
    assert lone
    x, y = lay.centre(lone[0])
    r, g, b_ = image.getpixel((int(x - R * 0.45), int(y + R * 0.05)))
    assert abs(r - 0x3D) < 40 and abs(g - 0x6F) < 40 and abs(b_ - 0xB6) < 40, (r, g, b_)


def test_chromium_shows_a_table_with_its_bases_where_they_belong(tmp_path: Path) -> None:
    """A table picture (pbem.render.table) in Chromium: an own base in its side's colour at its
    point, and each side's table edge on its side of the picture (north up)."""
    from pbem.geometry.tablemap import load_table_map
    from pbem.render.adapters import Figure, TablePicture
    from pbem.render.table import Frame, draw

    table = load_table_map(ROOT / "samples" / "bst" / "table.yaml")
    assert dict(table.edges) == {"allies": "south", "axis": "north"}
    own = Figure("a1", "allies", (700, 150), 30, 60, 60, unit="A1")
    enemy = Figure("x1", "axis", (1300, 1000), 180, 60, 60, own=False)
    svg = draw(TablePicture(map=table, figures=[own, enemy]), ("bst: the Allies side's table", ""))
    image, width, height = screenshot(svg, tmp_path)
    assert image.size == (width, height)
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, "the screenshot is (nearly) blank"
    frame = Frame(table)

    def near(pixel: tuple[int, int, int], rgb: tuple[int, int, int], by: int = 40) -> bool:
        return all(abs(a - b) < by for a, b in zip(pixel, rgb))

    x, y = frame.page((own.centre[0] - 15, own.centre[1] - 15))  # inside the base, clear of its label
    assert near(image.getpixel((int(x), int(y))), (0x3D, 0x6F, 0xB6)), image.getpixel((int(x), int(y)))
    x, y = frame.page((enemy.centre[0] + 15, enemy.centre[1] + 15))
    assert near(image.getpixel((int(x), int(y))), (0x5B, 0x5B, 0x5B), 60), image.getpixel((int(x), int(y)))
    middle = int(frame.page((table.width // 2, 0))[0])
    assert near(image.getpixel((middle, int(frame.bottom_edge + 3))), (0x3D, 0x6F, 0xB6))  # the Allies edge, south
    assert near(image.getpixel((middle, int(frame.top - 3))), (0x5B, 0x5B, 0x5B), 30)  # the Axis edge, north
