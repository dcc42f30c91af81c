"""Unit symbols on counters (NATO APP-6 style): each kind its own, each drawn kind a row of the legend.

bob's vehicles (a Sherman, a StuG: tracked) carry the armour symbol, an oval in the frame, not the
heavy-weapons one; its weapon teams keep the heavy-weapons symbol (a saltire and a dot).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable

from pbem.core import yamlio
from pbem.render import map_svg

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
BOB_TURNS = ROOT / "samples" / "bob" / "game" / "turns"


def first_american_view(wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The earliest American view of the recorded bob game that shows what a test needs.

    Found, not named by turn: recording the sample again changes how long the game lasts.
    """
    for path in sorted(BOB_TURNS.glob("*/american.yaml")):
        view: dict[str, Any] = yamlio.load_file(path).data
        if wanted(view):
            return view
    raise AssertionError("no American view of samples/bob shows it: choose another sample situation")


def sherman_and_stug(view: dict[str, Any]) -> bool:
    """The own Sherman (A10) on the map and the enemy StuG (G11) face up."""
    sherman = view["state"]["units"].get("A10") or {}
    return bool(sherman.get("hex")) and any(p.get("unit") == "G11" for p in view["state"]["enemy"])


def conceal_markers(view: dict[str, Any]) -> bool:
    return any(p.get("marker") for p in view["state"]["enemy"])


def counters(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("id", "")[5:]: g for g in root.findall(f".//{NS}g[@id='units']/{NS}g") if g.get("id")}


def ovals(g: ET.Element) -> list[ET.Element]:
    return [r for r in g.iter(f"{NS}rect") if "symbol-armour" in (r.get("class") or "")]


def test_bobs_vehicles_carry_the_armour_symbol_own_and_enemy() -> None:
    view = first_american_view(sherman_and_stug)
    root = ET.fromstring(map_svg(view))
    drawn = counters(root)
    assert "kind-armour" in (drawn["A10"].get("class") or "")  # the own Sherman
    assert "kind-armour" in (drawn["G11"].get("class") or "")  # the enemy StuG, face up
    for uid in ("A10", "G11"):
        assert len(ovals(drawn[uid])) == 1, uid
        assert not drawn[uid].findall(f"{NS}circle") and not drawn[uid].findall(f"{NS}line"), uid  # no hw dot or saltire
    others = [uid for uid, g in drawn.items() if uid not in ("A10", "G11")]
    assert others and not any(ovals(drawn[uid]) for uid in others)


def test_the_legend_explains_the_armour_symbol_only_when_one_is_drawn() -> None:
    view = first_american_view(sherman_and_stug)
    legend = ET.fromstring(map_svg(view)).find(f".//{NS}g[@id='legend']")
    assert legend is not None
    rows = [g for g in legend.iter(f"{NS}g") if "key-symbol-armour" in (g.get("class") or "")]
    assert len(rows) == 1 and len(ovals(rows[0])) == 1
    assert "armour (tracked)" in "".join(rows[0].itertext())
    without = dict(view, state=dict(view["state"], enemy=[p for p in view["state"]["enemy"] if p.get("unit") != "G11"],
                                    units={k: v for k, v in view["state"]["units"].items() if k != "A10"}))
    legend = ET.fromstring(map_svg(without)).find(f".//{NS}g[@id='legend']")
    assert legend is not None
    assert not [g for g in legend.iter(f"{NS}g") if "key-symbol-armour" in (g.get("class") or "")]


def test_a_conceal_marker_is_drawn_and_explained_with_no_unit_symbol() -> None:
    view = first_american_view(conceal_markers)
    root = ET.fromstring(map_svg(view))
    marker = [g for g in root.findall(f".//{NS}g[@id='units']/{NS}g") if "kind-conceal" in (g.get("class") or "")]
    assert marker
    for g in marker:
        frame = g.findall(f"{NS}rect")
        assert len(frame) == 2  # the counter and its empty symbol frame
        assert not g.findall(f"{NS}line") and not g.findall(f"{NS}circle") and not ovals(g)
