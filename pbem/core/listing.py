"""Lists of unit ids and hexes as a person reads them in a template or a message: short, in order.

`compact` shortens runs of consecutive numbered ids (US01, US02, US03 -> US01-US03); `capped`
shows the first items of a long list and says how many more there are. Pure text: rulesets use
them for their orders templates.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

_NUMBERED = re.compile(r"(.*?)(\d+)")


def _key(item: str) -> tuple[str, int, str]:
    found = _NUMBERED.fullmatch(item)
    return (found.group(1), int(found.group(2)), item) if found else (item, -1, item)


def compact(items: Iterable[str]) -> str:
    """The items sorted by prefix and number, runs of consecutive numbers as FIRST-LAST."""
    runs: list[list[str]] = []
    last: tuple[str, int, int] | None = None  # prefix, number, digits of the previous item
    for item in sorted(set(items), key=_key):
        found = _NUMBERED.fullmatch(item)
        here = (found.group(1), int(found.group(2)), len(found.group(2))) if found else None
        if here and last and here[0] == last[0] and here[2] == last[2] and here[1] == last[1] + 1 and runs:
            runs[-1].append(item)
        else:
            runs.append([item])
        last = here
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in _split_pairs(runs))


def _split_pairs(runs: list[list[str]]) -> list[list[str]]:
    """A run of two stays two items: `G07, G08` reads better than `G07-G08`."""
    out: list[list[str]] = []
    for run in runs:
        out += [[item] for item in run] if len(run) == 2 else [run]
    return out


def capped(items: Sequence[str], limit: int = 20) -> str:
    """The first `limit` items, and how many more there are."""
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
