"""`pbem bot`: a side's bot writes signed, legal orders from that side's latest view alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.core import yamlio
from pbem.core.intake import submit
from tests.conftest import DUEL_SCENARIO


def test_bot_orders_are_signed_legal_and_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = tmp_path / "keys"
    for name in ("referee", "red", "blue"):
        assert main(["keygen", name, "--out", str(keys)]) == 0
    game = tmp_path / "game"
    assert main(["new", str(DUEL_SCENARIO), "--game", "bot-game", "--referee-key", str(keys / "referee"),
                 "--side", f"red={keys / 'red.pub'}", "--side", f"blue={keys / 'blue.pub'}", "--dir", str(game)]) == 0
    for side in ("red", "blue"):
        assert main(["bot", str(game), "--side", side, "--key", str(keys / side)]) == 0
        path = tmp_path / f"{side}-orders-0001.yaml"
        doc = yamlio.load_file(path).data
        assert (doc["side"], doc["seq"], doc["phase"]) == (side, 1, "deploy")
        assert len(doc["orders"]) == 1 and 1 <= doc["orders"][0]["cell"] <= 5
        assert main(["check", str(game / "views/0000" / f"{side}.yaml"), str(path)]) == 0
        assert submit(game, path).errors == []
    assert main(["adjudicate", str(game)]) == 0
    assert main(["bot", str(game), "--side", "red", "--key", str(keys / "blue")]) == 0  # wrong key: signs...
    refused = submit(game, tmp_path / "red-orders-0002.yaml")  # ...but the referee refuses it
    assert refused.errors and "blue's key" in str(refused.errors[0])


def test_demo_takes_the_game_as_its_first_word(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PBEM_RULESETS", "duel=tests.rulesets.duel:Duel")
    assert main(["demo", "duel", "--scenario", str(DUEL_SCENARIO), "--dir", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    assert "audit: OK" in out and "game over" in out
    assert main(["demo"]) == 2


def _files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_demo_with_a_seed_file_plays_the_same_game_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PBEM_RULESETS", "duel=tests.rulesets.duel:Duel")
    seeds = {"a": b"first seed\n", "b": b"second seed\n"}
    for name, content in seeds.items():
        (tmp_path / name).write_bytes(content)
    games = {}
    for run, seed in (("1", "a"), ("2", "a"), ("3", "b")):
        assert main(["demo", "duel", "--scenario", str(DUEL_SCENARIO), "--dir", str(tmp_path / run),
                     "--seed-file", str(tmp_path / seed)]) == 0
        games[run] = _files(tmp_path / run / "game")
    assert games["1"] == games["2"]
    assert _files(tmp_path / "1" / "keys") == _files(tmp_path / "2" / "keys")  # key files too
    assert games["1"]["game.yaml"] != games["3"]["game.yaml"]  # another seed: other keys, another anchor
    assert "audit: OK" in capsys.readouterr().out


def test_demo_names_a_missing_seed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PBEM_RULESETS", "duel=tests.rulesets.duel:Duel")
    assert main(["demo", "duel", "--scenario", str(DUEL_SCENARIO), "--dir", str(tmp_path / "d"),
                 "--seed-file", str(tmp_path / "nothing")]) != 0
    assert "nothing" in capsys.readouterr().err
