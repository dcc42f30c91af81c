"""Zones of control (7.1-7.4), hex control (3.2), and the surrounded and cut-off tests of 4.5.

Every unit exerts a ZOC into the six hexes around it, except into built-up hexes (7.2); a
friendly unit never cancels an enemy ZOC (7.4). These functions take the set of hexes a side
occupies, so the same code serves a side's view (where enemy hexes are known, not what is in
them) and the master state.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

from .config import Config
from .state import State, cfg_of, occupied


def projects_into(cfg: Config, source: str) -> list[str]:
    """7.2: the hexes a unit in `source` exerts its ZOC into."""
    return [n for n in cfg.neighbours(source) if not cfg.built_up(n)]


def in_zoc(cfg: Config, hex_id: str, occupied_by: set[str]) -> bool:
    """Whether a side occupying `occupied_by` exerts a ZOC into `hex_id`."""
    if cfg.built_up(hex_id):
        return False
    return any(n in occupied_by for n in cfg.neighbours(hex_id))


def zoc_hexes(cfg: Config, occupied_by: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for hex_id in occupied_by:
        out.update(projects_into(cfg, hex_id))
    return out


# --- hex control (3.2) -------------------------------------------------------------------------


def refresh_control(state: State, hexes: Iterable[str]) -> None:
    """Switch control of the given hexes where 3.2 says so, at this instant.

    A hex holding units of only one side belongs to that side (a unit entered it). An empty
    hex switches to a side that exerts a ZOC into it while the other side exerts none
    (an uncontested ZOC). Otherwise control stays as it was. Reading: units in a hex contest
    an enemy ZOC into it, so an occupied hex changes hands only by entry.
    """
    cfg = cfg_of(state)
    german = occupied(state, "german")
    british = occupied(state, "british")
    control = set(state["control"])
    changed = False
    for hex_id in sorted(set(hexes)):
        if not cfg.on_map(hex_id):
            continue
        owner = None
        if hex_id in german and hex_id not in british:
            owner = "german"
        elif hex_id in british and hex_id not in german:
            owner = "british"
        elif hex_id not in german and hex_id not in british:
            gz = in_zoc(cfg, hex_id, german)
            bz = in_zoc(cfg, hex_id, british)
            if gz and not bz:
                owner = "german"
            elif bz and not gz:
                owner = "british"
        if owner == "german" and hex_id not in control:
            control.add(hex_id)
            changed = True
        elif owner == "british" and hex_id in control:
            control.discard(hex_id)
            changed = True
    if changed:
        state["control"] = sorted(control)


def around(cfg: Config, *hexes: str | None) -> set[str]:
    """The hexes whose control may change when units come or go in these hexes."""
    out: set[str] = set()
    for hex_id in hexes:
        if hex_id is not None and cfg.on_map(hex_id):
            out.add(hex_id)
            out.update(cfg.neighbours(hex_id))
    return out


# --- 4.5 ---------------------------------------------------------------------------------------


def surrounded(cfg: Config, hex_id: str, german: set[str]) -> bool:
    """4.5: every hex around `hex_id` holds a German unit or a German ZOC.

    Reading: only hexes on the map count (a hex on the map edge is surrounded when all of its
    on-map neighbours are covered); British units nearby change nothing (4.5, 7.4).
    """
    return all(n in german or in_zoc(cfg, n, german) for n in cfg.neighbours(hex_id))


def cut_off(cfg: Config, hex_id: str, german: set[str]) -> bool:
    """4.5: no path of adjacent hexes from `hex_id` to an exit hex free of German units and ZOC.

    The location hex itself may lie in a German ZOC. Terrain does not matter to the trace.
    """
    exits = set(cfg.set("exit"))
    if hex_id in exits:
        return False
    blocked = set(german) | zoc_hexes(cfg, german)
    seen = {hex_id}
    todo = deque([hex_id])
    while todo:
        here = todo.popleft()
        for n in cfg.neighbours(here):
            if n in seen or n in blocked:
                continue
            if n in exits:
                return False
            seen.add(n)
            todo.append(n)
    return True
