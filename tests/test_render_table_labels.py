"""A base's label on a table is readable at the table's full size: on the base when it fits at a legible
size, else beside it, once for bases of one unit lying together, clear of the other labels.

Bases are small against a whole table (wtj1916's 20 x 10 yd on 1200 yd: 17 x 8 px), so their text
went down to 5 px, which no one reads. The drawing and the sample of wtj1916 are checked.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from pbem.core import yamlio
from pbem.render import map_svg
from pbem.render.adapters import Figure
from pbem.render.table import LEGIBLE, draw

from .test_render_table import NS, by_id, parse, picture

ROOT = Path(__file__).resolve().parent.parent


def labels(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.findall(f".//{NS}g[@id='labels-beside']/{NS}g")]


def text_of(el: ET.Element) -> str:
    return "".join(t.text or "" for t in el.iter(f"{NS}text"))


def box(label: ET.Element) -> tuple[float, float, float, float]:
    rect = label.find(f"{NS}rect")
    assert rect is not None
    x, y, w, h = (float(rect.get(k, 0)) for k in ("x", "y", "width", "height"))
    return x, y, x + w, y + h


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def sizes(root: ET.Element) -> list[float]:
    """The font size of every text on a base and of every label beside one."""
    on_bases = [float(t.get("font-size", 0)) for g in root.findall(f".//{NS}g[@id='bases']/{NS}g")
                for t in g.iter(f"{NS}text")]
    beside = by_id(root, "labels-beside")
    return on_bases + [float(beside.get("font-size", 0))] * len(labels(root))


def test_a_base_too_small_to_print_on_is_labelled_beside_it() -> None:
    root = parse(draw(picture()))
    assert [text_of(g) for g in labels(root)] == ["MG"]  # r3, 20 mm deep; the others print on themselves
    assert "alpha" in [t.text for t in by_id(root, "base-r1").iter(f"{NS}text")]
    assert "r4" in [t.text for t in by_id(root, "base-r4").iter(f"{NS}text")]
    assert all(size >= LEGIBLE for size in sizes(root))


def test_small_bases_of_one_unit_lying_together_share_one_label() -> None:
    small = [Figure("s1", "red", (200, 300), 0, 20, 10, unit="sec"), Figure("s2", "red", (225, 300), 0, 20, 10, unit="sec"),
             Figure("s3", "red", (250, 300), 0, 20, 10, unit="sec"), Figure("s4", "red", (900, 300), 0, 20, 10, unit="sec"),
             Figure("b9", "blue", (275, 300), 180, 20, 10, own=False, unit="sec")]
    root = parse(draw(picture(figures=small, marks=[], actions=[])))
    found = sorted((text_of(g), (g.get("class") or "").split()[-1]) for g in labels(root))
    assert found == [("sec", "side-blue"), ("sec", "side-red"), ("sec", "side-red")]  # s1-s3; s4 far off; b9
    placed = [box(g) for g in labels(root)]
    assert not [(a, b) for i, a in enumerate(placed) for b in placed[i + 1:] if overlap(a, b)]
    assert all(size >= LEGIBLE for size in sizes(root))


def test_zoomed_in_the_same_base_holds_its_own_text() -> None:
    root = parse(draw(picture(), window=(500, 250, 800, 450)))
    assert "MG" in [t.text for t in by_id(root, "base-r3").iter(f"{NS}text")]
    assert "MG" not in [text_of(g) for g in labels(root)]


def test_the_wtj1916_sample_is_labelled_legibly_with_no_label_over_another() -> None:
    for side in ("british", "german"):
        view = yamlio.load_file(ROOT / "samples" / "wtj1916" / "game" / "turns" / "0012" / f"{side}.yaml").data
        root = ET.fromstring(map_svg(view))
        placed = [box(g) for g in labels(root)]
        assert len(placed) >= 4
        assert all(size >= LEGIBLE for size in sizes(root))
        assert not [(a, b) for i, a in enumerate(placed) for b in placed[i + 1:] if overlap(a, b)]
        units = {g.get("data-unit") for g in root.findall(f".//{NS}g[@id='bases']/{NS}g")}
        assert {text_of(g) for g in labels(root)} <= units  # each names a unit of a base drawn


def test_a_tank_base_carries_the_armour_symbol_and_the_legend_says_so() -> None:
    view = yamlio.load_file(ROOT / "samples" / "wtj1916" / "game" / "turns" / "0012" / "british.yaml").data
    root = ET.fromstring(map_svg(view))
    tanks = [g for g in root.findall(f".//{NS}g[@id='bases']/{NS}g") if "kind-armour" in (g.get("class") or "")]
    assert tanks
    for g in tanks:
        assert [r for r in g.iter(f"{NS}rect") if "symbol-armour" in (r.get("class") or "")]
    others = [g for g in root.findall(f".//{NS}g[@id='bases']/{NS}g") if g not in tanks]
    assert others and not [r for g in others for r in g.iter(f"{NS}rect")
                           if "symbol-armour" in (r.get("class") or "")]
    assert "armour (tracked) base" in "".join(by_id(root, "legend").itertext())
