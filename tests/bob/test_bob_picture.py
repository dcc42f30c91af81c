"""Pictures and reports of Band of Brothers views (the bob adapter, pbem/rulesets/bob/picture.py).

A short bot game on the sample scenario gives real views; every one of them is drawn and told.
The fog tests search the drawing's bytes: a unit under a conceal marker is never named in the
other side's picture, whatever the view of that side holds.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.ruleset import register
from pbem.demo import setup_demo
from pbem.geometry.hexgrid import Hex
from pbem.render import map_svg, report_text
from pbem.render.adapters import adapter_for
from pbem.rulesets.bob import Bob
from pbem.rulesets.bob.context import SIDES, other, prepare
from pbem.rulesets.bob.events import EVENTS
from pbem.rulesets.bob.fog import visible
from pbem.rulesets.bob.picture import BobAdapter, display_map, side_name
from pbem.testing import view_bytes

SCENARIO = Path(__file__).resolve().parents[2] / "samples" / "bob" / "scenario.yaml"
ROUNDS = 40  # at most: the game is played until turn 2 begins (set-up, impulses, rout, melee, recovery)
Drawn = list[tuple[Path, dict[str, Any], str]]  # (view file, view, its picture)


@pytest.fixture(scope="module", autouse=True)
def bob_registered() -> None:
    register("bob", "pbem.rulesets.bob:Bob")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, bob_registered: None) -> Path:
    root = tmp_path_factory.mktemp("bob-picture")
    game = setup_demo("bob", SCENARIO, root, say=lambda _: None, seed=b"bob picture", chain_length=64)
    for _ in range(ROUNDS):
        if not game.round():
            break
        last = sorted((root / "game" / "turns").glob("*/turn.yaml"))[-1]
        if any(e["type"] == "turn" and e["turn"] > 1 for e in yamlio.load_file(last).data["events"]):
            break
    return root / "game"


@pytest.fixture(scope="module")
def drawn(played: Path) -> Drawn:
    """Every view of the game (view 0 and each turn's, both sides) with its picture."""
    files = sorted(played.glob("views/0000/*.yaml")) + sorted(played.glob("turns/*/*.yaml"))
    views = [(f, dict(yamlio.load_file(f).data)) for f in files if f.name != "turn.yaml"]
    return [(f, view, map_svg(view)) for f, view in views]


def _master(view_file: Path) -> dict[str, Any] | None:
    """The master turn file a view was made from (None for view 0, made from game.yaml)."""
    turn = view_file.parent / "turn.yaml"
    return dict(yamlio.load_file(turn).data) if turn.exists() else None


def _named(uid: str, data: bytes | str) -> bool:
    """Whether the id stands in the text as a whole name (G1 is not in GS1 nor in G10)."""
    text = data if isinstance(data, str) else data.decode("utf-8")
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(uid)}(?![A-Za-z0-9-])", text) is not None


def _element_ids(svg: str) -> list[str]:
    return [el.get("id", "") for el in ET.fromstring(svg).iter()]


# --- every view of a short game ---------------------------------------------------------------------

def test_the_game_reached_the_end_of_a_turn_with_fire_and_moves(played: Path) -> None:
    kinds = {e["type"] for f in sorted(played.glob("turns/*/turn.yaml")) for e in yamlio.load_file(f).data["events"]}
    assert {"setup", "turn", "move", "fire", "check", "phase"} <= kinds


def test_every_view_is_drawn_with_one_element_per_piece_it_holds(drawn: Drawn) -> None:
    assert len(drawn) >= 10
    for path, view, svg in drawn:
        assert isinstance(adapter_for(view), BobAdapter)
        ids = [i for i in _element_ids(svg) if i.startswith("unit-")]
        state = view["state"]
        expected = {f"unit-{uid}" for uid in state["units"]}
        expected |= {f"unit-{p.get('unit') or p['marker']}" for p in state["enemy"]}
        expected |= {f"unit-{uid}" for uid in state["enemy_eliminated"]}
        assert len(ids) == len(set(ids)) and set(ids) == expected, path
        assert f"as the {side_name(view['side'])} side sees it" in report_text(view)


def test_own_concealed_units_show_their_id_and_their_marker(drawn: Drawn) -> None:
    checked = 0
    for path, view, svg in drawn:
        root = ET.fromstring(svg)
        for uid, unit in view["state"]["units"].items():
            if unit["status"] != "active" or not unit["concealed"]:
                continue
            counter = next(el for el in root.iter() if el.get("id") == f"unit-{uid}")
            assert "flag-concealed" in counter.get("class", "")
            badges = [el for el in root.iter() if el.get("data-kind") == "conceal" and el.get("data-unit") == uid]
            assert len(badges) == 1 and badges[0].get("data-hex") == unit["hex"], path
            assert unit["marker"] in "".join(badges[0].itertext())
            checked += 1
    assert checked > 0


