"""The JSON Schema a scenario's `tables:` overrides must meet, derived from the packaged tables.

A scenario may change any table value (docs/writing-a-ruleset.md, "Tables"). What it may write
follows from the defaults: the same keys and the same kinds of values, so the schema is built
from them rather than written by hand, and the core checks a scenario against it like every
other input (file, line and column in every error). A ruleset adds what the shape cannot say
(a list of terrain names, a result such as "1/2") as `refine`: a schema per dotted path, where
`*` stands for any one key or list index.

`complete=True` requires every key of a mapping and the default's length of a list (a table
given there replaces the default whole); `complete=False` lets a scenario name only what it
changes (the rest is merged from the defaults, `tables.merge`).
"""

from __future__ import annotations

from typing import Any, Mapping

Schema = dict[str, Any]


def shape_schema(default: Any, *, complete: bool, refine: Mapping[str, Schema] | None = None,
                 description: str = "") -> Schema:
    """A schema accepting values shaped like `default` (see the module's docstring)."""
    schema = _shape(default, "", complete, dict(refine or {}))
    if description:
        schema["description"] = description
    return schema


def _shape(value: Any, path: str, complete: bool, refine: dict[str, Schema]) -> Schema:
    found = _refined(path, refine)
    if found is not None:
        return dict(found)
    if isinstance(value, dict):
        schema: Schema = {"type": "object", "additionalProperties": False,
                          "properties": {str(key): _shape(sub, _join(path, str(key)), complete, refine)
                                         for key, sub in value.items()}}
        if complete:
            schema["required"] = [str(key) for key in value]
        return schema
    if isinstance(value, list):
        schema = {"type": "array"}
        if value:
            items = [_shape(item, _join(path, str(index)), complete, refine) for index, item in enumerate(value)]
            schema["items"] = items[0] if all(item == items[0] for item in items) else {}
            if not all(item == items[0] for item in items):
                schema["prefixItems"] = items
        if complete:
            schema["minItems"] = schema["maxItems"] = len(value)
        return schema
    if value is None:
        return {}
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, str):
        return {"type": "string"}
    raise TypeError(f"tables: a value at {path or 'the top'} is neither plain data nor a table: {value!r}")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _refined(path: str, refine: Mapping[str, Schema]) -> Schema | None:
    if path in refine:
        return refine[path]
    parts = path.split(".")
    for pattern, schema in refine.items():
        wanted = pattern.split(".")
        if len(wanted) == len(parts) and all(w in ("*", p) for w, p in zip(wanted, parts)):
            return schema
    return None
