"""The judge's answers as proper MIME mail: Message-ID, In-Reply-To, References, Date, Auto-Submitted.

Message-IDs are derived from what the mail answers (the incoming Message-ID, the recipient and
the kind of answer), so composing the same answer again after a stop gives the same mail, and
mail clients that see it twice show it once.
"""

from __future__ import annotations

import datetime
import email.message
import email.policy
import email.utils
import hashlib
from dataclasses import dataclass
from typing import Sequence

from .autoreply import JUDGE_HEADER

POLICY = email.policy.default.clone(max_line_length=998)


@dataclass(frozen=True)
class Part:
    """One attachment of an outgoing mail."""

    name: str
    data: bytes
    content_type: str = "application/octet-stream"


@dataclass(frozen=True)
class Outgoing:
    """A mail ready to go: its id, envelope recipients and RFC 5322 bytes (LF line ends)."""

    message_id: str
    to: tuple[str, ...]
    data: bytes

    @property
    def key(self) -> str:
        """A file-name-safe key of the Message-ID."""
        return hashlib.sha256(self.message_id.encode("utf-8")).hexdigest()[:32]


def domain_of(address: str) -> str:
    return address.rpartition("@")[2] or "localhost"


def make_id(*parts: str, domain: str) -> str:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:32]
    return f"<pbem-{digest}@{domain}>"


def content_type_for(name: str) -> str:
    lowered = name.lower()
    if lowered.endswith((".yaml", ".yml")):
        return "application/yaml"
    if lowered.endswith(".svg"):
        return "image/svg+xml"
    if lowered.endswith(".png"):
        return "image/png"
    if lowered.endswith((".txt", ".md")):
        return "text/plain"
    return "application/octet-stream"


def compose(*, sender: str, to: Sequence[str], subject: str, body: str, message_id: str,
            game: str = "", in_reply_to: str | None = None, references: Sequence[str] = (),
            attachments: Sequence[Part] = (), now: datetime.datetime | None = None) -> Outgoing:
    """A plain-text mail with attachments (each base64, so signed bytes arrive unchanged)."""
    message = email.message.EmailMessage(policy=POLICY)
    message["From"] = sender
    message["To"] = ", ".join(to)
    message["Subject"] = subject
    message["Date"] = email.utils.format_datetime(now or datetime.datetime.now(datetime.timezone.utc))
    message["Message-ID"] = message_id
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        chain = [ref for ref in references if ref != in_reply_to][-10:] + [in_reply_to]
        message["References"] = " ".join(chain)
    # RFC 3834 §5: an answer to a message is auto-replied; results and reminders are auto-generated.
    message["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    message[JUDGE_HEADER] = game or "pbem"
    message.set_content(body if body.endswith("\n") else body + "\n", charset="utf-8")
    for part in attachments:
        maintype, _, subtype = part.content_type.partition("/")
        if maintype == "text":
            message.add_attachment(part.data.decode("utf-8", errors="replace"), subtype=subtype,
                                   filename=part.name, charset="utf-8", cte="base64")
        else:
            message.add_attachment(part.data, maintype=maintype, subtype=subtype, filename=part.name)
    return Outgoing(message_id, tuple(to), message.as_bytes(policy=POLICY))


def as_crlf(data: bytes) -> bytes:
    """The same mail with CRLF line ends, as SMTP wants it."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
