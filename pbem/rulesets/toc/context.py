"""The packaged data (map, tables, counters), scenario overrides, and toc's prepared `Context`.

`data/tables.yaml` marks every number with where it came from (`source: <section>` or
`assumed: true`); `plain_tables` strips that to plain values. A scenario may replace any table
under its top-level `tables:` key (a table given there replaces the default table of that
name whole; unit types may also be replaced one by one under `tables: {unit_types: ...}`) and
may name a packaged map or give a whole map document under `setup: {map: ...}`.

`tables_schema()` is what the core checks a scenario's `tables:` against (`Toc.tables_schema`);
`checked_setup` and `prepare` refuse what a schema cannot say. A state carries its setup in
`state["setup"]`; `prepare(setup)` builds the `Context` from it, once per game (the core binds
it: `Rules`), and the rules receive that context in every call. Nothing here is cached between
games: what a context derives (LoS, move costs by unit kind, the hexes near a hex) lives in it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pbem.core.errors import PbemError, Problem
from pbem.geometry.hexgrid import Hex, HexGrid
from pbem.geometry.hexmap import HexMap
from pbem.rulesets.kit.hexboard import HexIndex, TerrainGroups, map_index
from pbem.rulesets.kit.overrides import Schema, shape_schema
from pbem.rulesets.kit.tables import TableFile, packaged_yaml

PACKAGE = "pbem.rulesets.toc.data"
SIDES = ("german", "british")
DEFAULT_MAP = "mons"
PACKAGED_MAPS = {"mons": "map.yaml"}
TERRAINS = ("clear", "forest", "residential", "industrial")
KINDS = ("infantry", "cavalry", "field-artillery", "horse-artillery", "heavy-artillery")
ARTILLERY = ("field-artillery", "horse-artillery", "heavy-artillery")
MELEE_KINDS = ("infantry", "cavalry")  # 12.1: only these attack in melee
REQUIRED_SETS = ("entry", "exit", "bridges", "bavai")
FIXED_UNIT_FIELDS = ("side", "kind")  # a scenario never changes a unit type's side or kind


def other(side: str) -> str:
    return "british" if side == "german" else "german"


def _packaged(name: str) -> Any:
    return packaged_yaml(PACKAGE, name)


TABLES = TableFile(PACKAGE)
annotated_tables = TABLES.annotated
plain_tables = TABLES.plain
assumed_values = TABLES.assumed


def oob() -> dict[str, Any]:
    found: dict[str, Any] = copy.deepcopy(_packaged("oob.yaml"))
    return found


# --- counters ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counter:
    """One unit's printed values (2.3-2.13); lists are per step, index 0 = one step left."""

    id: str
    side: str
    type: str
    kind: str
    steps: int
    stacking: int
    melee_by_step: tuple[int, ...]
    bombard_by_step: tuple[int, ...]
    range: int
    move: int
    corps: str | None = None
    division: str | None = None
    start: str | None = None
    name: str = ""

    @property
    def artillery(self) -> bool:
        return self.kind in ARTILLERY

    @property
    def melee_capable(self) -> bool:
        return self.kind in MELEE_KINDS

    def melee(self, steps: int, artillery_defence: int = 1) -> int:
        """12.7: the melee factor at this step strength (artillery defends with 1)."""
        if self.artillery:
            return artillery_defence
        return self.melee_by_step[max(1, min(steps, self.steps)) - 1]

    def defensive_fire(self, steps: int, artillery_defence: int = 1) -> int:
        """11.1: infantry and cavalry fire with their melee factor, artillery with 1."""
        return self.melee(steps, artillery_defence)

    def bombard(self, steps: int) -> int:
        if not self.artillery:
            return 0
        return self.bombard_by_step[max(1, min(steps, self.steps)) - 1]

    def worth(self, steps: int) -> int:
        """The value the loss rules rank units by: melee factor, or bombardment factor for artillery."""
        return self.bombard(steps) if self.artillery else self.melee(steps)

    def counter_face(self, steps: int) -> dict[str, Any]:
        """2.13: which physical counter and side show at this step strength."""
        if self.steps == 4:
            return {"counter": "main" if steps >= 3 else "substitute", "face": "front" if steps % 2 == 0 else "back"}
        return {"counter": "main", "face": "front" if steps == self.steps else "back"}


