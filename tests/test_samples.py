"""The recorded sample games in samples/<id>/game are complete and pass `pbem audit` as they are.

They are what a newcomer reads to see real files. When a ruleset's behaviour changes, its
version changes too, and these fail until the game is recorded again:
`pbem demo ID --dir /tmp/new && cp -r /tmp/new/game samples/ID/game && rm -rf samples/ID/game/.referee`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.audit import audit
from pbem.core.game import load_game
from pbem.core.position import current_position

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@pytest.mark.parametrize("ruleset_id", ["fbsm", "toc"])
def test_recorded_game_is_complete_and_audits(ruleset_id: str) -> None:
    root = SAMPLES / ruleset_id / "game"
    assert not (root / ".referee").exists(), "the chain secret must never be published with a game"
    assert current_position(load_game(root)).over()
    assert audit(root) == []
    assert sorted(p.suffix for p in (SAMPLES / ruleset_id / "pictures").iterdir()) == [".svg", ".svg", ".txt", ".txt"]
