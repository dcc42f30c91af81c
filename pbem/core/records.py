"""Frozen records written by hand: what a frozen dataclass gives, without importing `dataclasses`.

Creating a dataclass costs about 0.7 ms at import (Python compiles each generated method) and
importing `dataclasses` brings `inspect`, `ast`, `dis` and `tokenize` (about 6 ms): every one-shot
command pays both. A subclass names its fields in `__slots__` and sets them in its own `__init__`
with `object.__setattr__`; it is then compared and hashed as the tuple of its field values (only
with a record of exactly its own type), shown like a dataclass and read-only, as
`@dataclass(frozen=True)` would make it (no ordering).
"""

from __future__ import annotations

from typing import Any


class FrozenRecordError(AttributeError):
    """Assigning to or deleting a field of a frozen record (as `dataclasses.FrozenInstanceError`)."""


class ComparedByFields:
    """Compared as the tuple of the fields `_field_names` lists (only with an object of exactly its own
    type) and shown like a dataclass. The names are the class's `__slots__` unless it says otherwise
    (a mutable class with a `__dict__`, such as the kit's `SideBoard`, lists the fields it compares)."""

    __slots__: tuple[str, ...] = ()

    def _field_names(self) -> tuple[str, ...]:
        return self.__slots__

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._field_names()])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, ComparedByFields)
        return self._values() == other._values()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._field_names())
        return f"{type(self).__qualname__}({fields})"


class FrozenRecord(ComparedByFields):
    """Base of the hand-written frozen records (see the module's doc)."""

    __slots__: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:  # copy and pickle rebuild it through __init__
        return type(self), self._values()


set_field = object.__setattr__  # how a frozen record's __init__ sets its fields