def build_counters(data: Mapping[str, Any], types: Mapping[str, Any]) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for side in SIDES:
        for entry in data[side]:
            kind = types[entry["type"]]
            if kind["side"] != side:
                raise PbemError(Problem(f"unit {entry['id']}: type {entry['type']} is not a {side} type",
                                        section="scenario"))
            steps = int(kind["steps"])
            melee = tuple(int(v) for v in kind.get("melee", []))
            bombard = tuple(int(v) for v in kind.get("bombard", []))
            if kind["kind"] in ARTILLERY and len(bombard) != steps:
                raise PbemError(Problem(f"unit type {entry['type']}: bombard needs one value per step",
                                        section="scenario"))
            if kind["kind"] in MELEE_KINDS and len(melee) != steps:
                raise PbemError(Problem(f"unit type {entry['type']}: melee needs one value per step",
                                        section="scenario"))
            out[entry["id"]] = Counter(
                id=entry["id"], side=side, type=entry["type"], kind=kind["kind"], steps=steps,
                stacking=int(kind["stacking"]), melee_by_step=melee, bombard_by_step=bombard,
                range=int(kind.get("range", 0)), move=int(kind["move"]), corps=entry.get("corps"),
                division=entry.get("division"), start=entry.get("start"), name=str(entry.get("name", "")),
            )
    return dict(sorted(out.items()))


# --- the context --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """8.2: one group's entry turn and designated entry hexes."""

    corps: str
    division: str | None
    turn: int
    hexes: tuple[str, ...]


