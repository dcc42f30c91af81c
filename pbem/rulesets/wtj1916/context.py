"""The packaged data, the scenario's setup and the prepared `Context` (docs/wtj1916.md).

`data/tables.yaml` holds every number the rules read, each marked with its section of the
firing chapter (3.1-3.7) or `assumed`; a scenario changes any value under `tables:` key by key.
`data/table.yaml` is the sample table (also `samples/wtj1916/table.yaml`); a scenario names it
(`table: sample`) or gives a whole table map document. The terrain kinds' defaults are the
sample table's `kinds:`, so a scenario's own table may use them without declaring them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.core.errors import PbemError, Problem
from pbem.geometry.tablemap import TABLE_MAP_SCHEMA, TableMap, TableMapError
from pbem.rulesets.kit.overrides import Schema, shape_schema
from pbem.rulesets.kit.tables import TableFile, merge, packaged_yaml, setup_with_tables

PACKAGE = "pbem.rulesets.wtj1916.data"
SIDES = ("british", "german")
PACKAGED_TABLES = {"sample": "table.yaml"}
TRAINING = ("poor", "average", "great", "outstanding")
TABLES = TableFile(PACKAGE)
ID_PATTERN = "^[a-z][a-z0-9-]*$"


def other(side: str) -> str:
    return "german" if side == "british" else "british"


@dataclass(frozen=True)
class Weapon:
    """One weapon of a unit type (3.1, 3.2, 3.4, 3.7)."""

    name: str
    fire: str  # small-arms | artillery | flame
    mg: str  # none | light | medium | heavy
    arc: int  # 360 | 180 | 90 (3.4)
    edges: tuple[str, ...]  # front | left | right | rear: the base edges the arc is measured off
    range: int
    min_range: int
    size: str  # a row of the weapon size index (3.6)
    rapid: bool
    setup: bool


@dataclass(frozen=True)
class UnitType:
    name: str
    cls: str  # infantry | cavalry | machine-gun | mortar | gun | tank | armoured-car
    personnel: bool
    vehicle: bool
    width: int
    depth: int
    move: int
    rush: int
    recon: bool
    size: str  # small | normal | large (3.6)
    armour: int
    shield: bool
    weapons: tuple[Weapon, ...]
    footprints: dict[tuple[int, int, int], Any] = field(default_factory=dict, compare=False, repr=False)

    def weapon(self, name: str | None) -> Weapon | None:
        if name is None:
            return self.weapons[0] if self.weapons else None
        return next((w for w in self.weapons if w.name == name), None)

    @property
    def infantry(self) -> bool:
        return self.cls in ("infantry", "cavalry")


@dataclass(frozen=True)
class Context:
    table: TableMap
    tables: dict[str, Any]
    types: dict[str, UnitType]
    battalions: dict[str, dict[str, Any]]
    turns: int
    first: str
    air_strikes: dict[str, int]
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)  # geometry answers, this game's

    def type_of(self, unit: Mapping[str, Any]) -> UnitType:
        return self.types[unit["type"]]

    def training(self, battalion: str | None) -> str:
        return str(self.battalions.get(battalion or "", {}).get("training", "average"))

    def phasing(self, turn: int) -> str:
        """The side that moves in this turn (assumed frame: the sides alternate, `first` on turn 1)."""
        return self.first if turn % 2 == 1 else other(self.first)


def unit_types(tables: Mapping[str, Any]) -> dict[str, UnitType]:
    out = {}
    for name, body in sorted(tables["unit_types"].items()):
        weapons = tuple(Weapon(wname, w["fire"], w["mg"], w["arc"], tuple(w["edges"]), w["range"], w["min_range"],
                               w["size"], w["rapid"], w["setup"]) for wname, w in body["weapons"].items())
        out[name] = UnitType(name, body["class"], body["personnel"], body["vehicle"], body["width"], body["depth"],
                             body["move"], body["rush"], body["recon"], body["size"], body["armour"], body["shield"],
                             weapons)
    return out


def terrain_kinds() -> dict[str, Any]:
    """The sample table's kinds, with their provenance marks: every table's defaults."""
    kinds: dict[str, Any] = copy.deepcopy(packaged_yaml(PACKAGE, "table.yaml")["kinds"])
    return kinds


def load_table(spec: Any) -> TableMap:
    doc = packaged_yaml(PACKAGE, PACKAGED_TABLES[spec]) if isinstance(spec, str) else spec
    try:
        return TableMap.from_dict(doc, terrain_kinds())
    except TableMapError as error:
        raise PbemError([Problem(f"the table: {error}", path=("setup", "table"), section="scenario")]) from error


def prepare(setup: Mapping[str, Any]) -> Context:
    tables = merge(TABLES.plain(), dict(setup.get("tables") or {}))
    types = unit_types(tables)
    problems = []
    for name, kind in sorted(types.items()):
        for weapon in kind.weapons:
            if weapon.size not in tables["weapon_size"]:
                problems.append(Problem(f"unit type {name}: weapon {weapon.name} has size {weapon.size!r}",
                                        section="3.6", legal=", ".join(sorted(tables["weapon_size"]))))
    if problems:
        raise PbemError(problems)
    return Context(load_table(setup["table"]), tables, types, copy.deepcopy(dict(setup.get("battalions") or {})),
                   int(setup["turns"]), str(setup.get("first", "british")),
                   {side: int((setup.get("air_strikes") or {}).get(side, 0)) for side in SIDES})


def checked_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The plain setup every state carries, after the checks the schema cannot make."""
    setup = setup_with_tables(scenario)
    context = prepare(setup)
    problems = []
    for uid, unit in sorted(setup["units"].items()):
        kind = context.types.get(unit["type"])
        if kind is None:
            problems.append(Problem(f"unit {uid}: unknown type {unit['type']!r}", path=("setup", "units", uid, "type"),
                                    section="scenario", legal=", ".join(sorted(context.types))))
            continue
        if unit.get("battalion") and unit["battalion"] not in context.battalions:
            problems.append(Problem(f"unit {uid}: unknown battalion {unit['battalion']!r}",
                                    path=("setup", "units", uid, "battalion"), section="scenario",
                                    legal=", ".join(sorted(context.battalions)) or "none declared"))
        from .geometry import footprint
        for bid, base in sorted(unit["bases"].items()):
            if not context.table.on_table(footprint(kind, base).shape):
                problems.append(Problem(f"base {bid} at {base['at']} is not wholly on the table",
                                        path=("setup", "units", uid, "bases", bid, "at"), section="scenario",
                                        legal=f"a centre at least half the base ({kind.width} x {kind.depth}) inside"))
    if problems:
        raise PbemError(problems)
    return setup


