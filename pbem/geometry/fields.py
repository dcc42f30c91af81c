"""Reading a map document field by field: each reader checks one value's type and raises the
map format's own error (`MapError`, `TableMapError`) with the path in the document."""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

DocPath = tuple[str | int, ...]
ErrorFor = Callable[[str, DocPath], Exception]  # message, path -> the error to raise

NAME_PATTERN = "^[a-z][a-z0-9_-]*$"
NAME_RE = re.compile(NAME_PATTERN[1:-1])


class Fields:
    """The field readers of one document format, raising `error(message, path)`."""

    def __init__(self, error: ErrorFor, name_example: str) -> None:
        self.error = error
        self.name_example = name_example

    def mapping(self, value: object, path: DocPath) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise self.error(f"expected a mapping, got {type(value).__name__}", path)
        return value

    def list(self, value: object, path: DocPath) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(f"expected a list, got {type(value).__name__}", path)
        return value

    def keys(self, doc: dict[Any, Any], allowed: Sequence[str], required: Sequence[str], path: DocPath) -> None:
        for key in doc:
            if key not in allowed:
                raise self.error(f"unknown key {key!r} (allowed: {', '.join(allowed)})", path)
        for key in required:
            if key not in doc:
                raise self.error(f"missing key {key!r}", path)

    def int(self, value: object, low: int, high: int, path: DocPath) -> int:
        if type(value) is not int or not low <= value <= high:
            raise self.error(f"expected a whole number {low}-{high}, got {value!r}", path)
        return value

    def bool(self, value: object, path: DocPath) -> bool:
        if type(value) is not bool:
            raise self.error(f"expected true or false, got {value!r}", path)
        return value

    def text(self, value: object, path: DocPath) -> str:
        if not isinstance(value, str) or not value:
            raise self.error(f"expected a non-empty string, got {value!r}", path)
        return value

    def name(self, value: object, path: DocPath) -> str:
        if not isinstance(value, str) or not NAME_RE.fullmatch(value):
            raise self.error(f"expected a lower-case name like {self.name_example!r} ({NAME_PATTERN}), "
                             f"got {value!r}", path)
        return value
