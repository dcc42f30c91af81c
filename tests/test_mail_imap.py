"""The judge over a real IMAP server: Dovecot on 127.0.0.1, throwaway users, a temporary mail root.

The mail system of these tests is complete and real: the judge reads its Dovecot INBOX over
IMAP (STARTTLS, login) and sends through an SMTP server (aiosmtpd, STARTTLS, login) that
delivers every mail into the recipient's Dovecot mailbox; each bot player reads its own
mailbox over IMAP and sends its orders by SMTP. A complete game is played so; the archive
must pass `pbem audit`.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import pwd
import shutil
import smtplib
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator

import pytest

from pbem.core.audit import audit
from pbem.core.game import load_game
from pbem.core.position import current_position
from pbem.mail.bots import MailPlayer
from pbem.mail.imap import ImapInbox
from pbem.mail.judge import Judge
from pbem.mail.smtp import SmtpSender
from pbem.mail.urls import parse_url
from tests.test_mail_kit import (ADDRESSES, JUDGE, SmtpSink, World, body_text, free_port, make_certificate, make_world,
                                 parse_mail, plain_mail, smtp_sink)

pytest.importorskip("aiosmtpd")
DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)
pytestmark = [
    pytest.mark.skipif(DOVECOT is None, reason="Dovecot is not installed (Debian: apt-get install dovecot-imapd)"),
    pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS"),
]
PASSWORD = "pw-for-tests"
USERS = ["judge", *ADDRESSES]


@dataclass
class Dovecot:
    port: int
    cafile: Path
    root: Path

    def url(self, user: str, mailbox: str = "INBOX") -> str:
        return f"imap://{user}:{PASSWORD}@127.0.0.1:{self.port}/{mailbox}?cafile={self.cafile}"

    def login(self, user: str) -> imaplib.IMAP4:
        conn = imaplib.IMAP4("127.0.0.1", self.port, timeout=20)
        conn.starttls(ssl_context=ssl.create_default_context(cafile=str(self.cafile)))
        conn.login(user, PASSWORD)
        return conn

    def append(self, user: str, raw: bytes, mailbox: str = "INBOX") -> None:
        conn = self.login(user)
        try:
            typ, data = conn.append(mailbox, None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
            assert typ == "OK", data
        finally:
            conn.logout()

    def take(self, user: str, mailbox: str = "INBOX") -> list[bytes]:
        """Every mail in a user's mailbox, removed as a mail client that fetches and deletes."""
        conn = self.login(user)
        try:
            typ, _ = conn.select(mailbox)
            if typ != "OK":
                return []
            _, data = conn.uid("SEARCH", "ALL")
            found = []
            for raw_uid in (data[0] or b"").split():
                uid = raw_uid.decode("ascii")
                _, parts = conn.uid("FETCH", uid, "(BODY.PEEK[])")
                found += [item[1] for item in parts if isinstance(item, tuple)]
                conn.uid("STORE", uid, "+FLAGS.SILENT", "(\\Deleted)")
            conn.expunge()
            return found
        finally:
            conn.logout()

    def count(self, user: str, mailbox: str) -> int:
        conn = self.login(user)
        try:
            typ, data = conn.select(mailbox, readonly=True)
            return int(data[0] or 0) if typ == "OK" else 0
        finally:
            conn.logout()


