"""What to write where a list is expected and a string or a mapping was written (the schema's type errors).

Kept apart from `schemas.py` so that it can call `list_hint` without importing anything more.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

TYPED_LIST = "expected a list, got "
LONGEST_SHOWN = 200  # a longer string is not split back into a suggestion


def list_hint(value: Any, path: Sequence[str | int]) -> str | None:
    """`write ["2801", "2701"]` for the string "2801, 2701"; `start each order with `- `` for a mapping of orders."""
    if isinstance(value, str) and len(value) <= LONGEST_SHOWN:
        items = [part.strip() for part in value.split(",") if part.strip()]
        if items:
            # JSON's double-quoted strings are YAML's: every item stays a string, as ids and hexes must
            return "write [" + ", ".join(json.dumps(item, ensure_ascii=False) for item in items) + "]"
    if isinstance(value, dict):
        what = "order" if path and path[-1] == "orders" else "item"
        return f"start each {what} with `- `"
    return None


def with_list_hint(message: str, value: Any, path: Sequence[str | int]) -> str:
    """The schema's message for a value at `path`, with `list_hint` added when it is a list written otherwise."""
    if not message.startswith(TYPED_LIST):
        return message
    hint = list_hint(value, path)
    return f"{message}: {hint}" if hint and hint not in message else message
