"""Copies of plain data (what states, orders and events are made of), without `copy.deepcopy`'s memo.

Two copies, for two jobs:

- `canonical_copy` proves a value is plain data and gives it back in canonical form, every map's
  keys sorted: exactly what its canonical JSON read back would be. The adjudicator passes what
  rules code hands back through it, so what is stored and hashed never depends on the types or
  the key order rules code happened to use.
- `copy_plain` copies the structure and nothing else (dicts and lists copied, keeping their
  order; str, int, bool and None shared, since they cannot change; anything else through
  `copy.deepcopy`). Rules use it to work on a copy of the state; the adjudicator uses it on
  values `canonical_copy` already made, where the canonical copy would give the same value again.

One difference of `copy_plain` from `copy.deepcopy`, harmless for data read from files: a list
or dict that appears twice in the input is copied twice (a state read from YAML or JSON shares
nothing).
"""

from __future__ import annotations

import copy
import json
from typing import Any, TypeVar

from .chance import canonical_json
from .errors import PbemError

T = TypeVar("T")


def copy_plain(value: T) -> T:
    """A deep copy of `value`, its maps in their own order (see the module docstring)."""
    copied: T = _copy(value)
    return copied


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        return _copy_dict(value)
    if kind is list:
        return [_copy(item) for item in value]
    return copy.deepcopy(value)


def _copy_dict(mapping: dict[Any, Any]) -> dict[Any, Any]:
    # scalars are taken as they are here, not through a call each: most of a state is scalars
    copied = {}
    for key, item in mapping.items():
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            copied[key] = item
        elif kind is dict:
            copied[key] = _copy_dict(item)
        else:
            copied[key] = _copy(item)
    return copied


def canonical_copy(value: Any, where: str = "state") -> Any:
    """`json.loads(canonical_json(value))`, after proving `value` is plain data (docs/protocol.md §1).

    A float, tuple, set or non-string key anywhere is refused with the path of the first one
    (`where` names the top). Exactly plain data is copied in one pass (`_sorted_plain`);
    subclasses of plain types (an IntEnum, an OrderedDict) are accepted and made plain through
    the JSON form.
    """
    try:
        return _sorted_plain(value)
    except _NotPlain:
        pass
    _check_plain(value, where)  # refuses with the path of the first offender, or accepts subclasses
    return json.loads(canonical_json(value))


class _NotPlain(Exception):
    """A value of a type other than exactly dict (str keys), list, str, int, bool or None."""


def _sorted_plain(value: Any) -> Any:
    """What `json.loads(canonical_json(value))` gives for exactly plain data, in one pass.

    Keys are sorted as `sort_keys` sorts them; a string that UTF-8 cannot encode (a lone
    surrogate) fails here as it would in `canonical_json`. Anything else raises `_NotPlain`.
    """
    kind = type(value)
    if kind is str:
        if not value.isascii():
            value.encode("utf-8")
        return value
    if kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        return _sorted_dict(value)
    if kind is list:
        return [_sorted_plain(item) for item in value]
    raise _NotPlain


def _sorted_dict(mapping: dict[Any, Any]) -> dict[str, Any]:
    # ASCII strings, numbers, booleans and None are taken here, not through a call each: most of
    # a state is scalars
    for key in mapping:
        if type(key) is not str:
            raise _NotPlain
        if not key.isascii():
            key.encode("utf-8")
    copied = {}
    for key in sorted(mapping):
        item = mapping[key]
        kind = type(item)
        if (kind is str and item.isascii()) or kind is int or kind is bool or item is None:
            copied[key] = item
        elif kind is dict:
            copied[key] = _sorted_dict(item)
        else:
            copied[key] = _sorted_plain(item)
    return copied


def _check_plain(value: Any, where: str) -> None:
    stack = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, float):
            raise PbemError(f"{path}: floats are not allowed in states, orders or events (docs/protocol.md §1)")
        if isinstance(item, dict):
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise PbemError(f"{path}: key {key!r} is not a string")
                stack.append((sub, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((sub, f"{path}[{i}]") for i, sub in enumerate(item))
        elif not (item is None or isinstance(item, (str, int, bool))):
            raise PbemError(f"{path}: {type(item).__name__} is not plain data")
