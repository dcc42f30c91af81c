"""Set-up (3.1-3.6, 6.6): the US zones, one unit per hex, and the German blind draw of 30.

US set-up orders name a unit and a hex: `{setup: US01, hex: "2617"}`. Units the orders leave
out are set up by a fixed default (the free zone hexes with the best defence first), so a
missing or partial set-up never stops the game. The German set-up is automatic: 30 blind
draws from the container, the n-th drawn unit into the n-th riverbank hex (3.6); the drawn
units are public (3.6: both players may look at them).
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.listing import compact
from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import place

from .board import Board
from .context import Context
from .state import container

QUOTA_KEYS = {("forward", "infantry"): "forward_infantry", ("forward", "hw"): "forward_hw",
              ("rear", "infantry"): "rear_infantry", ("rear", "hw"): "rear_hw"}


def quota(cfg: Context, zone: str, kind: str) -> int:
    return int(cfg.tables["us_setup"][QUOTA_KEYS[(zone, kind)]])


def pick_zone(cfg: Context, hex_id: str, kind: str, used: dict[tuple[str, str], int]) -> str | None:
    """The zone a unit set up in `hex_id` counts toward (forward first where zones overlap)."""
    zone_sets = cfg.zones
    for zone in ("forward", "rear"):
        if hex_id in zone_sets[zone] and used.get((zone, kind), 0) < quota(cfg, zone, kind):
            return zone
    return None


def _to_set_up(board: Board) -> str:
    """3.2: the US units the side's view shows still waiting to be set up, as runs (HW01-HW09, US01-US48)."""
    waiting = [uid for uid, unit in board.own.items() if unit["status"] == "container"]
    return compact(waiting) if waiting else "none: every US unit is set up"


def _area(hexes: list[str]) -> str:
    """The smallest CCRR-CCRR rectangle holding `hexes` (the map's hex ids: column, then row)."""
    columns, rows = sorted(h[:2] for h in hexes), sorted(h[2:] for h in hexes)
    return f"{columns[0]}{rows[0]}-{columns[-1]}{rows[-1]}"


def map_extent(cfg: Context) -> str:
    """The map's hexes in words: columns and rows of its CCRR ids."""
    hexes = sorted(cfg.hexes.terrain_of)
    columns, rows = sorted({h[:2] for h in hexes}), sorted({h[2:] for h in hexes})
    return (f"a hex of the map, CCRR: column {columns[0]}-{columns[-1]}, row {rows[0]}-{rows[-1]} "
            f"({_area(hexes)})")


def _zone_hexes(cfg: Context, hex_id: str, taken: Mapping[str, str]) -> str:
    """3.3-3.4: the free set-up zone hexes nearest `hex_id`, and where to see them all."""
    free = [h for h in cfg.zones["forward"] | cfg.zones["rear"] if h not in taken]
    near = sorted(free, key=lambda h: (cfg.distance(hex_id, h), h))[:6] if cfg.on_map(hex_id) else []
    shown = f"the nearest free ones {', '.join(near)}; " if near else ""
    return f"{shown}all {len(free)} on your map: pbem render VIEW.yaml --area {_area(free)}" if free else "none free"


