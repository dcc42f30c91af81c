"""The packaged data (map, tables, counters), scenario overrides, and the derived `Config`.

`data/tables.yaml` marks every number with where it came from (`source: <section>` or
`assumed: true`); `plain_tables` strips that to plain values. A scenario may replace any table
under its top-level `tables:` key (a table given there replaces the default table of that
name whole; unit types may also be replaced one by one under `tables: {unit_types: ...}`) and
may name a packaged map or give a whole map document under `setup: {map: ...}`.

A state carries what `config` needs in `state["setup"]`; `config(setup)` builds the `Config`
once per distinct setup (memoised) and every lookup after that is a dict access by hex id.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.core.errors import PbemError, Problem
from pbem.geometry.hexgrid import Hex, HexGrid, Line
from pbem.geometry.hexmap import HexMap, MapError
from pbem.rulesets.kit.tables import TableFile, packaged_yaml

SIDES = ("german", "british")
DEFAULT_MAP = "mons"
PACKAGED_MAPS = {"mons": "map.yaml"}
TERRAINS = ("clear", "forest", "residential", "industrial")
KINDS = ("infantry", "cavalry", "field-artillery", "horse-artillery", "heavy-artillery")
ARTILLERY = ("field-artillery", "horse-artillery", "heavy-artillery")
MELEE_KINDS = ("infantry", "cavalry")  # 12.1: only these attack in melee
REQUIRED_SETS = ("entry", "exit", "bridges", "bavai")


def other(side: str) -> str:
    return "british" if side == "german" else "german"


def _packaged(name: str) -> Any:
    return packaged_yaml("pbem.rulesets.toc.data", name)


TABLES = TableFile("pbem.rulesets.toc.data")
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


# --- the configuration ------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """8.2: one group's entry turn and designated entry hexes."""

    corps: str
    division: str | None
    turn: int
    hexes: tuple[str, ...]


