"""The IMAP transport: a real mailbox on a real server (imaplib, TLS or STARTTLS, login).

Mail is read from the URL's mailbox (INBOX by default) without marking it seen, and filed
afterwards into the mailboxes `processed`, `failed` and `ignored` beside it (created when
missing), with UID MOVE where the server offers it, else COPY, \\Deleted and EXPUNGE. A mail
bigger than the judge reads is never downloaded: only its head is, to answer it. Between rounds
the judge waits with IDLE where the server has it (RFC 2177), else polls.
"""

from __future__ import annotations

import datetime
import imaplib
import re
import select
import time
from typing import Any, Iterator

from ..core.api import PbemError
from .transport import FAILED, Incoming, failure_header
from .urls import ServerUrl

TIMEOUT_SECONDS = 60.0
IDLE_MAX_SECONDS = 25 * 60  # RFC 2177: re-issue IDLE at least every 29 minutes
MAX_COPY_BYTES = 10 * 1024 * 1024  # a failed mail up to this size is filed as a copy with the reason added
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


class ImapInbox:
    def __init__(self, url: ServerUrl, poll_seconds: float = 60.0, timeout: float = TIMEOUT_SECONDS) -> None:
        self.url = url
        self.poll_seconds = poll_seconds
        self.timeout = timeout
        self.conn: imaplib.IMAP4 | None = None
        self.capabilities: set[str] = set()
        self.created: set[str] = set()

    # --- the connection ---------------------------------------------------------------------------
    def connect(self) -> imaplib.IMAP4:
        if self.conn is not None:
            return self.conn
        url = self.url
        try:
            if url.implicit_tls:
                conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(url.host, url.port, ssl_context=url.ssl_context(),
                                                        timeout=self.timeout)
            else:
                conn = imaplib.IMAP4(url.host, url.port, timeout=self.timeout)
                if url.starttls:
                    if "STARTTLS" not in conn.capabilities:
                        conn.shutdown()
                        raise PbemError(f"{url}: the server offers no STARTTLS; refusing to log in in clear "
                                        "(add ?starttls=no only for a server on this machine)")
                    conn.starttls(ssl_context=url.ssl_context())
            if url.user:
                conn.login(url.user, url.password or "")
            typ, data = conn.capability()
            self.capabilities = set(data[0].decode("ascii", "replace").upper().split()) if typ == "OK" else set()
            typ, data = conn.select(self._quote(url.path))
            if typ != "OK":
                raise PbemError(f"{url}: cannot open mailbox {url.path!r}: {data!r}")
        except (imaplib.IMAP4.error, OSError) as error:
            raise PbemError(f"{url}: {error}") from None
        self.conn = conn
        return conn

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.logout()
            except (imaplib.IMAP4.error, OSError):
                pass
            self.conn = None

    def _drop(self) -> None:
        """Forget a broken connection; the next call connects again."""
        if self.conn is not None:
            try:
                self.conn.shutdown()
            except OSError:
                pass
        self.conn = None

    @staticmethod
    def _quote(mailbox: str) -> str:
        return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def _check(self, result: tuple[str, Any], what: str) -> list[Any]:
        typ, data = result
        if typ != "OK":
            raise PbemError(f"{self.url}: {what} failed: {data!r}")
        return list(data)

    # --- reading ------------------------------------------------------------------------------------
    def pending(self) -> Iterator[Incoming]:
        conn = self.connect()
        try:
            data = self._check(conn.uid("SEARCH", "UNDELETED"), "SEARCH")
        except (imaplib.IMAP4.abort, OSError):
            self._drop()
            raise
        uids = [uid.decode("ascii") for uid in (data[0] or b"").split()] if data and isinstance(data[0], bytes) else []
        for uid in uids:
            typ, meta = conn.uid("FETCH", uid, "(RFC822.SIZE INTERNALDATE)")
            if typ != "OK" or not meta or meta[0] is None:
                continue
            header = meta[0] if isinstance(meta[0], bytes) else meta[0][0]
            found = _SIZE.search(header)
            if not found:
                continue
            yield Incoming(uid, int(found.group(1)), self._loader(uid, int(found.group(1))), _arrival(header))

    def _loader(self, uid: str, size: int):  # type: ignore[no-untyped-def]
        def load(limit: int) -> bytes:
            conn = self.connect()
            part = "BODY.PEEK[]" if size <= limit else "BODY.PEEK[HEADER]"
            data = self._check(conn.uid("FETCH", uid, f"({part})"), "FETCH")
            for item in data:
                if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                    return item[1]
            raise PbemError(f"{self.url}: message UID {uid} vanished while being read")
        return load

    # --- filing -------------------------------------------------------------------------------------
    def _ensure(self, folder: str) -> None:
        if folder in self.created:
            return
        conn = self.connect()
        conn.create(self._quote(folder))  # NO when it exists: fine
        self.created.add(folder)

    def file(self, item: Incoming, folder: str, reason: str | None = None) -> None:
        conn = self.connect()
        self._ensure(folder)
        if folder == FAILED and reason and item.size <= MAX_COPY_BYTES:
            data = item.load(item.size)
            self._check(conn.append(self._quote(folder), "(\\Seen)", None, failure_header(reason).replace(
                b"\n", b"\r\n") + data), "APPEND")
            self._delete(item.key)
            return
        if "MOVE" in self.capabilities:
            self._check(conn.uid("MOVE", item.key, self._quote(folder)), "MOVE")
            return
        self._check(conn.uid("COPY", item.key, self._quote(folder)), "COPY")
        self._delete(item.key)

    def _delete(self, uid: str) -> None:
        conn = self.connect()
        self._check(conn.uid("STORE", uid, "+FLAGS.SILENT", "(\\Deleted)"), "STORE")
        if "UIDPLUS" in self.capabilities:
            self._check(conn.uid("EXPUNGE", uid), "UID EXPUNGE")
        else:
            self._check(conn.expunge(), "EXPUNGE")

    # --- waiting ------------------------------------------------------------------------------------
    def wait(self, seconds: float) -> None:
        seconds = max(0.0, min(seconds, IDLE_MAX_SECONDS))
        if seconds == 0:
            return
        try:
            conn = self.connect()
        except PbemError:
            time.sleep(min(seconds, self.poll_seconds))
            return
        if "IDLE" not in self.capabilities:
            time.sleep(min(seconds, self.poll_seconds))
            return
        try:
            self._idle(conn, seconds)
        except (imaplib.IMAP4.error, OSError):
            self._drop()

    def _idle(self, conn: imaplib.IMAP4, seconds: float) -> None:
        """IDLE until the server reports new mail (EXISTS/RECENT) or `seconds` pass; then DONE."""
        tag = conn._new_tag()
        conn.send(tag + b" IDLE\r\n")
        first = conn.readline()
        if not first.startswith(b"+"):
            raise imaplib.IMAP4.error(f"IDLE refused: {first!r}")
        sock = conn.socket()
        deadline = time.monotonic() + seconds
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                pending = getattr(sock, "pending", lambda: 0)()
                if not pending:
                    readable, _, _ = select.select([sock], [], [], remaining)
                    if not readable:
                        break
                line = conn.readline()
                if not line:
                    raise OSError("the IMAP server closed the connection")
                if re.match(rb"\* \d+ (EXISTS|RECENT)", line):
                    break
        finally:
            conn.send(b"DONE\r\n")
            while True:
                line = conn.readline()
                if not line:
                    raise OSError("the IMAP server closed the connection")
                if line.startswith(tag):
                    break


def _arrival(header: bytes) -> datetime.datetime | None:
    """The server's INTERNALDATE (when it took the mail in), in UTC, if the FETCH answer has one."""
    parsed = imaplib.Internaldate2tuple(header)
    if parsed is None:
        return None
    return datetime.datetime.fromtimestamp(int(time.mktime(parsed)), datetime.timezone.utc)
