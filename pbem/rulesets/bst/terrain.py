"""Terrain kinds (T1, T3, M3, W10): the packaged defaults a table map is read with."""

from __future__ import annotations

from typing import Any, Mapping

from pbem.geometry.tablemap import TableMap
from pbem.rulesets.kit.tables import packaged_yaml


def kinds() -> Mapping[str, Mapping[str, Any]]:
    """Every terrain kind bst knows, with its properties as `{value, source|assumed}`."""
    found: Mapping[str, Mapping[str, Any]] = packaged_yaml("pbem.rulesets.bst.data", "terrain.yaml")["kinds"]
    return found


def load_table(doc: object) -> TableMap:
    """A table map document read with bst's kinds (its own `kinds:` override them)."""
    return TableMap.from_dict(doc, kinds())
