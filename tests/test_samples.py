"""Every shipped ruleset has a recorded sample game in samples/<id>/game: complete, passing `pbem audit`,
and exactly what its seed file plays.

They are what a newcomer reads to see real files. When a ruleset's behaviour changes, its
version changes too, and these fail until the game is recorded again (samples/README.md):
`pbem demo ID --seed-file samples/ID/seed.txt --dir /tmp/new`, then copy /tmp/new/game without
its `.referee` folder to samples/ID/game and /tmp/new/pictures to samples/ID/pictures.

The rulesets come from the core's registry (`pbem.core.ruleset.shipped()`): a shipped ruleset
without a sample fails here, and so does a sample folder of a ruleset that is not shipped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import ruleset, yamlio
from pbem.core.audit import audit
from pbem.core.game import load_game
from pbem.core.position import current_position
from pbem.demo import picture_last_views, seed_from_file, setup_demo

from .layout import ROOT, sample_folder

SHIPPED = ruleset.shipped()
SAMPLE_FILES = ("scenario.yaml", "seed.txt", "game", "pictures")


def files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and ".referee" not in path.parts}


def sample_problems(root: Path, ruleset_id: str) -> list[str]:
    """What samples/<id>/ lacks, or holds that it must not: the recorded game must be complete and audit."""
    folder = sample_folder(root, ruleset_id)
    missing = [name for name in SAMPLE_FILES if not (folder / name).exists()]
    if missing:
        return [f"samples/{ruleset_id}/ has no {', '.join(missing)}"]
    game_root = folder / "game"
    if (game_root / ".referee").exists():
        return ["the chain secret must never be published with a game: remove game/.referee"]
    if yamlio.load_file(folder / "scenario.yaml").data.get("ruleset") != ruleset_id:
        return [f"samples/{ruleset_id}/scenario.yaml is not a scenario of {ruleset_id}"]
    problems = [] if current_position(load_game(game_root)).over() else ["the recorded game is not over"]
    return problems + [str(item) for item in audit(game_root)]


def replay_problems(root: Path, ruleset_id: str, workdir: Path) -> list[str]:
    """Files of the recorded game and its pictures that the seed file does not play again."""
    folder = sample_folder(root, ruleset_id)
    seed = seed_from_file(folder / "seed.txt")
    game = setup_demo(ruleset_id, folder / "scenario.yaml", workdir, say=lambda _: None, seed=seed)
    while game.round():
        pass
    recorded, replayed = files(folder / "game"), files(game.root)
    problems = [f"only recorded: {name}" for name in sorted(set(recorded) - set(replayed))]
    problems += [f"only replayed: {name}" for name in sorted(set(replayed) - set(recorded))]
    problems += [f"differs: {name}" for name in sorted(set(recorded) & set(replayed))
                 if recorded[name] != replayed[name]]
    drawn = {path.name: path.read_bytes() for path in picture_last_views(game)}
    shown = {path.name: path.read_bytes() for path in (folder / "pictures").iterdir()}
    if sorted(drawn) != sorted(shown):
        problems.append(f"samples/{ruleset_id}/pictures holds {sorted(shown)}; the replay draws {sorted(drawn)}")
    # A picture drawn before a change to the renderer misleads whoever opens the sample: draw it again.
    problems += [f"pictures/{name} differs from what the replay draws" for name in sorted(set(drawn) & set(shown))
                 if drawn[name] != shown[name]]
    return problems


def test_the_registry_ships_rulesets() -> None:
    assert SHIPPED, "no shipped ruleset found"


TABLE_ONLY = {"table.yaml"}  # a miniatures table drawn ahead of its ruleset (issue #12; tests/test_tablemap.py)


def test_every_sample_is_of_a_shipped_ruleset() -> None:
    unknown = sorted(p.name for p in (ROOT / "samples").iterdir() if p.is_dir() and p.name not in SHIPPED
                     and {f.name for f in p.iterdir()} != TABLE_ONLY)
    assert not unknown, f"samples of rulesets that are not shipped: {unknown}"


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_recorded_game_is_complete_and_audits(ruleset_id: str) -> None:
    assert sample_problems(ROOT, ruleset_id) == []


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_the_seed_file_replays_the_recorded_game_byte_for_byte(ruleset_id: str, tmp_path: Path) -> None:
    """Determinism end to end: keys, chain secret, bots and every file written derive from the seed."""
    assert (sample_folder(ROOT, ruleset_id) / "seed.txt").is_file(), f"samples/{ruleset_id}/ has no seed.txt"
    assert replay_problems(ROOT, ruleset_id, tmp_path) == []
