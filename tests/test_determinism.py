"""Determinism (issue 7): the same fbsm bot game, replayed in a fresh process and under the
pure-Python YAML loader, gives byte-identical archives (turn files, views, orders, signatures).

The game is fixed by its chain secret (`new_game(..., secret=...)`) and by the keys of the
referee and the bots (made once, copied into every run); bots draw their randomness from their
keys and views, and Ed25519 signatures are deterministic.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import pbem.core.yamlio as yamlio
from pbem.core.audit import audit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from _common import make_keys, play_bot_game  # noqa: E402

ROUNDS = 14  # the setup and the first game turn and a half of fbsm: bombardment, movement, fire


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("keys") / "keys"
    make_keys(path, ["referee", "us", "german"])
    return path


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, keys: Path) -> dict[str, bytes]:
    assert yamlio._loader() is getattr(yaml, "CSafeLoader", None), "libyaml is expected to be installed"
    game = play_bot_game("fbsm", tmp_path_factory.mktemp("ref"), rounds=ROUNDS, keys_from=keys)
    assert audit(game.root) == []
    found = files_of(game.root)
    assert sum(1 for name in found if name.startswith("turns/") and name.endswith("turn.yaml")) == ROUNDS
    return found


def test_fresh_process_gives_the_same_bytes(tmp_path: Path, keys: Path, reference: dict[str, bytes]) -> None:
    script = (f"import sys; sys.path[:0] = [{str(REPO)!r}, {str(REPO / 'bench')!r}]\n"
              "from pathlib import Path\nfrom _common import play_bot_game\n"
              f"play_bot_game('fbsm', Path({str(tmp_path)!r}), rounds={ROUNDS}, keys_from=Path({str(keys)!r}))\n")
    subprocess.run([sys.executable, "-c", script], check=True, cwd=tmp_path, timeout=120)
    again = files_of(tmp_path / "game")
    assert sorted(again) == sorted(reference)
    different = [name for name in reference if again[name] != reference[name]]
    assert different == []


def test_pure_python_loader_gives_the_same_bytes(tmp_path: Path, keys: Path, reference: dict[str, bytes],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "_Loader", yaml.SafeLoader)
    game = play_bot_game("fbsm", tmp_path, rounds=ROUNDS, keys_from=keys)
    again = files_of(game.root)
    assert sorted(again) == sorted(reference)
    different = [name for name in reference if again[name] != reference[name]]
    assert different == []
    assert audit(game.root) == []  # and the archive audits under the pure-Python loader too


def test_pure_python_loader_reads_every_file_as_libyaml_does(reference: dict[str, bytes]) -> None:
    for name, data in reference.items():
        if name.endswith(".yaml") and not name.startswith(".referee"):
            # The strict builder itself: `load_bytes` reads canonical text without either loader.
            c = yamlio._load_strictly(data, name)
            old = yamlio._loader()
            yamlio._Loader = yaml.SafeLoader
            try:
                py = yamlio._load_strictly(data, name)
            finally:
                yamlio._Loader = old
            assert (c.data, dict(c.marks), dict(c.key_marks)) == (py.data, dict(py.marks), dict(py.key_marks)), name
