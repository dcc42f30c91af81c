"""Markers and the overlay of the last adjudication, on the recorded sample games' own views.

Each marker and each overlay item is one SVG element carrying what it draws in data-
attributes (data-kind, data-side, data-hex or data-from/data-to, data-marker, data-units), so
these tests read the picture the way a script would. The views are the files the referee
wrote for each side (`samples/*/game/turns/NNNN/SIDE.yaml`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any


from pbem.core import yamlio
from pbem.render import map_svg

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"


@lru_cache(maxsize=None)
def sample_views(ruleset: str) -> tuple[Path, ...]:
    return tuple(p for p in sorted((ROOT / "samples" / ruleset / "game" / "turns").glob("*/*.yaml"))
                 if p.name != "turn.yaml")


def load(path: Path) -> dict[str, Any]:
    return dict(yamlio.load_file(path).data)


@lru_cache(maxsize=None)
def _loaded(path: Path) -> dict[str, Any]:
    return load(path)


@lru_cache(maxsize=None)
def _svg_text(path: Path) -> bytes:
    """The picture, compressed: kept for the whole session (drawing is the slow part), small (issue #17)."""
    return zlib.compress(map_svg(_loaded(path)).encode("utf-8"))


def _svg(path: Path) -> ET.Element:
    """A fresh parse each time: a parsed picture holds about six times its text in memory."""
    return ET.fromstring(zlib.decompress(_svg_text(path)).decode("utf-8"))


_PATHS: dict[int, Path] = {}


def views_with(ruleset: str, kind: str) -> list[dict[str, Any]]:
    """The sample views whose events hold one of this kind (shared, not to be changed)."""
    out = []
    for path in sample_views(ruleset):
        view = _loaded(path)
        if any(e.get("type") == kind for e in view.get("events") or []):
            _PATHS[id(view)] = path
            out.append(view)
    return out


def picture(view: dict[str, Any]) -> ET.Element:
    """The parsed SVG of a view from `views_with` (drawn once per test session)."""
    return _svg(_PATHS[id(view)])


def actions(root: ET.Element, kind: str) -> list[ET.Element]:
    overlay = root.find(f".//{NS}g[@id='last-adjudication']")
    assert overlay is not None
    return [el for el in overlay.iter(f"{NS}g") if el.get("data-kind") == kind]


def text(el: ET.Element) -> str:
    return "".join(el.itertext())


# --- fbsm: bombardment markers, drift, fire ----------------------------------------------------

def test_the_samples_hold_bombardments_with_drift() -> None:
    views = views_with("fbsm", "drift")
    assert views
    assert any(e.get("drift") for v in views for e in v["events"] if e["type"] == "drift")


def test_every_bombardment_marker_is_drawn_where_it_landed() -> None:
    checked = 0
    for view in views_with("fbsm", "drift"):
        root = picture(view)
        marks = [el for el in root.iter() if el.get("data-kind") == "bombardment" and "mark" in el.get("class", "")]
        drifts = [e for e in view["events"] if e["type"] == "drift"]
        assert len(marks) == len(drifts)
        by_marker = {(el.get("data-side"), el.get("data-marker")): el for el in marks}
        for e in drifts:
            el = by_marker[(e["side"], e["marker"])]
            assert el.get("data-hex") == (e["final"] or e["target"])
            assert el.get("data-aimed") == e["target"]
            assert el.get("data-weight") == e["marker"].split("-")[0]
            assert el.get("data-lost") == ("true" if e["lost"] else "false")
            weight, _, number = e["marker"].partition("-")
            assert text(el.find(f"{NS}text")) == weight[0].upper() + number  # type: ignore[arg-type]
            checked += 1
        # drifted markers get a dotted arrow from the aimed hex to where they landed
        moved = sorted((e["target"], e["final"]) for e in drifts if e["final"] and e["final"] != e["target"])
        assert sorted((el.get("data-from"), el.get("data-to")) for el in actions(root, "drift")) == moved
    assert checked > 10


def test_bombardments_and_fire_are_lines_or_rings_with_odds_rolls_and_results() -> None:
    views = views_with("fbsm", "bombardment") + views_with("fbsm", "fire")
    assert views
    for view in views:
        root = picture(view)
        for kind, hex_key in (("bombardment", "hex"), ("fire", "target")):
            events = [e for e in view["events"] if e["type"] == kind and not e.get("close_assault")]
            drawn = actions(root, kind)
            assert sorted(el.get("data-to") for el in drawn) == sorted(e[hex_key] for e in events)
            for e, el in zip(sorted(events, key=lambda e: e[hex_key]), sorted(drawn, key=lambda el: el.get("data-to") or "")):
                label = el.get("data-label") or ""
                odds = f"{e['odds']}:1" if e["odds"] >= 1 else "under 1:1"
                assert label.startswith(odds)
                for r in e["results"]:  # every roll, and a cross for every unit eliminated
                    assert ("-" if r["roll"] is None else str(r["roll"])) in label
                assert label.count("✕") == sum(1 for r in e["results"] if r["eliminated"])
                assert label in text(el)
                if kind == "fire":
                    assert (el.get("data-from") or "").split() == e["from"]
                    assert len(el.findall(f"{NS}line")) == len(e["from"])
                else:
                    assert el.find(f"{NS}circle") is not None


def test_the_bombarding_side_sees_its_spotters_line_of_sight() -> None:
    found = 0
    for view in views_with("fbsm", "bombard"):
        root = picture(view)
        own = view["state"]["units"]
        expected = sorted((own[e["spotter"]]["hex"], e["target"]) for e in view["events"]
                          if e["type"] == "bombard" and e.get("spotter") in own
                          and own[e["spotter"]]["status"] == "active")
        assert sorted((el.get("data-from"), el.get("data-to")) for el in actions(root, "spot")) == expected
        found += len(expected)  # the other side's view names no spotter, so it gets no line
    assert found


def test_moves_are_arrows_along_their_paths() -> None:
    views = views_with("fbsm", "move")
    for view in views[:6]:
        root = picture(view)
        moves = [e for e in view["events"] if e["type"] == "move" and e.get("from")]
        drawn = actions(root, "move")
        assert sorted(el.get("data-from", "").split()[0] for el in drawn) == sorted(e["from"] for e in moves)
        for el in drawn:
            assert el.find(f"{NS}polyline") is not None


def test_the_markers_in_hand_are_listed_in_the_legend() -> None:
    view = load(sample_views("fbsm")[0])
    view["state"]["markers"] = {"us": None, "german": ["heavy-2", "light-1"]}  # drawn for the phase (13.4)
    legend = text(ET.fromstring(map_svg(view)).find(f".//{NS}g[@id='legend']"))  # type: ignore[arg-type]
    assert "13.4" in legend and "German heavy-2, light-1" in legend
    view["state"]["markers"] = {"us": None, "german": None}
    assert "13.4" not in text(ET.fromstring(map_svg(view)).find(f".//{NS}g[@id='legend']"))  # type: ignore[arg-type]


# --- toc: control, march, bombardment, melee ---------------------------------------------------

def test_toc_control_is_one_shaded_hex_per_controlled_hex() -> None:
    for path in sample_views("toc")[::7]:
        view, root = _loaded(path), _svg(path)
        shaded = [el for el in root.iter(f"{NS}polygon") if el.get("data-kind") == "control"]
        assert sorted(el.get("data-hex") for el in shaded) == sorted(view["state"]["control"])
        assert all(el.get("data-side") == "german" for el in shaded)


def test_toc_marched_units_carry_the_march_marker() -> None:
    found = 0
    for path in sample_views("toc"):
        view = _loaded(path)
        marched = set(view["state"].get("marched") or [])
        if not marched:
            continue
        root = _svg(path)
        flagged = {el.get("id", "")[5:] for el in root.iter(f"{NS}g") if "flag-marched" in el.get("class", "")}
        on_map = {u for u in marched if view["state"]["units"][u]["status"] in ("active", "map")}
        assert flagged == on_map
        found += len(on_map)
    assert found


def test_toc_melees_show_attacks_defensive_fire_and_advances() -> None:
    views = views_with("toc", "melee")
    assert views
    for view in views:
        root = picture(view)
        melees = [e for e in view["events"] if e["type"] == "melee"]
        drawn = actions(root, "melee")
        assert sorted(el.get("data-to") for el in drawn) == sorted(e["target"] for e in melees)
        for e in melees:
            el = next(x for x in drawn if x.get("data-to") == e["target"])
            assert (el.get("data-from") or "").split() == sorted(e["attackers"])
            assert len(el.findall(f"{NS}line")) == len(e["attackers"])
            label = el.get("data-label") or ""
            assert label.startswith(str(e["odds"]).replace("-", " "))
            assert f"{e['result']} {e['outcome']}" in label
            if e.get("roll") is not None:
                assert f"r{e['roll']}" in label
            units = set((el.get("data-units") or "").split())
            assert units == {u["unit"] for items in e["attackers"].values() for u in items}
        fires = [(e["target"], f["at"]) for e in melees for f in e.get("defensive_fire") or []]
        assert sorted((el.get("data-from"), el.get("data-to")) for el in actions(root, "defensive-fire")) == sorted(fires)
        advances = sorted(u for e in melees for u in e.get("advanced") or [])
        assert sorted(el.get("data-units") or "" for el in actions(root, "advance")) == advances


def test_toc_bombardments_are_drawn_from_the_guns_hexes() -> None:
    """Every bombardment is an arrow from its batteries' hexes; the target's side never sees the guns' ids."""
    views = views_with("toc", "bombard")
    assert views
    lines = 0
    for view in views:
        root = picture(view)
        events = [e for e in view["events"] if e["type"] == "bombard"]
        drawn = actions(root, "bombard")
        assert sorted(el.get("data-to") for el in drawn) == sorted(e["target"] for e in events)
        for e in events:
            assert ("with" in e) == (e["side"] == view["side"])
            el = next(x for x in drawn if x.get("data-to") == e["target"]
                      and (x.get("data-units") or "").split() == e.get("with", []))
            origins = sorted(e["from"])
            assert (el.get("data-from") or "").split() == origins
            label = el.get("data-label") or ""
            assert label.startswith(f"{e['factors']}f r{e['roll']}") and f"{e['losses']} lost" in label
            lines += len(origins)
    assert lines


def test_toc_moves_are_own_only() -> None:
    for view in views_with("toc", "move")[:8]:
        root = picture(view)
        moves = [e for e in view["events"] if e["type"] == "move"]
        assert all(e["side"] == view["side"] for e in moves)  # the fog passes only own moves
        drawn = actions(root, "move")
        assert sorted((el.get("data-from") or "").split()[-1] for el in drawn) == sorted(e["path"][-1] for e in moves)
