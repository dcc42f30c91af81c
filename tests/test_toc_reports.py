"""What a toc report and picture tell a side (issue #16): what it saw appear, the entry schedule,
entries and exits in words, entry and exit hexes on the map, and a move off the map drawn.

Read on the recorded sample's own views (`samples/toc/game/turns/NNNN/SIDE.yaml`), the files a
player receives, and on views built as the referee builds them (`pbem.testing.view_bytes`).
"""

from __future__ import annotations

import copy
import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.geometry.hexgrid import Hex
from pbem.render import map_svg, report_text
from pbem.render.adapters import adapter_for
from pbem.render.svg import Layout, R
from pbem.rulesets.toc import Toc
from pbem.rulesets.toc.context import prepare
from pbem.testing import view_bytes

ROOT = Path(__file__).resolve().parent.parent
TURNS = ROOT / "samples" / "toc" / "game" / "turns"
NS = "{http://www.w3.org/2000/svg}"
ENTRY_HEXES = ("2100", "2700", "3100", "3900", "4300", "4700")  # 3.1
EXIT_HEXES = ("1327", "1628", "1927", "2228")  # 4.4
CTX = prepare({"map": "mons"})


@lru_cache(maxsize=None)
def sample(seq: int, side: str) -> dict[str, Any]:
    return dict(yamlio.load_file(TURNS / f"{seq:04d}" / f"{side}.yaml").data)


def section(report: str, title: str) -> str:
    """The lines of one part of a text report ("What happened", "Where things stand", ...)."""
    return report.split(f"{title}:\n", 1)[1].split("\n\n", 1)[0]


def first_entry() -> dict[str, Any]:
    """The British view of the adjudication holding the German movement of turn 1 (the first entry, 8.2)."""
    for path in sorted(TURNS.glob("*/british.yaml")):
        view = dict(yamlio.load_file(path).data)
        if "german-movement" in (view.get("phases") or []) and view["state"]["turn"] == 1:
            return view
    raise AssertionError("the sample has no British view of the German movement of turn 1")


# --- what the British saw appear -----------------------------------------------------------------

def test_the_british_are_told_which_german_stacks_they_see_after_the_entry() -> None:
    view = first_entry()
    enemy = view["state"]["enemy"]
    assert enemy, "the German entry put no unit on the map"
    assert not any(e.get("type") == "move" for e in view["events"])  # 6.6: German moves are not shown...
    happened = section(report_text(view), "What happened")
    assert "Nothing happened" not in happened  # ...but what they led to is
    count = sum(s["count"] for s in enemy.values())
    assert f"{count} in {len(enemy)} stack(s)" in happened
    for hex_id, stack in enemy.items():  # each stack by its hex and top unit, the units beneath only counted
        beneath = f" (+{stack['count'] - 1} beneath)" if stack["count"] > 1 else ""
        assert f"{hex_id} {stack['top']['unit']}{beneath}" in happened
    due = next(line for line in happened.splitlines() if "due to enter on turn 1 (8.2)" in line)
    for hex_id in ("3100", "3900", "4300", "4700"):  # 8.2: turn 1's entry hexes, 2100 is turn 4's
        assert hex_id in due
    assert "2100" not in due


def test_the_stacks_seen_name_no_unit_beneath_a_top() -> None:
    view = first_entry()
    deep = [stack for stack in view["state"]["enemy"].values() if stack["count"] > 1]
    assert deep, "no German stack of two or more in the sample's first entry"
    german = {uid for uid in CTX.counters if uid.startswith("G-")}
    tops = {stack["top"]["unit"] for stack in view["state"]["enemy"].values()}
    happened = section(report_text(view), "What happened")
    named = set(re.findall(r"G-[A-Z]+\d+", happened))
    assert named and named <= tops and named <= german


def test_no_german_unit_on_the_map_is_said_too() -> None:
    view = copy.deepcopy(first_entry())
    view["state"]["enemy"] = {}
    assert "No German unit is on the map after the German phases (6.6)." in report_text(view)


