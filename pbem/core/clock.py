"""Wall-clock times in signed files (docs/protocol.md §4a): UTC, RFC 3339, whole seconds.

Rules code never reads a clock. Only the referee's tools do, to stamp receipts, deadlines and
lapses; they take the time as an argument so that a replayed demo writes the same bytes.
"""

from __future__ import annotations

import datetime
import os
import re
from typing import Callable

from .errors import PbemError

Clock = Callable[[], datetime.datetime]
_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_DURATION = re.compile(r"([0-9]{1,6})\s*([wdhms])")
_UNIT_SECONDS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
DEFAULT_DECISION_DEADLINE = datetime.timedelta(hours=72)


FIXED_TIME_VARIABLE = "PBEM_NOW"


def system_clock() -> datetime.datetime:
    """Now, in UTC; or the time `PBEM_NOW` names (`2026-11-24T04:12:19Z`), for reproducible runs."""
    fixed = os.environ.get(FIXED_TIME_VARIABLE)
    if fixed:
        return parse_utc(fixed)
    return datetime.datetime.now(datetime.timezone.utc)


def utc_text(moment: datetime.datetime) -> str:
    """`2026-11-24T04:12:19Z`: the moment in UTC, cut to whole seconds."""
    if moment.tzinfo is None:
        raise ValueError("a time without a time zone cannot be written as UTC")
    return moment.astimezone(datetime.timezone.utc).strftime(_FORMAT)


def parse_utc(text: str) -> datetime.datetime:
    if not isinstance(text, str) or not _PATTERN.fullmatch(text):
        raise PbemError(f"{text!r} is not a UTC time like 2026-11-24T04:12:19Z")
    try:
        return datetime.datetime.strptime(text, _FORMAT).replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        raise PbemError(f"{text!r} is not a real date and time") from None


def parse_duration(text: str, what: str = "duration") -> datetime.timedelta:
    """`90m`, `36h`, `3d`, `1w`, `2d12h`: whole numbers with units, longer than zero."""
    compact = str(text).strip().lower().replace(" ", "")
    if not compact or _DURATION.sub("", compact):
        raise PbemError(f"{what} {text!r}: write it as whole numbers with units w, d, h, m, s (e.g. 72h, 2d12h)")
    seconds = sum(int(n) * _UNIT_SECONDS[unit] for n, unit in _DURATION.findall(compact))
    if seconds <= 0:
        raise PbemError(f"{what} {text!r} must be longer than zero")
    return datetime.timedelta(seconds=seconds)


def later_than(first: str, second: str) -> bool:
    """Whether UTC text `first` is strictly after `second` (the fixed format sorts as text)."""
    return parse_utc(first) > parse_utc(second)


class StepClock:
    """A clock for simulations: starts at a fixed moment and moves on by `step` at every reading.

    The demo and the tests use it so that a replayed game stamps the same times, byte for byte.
    """

    def __init__(self, start: str = "2026-01-01T00:00:00Z", step: datetime.timedelta = datetime.timedelta(minutes=1)):
        self._next = parse_utc(start)
        self._step = step

    def __call__(self) -> datetime.datetime:
        moment = self._next
        self._next += self._step
        return moment

    def advance(self, span: datetime.timedelta) -> None:
        """Let time pass (a deadline in a test)."""
        self._next += span
