"""The recorded sample games in samples/<id>/game are complete, pass `pbem audit`, and are exactly
what their seed file plays.

They are what a newcomer reads to see real files. When a ruleset's behaviour changes, its
version changes too, and these fail until the game is recorded again (samples/README.md):
`pbem demo ID --seed-file samples/ID/seed.txt --dir /tmp/new`, then copy /tmp/new/game without
its `.referee` folder to samples/ID/game and /tmp/new/pictures to samples/ID/pictures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.audit import audit
from pbem.core.game import load_game
from pbem.core.position import current_position
from pbem.demo import seed_from_file, setup_demo

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and ".referee" not in path.parts}


@pytest.mark.parametrize("ruleset_id", ["fbsm", "toc"])
def test_recorded_game_is_complete_and_audits(ruleset_id: str) -> None:
    root = SAMPLES / ruleset_id / "game"
    assert not (root / ".referee").exists(), "the chain secret must never be published with a game"
    assert current_position(load_game(root)).over()
    assert audit(root) == []
    assert sorted(p.suffix for p in (SAMPLES / ruleset_id / "pictures").iterdir()) == [".svg", ".svg", ".txt", ".txt"]


@pytest.mark.parametrize("ruleset_id", ["fbsm", "toc"])
def test_the_seed_file_replays_the_recorded_game_byte_for_byte(ruleset_id: str, tmp_path: Path) -> None:
    """Determinism end to end: keys, chain secret, bots and every file written derive from the seed."""
    seed = seed_from_file(SAMPLES / ruleset_id / "seed.txt")
    game = setup_demo(ruleset_id, SAMPLES / ruleset_id / "scenario.yaml", tmp_path, say=lambda _: None, seed=seed)
    while game.round():
        pass
    recorded, replayed = files(SAMPLES / ruleset_id / "game"), files(game.root)
    assert sorted(recorded) == sorted(replayed)
    assert [name for name in recorded if recorded[name] != replayed[name]] == []