@dataclass
class Context:
    """One game's fixed data, prepared once: the map's index (the kit's `HexIndex`), the tables with
    the scenario's overrides and their terrain groups, the counters and the entry schedule, and what
    the rules derive from them."""

    hexes: HexIndex
    tables: dict[str, Any]
    terrain_groups: TerrainGroups  # `tables.terrain`
    counters: dict[str, Counter]
    entries: tuple[Entry, ...]
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def map(self) -> HexMap:
        return self.hexes.map

    @property
    def grid(self) -> HexGrid:
        return self.hexes.grid

    @property
    def side_of(self) -> Callable[[str], str]:
        """unit id -> its side (for the kit's stacks helpers)."""
        sides: dict[str, str] | None = self.cache.get("sides")
        if sides is None:
            sides = self.cache["sides"] = {uid: c.side for uid, c in self.counters.items()}
        return sides.__getitem__

    # --- terrain groups (`tables.terrain`) ---------------------------------------------------------
    def terrain_is(self, hex_id: str, name: str) -> bool:
        """Whether the hex's terrain is in the named group of `tables.terrain` (built_up, ...)."""
        return self.hexes.terrain_in(hex_id, self.terrain_groups.names(name))

    def built_up(self, hex_id: str) -> bool:
        return self.terrain_is(hex_id, "built_up")

    def within(self, hex_id: str, radius: int) -> tuple[str, ...]:
        """The map hexes at distance 0..radius (cached)."""
        key = f"within:{radius}"
        table = self.cache.setdefault(key, {})
        found = table.get(hex_id)
        if found is None:
            terrain_of = self.hexes.terrain_of
            found = table[hex_id] = tuple(sorted(h.id for h in self.grid.hexes_within(hex_id, radius)
                                                 if h.has_id and h.id in terrain_of))
        return found  # type: ignore[no-any-return]

    # --- hexsides --------------------------------------------------------------------------------
    def canal(self, a: str, b: str) -> bool:
        return "canal" in self.hexes.side_features(a, b)

    def river(self, a: str, b: str) -> bool:
        return "river" in self.hexes.side_features(a, b)

    def water(self, a: str, b: str) -> bool:
        """11.3, 12.6: a canal or river hexside (bridged or not)."""
        features = self.hexes.side_features(a, b)
        return "canal" in features or "river" in features

    def bridged(self, a: str, b: str) -> bool:
        """9.16: a road or rail bridge spans the hexside."""
        features = self.hexes.side_features(a, b)
        return "bridge" in features or "rail-bridge" in features

    def road(self, a: str, b: str) -> bool:
        """9.17: the road runs through this hexside."""
        return "road" in self.hexes.side_features(a, b)

    def canal_blocks(self, a: str, b: str) -> bool:
        """9.13: an unbridged canal hexside stops movement, melee and advance."""
        return self.canal(a, b) and not self.bridged(a, b)

    # --- movement costs (9.10-9.18) -------------------------------------------------------------
    def enter_cost(self, kind: str, a: str, b: str) -> int | None:
        """MP for a unit of this kind to step from a to the adjacent b; None when prohibited."""
        features = self.hexes.side_features(a, b)
        bridged = "bridge" in features or "rail-bridge" in features
        if "canal" in features and not bridged:  # 9.13
            return None
        if "road" in features:  # 9.17
            return int(self.tables["move_cost"]["road"])
        base = self.tables["move_cost"][self.hexes.terrain(b)][kind]
        if base is None:
            return None
        cost = int(base)
        if "river" in features and not bridged:  # 9.12
            extra = self.tables["river_extra"][kind]
            if extra is None:
                return None
            cost += int(extra)
        return cost

    def exits_from(self, kind: str, a: str) -> tuple[tuple[str, int], ...]:
        """(neighbour, cost) for every hex a unit of `kind` may step into from `a` (cached per kind)."""
        table = self.cache.get(f"out:{kind}")
        if table is None:
            table = self.cache[f"out:{kind}"] = {}
            for here in self.hexes.terrain_of:
                found = []
                for n in self.hexes.neighbours_of[here]:
                    cost = self.enter_cost(kind, here, n)
                    if cost is not None:
                        found.append((n, cost))
                table[here] = tuple(found)
        return table[a]  # type: ignore[no-any-return]

    def entries_into(self, kind: str, b: str) -> tuple[tuple[str, int], ...]:
        """(neighbour, cost) for every hex from which a unit of `kind` may step into `b` (cached per kind)."""
        table = self.cache.get(f"in:{kind}")
        if table is None:
            table = self.cache[f"in:{kind}"] = {}
            for here in self.hexes.terrain_of:
                for n, cost in self.exits_from(kind, here):
                    table.setdefault(n, []).append((here, cost))
            for key in list(table):
                table[key] = tuple(table[key])
        return table.get(b, ())  # type: ignore[no-any-return]

    # --- line of sight (10.3) --------------------------------------------------------------------
    def blocks_los(self, hex_id: Hex | str) -> bool:
        key = hex_id.id if isinstance(hex_id, Hex) and hex_id.has_id else hex_id
        return isinstance(key, str) and self.terrain_is(key, "blocks_line_of_sight")

    def los_clear(self, a: str, b: str) -> bool:
        """10.3: no forest or residential hex between; a line along a hexside is blocked if either side blocks.

        One answer per pair of hexes (`HexIndex.clear_between` draws the line from the lower hex id).
        """
        return self.hexes.clear_between(a, b, self.blocks_los, "either", key="blocks_line_of_sight")

    # --- the order of battle -----------------------------------------------------------------------
    def entry_for(self, uid: str) -> Entry | None:
        counter = self.counters[uid]
        for entry in self.entries:
            if entry.corps == counter.corps and entry.division == counter.division:
                return entry
        return None


def prepare(setup: Mapping[str, Any]) -> Context:
    """The context of a game with this setup (see `scenario_setup`): tables, map index, counters."""
    tables = plain_tables()
    data = oob()
    types = dict(data["unit_types"])
    for name, value in dict(setup.get("tables") or {}).items():
        if name == "unit_types":
            for type_name, body in value.items():
                types[type_name] = {**types.get(type_name, {}), **body}
        else:
            tables[name] = copy.deepcopy(value)
    tables["unit_types"] = types
    hexes = map_index(setup.get("map", DEFAULT_MAP), PACKAGE, PACKAGED_MAPS, REQUIRED_SETS)
    unknown = sorted({t for t in hexes.terrain_of.values() if t not in TERRAINS})
    if unknown:
        raise PbemError(Problem(f"the map uses terrain {', '.join(unknown)}", section="scenario",
                                legal=", ".join(TERRAINS)))
    entries = tuple(Entry(e["corps"], e.get("division"), int(e["turn"]), tuple(e["hexes"]))
                    for e in data["entry"])
    return Context(hexes=hexes, tables=tables, terrain_groups=TerrainGroups(tables["terrain"]),
                   counters=build_counters(data, types), entries=entries)


