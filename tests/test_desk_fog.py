"""Fog of war at the desk: what a side may not know never reaches its page.

At points of a bot game where the US side owes orders, the German units hidden under the top of
their stacks trade places between stacks; the view stays byte for byte the same (the rules' fog),
and so must everything the desk sends the page: the map, the report, the order kinds, and every
field's picks and notes for each kind. No hidden unit's id appears in any of it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.ruleset import rules_for
from pbem.desk.session import OrdersDesk
from pbem.rulesets.fbsm import Fbsm, selfplay
from pbem.testing import stacks_of, under_the_top, view_bytes

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
RULESET = Fbsm()
SIDES = ["us", "german"]


def german_stacks(state: dict[str, Any]) -> dict[str, list[str]]:
    cfg = rules_for(RULESET, state).context
    return stacks_of(state["units"], lambda uid: cfg.counters[uid].side == "german", on_map="active")


def situations(limit: int = 3) -> list[dict[str, Any]]:
    """States where the US side gives orders while at least two German stacks hide units."""
    found = []
    for state in selfplay.games_states(SCENARIO, b"desk-fog"):
        rules = rules_for(RULESET, state)
        if rules.result(state) is None and rules.awaiting(state) == ["us"] and state["phase"] != "us-setup":
            hidden = under_the_top(german_stacks(state))
            if len({hex_id for hex_id, _ in hidden}) >= 2:
                found.append(state)
                if len(found) == limit:
                    break
    return found


def desk_output(state: dict[str, Any], folder: Path) -> bytes:
    """Everything the desk would send the page for this state's US view, as bytes."""
    path = folder / "us.yaml"
    path.write_bytes(view_bytes(RULESET, state, "us", SIDES))
    desk = OrdersDesk(path, out=folder / "o.yaml")
    described = desk.describe()
    answers: list[Any] = [described]
    for kind in described["kinds"]:
        draft = {"kind": kind["kind"], "order": {}, "orders": []}
        answer = desk.draft(draft)
        answers.append(answer)
        first = kind["fields"][0]
        picks = answer["candidates"].get(first["name"]) or []
        if picks:
            value = [picks[0]] if first["type"] in ("units", "path", "list") else picks[0]
            answers.append(desk.draft({**draft, "order": {first["name"]: value}}))
    return json.dumps(answers, sort_keys=True).encode("utf-8")


@pytest.mark.parametrize("index", range(3))
def test_hidden_german_units_trading_places_change_nothing_on_the_page(index: int, tmp_path: Path) -> None:
    state = situations()[index]
    hidden = under_the_top(german_stacks(state))
    (hex_a, first), (hex_b, second) = next(((a, b) for a in hidden for b in hidden if a[0] != b[0]))
    changed = copy.deepcopy(state)
    unit_a, unit_b = changed["units"][first], changed["units"][second]
    changed["units"][first], changed["units"][second] = unit_b, unit_a
    assert changed != state
    assert view_bytes(RULESET, state, "us", SIDES) == view_bytes(RULESET, changed, "us", SIDES)
    before, after = desk_output(state, tmp_path), desk_output(changed, tmp_path)
    assert before == after
    shown = before.decode("utf-8")
    assert f'"{first}"' not in shown and f'"{second}"' not in shown and f"unit-{first}\"" not in shown


def bob_situations(limit: int = 2) -> list[dict[str, Any]]:
    """bob states where the Americans owe an impulse while two German units stand under conceal markers."""
    from pbem.rulesets.bob import Bob
    from pbem.selfplay import play_states

    scenario = yamlio.load_file(ROOT / "samples" / "bob" / "scenario.yaml").data
    found = []
    for state in play_states(Bob(), scenario, b"desk-fog"):
        rules = rules_for(Bob(), state)
        hidden = [u for u, e in state["units"].items() if e["marker"] and e["status"] == "active" and u.startswith("G")]
        if rules.result(state) is None and rules.awaiting(state) == ["american"] and \
                state["phase"] == "operations" and len(hidden) >= 2:
            found.append(copy.deepcopy(state))
            if len(found) == limit:
                break
    return found


