"""The map picture (pbem.render.map_svg): structure, zoom, and fog of war in pictures.

Views are built exactly as the referee writes them (`pbem.testing.view_bytes`) from states of
bot games, so the picture is tested on the same bytes a player receives.
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.render import map_svg, report_text
from pbem.rulesets.fbsm import Fbsm, selfplay
from pbem.core.ruleset import bind
from pbem.testing import view_bytes

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
RULESET = Fbsm()
SIDES = ["us", "german"]
NS = "{http://www.w3.org/2000/svg}"


def _situations() -> list[dict[str, Any]]:
    out = []
    for index, state in enumerate(selfplay.games_states(SCENARIO, b"render")):
        if index % 9 == 4:
            out.append(state)
    return out


SITUATIONS = _situations()
FIRE = {"type": "fire", "side": "german", "section": "10.10", "target": "2234", "firers": ["G01", "G02"],
        "from": ["2236"], "strength": 5, "defense": 2, "odds": 2, "close_assault": False,
        "results": [{"unit": "US01", "side": "us", "roll": 3, "eliminated": False}]}
BOMBARD = [{"type": "bombard", "side": "german", "section": "11.2", "target": "2234", "markers": ["heavy-1", "light-2"],
            "spotter": "G01"},
           {"type": "drift", "side": "german", "section": "11.3", "marker": "heavy-1", "target": "2234", "roll": 4,
            "drift": 1, "final": "2233", "lost": False},
           {"type": "drift", "side": "german", "section": "11.3", "marker": "light-2", "target": "2234", "roll": 6,
            "drift": 3, "final": None, "lost": True},
           {"type": "bombardment", "side": "german", "section": "11.4", "hex": "2233", "markers": ["heavy-1"],
            "strength": 8, "defense": 2, "odds": 4,
            "results": [{"unit": "US01", "side": "us", "roll": 2, "eliminated": True}]}]
MOVE = {"type": "move", "side": "german", "section": "9.1", "unit": "G01", "from": "2236", "path": ["2235"],
        "mp_half": 2}


def view_of(state: dict[str, Any], side: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return dict(yamlio.load_bytes(view_bytes(RULESET, state, side, SIDES, events or []), "view.yaml").data)


def ids(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.get("id", "") for el in root.iter() if el.get("id")]


def expected_units(view: dict[str, Any]) -> set[str]:
    state = view["state"]
    units = set(state["units"])
    units |= {stack["top"]["unit"] for stack in state["enemy"].values()}
    units |= set(state["carnage"]) | set(state["exited"])
    return units


def test_there_are_situations_with_enemy_stacks() -> None:
    assert any(s["count"] > 1 for st in SITUATIONS for s in view_of(st, "us")["state"]["enemy"].values())


@pytest.mark.parametrize("side", SIDES)
def test_every_unit_of_the_view_has_exactly_one_element(side: str) -> None:
    for state in SITUATIONS[::3]:
        view = view_of(state, side)
        found = [i[len("unit-"):] for i in ids(map_svg(view)) if i.startswith("unit-")]
        assert len(found) == len(set(found)), "a unit id is on more than one element"
        assert set(found) == expected_units(view)


def test_the_svg_has_title_legend_grid_and_counters_with_values() -> None:
    view = view_of(SITUATIONS[2], "us", [FIRE, MOVE])
    svg = map_svg(view)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    all_ids = set(ids(svg))
    assert {"title", "legend", "terrain", "hex-ids", "hexsides", "units", "last-adjudication"} <= all_ids
    title = "".join(root.find(f".//{NS}g[@id='title']").itertext())  # type: ignore[union-attr]
    assert f"turn {view['state']['turn']}" in title and view["state"]["phase"] in title
    hexes = root.findall(f".//{NS}g[@id='terrain']/{NS}polygon")
    assert len(hexes) == len(bind(RULESET, view["state"]["setup"]).context.map.hexes())
    active = [uid for uid, u in view["state"]["units"].items() if u["status"] == "active"]
    assert active
    for uid in active:
        el = root.find(f".//{NS}g[@id='unit-{uid}']")
        assert el is not None and "counter" in el.get("class", "")
        c = bind(RULESET, view["state"]["setup"]).context.counters[uid]
        assert f"{c.fire}-{c.range}-{c.move}" in list(el.itertext())
    overlay = root.find(f".//{NS}g[@id='last-adjudication']")
    assert overlay is not None and len(overlay.findall(f".//{NS}polyline")) == 1  # the move
    assert "2:1 3" in "".join(overlay.itertext())  # the fire: odds and the roll


def test_enemy_stacks_show_their_count() -> None:
    view = view_of(SITUATIONS[2], "us")
    root = ET.fromstring(map_svg(view))
    for hex_id, stack in view["state"]["enemy"].items():
        el = root.find(f".//{NS}g[@id='unit-{stack['top']['unit']}']")
        assert el is not None
        texts = list(el.itertext())
        assert (str(stack["count"]) in texts) == (stack["count"] > 1)


def test_area_draws_only_that_part() -> None:
    view = view_of(SITUATIONS[2], "us")
    root = ET.fromstring(map_svg(view, area="2030-2640"))
    shown = ["".join(t.itertext()) for t in root.findall(f".//{NS}g[@id='hex-ids']/{NS}text")]
    assert len(shown) == 7 * 11
    assert "2030" in shown and "2640" in shown and "1930" not in shown and "2641" not in shown
    full = ET.fromstring(map_svg(view))
    assert float(root.get("width", 0)) < float(full.get("width", 0))


def test_unknown_ruleset_is_refused() -> None:
    view = view_of(SITUATIONS[0], "us")
    view["ruleset"] = {"id": "no-such", "version": "1"}
    with pytest.raises(ValueError):
        map_svg(view)


# --- fog of war in pictures -----------------------------------------------------------------------

def _hidden(state: dict[str, Any], side: str) -> list[str]:
    cfg = bind(RULESET, state["setup"]).context
    stacks: dict[str, list[tuple[int, str]]] = {}
    for uid, u in state["units"].items():
        if u["status"] == "active" and cfg.counters[uid].side == side:
            stacks.setdefault(u["hex"], []).append((u["z"], uid))
    return [uid for items in stacks.values() for _, uid in sorted(items)[:-1]]


@pytest.mark.parametrize("viewer", SIDES)
def test_pictures_and_reports_do_not_change_when_hidden_units_do(viewer: str) -> None:
    enemy = "german" if viewer == "us" else "us"
    checked = 0
    for state in SITUATIONS:
        spare = sorted(uid for uid, u in state["units"].items()
                       if u["status"] == "container" and bind(RULESET, state["setup"]).context.side_of(uid) == enemy)
        hidden = _hidden(state, enemy)
        if not spare or not hidden:
            continue
        changed = copy.deepcopy(state)
        a, b = hidden[0], spare[0]
        changed["units"][a], changed["units"][b] = changed["units"][b], changed["units"][a]
        assert changed != state
        events = [FIRE, MOVE, *BOMBARD]
        before, after = view_of(state, viewer, events), view_of(changed, viewer, events)
        svg = map_svg(before)
        assert svg == map_svg(after)
        assert 'data-marker="heavy-1"' in svg and 'data-kind="drift"' in svg  # the markers are drawn
        assert report_text(before) == report_text(after)
        assert report_text(before, "markdown") == report_text(after, "markdown")
        for uid in (a, b):  # neither the unit hidden before nor the one hidden after is named
            assert f"unit-{uid}\"" not in svg and f">{uid}<" not in svg
        checked += 1
    if viewer == "us":
        assert checked > 3


def test_a_change_the_side_may_see_does_change_the_picture() -> None:
    """The converse, so the leak test cannot pass by drawing nothing."""
    state = SITUATIONS[2]
    view = view_of(state, "us")
    hex_id, stack = next(iter(view["state"]["enemy"].items()))
    changed = copy.deepcopy(state)
    changed["units"][stack["top"]["unit"]]["status"] = "container"
    assert map_svg(view) != map_svg(view_of(changed, "us"))


def test_the_dead_a_side_did_not_look_at_are_anonymous_wrecks() -> None:
    """6.5: a German bombardment drifting onto German units shows the US side wrecks, not ids."""
    state = SITUATIONS[2]
    cfg = bind(RULESET, state["setup"]).context
    german = sorted(uid for uid, u in state["units"].items()
                    if u["status"] == "active" and cfg.counters[uid].side == "german")
    a, b = german[0], german[1]
    pictures = []
    for dead in (a, b):
        changed = copy.deepcopy(state)
        changed["units"][dead].update({"status": "eliminated", "hex": "2233", "by": "german"})
        view = view_of(changed, "us")
        assert view["state"]["wrecks"] == {"2233": 1}
        svg = map_svg(view)
        root = ET.fromstring(svg)
        wrecks = [el for el in root.iter(f"{NS}g") if "wreck" in el.get("class", "") and el.get("data-hex") == "2233"]
        assert len(wrecks) == 1 and wrecks[0].get("id") is None
        assert f"unit-{dead}\"" not in svg
        pictures.append((svg, view["state"]["enemy"]))
    if pictures[0][1] == pictures[1][1]:  # the same stacks seen: the picture cannot tell who died
        assert pictures[0][0] == pictures[1][0]
