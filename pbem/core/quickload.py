"""Read a file without the strict loader's line-and-column bookkeeping, when that changes nothing.

The strict loader (`yamlio.load_bytes`) builds every document in Python, node by node, to name
each problem with its line and column. `yamlio.load_plain` reads canonical text (what pbem and its
bots write) without PyYAML (`canonical_read`), and other text from the parser's events with the
strict loader's own scalar rules and gives exactly the data the strict loader gives, or refuses
(`NotPlain`) anything the strict loader looks at more closely: a tag, an anchor or alias, a
duplicate key, a value it would refuse, a file over its size, node or depth limits. So the data
here is the data the rules must see. What it refuses is read by libyaml's C loader and kept when
its canonical dump gives the file back byte for byte (the way before `load_plain`); anything else
(`None` here) goes the strict way, which then says what is wrong.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from . import yamlio
from .canonical_read import max_bytes, read_canonical


def quick_load(data: bytes) -> dict[str, Any] | None:
    """The mapping the strict loader reads from `data`, or None (a refusal: use the strict loader)."""
    try:
        value = yamlio.load_plain(data)
    except yamlio.NotPlain:
        return _canonical_load(data)
    return value if type(value) is dict else None


def _canonical_load(data: bytes) -> dict[str, Any] | None:
    """The mapping `data` holds if `data` is its canonical dump (as libyaml's loader reads it), else None.

    For what `load_plain` leaves (an escaped character, say): the canonical dump of the data read
    giving `data` back byte for byte proves the strict loader would read the same, since
    `yamlio.dump` promises that the strict loader reads its text back equal.
    """
    import yaml  # on use: a command whose files are all canonical does without PyYAML

    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None or len(data) > max_bytes():
        return None
    try:
        value = yaml.load(data, Loader=loader)
    except Exception:  # any failure at all: the strict loader will say what it is
        return None
    if type(value) is not dict or not _fewer_values(value, len(data)) or not canonical_bytes(value, data):
        return None
    return value


def load_data(data: bytes, file: str) -> Any:
    """What the strict loader reads from `data` (its YamlError if it refuses it), quickly if possible."""
    quick = quick_load(data)
    return quick if quick is not None else yamlio.load_bytes(data, file).data


def _fewer_values(value: Any, limit: int) -> bool:
    """At most `limit` values, counting an alias's target each time it is used.

    An alias bomb is small as text and huge once expanded; a canonical dump is never shorter
    than its number of values, so counting stops as soon as the expansion outgrows the file.
    """
    stack = [value]
    count = 0
    while stack:
        item = stack.pop()
        count += 1
        if count > limit:
            return False
        if type(item) is dict:
            count += len(item)  # the keys
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
    return True


def canonical_bytes(value: Any, data: bytes) -> bool:
    """Whether `data` is exactly the canonical dump of `value` (False if `value` cannot be dumped)."""
    try:
        return yamlio.dump(value).encode("utf-8") == data
    except (TypeError, ValueError, RecursionError):  # not plain data, too deep, a lone surrogate
        return False


# A NamedTuple, not a dataclass: about 0.1 ms to create at import instead of 0.5 (every command pays it).
class RecordedParts(NamedTuple):
    """What a turn file holds that its replay cannot rebuild (docs/protocol.md §4)."""

    seed: str
    hidden_seed: str | None
    next_deadline: str | None


# Where `yamlio.dump` writes them in a turn file (`adjudicator.turn_document`'s layout).
_DICE_RE = re.compile(rb"\ndice:\n  seed: ([0-9a-f]{64})\n(?:  hidden_seed: ([0-9a-f]{64})\n)?  phase_seed: ")
_DEADLINE_RE = re.compile(rb"\n  deadline: ([^\n]*)\n")


def recorded_turn_parts(data: bytes) -> RecordedParts | None:
    """The seeds and next deadline of a turn file in canonical layout, picked out of its text.

    A guess, and safe as one: whoever uses them must rebuild the whole turn from them and compare
    its canonical dump with `data` byte for byte. None if they are not where pbem writes them.
    """
    dice = _DICE_RE.search(data)
    start = data.rfind(b"\nnext:\n")
    if dice is None or start < 0:
        return None
    deadline: str | None = None
    found = _DEADLINE_RE.search(data, start)
    if found is not None:
        value = read_canonical(b"deadline: " + found.group(1) + b"\n")
        if not isinstance(value, dict) or not isinstance(value.get("deadline"), str):
            return None  # not as pbem writes it: the full check will say what is wrong
        deadline = value["deadline"]
    hidden = dice.group(2)
    return RecordedParts(dice.group(1).decode("ascii"), hidden.decode("ascii") if hidden else None, deadline)
