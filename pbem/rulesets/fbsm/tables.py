"""Tables, counters and the map: packaged data, scenario overrides, and the derived `Config`.

The packaged tables (`data/tables.yaml`) mark every leaf with where it came from: a rule
section, or `assumed: true`. `plain_tables` strips that to plain values. A scenario's `tables:`
block overrides any leaf at the same path (checked against the shape of the defaults).

A state names its configuration in `state["setup"]`: the map (a packaged map name or a whole
inline map document), the play-balance option and the table overrides. `config(setup)` turns
that into a `Config` (memoised: the same setup always gives the same object).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.core.errors import PbemError, Problem
from pbem.geometry.hexgrid import Hex, HexGrid, Line
from pbem.geometry.hexmap import HexMap, MapError
from pbem.rulesets.kit.tables import TableFile, packaged_yaml

DEFAULT_MAP = "second-marne"
PACKAGED_MAPS = {"second-marne": "map.yaml"}
SIDES = ("us", "german")


def other(side: str) -> str:
    return "german" if side == "us" else "us"


def _packaged(name: str) -> Any:
    return packaged_yaml("pbem.rulesets.fbsm.data", name)


TABLES = TableFile("pbem.rulesets.fbsm.data")
annotated_tables = TABLES.annotated
plain_tables = TABLES.plain
assumed_values = TABLES.assumed


def override_problems(base: Any, over: Any, path: str = "tables") -> list[Problem]:
    """Overrides must follow the shape of the defaults: known keys, same kinds of values.

    New counter groups may be added under `counters` (they need every field).
    """
    problems: list[Problem] = []
    if isinstance(base, dict):
        if not isinstance(over, dict):
            return [Problem(f"{path}: expected a mapping", section="scenario", legal="a mapping like the defaults")]
        for key, value in over.items():
            if key in base:
                problems += override_problems(base[key], value, f"{path}.{key}")
            elif path == "tables.counters":
                sample = next(iter(base.values()))
                missing = sorted(set(sample) - set(value)) if isinstance(value, dict) else ["all"]
                if missing:
                    problems.append(Problem(f"{path}.{key}: a new counter group needs {', '.join(missing)}",
                                            section="scenario"))
                else:
                    problems += override_problems(sample, value, f"{path}.{key}")
            else:
                problems.append(Problem(f"{path}: unknown key {key!r}", section="scenario",
                                        legal=", ".join(sorted(str(k) for k in base))))
        return problems
    if isinstance(base, bool) != isinstance(over, bool) or type(base) is not type(over):
        return [Problem(f"{path}: expected a value like {base!r}, got {over!r}", section="scenario")]
    return problems


def merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)


@dataclass(frozen=True)
class Counter:
    """One combat unit's printed values (2.5)."""

    id: str
    side: str
    kind: str  # "infantry" or "hw" (US heavy weapons emplacement, 2.8)
    fire: int
    range: int
    move: int  # whole movement points

    def values(self) -> dict[str, Any]:
        return {"kind": self.kind, "fire": self.fire, "range": self.range, "move": self.move}


def build_counters(tables: Mapping[str, Any]) -> dict[str, Counter]:
    """Expand the counter groups into one Counter per id (ids number on per prefix)."""
    out: dict[str, Counter] = {}
    next_number: dict[str, int] = {}
    groups = tables["counters"]
    width: dict[str, int] = {}
    for group in groups.values():
        width[group["prefix"]] = width.get(group["prefix"], 0) + int(group["count"])
    for group in groups.values():
        prefix = group["prefix"]
        digits = max(2, len(str(width[prefix])))
        for _ in range(int(group["count"])):
            number = next_number.get(prefix, 0) + 1
            next_number[prefix] = number
            uid = f"{prefix}{number:0{digits}d}"
            out[uid] = Counter(uid, group["side"], group["kind"], int(group["fire"]), int(group["range"]),
                               int(group["move"]))
    return out


