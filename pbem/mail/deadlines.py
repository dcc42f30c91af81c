"""Deadlines from a game's settings, in the manner of the Diplomacy judges.

`settings: {deadline: 72h}` in game.yaml gives every phase 72 hours from the moment the judge
first saw it open (the game's start, or the mail with the last results). `reminder: 24h` (or,
if absent, a quarter of the deadline, at most 24 hours) before it, each side that still owes
orders gets one reminder. At the deadline the judge adjudicates with the missing orders treated
as none, which the turn file records as `missing` for all to see.

Durations are written as whole numbers with units: `90m`, `36h`, `3d`, `1w`, `2d12h`.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any, Mapping

from ..core.errors import PbemError

_PART = re.compile(r"(\d{1,6})\s*([wdhms])")
_UNIT = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
DEFAULT_REMINDER_CAP = datetime.timedelta(hours=24)


def parse_duration(text: str, what: str = "duration") -> datetime.timedelta:
    compact = str(text).strip().lower().replace(" ", "")
    if not compact or _PART.sub("", compact):
        raise PbemError(f"{what} {text!r}: write it as whole numbers with units w, d, h, m, s (e.g. 72h, 2d12h)")
    seconds = sum(int(n) * _UNIT[unit] for n, unit in _PART.findall(compact))
    if seconds <= 0:
        raise PbemError(f"{what} {text!r} must be longer than zero")
    return datetime.timedelta(seconds=seconds)


@dataclass(frozen=True)
class Schedule:
    deadline: datetime.timedelta
    reminder: datetime.timedelta  # how long before the deadline the reminder goes

    def remind_at(self, opened: datetime.datetime) -> datetime.datetime:
        return opened + self.deadline - self.reminder

    def due_at(self, opened: datetime.datetime) -> datetime.datetime:
        return opened + self.deadline


def schedule(settings: Mapping[str, Any]) -> Schedule | None:
    """The game's schedule, or None when it has no deadline (the judge then waits for everyone)."""
    if not settings.get("deadline"):
        return None
    deadline = parse_duration(settings["deadline"], "settings.deadline")
    if settings.get("reminder"):
        reminder = parse_duration(settings["reminder"], "settings.reminder")
        if reminder >= deadline:
            raise PbemError("settings.reminder must be shorter than settings.deadline")
    else:
        reminder = min(deadline / 4, DEFAULT_REMINDER_CAP)
    return Schedule(deadline, reminder)
