"""A player checks that a view or a decision request comes from the game's referee (`--game`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import play_duel
from tests.test_hostile_input import Table, decision_table, fire_table, table  # noqa: F401  (fixtures)
from tests.test_cli_lifecycle import run


def player_copy(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A played duel; the red player's folder holds game.yaml (+ .sig) and red's view 1 (+ .sig)."""
    game = play_duel(tmp_path / "work", exchanges=1)
    player = tmp_path / "red"
    player.mkdir()
    for name in ("game.yaml", "game.yaml.sig"):
        shutil.copy(game.root / name, player / name)
    for name in ("red.yaml", "red.yaml.sig"):
        shutil.copy(game.root / "turns" / "0001" / name, player / name)
    return game.root, player / "game.yaml", player / "red.yaml"


def test_a_genuine_view_passes_and_a_tampered_one_is_refused(tmp_path: Path) -> None:
    _, game_file, view = player_copy(tmp_path)
    assert run("orders", view, "--game", game_file).rc == 0
    assert run("orders", view).rc == 0  # without --game nothing is checked, and the player is told so
    assert "was not checked" in run("orders", view).err
    view.write_bytes(view.read_bytes().replace(b"seq: 1", b"seq: 2", 1))
    orders = tmp_path / "orders.yaml"
    orders.write_text("kind: orders\n", encoding="utf-8")  # its content never read: the view is refused first
    for verb in (["orders", view], ["check", view, orders]):
        refused = run(*verb, "--game", game_file)
        assert refused.rc != 0
        assert str(view) in refused.text and "signature" in refused.text.lower()


def test_a_view_without_its_signature_is_refused(tmp_path: Path) -> None:
    _, game_file, view = player_copy(tmp_path)
    Path(str(view) + ".sig").unlink()
    refused = run("orders", view, "--game", game_file)
    assert refused.rc != 0 and "red.yaml.sig" in refused.text


def test_a_signed_file_of_another_kind_is_not_a_decision_request(tmp_path: Path) -> None:
    root, game_file, view = player_copy(tmp_path)
    key = root.parent / "keys" / "red"
    refused = run("decide", view, "--answer", "stand", "--key", key, "--game", game_file)
    assert refused.rc != 0 and "not a decision-request" in refused.text


def test_a_view_of_another_game_is_refused(tmp_path: Path) -> None:
    _, _, view = player_copy(tmp_path / "one")
    _, other_game, _ = player_copy(tmp_path / "two")  # same game id, other referee key
    refused = run("orders", view, "--game", other_game)
    assert refused.rc != 0 and "wrong key" in refused.text and "referee" in refused.text


def test_decide_with_another_sides_key_is_refused_before_signing(decision_table: Table) -> None:
    """The request is genuine but asks red; blue's key would sign a reply the referee refuses."""
    root = decision_table.root
    request = root / "decisions/0002/request-000.yaml"
    keys = root.parent / "keys"
    common = ["--answer", "stand", "--game", root / "game.yaml", "--out", root.parent / "reply.yaml"]
    refused = run("decide", request, "--key", keys / "blue", *common)
    assert refused.rc != 0 and "asks red" in refused.text and "blue's" in refused.text
    assert not (root.parent / "reply.yaml").exists()
    assert run("decide", request, "--key", keys / "red", *common).rc == 0
