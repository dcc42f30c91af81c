"""The table machinery end to end, through the `patrol` fixture (tests/rulesets/patrol.py):
whole bot games that pass the audit, positions by mail checked from the player's view with
the same verdict as the referee's, fog by line of sight compared byte for byte, and pictures
of the table that show only what the view holds."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pbem.core import api, yamlio
from pbem.core.api import ruleset
from pbem.core.ruleset import Rules, start
from pbem.core.chance import ForcedDice, canonical_json
from pbem.core.errors import PbemError
from pbem.demo import setup_demo
from pbem.render import map_svg

SCENARIO = Path(__file__).parent / "rulesets" / "patrol-scenario.yaml"


def scenario() -> dict[str, Any]:
    return dict(yamlio.load_file(SCENARIO).data)


def started(doc: dict[str, Any] | None = None) -> tuple[Rules, dict[str, Any]]:
    return start(ruleset("patrol"), doc or scenario())


def view_bytes(rules: Rules, state: dict[str, Any], side: str) -> bytes:
    return canonical_json(rules.view(state, side))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("patrol")
    game = setup_demo("patrol", SCENARIO, root, say=lambda _: None, seed=b"patrol fixture")
    while game.round():
        pass
    return root / "game"


def events_of(game: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for turn in sorted((game / "turns").glob("*/turn.yaml")):
        out.extend(yamlio.load_file(turn).data.get("events", []))
    return out


def test_a_bot_game_on_the_table_passes_the_audit(played: Path) -> None:
    assert api.audit(played) == []
    kinds = {event["type"] for event in events_of(played)}
    assert {"moved", "fire"} <= kinds


def test_the_same_seed_plays_the_same_table_game_byte_for_byte(played: Path, tmp_path: Path) -> None:
    again = setup_demo("patrol", SCENARIO, tmp_path, say=lambda _: None, seed=b"patrol fixture")
    while again.round():
        pass
    for turn in sorted((played / "turns").glob("*/turn.yaml")):
        twin = tmp_path / "game" / turn.relative_to(played)
        assert twin.read_bytes() == turn.read_bytes(), turn


# --- fog: what a side sees of the table ---------------------------------------------------------

def behind_the_barn() -> tuple[Rules, dict[str, Any]]:
    """Red has only r2, south of the barn; blue's b2a stands behind the barn, out of its sight."""
    rules, state = started()
    state = copy.deepcopy(state)
    for bid in ("r1a", "r1b", "r1c"):
        del state["bases"][bid]
    state["bases"]["b2a"]["at"] = [910, 420]
    return rules, state


def test_an_unseen_enemy_base_moved_elsewhere_unseen_leaves_the_view_unchanged() -> None:
    rules, state = behind_the_barn()
    assert "b2a" not in rules.view(state, "red")["bases"]
    before = view_bytes(rules, state, "red")
    moved = copy.deepcopy(state)
    moved["bases"]["b2a"]["at"] = [930, 440]       # still behind the barn
    moved["bases"]["b2a"]["facing"] = 90
    assert "b2a" not in rules.view(moved, "red")["bases"]
    assert view_bytes(rules, moved, "red") == before


def test_an_enemy_base_in_the_open_is_seen_and_the_view_changes() -> None:
    rules, state = behind_the_barn()
    before = view_bytes(rules, state, "red")
    moved = copy.deepcopy(state)
    moved["bases"]["b2a"]["at"] = [800, 250]       # in the open, in front of red's r2
    seen = rules.view(moved, "red")["bases"]
    assert seen["b2a"]["at"] == [800, 250]
    assert view_bytes(rules, moved, "red") != before


def test_woods_between_hide_a_base_and_a_wall_does_not() -> None:
    rules, state = started()
    state = copy.deepcopy(state)
    for bid in list(state["bases"]):
        if bid not in ("r1a", "b1a"):
            del state["bases"][bid]
    state["bases"]["r1a"]["at"], state["bases"]["b1a"]["at"] = [450, 250], [600, 700]   # the orchard between
    assert "b1a" not in rules.view(state, "red")["bases"]
    state["bases"]["b1a"]["at"] = [250, 700]       # across the low lane wall only
    assert "b1a" in rules.view(state, "red")["bases"]


