"""The Maildir transport, the embedded default: any delivery agent fills `DIR/new/`.

Handled mail moves to `DIR/.processed/cur/`, mail that could not be handled to `DIR/.failed/cur/`
(with an `X-Pbem-Failure:` header giving the reason), automatic mail that must not be answered
to `DIR/.ignored/cur/`. These are Maildir++ folders (a dot before the name, `cur/ new/ tmp/` and a
`maildirfolder` file), so an IMAP server serving the same Maildir (Dovecot, Courier) shows them as
the folders processed, failed and ignored. Folders an older judge made without the dot are moved
into them when the inbox is opened.

Without an SMTP server, the judge's answers are delivered as files into the Maildir
`DIR/outbox/` (`new/`), for any mail transfer agent to pick up; a file there is named by the
answer's Message-ID (`pbem-...`), so writing the same answer again cannot make a second one.
The agent moves each file it sent into `outbox/cur/`; an answer found there is never written
again, even by a judge that stopped before it recorded the answer as sent.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import shutil
import time
from pathlib import Path
from typing import Iterator

from ..core.api import atomic_write, fsync_dir
from .state import Queued
from .transport import FAILED, IGNORED, PROCESSED, Incoming, failure_header

SUBDIRS = ("tmp", "new", "cur")
OUTBOX = "outbox"
FOLDER_MARK = "maildirfolder"  # the Maildir++ mark of a folder (as maildrop and Courier write it)


def ensure_maildir(path: Path) -> Path:
    for sub in SUBDIRS:
        (path / sub).mkdir(parents=True, exist_ok=True)
    return path


def folder_path(root: Path, folder: str) -> Path:
    """Where the Maildir++ folder `folder` of the Maildir `root` lives: `root/.folder`."""
    return root / f".{folder}"


def ensure_folder(root: Path, folder: str) -> Path:
    path = ensure_maildir(folder_path(root, folder))
    mark = path / FOLDER_MARK
    if not mark.exists():
        mark.touch()
    return path


def migrate_folders(root: Path) -> list[str]:
    """Move the mail of old folders (`root/processed/`, ...) into their Maildir++ folders; the names moved.

    Each mail is one rename, so a stop halfway leaves every mail in one of the two places and the
    next start finishes the move. A name already in the new folder is left where it is.
    """
    moved = []
    for folder in (PROCESSED, FAILED, IGNORED):
        old = root / folder
        if not (old / "cur").is_dir():
            continue
        new = ensure_folder(root, folder)
        for sub in ("cur", "new"):
            source = old / sub
            if not source.is_dir():
                continue
            for entry in sorted(source.iterdir()):
                target = new / sub / entry.name
                if entry.is_file() and not target.exists():
                    os.replace(entry, target)
                    moved.append(f"{folder}/{sub}/{entry.name}")
            fsync_dir(new / sub)
        for sub in SUBDIRS:
            with contextlib.suppress(OSError):
                (old / sub).rmdir()  # only when empty
        with contextlib.suppress(OSError):
            old.rmdir()
    return moved


class MaildirInbox:
    def __init__(self, root: Path | str, poll_seconds: float = 5.0) -> None:
        self.root = ensure_maildir(Path(root))
        self.poll_seconds = poll_seconds
        self.migrated = migrate_folders(self.root)

    def pending(self) -> Iterator[Incoming]:
        entries = []
        for sub in ("new", "cur"):
            folder = self.root / sub
            for entry in folder.iterdir():
                if entry.is_file() and not entry.name.startswith("."):
                    entries.append(entry)
        entries.sort(key=lambda p: (p.stat().st_mtime, p.name))
        for path in entries:
            if path.exists():
                info = path.stat()  # delivery writes the file, then renames it into new/: its mtime is the arrival
                arrived = datetime.datetime.fromtimestamp(int(info.st_mtime), datetime.timezone.utc)
                yield Incoming(str(path.relative_to(self.root)), info.st_size, self._loader(path), arrived)

    @staticmethod
    def _loader(path: Path):  # type: ignore[no-untyped-def]
        def load(limit: int) -> bytes:
            with open(path, "rb") as handle:
                return handle.read(limit + 1)[: limit] if path.stat().st_size > limit else handle.read()
        return load

    def file(self, item: Incoming, folder: str, reason: str | None = None) -> None:
        source = self.root / item.key
        if not source.exists():
            return
        target_dir = ensure_folder(self.root, folder)
        name = source.name.split(":2,")[0] + ":2,S"
        target = target_dir / "cur" / name
        if folder == FAILED and reason:
            staging = target_dir / "tmp" / name
            with open(staging, "wb") as out, open(source, "rb") as handle:
                out.write(failure_header(reason))
                shutil.copyfileobj(handle, out, 1024 * 1024)
                out.flush()
                os.fsync(out.fileno())
            os.replace(staging, target)
            fsync_dir(target.parent)
            source.unlink()
        else:
            os.replace(source, target)
            fsync_dir(target.parent)
        fsync_dir(source.parent)

    def wait(self, seconds: float) -> None:
        deadline = time.monotonic() + max(0.0, seconds)
        while time.monotonic() < deadline:
            if any((self.root / "new").iterdir()):
                return
            time.sleep(min(self.poll_seconds, max(0.0, deadline - time.monotonic())))

    def close(self) -> None:
        pass


class MaildirOutbox:
    """Answers as files in a Maildir, for a mail transfer agent to send."""

    def __init__(self, root: Path | str) -> None:
        self.root = ensure_maildir(Path(root))

    def send(self, item: Queued, envelope_from: str) -> str | None:
        name = f"pbem-{item.key}"
        if self._already_sent(name):
            return None  # the mail transfer agent has sent it already
        atomic_write(self.root / "new" / name, item.data)
        return None

    def _already_sent(self, name: str) -> bool:
        """Whether the agent moved this answer into cur/ (as `name`, or with Maildir flags `name:2,...`)."""
        cur = self.root / "cur"
        return (cur / name).exists() or any(cur.glob(f"{name}:*"))

    def close(self) -> None:
        pass
