"""Where things go on a hex map picture (issue #16): labels and marker tokens clear of the counters,
a legend row for every kind of symbol drawn, units off the map grouped, the fbsm US set-up zones.

Read on the recorded samples' own views (`samples/*/game/turns/NNNN/SIDE.yaml`) and on copies of
them with more events, the way a script would read the SVG: by element classes and geometry.
"""

from __future__ import annotations

import copy
import math
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.core import yamlio
from pbem.render import map_svg
from pbem.rulesets.fbsm.context import prepare as fbsm_prepare

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]
LABELLED = {"fire", "bombardment", "bombard", "melee", "drift"}  # events drawn with a label or a marker token


@lru_cache(maxsize=None)
def view_at(ruleset: str, name: str) -> dict[str, Any]:
    """A sample view by its path under the game ("turns/0003/german.yaml", "views/0000/us.yaml")."""
    return dict(yamlio.load_file(ROOT / "samples" / ruleset / "game" / name).data)


def sample_names(ruleset: str) -> list[str]:
    base = ROOT / "samples" / ruleset / "game"
    return [str(p.relative_to(base)) for p in sorted((base / "turns").glob("*/*.yaml")) if p.name != "turn.yaml"]


def labelled_views() -> Iterator[tuple[str, dict[str, Any]]]:
    for ruleset in ("fbsm", "toc"):
        for name in sample_names(ruleset):
            view = view_at(ruleset, name)
            if any(e.get("type") in LABELLED for e in view.get("events") or []):
                yield f"{ruleset}/{name}", view


def rect(el: ET.Element) -> Box:
    x, y = float(el.get("x", 0)), float(el.get("y", 0))
    return x, y, x + float(el.get("width", 0)), y + float(el.get("height", 0))


def overlap(a: Box, b: Box) -> bool:
    eps = 0.01  # boxes that only touch do not cover each other
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def boxes(root: ET.Element) -> tuple[list[Box], list[Box], list[Box]]:
    """The counters (their square), the marker tokens and the attack labels of a picture."""
    units = root.find(f".//{NS}g[@id='units']")
    markers = root.find(f".//{NS}g[@id='markers']")
    overlay = root.find(f".//{NS}g[@id='last-adjudication']")
    assert units is not None and markers is not None and overlay is not None
    counters = [rect(g.find(f"{NS}rect")) for g in units if "counter" in (g.get("class") or "")]  # type: ignore[arg-type]
    tokens = [rect(g.find(f"{NS}rect")) for g in markers]  # type: ignore[arg-type]
    labels = [rect(r) for r in overlay.iter(f"{NS}rect") if r.get("class") == "fire-label"]
    return counters, tokens, labels


def covered(root: ET.Element) -> list[str]:
    """Every label or token that covers a counter, a token or another label."""
    counters, tokens, labels = boxes(root)
    found = []
    for i, box in enumerate(labels):
        found += [f"label {box} on counter {c}" for c in counters if overlap(box, c)]
        found += [f"label {box} on token {t}" for t in tokens if overlap(box, t)]
        found += [f"label {box} on label {o}" for o in labels[i + 1:] if overlap(box, o)]
    for i, box in enumerate(tokens):
        found += [f"token {box} on counter {c}" for c in counters if overlap(box, c)]
        found += [f"token {box} on token {o}" for o in tokens[i + 1:] if overlap(box, o)]
    return found


# --- labels and markers clear of counters --------------------------------------------------------

def test_no_label_or_marker_of_a_sample_covers_a_counter() -> None:
    checked = labels = tokens = 0
    for name, view in labelled_views():
        root = ET.fromstring(map_svg(view))
        assert covered(root) == [], name
        _, t, lab = boxes(root)
        checked, labels, tokens = checked + 1, labels + len(lab), tokens + len(t)
    assert checked > 20 and labels > 50 and tokens > 10  # the samples did hold crowded pictures