def validate_us_setup(board: Board, orders: list[Any]) -> list[Problem]:
    cfg = board.cfg
    problems: list[Problem] = []
    zone_sets = cfg.zones  # 3.3, 3.4 less the road, the riverbank and the Marne (context.prepare)
    used: dict[tuple[str, str], int] = {}
    taken: dict[str, str] = {}
    seen: set[str] = set()
    for index, order in enumerate(orders):
        if "concede" in order:
            continue
        uid, hex_id = order["setup"], order["hex"]
        if uid not in board.own or cfg.counters[uid].side != "us":
            problems.append(Problem(f"{uid} is not a US unit", order=index, path=("setup",), section="3.2",
                                    legal=_to_set_up(board)))
            continue
        if uid in seen or board.own[uid]["status"] != "container":
            problems.append(Problem(f"{uid} is already set up", order=index, path=("setup",), section="3.2",
                                    legal="each US unit once"))
            continue
        seen.add(uid)
        kind = cfg.counters[uid].kind
        if not cfg.on_map(hex_id):
            problems.append(Problem(f"{hex_id} is not on the map", order=index, path=("hex",), section="3.2",
                                    legal=map_extent(cfg)))
            continue
        if hex_id in cfg.road_hexes or hex_id in cfg.riverbank:
            problems.append(Problem(f"{hex_id} is a Paris-Metz road or Marne riverbank hex", order=index,
                                    path=("hex",), section="3.3",
                                    legal="forward or rear zone hexes off the road: " + _zone_hexes(cfg, hex_id, taken)))
            continue
        if hex_id not in zone_sets["forward"] and hex_id not in zone_sets["rear"]:
            problems.append(Problem(f"{hex_id} is in neither US set-up zone", order=index, path=("hex",),
                                    section="3.3" if hex_id in cfg.varennes else "3.4",
                                    legal="north of the Paris-Metz road (not Varennes), Hill 231, wooded hills, "
                                          "Paroy, Crezancy, Moulin Ruine: " + _zone_hexes(cfg, hex_id, taken)))
            continue
        if hex_id in taken:
            problems.append(Problem(f"{hex_id} already holds {taken[hex_id]}", order=index, path=("hex",),
                                    section="3.2",
                                    legal="one US unit per hex at set-up (6.6): " + _zone_hexes(cfg, hex_id, taken)))
            continue
        zone = pick_zone(cfg, hex_id, kind, used)
        if zone is None:
            problems.append(Problem(f"the zone of {hex_id} has no room left for another {kind} unit", order=index,
                                    path=("hex",), section="3.2",
                                    legal="forward zone: 16 infantry and 8 emplacements; rear zone: 32 infantry "
                                          "and 1 emplacement"))
            continue
        used[(zone, kind)] = used.get((zone, kind), 0) + 1
        taken[hex_id] = uid
    return problems


def resolve_us_setup(cfg: Context, state: State, orders: list[Any], events: list[dict[str, Any]]) -> None:
    used: dict[tuple[str, str], int] = {}
    taken: set[str] = set()
    placed: list[dict[str, Any]] = []
    for order in orders:
        if "setup" not in order:
            continue
        uid, hex_id = order["setup"], order["hex"]
        zone = pick_zone(cfg, hex_id, cfg.counters[uid].kind, used)
        if zone is None or hex_id in taken or state["units"][uid]["status"] != "container":
            continue  # validation rejects these; never reached with accepted orders
        used[(zone, cfg.counters[uid].kind)] = used.get((zone, cfg.counters[uid].kind), 0) + 1
        taken.add(hex_id)
        place(state, uid, hex_id)
        placed.append({"unit": uid, "hex": hex_id, "zone": zone})
    # 3.2: every US unit begins on the map; those the orders left out go to the default hexes.
    zone_sets = cfg.zones
    for uid in container(cfg, state, "us"):
        kind = cfg.counters[uid].kind
        for zone in ("forward", "rear"):
            if used.get((zone, kind), 0) >= quota(cfg, zone, kind):
                continue
            free = sorted((h for h in zone_sets[zone] if h not in taken), key=lambda h: (-cfg.defense(h), h))
            if free:
                used[(zone, kind)] = used.get((zone, kind), 0) + 1
                taken.add(free[0])
                place(state, uid, free[0])
                placed.append({"unit": uid, "hex": free[0], "zone": zone, "default": True})
                break
    events.append({"type": "us-setup", "section": "3.2", "units": placed})


def resolve_german_setup(cfg: Context, state: State, dice: Dice, events: list[dict[str, Any]]) -> None:
    count = int(cfg.tables["setup_draws"])
    drawn: list[dict[str, Any]] = []
    for number, hex_id in enumerate(cfg.riverbank[:count], start=1):
        pool = container(cfg, state, "german")
        if not pool:
            break
        uid = dice.draw(pool, f"3.6 set-up draw {number} for riverbank hex {hex_id}")
        place(state, uid, hex_id)
        drawn.append({"unit": uid, "hex": hex_id})
    events.append({"type": "german-setup", "section": "3.6", "units": drawn})
