"""The player's ledger (docs/ledger.md): what it keeps, what it refuses, and the rewound turn it proves.

The referee side runs through the library (tests/test_verify_view_v2.py's table), the player
through `pbem ...` with its own copies of what it received.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.core import yamlio
from pbem.core.archive import view_rel
from pbem.core.game import load_game
from pbem.core.ledger import LEDGER_ENV, Ledger, ledger_base, ledger_folder
from tests.test_cli_lifecycle import run
from tests.test_verify_view_v2 import Play, new_play, resign


def deployed(tmp_path: Path) -> Play:
    play = new_play(tmp_path)
    play.send("red", play.orders("red", [{"place": "hq", "cell": 3}]))
    play.send("blue", play.orders("blue", [{"place": "hq", "cell": 2}]))
    assert play.adjudicate().committed
    return play


def signed(path: Path) -> tuple[bytes, str]:
    return path.read_bytes(), Path(str(path) + ".sig").read_text(encoding="utf-8")


# --- where it lives ------------------------------------------------------------------------------------


def test_the_base_folder_is_the_option_then_the_environment_then_home(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv(LEDGER_ENV, raising=False)
    assert ledger_base() == tmp_path / "home" / ".pbem" / "ledger"
    monkeypatch.setenv(LEDGER_ENV, str(tmp_path / "env"))
    assert ledger_base() == tmp_path / "env"
    assert ledger_base(tmp_path / "option") == tmp_path / "option"
    assert ledger_folder("demo-duel", tmp_path / "option") == tmp_path / "option" / "demo-duel"
    with pytest.raises(Exception, match="not a game id"):
        ledger_folder("../escape")


def test_the_environment_moves_the_ledger_of_the_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play = deployed(tmp_path)
    monkeypatch.setenv(LEDGER_ENV, str(tmp_path / "env-ledger"))
    view = play.views("red")[-1]
    orders = play.folder("red") / "o.yaml"
    assert run("orders", view, "--game", play.game_file, "--out", orders).rc == 0
    assert run("check", play.views("red")[0], orders, "--game", play.game_file).rc == 1  # built on view 1, not 0
    held = sorted(path.name for path in (tmp_path / "env-ledger" / "demo-duel").glob("*.yaml"))
    assert [name.split("-")[:2] for name in held[1:]] == [["view", "0000"], ["view", "0001"]]
    assert held[0].startswith("game-")


# --- what it keeps and refuses -------------------------------------------------------------------------


def test_record_keeps_referee_files_by_content_and_refuses_others(tmp_path: Path) -> None:
    play = deployed(tmp_path)
    ledger = Ledger.open(load_game(play.root), tmp_path / "ledger")
    view = play.views("red")[-1]
    first = ledger.record(*signed(view), str(view))
    assert first.new and first.equivocations == ()
    assert first.held.path.name.startswith("view-0001-red-") and first.held.path.read_bytes() == view.read_bytes()
    assert not ledger.record(*signed(view), str(view)).new  # the same bytes again: nothing new
    receipt = play.receipts("red")[0]
    assert ledger.record(*signed(receipt), str(receipt)).held.path.name.startswith("receipt-0001-red-")
    before = sorted(p.name for p in ledger.folder.iterdir())
    # a player's orders (the player's signature, not the referee's)
    orders = next(iter((play.root / "orders" / "0001").glob("red-*[0-9].yaml")))
    with pytest.raises(Exception, match="namespace|key"):
        ledger.record(*signed(orders), str(orders))
    # a view changed after the referee signed it
    data, sig = signed(view)
    with pytest.raises(Exception, match="bad signature"):
        ledger.record(data.replace(b"seq: 1", b"seq: 2", 1), sig, "changed.yaml")
    # a view of another game that happens to share the id (another referee)
    other = new_play(tmp_path / "other")
    with pytest.raises(Exception, match="wrong key"):
        ledger.record(*signed(other.views("red")[0]), "other.yaml")
    assert sorted(p.name for p in ledger.folder.iterdir()) == before
    assert ledger.latest_view_seq() == {"red": 1}
    assert [held.kind for held in ledger.receipts()] == ["receipt"]


def test_files_of_another_game_with_the_same_id_are_ignored(tmp_path: Path) -> None:
    base = tmp_path / "ledger"
    one, two = deployed(tmp_path / "one"), deployed(tmp_path / "two")
    for play in (one, two):
        ledger = Ledger.open(load_game(play.root), base)
        for path in play.views("red"):
            ledger.record(*signed(path), str(path))
    mine = Ledger(load_game(one.root), base)
    assert mine.equivocations() == []  # the other referee's views are not this game's
    assert len(mine.views()) == 2 and len(mine.ignored) == 3  # two views and a game.yaml of the other game
    shown = run("ledger", "show", "--game", one.game_file, "--ledger", base)
    assert shown.rc == 0 and "views of red: 2 file(s), seq 0 to 1" in shown.out and "ignored: 3" in shown.out


def test_two_views_of_one_seq_and_side_are_an_equivocation(tmp_path: Path) -> None:
    play = deployed(tmp_path)
    view = play.views("red")[-1]
    ledger = Ledger.open(load_game(play.root), tmp_path / "ledger")
    ledger.record(*signed(view), str(view))
    other = tmp_path / "other-view.yaml"
    doc = yamlio.load_file(view).data
    doc["events"] = []
    resign(other, doc, play.game.referee)
    recorded = ledger.record(*signed(other), str(other))
    (clash,) = recorded.equivocations
    assert clash.what == "view 1 of red"
    assert {clash.first.path.name, clash.second.path.name} == {p.name for p in ledger.folder.glob("view-0001-red-*.yaml")}
    assert "signed proof" in str(clash)
    (again,) = Ledger(load_game(play.root), tmp_path / "ledger").equivocations()  # read back from the folder
    assert {again.first.hash, again.second.hash} == {clash.first.hash, clash.second.hash}


def test_ledger_add_and_show(tmp_path: Path) -> None:
    play = deployed(tmp_path)
    base = tmp_path / "ledger"
    files = [*play.views("red"), *play.receipts("red")]
    added = run("ledger", "add", *files, "--game", play.game_file, "--ledger", base)
    assert added.rc == 0, added.text
    assert added.out.count("kept: ") == len(files)
    again = run("ledger", "add", *files, "--game", play.game_file, "--ledger", base)
    assert again.rc == 0 and again.out.count("already held: ") == len(files)
    orders = next(iter((play.root / "orders" / "0001").glob("red-*[0-9].yaml")))
    refused = run("ledger", "add", orders, "--game", play.game_file, "--ledger", base)
    assert refused.rc == 1 and "not kept" in refused.err
    shown = run("ledger", "show", "--game", play.game_file, "--ledger", base)
    assert shown.rc == 0, shown.text
    assert "views of red: 2 file(s), seq 0 to 1" in shown.out and "receipt files: 1" in shown.out


# --- (c) a rewound turn ------------------------------------------------------------------------------------


def test_a_rewound_turn_is_refused_and_both_views_are_reported(tmp_path: Path) -> None:
    """The referee deletes turn 1 and re-adjudicates with other orders from blue, then asks red to resend."""
    play = deployed(tmp_path)
    base = play.ledger("red")
    old_view = play.views("red")[-1]
    view0 = play.views("red")[0]
    # red goes on from view 1 as usual: `pbem orders --game` keeps it in red's ledger
    made = run("orders", old_view, "--game", play.game_file, "--ledger", base, "--out", play.folder("red") / "o2.yaml")
    assert made.rc == 0, made.text
    # the referee rewinds: turn 1 goes, blue's orders too, and blue sends others
    old_copy = play.folder("red") / "old-view-1.yaml"
    shutil.copy(old_view, old_copy)
    shutil.copy(str(old_view) + ".sig", str(old_copy) + ".sig")
    shutil.rmtree(play.root / "turns" / "0001")
    for path in (play.root / "orders" / "0001").glob("blue-*"):
        path.unlink()
    play.send("blue", play.orders("blue", [{"place": "hq", "cell": 5}]))
    assert play.adjudicate().committed
    new_view = play.folder("red") / "turns-0001-red.yaml"  # what the referee sends red now
    assert new_view.read_bytes() != old_copy.read_bytes()
    # red checks the new view: the ledger holds the old one, both signed
    result = run("verify-view", view0, new_view, "--game", play.game_file, "--ledger", base)
    assert result.rc == 1, result.text
    (line,) = [line for line in result.out.splitlines() if "equivocation" in line]
    assert "view 1 of red" in line and "signed proof" in line and line.count("view-0001-red-") >= 2
    # "please resend your orders for seq 1": red's tools refuse to build or sign them on view 0
    refused = run("orders", view0, "--game", play.game_file, "--ledger", base)
    assert refused.rc == 2, refused.text
    assert f"{view0}: this is not your latest view (view 1 is, at " in refused.err  # the usual cause first
    assert "Refusing orders for seq 1" in refused.err
    assert "view 1" in refused.err and "view-0001-red-" in refused.err and "rewound" in refused.err
    resend = play.folder("red") / "resend.yaml"
    resend.write_bytes(play_orders_on(view0))
    refused = run("sign", resend, "--key", play.work / "keys" / "red", "--ledger", base)
    assert refused.rc == 2 and "Refusing orders for seq 1" in refused.err, refused.text
    assert "these orders are built on view 0 of red, which is not your latest view" in refused.err, refused.text
    assert not Path(str(resend) + ".sig").exists()
    # orders for seq 2 on the (latest) view 1 are still made and signed
    assert run("orders", new_view, "--game", play.game_file, "--ledger", base).rc == 0
    assert run("sign", play.folder("red") / "o2.yaml", "--key", play.work / "keys" / "red", "--ledger", base).rc == 0


def play_orders_on(view: Path) -> bytes:
    from pbem.core.players import orders_document, read_view

    return yamlio.dump(orders_document(read_view(view), [{"place": "hq", "cell": 1}])).encode("utf-8")


def test_without_the_ledger_nothing_is_refused(tmp_path: Path) -> None:
    """A fresh ledger (or none) has no view 1: orders on view 0 are made as before."""
    play = deployed(tmp_path)
    view0 = play.views("red")[0]
    assert run("orders", view0, "--game", play.game_file, "--ledger", tmp_path / "fresh").rc == 0
    assert run("orders", play.root / view_rel(0, "red"), "--ledger", tmp_path / "none").rc == 0