def test_an_enemy_conceal_marker_is_drawn_by_its_name_with_used_and_op_fire_only(drawn: Drawn) -> None:
    checked = 0
    for path, view, svg in drawn:
        root = ET.fromstring(svg)
        for piece in view["state"]["enemy"]:
            if piece.get("unit"):
                continue
            name = piece["marker"]
            counter = next(el for el in root.iter() if el.get("id") == f"unit-{name}")
            assert "enemy" in counter.get("class", "").split() and counter.get("data-hex") == piece["hex"]
            kinds = {el.get("data-kind") for el in root.iter() if el.get("data-unit") == name}
            assert kinds == {k for k in ("used", "opfire") if piece[k]}, path
            checked += 1
    assert checked > 0


def test_the_other_side_never_sees_the_id_under_a_marker(played: Path, drawn: Drawn) -> None:
    """Byte search: a unit concealed in the master state is named in the other side's picture only
    where that side's view itself names it (an event from before the marker went on); the
    scenario card every view carries (`state.setup`, public) lists every unit and is left out."""
    checked = 0
    ctx = prepare(_a_state(played)["setup"])
    for path, view, picture in drawn:
        master = _master(path)
        if master is None:
            continue
        svg = picture.encode("utf-8")
        text = yamlio.dump({**view, "state": {k: v for k, v in view["state"].items() if k != "setup"}})
        for uid, unit in master["state"]["units"].items():
            if ctx.units[uid].side == view["side"] or unit["status"] != "active" or not unit["concealed"]:
                continue
            assert _named(unit["marker"], svg), (path, uid)
            if not _named(uid, text):
                assert not _named(uid, svg), (path, uid)
                checked += 1
    assert checked > 0


# --- one state, both sides ---------------------------------------------------------------------------

def _a_state(played: Path) -> dict[str, Any]:
    last = sorted(played.glob("turns/*/turn.yaml"))[-1]
    return copy.deepcopy(dict(yamlio.load_file(last).data["state"]))


