"""Hostile and probing orders at the referee's intake (`pbem submit`), on the sample game.

Each refusal names the file, the line and column, the order, the rule section and what would be
legal, and leaves the game directory byte for byte as it was. An order naming the German machine
gun hidden in the bunker is refused in the very words an order naming no unit at all gets.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.demo import setup_demo
from tests.test_hostile_input import Table

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "wtj1916" / "scenario.yaml"


@pytest.fixture()
def table(tmp_path: Path) -> Table:
    mail = tmp_path / "mail"
    mail.mkdir()
    return Table(setup_demo("wtj1916", SAMPLE, tmp_path / "work", say=lambda _: None), mail)


def fire_phase(table: Table) -> Table:
    """The British move nothing: seq 2 is the fire phase of turn 1."""
    table.accept("british", "british-1.yaml", table.orders("british", []))
    table.adjudicate()
    return table


def test_a_move_too_long_is_refused_with_where_why_and_what_is_legal(table: Table) -> None:
    path = table.file("british-1.yaml", table.orders("british", [{"move": "r1", "to": [260, -40]}]), "british")
    message = table.refused(path, "order 1", "(rule F2)", "allowance is 100 yd", "legal:")
    assert re.search(r"british-1\.yaml:\d+:\d+", message), message


def test_a_float_and_a_huge_number_are_refused_by_line_and_column(table: Table) -> None:
    for value, needle in (b"260.5", "no floats"), (b"1" + b"0" * 30, "at most"):
        data = table.orders("british", [{"move": "r1", "to": [777777, 210]}]).replace(b"777777", value)
        path = table.file("british-1.yaml", data, "british")
        message = table.refused(path, needle)
        assert re.search(r"british-1\.yaml:\d+:\d+", message), message


def test_naming_the_hidden_machine_gun_is_refused_as_naming_no_unit(table: Table) -> None:
    fire_phase(table)
    assert "gmg2" not in yamlio.load_file(table.game.latest_view("british")).data["state"]["units"]

    def refusal(name: str) -> str:
        path = table.file(f"british-{name}.yaml", table.orders("british", [{"fire": name, "unit": "r1"}]), "british")
        return table.refused(path, "order 1", "(rule 3.4)", "is not an enemy unit you see", "legal:",
                             name=f"british-{name}.yaml")

    hidden, absent = refusal("gmg2"), refusal("zz")
    # a guess at the name meant comes from the spelling and the visible units only (g2 reads like gmg2)
    guessed = re.search(r": did you mean ([^?]*)\?", hidden)
    assert guessed is not None and set(guessed[1].split(" or ")) <= {"g1", "g2", "gm1"}, hidden
    assert hidden.replace(guessed[0], "").replace("gmg2", "zz") == absent


def test_an_air_strike_off_the_table_is_refused(table: Table) -> None:
    fire_phase(table)
    orders: list[Any] = [{"air_strike": {"at": [600, 900], "facing": 0}}]
    path = table.file("british-2.yaml", table.orders("british", orders), "british")
    table.refused(path, "order 1", "(rule 3.7)", "off the table", "legal:")
