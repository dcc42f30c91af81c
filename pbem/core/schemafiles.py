"""The JSON Schemas of every file kind, and their composition with a ruleset's parts."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from . import yamlio
from .errors import PbemError
from .ruleset import Ruleset

KINDS = ("game", "scenario", "orders", "turn", "view", "decision-request", "decision-reply", "decision-lapse",
         "receipt", "case")


@lru_cache(maxsize=None)
def _load(kind: str) -> str:
    if kind not in KINDS:
        raise PbemError(f"no schema for {kind!r}; kinds: {', '.join(KINDS)}")
    return yamlio.read_packaged("pbem.schemas", f"{kind}.json").decode("utf-8")


def load_schema(kind: str) -> dict[str, Any]:
    """A fresh copy of the core schema of one file kind."""
    schema: dict[str, Any] = json.loads(_load(kind))
    return schema


def scenario_schema(ruleset: Ruleset[Any]) -> dict[str, Any]:
    schema = load_schema("scenario")
    schema["properties"]["ruleset"] = {"const": ruleset.id}
    schema["properties"]["setup"] = copy.deepcopy(ruleset.scenario_schema())
    schema["required"] = [*schema["required"], "setup"]  # every ruleset builds its start from it
    tables = ruleset.tables_schema()
    if tables is None:
        del schema["properties"]["tables"]  # a ruleset without tables takes no overrides
    else:
        schema["properties"]["tables"] = copy.deepcopy(tables)
    return schema


def orders_schema(ruleset: Ruleset[Any], phase: str | None = None) -> dict[str, Any]:
    """The orders envelope with the ruleset's `orders` (for one phase, or each phase by `if`)."""
    schema = load_schema("orders")
    schema["properties"]["standing"] = copy.deepcopy(ruleset.standing_schema())
    if phase is not None:
        schema["properties"]["orders"] = copy.deepcopy(ruleset.order_schema(phase))
        return schema
    schema["allOf"] = [
        {"if": {"properties": {"phase": {"const": name}}, "required": ["phase"]},
         "then": {"properties": {"orders": copy.deepcopy(ruleset.order_schema(name))}}}
        for name in ruleset.phase_names()
    ]
    schema["properties"]["phase"] = {"enum": list(ruleset.phase_names())}
    return schema


def schema_for(kind: str, ruleset: Ruleset[Any] | None = None) -> dict[str, Any]:
    """What `pbem schema KIND [--ruleset ID]` prints."""
    if ruleset is None:
        return load_schema(kind)
    if kind == "orders":
        return orders_schema(ruleset)
    if kind == "scenario":
        return scenario_schema(ruleset)
    return load_schema(kind)  # a case names its scenario, whose `ruleset` it uses: nothing to fix here


def exported_schemas() -> dict[str, str]:
    """File name -> JSON text of every schema the top-level `schemas/` folder publishes.

    The core kinds, plus the orders and scenario schemas of every shipped ruleset.
    """
    from .ruleset import get, shipped

    files = {f"{kind}.json": json.dumps(load_schema(kind), indent=2) + "\n" for kind in KINDS}
    for ruleset_id in shipped():
        ruleset = get(ruleset_id)
        for kind in ("orders", "scenario"):
            files[f"{kind}.{ruleset_id}.json"] = json.dumps(schema_for(kind, ruleset), indent=2) + "\n"
    return files
