"""Shared helpers of the mail tests (games with addresses, a clock, mail delivery, bots) and their own checks."""

from __future__ import annotations

import datetime
import email
import email.message
import email.policy
import email.utils
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterable, Iterator

from pbem.core import signing, yamlio
from pbem.core.archive import Archive
from pbem.core.game import new_game
from pbem.mail.bots import MailPlayer
from pbem.mail.judge import Judge
from pbem.mail.maildir import MaildirInbox, MaildirOutbox, ensure_maildir
from tests.conftest import DUEL_SCENARIO

JUDGE = "judge@pbem.test"
ADDRESSES = {"red": "red@players.test", "blue": "blue@players.test", "us": "us@players.test",
             "german": "german@players.test"}
START = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, start: datetime.datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += datetime.timedelta(**delta)


@dataclass
class World:
    """A game whose sides have addresses, with the keys of everyone."""

    workdir: Path
    root: Path
    referee: signing.SigningKey
    keys: dict[str, signing.SigningKey]
    game_id: str
    clock: Clock = field(default_factory=Clock)

    @property
    def sides(self) -> list[str]:
        return list(self.keys)

    def player(self, side: str) -> MailPlayer:
        return MailPlayer(side, self.keys[side], ADDRESSES[side], JUDGE)


def make_world(workdir: Path, *, ruleset_scenario: Path = DUEL_SCENARIO, game_id: str = "duel-mail",
               settings: dict[str, object] | None = None, sides: Iterable[str] = ("red", "blue")) -> World:
    keys_dir = workdir / "keys"
    keys_dir.mkdir(parents=True, exist_ok=True)
    opened = {}
    for name in ["referee", *sides]:
        if not (keys_dir / name).exists():
            signing.write_keypair(name, keys_dir)
        opened[name] = signing.load_signing_key(keys_dir / name, passphrase=b"")
    root = workdir / "game"
    clock = Clock()  # the judge's time from the start: view 0's deadline counts from it
    new_game(ruleset_scenario, game_id, opened["referee"], {s: opened[s].public_line for s in sides}, root,
             addresses={s: ADDRESSES[s] for s in sides}, settings=settings, chain_length=256, now=clock)
    Archive(root).write_secret_note("referee-key", str((keys_dir / "referee").resolve()))
    return World(workdir, root, opened["referee"], {s: opened[s] for s in sides}, game_id, clock)


def deliver(maildir: Path, raw: bytes, name: str | None = None) -> Path:
    """Put a mail into a Maildir the way a delivery agent does (tmp/, then rename into new/)."""
    ensure_maildir(maildir)
    deliver.counter += 1  # type: ignore[attr-defined]
    name = name or f"{deliver.counter:06d}.test"  # type: ignore[attr-defined]
    tmp = maildir / "tmp" / name
    tmp.write_bytes(raw)
    final = maildir / "new" / name
    os.replace(tmp, final)
    return final


deliver.counter = 0  # type: ignore[attr-defined]


def maildir_judge(world: World, maildir: Path, **kw: object) -> Judge:
    return Judge([world.root], MaildirInbox(maildir, poll_seconds=0.05), MaildirOutbox(maildir / "outbox"),
                 referee_key=lambda _: world.referee, address=JUDGE, now=world.clock, log=lambda _: None,
                 **kw)  # type: ignore[arg-type]


def take_outbox(maildir: Path) -> list[bytes]:
    """The judge's answers waiting in DIR/outbox/new (taken out, as an MTA would)."""
    folder = maildir / "outbox" / "new"
    found = []
    if folder.is_dir():
        for path in sorted(folder.iterdir(), key=lambda p: (p.stat().st_mtime_ns, p.name)):
            if path.name.startswith("."):
                continue
            found.append(path.read_bytes())
            path.unlink()
    return found


def parse_mail(raw: bytes) -> email.message.EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, email.message.EmailMessage)
    return message


def recipients(raw: bytes) -> list[str]:
    return [address for _, address in email.utils.getaddresses([parse_mail(raw).get("To", "")])]


def body_text(raw: bytes) -> str:
    message = parse_mail(raw)
    part = message.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


def attachments(raw: bytes) -> dict[str, bytes]:
    found = {}
    for part in parse_mail(raw).iter_attachments():
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            found[part.get_filename() or ""] = payload
    return found


def plain_mail(sender: str, subject: str, body: str, *, to: str = JUDGE, message_id: str | None = None,
               extra: dict[str, str] | None = None,
               files: dict[str, bytes] | None = None) -> bytes:
    message = email.message.EmailMessage(policy=email.policy.default)
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = email.utils.format_datetime(START)
    message["Message-ID"] = message_id or email.utils.make_msgid("t", domain="players.test")
    message.set_content(body)
    for name, data in (files or {}).items():
        message.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    for name, value in (extra or {}).items():
        del message[name]
        message[name] = value
    return message.as_bytes()