@dataclass
class Config:
    map: HexMap
    tables: dict[str, Any]
    counters: dict[str, Counter]
    entries: tuple[Entry, ...]
    sets: dict[str, tuple[str, ...]]
    terrain_of: dict[str, str]
    neighbours_of: dict[str, tuple[str, ...]]
    cube_of: dict[str, tuple[int, int, int]]
    sides_of: dict[tuple[str, str], tuple[str, ...]]
    cache: dict[str, Any] = field(default_factory=dict)
    _los: dict[tuple[str, str], bool] = field(default_factory=dict)

    @property
    def grid(self) -> HexGrid:
        return self.map.grid

    # --- hexes -----------------------------------------------------------------------------------
    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.terrain_of

    def terrain(self, hex_id: str) -> str:
        return self.terrain_of[hex_id]

    def built_up(self, hex_id: str) -> bool:
        return self.terrain_of.get(hex_id) in self._terrain_set("built_up")

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return self.neighbours_of[hex_id]

    def _terrain_set(self, name: str) -> frozenset[str]:
        key = f"terrain:{name}"
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = frozenset(self.tables["terrain"][name])
        return found

    def terrain_is(self, hex_id: str, name: str) -> bool:
        """Whether the hex's terrain is in the named group of `tables.terrain` (built_up, ...)."""
        return self.terrain_of.get(hex_id) in self._terrain_set(name)

    def distance(self, a: str, b: str) -> int:
        ca, cb = self.cube_of[a], self.cube_of[b]
        return max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours_of.get(a, ())

    def hexes(self) -> list[str]:
        return sorted(self.terrain_of)

    def within(self, hex_id: str, radius: int) -> tuple[str, ...]:
        """The map hexes at distance 0..radius (cached)."""
        key = f"within:{radius}"
        table = self.cache.setdefault(key, {})
        found = table.get(hex_id)
        if found is None:
            found = table[hex_id] = tuple(sorted(h.id for h in self.grid.hexes_within(hex_id, radius)
                                                 if h.has_id and h.id in self.terrain_of))
        return found  # type: ignore[no-any-return]

    # --- hexsides --------------------------------------------------------------------------------
    def side_features(self, a: str, b: str) -> tuple[str, ...]:
        return self.sides_of.get((a, b) if a < b else (b, a), ())

    def canal(self, a: str, b: str) -> bool:
        return "canal" in self.side_features(a, b)

    def river(self, a: str, b: str) -> bool:
        return "river" in self.side_features(a, b)

    def water(self, a: str, b: str) -> bool:
        """11.3, 12.6: a canal or river hexside (bridged or not)."""
        features = self.side_features(a, b)
        return "canal" in features or "river" in features

    def bridged(self, a: str, b: str) -> bool:
        """9.16: a road or rail bridge spans the hexside."""
        features = self.side_features(a, b)
        return "bridge" in features or "rail-bridge" in features

    def road(self, a: str, b: str) -> bool:
        """9.17: the road runs through this hexside."""
        return "road" in self.side_features(a, b)

    def canal_blocks(self, a: str, b: str) -> bool:
        """9.13: an unbridged canal hexside stops movement, melee and advance."""
        return self.canal(a, b) and not self.bridged(a, b)

    # --- movement costs (9.10-9.18) -------------------------------------------------------------
    def enter_cost(self, kind: str, a: str, b: str) -> int | None:
        """MP for a unit of this kind to step from a to the adjacent b; None when prohibited."""
        if self.canal_blocks(a, b):
            return None
        if self.road(a, b):
            return int(self.tables["move_cost"]["road"])
        base = self.tables["move_cost"][self.terrain(b)][kind]
        if base is None:
            return None
        cost = int(base)
        if self.river(a, b) and not self.bridged(a, b):
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
            for here in self.terrain_of:
                found = []
                for n in self.neighbours_of[here]:
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
            for here in self.terrain_of:
                for n, cost in self.exits_from(kind, here):
                    table.setdefault(n, []).append((here, cost))
            for key in list(table):
                table[key] = tuple(table[key])
        return table.get(b, ())  # type: ignore[no-any-return]

    # --- line of sight (10.3) --------------------------------------------------------------------
    def blocks_los(self, hex_id: Hex | str) -> bool:
        key = hex_id.id if isinstance(hex_id, Hex) and hex_id.has_id else hex_id
        return isinstance(key, str) and self.terrain_of.get(key) in self._terrain_set("blocks_line_of_sight")

    def line(self, a: str, b: str) -> Line:
        return self.grid.line(a, b)

    def los_clear(self, a: str, b: str) -> bool:
        """10.3: no forest or residential hex between; a line along a hexside is blocked if either side blocks."""
        key = (a, b) if a < b else (b, a)
        found = self._los.get(key)
        if found is None:
            if self.distance(a, b) <= 1:
                found = True
            else:
                found = not self.line(key[0], key[1]).blocked(self.blocks_los, at_split="either")
            self._los[key] = found
        return found

    # --- sets ------------------------------------------------------------------------------------
    def set(self, name: str) -> tuple[str, ...]:
        return self.sets.get(name, ())

    def entry_for(self, uid: str) -> Entry | None:
        counter = self.counters[uid]
        for entry in self.entries:
            if entry.corps == counter.corps and entry.division == counter.division:
                return entry
        return None


def _load_map(spec: Any) -> HexMap:
    if isinstance(spec, str):
        if spec not in PACKAGED_MAPS:
            raise PbemError(Problem(f"unknown map {spec!r}", section="scenario", legal=", ".join(PACKAGED_MAPS)))
        doc = _packaged(PACKAGED_MAPS[spec])
    else:
        doc = spec
    try:
        return HexMap.from_dict(doc)
    except MapError as error:
        raise PbemError(Problem(str(error), section="scenario")) from None