@dataclass
class Config:
    """Everything fixed for one game: the map, the plain tables, the counters, derived hex sets."""

    map: HexMap
    tables: dict[str, Any]
    play_balance: bool
    counters: dict[str, Counter]
    riverbank: tuple[str, ...]
    forward_zone: frozenset[str]
    rear_zone: frozenset[str]
    road_hexes: frozenset[str]
    south_exit: tuple[str, ...]
    west_edge: tuple[str, ...]
    east_edge: tuple[str, ...]
    varennes: frozenset[str]
    cache: dict[str, Any] = field(default_factory=dict)  # derived data (bots' cost fields), per config
    _lines: dict[tuple[str, str], Line] = field(default_factory=dict)
    _clear_lof: dict[tuple[str, str], bool] = field(default_factory=dict)

    @property
    def grid(self) -> HexGrid:
        return self.map.grid

    def _index(self) -> dict[str, Any]:
        """Per-hex lookups by printed id, built once (hex-id parsing is the hot path)."""
        index = self.cache.get("index")
        if index is None:
            grid = self.grid
            terrain = {h.id: self.map.terrain(h) for h in self.map.hexes()}
            index = {
                "terrain": terrain,
                "features": {h.id: self.map.features(h) for h in self.map.hexes()},
                "neighbours": {h.id: tuple(n.id for n in self.map.neighbours(h)) for h in self.map.hexes()},
                "cube": {h.id: grid.to_cube(h).coords() for h in self.map.hexes()},
                "roads": {tuple(sorted((side.first.id, side.second.id)))
                          for side, feats in self.map.side_features.items() if "road" in feats},
            }
            self.cache["index"] = index
        return index

    # --- terrain -----------------------------------------------------------------------------
    def on_map(self, hex_id: str) -> bool:
        return hex_id in self._index()["terrain"]

    def terrain(self, hex_id: str) -> str:
        found = self._index()["terrain"].get(hex_id)
        if found is None:
            raise MapError(f"hex {hex_id} is off the map")
        return str(found)

    def defense(self, hex_id: str) -> int:
        """10.3: the defence strength of the hex's terrain (Hill 231 counts as clear, 10.8)."""
        return int(self.tables["defense"][self.terrain(hex_id)])

    def impassable(self, hex_id: str) -> bool:
        found = self._index()["terrain"].get(hex_id)
        return found is None or found in self.tables["impassable"]

    def blocks(self, hex_id: Hex | str) -> bool:
        """10.8: town, wooded hills, prepared positions, railroads and Hill 231 block LOF."""
        key = hex_id.id if isinstance(hex_id, Hex) and hex_id.has_id else hex_id
        index = self._index()
        found = index["terrain"].get(key) if isinstance(key, str) else None
        if found is None:
            return False
        if found in self.tables["blocking_terrain"]:
            return True
        return any(f in self.tables["blocking_features"] for f in index["features"][key])

    def road_between(self, a: str, b: str) -> bool:
        return (a, b) in self._index()["roads"] or (b, a) in self._index()["roads"]

    def enter_cost(self, a: str, b: str) -> int:
        """9.5: half-MP to enter b from the adjacent a (road rate along a road hexside)."""
        if self.road_between(a, b):
            return int(self.tables["move_cost"]["road"])
        return int(self.tables["move_cost"][self.terrain(b)])

    # --- geometry ---------------------------------------------------------------------------
    def distance(self, a: str, b: str) -> int:
        cubes = self._index()["cube"]
        ca, cb = cubes.get(a), cubes.get(b)
        if ca is None or cb is None:
            return self.grid.distance(a, b)
        return int(max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2])))

    def adjacent(self, a: str, b: str) -> bool:
        return a != b and self.distance(a, b) == 1

    def neighbours(self, hex_id: str) -> list[str]:
        found = self._index()["neighbours"].get(hex_id)
        if found is None:
            return [h.id for h in self.map.neighbours(hex_id)]
        return list(found)

    def line(self, a: str, b: str) -> Line:
        key = (a, b)
        if key not in self._lines:
            self._lines[key] = self.grid.line(a, b)
        return self._lines[key]

    def lof_clear(self, a: str, b: str) -> bool:
        """10.7-10.9: nothing between the two hexes blocks (a hexside line only if both sides do)."""
        key = (a, b)
        if key not in self._clear_lof:
            if self.distance(a, b) <= 1:
                self._clear_lof[key] = True
            else:
                self._clear_lof[key] = not self.line(a, b).blocked(self.blocks, at_split="both")
        return self._clear_lof[key]

    def step(self, hex_id: str, compass: str, count: int) -> str | None:
        """The hex `count` hexes toward a compass point, or None when that leaves the map."""
        h = self.grid.step(hex_id, self.map.direction(compass), count)
        return h.id if h.has_id and self.map.on_map(h) else None


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


