"""The judge over a Maildir: a whole game by mail, answers as a mail client sees them, crash safety."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.audit import audit
from pbem.core.game import load_game
from pbem.core.position import current_position
from tests.test_mail_kit import ADDRESSES, JUDGE, World, body_text, deliver, make_world, parse_mail, play_by_maildir


def test_whole_duel_game_by_maildir(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    players = {side: world.player(side) for side in world.sides}
    mails = play_by_maildir(world, maildir, players)
    position = current_position(load_game(world.root))
    assert position.over(), [p.log for p in players.values()]
    assert audit(world.root) == []
    for raw in mails:
        message = parse_mail(raw)
        assert message["Message-ID"] and message["Date"] and message["Auto-Submitted"]
        assert message["From"] == JUDGE
    assert not any((maildir / "new").iterdir())
    assert len(list((maildir / ".processed" / "cur").iterdir())) > 4


def test_one_judge_serves_two_games(tmp_path: Path) -> None:
    from pbem.core import signing
    from pbem.core.archive import Archive
    from pbem.mail.judge import Judge
    from pbem.mail.maildir import MaildirInbox, MaildirOutbox
    from tests.test_mail_kit import plain_mail, signed_orders, take_outbox

    first = make_world(tmp_path / "a", game_id="duel-one")
    second = make_world(tmp_path / "b", game_id="duel-two")
    maildir = tmp_path / "Maildir"

    def judge() -> Judge:
        keys = {first.root: first.referee, second.root: second.referee}
        return Judge([first.root, second.root], MaildirInbox(maildir), MaildirOutbox(maildir / "outbox"),
                     referee_key=lambda root: keys[root], address=JUDGE, now=first.clock, log=lambda _: None)

    judge().run(once=True)
    assert len(take_outbox(maildir)) == 4  # two welcomes per game
    a, a_sig = signed_orders(first, "red", [{"place": "hq", "cell": 1}])
    b, b_sig = signed_orders(second, "red", [{"place": "hq", "cell": 2}])
    body = (signing.armor(a, a_sig, name="one.yaml") + "\nand for the other game:\n\n"
            + signing.armor(b, b_sig, name="two.yaml") + "\n" + signing.armor(b, b_sig).replace(
                "game: duel-two", "game: duel-six") + "\n")
    deliver(maildir, plain_mail(ADDRESSES["red"], "orders for both", body))
    judge().run(once=True)
    texts = [body_text(raw) for raw in take_outbox(maildir)]
    assert len(texts) == 2  # one answer per game (the unknown game's block is explained in the first)
    joined = "\n".join(texts)
    assert "accepted orders of red for seq 1" in texts[0] and "accepted orders of red for seq 1" in texts[1]
    assert f"names game 'duel-six'; this judge runs duel-one, duel-two for {ADDRESSES['red']}" in joined
    assert [s for s, _, _ in Archive(first.root).orders_files(1)] == ["red"]
    assert [s for s, _, _ in Archive(second.root).orders_files(1)] == ["red"]


def test_a_stranger_naming_an_unknown_game_learns_no_game_id(tmp_path: Path) -> None:
    from pbem.core import signing
    from pbem.mail.judge import Judge
    from pbem.mail.maildir import MaildirInbox, MaildirOutbox
    from tests.test_mail_kit import plain_mail, signed_orders, take_outbox

    first = make_world(tmp_path / "a", game_id="duel-one")
    second = make_world(tmp_path / "b", game_id="duel-two")
    maildir = tmp_path / "Maildir"
    keys = {first.root: first.referee, second.root: second.referee}
    judge = Judge([first.root, second.root], MaildirInbox(maildir), MaildirOutbox(maildir / "outbox"),
                  referee_key=lambda root: keys[root], address=JUDGE, now=first.clock, log=lambda _: None)
    judge.run(once=True)
    take_outbox(maildir)
    data, sig = signed_orders(first, "red", [{"place": "hq", "cell": 1}])
    body = signing.armor(data, sig).replace("game: duel-one", "game: duel-six") + "\n"
    deliver(maildir, plain_mail("someone@example.org", "orders", body))
    judge.run(once=True)
    [answer] = [body_text(raw) for raw in take_outbox(maildir)]
    assert "names game 'duel-six'; this judge runs no such game for someone@example.org" in answer
    assert "duel-one" not in answer and "duel-two" not in answer


def test_a_second_judge_on_the_same_game_refuses_to_start(tmp_path: Path) -> None:

    from pbem.core.errors import PbemError
    from pbem.mail.state import judge_lock
    from tests.test_mail_kit import maildir_judge

    world = make_world(tmp_path)
    with judge_lock(world.root):
        with pytest.raises(PbemError, match="another judge is serving this game"):
            maildir_judge(world, tmp_path / "Maildir").run(once=True)
    maildir_judge(world, tmp_path / "Maildir").run(once=True)


def test_a_failed_round_is_retried_when_running(tmp_path: Path) -> None:
    from typing import Iterator


    from pbem.mail.judge import Judge
    from pbem.mail.maildir import MaildirInbox, MaildirOutbox
    from pbem.mail.transport import Incoming
    from tests.test_mail_kit import plain_mail, take_outbox

    class Flaky(MaildirInbox):
        failures = 1

        def pending(self) -> Iterator[Incoming]:
            if self.failures:
                self.failures -= 1
                raise OSError("connection reset by the server")
            return super().pending()

    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    deliver(maildir, plain_mail("x@players.test", "status", ""))
    logged: list[str] = []
    judge = Judge([world.root], Flaky(maildir, poll_seconds=0.01), MaildirOutbox(maildir / "outbox"),
                  referee_key=lambda _: world.referee, address=JUDGE, now=world.clock, log=logged.append,
                  poll_seconds=0.01)
    judge.run(max_rounds=2)
    assert any("round failed (connection reset by the server)" in line for line in logged)
    assert len(take_outbox(maildir)) == 3  # two welcomes and the status answer
    with pytest.raises(OSError):
        Judge([world.root], Flaky(maildir), MaildirOutbox(maildir / "outbox"), referee_key=lambda _: world.referee,
              address=JUDGE, now=world.clock, log=logged.append).run(once=True)


def test_results_carry_view_report_map_and_the_referee_copy(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.render
    from pbem.core import signing
    from tests.test_mail_kit import attachments, maildir_judge, plain_mail, recipients, signed_orders, take_outbox

    # The judge sends whatever pbem.render draws and says (the duel fixture itself has no pictures).
    monkeypatch.setattr(pbem.render, "has_map", lambda view: True)
    monkeypatch.setattr(pbem.render, "map_svg", lambda view: f"<svg><!-- {view['side']} --></svg>")
    monkeypatch.setattr(pbem.render, "report_text", lambda view: f"Report for {view['side']}, turn {view['seq']}")
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    maildir_judge(world, maildir, referee_copy="referee@pbem.test").run(once=True)
    take_outbox(maildir)
    for side, cell in (("red", 2), ("blue", 4)):
        data, sig = signed_orders(world, side, [{"place": "hq", "cell": cell}])
        deliver(maildir, plain_mail(ADDRESSES[side], "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    maildir_judge(world, maildir, referee_copy="referee@pbem.test").run(once=True)
    mails = take_outbox(maildir)
    by_to = {recipients(raw)[0]: raw for raw in mails if "adjudication 1" in str(parse_mail(raw)["Subject"])
             or "master" in str(parse_mail(raw)["Subject"])}
    red = attachments(by_to[ADDRESSES["red"]])
    assert sorted(red) == ["duel-mail-0001-red-map.svg", "duel-mail-0001-red-report.txt", "duel-mail-0001-red.yaml",
                           "duel-mail-0001-red.yaml.sig"]
    assert red["duel-mail-0001-red-map.svg"] == b"<svg><!-- red --></svg>"
    assert red["duel-mail-0001-red-report.txt"].startswith(b"Report for red, turn 1")
    assert "Report for red, turn 1" in body_text(by_to[ADDRESSES["red"]])
    signing.verify(red["duel-mail-0001-red.yaml"], red["duel-mail-0001-red.yaml.sig"].decode(),
                   "pbem-turn@duel-mail", {"referee": world.referee.public_line})
    master = attachments(by_to["referee@pbem.test"])
    assert sorted(master) == ["duel-mail-0001-turn.yaml", "duel-mail-0001-turn.yaml.sig"]
    assert master["duel-mail-0001-turn.yaml"] == (world.root / "turns/0001/turn.yaml").read_bytes()


# --- the judge's folders are Maildir++ folders --------------------------------------------------

try:  # the IMAP test module's Dovecot (it skips itself without aiosmtpd, a test dependency)
    from tests.test_mail_imap import DOVECOT, Dovecot
    from tests.test_mail_imap import dovecot as imap_dovecot

    dovecot = imap_dovecot  # the module-scoped fixture, used here under its own name
except pytest.skip.Exception:  # pragma: no cover
    DOVECOT = None


def file_three_mails(world: World, maildir: Path) -> None:
    """One mail each for processed (orders accepted), failed (orders rejected) and ignored (automatic)."""
    from tests.test_mail_kit import maildir_judge, plain_mail, signed_orders, take_outbox

    red = ADDRESSES["red"]
    good, good_sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    bad, bad_sig = signed_orders(world, "blue", [{"place": "hq", "cell": 99}])
    deliver(maildir, plain_mail(red, "orders", "x", files={"o.yaml": good, "o.yaml.sig": good_sig.encode()}))
    deliver(maildir, plain_mail(ADDRESSES["blue"], "orders", "x", files={"o.yaml": bad, "o.yaml.sig": bad_sig.encode()}))
    deliver(maildir, plain_mail(red, "Out of office", "away", extra={"Auto-Submitted": "auto-replied"}))
    maildir_judge(world, maildir).run(once=True)
    take_outbox(maildir)


def test_the_judges_folders_are_maildir_plus_plus_folders(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    file_three_mails(world, maildir)
    for folder in ("processed", "failed", "ignored"):
        path = maildir / f".{folder}"
        assert sorted(p.name for p in path.iterdir()) == ["cur", "maildirfolder", "new", "tmp"], folder
        assert len(list((path / "cur").iterdir())) == 1, folder
        assert not (maildir / folder).exists()
    assert not any((maildir / "new").iterdir())


def test_folders_of_an_older_judge_are_moved_into_the_new_ones(tmp_path: Path) -> None:
    from pbem.mail.maildir import MaildirInbox

    maildir = tmp_path / "Maildir"
    for rel in ("processed/cur/1.a:2,S", "processed/new/2.a", "failed/cur/3.a:2,S", "ignored/cur/4.a:2,S"):
        (maildir / rel).parent.mkdir(parents=True, exist_ok=True)
        (maildir / rel).write_bytes(rel.encode())
    (maildir / "processed" / "tmp").mkdir()
    (maildir / ".failed" / "cur").mkdir(parents=True)
    (maildir / ".failed" / "cur" / "3.a:2,S").write_bytes(b"already there")  # a name taken: left where it was
    inbox = MaildirInbox(maildir)
    assert sorted(inbox.migrated) == ["ignored/cur/4.a:2,S", "processed/cur/1.a:2,S", "processed/new/2.a"]
    assert (maildir / ".processed/cur/1.a:2,S").read_bytes() == b"processed/cur/1.a:2,S"
    assert (maildir / ".processed/new/2.a").is_file() and (maildir / ".processed/maildirfolder").is_file()
    assert not (maildir / "processed").exists() and not (maildir / "ignored").exists()
    assert (maildir / ".failed/cur/3.a:2,S").read_bytes() == b"already there"
    assert (maildir / "failed/cur/3.a:2,S").read_bytes() == b"failed/cur/3.a:2,S"
    assert MaildirInbox(maildir).migrated == []  # the second start has nothing left to move


def test_an_answer_the_mail_agent_sent_is_not_written_again(tmp_path: Path) -> None:
    """The `sendmail -t` route: the agent moves each sent file to cur/; a judge that stopped before it
    recorded the answer as sent writes it again, and that must not make a second mail."""
    from pbem.mail.maildir import MaildirOutbox
    from pbem.mail.state import Queued

    outbox = MaildirOutbox(tmp_path / "outbox")
    item = Queued("0001-abc", "<a@pbem.test>", ("red@players.test",), b"Subject: x\n\nhello\n")
    outbox.send(item, "judge@pbem.test")
    [written] = list((tmp_path / "outbox" / "new").iterdir())
    assert written.name == "pbem-0001-abc"
    written.rename(tmp_path / "outbox" / "cur" / "pbem-0001-abc:2,S")  # what the agent does once it sent it
    outbox.send(item, "judge@pbem.test")
    assert list((tmp_path / "outbox" / "new").iterdir()) == []
    other = Queued("0002-def", "<b@pbem.test>", ("red@players.test",), b"Subject: y\n\nhello\n")
    outbox.send(other, "judge@pbem.test")
    assert [p.name for p in (tmp_path / "outbox" / "new").iterdir()] == ["pbem-0002-def"]


@pytest.mark.skipif(DOVECOT is None, reason="Dovecot is not installed (Debian: apt-get install dovecot-imapd)")
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_an_imap_server_on_the_same_maildir_shows_the_judges_folders(dovecot: "Dovecot", tmp_path: Path) -> None:
    import os
    import pwd

    world = make_world(tmp_path)
    home = dovecot.root / "mail" / "judge"
    maildir = home / "Maildir"
    file_three_mails(world, maildir)
    if os.geteuid() == 0:  # Dovecot reads the Maildir as its mail user
        owner = pwd.getpwnam("dovecot")
        for folder, _, files in os.walk(home):
            for name in [folder, *(os.path.join(folder, f) for f in files)]:
                os.chown(name, owner.pw_uid, owner.pw_gid)
    conn = dovecot.login("judge")
    try:
        typ, listed = conn.list()
        assert typ == "OK"
        names = {line.decode().rsplit(" ", 1)[-1].strip('"') for line in listed if isinstance(line, bytes)}
        assert {"INBOX", "processed", "failed", "ignored"} <= names, names
    finally:
        conn.logout()
    for folder in ("processed", "failed", "ignored"):
        assert dovecot.count("judge", folder) == 1, folder
