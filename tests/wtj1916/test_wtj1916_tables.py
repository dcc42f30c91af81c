"""A scenario's `tables:` may change any assumed value, but not into one the rules cannot use:
a base without a size, a die without faces, a negative distance or allowance is refused by the
scenario's schema (it crashed `pbem new` or the adjudication before)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.schemas import problems
from pbem.rulesets.wtj1916 import Wtj1916

NEW_TYPE: dict[str, Any] = {"class": "infantry", "personnel": True, "vehicle": False, "width": 0, "depth": 10,
                            "move": 100, "rush": 150, "recon": False, "size": "normal", "armour": 2, "shield": False,
                            "weapons": {}}


@pytest.mark.parametrize("tables, needle", [
    ({"unit_types": {"rifles": {"width": 0}}}, "at least 1"),
    ({"unit_types": {"rifles": {"depth": -10}}}, "at least 1"),
    ({"unit_types": {"rifles": {"move": -5}}}, "at least 0"),
    ({"unit_types": {"pioneers": NEW_TYPE}}, "at least 1"),
    ({"charts": {"small_arms_die": 0}}, "at least 2"),
    ({"distances": {"packed": -1}}, "at least 0"),
])
def test_a_value_the_rules_cannot_use_is_refused(tables: dict[str, Any], needle: str) -> None:
    found = problems(yamlio.Document(tables, "scenario.yaml", {}), Wtj1916().tables_schema())
    assert any(needle in p.message for p in found), [p.message for p in found]


def test_a_usable_change_passes() -> None:
    tables = {"unit_types": {"rifles": {"width": 30}, "pioneers": {**NEW_TYPE, "width": 20}},
              "charts": {"small_arms_die": 10}, "distances": {"packed": 0}}
    assert problems(yamlio.Document(tables, "scenario.yaml", {}), Wtj1916().tables_schema()) == []