def _build(setup_json: str) -> Config:
    setup = json.loads(setup_json)
    tables = plain_tables()
    data = oob()
    types = dict(data["unit_types"])
    overrides = dict(setup.get("tables") or {})
    for name, value in overrides.items():
        if name == "unit_types":
            for type_name, body in value.items():
                types[type_name] = {**types.get(type_name, {}), **body}
        else:
            tables[name] = copy.deepcopy(value)
    tables["unit_types"] = types
    hexmap = _load_map(setup.get("map", DEFAULT_MAP))
    missing = [name for name in REQUIRED_SETS if name not in hexmap.sets]
    if missing:
        raise PbemError(Problem(f"the map lacks the hex sets {', '.join(missing)}", section="scenario"))
    hexes = hexmap.hexes()
    terrain_of = {h.id: hexmap.terrain(h) for h in hexes}
    unknown = sorted({t for t in terrain_of.values() if t not in TERRAINS})
    if unknown:
        raise PbemError(Problem(f"the map uses terrain {', '.join(unknown)}", section="scenario",
                                legal=", ".join(TERRAINS)))
    grid = hexmap.grid
    sides_of = {}
    for side, features in hexmap.side_features.items():
        a, b = side.first.id, side.second.id
        sides_of[(a, b) if a < b else (b, a)] = tuple(features)
    entries = tuple(Entry(e["corps"], e.get("division"), int(e["turn"]), tuple(e["hexes"]))
                    for e in data["entry"])
    return Config(
        map=hexmap,
        tables=tables,
        counters=build_counters(data, types),
        entries=entries,
        sets={name: tuple(h.id for h in members) for name, members in hexmap.sets.items()},
        terrain_of=terrain_of,
        neighbours_of={h.id: tuple(n.id for n in hexmap.neighbours(h)) for h in hexes},
        cube_of={h.id: grid.to_cube(h).coords() for h in hexes},
        sides_of=sides_of,
    )


_CONFIGS: dict[str, Config] = {}
_LAST: list[Any] = [None, None]


def config(setup: Mapping[str, Any]) -> Config:
    if _LAST[0] is not None and setup == _LAST[0]:
        return _LAST[1]  # type: ignore[no-any-return]
    key = json.dumps(setup, sort_keys=True, separators=(",", ":"))
    found = _CONFIGS.get(key)
    if found is None:
        if len(_CONFIGS) > 16:
            _CONFIGS.clear()
        found = _CONFIGS[key] = _build(key)
    _LAST[0], _LAST[1] = copy.deepcopy(dict(setup)), found
    return found


def _same_shape(base: Any, over: Any, path: str) -> list[Problem]:
    if isinstance(base, dict):
        if not isinstance(over, dict):
            return [Problem(f"{path}: expected a mapping like the default", section="scenario")]
        out: list[Problem] = []
        for key in over:
            if key not in base:
                out.append(Problem(f"{path}: unknown key {key!r}", section="scenario",
                                   legal=", ".join(sorted(str(k) for k in base))))
        for key in base:
            if key not in over:
                out.append(Problem(f"{path}: missing key {key!r}", section="scenario"))
            else:
                out += _same_shape(base[key], over[key], f"{path}.{key}")
        return out
    if path.startswith("tables.terrain.") and isinstance(base, list):
        if not isinstance(over, list) or not all(v in TERRAINS for v in over):
            return [Problem(f"{path}: expected a list of terrain names", section="scenario", legal=", ".join(TERRAINS))]
        return []
    if path.startswith("tables.melee.") and isinstance(base, str):
        if not isinstance(over, str) or not re.fullmatch(r"[0-9]+/[0-9]+", over):
            return [Problem(f"{path}: expected a result like \"1/2\", got {over!r}", section="scenario")]
        return []
    if isinstance(base, list):
        if not isinstance(over, list) or len(over) != len(base):
            return [Problem(f"{path}: expected a list of {len(base)} like the default", section="scenario")]
        out = []
        for index, (a, b) in enumerate(zip(base, over)):
            out += _same_shape(a, b, f"{path}[{index}]")
        return out
    if base is None or over is None:
        return []
    if isinstance(base, bool) != isinstance(over, bool) or type(base) is not type(over):
        return [Problem(f"{path}: expected a value like {base!r}, got {over!r}", section="scenario")]
    return []


