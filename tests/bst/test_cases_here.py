"""Every case file of tests/bst/ through the core's case runner, with bst registered here
(the ruleset is not in the core's BUILTIN registry yet, so tests/test_cases.py skips it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import ruleset
from pbem.core.cases import run_case_file

ruleset.register("bst", "pbem.rulesets.bst:Bst")
HERE = Path(__file__).parent
CASES = sorted(p for p in HERE.glob("*.yaml") if p.name != "sections.yaml")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    outcome = run_case_file(path)
    assert outcome.passed, str(outcome)


def test_case_files_are_named_by_their_heading_label() -> None:
    from pbem.core.cases import load_case
    wrong = [p.name for p in CASES if not p.name.startswith(str(load_case(p).data["rule"]) + "-")]
    assert not wrong