# --- the scenario's `tables:` -------------------------------------------------------------------

WHOLE: Schema = {"type": "integer", "minimum": 0}
RESULT: Schema = {"type": "string", "pattern": "^[0-9]+/[0-9]+$",
                  "description": 'attacker/defender step losses, like "1/2"'}
COLUMNS: Schema = {  # 13.2, 13.4
    "type": "array",
    "minItems": 1,
    "description": "columns of total factors, from 1 on without gaps (the last may be open-ended: high null), "
                   "each with the step losses for a modified die of 1 to 6",
    "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["factors", "die"],
        "properties": {
            "factors": {"type": "array", "minItems": 2, "maxItems": 2,
                        "prefixItems": [{"type": "integer"}, {"type": ["integer", "null"]}]},
            "die": {"type": "array", "minItems": 6, "maxItems": 6, "items": WHOLE},
        },
    },
}
REFINE: dict[str, Schema] = {
    "bombardment": COLUMNS,
    "defensive_fire": COLUMNS,
    "melee.*.*": RESULT,
    "poor_odds_result": RESULT,
    "high_odds_result": RESULT,
    "terrain.*": {"type": "array", "items": {"enum": list(TERRAINS)}},
    "move_cost.*.*": {"type": ["integer", "null"]},  # null: the unit kind may not enter (9.10-9.15)
    "river_extra.*": {"type": ["integer", "null"]},  # null: the unit kind may not cross (9.12)
}


def tables_schema() -> Schema:
    """The scenario's `tables:`: any table of `data/tables.yaml` given whole, in the default's shape
    (every key, lists of the default's length), and unit types field by field (never side or kind)."""
    schema = shape_schema(plain_tables(), complete=False, whole=("*",), refine=REFINE,
                          description="tables replacing the packaged ones (docs/toc.md, Assumed values)")
    types = oob()["unit_types"]
    settable = {name: {key: value for key, value in body.items() if key not in FIXED_UNIT_FIELDS}
                for name, body in types.items()}
    schema["properties"]["unit_types"] = shape_schema(
        settable, complete=False,
        refine={f"{name}.{key}": ({"type": "array", "items": WHOLE} if isinstance(value, list) else WHOLE)
                for name, body in settable.items() for key, value in body.items()},
        description="unit types replaced field by field (values per step from one step up)")
    return schema


def column_problems(name: str, columns: list[Any]) -> list[Problem]:
    """13.2/13.4 columns must run on from 1 without gaps, and only the last may be open-ended."""
    where = f"tables.{name}"
    problems: list[Problem] = []
    expected_low = 1
    for index, column in enumerate(columns):
        low, high = column["factors"]
        if low != expected_low or (high is not None and high < low):
            problems.append(Problem(f"{where}[{index}]: columns must run on from {expected_low} without gaps",
                                    section="scenario"))
        if high is None and index != len(columns) - 1:
            problems.append(Problem(f"{where}[{index}]: only the last column may be open-ended", section="scenario"))
        expected_low = (high or 0) + 1
    return problems


def scenario_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The `setup` a state carries, from a scenario document (not checked: see `checked_setup`)."""
    setup = dict(scenario.get("setup") or {})
    tables = dict(scenario.get("tables") or {})
    out: dict[str, Any] = {"map": setup.get("map", DEFAULT_MAP)}
    if tables:
        out["tables"] = tables
    return out


def checked_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """`scenario_setup` for a scenario the schemas accepted, with what they cannot check of its tables:
    the results tables' columns (PbemError otherwise). The map and one value per step in the unit
    types are checked by `prepare`, which the core calls on this setup next (`core.ruleset.start`)."""
    out = scenario_setup(scenario)
    problems: list[Problem] = []
    for name in ("bombardment", "defensive_fire"):
        if name in out.get("tables", {}):
            problems += column_problems(name, out["tables"][name])
    if problems:
        raise PbemError(problems)
    return out
