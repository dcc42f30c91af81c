"""A deep copy for plain data (what states and orders are made of), without `copy.deepcopy`'s memo.

Rules and the adjudicator copy the state every phase; `copy.deepcopy` spends most of its time on
bookkeeping plain data never needs. Dicts and lists are copied (keeping their order), str, int,
bool and None are shared (they cannot change), and anything else goes to `copy.deepcopy`.

One difference, harmless for data read from files: a list or dict that appears twice in the
input is copied twice (a state read from YAML or JSON shares nothing).
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

T = TypeVar("T")


def copy_plain(value: T) -> T:
    """A deep copy of `value` (see the module docstring)."""
    copied: T = _copy(value)
    return copied


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if kind is list:
        return [_copy(item) for item in value]
    return copy.deepcopy(value)
