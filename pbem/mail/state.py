"""The judge's own memory, one file per game under `.referee/`, always written atomically.

    .referee/mail-judge.json     answered Message-IDs, announcements, reminders, deadline clocks
    .referee/mail-outbox/        answers composed but not yet sent (KEY.eml, then KEY.json)
    .referee/mail-judge.owner    the judge serving the game (one judge per game: see ownership.py)

The order of writes makes a stop at any instant safe: the archive write (by the core) is
durable first; then the answers land in the outbox; then the message is recorded as answered;
then it leaves the inbox; then the outbox is sent, each answer recorded as sent before its file
goes. A restart redoes only what was not recorded, and an answer is composed with the same
Message-ID every time, so nothing is lost and no Message-ID is answered twice.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ..core.api import PbemError, atomic_write, referee_folder
from .compose import Outgoing
from .ownership import judge_lock as judge_lock  # where the judge and its tests have always found it

STATE_FILE = "mail-judge.json"
OUTBOX_DIR = "mail-outbox"


def iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime.datetime:
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)


@dataclass(frozen=True)
class Queued:
    """An answer waiting in the outbox."""

    key: str
    message_id: str
    to: tuple[str, ...]
    data: bytes


class JudgeState:
    """What one game's judge remembers; `save()` after every change that must survive a stop."""

    def __init__(self, game_dir: Path | str) -> None:
        self.root = Path(game_dir)
        self.folder = referee_folder(self.root)
        self.path = self.folder / STATE_FILE
        self.outbox = self.folder / OUTBOX_DIR
        self.fresh = not self.path.is_file()
        self.changes = 0  # saves and queued mails since this object was made (the judge's "did anything happen")
        self._maybe_queued = True  # False once the outbox was seen empty; only this object fills it
        if self.fresh:
            self.data: dict[str, Any] = {"version": 1, "messages": {}, "sent": {}, "announced": [], "opened": {},
                                         "reminded": {}, "forced": {}, "replies_to": {}}
        else:
            try:
                self.data = json.loads(self.path.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError) as error:
                raise PbemError(f"{self.path}: unreadable judge state ({error}); it is only written whole, so "
                                "this file was changed by hand") from None

    def save(self) -> None:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        text = json.dumps(self.data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        atomic_write(self.path, text.encode("utf-8"), mode=0o600)
        self.fresh = False
        self.changes += 1

    # --- messages ---------------------------------------------------------------------------------
    def handled(self, message_id: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.data["messages"].get(message_id)
        return found

    def record(self, message_id: str, outcome: str, note: str, replies: list[str], at: datetime.datetime) -> None:
        self.data["messages"][message_id] = {"outcome": outcome, "note": note[:500], "replies": replies,
                                             "at": iso(at)}

    # --- announcements, reminders, clocks -------------------------------------------------------------
    def announced(self, key: str) -> bool:
        return key in self.data["announced"]

    def announce(self, key: str) -> None:
        if key not in self.data["announced"]:
            self.data["announced"].append(key)

    def opened(self, seq: int) -> datetime.datetime | None:
        value = self.data["opened"].get(str(seq))
        return parse_iso(value) if value else None

    def open(self, seq: int, at: datetime.datetime) -> None:
        self.data["opened"].setdefault(str(seq), iso(at))

    def request_opened(self, seq: int, index: int) -> datetime.datetime | None:
        """When decision request `index` of `seq` was sent: its deadline runs from then."""
        value = self.data["opened"].get(f"{seq}/request-{index}")
        return parse_iso(value) if value else None

    def open_request(self, seq: int, index: int, at: datetime.datetime) -> None:
        self.data["opened"].setdefault(f"{seq}/request-{index}", iso(at))

    def reminded(self, key: str) -> list[str]:
        return list(self.data["reminded"].get(key, []))

    def remind(self, key: str, side: str) -> None:
        self.data["reminded"].setdefault(key, [])
        if side not in self.data["reminded"][key]:
            self.data["reminded"][key].append(side)

    def force(self, seq: int, at: datetime.datetime, missing: list[str]) -> None:
        self.data["forced"][str(seq)] = {"at": iso(at), "missing": missing}

    def count_reply(self, address: str, day: str) -> int:
        """Answers sent to an unauthenticated sender today, this one included."""
        entry = self.data["replies_to"].get(address.lower())
        if not entry or entry["day"] != day:
            entry = {"day": day, "count": 0}
        entry["count"] += 1
        self.data["replies_to"][address.lower()] = entry
        return int(entry["count"])

    # --- the outbox -----------------------------------------------------------------------------------
    def queue(self, mail: Outgoing) -> None:
        """Make an answer durable before anything that depends on it is recorded (same id: same file)."""
        self.outbox.mkdir(mode=0o700, parents=True, exist_ok=True)
        if mail.message_id in self.data["sent"]:
            return
        self.changes += 1
        self._maybe_queued = True
        existing = sorted(self.outbox.glob(f"*-{mail.key}.json"))
        # Queue order is send order: the name starts with the time it was first queued.
        stem = existing[0].stem if existing else f"{time.time_ns():020d}-{mail.key}"
        atomic_write(self.outbox / f"{stem}.eml", mail.data, mode=0o600)
        meta = {"message_id": mail.message_id, "to": list(mail.to)}
        atomic_write(self.outbox / f"{stem}.json", json.dumps(meta).encode("utf-8"), mode=0o600)

    def queued(self) -> list[Queued]:
        """The mails waiting to be sent, oldest first (the outbox is not read again once seen empty,
        until this object queues another: only it writes there)."""
        if not self._maybe_queued:
            return []
        if not self.outbox.is_dir():
            self._maybe_queued = False
            return []
        found = []
        for meta_path in sorted(self.outbox.glob("*.json")):
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            data = (self.outbox / f"{meta_path.stem}.eml").read_bytes()
            found.append(Queued(meta_path.stem, meta["message_id"], tuple(meta["to"]), data))
        self._maybe_queued = bool(found)
        return found

    def mark_sent(self, item: Queued, at: datetime.datetime) -> None:
        self.data["sent"][item.message_id] = iso(at)
        self.save()
        for suffix in (".json", ".eml"):
            with contextlib.suppress(FileNotFoundError):
                (self.outbox / f"{item.key}{suffix}").unlink()

    def was_sent(self, message_id: str) -> bool:
        return message_id in self.data["sent"]
