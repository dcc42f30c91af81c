"""Pictures and reports for The Old Contemptibles views (the toc adapter)."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.render import map_svg, report_text
from pbem.render.adapters import adapter_for
from pbem.rulesets.toc import Toc, selfplay
from pbem.rulesets.toc.config import config
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
        cfg = config(state["setup"])
        stacks: dict[str, list[tuple[int, str]]] = {}
        for uid, u in state["units"].items():
            if u["status"] == "map" and cfg.counters[uid].side == "german":
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