def play_by_maildir(world: World, maildir: Path, players: dict[str, MailPlayer], *, max_rounds: int = 200,
                    on_round: Callable[[int], None] | None = None) -> list[bytes]:
    """Judge rounds until the game is over: every answer goes to its bot, every bot mail into the inbox."""
    judge = maildir_judge(world, maildir)
    by_address = {p.address: p for p in players.values()}
    seen: list[bytes] = []
    for number in range(max_rounds):
        judge.run(once=True)
        out = take_outbox(maildir)
        seen += out
        for raw in out:
            for address in recipients(raw):
                for reply in by_address[address].receive(raw):
                    deliver(maildir, reply)
        if on_round:
            on_round(number)
        if not out and not any((maildir / "new").iterdir()):
            break
    return seen


def signed_orders(world: World, side: str, orders: list[object], seq: int | None = None) -> tuple[bytes, str]:
    """An orders file of `side` for the game's next seq (from its latest view), and its signature."""
    from pbem.core.archive import view_rel
    from pbem.core.players import orders_document, read_view

    archive = Archive(world.root)
    view = read_view(world.root / view_rel(archive.latest_seq(), side))
    doc = orders_document(view, orders)
    if seq is not None:
        doc["seq"] = seq
    data = yamlio.dump(doc).encode("utf-8")
    return data, signing.sign(data, world.keys[side], signing.namespace("orders", world.game_id))


def welcome_then_mail_empty_orders(world: World, maildir: Path, judge: Judge, sides: tuple[str, ...] = ("red", "blue")
                                   ) -> None:
    """The judge's first round (its welcomes taken out of the outbox), then empty orders from each side."""
    judge.run(once=True)
    take_outbox(maildir)
    for side in sides:
        data, sig = signed_orders(world, side, [])
        deliver(maildir, plain_mail(ADDRESSES[side], "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))


# --- the kit's own checks ---------------------------------------------------------------------------


def test_clock_and_world(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    assert world.clock() == START
    world.clock.advance(hours=2)
    assert world.clock() == START + datetime.timedelta(hours=2)
    game = yamlio.load_file(world.root / "game.yaml").data
    assert [entry["address"] for entry in game["sides"]] == [ADDRESSES["red"], ADDRESSES["blue"]]


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for 127.0.0.1 (cert.pem, key.pem) for the TLS tests."""
    import datetime as dt
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    return cert_path, key_path


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class SmtpSink:
    """A real SMTP server (aiosmtpd) on 127.0.0.1: what the judge sends lands in `received`."""

    port: int
    cafile: Path
    user: str
    password: str
    received: list[tuple[str, list[str], bytes]] = field(default_factory=list)

    def url(self, scheme: str = "smtp") -> str:
        return f"{scheme}://{self.user}:{self.password}@127.0.0.1:{self.port}?cafile={self.cafile}"


class _SinkHandler:
    def __init__(self, sink: SmtpSink, forward: Callable[[str, list[str], bytes], None] | None) -> None:
        self.sink, self.forward = sink, forward

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        data = envelope.content  # type: ignore[attr-defined]
        item = (envelope.mail_from, list(envelope.rcpt_tos), bytes(data))  # type: ignore[attr-defined]
        self.sink.received.append(item)
        if self.forward is not None:
            self.forward(*item)
        return "250 OK"


def smtp_sink(folder: Path, *, implicit_tls: bool = False,
              forward: Callable[[str, list[str], bytes], None] | None = None) -> ContextManager[SmtpSink]:
    """A context manager: an aiosmtpd server requiring TLS (STARTTLS, or TLS from the start) and login."""
    import contextlib
    import ssl

    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    @contextlib.contextmanager
    def running() -> Iterator[SmtpSink]:
        cert, key = make_certificate(folder)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        sink = SmtpSink(free_port(), cert, "judge", "s3cret-pass")

        def authenticator(server, session, envelope, mechanism, auth_data):  # type: ignore[no-untyped-def]
            ok = (isinstance(auth_data, LoginPassword) and auth_data.login == sink.user.encode()
                  and auth_data.password == sink.password.encode())
            return AuthResult(success=ok)

        options: dict[str, Any] = dict(authenticator=authenticator, auth_required=True, auth_require_tls=True)
        if implicit_tls:
            # TLS from the first byte; aiosmtpd only knows TLS it negotiated itself (STARTTLS).
            options.update(ssl_context=context, auth_require_tls=False)
        else:
            options.update(tls_context=context, require_starttls=True)
        controller = Controller(_SinkHandler(sink, forward), hostname="127.0.0.1", port=sink.port,
                                ready_timeout=10, **options)
        controller.start()
        try:
            yield sink
        finally:
            controller.stop()

    return running()
