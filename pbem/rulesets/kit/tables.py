"""Tables shipped as data, each value carrying where it came from (docs/writing-a-ruleset.md, "Tables").

A table entry is either plain data or `{value: ..., source: "10.10"}` / `{value: ..., assumed:
true, note: ...}`. Rules code works on the plain values; documentation and tests list the
assumed ones, so an assumed number is never passed off as the publisher's.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any, Mapping, NamedTuple

from pbem.core import yamlio


def setup_with_tables(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the scenario's `setup`, carrying its `tables` overrides (if any) the way a state does."""
    setup = copy.deepcopy(dict(scenario.get("setup") or {}))
    tables = dict(scenario.get("tables") or {})
    if tables:
        setup["tables"] = copy.deepcopy(tables)
    return setup


@lru_cache(maxsize=None)
def packaged_yaml(package: str, name: str) -> Any:
    """A YAML data file shipped inside a package, read once. Shared: never mutate it.

    Shipped with the code and as trusted, so read by `yamlio.load_packaged`: the strict loader's data,
    built without its marks (a scenario's own map or tables always go through the strict loader).
    """
    data = yamlio.read_packaged(package, name)
    return yamlio.load_packaged(data, f"{package.replace('.', '/')}/{name}")


def has_provenance(node: Any) -> bool:
    return isinstance(node, dict) and "value" in node and ("source" in node or "assumed" in node)


def plain_values(node: Any) -> Any:
    """The tables with every `{value, source|assumed}` entry replaced by its value."""
    if has_provenance(node):
        return copy.deepcopy(node["value"])
    if isinstance(node, dict):
        return {key: plain_values(sub) for key, sub in node.items()}
    return copy.deepcopy(node)


def assumed_entries(node: Any, path: str = "") -> list[tuple[str, Any, str]]:
    """Every assumed entry as (dotted path, value, note), in document order."""
    if has_provenance(node):
        return [(path, node["value"], str(node.get("note", "")))] if node.get("assumed") else []
    if not isinstance(node, dict):
        return []
    found: list[tuple[str, Any, str]] = []
    for key, sub in node.items():
        found += assumed_entries(sub, f"{path}.{key}" if path else str(key))
    return found


# A NamedTuple, not a dataclass: about 0.1 ms to create at import instead of 0.5 (every command pays it).
class TableFile(NamedTuple):
    """A ruleset's packaged tables file, read three ways."""

    package: str
    name: str = "tables.yaml"

    def annotated(self) -> dict[str, Any]:
        """The tables with their provenance (`value` plus `source` or `assumed`)."""
        found: dict[str, Any] = copy.deepcopy(packaged_yaml(self.package, self.name))
        return found

    def plain(self) -> dict[str, Any]:
        """The tables as plain values."""
        found: dict[str, Any] = plain_values(packaged_yaml(self.package, self.name))
        return found

    def assumed(self) -> list[tuple[str, Any, str]]:
        """Every assumed value: (path, value, note), which the ruleset's docs must list."""
        return assumed_entries(packaged_yaml(self.package, self.name))


def merge(base: Any, over: Any) -> Any:
    """`over` laid on `base`: mappings merge key by key, anything else is replaced whole."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)