def tables_schema() -> Schema:
    chart = {"type": "array", "minItems": 1, "items": {"type": "array", "minItems": 2, "maxItems": 2,
                                                      "prefixItems": [{"type": "integer"}, {"type": "string",
                                                                                            "pattern": "^(-|[KDI]+)$"}]}}
    return shape_schema(TABLES.plain(), complete=False, extensible={"unit_types": "a new unit type, given whole"},
                        refine={"charts.small_arms": chart, "charts.artillery_kill": chart,
                                "charts.area_weapons": chart, "charts.small_arms_die": _count(2, 100),
                                "distances.*": _count(0, 100_000), "unit_types.*.width": _count(1, 1000),
                                "unit_types.*.depth": _count(1, 1000), "unit_types.*.move": _count(0, 10_000),
                                "unit_types.*.rush": _count(0, 10_000),
                                "unit_types.*.weapons": {"type": "object", "additionalProperties": _WEAPON}},
                        description="values replacing the packaged ones, key by key (docs/wtj1916.md, Assumed values)")


def _count(least: int, most: int) -> Schema:
    """A whole number the rules measure or roll with: a base needs a size, a die faces."""
    return {"type": "integer", "minimum": least, "maximum": most}


_WEAPON: Schema = {
    "type": "object", "additionalProperties": False,
    "required": ["fire", "mg", "arc", "edges", "range", "min_range", "size", "rapid", "setup"],
    "properties": {"fire": {"enum": ["small-arms", "artillery", "flame"]},
                   "mg": {"enum": ["none", "light", "medium", "heavy"]},
                   "arc": {"enum": [360, 180, 90]},
                   "edges": {"type": "array", "minItems": 1, "items": {"enum": ["front", "left", "right", "rear"]}},
                   "range": {"type": "integer", "minimum": 0}, "min_range": {"type": "integer", "minimum": 0},
                   "size": {"type": "string"}, "rapid": {"type": "boolean"}, "setup": {"type": "boolean"}},
}

POINT: Schema = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
BASE: Schema = {"type": "object", "additionalProperties": False, "required": ["at", "facing"],
                "properties": {"at": POINT, "facing": {"type": "integer", "minimum": 0, "maximum": 359},
                               "flame": {"type": "boolean"}}}
UNIT: Schema = {"type": "object", "additionalProperties": False, "required": ["side", "type", "bases"],
                "properties": {"side": {"enum": list(SIDES)}, "type": {"type": "string"},
                               "battalion": {"type": "string"},
                               "set_up": {"type": "boolean"},
                               "bases": {"type": "object", "minProperties": 1, "maxProperties": 12,
                                         "propertyNames": {"pattern": ID_PATTERN, "maxLength": 64}, "additionalProperties": BASE}}}
SCENARIO_SCHEMA: Schema = {
    "type": "object", "additionalProperties": False, "required": ["turns", "table", "units"],
    "properties": {
        "turns": {"type": "integer", "minimum": 1, "maximum": 40},
        "first": {"enum": list(SIDES)},
        "table": {"oneOf": [{"enum": sorted(PACKAGED_TABLES)},
                            {**TABLE_MAP_SCHEMA, "$id": "https://pbem.invalid/schemas/table-map.json"}]},
        "battalions": {"type": "object", "propertyNames": {"pattern": ID_PATTERN, "maxLength": 64},
                       "additionalProperties": {"type": "object", "additionalProperties": False,
                                                "required": ["side"],
                                                "properties": {"side": {"enum": list(SIDES)},
                                                               "training": {"enum": list(TRAINING)}}}},
        "air_strikes": {"type": "object", "additionalProperties": False,
                        "properties": {side: {"type": "integer", "minimum": 0, "maximum": 9} for side in SIDES}},
        "units": {"type": "object", "minProperties": 2, "maxProperties": 80, "propertyNames": {"pattern": ID_PATTERN, "maxLength": 64},
                  "additionalProperties": UNIT},
    },
}
