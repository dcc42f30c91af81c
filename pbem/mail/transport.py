"""What the judge needs of a mailbox and of an outgoing server, whatever carries the mail."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Callable, Iterator, Protocol

from ..core.api import PbemError
from .state import Queued

PROCESSED, FAILED, IGNORED = "processed", "failed", "ignored"
FAILURE_HEADER = "X-Pbem-Failure"


@dataclass(frozen=True)
class Incoming:
    """A mail waiting in the inbox: `load()` gives its bytes, or only its head if it is too large."""

    key: str
    size: int
    load: Callable[[int], bytes]  # load(limit): the whole mail if size <= limit, else its first bytes
    arrived: datetime.datetime | None = None  # when the mailbox took it in: what deadlines are held against


class Inbox(Protocol):
    def pending(self) -> Iterator[Incoming]: ...

    def file(self, item: Incoming, folder: str, reason: str | None = None) -> None:
        """Move the mail out of the inbox into `folder` (with the reason as a header for failed/)."""

    def wait(self, seconds: float) -> None:
        """Return when new mail may have come, or after `seconds`."""

    def close(self) -> None: ...


class PermanentSendError(PbemError):
    """The server will never take this mail (every recipient refused): retrying cannot help."""


class Sender(Protocol):
    def send(self, item: Queued, envelope_from: str) -> str | None:
        """Send; None, or a warning when the mail went to some recipients only."""

    def close(self) -> None: ...


def failure_header(reason: str) -> bytes:
    flat = " ".join(reason.split())[:900]
    return f"{FAILURE_HEADER}: {flat}\n".encode("utf-8", errors="replace")