def test_labels_on_every_stack_of_a_crowded_front_cover_no_counter() -> None:
    view = copy.deepcopy(view_at("toc", "turns/0003/german.yaml"))
    targets = sorted(view["state"]["enemy"])
    assert len(targets) > 20
    view["events"] = [{"type": "bombard", "side": "german", "section": "10.7", "target": t, "with": [],
                       "from": [], "spotters": [], "factors": 12, "roll": 6, "modifiers": {}, "modified": 6,
                       "losses": 3, "results": []} for t in targets]
    root = ET.fromstring(map_svg(view))
    counters, _, labels = boxes(root)
    assert len(labels) == len(targets)
    assert covered(root) == []


def test_markers_piled_in_one_hex_stay_beside_its_counter() -> None:
    view = copy.deepcopy(next(v for _, v in labelled_views() if v["ruleset"]["id"] == "fbsm"
                              and v["state"].get("enemy")))
    hex_id = sorted(view["state"]["enemy"])[0]
    view["events"] = [{"type": "drift", "side": view["side"], "section": "11.3", "marker": f"{w}-{n}",
                       "target": hex_id, "roll": 1, "drift": 0, "final": hex_id, "lost": False}
                      for w in ("heavy", "light") for n in (1, 2, 3)]
    root = ET.fromstring(map_svg(view))
    _, tokens, _ = boxes(root)
    assert len(tokens) == 6 and covered(root) == []


# --- the legend explains what is drawn ---------------------------------------------------------------

def keys(root: ET.Element) -> set[str]:
    legend = root.find(f".//{NS}g[@id='legend']")
    assert legend is not None
    return {c.split("key-", 1)[1] for g in legend.iter(f"{NS}g") for c in (g.get("class") or "").split()
            if c.startswith("key-")}


def drawn_kinds(root: ET.Element) -> set[str]:
    """The overlay kinds the picture drew (an attack without firers is a bombardment ring)."""
    overlay = root.find(f".//{NS}g[@id='last-adjudication']")
    assert overlay is not None
    out = set()
    for item in overlay:
        kind = item.get("data-kind") or ""
        out.add("bombardment" if item.find(f"{NS}circle") is not None else kind)
    return out


@pytest.mark.parametrize("ruleset", ["fbsm", "toc"])
def test_every_kind_of_symbol_drawn_has_its_row_in_the_legend(ruleset: str) -> None:
    checked: set[str] = set()
    for name in sample_names(ruleset)[::3]:
        view = view_at(ruleset, name)
        root = ET.fromstring(map_svg(view))
        found = keys(root)
        for kind in drawn_kinds(root):
            assert f"action-{kind}" in found, (name, kind)
            checked.add(f"action-{kind}")
        for g in root.iter(f"{NS}g"):
            if (g.get("class") or "").startswith("mark ") and g.get("data-kind") != "bombardment":
                assert f"mark-{g.get('data-kind')}" in found, (name, g.get("data-kind"))
        for g in root.findall(f".//{NS}g[@id='markers']/{NS}g"):
            weight = g.get("data-weight")
            assert f"marker-{weight}" in found or "lost" in (g.get("class") or ""), name
        if any(e["count"] > 1 for e in view["state"].get("enemy", {}).values()):
            assert "stack" in found, name
        if root.find(f".//{NS}g[@id='units']/{NS}g") is not None:
            assert any(k.startswith("symbol-") for k in found), name
        overlay = root.find(f".//{NS}g[@id='last-adjudication']")
        if overlay is not None and any(r.get("class") == "fire-label" for r in overlay.iter(f"{NS}rect")):
            assert "label" in found, name
    assert len(checked) >= 3