@pytest.mark.parametrize("index", range(2))
def test_bob_units_under_conceal_markers_trading_places_change_nothing_on_the_page(index: int, tmp_path: Path) -> None:
    """Which German unit (squad, weapon team or decoy) stands under which conceal marker is the Germans' secret:
    two of them trading places, markers and all, change no byte the American desk sends."""
    from pbem.rulesets.bob import Bob

    state = bob_situations()[index]
    first, second = sorted(u for u, e in state["units"].items() if e["marker"] and e["status"] == "active"
                           and u.startswith("G"))[:2]
    changed = copy.deepcopy(state)
    changed["units"][first], changed["units"][second] = (copy.deepcopy(state["units"][second]),
                                                         copy.deepcopy(state["units"][first]))
    assert changed != state
    sides = ["american", "german"]
    assert view_bytes(Bob(), state, "american", sides) == view_bytes(Bob(), changed, "american", sides)

    def output(situation: dict[str, Any]) -> bytes:
        path = tmp_path / "american.yaml"
        path.write_bytes(view_bytes(Bob(), situation, "american", sides))
        desk = OrdersDesk(path, out=tmp_path / "o.yaml")
        answers: list[Any] = [desk.describe()]
        for kind in answers[0]["kinds"]:
            answer = desk.draft({"kind": kind["kind"], "order": {}, "orders": []})
            answers.append(answer)
            for pick in (answer["candidates"].get(kind["fields"][0]["name"]) or [])[:3]:
                answers.append(desk.draft({"kind": kind["kind"], "order": {kind["fields"][0]["name"]: pick},
                                           "orders": []}))
        return json.dumps(answers, sort_keys=True).encode("utf-8")

    before = output(state)
    assert before == output(changed)
    assert f'"{first}"' not in before.decode("utf-8") and f'"{second}"' not in before.decode("utf-8")


def bst_desk_output(state: dict[str, Any], folder: Path) -> tuple[bytes, list[str]]:
    """The allies' desk for a bst state: what it sends the page, and the names of its standing rows."""
    from tests.bst.test_bots import BST

    path = folder / "allies.yaml"
    path.write_bytes(view_bytes(BST, state, "allies", ["allies", "axis"]))
    described = OrdersDesk(path, out=folder / "o.yaml").describe()
    return json.dumps(described, sort_keys=True).encode("utf-8"), [row["name"] for row in described["standing"]]


def test_bst_standing_rows_name_only_units_the_view_holds(tmp_path: Path) -> None:
    """O1, C2: the per-unit rows are the allies' own units with bases on the table; the axis side's standing
    answers (kept out of every allied view) change no byte the desk sends, and a unit gone from the table
    has no row."""
    from tests.bst.test_bots import at_card

    rules, state = at_card("JH", {})
    ctx = rules.context
    state["standing"] = {"axis": {"opfire": {"de1": "hold"}}}
    before, names = bst_desk_output(state, tmp_path)
    units = {name.partition(".")[2] for name in names if "." in name}
    on_table = {entry["unit"] for entry in state["bases"].values()}
    assert units and all(ctx.side_of(u) == "allies" and u in on_table for u in units)
    hidden = copy.deepcopy(state)
    hidden["standing"] = {"axis": {"opfire": {"de1": "any", "de2": {"within": 400}}, "close_combat": {"dep": "fire"}}}
    assert bst_desk_output(hidden, tmp_path)[0] == before
    gone = copy.deepcopy(state)
    gone["bases"] = {bid: entry for bid, entry in state["bases"].items() if entry["unit"] != "us2"}
    left = bst_desk_output(gone, tmp_path)[1]
    assert "opfire.us2" in names and "opfire.us2" not in left and "close_combat.us2" not in left
