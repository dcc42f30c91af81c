"""A refused melee attacker is told which of the side's units may attack that hex now (12.1, 9.13).

The canal (9.13) runs between 2107 and 2108 with no bridge there; 2109 is on 2108's own bank.
A case file cannot say what a rejection lists as legal, so these are Python tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core.cases import situation
from pbem.core.errors import Problem

REPO = Path(__file__).resolve().parent.parent.parent


def refusals(units: dict[str, str], orders: list[dict[str, Any]]) -> list[Problem]:
    """What German melee orders get in turn 3's combat phase with these units only (British B-RF in 2108)."""
    placed = {uid: {"hex": hex_id} for uid, hex_id in {**units, "B-RF": "2108"}.items()}
    rules, state = situation({"scenario": "samples/toc/scenario.yaml",
                              "state": {"phase": "german-combat", "turn": 3, "units": placed}}, REPO)
    return rules.validate(rules.view(state, "german"), "german", orders)


BANKS = {"G-IR8": "2107", "G-IR12": "2109", "G-FA3": "2009"}  # across the canal; on 2108's bank; artillery


def test_a_melee_across_the_unbridged_canal_names_the_units_that_may_attack_there() -> None:
    [problem] = refusals(BANKS, [{"melee": "2108", "with": ["G-IR8"]}])
    assert problem.section == "9.13" and problem.path == ("with", 0), problem
    assert problem.message == "G-IR8 at 2107 cannot attack across the unbridged canal into 2108"
    assert problem.legal == "G-IR12"  # not G-IR8 across the canal, nor the artillery beside 2108 (12.1)
    assert refusals(BANKS, [{"melee": "2108", "with": ["G-IR12"]}]) == []  # the legal one is taken


def test_with_no_unit_able_to_attack_the_refusal_says_so() -> None:
    [problem] = refusals({"G-IR8": "2107"}, [{"melee": "2108", "with": ["G-IR8"]}])
    assert problem.section == "9.13" and problem.legal == "none: no unit of yours may attack 2108 now"


def test_every_refused_attacker_gets_the_same_list() -> None:
    far = {**BANKS, "G-IR8": "2105"}
    [problem] = refusals(far, [{"melee": "2108", "with": ["G-IR8"]}])
    assert (problem.section, problem.message, problem.legal) == ("12.1", "G-IR8 at 2105 is not next to 2108", "G-IR12")
    [problem] = refusals(BANKS, [{"melee": "2108", "with": ["G-FA3"]}])
    assert problem.section == "12.1" and "artillery never attacks" in problem.message and problem.legal == "G-IR12"