def test_the_german_side_hears_of_the_british_phases_the_same_way() -> None:
    for path in sorted(TURNS.glob("*/german.yaml")):
        view = dict(yamlio.load_file(path).data)
        if any(p.startswith("british") for p in view.get("phases") or []) and view["state"]["enemy"]:
            happened = section(report_text(view), "What happened")
            assert "British units seen on the map after the British phases (6.6)" in happened
            return
    raise AssertionError("no German view of a British player turn with British units on the map")


def test_a_view_of_own_phases_only_adds_nothing() -> None:
    view = sample(1, "german")  # the German movement and combat: the British did nothing to see
    assert "seen on the map after" not in report_text(view)


# --- the entry schedule (8.2) ----------------------------------------------------------------------

def test_the_german_report_lists_every_unit_waiting_to_enter() -> None:
    view = sample(1, "german")
    standing = section(report_text(view), "Where things stand")
    waiting = [uid for uid, u in view["state"]["units"].items() if u["status"] == "container"]
    assert waiting
    for uid in waiting:
        entry = CTX.entry_for(uid)
        assert entry is not None
        line = next(line for line in standing.splitlines() if re.search(rf"\b{re.escape(uid)}\b", line))
        assert " or ".join(entry.hexes) in line and ("(8.2)" in line or "(8.3)" in line)
    turn4 = [line for line in standing.splitlines() if line.strip().startswith("To enter on turn 4")]
    assert len(turn4) == 3  # the 7th and 8th Divisions and the separate units of IV Corps


def test_units_held_back_are_told_so() -> None:
    view = copy.deepcopy(sample(1, "german"))
    uid = next(u for u in sorted(view["state"]["units"]) if CTX.entry_for(u) and CTX.entry_for(u).turn == 1)  # type: ignore[union-attr]
    view["state"]["units"][uid].update(status="container", hex=None)
    standing = section(report_text(view), "Where things stand")
    line = next(line for line in standing.splitlines() if re.search(rf"\b{re.escape(uid)}\b", line))
    assert "Held back since turn 1" in line and "(8.3)" in line


@pytest.mark.parametrize("turn,shown", [(1, True), (4, False), (9, False)])
def test_the_british_report_has_the_public_schedule_while_entries_remain(turn: int, shown: bool) -> None:
    view = next(v for v in (sample(int(p.parent.name), "british") for p in sorted(TURNS.glob("*/british.yaml")))
                if v["state"]["turn"] == turn and v["state"]["phase"] != "german-movement")
    standing = section(report_text(view), "Where things stand")
    assert ("German entry on turn 4 (8.2): IV Corps 7th Division through 3900; IV Corps 8th Division through "
            "2100; IV Corps separate units through 3900 or 2100." in standing) == shown
    assert not re.search(r"G-[A-Z]+\d+", standing)  # the public schedule names no unit


# --- entries and exits in words ----------------------------------------------------------------

def _sentence(event: dict[str, Any], side: str = "german") -> str:
    view = sample(1, side)
    adapter = adapter_for(view)
    assert adapter is not None
    said = adapter.sentence(event, view)
    assert said is not None
    return said


def test_an_entry_without_a_move_says_where_the_unit_entered() -> None:
    event = {"type": "move", "side": "german", "section": "8.3", "units": ["G-IR20"], "from": None,
             "path": ["3900"], "march": False, "entered": "3900", "column": 1, "automatic": True}
    assert _sentence(event) == "German G-IR20 entered the map at 3900 when due (8.3)."


def test_an_entry_and_march_names_the_hex_reached() -> None:
    event = {"type": "move", "side": "german", "section": "8.4", "units": ["G-IR12"], "from": None,
             "path": ["3100", "3001", "2901"], "march": True, "entered": "3100", "column": 1}
    assert _sentence(event) == "German G-IR12 entered the map at 3100 and marched to 2901 (8.4)."


def test_an_exit_says_the_unit_left_the_map() -> None:
    event = {"type": "move", "side": "british", "section": "4.4", "units": ["B-H"], "from": "1625",
             "path": ["1626", "1627", "1628", "off"], "march": False, "exited": True}
    assert _sentence(event, "british") == "British B-H moved from 1625 to 1628 and left the map (4.4)."
    event.update(**{"from": "1628", "path": ["off"]})
    assert _sentence(event, "british") == "British B-H left the map from 1628 (4.4)."


