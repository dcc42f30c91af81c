"""The prepared game context: the map, the plain tables, the counters and the derived hex sets.

The packaged tables (`data/tables.yaml`) mark every leaf with where it came from: a rule
section, or `assumed: true` (`kit.tables.TableFile` reads them). A scenario's `tables:` block
overrides any leaf at the same path; `tables_schema` is the JSON Schema the core checks it
against (the shape of the defaults, `kit.overrides.shape_schema`).

A game's setup (`setup_of`: the map, a packaged name or a whole map document; the play-balance
option; the table overrides) is carried by every state and view under `setup`. `prepare(setup)`
turns it into a `Context` once per game (the core binds it, `pbem.core.ruleset.Rules`); every
rule function receives that context and nothing in fbsm rebuilds it from a state.
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from pbem.geometry.hexgrid import Hex, HexGrid, Line
from pbem.geometry.hexmap import HexMap
from pbem.rulesets.kit.hexboard import HexIndex, TerrainGroups, load_map, map_index
from pbem.rulesets.kit.overrides import shape_schema
from pbem.rulesets.kit.tables import TableFile, merge

PACKAGE = "pbem.rulesets.fbsm.data"
DEFAULT_MAP = "second-marne"
PACKAGED_MAPS = {"second-marne": "map.yaml"}
SIDES = ("us", "german")
REQUIRED_SETS = ("riverbank", "paris-metz-road", "hill-231", "varennes", "paroy", "crezancy", "moulin-ruine",
                 "south-exit", "west-edge", "east-edge")


def other(side: str) -> str:
    return "german" if side == "us" else "us"


TABLES = TableFile(PACKAGE)
annotated_tables = TABLES.annotated
plain_tables = TABLES.plain
assumed_values = TABLES.assumed


# --- the scenario's part ----------------------------------------------------------------------------

def tables_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario's `tables:` overrides (the core checks it, with file positions).

    Known keys only, each value of the same kind as the default; a scenario names only what it
    changes. A new counter group under `counters` carries every field of a group (2.5). A random
    event roll names one of the events of 7.2-7.10.
    """
    plain = plain_tables()
    events = sorted(set(plain["random_events"].values()))
    return shape_schema(plain, complete=False, description="overrides of the packaged tables (docs/fbsm.md)",
                        refine={"random_events.*": {"enum": events, "description": "7.1: an event of 7.2-7.10"}},
                        extensible={"counters": "a new counter group: every field of a group"})


