"""The JSON Schema a scenario's `tables:` overrides must meet, derived from the packaged tables.

A scenario may change any table value (docs/writing-a-ruleset.md, "Tables"). What it may write
follows from the defaults: the same keys and the same kinds of values, so the schema is built
from them rather than written by hand, and the core checks a scenario against it like every
other input (file, line and column in every error). A ruleset adds what the shape cannot say
(a list of terrain names, a result such as "1/2") as `refine`: a schema per dotted path, where
`*` stands for any one key or list index.

`complete=True` requires every key of a mapping and the default's length of a list (a table
given there replaces the default whole); `complete=False` lets a scenario name only what it
changes (the rest is merged from the defaults, `tables.merge`). Two options, dotted paths as in
`refine`, say more:

- `whole`: the values at these paths are given whole even where `complete` is False. With
  `complete=False, whole=("*",)` a scenario names any subset of the tables, and each one it
  names replaces the default table entirely.
- `extensible`: mappings a scenario may add keys to (a new counter group, a new unit type).
  Each new key is given whole, shaped like the existing entries (like one of them, when they
  differ); a mapping from path to text also describes such a new entry.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, NamedTuple

Schema = dict[str, Any]


class _Options(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    refine: Mapping[str, Schema]
    whole: tuple[str, ...]
    extensible: Mapping[str, str]  # path -> the description of a new entry ("" for none)


def shape_schema(default: Any, *, complete: bool, refine: Mapping[str, Schema] | None = None,
                 description: str = "", whole: Iterable[str] = (),
                 extensible: Iterable[str] | Mapping[str, str] = ()) -> Schema:
    """A schema accepting values shaped like `default` (see the module's docstring)."""
    described = dict(extensible) if isinstance(extensible, Mapping) else {path: "" for path in extensible}
    options = _Options(dict(refine or {}), tuple(whole), described)
    schema = _shape(default, "", complete, options)
    if description:
        schema["description"] = description
    return schema


def _shape(value: Any, path: str, complete: bool, options: _Options) -> Schema:
    found = _matching(path, options.refine)
    if found is not None:
        return dict(options.refine[found])
    complete = complete or _matching(path, options.whole) is not None
    if isinstance(value, dict):
        schema: Schema = {"type": "object", "additionalProperties": False,
                          "properties": {str(key): _shape(sub, _join(path, str(key)), complete, options)
                                         for key, sub in value.items()}}
        if complete:
            schema["required"] = [str(key) for key in value]
        opened = _matching(path, options.extensible)
        if opened is not None:
            schema["additionalProperties"] = _new_entry(value, path, options, options.extensible[opened])
        return schema
    if isinstance(value, list):
        schema = {"type": "array"}
        if value:
            items = [_shape(item, _join(path, str(index)), complete, options) for index, item in enumerate(value)]
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


def _new_entry(siblings: Mapping[str, Any], path: str, options: _Options, description: str) -> Schema:
    """A key added to an extensible mapping: given whole, like one of the entries already there."""
    if not siblings:
        raise ValueError(f"tables: {path or 'the top'} is extensible but has no entry to shape a new one by")
    shapes: list[Schema] = []
    for sibling in siblings.values():
        shape = _shape(sibling, _join(path, "*"), True, options)
        if shape not in shapes:
            shapes.append(shape)
    schema: Schema = shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
    if description:
        schema["description"] = description
    return schema


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _matching(path: str, patterns: Iterable[str]) -> str | None:
    """The pattern naming this path: the path itself, else the first whose `*` parts match (the top,
    path "", is named only by "")."""
    patterns = list(patterns)
    if path in patterns:
        return path
    if not path:
        return None
    parts = path.split(".")
    for pattern in patterns:
        wanted = pattern.split(".")
        if len(wanted) == len(parts) and all(w in ("*", p) for w, p in zip(wanted, parts)):
            return pattern
    return None
