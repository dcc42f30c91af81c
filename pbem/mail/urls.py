"""Mail server URLs: `imap[s]://USER[:PASSWORD]@HOST[:PORT][/MAILBOX][?OPTIONS]` and `smtp[s]://...`.

- `imaps://` and `smtps://` speak TLS from the first byte (ports 993 and 465 by default);
  `imap://` and `smtp://` upgrade with STARTTLS (ports 143 and 587) and refuse to log in if the
  server does not offer it, unless `?starttls=no` says the link needs no protection (a local
  server on loopback).
- The password can stand in the URL (percent-encoded), but better comes from
  `?password_file=PATH` or the environment (`PBEM_IMAP_PASSWORD`, `PBEM_SMTP_PASSWORD`), so it
  never shows in a process list.
- `?cafile=PATH` trusts a server certificate outside the system's store (a self-signed one).
"""

from __future__ import annotations

import os
import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from ..core.api import PbemError

DEFAULT_PORTS = {"imap": 143, "imaps": 993, "smtp": 587, "smtps": 465}
OPTIONS = {"starttls", "cafile", "password_file"}


@dataclass(frozen=True)
class ServerUrl:
    scheme: str  # imap, imaps, smtp, smtps
    host: str
    port: int
    user: str | None
    password: str | None
    path: str  # the IMAP mailbox ("INBOX" by default)
    starttls: bool
    cafile: str | None

    @property
    def implicit_tls(self) -> bool:
        return self.scheme.endswith("s")

    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(cafile=self.cafile)
        return context

    def __str__(self) -> str:  # never shows the password
        user = f"{self.user}@" if self.user else ""
        mailbox = f"/{self.path}" if self.scheme.startswith("imap") else ""
        return f"{self.scheme}://{user}{self.host}:{self.port}{mailbox}"


def parse_url(text: str, kind: str) -> ServerUrl:
    """`kind` is "imap" or "smtp"."""
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in (kind, kind + "s"):
        raise PbemError(f"{kind} URL {text!r}: the scheme must be {kind}:// (STARTTLS) or {kind}s:// (TLS)")
    if not parts.hostname:
        raise PbemError(f"{kind} URL: no host in {parts.scheme}://...")
    options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    unknown = sorted(set(options) - OPTIONS)
    if unknown:
        raise PbemError(f"{kind} URL: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(OPTIONS))}")
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    if password is None and options.get("password_file"):
        password = Path(options["password_file"]).read_text(encoding="utf-8").strip()
    if password is None and user:
        password = os.environ.get(f"PBEM_{kind.upper()}_PASSWORD")
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError as error:
        raise PbemError(f"{kind} URL: {error}") from None
    starttls = not scheme.endswith("s") and options.get("starttls", "yes").lower() not in ("no", "0", "false")
    mailbox = unquote(parts.path.lstrip("/")) or "INBOX"
    return ServerUrl(scheme, parts.hostname, port, user, password, mailbox, starttls, options.get("cafile"))