def test_the_legend_has_no_row_for_what_is_not_drawn() -> None:
    view = copy.deepcopy(view_at("toc", "turns/0003/german.yaml"))
    view["events"] = []
    found = keys(ET.fromstring(map_svg(view)))
    assert not any(k.startswith("action-") for k in found) and "label" not in found
    assert {"mark-entry", "mark-exit"} <= found
    zoomed = keys(ET.fromstring(map_svg(view, area="2005-3010")))  # no entry or exit hex in it
    assert "mark-entry" not in zoomed and "mark-exit" not in zoomed and "mark-control" in zoomed
    assert "symbol-cavalry" in found and "symbol-cavalry" not in zoomed  # the cavalry is outside the zoom
    empty = ET.fromstring(map_svg(view, area="0101-0303"))
    units = empty.find(f".//{NS}g[@id='units']")
    assert units is not None and len(units) == 0
    assert not {k for k in keys(empty) if k.startswith("symbol-")} | ({"stack", "marched"} & keys(empty))


# --- units off the map -------------------------------------------------------------------------

def off_map(root: ET.Element) -> tuple[list[str], list[ET.Element]]:
    """The ids listed off the map, and the text lines that list them."""
    legend = root.find(f".//{NS}g[@id='legend']")
    assert legend is not None
    lines = [t for t in legend.iter(f"{NS}text") if any(s.get("class") == "off-map" for s in t)]
    return [str(s.get("id"))[5:] for t in lines for s in t if s.get("class") == "off-map"], lines


def legend_words(root: ET.Element) -> str:
    """The legend's words, its lines joined by spaces (a long row wraps)."""
    legend = root.find(f".//{NS}g[@id='legend']")
    assert legend is not None
    return " ".join(" ".join(t.itertext()) for t in legend.iter(f"{NS}text"))


def test_units_off_the_map_are_grouped_a_few_lines_per_group() -> None:
    names = sample_names("toc")
    view = view_at("toc", names[-1])  # the end of the game: the dead, the exited
    root = ET.fromstring(map_svg(view))
    listed, lines = off_map(root)
    state = view["state"]
    expected = ([uid for uid, u in state["units"].items() if u["status"] not in ("active", "map")]
                + state["enemy_dead"] + state["enemy_surrounded"] + state["enemy_exited"])
    assert len(expected) > 20
    assert sorted(listed) == sorted(expected)  # each once, each still its own element (unit-ID)
    assert len(lines) <= math.ceil(len(expected) / 4) + 4  # not one line per unit
    assert f"({len(state['enemy_dead'])}), dead:" in legend_words(root)


def test_german_units_to_enter_are_grouped_by_entry() -> None:
    root = ET.fromstring(map_svg(view_at("toc", "turns/0001/german.yaml")))
    assert "German (6), to enter on turn 4 at 3900 (8.2):" in legend_words(root)
    assert "German (6), to enter on turn 4 at 2100 (8.2):" in legend_words(root)


# --- the fbsm US set-up zones (3.3, 3.4) ----------------------------------------------------------

@pytest.mark.parametrize("side", ["us", "german"])
def test_the_us_set_up_zones_are_drawn_on_the_set_up_map(side: str) -> None:
    view = view_at("fbsm", f"views/0000/{side}.yaml")
    assert view["state"]["phase"] == "us-setup"
    cfg = fbsm_prepare(view["state"]["setup"])
    root = ET.fromstring(map_svg(view))
    for zone in ("forward", "rear"):
        drawn = {p.get("data-hex") for p in root.iter(f"{NS}polygon") if p.get("data-kind") == f"{zone}-zone"}
        assert drawn == set(cfg.zones[zone]) and drawn
    legend = legend_words(root)
    assert "US forward set-up zone (3.3): 16 infantry, 8 heavy" in legend
    assert "US rear set-up zone (3.4): 32 infantry, 1 heavy" in legend
    fills = {p.get("fill") for p in root.iter(f"{NS}polygon") if (p.get("data-kind") or "").endswith("-zone")}
    assert len(fills) == 2  # the two zones are told apart (a hex in both shows both)


def test_after_the_set_up_no_zone_is_drawn() -> None:
    root = ET.fromstring(map_svg(view_at("fbsm", "turns/0003/us.yaml")))
    assert not [p for p in root.iter(f"{NS}polygon") if (p.get("data-kind") or "").endswith("-zone")]