REQUIRED_SETS = ("riverbank", "paris-metz-road", "hill-231", "varennes", "paroy", "crezancy", "moulin-ruine",
                 "south-exit", "west-edge", "east-edge")


def _flood(hexmap: HexMap, start: list[Hex], barrier: set[Hex]) -> set[Hex]:
    seen = set(start)
    todo = list(start)
    while todo:
        here = todo.pop()
        for n in hexmap.neighbours(here):
            if n not in seen and n not in barrier:
                seen.add(n)
                todo.append(n)
    return seen


def _build(setup_json: str) -> Config:
    setup = json.loads(setup_json)
    tables = merge(plain_tables(), setup.get("tables") or {})
    hexmap = _load_map(setup.get("map", DEFAULT_MAP))
    missing = [name for name in REQUIRED_SETS if name not in hexmap.sets]
    if missing:
        raise PbemError(Problem(f"the map lacks the hex sets {', '.join(missing)}", section="scenario"))
    sets = {name: tuple(h.id for h in hexmap.sets[name]) for name in hexmap.sets}
    road = {h for h in hexmap.sets["paris-metz-road"]}
    riverbank = [h for h in hexmap.sets["riverbank"]]
    impassable = set(tables["impassable"])
    water = {h for h in hexmap.hexes() if hexmap.terrain(h) in impassable}
    # 3.3: north of the Paris-Metz road = the side of the road the Marne riverbank is on.
    north = _flood(hexmap, riverbank, road | water)
    varennes = {Hex.parse(x) for x in sets["varennes"]}
    forward = {h.id for h in north if h not in varennes and h not in set(riverbank) and h not in water}
    forward |= set(sets["hill-231"])
    rear = {h.id for h in hexmap.hexes() if hexmap.terrain(h) == "wooded-hills"}
    rear |= set(sets["paroy"]) | set(sets["crezancy"]) | set(sets["moulin-ruine"])
    return Config(
        map=hexmap,
        tables=tables,
        play_balance=bool(setup.get("play_balance", False)),
        counters=build_counters(tables),
        riverbank=sets["riverbank"],
        forward_zone=frozenset(forward),
        rear_zone=frozenset(rear),
        road_hexes=frozenset(h.id for h in road),
        south_exit=sets["south-exit"],
        west_edge=sets["west-edge"],
        east_edge=sets["east-edge"],
        varennes=frozenset(sets["varennes"]),
    )


_CONFIGS: dict[str, Config] = {}


def config(setup: Mapping[str, Any]) -> Config:
    key = json.dumps(setup, sort_keys=True, separators=(",", ":"))
    found = _CONFIGS.get(key)
    if found is None:
        if len(_CONFIGS) > 32:
            _CONFIGS.clear()
        found = _CONFIGS[key] = _build(key)
    return found


def scenario_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The `setup` a state carries, from a scenario document (checked)."""
    setup = dict(scenario.get("setup") or {})
    tables = scenario.get("tables") or {}
    problems = override_problems(plain_tables(), tables)
    known = set(plain_tables()["random_events"].values())
    for roll, name in (tables.get("random_events") or {}).items():
        if name not in known:
            problems.append(Problem(f"tables.random_events.{roll}: unknown event {name!r}", section="7.1",
                                    legal=", ".join(sorted(known))))
    if problems:
        raise PbemError(problems)
    out: dict[str, Any] = {"map": setup.get("map", DEFAULT_MAP), "play_balance": bool(setup.get("play_balance", False))}
    if tables:
        out["tables"] = tables
    config(out)  # fail early on a bad map
    return out