def override_problems(tables: Mapping[str, Any]) -> list[Problem]:
    """A scenario's `tables:` must name known tables and keep each table's shape."""
    base = plain_tables()
    types = oob()["unit_types"]
    problems: list[Problem] = []
    for name, value in tables.items():
        if name == "unit_types":
            if not isinstance(value, dict):
                problems.append(Problem("tables.unit_types: expected a mapping", section="scenario"))
                continue
            for type_name, body in value.items():
                if type_name not in types:
                    problems.append(Problem(f"tables.unit_types: unknown type {type_name!r}", section="scenario",
                                            legal=", ".join(sorted(types))))
                elif not isinstance(body, dict):
                    problems.append(Problem(f"tables.unit_types.{type_name}: expected a mapping",
                                            section="scenario"))
                else:
                    for key, sub in body.items():
                        if key not in types[type_name] or key in ("side", "kind"):
                            problems.append(Problem(f"tables.unit_types.{type_name}: {key!r} cannot be set",
                                                    section="scenario"))
                        elif isinstance(types[type_name][key], list):
                            if not (isinstance(sub, list) and all(type(v) is int and v >= 0 for v in sub)):
                                problems.append(Problem(f"tables.unit_types.{type_name}.{key}: expected a list "
                                                        "of whole numbers", section="scenario"))
                        elif type(sub) is not int or sub < 0:
                            problems.append(Problem(f"tables.unit_types.{type_name}.{key}: expected a whole "
                                                    "number", section="scenario"))
            continue
        if name not in base:
            problems.append(Problem(f"tables: unknown table {name!r}", section="scenario",
                                    legal=", ".join(sorted(base))))
            continue
        if name in ("bombardment", "defensive_fire"):
            problems += _table_problems(name, value)
        else:
            problems += _same_shape(base[name], value, f"tables.{name}")
    return problems


def _table_problems(name: str, value: Any) -> list[Problem]:
    """13.2/13.4 tables: a list of columns {factors: [low, high|null], die: six whole numbers}."""
    where = f"tables.{name}"
    if not isinstance(value, list) or not value:
        return [Problem(f"{where}: expected a list of columns", section="scenario")]
    problems: list[Problem] = []
    expected_low = 1
    for index, column in enumerate(value):
        ok = (isinstance(column, dict) and set(column) == {"factors", "die"}
              and isinstance(column["factors"], list) and len(column["factors"]) == 2
              and type(column["factors"][0]) is int
              and (column["factors"][1] is None or type(column["factors"][1]) is int)
              and isinstance(column["die"], list) and len(column["die"]) == 6
              and all(type(v) is int and 0 <= v for v in column["die"]))
        if not ok:
            problems.append(Problem(f"{where}[{index}]: expected {{factors: [low, high], die: [six numbers]}}",
                                    section="scenario"))
            continue
        low, high = column["factors"]
        if low != expected_low or (high is not None and high < low):
            problems.append(Problem(f"{where}[{index}]: columns must run on from {expected_low} without gaps",
                                    section="scenario"))
        if high is None and index != len(value) - 1:
            problems.append(Problem(f"{where}[{index}]: only the last column may be open-ended", section="scenario"))
        expected_low = (high or 0) + 1
    return problems


def scenario_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The `setup` a state carries, from a scenario document (checked)."""
    setup = dict(scenario.get("setup") or {})
    tables = dict(scenario.get("tables") or {})
    problems = override_problems(tables)
    if problems:
        raise PbemError(problems)
    out: dict[str, Any] = {"map": setup.get("map", DEFAULT_MAP)}
    if tables:
        out["tables"] = tables
    config(out)  # fail early on a bad map
    return out