def test_the_curious_opponent_finds_no_trace_of_unseen_bases(played: Path) -> None:
    for side, other in (("red", "blue"), ("blue", "red")):
        for view_file in sorted((played / "turns").glob(f"*/{side}.yaml")):
            view = yamlio.load_file(view_file).data
            shown = set(view["state"]["bases"]) | set(view["state"]["lost"])
            named_by_fire = {bid for event in view.get("events", []) if event["type"] == "fire"
                             for bid in (event["target"], *event["firers"])}   # F2: fire is public
            text = view_file.read_text(encoding="utf-8")
            for event in view.get("events", []):
                if event["type"] == "moved" and event["side"] == other:
                    assert set(event["to"]) <= shown, (view_file, event)
                    assert "path" not in event and "seen" not in event
            squads = {"red": ("r1", "r2"), "blue": ("b1", "b2")}[other]
            hidden = [f"{s}{x}" for s in squads for x in "abc" if f"{s}{x}" not in shown | named_by_fire]
            for bid in hidden:
                assert f"{bid}:" not in text and f"[{bid}" not in text and f" {bid}\n" not in text, (view_file, bid)


def test_pictures_of_views_that_differ_only_in_hidden_bases_are_identical() -> None:
    rules, state = behind_the_barn()
    moved = copy.deepcopy(state)
    moved["bases"]["b2a"]["at"] = [930, 440]
    pictures = []
    for st in (state, moved):
        view = {"pbem": 2, "kind": "view", "game": "fog", "ruleset": {"id": "patrol", "version": "1"}, "seq": 0,
                "side": "red", "events": [], "state": rules.view(st, "red")}
        pictures.append(map_svg(view))
    assert pictures[0] == pictures[1]
    assert 'id="base-r2a"' in pictures[0] and "b2a" not in pictures[0]


# --- positions by mail, checked from the view ---------------------------------------------------

def orders_file(tmp_path: Path, view: api.ViewFile, orders: str) -> Path:
    doc = api.orders_document(view, [])
    text = yamlio.dump(doc).replace("orders: []\n", "orders:\n" + orders)
    path = tmp_path / "orders.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def first_view(played: Path, side: str) -> api.ViewFile:
    return api.read_view(played / "views" / "0000" / f"{side}.yaml")


def test_check_refuses_a_move_beyond_the_allowance_naming_line_length_and_furthest_point(played: Path,
                                                                                          tmp_path: Path) -> None:
    view = first_view(played, "red")
    path = orders_file(tmp_path, view, "  - squad: r1\n    to: [300, 400]\n")
    [problem] = api.check_orders(view, path)
    assert problem.file == str(path) and problem.line is not None and problem.column is not None
    text = str(problem)
    assert "300 mm long" in text and "allowance is 150 mm" in text and "(rule M1)" in text
    assert "furthest legal point is [300, 250]" in text


def test_check_accepts_toward_max_and_a_path_within_the_allowance(played: Path, tmp_path: Path) -> None:
    view = first_view(played, "red")
    path = orders_file(tmp_path, view, "  - {squad: r1, toward: [300, 900]}\n"
                                       "  - {squad: r2, path: [[800, 180], [860, 200]], face: 45}\n")
    assert api.check_orders(view, path) == []


def test_check_refuses_two_destinations_by_schema(played: Path, tmp_path: Path) -> None:
    view = first_view(played, "red")
    path = orders_file(tmp_path, view, "  - {squad: r1, to: [300, 200], toward: [300, 900]}\n")
    problems = api.check_orders(view, path)
    assert problems and problems[0].line is not None


