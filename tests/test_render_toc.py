"""Pictures and reports for The Old Contemptibles views (the toc adapter)."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.render import map_svg, report_text
from pbem.render.adapters import adapter_for
from pbem.rulesets.toc import Toc, selfplay
from pbem.rulesets.toc.context import prepare
from pbem.testing import view_bytes

RULESET = Toc()
SIDES = ["german", "british"]
SITUATIONS = [s for i, s in enumerate(selfplay.games_states({"setup": {}}, b"render-toc")) if i % 11 == 6]
BOMBARD = {"type": "bombard", "side": "german", "section": "10.7", "target": "2708", "with": ["G-FA18"],
           "spotters": ["G-IR48"], "factors": 4, "roll": 3, "modified": 1, "modifiers": {"cover": -2},
           "losses": 0, "results": []}


def view_of(state: dict[str, Any], side: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return dict(yamlio.load_bytes(view_bytes(RULESET, state, side, SIDES, events or []), "view.yaml").data)


@pytest.mark.parametrize("side", SIDES)
def test_every_unit_of_the_view_has_exactly_one_element(side: str) -> None:
    assert SITUATIONS
    for state in SITUATIONS[::2]:
        view = view_of(state, side)
        root = ET.fromstring(map_svg(view))
        found = [el.get("id", "")[5:] for el in root.iter() if el.get("id", "").startswith("unit-")]
        st = view["state"]
        expected = set(st["units"]) | {s["top"]["unit"] for s in st["enemy"].values()}
        expected |= set(st["enemy_dead"]) | set(st["enemy_surrounded"]) | set(st["enemy_exited"])
        assert len(found) == len(set(found)) and set(found) == expected


def test_hidden_units_under_the_top_change_nothing() -> None:
    checked = 0
    for state in SITUATIONS:
        cfg = prepare(state["setup"])
        stacks: dict[str, list[tuple[int, str]]] = {}
        for uid, u in state["units"].items():
            if u["status"] in ("active", "map") and cfg.counters[uid].side == "german":
                stacks.setdefault(u["hex"], []).append((u["z"], uid))
        deep = [sorted(items) for items in stacks.values() if len(items) >= 3]
        if not deep:
            continue
        changed = copy.deepcopy(state)
        (_, a), (_, b) = deep[0][0], deep[0][1]
        changed["units"][a]["z"], changed["units"][b]["z"] = changed["units"][b]["z"], changed["units"][a]["z"]
        before, after = view_of(state, "british"), view_of(changed, "british")
        assert map_svg(before) == map_svg(after) and report_text(before) == report_text(after)
        checked += 1
    assert checked > 0


def test_bombard_sentence_cites_its_section() -> None:
    view = view_of(SITUATIONS[0], "british", [BOMBARD])
    adapter = adapter_for(view)
    assert adapter is not None
    sentence = adapter.sentence(view["events"][0], view)
    assert sentence is not None and sentence.endswith("(10.7).") and "2708" in sentence
    assert sentence in report_text(view)


# --- fog of war in pictures: whatever the enemy hides may change, the picture may not -----------

def _beneath_tops(state: dict[str, Any], side: str) -> list[list[str]]:
    """Per enemy stack of `side`, its units bottom first without the top one (hidden from the other side)."""
    cfg = prepare(state["setup"])
    stacks: dict[str, list[tuple[int, str]]] = {}
    for uid, u in state["units"].items():
        if u["status"] in ("active", "map") and cfg.counters[uid].side == side:
            stacks.setdefault(u["hex"], []).append((u["z"], uid))
    return [[uid for _, uid in sorted(items)[:-1]] for _, items in sorted(stacks.items()) if len(items) > 1]


def _hide_differently(state: dict[str, Any], side: str) -> tuple[dict[str, Any], set[str]]:
    """A copy of the state changed only where `side`'s opponent may not look, and the units changed."""
    changed = copy.deepcopy(state)
    cfg = prepare(state["setup"])
    touched: set[str] = set()
    for below in _beneath_tops(state, side):
        for uid in below:  # a hidden unit's strength (6.6: nothing beneath the top shows)
            unit = changed["units"][uid]
            if unit["steps"] > 1:
                unit["steps"] -= 1
                touched.add(uid)
        if len(below) >= 2:  # and the order of the hidden units
            a, b = below[0], below[1]
            changed["units"][a]["z"], changed["units"][b]["z"] = changed["units"][b]["z"], changed["units"][a]["z"]
            touched |= {a, b}
    mine = sorted(uid for uid, u in state["units"].items()
                  if u["status"] in ("active", "map") and cfg.counters[uid].side == side)
    changed["marched"] = sorted(set(state["marched"]) ^ set(mine[:2]))  # who marched (9.20) is the mover's own
    return changed, touched


@pytest.mark.parametrize("viewer", SIDES)
def test_pictures_do_not_change_when_what_the_enemy_hides_does(viewer: str) -> None:
    enemy = "british" if viewer == "german" else "german"
    checked = 0
    for state in SITUATIONS:
        changed, touched = _hide_differently(state, enemy)
        if not touched:
            continue
        assert changed != state
        for events in ([], [BOMBARD]):
            before, after = view_of(state, viewer, events), view_of(changed, viewer, events)
            svg = map_svg(before)
            assert svg == map_svg(after), "the picture tells what the view hides"
            assert report_text(before) == report_text(after)
            if not events:  # no unit beneath an enemy top is named, typed or valued anywhere
                named = set(before["state"]["units"]) | set(before["state"]["enemy_dead"])
                for uid in touched - named:
                    assert not re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", svg), uid
        checked += 1
    assert checked > 0


def test_a_change_the_side_may_see_does_change_the_toc_picture() -> None:
    """The converse, so the leak test cannot pass by drawing nothing."""
    state = SITUATIONS[0]
    view = view_of(state, "british")
    hex_id, stack = next(iter(view["state"]["enemy"].items()))
    changed = copy.deepcopy(state)
    changed["units"][stack["top"]["unit"]]["steps"] = max(1, stack["top"]["steps"] - 1) \
        if stack["top"]["steps"] > 1 else 2
    changed["control"] = sorted(set(state["control"]) ^ {hex_id})
    after = view_of(changed, "british")
    assert after != view and map_svg(view) != map_svg(after)