def _view(state: dict[str, Any], side: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return dict(yamlio.load_bytes(view_bytes(Bob(), state, side, list(SIDES), events or []), "view.yaml").data)


def _concealed_german(played: Path) -> tuple[dict[str, Any], str, str]:
    """A state where a German squad on the map stands under a fresh conceal marker."""
    state = _a_state(played)
    ctx = prepare(state["setup"])
    uid = next(u for u, unit in sorted(state["units"].items()) if unit["status"] == "active"
               and ctx.units[u].side == "german" and ctx.units[u].kind == "squad" and not unit["concealed"])
    marker = f"DE-{state['markers']['german']}"
    state["markers"]["german"] += 1
    state["units"][uid].update(concealed=True, marker=marker)
    return state, uid, marker


def test_the_same_state_names_the_unit_to_its_owner_and_only_the_marker_to_the_other_side(played: Path) -> None:
    state, uid, marker = _concealed_german(played)
    own = map_svg(_view(state, "german")).encode("utf-8")
    theirs = map_svg(_view(state, "american")).encode("utf-8")
    assert _named(uid, own) and _named(marker, own)
    assert _named(marker, theirs) and not _named(uid, theirs)


def test_what_is_under_a_marker_changes_nothing_in_the_other_sides_picture_or_report(played: Path) -> None:
    state, uid, marker = _concealed_german(played)
    changed = copy.deepcopy(state)
    changed["units"][uid].update(reduced=not state["units"][uid]["reduced"], supp=2, cp=True)
    before, after = _view(state, "american"), _view(changed, "american")
    assert map_svg(before) == map_svg(after) and report_text(before) == report_text(after)
    assert map_svg(_view(state, "german")) != map_svg(_view(changed, "german"))


def test_markers_on_a_unit_are_tokens_naming_it(played: Path) -> None:
    state = _a_state(played)
    ctx = prepare(state["setup"])
    uid = next(u for u, unit in sorted(state["units"].items()) if unit["status"] == "active"
               and ctx.units[u].side == "american" and not unit["concealed"])
    state["units"][uid].update(supp=1, used=True, opfire=False, cp=True)
    for side in SIDES:
        root = ET.fromstring(map_svg(_view(state, side)))
        kinds = sorted(el.get("data-kind", "") for el in root.iter() if el.get("data-unit") == uid)
        assert kinds == ["cp", "supp-1", "used"], side
    state["units"][uid]["supp"] = 2
    root = ET.fromstring(map_svg(_view(state, "german")))
    assert [el.get("data-weight") for el in root.iter()
            if el.get("data-kind") == "supp-2" and el.get("data-unit") == uid] == ["heavy"]


def test_objectives_show_who_holds_them_and_foxholes_stand_where_the_view_says(played: Path) -> None:
    state = _a_state(played)
    hex_id = sorted(state["held"])[0]
    for holder in SIDES:
        state["held"][hex_id] = holder
        state["foxholes"] = [hex_id]
        root = ET.fromstring(map_svg(_view(state, "american")))
        held = [el for el in root.iter() if el.get("data-kind", "").startswith("objective-") and
                el.get("data-hex") == hex_id]
        assert [el.get("data-kind") for el in held] == [f"objective-{holder}"]
        assert [el.get("data-hex") for el in root.iter() if el.get("data-kind") == "foxhole"] == [hex_id]


# --- sentences -----------------------------------------------------------------------------------------

FIRE: dict[str, Any] = {"type": "fire", "side": "american", "section": "6.0", "firer": "A3", "from": "0504", "target": "0507",
        "fire": "fire", "firepower": 6, "long": False, "directed": False, "roll": 4,
        "results": [{"unit": "G2", "as": "G2", "modifiers": {"woods": 1}, "modified": 5, "result": "suppressed",
                     "moving": False},
                    {"unit": "G4", "as": "DE-2", "modifiers": {"woods": 1, "concealed": 1}, "modified": 6,
                     "result": "none", "moving": False}]}
SAMPLES: dict[str, dict[str, Any]] = {
    "setup": {"type": "setup", "side": "german", "section": "18.0", "units": {"G1": "0503", "G2": "0504"}},
    "turn": {"type": "turn", "section": "1.0", "turn": 2},
    "phase": {"type": "phase", "section": "1.0", "phase": "rout", "turn": 1},
    "check": {"type": "check", "side": "german", "section": "5.0", "unit": "G4", "marker": "DE-2", "kind": "morale",
              "purpose": "move", "morale": 8, "added": 0, "rolls": [9, 3], "passed": True, "cp": True},
    "move": {"type": "move", "side": "german", "section": "5.0", "unit": "G4", "as": "DE-2", "from": "0605",
             "path": ["0604", "0603"], "retreat": False, "ended": "entered an enemy's hex"},
    "fire": FIRE,
    "mark": {"type": "mark", "side": "german", "section": "4.0", "unit": "G4", "as": "DE-2", "mark": "opfire"},
    "cp": {"type": "cp", "side": "german", "section": "3.0", "unit": "G4", "as": "DE-2", "why": "pre-turn action"},
    "reveal": {"type": "reveal", "side": "german", "section": "15.0", "marker": "DE-3", "unit": "GD1", "hex": "0903",
               "why": "in open ground in enemy sight", "decoy": True},
    "turn-facing": {"type": "turn-facing", "side": "german", "section": "V4", "unit": "G4", "as": "DE-2",
                    "hex": "0704", "from": 4, "to": 1},
    "close-assault": {"type": "close-assault", "side": "german", "section": "V8", "unit": "G4", "as": "DE-2",
                      "vehicle": "AV1", "hex": "0605", "roll": 2, "modifier": 1, "strength": 5, "result": "destroyed"},
    "artillery": {"type": "artillery", "side": "german", "section": "17.0", "support": "DE-ART", "at": "0605",
                  "prof": 7, "accuracy": 6, "prof_roll": 3, "accuracy_roll": 8, "landed": "0607",
                  "drift": {"hexes": 2, "d6": 4, "direction": 3}},
    "bombard": {"type": "bombard", "side": "german", "section": "17.0", "support": "DE-ART", "hex": "0607",
                "firepower": 6, "roll": 4, "results": [{"unit": "A1", "as": "A1", "modifiers": {}, "modified": 4,
                                                          "result": "suppressed", "moving": False}]},
    "concealed": {"type": "concealed", "side": "german", "section": "15.0", "unit": "G4", "marker": "DE-5",
                  "hex": "0704"},
    "rout": {"type": "rout", "side": "german", "section": "11.0", "unit": "G4", "as": "DE-2", "from": "0607",
             "to": "0704", "eliminated": False},
    "melee": {"type": "melee", "section": "12.0", "hex": "0603", "rolls": {"A2": [3, 10], "G3": [10, 9]},
              "hits": {"american": 0, "german": 1}, "losses": [{"unit": "G3", "result": "reduced"}]},
    "order-void": {"type": "order-void", "side": "german", "section": "6.0", "unit": "G4",
                   "why": "the target hex holds no enemy unit any more"},
    "concede": {"type": "concede", "side": "german", "section": "18.0"},
    "victory": {"type": "victory", "section": "18.0", "winner": "american", "reason": "the last turn is over",
                "scores": {"american": 6, "german": 4}},
}


def _adapter(drawn: Drawn) -> tuple[BobAdapter, dict[str, Any]]:
    view = drawn[-1][1]
    adapter = adapter_for(view)
    assert isinstance(adapter, BobAdapter)
    return adapter, view


def test_the_samples_are_every_event_type_as_the_catalogue_has_it() -> None:
    assert set(SAMPLES) == set(EVENTS.events)
    for event in SAMPLES.values():
        assert EVENTS.problems(event) == [], event


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_event_type_reads_as_a_sentence_citing_its_section_whole_and_masked(drawn: Drawn, kind: str) -> None:
    adapter, view = _adapter(drawn)
    event = SAMPLES[kind]
    said = adapter.sentence(event, view)
    assert said and said.endswith(".") and f"({event['section']}" in said, said
    ctx = prepare(view["state"]["setup"])
    for side in SIDES:
        shown = visible(ctx, event, side)
        if shown is None:
            continue
        masked = adapter.sentence(shown, view)
        assert masked and f"({event['section']}" in masked, masked
        if event.get("side") not in (None, side) and event.get("as") not in (None, event.get("unit")):
            assert not _named(str(event["unit"]), masked), masked


def test_the_fire_sentence_gives_roll_modifiers_firepower_and_each_result(drawn: Drawn) -> None:
    adapter, view = _adapter(drawn)
    said = adapter.sentence(FIRE, view)
    assert said == ("American A3 fired at 0507 (6.0): roll 4, +1 woods = 5 against firepower 6: G2 suppressed; "
                    "roll 4, +1 woods +1 concealed = 6 against firepower 6: DE-2 (G4) no effect.")
    # fog masks a miss on a marker for both sides, to the marker and `none` alone, the entries listed by
    # what is shown (the unit's id would place it); its owner names the unit from its own view (`_own_names`)
    for side in SIDES:
        masked = visible(prepare(view["state"]["setup"]), FIRE, side)
        assert masked is not None
        assert masked["results"] == [{"as": "DE-2", "result": "none", "moving": False}, FIRE["results"][0]]


def test_a_masked_check_names_the_marker_only(drawn: Drawn) -> None:
    adapter, view = _adapter(drawn)
    ctx = prepare(view["state"]["setup"])
    assert visible(ctx, SAMPLES["check"], "american") is None  # a passed check under a marker shows by the move
    shown = visible(ctx, {**SAMPLES["check"], "passed": False}, "american")
    assert shown == {"type": "check", "side": "german", "section": "15.0", "marker": "DE-2", "purpose": "move",
                     "passed": False, "cp": True}
    assert adapter.sentence(shown, view) == "German marker DE-2 failed its check to move (15.0)."
    whole = adapter.sentence(SAMPLES["check"], view)
    assert whole == ("German G4 (under DE-2) passed its Morale Check to move: rolled 9 against morale 8, then 3 on a "
                     "command point's re-roll (3.0) (5.0).")


def test_every_event_of_the_game_reads_as_a_sentence_with_its_section(drawn: Drawn) -> None:
    count = 0
    for path, view, _ in drawn:
        adapter = adapter_for(view)
        assert adapter is not None
        for event in view["events"]:
            said = adapter.sentence(event, view)
            assert said and f"({event['section']}" in said, (path, event)
            count += 1
    assert count > 0


def test_the_state_lines_give_turn_impulse_cps_objectives_and_the_enemy_losses(played: Path) -> None:
    state = _a_state(played)
    ctx = prepare(state["setup"])
    german = sorted(u for u, unit in state["units"].items() if ctx.units[u].side == "german"
                    and unit["status"] == "active" and not ctx.units[u].decoy)
    state.update(phase="operations", active="german", impulse=3, turn=1, cps={"american": 2, "german": 0})
    state["units"][german[0]].update(status="eliminated", hex=None)
    decoys = [u for u, unit in state["units"].items() if ctx.units[u].side == "german" and ctx.units[u].decoy]
    for uid in decoys:
        state["units"][uid].update(status="removed", hex=None, concealed=False, marker=None)
    view = _view(state, "american")
    adapter = adapter_for(view)
    assert adapter is not None
    lines = adapter.state_lines(view)
    text = "\n".join(lines)
    assert lines[0] == f"Turn 1 of {ctx.card.turns}, Operations Phase, the German impulse (impulse 3, 4.0)."
    assert "Command points left this turn (3.0): American 2, German 0." in lines
    for hex_id, holder in state["held"].items():
        assert f"{hex_id} ({ctx.card.objectives[hex_id][0]} VP) held by {side_name(holder)}" in text
    lost = sorted(u for u, unit in state["units"].items() if ctx.units[u].side == "german"
                  and unit["status"] == "eliminated")
    assert german[0] in lost and f"eliminated: {', '.join(lost)};" in text
    assert f"decoys found: {len(decoys)} (15.0)" in text
    assert side_name(other("american")) == "German" and side_name("american") == "American"


# --- the board and the overlay ------------------------------------------------------------------------

def test_the_scenarios_orchards_and_dike_road_are_drawn_on_the_printed_map(played: Path) -> None:
    state = _a_state(played)
    ctx = prepare(state["setup"])
    open_hexes = [h.id for h in ctx.map.hexes() if ctx.map.terrain(h) == "open"]
    printed = sum(1 for h in ctx.map.hexes() if ctx.map.terrain(h) == "orchard")
    state["setup"] = {**state["setup"], "orchards": open_hexes[:2], "dike_road": open_hexes[2:3]}
    svg = map_svg(_view(state, "german"))
    assert len(re.findall(r'class="hex t-orchard"', svg)) == printed + 2
    assert len(re.findall(r'class="feature f-dike"', svg)) == len(prepare(state["setup"]).dikes)
    shown = display_map(prepare(state["setup"]))
    assert shown.terrain(Hex.parse(open_hexes[0])) == "orchard" and "dike" in shown.features(Hex.parse(open_hexes[2]))
    assert display_map(ctx) is ctx.map  # nothing added by the scenario: the printed map itself


def test_the_set_up_areas_are_shaded_during_the_set_up_only(drawn: Drawn) -> None:
    first, later = drawn[0][1], drawn[-1][1]
    assert first["state"]["phase"] == "setup" and later["state"]["phase"] != "setup"
    ctx = prepare(first["state"]["setup"])
    root = ET.fromstring(drawn[0][2])
    for side in SIDES:
        shaded = sorted(el.get("data-hex", "") for el in root.iter() if el.get("data-kind") == f"setup-{side}")
        assert shaded == sorted(ctx.setup_area(side)) and shaded
    assert "setup-" not in drawn[-1][2]


def test_the_overlay_draws_moves_fire_routs_melees_and_reveals_as_each_side_may_see_them(played: Path) -> None:
    state, uid, marker = _concealed_german(played)
    ctx = prepare(state["setup"])
    at = state["units"][uid]["hex"]
    near = [n for n in ctx.hexes.neighbours(at) if ctx.hexes.on_map(n)]
    american = next(u for u, unit in sorted(state["units"].items()) if unit["status"] == "active"
                    and ctx.units[u].side == "american")
    there = state["units"][american]["hex"]
    events = [
        {**SAMPLES["move"], "unit": uid, "as": marker, "from": near[0], "path": [near[1], at], "ended": "stopped"},
        {**FIRE, "firer": american, "from": there, "target": at,
         "results": [{**FIRE["results"][1], "unit": uid, "as": marker}]},
        {**SAMPLES["rout"], "unit": uid, "as": marker, "from": at, "to": near[2]},
        {**SAMPLES["melee"], "hex": near[3], "rolls": {"A2": [3, 10], "GX": [10, 9]},
         "losses": [{"unit": "GX", "result": "reduced"}]},  # a melee naming no unit of this test
        {**SAMPLES["reveal"], "hex": near[4]},
    ]
    for side in SIDES:
        svg = map_svg(_view(state, side, events))
        root = ET.fromstring(svg)
        acts = {el.get("data-kind"): el for el in root.iter() if "action" in el.get("class", "").split()}
        moves = [el for el in root.iter() if el.get("data-kind") == "move" and "action" in el.get("class", "")]
        assert [m.get("data-from") for m in moves] == [f"{near[0]} {near[1]} {at}", f"{at} {near[2]}"]  # move, rout
        fire = acts["fire"]
        assert (fire.get("data-from"), fire.get("data-to")) == (there, at)
        label = f"6f r4: {marker} –" if side == "american" else f"6f r4: {marker} ({uid}) –"
        assert fire.get("data-label") == label
        assert [el.get("data-hex") for el in root.iter() if el.get("data-kind") == "melee"] == [near[3]]
        assert [el.get("data-hex") for el in root.iter() if el.get("data-kind") == "reveal"] == [near[4]]
        assert _named(uid, svg) == (side == "german"), side
