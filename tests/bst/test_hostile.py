"""Hostile and probing orders at the referee's intake (`pbem submit`), on the sample game.

Each refusal names the file, the line and column, the order, the rule section and what would
be legal, and leaves the game directory byte for byte as it was (`Table.refused`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.demo import setup_demo
from tests.test_hostile_input import Table

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "bst" / "scenario.yaml"


@pytest.fixture()
def table(tmp_path: Path) -> Table:
    mail = tmp_path / "mail"
    mail.mkdir()
    table = Table(setup_demo("bst", SAMPLE, tmp_path / "work", say=lambda _: None), mail)
    table.adjudicate()  # seq 1 draws the first card
    for number in range(10):  # on to a unit's own card (a leader's second card may only lead or hold)
        side, state = waiting(table)
        unit = active_unit(state)
        if state["setup"]["units"][unit].get("card2") != state["card"]:
            return table
        table.accept(side, f"{side}-hold-{number}.yaml", table.orders(side, [{"unit": unit, "act": "hold"}]))
        table.adjudicate()
    raise AssertionError("no unit's own card came up")


def waiting(table: Table) -> tuple[str, dict[str, Any]]:
    """The side that owes orders, and its latest view's state."""
    for side in ("allies", "axis"):
        doc = yamlio.load_file(table.game.latest_view(side)).data
        if doc["next"].get("awaiting") == [side]:
            return side, dict(doc["state"])
    raise AssertionError("nobody owes orders")


def active_unit(state: dict[str, Any]) -> str:
    return str(next(uid for uid, unit in state["setup"]["units"].items() if state["card"] in (unit["card"], unit.get("card2"))))


def refused_at_line(table: Table, side: str, data: bytes, *needles: str) -> str:
    path = table.file(f"{side}-1.yaml", data, side)
    message = table.refused(path, *needles, name=f"{side}-1.yaml")
    assert re.search(rf"{side}-1\.yaml:\d+:\d+", message), message
    return message


def test_a_queue_of_ten_thousand_orders_is_refused(table: Table) -> None:
    side, state = waiting(table)
    unit = active_unit(state)
    orders = [{"unit": unit, "act": "hold"}] + [{"unit": unit, "act": "hunker", "queued": True}] * 10_000
    refused_at_line(table, side, table.orders(side, orders), "at most")


def test_a_float_in_a_point_is_refused(table: Table) -> None:
    side, state = waiting(table)
    unit = active_unit(state)
    data = table.orders(side, [{"unit": unit, "act": "move", "to": [777777, 400]}]).replace(b"777777", b"600.5")
    refused_at_line(table, side, data, "no floats")


def test_a_queued_order_for_an_enemy_unit_is_refused(table: Table) -> None:
    side, state = waiting(table)
    unit = active_unit(state)
    enemy = sorted(u for u, entry in state["setup"]["units"].items() if entry["side"] != side)[0]
    message = refused_at_line(table, side, table.orders(side, [{"unit": unit, "act": "hold"},
                                                               {"unit": enemy, "act": "hunker"}]),
                              "order 2", "(rule A1)", "legal:")
    assert f"{enemy} is not an {side} unit" in message or f"{enemy} is not a {side} unit" in message


def test_an_order_for_a_card_already_drawn_is_refused(table: Table) -> None:
    side, state = waiting(table)
    unit = active_unit(state)
    mine = sorted(u for u, entry in state["setup"]["units"].items() if entry["side"] == side and u != unit)
    drawn = state["card"]
    message = refused_at_line(table, side, table.orders(side, [{"unit": unit, "act": "hold"},
                                                               {"unit": mine[0], "act": "hunker", "card": drawn}]),
                              "order 2", "(rule A1)", "legal:")
    assert drawn in message


def test_a_base_given_two_actions_names_the_first_order_as_the_file_counts(table: Table) -> None:
    """Orders are counted from 1 in every message: the second action of a base points back at
    order 1, not at order 0."""
    side, state = waiting(table)
    unit = active_unit(state)
    base = sorted(bid for bid, entry in state["bases"].items() if entry["unit"] == unit)[0]
    message = refused_at_line(table, side, table.orders(side, [{"unit": unit, "act": "hunker", "bases": [base]},
                                                               {"unit": unit, "act": "recover", "bases": [base]}]),
                              "order 2", "(rule A1)", f"{base} already has an action in order 1", "legal:")
    assert "order 0" not in message
