"""The packaged data (boards, tables, unit types), the scenario's setup, and bob's prepared `Context`.

`data/tables.yaml` marks every number with its source section or `assumed: true`; a scenario
changes any value under `tables:` key by key (`kit.tables.merge`). The scenario's `setup:` holds
the card (18.0): the board, turns, who goes first, the Operations Ranges and command points,
foxholes, the special-rule terrain (orchards, dike road), every unit with its default set-up
hex (or its entry turn) and the victory conditions. `setup(scenario)` copies it, with the
tables, into the plain setup every state carries; `prepare` builds the context once per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.core.errors import PbemError, Problem
from pbem.geometry.hexmap import HexMap
from pbem.rulesets.kit.hexboard import HexIndex, map_index
from pbem.rulesets.kit.overrides import Schema, shape_schema
from pbem.rulesets.kit.tables import TableFile, merge, setup_with_tables

PACKAGE = "pbem.rulesets.bob.data"
SIDES = ("american", "german")
DEFAULT_MAP = "board1"
PACKAGED_MAPS = {"board1": "board1.yaml"}
TERRAINS = ("open", "woods", "stone-building", "wooden-building", "river", "canal", "orchard")
BUILDINGS = ("stone-building", "wooden-building")
KINDS = ("squad", "wt", "decoy", "gun", "vehicle")
HEAVY = ("gun", "vehicle")  # part 2: they face a hexside spine, count three units (V1)
SATWS = ("bazooka", "panzerschreck")  # V9: carried by a squad the scenario names; every German squad has panzerfausts
HEX_ID: Schema = {"type": "string", "pattern": "^[0-9]{4}$"}

TABLES = TableFile(PACKAGE)
annotated_tables = TABLES.annotated
plain_tables = TABLES.plain
assumed_values = TABLES.assumed


def other(side: str) -> str:
    return "german" if side == "american" else "american"


@dataclass(frozen=True)
class Values:
    """One face of a counter (2.0): firepower, range, proficiency, casualty numbers, morale by suppression."""

    firepower: int
    range: int
    prof: int
    casualty: tuple[int, ...]
    morale: tuple[int, int, int]  # white, yellow, red (7.0)
    at: int = 0  # a gun's or vehicle's firepower against vehicles (V4)


@dataclass(frozen=True)
class UnitType:
    name: str
    kind: str  # squad | wt | decoy
    weapon: str | None  # mg | mortar | None
    side: str
    move: int  # MP (2.0)
    full: Values
    reduced: Values
    armour: tuple[int, int] | None = None  # a vehicle's front, side (V3)
    open_topped: bool = False  # V8, 17.0

    @property
    def heavy(self) -> bool:
        """A gun or a vehicle (part 2)."""
        return self.kind in HEAVY

    @property
    def vehicle(self) -> bool:
        return self.kind == "vehicle"

    @property
    def gun(self) -> bool:
        return self.kind == "gun"

    def face(self, reduced: bool) -> Values:
        return self.reduced if reduced else self.full

    @property
    def mortar(self) -> bool:
        return self.weapon == "mortar"


@dataclass(frozen=True)
class Unit:
    """A unit of the scenario: its type and side, its default set-up hex or entry turn (18.0)."""

    id: str
    side: str
    type: UnitType
    hex: str | None
    enters: int | None
    concealed: bool
    facing: int = 0  # a gun's or vehicle's set-up facing (V4)
    satw: str | None = None  # a bazooka or panzerschreck the squad carries (V9)

    @property
    def kind(self) -> str:
        return self.type.kind

    @property
    def decoy(self) -> bool:
        return self.type.kind == "decoy"


@dataclass(frozen=True)
class Card:
    """The scenario card (18.0) as the rules read it."""

    turns: int
    first: str
    ops_range: Mapping[str, tuple[int, int]]
    cps: Mapping[str, int]
    foxholes: Mapping[str, int]
    objectives: Mapping[str, tuple[int, str]]  # hex -> (VP, side holding it at the start)
    elimination_vp: int
    year: int = 1944  # V9: a panzerfaust's range depends on it
    artillery: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)  # 17.0: side -> its supports

    @property
    def second(self) -> str:
        return other(self.first)


def _values(body: Mapping[str, Any]) -> Values:
    morale = tuple(int(v) for v in body["morale"])
    return Values(int(body["firepower"]), int(body["range"]), int(body["prof"]),
                  tuple(int(v) for v in body["casualty"]), (morale[0], morale[1], morale[2]), int(body.get("at", 0)))


def unit_types(tables: Mapping[str, Any]) -> dict[str, UnitType]:
    out: dict[str, UnitType] = {}
    for name, body in tables["unit_types"].items():
        full = _values(body["full"])
        armour = body.get("armour")
        out[name] = UnitType(name, str(body["kind"]), body.get("weapon"), str(body["side"]), int(body["move"]),
                             full, _values(body["reduced"]) if "reduced" in body else full,
                             (int(armour[0]), int(armour[1])) if armour else None, bool(body.get("open_topped")))
    return out


@dataclass
class Context:
    """One game's fixed data: the board's index, the merged tables, the unit types and units, the card."""

    hexes: HexIndex
    tables: dict[str, Any]
    types: dict[str, UnitType]
    units: dict[str, Unit]
    card: Card
    orchards: frozenset[str]
    dikes: frozenset[str]
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def map(self) -> HexMap:
        return self.hexes.map

    def side_of(self, uid: str) -> str:
        return self.units[uid].side

    # --- terrain (14.0) ----------------------------------------------------------------------
    def terrain(self, hex_id: str) -> str:
        """The hex's terrain as the rules read it: an orchard by special rule replaces the printed one."""
        if hex_id in self.orchards:
            return "orchard"
        return self.hexes.terrain(hex_id)

    def road(self, hex_id: str) -> bool:
        features = self.hexes.features(hex_id)
        return "road" in features or "bridge" in features

    def road_between(self, a: str, b: str) -> bool:
        return self.road(a) and self.road(b) and "road" in self.hexes.side_features(a, b)

    def hedgerow(self, a: str, b: str) -> bool:
        return "hedgerow" in self.hexes.side_features(a, b)

    def hedgerow_sides(self, hex_id: str) -> tuple[str, ...]:
        """The neighbours across a hedgerow from this hex."""
        return tuple(n for n in self.hexes.neighbours(hex_id) if self.hedgerow(hex_id, n))

    def dike(self, hex_id: str) -> bool:
        return hex_id in self.dikes

    def building(self, hex_id: str) -> bool:
        return self.terrain(hex_id) in BUILDINGS

    def enterable(self, hex_id: str) -> bool:
        """14.0: river and canal hexes are entered only at a bridge."""
        return self.hexes.on_map(hex_id) and (self.tables["move_cost"][self.terrain(hex_id)] is not None
                                              or "bridge" in self.hexes.features(hex_id))

    def move_cost(self, a: str, b: str) -> int | None:
        """Half-MPs to step from a into the adjacent b (5.0, 14.0); None where no unit may enter."""
        return self._step_cost(a, b, "move_cost", "road_cost", "hedgerow_cost")

    def vehicle_move_cost(self, a: str, b: str) -> int | None:
        """Half-MPs for a vehicle to step from a into the adjacent b (V3, assumed aid card); None: no entry."""
        return self._step_cost(a, b, "vehicle_move_cost", "vehicle_road_cost", "vehicle_hedgerow_cost")

    def _step_cost(self, a: str, b: str, costs: str, road: str, hedgerow: str) -> int | None:
        if not self.enterable(b):
            return None
        if self.road_between(a, b):
            cost = int(self.tables[road])
        else:
            base = self.tables[costs][self.terrain(b)]
            if base is None and "bridge" not in self.hexes.features(b):
                return None  # V3: a vehicle never enters woods or a building
            cost = int(base) if base is not None else int(self.tables[costs]["open"])  # a bridge off the road
        if self.hedgerow(a, b):
            cost += int(self.tables[hedgerow])
        return cost

    def allowance(self, uid: str) -> int:
        """A unit's MP in halves."""
        return self.units[uid].type.move * int(self.tables["half_points"])

    def weight(self, uid: str) -> int:
        """V1: units a unit counts against the Operations Range."""
        return int(self.tables["ops_weight"]) if self.units[uid].type.heavy else 1

    def setup_area(self, side: str) -> tuple[str, ...]:
        return self.hexes.set(f"{side}-setup")

    def entry_hexes(self, side: str) -> tuple[str, ...]:
        return self.hexes.set(f"{side}-entry")