def test_no_sample_sentence_moves_a_unit_to_where_it_was_or_to_off() -> None:
    checked = 0
    for path in sorted(TURNS.glob("*/*.yaml")):
        if path.name == "turn.yaml":
            continue
        view = dict(yamlio.load_file(path).data)
        for event in view["events"]:
            if event.get("type") != "move":
                continue
            said = _sentence(event, view["side"])
            assert " to off" not in said and "map edge" not in said, said
            assert not re.search(r"from (\d{4}) to \1\b", said), said
            checked += 1
    assert checked > 100


# --- the map: entry and exit hexes, a move off the map ------------------------------------------

@pytest.mark.parametrize("side", ["british", "german"])
def test_entry_and_exit_hexes_are_outlined_for_both_sides(side: str) -> None:
    root = ET.fromstring(map_svg(sample(1, side)))
    outlined = root.find(f".//{NS}g[@id='outlined']")
    assert outlined is not None
    marks = {(el.get("data-kind"), el.get("data-hex")) for el in outlined.iter(f"{NS}g")}
    assert {h for k, h in marks if k == "entry"} == set(ENTRY_HEXES)
    assert {h for k, h in marks if k == "exit"} == set(EXIT_HEXES)
    legend = root.find(f".//{NS}g[@id='legend']")
    assert legend is not None
    keys = {el.get("class") for el in legend.iter(f"{NS}g")}
    assert {"key key-mark-entry", "key key-mark-exit"} <= keys
    tips = {el.get("data-hex"): "".join(t.text or "" for t in el.iter(f"{NS}title"))
            for el in outlined.iter(f"{NS}g") if el.get("data-kind") == "entry"}
    assert "17th Division on turn 1" in tips["4700"] and "no division" in tips["2700"]


def exit_views() -> list[dict[str, Any]]:
    out = []
    for path in sorted(TURNS.glob("*/british.yaml")):
        view = dict(yamlio.load_file(path).data)
        if any(e.get("type") == "move" and (e.get("path") or [""])[-1] == "off" for e in view["events"]):
            out.append(view)
    return out


def test_a_british_view_with_map_exits_renders_with_each_exit_drawn_out_of_the_map() -> None:
    views = exit_views()
    assert views, "the recorded sample holds no British exit (4.4)"
    for view in views:
        root = ET.fromstring(map_svg(view))  # this raised "hex id must be four digits ... 'off'"
        lay = Layout(CTX.map, None)
        overlay = root.find(f".//{NS}g[@id='last-adjudication']")
        assert overlay is not None
        for event in view["events"]:
            path = event.get("path") or []
            if event.get("type") != "move" or path[-1:] != ["off"]:
                continue
            items = [el for el in overlay.iter(f"{NS}g") if el.get("data-units") == " ".join(event["units"])
                     and el.get("data-to") == "off"]
            assert len(items) == 1
            line = items[0].find(f"{NS}polyline")
            assert line is not None and "exit" in (line.get("class") or "")
            points = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
            last_hex = path[-2] if len(path) > 1 else event["from"]
            cx, cy = lay.centre(Hex.parse(last_hex))
            assert math.hypot(points[-1][0] - cx, points[-1][1] - cy) > R  # out of its last hex
            assert "left the map" in "".join(t.text or "" for t in items[0].iter(f"{NS}title"))


def test_a_one_hex_exit_is_drawn_towards_the_map_edge() -> None:
    state = copy.deepcopy(dict(yamlio.load_file(TURNS / "0001" / "turn.yaml").data)["state"])
    event = {"type": "move", "side": "british", "section": "4.4", "units": ["B-H"], "from": "1628",
             "path": ["off"], "march": False, "exited": True}
    view = dict(yamlio.load_bytes(view_bytes(Toc(), state, "british", ["british", "german"], [event]), "v.yaml").data)
    root = ET.fromstring(map_svg(view))
    items = [el for el in root.iter(f"{NS}g") if el.get("data-kind") == "move" and el.get("data-to") == "off"]
    assert len(items) == 1
    line = items[0].find(f"{NS}polyline")
    assert line is not None
    (x0, y0), (x1, y1) = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
    assert y1 > y0 + R  # 1628 is on the south edge: the arrow points down, off the map
