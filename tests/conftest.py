"""Shared fixtures: the test-only `duel` and `patrol` rulesets and ready-made games."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import os

from hypothesis import settings

from pbem.core import ruleset

ruleset.register("duel", "tests.rulesets.duel:Duel")
ruleset.register("patrol", "tests.rulesets.patrol:Patrol")

# Property tests draw the same examples on every run, so a CI result never depends on luck.
# HYPOTHESIS_PROFILE=explore draws fresh ones each run (bug hunting; PBEM_FUZZ_SCALE scales the
# fuzzing tests' example counts).
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

DUEL_SCENARIO = Path(__file__).parent / "rulesets" / "duel-scenario.yaml"


import shutil  # noqa: E402

import pytest  # noqa: E402

from pbem.demo import DemoGame, setup_demo  # noqa: E402

_PLAYED: dict[str, Path] = {}


def play_duel(workdir: Path, *, exchanges: int | None = None) -> DemoGame:
    """A duel game played by bots through real files: to the end, or for `exchanges` rounds."""
    game = setup_demo("duel", DUEL_SCENARIO, workdir, say=lambda _: None)
    rounds = 0
    while (exchanges is None or rounds < exchanges) and game.round():
        rounds += 1
    return game


@pytest.fixture()
def finished_duel(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> DemoGame:
    """A copy of one finished bot game (played once per test session, copied per test)."""
    if "done" not in _PLAYED:
        _PLAYED["done"] = tmp_path_factory.mktemp("duel-master")
        play_duel(_PLAYED["done"])
    target = tmp_path / "copy"
    shutil.copytree(_PLAYED["done"], target)
    game = setup_keys_only(target)
    return game


def setup_keys_only(workdir: Path) -> DemoGame:
    from pbem.core import signing
    from pbem.core.game import load_game

    game = load_game(workdir / "game")
    keys = {name: signing.load_signing_key(workdir / "keys" / name, passphrase=b"")
            for name in ["referee", *game.sides]}
    return DemoGame(workdir / "game", keys["referee"], {s: keys[s] for s in game.sides}, lambda _: None)


@pytest.fixture(scope="session", autouse=True)
def private_ledger(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Player commands keep a ledger (docs/ledger.md): in tests, never the developer's own.

    Session-wide, so module-scoped fixtures that play games are covered too; a test that needs a
    ledger of its own sets PBEM_LEDGER itself."""
    before = os.environ.get("PBEM_LEDGER")
    os.environ["PBEM_LEDGER"] = str(tmp_path_factory.mktemp("ledger"))
    yield
    if before is None:
        del os.environ["PBEM_LEDGER"]
    else:
        os.environ["PBEM_LEDGER"] = before
