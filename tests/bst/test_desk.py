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
