"""`pbem export`: a finished archive as one deterministic tar.gz without the referee's secrets."""

from __future__ import annotations

import tarfile
from pathlib import Path

from pbem.demo import DemoGame
from tests.conftest import play_duel
from tests.test_cli_lifecycle import run


def test_a_finished_game_exports_without_secrets_and_audits(finished_duel: DemoGame, tmp_path: Path) -> None:
    out = tmp_path / "duel-final.tar.gz"
    done = run("export", finished_duel.root, out)
    assert done.rc == 0, done.text
    with tarfile.open(out) as tar:
        names = tar.getnames()
        assert "duel-final/game.yaml" in names and "duel-final/turns/0001/turn.yaml" in names
        assert not any(".referee" in name or "chain-secret" in name for name in names)
        secret = (finished_duel.root / ".referee" / "chain-secret").read_bytes().strip()
        for member in tar.getmembers():
            assert member.mtime == 0 and member.uid == 0 and member.uname == ""
            if member.isfile():
                handle = tar.extractfile(member)
                assert handle is not None and secret not in handle.read()
        tar.extractall(tmp_path / "unpacked", filter="data")
    audited = run("audit", tmp_path / "unpacked" / "duel-final")
    assert audited.rc == 0, audited.text


def test_the_same_archive_exports_to_the_same_bytes(finished_duel: DemoGame, tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "game.tar.gz", tmp_path / "b" / "game.tar.gz"
    for out in (first, second):
        out.parent.mkdir()
        assert run("export", finished_duel.root, out).rc == 0
    assert first.read_bytes() == second.read_bytes()


def test_a_game_in_play_is_exported_only_on_purpose(tmp_path: Path) -> None:
    game = play_duel(tmp_path / "work", exchanges=1)
    out = tmp_path / "live.tar.gz"
    refused = run("export", game.root, out)
    assert refused.rc != 0 and "still in play" in refused.text and "--unfinished" in refused.text
    assert not out.exists()
    assert run("export", game.root, out, "--unfinished").rc == 0
    with tarfile.open(out) as tar:
        assert not any(".referee" in name for name in tar.getnames())


def test_only_the_archive_layout_travels(finished_duel: DemoGame, tmp_path: Path) -> None:
    """A key, a backup or an editor's file left beside the game stays home."""
    root = finished_duel.root
    (root / "referee-key").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    (root / "turns" / "0001" / "turn.yaml~").write_text("backup")
    (root / "notes.txt").write_text("my plans")
    out = tmp_path / "g.tar.gz"
    assert run("export", root, out).rc == 0
    with tarfile.open(out) as tar:
        names = [name.split("/", 1)[1] for name in tar.getnames() if "/" in name]
    assert not {"referee-key", "turns/0001/turn.yaml~", "notes.txt"} & set(names)
    assert "scenario.yaml" in names and "orders/0001/red-0001.yaml.sig" in names


def test_the_export_may_not_land_inside_the_game(finished_duel: DemoGame) -> None:
    refused = run("export", finished_duel.root, finished_duel.root / "g.tar.gz")
    assert refused.rc != 0 and "inside the game directory" in refused.text
    assert not (finished_duel.root / "g.tar.gz").exists()
