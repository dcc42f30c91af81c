"""Hostile scenarios with tanks (part III): each is refused with the heading and what is
legal, before any play; a scenario's vehicle rows must have the shape of the packaged ones."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import jsonschema
import pytest

from pbem.core import yamlio
from pbem.core.errors import PbemError
from pbem.core.ruleset import start
from pbem.rulesets.bst import Bst

ROOT = Path(__file__).resolve().parents[2]
BST = Bst()


def board() -> dict[str, Any]:
    return copy.deepcopy(dict(yamlio.load_file(ROOT / "tests" / "bst" / "board" / "tanks.yaml").data))


def tank_with_rifles(doc: dict[str, Any]) -> None:
    doc["setup"]["units"]["t1"]["bases"]["r1"] = {"at": [300, 400], "weapon": "rifles"}


def unknown_type(doc: dict[str, Any]) -> None:
    doc["setup"]["units"]["t1"]["bases"]["m1"]["vehicle"] = "tiger"


def buttoned_rifles(doc: dict[str, Any]) -> None:
    doc["setup"]["units"]["g1"]["bases"]["f1"]["buttoned"] = True


def rifles_with_tank_guns(doc: dict[str, Any]) -> None:
    doc["setup"]["units"]["g1"]["bases"]["f1"]["weapon"] = "tank-mg"


@pytest.mark.parametrize("change, section, needle", [
    (tank_with_rifles, "V3", "one tank is one unit"),
    (unknown_type, "V1", "medium-tank"),
    (buttoned_rifles, "V1", "buttoned: on a base with a vehicle"),
    (rifles_with_tank_guns, "F3", "vehicle:"),
])
def test_a_hostile_tank_scenario_is_refused(change: Callable[[dict[str, Any]], None], section: str,
                                            needle: str) -> None:
    doc = board()
    change(doc)
    with pytest.raises(PbemError) as refused:
        start(BST, doc)
    problems = refused.value.problems
    assert any(p.section == section and needle in (p.legal or "") for p in problems), problems


def test_a_vehicle_row_must_have_two_sizes_and_every_value_when_new() -> None:
    schema = json.loads((ROOT / "schemas" / "scenario.bst.json").read_text(encoding="utf-8"))
    check = jsonschema.Draft202012Validator(schema)
    doc = board()
    doc["tables"] = {"vehicles": {"medium-tank": {"move": 300}}}
    assert list(check.iter_errors(doc)) == []
    doc["tables"] = {"vehicles": {"medium-tank": {"size": [30]}}}
    assert any("too short" in e.message for e in check.iter_errors(doc))
    doc["tables"] = {"vehicles": {"heavy-tank": {"size": [30, 70]}}}
    assert any("required" in e.message for e in check.iter_errors(doc))
