"""Deadlines from a game's settings, in the manner of the Diplomacy judges.

`settings: {deadline: 72h}` in game.yaml gives every phase 72 hours from the moment it opened:
`pbem new` for the first phase, the adjudication before it for every later one (the views sign
that deadline, and the judge keeps it: judge.py `_phase_start`); a game whose views carry no
deadline counts from when the judge first saw the phase open. `reminder: 24h` (or,
if absent, a quarter of the deadline, at most 24 hours) before it, each side that still owes
orders gets one reminder. At the deadline the judge adjudicates with the missing orders treated
as none, which the turn file records as `missing` for all to see.

Durations are written as whole numbers with units: `90m`, `36h`, `3d`, `1w`, `2d12h`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, Mapping

from ..core.api import PbemError, parse_duration

DEFAULT_REMINDER_CAP = datetime.timedelta(hours=24)


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