def test_the_slowing_plough_costs_extra_and_the_refusal_says_so() -> None:
    rules, state = started()
    state = copy.deepcopy(state)
    state["bases"]["r1a"]["at"], state["bases"]["r1b"]["at"], state["bases"]["r1c"]["at"] = \
        [200, 340], [230, 340], [260, 340]
    view = rules.view(state, "red")
    [problem] = rules.validate(view, "red", [{"squad": "r1", "to": [200, 460]}])   # 120 mm, into the plough
    assert "costs 50 mm more for terrain" in problem.message and "[200, 440]" in (problem.legal or "")
    assert rules.validate(view, "red", [{"squad": "r1", "to": [200, 440]}]) == []  # 100 mm, just enough


def test_fire_at_an_unseen_base_is_refused_and_the_legal_list_names_only_seen_ones() -> None:
    rules, state = started()
    state = copy.deepcopy(state)
    state["phase"] = "fire"
    state["bases"]["b1a"]["at"] = [330, 300]      # in the open before r1
    view = rules.view(state, "red")
    [problem] = rules.validate(view, "red", [{"squad": "r1", "fire": "b2a"}])
    assert problem.section == "F1" and problem.legal == "b1a"
    assert rules.validate(view, "red", [{"squad": "r1", "fire": "b1a"}]) == []


def test_a_move_into_an_enemy_stops_at_contact_and_the_mover_learns_by_what() -> None:
    rules, state = started()
    state = copy.deepcopy(state)
    state["bases"]["b1a"]["at"] = [330, 220]      # 120 mm in front of r1's middle base
    sub = api_submission(rules, state, "red", [{"squad": "r1", "toward": [300, 900]}])   # r1a leads
    resolution = rules.resolve(state, {"red": sub, "blue": None}, dice_for_test(), no_decisions())
    [event] = resolution.events
    assert event["section"] == "M3" and event["stopped_by"] == "b1a"
    # r1b's front edge stops exactly 30 from b1a's back edge: 220 - 15 - 30 - 15 = 160
    assert resolution.state["bases"]["r1b"]["at"] == [330, 160]


def api_submission(rules: Rules, state: dict[str, Any], side: str, orders: list[Any]) -> Any:
    from pbem.core.ruleset import Submission
    assert rules.validate(rules.view(state, side), side, orders) == []
    return Submission(side=side, orders=orders)


def dice_for_test() -> Any:
    from pbem.core.chance import ForcedDice
    return ForcedDice([])


def no_decisions() -> Any:
    from pbem.core.ruleset import Decisions
    return Decisions({})


def test_an_unseen_base_on_the_line_of_fire_changes_nothing_the_firer_learns() -> None:
    """A blue base hidden in the barn touches the line from r2a to b1a: red cannot know it is
    there, so it must not decide whether r2a fires (the fire event is public, F2)."""
    rules, state = started()
    state = copy.deepcopy(state)
    state["phase"] = "fire"
    state["bases"]["r2a"].update(at=[700, 300], facing=90)
    state["bases"]["b1a"]["at"] = [1000, 299]
    state["bases"]["b2a"]["at"] = [940, 310]          # inside the barn: no red base sees it
    without = copy.deepcopy(state)
    del without["bases"]["b2a"]
    assert view_bytes(rules, state, "red") == view_bytes(rules, without, "red")
    events = []
    for st in (state, without):
        sub = api_submission(rules, st, "red", [{"squad": "r2", "fire": "b1a"}])
        resolution = rules.resolve(copy.deepcopy(st), {"red": sub, "blue": None}, ForcedDice([0, 0, 0, 0]), no_decisions())
        events.append([rules.visible(e, "red") for e in resolution.events])
    assert events[0] == events[1]
    assert "r2a" in events[0][0]["firers"]


def test_a_scenario_base_off_the_table_is_refused() -> None:
    doc = scenario()
    doc["setup"]["squads"]["r1"]["bases"]["r1a"]["at"] = [5, 100]
    with pytest.raises(PbemError, match="r1a .* not wholly on the table"):
        started(doc)