# --- scenario -----------------------------------------------------------------------------------

UNIT_SCHEMA: Schema = {
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "side", "type"],
    "properties": {
        "id": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9-]{0,15}$"},
        "side": {"enum": list(SIDES)},
        "type": {"type": "string"},
        "hex": HEX_ID,
        "enters": {"type": "integer", "minimum": 1, "maximum": 99},
        "concealed": {"type": "boolean"},
        "facing": {"type": "integer", "minimum": 0, "maximum": 5,
                   "description": "V4: a gun's or vehicle's facing, the hex spine between hexsides N and N+1"},
        "satw": {"enum": list(SATWS), "description": "V9: the squad carries this special anti-tank weapon"},
    },
    "oneOf": [{"required": ["hex"]}, {"required": ["enters"]}],
}
PER_SIDE_INT: Schema = {"type": "object", "additionalProperties": False,
                        "properties": {side: {"type": "integer", "minimum": 0, "maximum": 99} for side in SIDES}}
SCENARIO_SCHEMA: Schema = {
    "type": "object",
    "additionalProperties": False,
    "required": ["turns", "first", "ops_range", "cps", "units", "victory"],
    "properties": {
        "map": {"oneOf": [{"enum": sorted(PACKAGED_MAPS)}, {"type": "object"}],
                "description": "a packaged board (default board1) or a whole map document"},
        "turns": {"type": "integer", "minimum": 1, "maximum": 99, "description": "18.0: turns on the track"},
        "year": {"enum": [1944, 1945], "description": "V9: the year, for the panzerfaust's range (default 1944)"},
        "artillery": {"type": "object", "additionalProperties": False,
                      "properties": {side: {"type": "array", "maxItems": 9, "items": {
                          "type": "object", "additionalProperties": False,
                          "required": ["id", "firepower", "prof", "accuracy"],
                          "properties": {"id": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9-]{0,15}$"},
                                         "firepower": {"type": "integer", "minimum": 1, "maximum": 30},
                                         "prof": {"type": "integer", "minimum": 0, "maximum": 10},
                                         "accuracy": {"type": "integer", "minimum": 0, "maximum": 10}}}}
                                     for side in SIDES},
                      "description": "17.0: each side's Artillery Supports: firepower, proficiency, accuracy"},
        "first": {"enum": list(SIDES), "description": "4.0: the side that uses units first each turn"},
        "ops_range": {"type": "object", "additionalProperties": False, "required": list(SIDES),
                      "properties": {side: {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 99},
                                            "minItems": 2, "maxItems": 2} for side in SIDES},
                      "description": "4.0: least and most units each side Uses per impulse"},
        "cps": {**PER_SIDE_INT, "required": list(SIDES), "description": "3.0: command points per turn"},
        "foxholes": {**PER_SIDE_INT, "description": "14.0: foxhole counters each side places at set-up"},
        "orchards": {"type": "array", "items": HEX_ID, "uniqueItems": True,
                     "description": "14.0: hexes a special rule makes orchards"},
        "dike_road": {"type": "array", "items": HEX_ID, "uniqueItems": True,
                      "description": "14.0: road hexes a special rule makes a dike road"},
        "units": {"type": "array", "items": UNIT_SCHEMA, "minItems": 1, "maxItems": 200},
        "victory": {
            "type": "object", "additionalProperties": False, "required": ["objectives"],
            "properties": {
                "objectives": {"type": "object", "propertyNames": {"pattern": "^[0-9]{4}$"},
                               "additionalProperties": {
                                   "type": "object", "additionalProperties": False, "required": ["vp", "held"],
                                   "properties": {"vp": {"type": "integer", "minimum": 0, "maximum": 99},
                                                  "held": {"enum": list(SIDES)}}}},
                "elimination": {"type": "integer", "minimum": 0, "maximum": 99},
            },
        },
    },
}


