"""Receipts (docs/protocol.md §4a): one referee-signed receipt per accepted file, numbered per
side, naming what it replaces; a late file gets none; the sender learns nothing of the others."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from pbem.core import chance, clock, signing, yamlio
from pbem.core.archive import Archive
from pbem.core.audit import audit
from pbem.core.intake import submit
from pbem.core.players import bot_orders_file
from pbem.demo import DemoGame
from tests.conftest import play_duel


def orders_of(game: DemoGame, side: str, name: str) -> Path:
    return bot_orders_file(game.root, side, game.players[side], game.root.parent / name)


def test_each_accepted_file_gets_a_signed_receipt_numbered_per_side(tmp_path: Path) -> None:
    game = play_duel(tmp_path, exchanges=1)
    first = orders_of(game, "red", "red-a.yaml")
    got = submit(game.root, first, referee_key=game.referee, now=game.clock)
    [receipt] = got.receipts
    assert "still awaited" not in str(receipt) and "blue" not in str(receipt)  # nothing about the other side
    assert receipt.signed is not None
    data = (game.root / receipt.signed).read_bytes()
    signing.verify(data, (game.root / (receipt.signed + ".sig")).read_text(), "pbem-turn@demo-duel",
                   {"referee": game.referee.public_line})
    doc = yamlio.load_bytes(data, receipt.signed).data
    assert (doc["kind"], doc["side"], doc["seq"], doc["number"], doc["replaces"]) == ("receipt", "red", 2, 1, None)
    assert doc["hash"] == chance.file_hash(first.read_bytes()) and doc["file"] == receipt.rel
    again = submit(game.root, first, referee_key=game.referee, now=game.clock).receipts[0]
    assert again.signed == receipt.signed and (game.root / receipt.signed).read_bytes() == data  # same mail twice
    blue = submit(game.root, orders_of(game, "blue", "blue-a.yaml"), referee_key=game.referee, now=game.clock)
    assert yamlio.load_file(game.root / blue.receipts[0].signed).data["number"] == 1  # numbered per side
    second = orders_of(game, "red", "red-b.yaml")
    newer = yamlio.dump({**yamlio.load_file(second).data, "entropy": "ab" * 32}).encode()
    second.write_bytes(newer)
    second.with_name(second.name + ".sig").write_text(signing.sign(newer, game.players["red"], "pbem-orders@demo-duel"))
    replaced = submit(game.root, second, referee_key=game.referee, now=game.clock).receipts[0]
    doc = yamlio.load_file(game.root / replaced.signed).data
    assert (doc["number"], doc["replaces"]) == (2, chance.file_hash(first.read_bytes()))
    assert audit(game.root) == []


def test_a_file_after_the_deadline_is_refused_without_a_receipt(tmp_path: Path) -> None:
    game = play_duel(tmp_path, exchanges=0)
    deadline = "2026-01-01T00:00:30Z"
    late = clock.StepClock("2026-01-01T00:00:31Z")
    import pbem.core.position as position

    original = position.current_position

    def with_deadline(loaded):  # type: ignore[no-untyped-def]
        found = original(loaded)
        return position.Position(found.game, found.seq, found.state, found.previous_hash, deadline)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pbem.core.intake.current_position", with_deadline)
        got = submit(game.root, orders_of(game, "red", "late.yaml"), referee_key=game.referee, now=late)
    assert not got.receipts and "after the deadline" in str(got.errors[0])
    assert not any(Archive(game.root).orders_files(1))


def test_the_audit_wants_a_receipt_for_every_accepted_file(tmp_path: Path) -> None:
    game = play_duel(tmp_path, exchanges=2)
    receipt = game.root / "orders/0001/red-0001.receipt.yaml"
    assert receipt.is_file() and audit(game.root) == []
    receipt.unlink()
    found = [str(item) for item in audit(game.root)]
    assert any("red-0001.receipt.yaml" in item for item in found), found


def test_a_receipt_must_count_the_sides_own_files(tmp_path: Path) -> None:
    game = play_duel(tmp_path, exchanges=2)
    rel = "orders/0001/red-0001.receipt.yaml"
    doc = yamlio.load_file(game.root / rel).data
    doc["number"] = 2  # a referee pretending an earlier file existed
    data = yamlio.dump(doc).encode()
    (game.root / rel).write_bytes(data)
    (game.root / (rel + ".sig")).write_text(signing.sign(data, game.referee, "pbem-turn@demo-duel"))
    found = [str(item) for item in audit(game.root)]
    assert any(rel in item and "number" in item for item in found), found


def test_the_mail_judge_mails_the_signed_receipt(tmp_path: Path) -> None:
    from tests.test_mail_kit import (ADDRESSES, attachments, body_text, deliver, make_world, maildir_judge,
                                     plain_mail, recipients, signed_orders, take_outbox)

    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    judge.run(once=True)
    take_outbox(maildir)  # the welcome mails
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    deliver(maildir, plain_mail(ADDRESSES["red"], "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    judge.run(once=True)
    [answer] = take_outbox(maildir)
    assert recipients(answer) == [ADDRESSES["red"]]
    assert "still awaited" not in body_text(answer) and "blue" not in body_text(answer)
    files = attachments(answer)
    [name] = [name for name in files if name.endswith(".receipt.yaml")]
    signing.verify(files[name], files[name + ".sig"].decode(), "pbem-turn@duel-mail",
                   {"referee": world.referee.public_line})
    doc = yamlio.load_bytes(files[name], name).data
    assert doc["hash"] == chance.file_hash(data) and doc["received"] == clock.utc_text(world.clock())


@pytest.mark.parametrize("arrived_hours, on_time", [(47, True), (48.5, False)])
def test_the_judge_holds_the_arrival_not_the_poll_against_the_deadline(tmp_path: Path, arrived_hours: float,
                                                                        on_time: bool) -> None:
    # Orders delivered before the deadline count although the judge reads them after it.
    import os

    from tests.test_mail_kit import (ADDRESSES, START, body_text, deliver, make_world, maildir_judge, plain_mail,
                                     signed_orders, take_outbox)

    world = make_world(tmp_path, settings={"deadline": "48h"})
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    judge.run(once=True)
    take_outbox(maildir)
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    path = deliver(maildir, plain_mail(ADDRESSES["red"], "orders", "x",
                                       files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    arrival = START.timestamp() + arrived_hours * 3600
    os.utime(path, (arrival, arrival))
    world.clock.advance(hours=49)  # the judge polls after the deadline
    judge.run(once=True)
    texts = [body_text(mail) for mail in take_outbox(maildir)]
    receipts = list((world.root / "orders/0001").glob("red-*.receipt.yaml"))
    if on_time:
        [receipt] = receipts
        assert yamlio.load_file(receipt).data["received"] == clock.utc_text(
            START + datetime.timedelta(hours=arrived_hours))
    else:
        assert receipts == [] and any("after the deadline" in text for text in texts), texts


def test_the_audit_checks_every_restricted_rolls_key(tmp_path: Path) -> None:
    # A referee who writes a key that does not come from the hidden chain (one tried until it gives
    # the recorded value) is caught by the audit's replay, not only at the end of the game.
    game = play_duel(tmp_path, exchanges=3)
    rel = "turns/0002/turn.yaml"
    turn = yamlio.load_file(game.root / rel).data
    [index] = [n for n, roll in enumerate(turn["dice"]["rolls"]) if "key" in roll][:1]
    turn["dice"]["rolls"][index]["key"] = "ab" * 32
    data = yamlio.dump(turn).encode()
    (game.root / rel).write_bytes(data)
    (game.root / (rel + ".sig")).write_text(signing.sign(data, game.referee, "pbem-turn@demo-duel"))
    found = [str(item) for item in audit(game.root)]
    assert any(f"dice.rolls[{index}].key" in item for item in found), found


def test_a_receipt_for_a_file_the_turn_ignored_is_caught(tmp_path: Path) -> None:
    game = play_duel(tmp_path, exchanges=1)
    path = orders_of(game, "red", "red-a.yaml")
    data = yamlio.dump({**yamlio.load_file(path).data, "entropy": "cd" * 32}).encode()  # not the bot's later file
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_text(signing.sign(data, game.players["red"], "pbem-orders@demo-duel"))
    first = submit(game.root, path, referee_key=game.referee, now=game.clock)
    assert first.receipts and audit(game.root) == []
    orphan = game.root / first.receipts[0].signed
    stored = game.root / first.receipts[0].rel
    saved = orphan.read_bytes(), (orphan.with_name(orphan.name + ".sig")).read_bytes()
    stored.unlink()
    stored.with_name(stored.name + ".sig").unlink()
    assert audit(game.root) == []  # a crash mid-intake looks like this: tolerated while the seq is open
    assert game.round()  # both sides send orders (red again), the referee adjudicates seq 2
    assert Archive(game.root).latest_seq() == 2
    # the referee's tool swept the orphan before adjudicating; put it back as a referee would who
    # deleted only the file and kept the receipt
    orphan.write_bytes(saved[0])
    orphan.with_name(orphan.name + ".sig").write_bytes(saved[1])
    found = [str(item) for item in audit(game.root)]
    # red's later file took the freed number, so the receipt now contradicts the file it names
    assert any(item.startswith(str(first.receipts[0].signed)) for item in found), found


def test_an_orphan_receipt_in_an_adjudicated_seq_is_caught(tmp_path: Path) -> None:
    game = play_duel(tmp_path, exchanges=2)
    receipt = game.root / "orders/0002/red-0001.receipt.yaml"
    stray = game.root / "orders/0002/red-0009.receipt.yaml"  # its file deleted, the receipt kept
    stray.write_bytes(receipt.read_bytes())
    stray.with_name(stray.name + ".sig").write_bytes(receipt.with_name(receipt.name + ".sig").read_bytes())
    found = [str(item) for item in audit(game.root)]
    assert any("red-0009.receipt.yaml" in item and "not in the archive" in item for item in found), found


def test_verify_view_catches_receipts_that_do_not_count_in_order(tmp_path: Path) -> None:
    # A referee who numbers the first file 2 and the second 1 (so the older one counts) leaves
    # the player two receipts that cannot both be true.
    from pbem.core.game import load_game
    from pbem.core.verify_view import SignedFile, check_receipts

    game = play_duel(tmp_path, exchanges=1)

    def receipt(name: str, number: int, digest: str, replaces: str | None, received: str) -> SignedFile:
        doc = {"pbem": 2, "kind": "receipt", "game": "demo-duel", "seq": 2, "side": "red",
               "file": f"orders/0002/{name}.yaml", "hash": digest, "number": number, "received": received,
               "replaces": replaces}
        return SignedFile(name, b"", "", doc)

    a, b = "sha256:" + "a" * 64, "sha256:" + "b" * 64
    honest = [receipt("red-0001", 1, a, None, "2026-01-01T00:00:00Z"),
              receipt("red-0002", 2, b, a, "2026-01-01T00:01:00Z")]
    assert check_receipts(load_game(game.root), [], honest, {}) == []
    swapped = [receipt("red-0001", 2, a, None, "2026-01-01T00:00:00Z"),
               receipt("red-0002", 1, b, a, "2026-01-01T00:01:00Z")]
    found = [str(item) for item in check_receipts(load_game(game.root), [], swapped, {})]
    assert any("replaces" in item for item in found), found