def setup_of(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The `setup` every state carries, from a scenario the schemas accepted.

    What the schemas cannot check is the map (a whole map document must load and name every hex
    set the rules use); that fails here, before any game is written.
    """
    setup = dict(scenario.get("setup") or {})
    tables = scenario.get("tables") or {}
    out: dict[str, Any] = {"map": setup.get("map", DEFAULT_MAP), "play_balance": bool(setup.get("play_balance", False))}
    if tables:
        out["tables"] = tables
    _map(out["map"])
    return out


def _map(spec: Any) -> HexMap:
    return load_map(spec, PACKAGE, PACKAGED_MAPS, REQUIRED_SETS)


# --- counters ---------------------------------------------------------------------------------------

# A NamedTuple, not a dataclass: about 0.1 ms to create at import instead of 0.5 (every command pays it).
class Counter(NamedTuple):
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


# --- the context ------------------------------------------------------------------------------------

class Context:
    """Everything fixed for one game: the indexed map, the plain tables, the counters, the derived hex sets.

    Built once per game by `prepare`. The memos (lines and lines of fire in `hexes`, the bots' cost
    fields) fill as the game is played and belong to this context alone. A plain class, not a
    dataclass (about 0.7 ms less at every command's start); compared by identity, and its
    attributes are never reassigned.
    """

    __slots__ = ("hexes", "tables", "terrain_groups", "play_balance", "counters", "riverbank", "forward_zone",
                 "rear_zone", "zones", "road_hexes", "south_exit", "west_edge", "east_edge", "varennes", "fields")

    def __init__(self, *, hexes: HexIndex, tables: dict[str, Any], terrain_groups: TerrainGroups, play_balance: bool,
                 counters: dict[str, Counter], riverbank: tuple[str, ...], forward_zone: frozenset[str],
                 rear_zone: frozenset[str], zones: dict[str, frozenset[str]], road_hexes: frozenset[str],
                 south_exit: tuple[str, ...], west_edge: tuple[str, ...], east_edge: tuple[str, ...],
                 varennes: frozenset[str]) -> None:
        self.hexes = hexes
        self.tables = tables
        self.terrain_groups = terrain_groups  # `impassable` and `blocking` (10.8), from the tables
        self.play_balance = play_balance
        self.counters = counters
        self.riverbank = riverbank
        self.forward_zone = forward_zone  # 3.3 as drawn on the map, before the set-up bans
        self.rear_zone = rear_zone  # 3.4
        self.zones = zones  # the set-up zones less the banned hexes (setup.py)
        self.road_hexes = road_hexes
        self.south_exit = south_exit
        self.west_edge = west_edge
        self.east_edge = east_edge
        self.varennes = varennes
        self.fields: dict[str, dict[str, int]] = {}  # the bots' cost fields, by name

    @property
    def map(self) -> HexMap:
        return self.hexes.map

    @property
    def grid(self) -> HexGrid:
        return self.hexes.map.grid

    def side_of(self, uid: str) -> str:
        return self.counters[uid].side

    # --- terrain -----------------------------------------------------------------------------
    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.hexes.terrain_of

    def terrain(self, hex_id: str) -> str:
        return self.hexes.terrain(hex_id)

    def defense(self, hex_id: str) -> int:
        """10.3: the defence strength of the hex's terrain (Hill 231 counts as clear, 10.8)."""
        return int(self.tables["defense"][self.hexes.terrain(hex_id)])

    def impassable(self, hex_id: str) -> bool:
        found = self.hexes.terrain_of.get(hex_id)
        return found is None or self.terrain_groups.has(found, "impassable")

    def blocks(self, hex_id: Hex | str) -> bool:
        """10.8: town, wooded hills, prepared positions, railroads and Hill 231 block LOF."""
        if isinstance(hex_id, Hex):
            if not hex_id.has_id:
                return False
            hex_id = hex_id.id
        found = self.hexes.terrain_of.get(hex_id)
        if found is None:
            return False
        if self.terrain_groups.has(found, "blocking"):
            return True
        return any(f in self.tables["blocking_features"] for f in self.hexes.features_of[hex_id])

    def road_between(self, a: str, b: str) -> bool:
        return "road" in self.hexes.side_features(a, b)

    def enter_cost(self, a: str, b: str) -> int:
        """9.5: half-MP to enter b from the adjacent a (road rate along a road hexside)."""
        if self.road_between(a, b):
            return int(self.tables["move_cost"]["road"])
        return int(self.tables["move_cost"][self.hexes.terrain(b)])

    # --- geometry ---------------------------------------------------------------------------
    def distance(self, a: str, b: str) -> int:
        return self.hexes.distance(a, b)

    def adjacent(self, a: str, b: str) -> bool:
        return self.hexes.adjacent(a, b)

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return self.hexes.neighbours(hex_id)

    def line(self, a: str, b: str) -> Line:
        return self.hexes.line(a, b)

    def lof_clear(self, a: str, b: str) -> bool:
        """10.7-10.9: nothing between the two hexes blocks (a hexside line only if both sides do)."""
        return self.hexes.clear_between(a, b, self.blocks, "both", key="blocks")

    def step(self, hex_id: str, compass: str, count: int) -> str | None:
        """The hex `count` hexes toward a compass point, or None when that leaves the map."""
        h = self.grid.step(hex_id, self.map.direction(compass), count)
        return h.id if h.has_id and self.map.on_map(h) else None


def _flood(hexes: HexIndex, start: tuple[str, ...], barrier: set[str]) -> set[str]:
    seen = set(start)
    todo = list(start)
    neighbours_of = hexes.neighbours_of
    while todo:
        here = todo.pop()
        for n in neighbours_of[here]:
            if n not in seen and n not in barrier:
                seen.add(n)
                todo.append(n)
    return seen


def prepare(setup: Mapping[str, Any]) -> Context:
    """The context of a game with this setup (a state's `setup`; missing keys take their defaults)."""
    tables = merge(plain_tables(), setup.get("tables") or {})
    hexes = map_index(setup.get("map", DEFAULT_MAP), PACKAGE, PACKAGED_MAPS, REQUIRED_SETS)
    groups = TerrainGroups({"impassable": tables["impassable"], "blocking": tables["blocking_terrain"]})
    sets = hexes.sets
    road = set(sets["paris-metz-road"])
    riverbank = set(sets["riverbank"])
    impassable = groups.names("impassable")
    water = {h for h, terrain in hexes.terrain_of.items() if terrain in impassable}
    # 3.3: north of the Paris-Metz road = the side of the road the Marne riverbank is on.
    north = _flood(hexes, sets["riverbank"], road | water)
    varennes = set(sets["varennes"])
    forward = {h for h in north if h not in varennes and h not in riverbank and h not in water}
    forward |= set(sets["hill-231"])
    rear = {h for h, terrain in hexes.terrain_of.items() if terrain == "wooded-hills"}
    rear |= set(sets["paroy"]) | set(sets["crezancy"]) | set(sets["moulin-ruine"])
    road_hexes = frozenset(road)
    # 3.3 and 3.4, less the Paris-Metz road and riverbank hexes (3.3, 9.8) and the Marne
    banned = road_hexes | frozenset(sets["riverbank"])
    passable = {h for h, terrain in hexes.terrain_of.items() if terrain not in impassable}
    zones = {"forward": frozenset(h for h in forward if h not in banned and h in passable),
             "rear": frozenset(h for h in rear if h not in banned and h in passable)}
    return Context(
        hexes=hexes,
        tables=tables,
        terrain_groups=groups,
        play_balance=bool(setup.get("play_balance", False)),
        counters=build_counters(tables),
        riverbank=sets["riverbank"],
        forward_zone=frozenset(forward),
        rear_zone=frozenset(rear),
        zones=zones,
        road_hexes=road_hexes,
        south_exit=sets["south-exit"],
        west_edge=sets["west-edge"],
        east_edge=sets["east-edge"],
        varennes=frozenset(sets["varennes"]),
    )
