"""Fuzzing `new_game` with mutated scenarios (issue 7, "Fuzzing").

The shipped scenarios (fbsm with some table overrides written out, and toc) are
mutated on the data and on the bytes (see tests/test_fuzz_orders.py). Starting a game from one
must end in a clean `PbemError` (and no game: no game.yaml, so nothing refers to what was
written) or a game whose archive audits and whose bots can play its first exchanges (each
either done or refused with a `PbemError`). Never any other exception.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import yamlio
from pbem.core.archive import Archive
from pbem.core.audit import audit
from pbem.core.errors import PbemError
from pbem.core.game import new_game
from pbem.core.ruleset import get as get_ruleset
from pbem.demo import DemoGame, default_scenario
from tests.test_fuzz_orders import FUZZ, examples, mutated

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from _common import SECRET, fixed_key  # noqa: E402

ROUNDS_AFTER = 2
_COUNTER = itertools.count()


def base(ruleset_id: str) -> tuple[dict[str, Any], bytes]:
    doc = yamlio.load_file(default_scenario(ruleset_id)).data
    if ruleset_id == "fbsm":
        doc["tables"] = {"first_turn_max_lof": 2, "heavy_mg_range": 10, "setup_draws": 30,
                         "stacking_fire_factors": 16, "reinforcement_dice": 4}
    data = yamlio.dump(doc).encode("utf-8")
    return doc, data


BASES = {name: base(name) for name in ("fbsm", "toc")}  # not the test-only duel: its schema is lax on purpose


def start(ruleset_id: str, work: Path, data: bytes) -> str:
    scenario = work / "scenario.yaml"
    scenario.write_bytes(data)
    referee = fixed_key("referee")
    root = work / "game"
    try:
        doc = yamlio.load_bytes(data, "scenario.yaml").data
        sides = get_ruleset(ruleset_id).sides(doc) if isinstance(doc, dict) else ["a", "b"]
    except PbemError:
        sides = ["a", "b"]
    except Exception:  # the ruleset's `sides` on a broken scenario: new_game must say it cleanly
        sides = ["a", "b"]
    keys = {side: fixed_key(str(side)) for side in sides if isinstance(side, str)}
    try:
        new_game(scenario, f"fuzz-{ruleset_id}", referee, {s: k.public_line for s, k in keys.items()}, root,
                 secret=SECRET)
    except PbemError as error:
        assert str(error)
        assert not Archive(root).exists(), "a refused scenario left a game.yaml"
        return "rejected"
    assert audit(root) == []
    game = DemoGame(root, referee, keys, lambda _: None)
    try:
        for _ in range(ROUNDS_AFTER):
            if not game.round():
                break
    except PbemError:
        return "accepted, play refused"
    assert audit(root) == []
    return "accepted+played"


def test_the_unmutated_scenarios_start_and_play(tmp_path: Path) -> None:
    for name, (_, data) in BASES.items():
        work = tmp_path / name
        work.mkdir()
        assert start(name, work, data) == "accepted+played"


@pytest.mark.parametrize("ruleset_id", ["fbsm", "toc"])
@settings(FUZZ, max_examples=examples(30))
@given(data=st.data())
def test_mutated_scenarios_are_refused_cleanly_or_playable(tmp_path: Path, ruleset_id: str,
                                                           data: st.DataObject) -> None:
    doc, valid = BASES[ruleset_id]
    body = data.draw(mutated(doc, valid))
    work = tmp_path / f"run{next(_COUNTER)}"
    work.mkdir()
    start(ruleset_id, work, body)
