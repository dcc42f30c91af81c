"""bst's clicking rules (pbem/rulesets/bst/desk.py): a platoon leader's lead (L1) and mortar calls
(W6) are built from the desk's picks, as the page builds them, and the bots' orders on the crew
scenario (leads, calls, sustained fire) come out of the picks unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core.ruleset import Rules
from pbem.desk.session import OrdersDesk
from pbem.testing import view_bytes
from tests.bst.test_bots import BST, at_card
from tests.test_desk_picks import build

SIDES = ["allies", "axis"]


def desk_at(rules: Rules, state: dict[str, Any], tmp_path: Path) -> OrdersDesk:
    path = tmp_path / f"{state['awaiting']}.yaml"
    path.write_bytes(view_bytes(BST, state, state["awaiting"], SIDES))
    return OrdersDesk(path, out=tmp_path / "o.yaml")


def picks(desk: OrdersDesk, kind: str, order: dict[str, Any], field: str) -> Any:
    return desk.draft({"kind": kind, "order": order, "orders": [], "next": None, "target": "main"})["candidates"][field]


def test_a_lead_is_built_from_the_picks(tmp_path: Path) -> None:
    rules, state = at_card("JH", {"uspa": [740, 140]})
    desk = desk_at(rules, state, tmp_path)
    assert picks(desk, "lead", {}, "unit") == ["usp"]  # leaders only
    assert picks(desk, "lead", {"unit": "usp", "act": "lead", "do": "fire"}, "bases") == [
        "us1a", "us1b", "us1c", "usma", "usmb", "uspa"]  # in its command (the mortar team touches us1a); us2 is not
    order = {"unit": "usp", "act": "lead", "do": "fire", "bases": ["us1a", "us1b", "us1c"]}
    assert picks(desk, "lead", order, "target") == []  # nothing in sight and range yet
    lead = {"unit": "usp", "act": "lead", "do": "move", "bases": ["us1a", "us1b", "us1c", "uspa"],
            "toward": [700, 400], "distance": "max", "card": "JH"}
    assert build(desk, [lead]) == [lead]
    assert desk.check({"orders": [lead], "next": None})["ok"]
    assert any("allowed" in line for line in desk.draft({"kind": "lead", "order": lead, "orders": [], "next": None,
                                                         "target": "main"})["notes"])


def test_mortar_calls_on_a_point_and_on_a_base_are_built_from_the_picks(tmp_path: Path) -> None:
    rules, state = at_card("JD", {"de1a": [620, 600], "uspa": [620, 160]})
    desk = desk_at(rules, state, tmp_path)
    assert picks(desk, "call-mortar", {"unit": "usp", "act": "call-mortar"}, "mortar") == ["usma"]
    on_base = {"unit": "usp", "act": "call-mortar", "mortar": "usma"}
    assert "de1a" in picks(desk, "call-mortar-on-base", on_base, "aim")
    assert "de2a" not in picks(desk, "call-mortar-on-base", on_base, "aim")  # the leader does not see it
    for call in ({**on_base, "aim": [620, 600], "rounds": ["he", "smoke"]}, {**on_base, "aim": "de1a", "rounds": ["he"]}):
        assert build(desk, [call]) == [call]
        assert desk.check({"orders": [call], "next": None})["ok"], call


def test_the_bots_crew_orders_are_built_from_the_picks(tmp_path: Path) -> None:
    """The bots' lead, mortar call and sustained fire, each picked on the desk."""
    made = []
    for card, moves in (("JH", {"uspa": [740, 140]}), ("JD", {"de1a": [620, 600], "uspa": [620, 160]}), ("TC", {})):
        rules, state = at_card(card, moves)
        desk = desk_at(rules, state, tmp_path)
        orders = rules.bot_orders(desk.state, state["awaiting"], b"desk")
        assert build(desk, orders) == orders
        made += [order["act"] for order in orders]
    assert {"lead", "call-mortar", "sustain"} <= set(made)


def test_a_mortar_call_of_several_bombs_of_a_kind_is_built_by_repeated_clicks(tmp_path: Path) -> None:
    """W6, W8-W9: `rounds` is a repeatable list, so he, he, smoke comes of three clicks in that order."""
    rules, state = at_card("JD", {"de1a": [620, 600], "uspa": [620, 160]})
    desk = desk_at(rules, state, tmp_path)
    field = next(f for k in desk.describe()["kinds"] if k["kind"] == "call-mortar" for f in k["fields"]
                 if f["name"] == "rounds")
    assert field["type"] == "list" and field["repeat"] is True
    call = {"unit": "usp", "act": "call-mortar", "mortar": "usma", "aim": [620, 600], "rounds": ["he", "he", "smoke", "he"]}
    assert build(desk, [call]) == [call]
    assert desk.check({"orders": [call], "next": None})["ok"]


HOLD = [{"unit": "usp", "act": "hold"}]  # card JH activates the platoon leader


def _rows(desk: OrdersDesk) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in desk.describe()["standing"]}


