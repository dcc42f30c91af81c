"""Every hostile mail of the issue, end to end through a Maildir judge: handled, explained, no crash.

Each case checks what the sender is told (if anything), where the mail was filed, that the
archive changed only as it should, and that nothing was written outside the game directory
and the Maildir.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from pbem.core import signing, yamlio
from pbem.core.archive import Archive
from pbem.core.audit import audit
from pbem.mail.limits import Limits
from pbem.mail.maildir import ensure_maildir
from tests.test_cli_lifecycle import snapshot
from tests.test_mail_kit import (ADDRESSES, JUDGE, World, body_text, deliver, make_world, maildir_judge, parse_mail,
                                 plain_mail, recipients, signed_orders, take_outbox)

RED, BLUE = ADDRESSES["red"], ADDRESSES["blue"]
STRANGER = "mallory@elsewhere.test"


@pytest.fixture()
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


def run_judge(world: World, maildir: Path, **kw: object) -> list[bytes]:
    maildir_judge(world, maildir, **kw).run(once=True)
    return take_outbox(maildir)


def answers_to(mails: list[bytes], address: str) -> list[str]:
    return [body_text(raw) for raw in mails if address in recipients(raw)]


def archive_files(world: World) -> dict[str, bytes | None]:
    """The archive without the judge's and the core's private folder."""
    return {k: v for k, v in snapshot(world.root).items() if not k.startswith(".referee")}


def filed(maildir: Path, folder: str) -> list[bytes]:
    path = maildir / f".{folder}" / "cur"  # Maildir++ folders
    return [p.read_bytes() for p in sorted(path.iterdir())] if path.is_dir() else []


def outside_files(tmp_path: Path) -> set[str]:
    """Every file under tmp_path outside the game dir, the Maildir and the keys."""
    found = set()
    for folder, _, files in os.walk(tmp_path):
        rel = os.path.relpath(folder, tmp_path)
        if rel.split(os.sep)[0] in ("game", "Maildir", "keys"):
            continue
        found |= {os.path.join(rel, name) for name in files}
    return found


@pytest.fixture()
def started(world: World, tmp_path: Path) -> tuple[World, Path]:
    """The game with the welcome mails already out."""
    maildir = tmp_path / "Maildir"
    run_judge(world, maildir)
    return world, maildir


def test_path_in_attachment_names_is_refused_and_explained(started: tuple[World, Path], tmp_path: Path) -> None:
    world, maildir = started
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    before = archive_files(world)
    for name in ("../../evil.yaml", "/tmp/evil.yaml", "..\\evil.yaml"):
        deliver(maildir, plain_mail(RED, "orders", "see attached", files={name: data, name + ".sig": sig.encode()}))
    mails = run_judge(world, maildir)
    texts = answers_to(mails, RED)
    assert len(texts) == 3
    for text in texts:
        assert "may not hold a path" in text or "plain file name" in text
    assert archive_files(world) == before
    assert not (tmp_path / "evil.yaml").exists() and not Path("/tmp/evil.yaml").exists()
    assert outside_files(tmp_path) == set()
    assert len(filed(maildir, "failed")) == 3


def deliver_huge(maildir: Path, sender: str, megabytes: int) -> None:
    """A mail with a `megabytes` MB attachment, written into the Maildir piece by piece.

    The same mail `plain_mail` builds, without ever holding it (or its base64 form) in memory:
    the test is about what the judge reads, and a test run must stay small (issue #17).
    """
    head = plain_mail(sender, "huge", "orders attached", files={"orders.yaml": b"@@"})
    before, after = head.split(base64.b64encode(b"@@") + b"\n", 1)
    block = os.urandom(1026)  # a multiple of 3 bytes: its base64 lines join up without padding
    line = base64.encodebytes(block)
    ensure_maildir(maildir)
    tmp = maildir / "tmp" / "huge.test"
    with open(tmp, "wb") as out:
        out.write(before)
        for _ in range(megabytes * 1024 * 1024 // len(block)):
            out.write(line)
        out.write(after)
    os.replace(tmp, maildir / "new" / "huge.test")


def test_fifty_megabyte_attachment_is_not_read(started: tuple[World, Path]) -> None:
    world, maildir = started
    deliver_huge(maildir, RED, 50)
    before = archive_files(world)
    mails = run_judge(world, maildir)
    [text] = answers_to(mails, RED)
    assert "the judge reads mails of at most" in text
    assert archive_files(world) == before
    [failed] = (maildir / ".failed" / "cur").iterdir()
    assert failed.stat().st_size > 50 * 1024 * 1024
    with open(failed, "rb") as handle:
        assert handle.read(64).startswith(b"X-Pbem-Failure: the mail is ")


def test_big_attachment_within_a_readable_mail(started: tuple[World, Path]) -> None:
    world, maildir = started
    deliver(maildir, plain_mail(RED, "orders", "x", files={"orders.yaml": b"a: 1\n" * 300_000,
                                                            "orders.yaml.sig": b"x"}))
    maildir_judge(world, maildir, limits=Limits(max_attachment_bytes=100_000)).run(once=True)
    texts = answers_to(take_outbox(maildir), RED)
    assert any("an attached file may have at most 100,000" in text for text in texts), texts


def test_zip_is_not_opened(started: tuple[World, Path]) -> None:
    world, maildir = started
    before = archive_files(world)
    zipped = b"PK\x03\x04" + os.urandom(200)
    deliver(maildir, plain_mail(RED, "orders", "zipped for you", files={"orders.zip": zipped}))
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "archives (zip, tar, ...) are not opened" in text
    assert archive_files(world) == before


MALFORMED = [
    # a multipart without a boundary parameter
    b"From: red@players.test\nTo: judge@pbem.test\nSubject: x\nMessage-ID: <m1@players.test>\n"
    b"Content-Type: multipart/mixed\n\n--zzz\nContent-Type: text/plain\n\nhello\n--zzz--\n",
    # a boundary that never closes, a part with broken base64, a header line without a colon
    b"From: red@players.test\nTo: judge@pbem.test\nSubject: y\nMessage-ID: <m2@players.test>\n"
    b"Content-Type: multipart/mixed; boundary=\"b1\"\n\n--b1\nContent-Type: text/plain\n"
    b"Content-Transfer-Encoding: base64\n\n!!!not base64***\n--b1\nthis is not a header\n\nbody\n",
    # nesting far deeper than the judge reads
    b"From: red@players.test\nTo: judge@pbem.test\nSubject: z\nMessage-ID: <m3@players.test>\n"
    + b"".join(f"Content-Type: multipart/mixed; boundary=\"d{i}\"\n\n--d{i}\n".encode() for i in range(200))
    + b"Content-Type: text/plain\n\nhi\n",
    # no header/body separation and binary junk
    b"\x00\xff\xfe garbage " * 50,
]


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_mime_is_handled(started: tuple[World, Path], raw: bytes) -> None:
    world, maildir = started
    before = archive_files(world)
    deliver(maildir, raw)
    mails = run_judge(world, maildir)
    assert archive_files(world) == before
    assert len(filed(maildir, "failed")) + len(filed(maildir, "ignored")) == 1
    for text in answers_to(mails, RED):
        assert "no signed pbem file was found" in text or "MIME" in text


def test_malformed_mime_still_yields_its_armored_block(started: tuple[World, Path]) -> None:
    world, maildir = started
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    block = signing.armor(data, sig, name="orders.yaml").encode()
    raw = (b"From: red@players.test\nTo: judge@pbem.test\nSubject: x\nMessage-ID: <m9@players.test>\n"
           b"Content-Type: multipart/mixed\n\n" + block)
    deliver(maildir, raw)
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "accepted orders of red for seq 1" in text
    assert "MIME structure is damaged" in text


def html_mail(body_html: str, message_id: str | None = None) -> bytes:
    import email.message
    import email.policy

    message = email.message.EmailMessage(policy=email.policy.default)
    message["From"], message["To"], message["Subject"] = RED, JUDGE, "orders"
    message["Message-ID"] = message_id or ("<html-1@players.test>" if "BEGIN" in body_html else "<html-2@players.test>")
    message.set_content(body_html, subtype="html")
    return message.as_bytes()


# How mail editors write the lines of a pasted text in an HTML-only mail.
EDITORS = {
    "div": lambda lines: "".join(f"<div>{line or '<br>'}</div>" for line in lines),  # Gmail, Apple Mail
    "p": lambda lines: "\n".join(f'<p class="MsoNormal">{line or "&nbsp;"}</p>' for line in lines),  # Outlook
    "br": lambda lines: "".join(f"{line}<br>\n" for line in lines),
}


@pytest.mark.parametrize("editor", sorted(EDITORS))
def test_html_only_mail_with_a_block_one_line_per_element(started: tuple[World, Path], editor: str) -> None:
    world, maildir = started
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 3}])
    lines = signing.armor(data, sig, name="orders.yaml").splitlines()
    deliver(maildir, html_mail(f"<html><body><div>My orders:</div>{EDITORS[editor](lines)}</body></html>",
                               f"<html-{editor}@players.test>"))
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "accepted orders of red for seq 1" in text, text
    assert [side for side, _, _ in Archive(world.root).orders_files(1)] == ["red"]
    assert len(filed(maildir, "processed")) == 1


def test_errors_in_an_armored_block_name_the_mail_not_a_work_file(started: tuple[World, Path]) -> None:
    world, maildir = started
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 3}])
    lines = signing.armor(data, sig, name="orders.yaml").splitlines()
    changed = [line.replace("cell: 3", "cell: 4") for line in lines]  # the text no longer matches its signature
    deliver(maildir, html_mail("<html><body>" + EDITORS["div"](changed) + "</body></html>", "<html-bad@players.test>"))
    wrong, wrong_sig = signed_orders(world, "red", [{"place": "hq", "cell": 99}])
    deliver(maildir, plain_mail(RED, "orders", "no name header:\n\n" + signing.armor(wrong, wrong_sig)))
    texts = answers_to(run_judge(world, maildir), RED)
    assert len(texts) == 2
    assert "the armored block in the mail body (HTML) (orders.yaml): rejected" in texts[0]
    assert "bad signature" in texts[0]
    # the rule error is placed in the signed text itself, the sender's own file
    assert "the armored block in the mail body: rejected" in texts[1]
    assert "of the signed text: order 1" in texts[1] and "cell 99 is off the board" in texts[1]
    for text in texts:
        assert "block-" not in text and ".txt" not in text, text


def test_a_mail_whose_signed_files_are_all_rejected_is_filed_as_failed(started: tuple[World, Path]) -> None:
    world, maildir = started
    wrong, wrong_sig = signed_orders(world, "red", [{"place": "hq", "cell": 99}])
    deliver(maildir, plain_mail(RED, "orders", "x", files={"o.yaml": wrong, "o.yaml.sig": wrong_sig.encode()}))
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "o.yaml: rejected, nothing was stored" in text  # the signer is told every error all the same
    [failed] = filed(maildir, "failed")
    assert failed.startswith(b"X-Pbem-Failure: the signed file in it was not accepted\n")
    assert filed(maildir, "processed") == []
    # one good file among bad ones: the mail was of use, so it is processed
    good, good_sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    deliver(maildir, plain_mail(RED, "orders", "x", files={"o.yaml": wrong, "o.yaml.sig": wrong_sig.encode(),
                                                           "p.yaml": good, "p.yaml.sig": good_sig.encode()}))
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "accepted orders of red" in text and "rejected" in text
    assert len(filed(maildir, "processed")) == 1 and len(filed(maildir, "failed")) == 1


def test_html_only_mail(started: tuple[World, Path]) -> None:
    world, maildir = started
    deliver(maildir, html_mail("<html><body><p>My orders: <b>attack!</b></p></body></html>"))
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "only an HTML part" in text
    # An armored block that survived HTML (a <pre> or <br> lines) is read: the signature proves it intact.
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 3}])
    block = signing.armor(data, sig, name="orders.yaml")
    deliver(maildir, html_mail("<html><body><div>Orders:</div>" +
                               "".join(f"{line}<br>" for line in block.splitlines()) + "</body></html>"))
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "accepted orders of red for seq 1" in text


def test_signature_from_another_games_key(started: tuple[World, Path], tmp_path: Path) -> None:
    world, maildir = started
    other = make_world(tmp_path / "other", game_id="duel-other")
    data, _ = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    forged = signing.sign(data, other.keys["red"], signing.namespace("orders", world.game_id))
    before = archive_files(world)
    deliver(maildir, plain_mail(STRANGER, "orders", "x", files={"orders.yaml": data, "orders.yaml.sig": forged.encode()}))
    mails = run_judge(world, maildir)
    [text] = answers_to(mails, STRANGER)
    assert "rejected, nothing was stored" in text and "key" in text
    assert answers_to(mails, RED) == []
    assert archive_files(world) == before


def test_forged_from_gets_nothing_of_the_signers_view(started: tuple[World, Path]) -> None:
    """Red's signed orders forwarded by someone else: receipt and rule errors go to red's address only."""
    world, maildir = started
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 99}])
    deliver(maildir, plain_mail(STRANGER, "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    mails = run_judge(world, maildir)
    assert answers_to(mails, STRANGER) == []
    [text] = answers_to(mails, RED)
    assert "cell 99 is off the board" in text


def test_replayed_old_mail(started: tuple[World, Path]) -> None:
    world, maildir = started
    red, sig_red = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    blue, sig_blue = signed_orders(world, "blue", [{"place": "hq", "cell": 4}])
    old = plain_mail(RED, "orders", "x", files={"o.yaml": red, "o.yaml.sig": sig_red.encode()})
    deliver(maildir, old)
    deliver(maildir, plain_mail(BLUE, "orders", "x", files={"o.yaml": blue, "o.yaml.sig": sig_blue.encode()}))
    run_judge(world, maildir)
    assert Archive(world.root).latest_seq() == 1
    before = archive_files(world)
    # The same old mail again, under a new Message-ID (an attacker replaying it, or a mail system).
    replay = old.replace(b"Message-ID: <", b"Message-ID: <replay-")
    deliver(maildir, replay)
    mails = run_judge(world, maildir)
    [text] = answers_to(mails, RED)
    assert "an old file (replayed?)" in text
    assert archive_files(world) == before
    assert audit(world.root) == []


def test_replay_of_older_orders_within_the_turn_cannot_override_newer(started: tuple[World, Path]) -> None:
    world, maildir = started
    first, sig1 = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    second, sig2 = signed_orders(world, "red", [{"place": "hq", "cell": 3}])
    deliver(maildir, plain_mail(RED, "orders", "1", files={"a.yaml": first, "a.yaml.sig": sig1.encode()}))
    deliver(maildir, plain_mail(RED, "orders", "2", files={"b.yaml": second, "b.yaml.sig": sig2.encode()}))
    run_judge(world, maildir)
    deliver(maildir, plain_mail(STRANGER, "orders", "replay", files={"a.yaml": first, "a.yaml.sig": sig1.encode()}))
    [text] = answers_to(run_judge(world, maildir), RED)
    assert "already in the archive" in text and "stay in force" in text
    rels = [rel for side, _, rel in Archive(world.root).orders_files(1) if side == "red"]
    assert len(rels) == 2 and (world.root / rels[-1]).read_bytes() == second


def test_same_mail_delivered_twice(started: tuple[World, Path]) -> None:
    world, maildir = started
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    raw = plain_mail(RED, "orders", "x", message_id="<twice@players.test>",
                     files={"o.yaml": data, "o.yaml.sig": sig.encode()})
    deliver(maildir, raw)
    deliver(maildir, raw)
    mails = run_judge(world, maildir)
    assert len(answers_to(mails, RED)) == 1
    assert len(Archive(world.root).orders_files(1)) == 1
    deliver(maildir, raw)  # and once more, a round later
    assert run_judge(world, maildir) == []
    assert len(Archive(world.root).orders_files(1)) == 1


def test_mail_loop_with_an_auto_responder(started: tuple[World, Path]) -> None:
    world, maildir = started
    # A well-behaved responder (RFC 3834) is never answered.
    deliver(maildir, plain_mail(RED, "Out of office", "I am away", extra={"Auto-Submitted": "auto-replied"}))
    assert run_judge(world, maildir) == []
    # A broken one echoes everything the judge sends, with no marks at all: the loop must die out.
    total = 0
    deliver(maildir, plain_mail(RED, "hello", "no orders here"))
    for _ in range(60):
        out = run_judge(world, maildir)
        total += len(out)
        if not out:
            break
        for raw in out:
            assert parse_mail(raw)["Auto-Submitted"] == "auto-replied"
            deliver(maildir, plain_mail(RED, "Re: " + str(parse_mail(raw)["Subject"]), "echo: " + body_text(raw)))
    else:
        pytest.fail("the mail loop did not stop")
    assert total == Limits().max_replies_per_address_per_day


@pytest.mark.parametrize("extra, sender", [
    ({"Content-Type": "multipart/report; report-type=delivery-status; boundary=x"}, "MAILER-DAEMON@players.test"),
    ({"List-Id": "<wargames.lists.test>"}, RED),
    ({"Precedence": "bulk"}, RED),
    ({"X-Pbem-Judge": "duel-mail"}, RED),
    ({}, JUDGE),
])
def test_bounces_lists_and_own_mail_are_never_answered(started: tuple[World, Path], extra: dict[str, str],
                                                       sender: str) -> None:
    world, maildir = started
    deliver(maildir, plain_mail(sender, "Undelivered" if "report" in str(extra) else "news", "text", extra=extra))
    assert run_judge(world, maildir) == []
    assert len(filed(maildir, "ignored")) == 1


def test_status_mail(started: tuple[World, Path]) -> None:
    world, maildir = started
    deliver(maildir, plain_mail(STRANGER, "status duel-mail", ""))
    deliver(maildir, plain_mail(RED, "status", ""))
    mails = run_judge(world, maildir)
    [text] = answers_to(mails, STRANGER)
    assert "game duel-mail" in text and "red: owes orders" in text
    [text] = answers_to(mails, RED)
    assert "game duel-mail" in text and "red: owes orders" in text
    deliver(maildir, plain_mail(STRANGER, "status", ""))  # no game named: the stranger is told how to ask
    [text] = answers_to(run_judge(world, maildir), STRANGER)
    assert "duel-mail" not in text and "owes orders" not in text and "status GAME-ID" in text


def test_errors_carry_line_and_column(started: tuple[World, Path]) -> None:
    world, maildir = started
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 9}])
    deliver(maildir, plain_mail(RED, "orders", "x", files={"orders.yaml": data, "orders.yaml.sig": sig.encode()}))
    [text] = answers_to(run_judge(world, maildir), RED)
    line = next(line for line in text.splitlines() if "off the board" in line)
    doc = yamlio.load_bytes(data, "orders.yaml")
    mark = doc.mark(("orders", 0, "cell"))
    assert mark is not None and f"orders.yaml:{mark.line}:{mark.column}" in line
