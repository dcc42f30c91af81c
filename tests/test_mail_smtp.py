"""The judge's answers through a real SMTP server (aiosmtpd on 127.0.0.1), read as a mail client reads them."""

from __future__ import annotations

import email.utils
from pathlib import Path

import pytest

from pbem.core import signing
from pbem.core.errors import PbemError
from pbem.mail.judge import Judge
from pbem.mail.maildir import MaildirInbox
from pbem.mail.smtp import SmtpSender
from pbem.mail.urls import parse_url
from tests.test_mail_kit import (ADDRESSES, JUDGE, attachments, body_text, deliver, make_world, parse_mail,
                                 plain_mail, signed_orders, smtp_sink)

pytest.importorskip("aiosmtpd")


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("implicit_tls", [False, True], ids=["starttls", "smtps"])
def test_answers_arrive_as_proper_mime(tmp_path: Path, implicit_tls: bool) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    with smtp_sink(tmp_path / "tls", implicit_tls=implicit_tls) as sink:
        url = parse_url(sink.url("smtps" if implicit_tls else "smtp"), "smtp")
        judge = Judge([world.root], MaildirInbox(maildir), SmtpSender(url, timeout=10),
                      referee_key=lambda _: world.referee, address=JUDGE, now=world.clock, log=lambda _: None)
        judge.run(once=True)
        data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
        incoming = plain_mail(ADDRESSES["red"], "my orders", "attached", message_id="<o1@players.test>",
                              files={"o.yaml": data, "o.yaml.sig": sig.encode()})
        deliver(maildir, incoming)
        judge = Judge([world.root], MaildirInbox(maildir), SmtpSender(url, timeout=10),
                      referee_key=lambda _: world.referee, address=JUDGE, now=world.clock, log=lambda _: None)
        judge.run(once=True)
    assert len(sink.received) == 3
    welcome = [raw for _, rcpts, raw in sink.received if rcpts == [ADDRESSES["red"]]][0]
    receipt = sink.received[-1]
    assert receipt[0] == JUDGE and receipt[1] == [ADDRESSES["red"]]
    message = parse_mail(receipt[2])
    assert message["In-Reply-To"] == "<o1@players.test>"
    assert "<o1@players.test>" in message["References"]
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["Subject"] == "Re: my orders"
    assert email.utils.parsedate_to_datetime(message["Date"]) == world.clock()
    assert message["Message-ID"].startswith("<pbem-") and message["Message-ID"].endswith("@pbem.test>")
    assert "accepted orders of red for seq 1" in body_text(receipt[2])
    assert b"\r\n" in receipt[2]  # SMTP line ends on the wire
    files = attachments(welcome)
    view, view_sig = files["duel-mail-0000-red.yaml"], files["duel-mail-0000-red.yaml.sig"].decode()
    game = files["game.yaml"]
    signing.verify(view, view_sig, "pbem-turn@duel-mail", {"referee": world.referee.public_line})
    signing.verify(game, files["game.yaml.sig"].decode(), "pbem-turn@duel-mail", {"referee": world.referee.public_line})


def test_wrong_password_and_missing_starttls_are_errors(tmp_path: Path) -> None:
    from pbem.mail.state import Queued

    with smtp_sink(tmp_path / "tls") as sink:
        bad = parse_url(sink.url().replace(sink.password, "wrong"), "smtp")
        with pytest.raises(PbemError):
            SmtpSender(bad, timeout=2).send(Queued("k", "<x@y>", ("a@b.test",), b"Subject: x\n\nx\n"), JUDGE)
        assert sink.received == []
    # A server without STARTTLS: the judge will not log in or send in clear unless told it may.
    from aiosmtpd.controller import Controller

    from tests.test_mail_kit import SmtpSink, _SinkHandler, free_port

    plain = SmtpSink(free_port(), tmp_path, "u", "p")
    controller = Controller(_SinkHandler(plain, None), hostname="127.0.0.1", port=plain.port, ready_timeout=10)
    controller.start()
    try:
        item = Queued("k", "<x@y>", ("a@b.test",), b"Subject: x\n\nx\n")
        with pytest.raises(PbemError, match="offers no STARTTLS"):
            SmtpSender(parse_url(f"smtp://127.0.0.1:{plain.port}", "smtp"), timeout=5).send(item, JUDGE)
        assert plain.received == []
        SmtpSender(parse_url(f"smtp://127.0.0.1:{plain.port}?starttls=no", "smtp"), timeout=5).send(item, JUDGE)
        assert len(plain.received) == 1
    finally:
        controller.stop()


def test_urls() -> None:
    url = parse_url("imaps://judge%40example.org:p%2Fw@mail.example.org/Orders", "imap")
    assert (url.user, url.password, url.host, url.port, url.path, url.implicit_tls) == (
        "judge@example.org", "p/w", "mail.example.org", 993, "Orders", True)
    assert "p/w" not in str(url)
    url = parse_url("smtp://mail.example.org", "smtp")
    assert (url.port, url.starttls, url.user) == (587, True, None)
    assert parse_url("smtp://127.0.0.1:2525?starttls=no", "smtp").starttls is False
    for bad in ("http://x", "imap://", "imap://h?bogus=1"):
        with pytest.raises(PbemError):
            parse_url(bad, "imap")
