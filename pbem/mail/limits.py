"""Bounds on what the judge reads from a mail: a hostile sender can exceed none of them."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.api import yamlio


@dataclass(frozen=True)
class Limits:
    max_message_bytes: int = 10 * 1024 * 1024  # a whole mail, as delivered
    max_attachment_bytes: int = yamlio.MAX_FILE_BYTES  # one decoded part
    max_parts: int = 64  # MIME parts walked in one mail
    max_depth: int = 8  # multipart / forwarded-message nesting
    max_files: int = 32  # signed files taken from one mail
    max_header_bytes: int = 64 * 1024  # what is read of an oversized mail to answer it
    max_replies_per_address_per_day: int = 20  # loop breaker for senders that ignore RFC 3834


DEFAULT = Limits()