def _wait_port(port: int, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    raise RuntimeError(f"Dovecot did not listen on 127.0.0.1:{port}")


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    assert DOVECOT is not None
    base = Path(tempfile.mkdtemp(prefix="pbem-dv-"))  # short: Dovecot's sockets live here
    os.chmod(base, 0o755)
    try:
        cert, key = make_certificate(base / "tls")
        os.chmod(base / "tls", 0o755)
        mail_root = base / "mail"
        mail_root.mkdir()
        (base / "passwd").write_text("".join(f"{user}:{{PLAIN}}{PASSWORD}::::::\n" for user in USERS))
        if os.geteuid() == 0:
            internal, login_user, mail_user = "dovecot", "dovenull", "dovecot"
            mail_uid = pwd.getpwnam(mail_user).pw_uid
            os.chown(mail_root, mail_uid, pwd.getpwnam(mail_user).pw_gid)
        else:
            internal = login_user = mail_user = pwd.getpwuid(os.geteuid()).pw_name
        port = free_port()
        conf = base / "dovecot.conf"
        conf.write_text(f"""
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = yes
auth_mechanisms = plain login
default_internal_user = {internal}
default_login_user = {login_user}
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_user} home={mail_root}/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
""")
        subprocess.run([DOVECOT, "-c", str(conf)], check=True, timeout=30)
        try:
            _wait_port(port)
            yield Dovecot(port, cert, base)
        finally:
            subprocess.run([DOVECOT, "-c", str(conf), "stop"], timeout=30, check=False)
            pid_file = base / "run" / "master.pid"
            deadline = time.monotonic() + 10
            while pid_file.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@contextlib.contextmanager
def mail_system(dovecot: Dovecot, folder: Path) -> Iterator[SmtpSink]:
    """An SMTP server that delivers each mail into its recipients' Dovecot mailboxes."""
    users = {address: user for user, address in ADDRESSES.items()} | {JUDGE: "judge"}

    def forward(mail_from: str, rcpts: list[str], data: bytes) -> None:
        for rcpt in rcpts:
            dovecot.append(users[rcpt], data)

    with smtp_sink(folder, forward=forward) as sink:
        yield sink


def fresh_user_mailboxes(dovecot: Dovecot) -> None:
    for user in USERS:
        dovecot.take(user)
        for box in ("processed", "failed", "ignored"):
            dovecot.take(user, box)


def submit_by_smtp(sink: SmtpSink, raw: bytes) -> None:
    context = ssl.create_default_context(cafile=str(sink.cafile))
    with smtplib.SMTP("127.0.0.1", sink.port, timeout=20) as conn:
        conn.starttls(context=context)
        conn.login(sink.user, sink.password)
        message = parse_mail(raw)
        conn.sendmail(message["From"].addresses[0].addr_spec, [JUDGE], raw.replace(b"\n", b"\r\n"))


def imap_judge(world: World, dovecot: Dovecot, sink: SmtpSink, **kw: object) -> Judge:
    return Judge([world.root], ImapInbox(parse_url(dovecot.url("judge"), "imap"), timeout=20),
                 SmtpSender(parse_url(sink.url(), "smtp"), timeout=20),
                 referee_key=lambda _: world.referee, address=JUDGE, now=world.clock, log=lambda _: None,
                 **kw)  # type: ignore[arg-type]


def play_over_imap(world: World, dovecot: Dovecot, sink: SmtpSink, max_rounds: int = 400) -> dict[str, MailPlayer]:
    players = {side: world.player(side) for side in world.sides}
    users = {side: side for side in world.sides}
    for _ in range(max_rounds):
        imap_judge(world, dovecot, sink).run(once=True)
        sent = 0
        for side, player in players.items():
            for raw in dovecot.take(users[side]):
                for reply in player.receive(raw):
                    submit_by_smtp(sink, reply)
                    sent += 1
        if current_position(load_game(world.root)).over() and sent == 0 and dovecot.count("judge", "INBOX") == 0:
            break
    return players


def test_whole_duel_game_over_imap(dovecot: Dovecot, tmp_path: Path) -> None:
    fresh_user_mailboxes(dovecot)
    world = make_world(tmp_path)
    with mail_system(dovecot, tmp_path / "tls") as sink:
        players = play_over_imap(world, dovecot, sink)
    assert current_position(load_game(world.root)).over(), [p.log for p in players.values()]
    assert audit(world.root) == []
    assert dovecot.count("judge", "INBOX") == 0
    assert dovecot.count("judge", "failed") == 0, dovecot.take("judge", "failed")[:1]
    # every mail the players sent was of use (a duel game's length depends on its dice)
    sent = sum(line.startswith("sent ") for p in players.values() for line in p.log)
    assert sent >= 4 and dovecot.count("judge", "processed") == sent
    styles = {line.split("(")[-1] for p in players.values() for line in p.log}
    assert styles == {"attach)", "armor-qp)", "armor-quoted)"}


def _fbsm_ready() -> str | None:
    try:
        from pbem.core.ruleset import get

        get("fbsm")
    except Exception as error:  # the shipped game is still being written
        return f"fbsm is not importable here ({error})"
    if not (Path(__file__).resolve().parent.parent / "samples" / "fbsm" / "scenario.yaml").is_file():
        return "samples/fbsm/scenario.yaml is missing"
    return None


@pytest.mark.skipif(_fbsm_ready() is not None, reason=str(_fbsm_ready()))
def test_whole_fbsm_game_over_imap(dovecot: Dovecot, tmp_path: Path) -> None:
    scenario = Path(__file__).resolve().parent.parent / "samples" / "fbsm" / "scenario.yaml"
    fresh_user_mailboxes(dovecot)
    world = make_world(tmp_path, ruleset_scenario=scenario, game_id="fbsm-mail", sides=("us", "german"))
    with mail_system(dovecot, tmp_path / "tls") as sink:
        players = play_over_imap(world, dovecot, sink, max_rounds=2000)
    assert current_position(load_game(world.root)).over(), [p.log[-3:] for p in players.values()]
    assert audit(world.root) == []


def wait_for(ready: Callable[[], bool], what: str, seconds: float = 300.0) -> None:
    """Wait for another thread's work; the bound only keeps a broken run from hanging (not a speed claim)."""
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"{what}: still not done after {seconds:g} s"
        time.sleep(0.05)


def test_idle_wakes_the_judge_and_hostile_mail_is_filed(dovecot: Dovecot, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge waits in IDLE for its 120 s poll; the server's word on new mail ends the wait.

    Told by what ended each wait (the socket readable, or its time up), not by how long it took.
    """
    from pbem.mail import imap as imap_module

    waits: list[tuple[float, bool]] = []  # (seconds the IDLE wait was to last, whether the server spoke first)
    idling = threading.Event()
    real_select = imap_module.select.select

    def select(rlist: list[Any], wlist: list[Any], xlist: list[Any], timeout: float) -> Any:
        if timeout > 60:
            idling.set()
        found = real_select(rlist, wlist, xlist, timeout)
        waits.append((timeout, bool(found[0])))
        return found

    monkeypatch.setattr(imap_module, "select", SimpleNamespace(select=select))
    fresh_user_mailboxes(dovecot)
    world = make_world(tmp_path)
    with mail_system(dovecot, tmp_path / "tls") as sink:
        judge = imap_judge(world, dovecot, sink, poll_seconds=120.0)
        thread = threading.Thread(target=judge.run, kwargs={"max_rounds": 2}, daemon=True)
        thread.start()
        wait_for(lambda: len(sink.received) >= 2, "the welcome mails")
        assert len(sink.received) == 2
        wait_for(idling.is_set, "the judge's IDLE")
        big = plain_mail(ADDRESSES["red"], "big", "x", files={"orders.yaml": os.urandom(12 * 1024 * 1024)})
        dovecot.append("judge", big)
        thread.join(600)  # whatever ends the wait (the server, or the 120 s poll), the judge stops after it
        assert not thread.is_alive()
    idle_waits = [woken for timeout, woken in waits if timeout > 60]
    assert idle_waits and idle_waits[-1], f"IDLE did not wake the judge: {waits}"
    [answer] = [raw for _, _, raw in sink.received[2:]]
    assert "the judge reads mails of at most" in body_text(answer)
    assert dovecot.count("judge", "INBOX") == 0 and dovecot.count("judge", "failed") == 1
    for box in ("INBOX", "failed"):
        dovecot.take("judge", box)
    dovecot.take("red")


class OldServerInbox(ImapInbox):
    """The same Dovecot, seen as a server without MOVE, UIDPLUS and IDLE (COPY + EXPUNGE, and polling)."""

    idled = 0  # IDLE commands it was asked to send (a server without IDLE must get none)

    def connect(self) -> imaplib.IMAP4:
        conn = super().connect()
        self.capabilities -= {"MOVE", "UIDPLUS", "IDLE"}
        return conn

    def _idle(self, conn: imaplib.IMAP4, seconds: float) -> None:
        self.idled += 1
        super()._idle(conn, seconds)


def test_a_server_without_move_or_idle(dovecot: Dovecot, tmp_path: Path) -> None:
    fresh_user_mailboxes(dovecot)
    world = make_world(tmp_path)
    with mail_system(dovecot, tmp_path / "tls") as sink:
        dovecot.append("judge", plain_mail(ADDRESSES["red"], "status", ""))
        dovecot.append("judge", plain_mail(ADDRESSES["red"], "hello", "no orders", extra={"Precedence": "bulk"}))
        inbox = OldServerInbox(parse_url(dovecot.url("judge"), "imap"), poll_seconds=0.2, timeout=20)
        judge = Judge([world.root], inbox,
                      SmtpSender(parse_url(sink.url(), "smtp"), timeout=20), referee_key=lambda _: world.referee,
                      address=JUDGE, now=world.clock, log=lambda _: None, poll_seconds=0.2)
        judge.run(max_rounds=2)  # the wait between the rounds is a poll, not IDLE
        assert inbox.idled == 0
    assert len(sink.received) == 3
    assert dovecot.count("judge", "INBOX") == 0
    assert dovecot.count("judge", "processed") == 1 and dovecot.count("judge", "ignored") == 1
    for box in ("processed", "ignored"):
        dovecot.take("judge", box)
    for user in ("red", "blue"):
        dovecot.take(user)


def test_judge_command_over_imap(dovecot: Dovecot, tmp_path: Path) -> None:
    from tests.test_mail_cli import pbem

    fresh_user_mailboxes(dovecot)
    world = make_world(tmp_path)
    with mail_system(dovecot, tmp_path / "tls") as sink:
        dovecot.append("judge", plain_mail(ADDRESSES["blue"], "status", ""))
        rc, _, err = pbem("judge", world.root, "--imap", dovecot.url("judge"), "--smtp", sink.url(),
                          "--address", JUDGE, "--once")
        assert rc == 0, err
    assert sorted(rcpt for _, rcpts, _ in sink.received for rcpt in rcpts) == sorted(
        [ADDRESSES["red"], ADDRESSES["blue"], ADDRESSES["blue"]])
    status = [raw for _, rcpts, raw in sink.received if "Re: status" in str(parse_mail(raw)["Subject"])]
    assert len(status) == 1 and "red: owes orders" in body_text(status[0])
    assert dovecot.count("judge", "INBOX") == 0
    dovecot.take("judge", "processed")
    for user in ("red", "blue"):
        dovecot.take(user)
