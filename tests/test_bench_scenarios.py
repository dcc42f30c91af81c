"""The benchmark tables in bench/scenarios/ stay playable: each loads as a scenario of its ruleset, its
bots play two adjudications through the same files a real game uses, and the archive passes the audit.
Without this a rules change could leave `python bench/adjudication.py --scenario FILE` broken unseen."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbem.core import yamlio
from pbem.core.archive import Archive
from pbem.core.audit import audit

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCENARIOS = sorted((BENCH / "scenarios").glob("*.yaml"))


def test_there_are_benchmark_tables() -> None:
    assert {path.name for path in SCENARIOS} >= {"bst-30.yaml", "wtj1916-20.yaml"}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda path: path.stem)
def test_benchmark_table_plays_and_audits(scenario: Path, tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCH))
    try:
        from _common import setup_game
    finally:
        sys.path.remove(str(BENCH))
    ruleset = str(yamlio.load_file(scenario).data["ruleset"])
    game = setup_game(ruleset, tmp_path, scenario=scenario)
    assert game.round() and game.round()
    assert Archive(game.root).latest_seq() == 2
    assert audit(game.root) == []