def test_per_unit_standing_answers_get_a_row_each_for_the_sides_own_units(tmp_path: Path) -> None:
    """O1, C2: `opfire` and `close_combat` offered unit by unit, for the allies' units on the table only."""
    rules, state = at_card("JH", {})
    desk = desk_at(rules, state, tmp_path)
    rows = _rows(desk)
    own = sorted(u for u in rules.context.units if rules.context.side_of(u) == "allies")
    assert [r for r in rows if r.startswith("opfire.")] == [f"opfire.{u}" for u in own]
    assert [r for r in rows if r.startswith("close_combat.")] == [f"close_combat.{u}" for u in own]
    opfire = rows["opfire.us1"]
    assert opfire["values"] == ["open-short", "any", "hold", "ask"] and opfire["current"] is None
    assert opfire["number"] == {"key": "within", "minimum": 1, "maximum": 5000}
    assert rows["close_combat.us1"]["values"] == ["hunker", "fire", "ask"] and rows["close_combat.us1"]["number"] is None


def test_per_unit_answers_are_saved_nested_and_read_back_as_current(tmp_path: Path) -> None:
    """The rows changed become `{opfire: {UNIT: ...}}`, the bytes `orders_document` writes for that block (a
    hand-writer's file); the answers the view holds for the other units are kept, since the referee replaces
    a topic whole."""
    from pbem.core.api import yamlio

    rules, state = at_card("JH", {})
    state["standing"] = {"allies": {"opfire": {"usp": "any", "us2": "hold"}}, "axis": {"opfire": {"de1": "hold"}}}
    desk = desk_at(rules, state, tmp_path)
    rows = _rows(desk)
    assert rows["opfire.usp"]["current"] == "any" and rows["opfire.us1"]["current"] is None
    assert rows["close_combat.us1"]["current"] is None
    changed = {"opfire.us2": {"within": 250}, "close_combat.us1": "fire", "opfire.us1": "hold"}
    answer = desk.save({"orders": HOLD, "standing": changed})
    assert answer["saved"], answer
    wanted = {"close_combat": {"us1": "fire"}, "opfire": {"us1": "hold", "us2": {"within": 250}, "usp": "any"}}
    assert yamlio.load_file(tmp_path / "o.yaml").data["standing"] == wanted
    assert list(yamlio.load_file(tmp_path / "o.yaml").data["standing"]["opfire"]) == ["us1", "us2", "usp"]
    saved = (tmp_path / "o.yaml").read_bytes()
    assert _without_envelope(saved) == _without_envelope(desk.document(HOLD, wanted))
    clicked_otherwise = dict(reversed(list(changed.items())))
    assert desk.save({"orders": HOLD, "standing": clicked_otherwise})["saved"]
    assert _without_envelope((tmp_path / "o.yaml").read_bytes()) == _without_envelope(saved)


def _without_envelope(data: bytes) -> bytes:
    """The file less its entropy and salt, fresh at each save without a key."""
    return b"\n".join(line for line in data.split(b"\n") if not line.startswith((b"entropy:", b"salt:")))


def test_a_per_unit_answer_the_schema_refuses_is_a_problem_and_saves_nothing(tmp_path: Path) -> None:
    import pytest

    from pbem.core.api import UsageError

    rules, state = at_card("JH", {})
    desk = desk_at(rules, state, tmp_path)
    wrong = desk.save({"orders": HOLD, "standing": {"opfire.us1": "sometimes"}})
    assert wrong["saved"] is False and "standing" in wrong["problems"][0]["text"] and not (tmp_path / "o.yaml").exists()
    assert desk.check({"orders": HOLD})["ok"]
    assert not desk.check({"orders": HOLD, "standing": {"opfire.us1": {"within": 0}}})["ok"]  # at least 1 mm
    for bad in ({"opfire.us1": {"within": True}}, {"opfire.us1": ["hold"]}, {"opfire.us1": {"within": 5, "x": 1}}):
        with pytest.raises(UsageError, match="standing answers"):
            desk.check({"orders": [], "standing": bad})
    with pytest.raises(UsageError, match="whole and by key"):
        desk.check({"orders": [], "standing": {"opfire": "hold", "opfire.us1": "hold"}})


def test_the_part_three_and_o3_w1_keys_are_built_from_the_picks(tmp_path: Path) -> None:
    """V1, V3, O3, W1: `buttoned` (true or false), `convoy`, `split` and `arms` are offered, and
    orders using them come out of the picks unchanged."""
    rules, state = at_card("JH", {})
    desk = desk_at(rules, state, tmp_path)
    fields = {k["kind"]: {f["name"]: f for f in k["fields"]} for k in desk.describe()["kinds"]}
    assert fields["move"]["buttoned"]["values"] == [True, False] and fields["hunker"]["convoy"]["type"] == "flag"
    assert fields["move"]["split"]["values"] == ["go", "stay"] and fields["fire"]["arms"]["values"] == ["rifles"]
    assert "split" in fields["move-fire"] and "buttoned" not in fields["hold"]
    move = {"unit": "us1", "act": "move", "toward": [700, 400], "distance": "max", "split": "stay"}
    assert build(desk, [move]) == [move] and desk.check({"orders": [HOLD[0], move], "next": None})["ok"]
    tank = {"unit": "us2", "act": "hunker", "buttoned": False, "convoy": True}  # the picks only: the sample has no tank here
    assert build(desk, [tank]) == [tank]