def tables_schema() -> Schema:
    """Any packaged table value, key by key (the rest merged from the defaults)."""
    return shape_schema(plain_tables(), complete=False,
                        refine={"move_cost.*": {"type": ["integer", "null"], "minimum": 1},
                                "unit_types.*.full.casualty": {"type": "array", "items": {"type": "integer"},
                                                               "minItems": 0, "maxItems": 2},
                                "unit_types.*.reduced.casualty": {"type": "array", "items": {"type": "integer"},
                                                                  "minItems": 1, "maxItems": 2},
                                "blocks_los": {"type": "array", "items": {"enum": list(TERRAINS)}}},
                        description="values replacing the packaged ones, key by key (docs/bob.md, Assumed values)")


def scenario_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    setup = setup_with_tables(scenario)
    setup.setdefault("map", DEFAULT_MAP)
    return setup


def checked_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The plain setup, after the checks a schema cannot make (prepare raises PbemError naming each)."""
    setup = scenario_setup(scenario)
    prepare(setup)
    return setup


def prepare(setup: Mapping[str, Any]) -> Context:
    tables = merge(plain_tables(), dict(setup.get("tables") or {}))
    types = unit_types(tables)
    hexes = map_index(setup.get("map", DEFAULT_MAP), PACKAGE, PACKAGED_MAPS)
    problems: list[Problem] = []
    unknown = sorted({t for t in hexes.terrain_of.values() if t not in TERRAINS})
    if unknown:
        problems.append(Problem(f"the map uses terrain {', '.join(unknown)}", section="14.0",
                                legal=", ".join(TERRAINS)))
    units: dict[str, Unit] = {}
    for index, entry in enumerate(setup.get("units") or []):
        uid = entry["id"]
        kind = types.get(entry["type"])
        where = f"units[{index}]"
        if kind is None:
            problems.append(Problem(f"{where}: unknown unit type {entry['type']!r}", section="2.0",
                                    legal=", ".join(sorted(types))))
            continue
        if kind.side not in ("any", entry["side"]):
            problems.append(Problem(f"{where}: {entry['type']} is a {kind.side} type", section="2.0"))
        if uid in units:
            problems.append(Problem(f"{where}: unit id {uid} given twice", section="18.0"))
        hex_id = entry.get("hex")
        if hex_id is not None and not hexes.on_map(hex_id):
            problems.append(Problem(f"{where}: hex {hex_id} is not on the map", section="18.0"))
        if entry.get("satw") and kind.kind != "squad":
            problems.append(Problem(f"{where}: only a squad carries a {entry['satw']}", section="V9"))
        units[uid] = Unit(uid, entry["side"], kind, hex_id, entry.get("enters"), bool(entry.get("concealed")),
                          int(entry.get("facing", 0)), entry.get("satw"))
    for name in ("orchards", "dike_road"):
        for hex_id in setup.get(name) or []:
            if not hexes.on_map(hex_id):
                problems.append(Problem(f"{name}: hex {hex_id} is not on the map", section="14.0"))
    victory = setup.get("victory") or {}
    objectives = {h: (int(o["vp"]), str(o["held"])) for h, o in sorted((victory.get("objectives") or {}).items())}
    for hex_id in objectives:
        if not hexes.on_map(hex_id):
            problems.append(Problem(f"victory: objective {hex_id} is not on the map", section="18.0"))
    ops = {side: (int(setup["ops_range"][side][0]), int(setup["ops_range"][side][1])) for side in SIDES}
    for side, (low, high) in ops.items():
        if low > high:
            problems.append(Problem(f"ops_range.{side}: {low}-{high} runs backwards", section="4.0"))
    if problems:
        raise PbemError(problems)
    card = Card(turns=int(setup["turns"]), first=str(setup["first"]), ops_range=ops,
                cps={side: int(setup["cps"][side]) for side in SIDES},
                foxholes={side: int((setup.get("foxholes") or {}).get(side, 0)) for side in SIDES},
                objectives=objectives, elimination_vp=int(victory.get("elimination", 0)),
                year=int(setup.get("year", 1944)),
                artillery={side: [dict(s) for s in (setup.get("artillery") or {}).get(side, [])] for side in SIDES})
    dikes = set(setup.get("dike_road") or []) | {h for h in hexes.hexes() if "dike" in hexes.features(h)}
    return Context(hexes=hexes, tables=tables, types=types, units=dict(sorted(units.items())), card=card,
                   orchards=frozenset(setup.get("orchards") or []), dikes=frozenset(dikes))
