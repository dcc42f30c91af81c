"""Zones of control (7.1-7.4), hex control (3.2), and the surrounded and cut-off tests of 4.5.

Every unit exerts a ZOC into the six hexes around it, except into built-up hexes (7.2); a
friendly unit never cancels an enemy ZOC (7.4). These functions take the set of hexes a side
occupies, so the same code serves a side's view (where enemy hexes are known, not what is in
them) and the master state.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import place

from .context import Context


def projects_into(ctx: Context, source: str) -> list[str]:
    """7.2: the hexes a unit in `source` exerts its ZOC into."""
    return [n for n in ctx.hexes.neighbours(source) if not ctx.built_up(n)]


def in_zoc(ctx: Context, hex_id: str, occupied_by: set[str]) -> bool:
    """Whether a side occupying `occupied_by` exerts a ZOC into `hex_id`."""
    if hex_id in _built_up(ctx):
        return False
    return not occupied_by.isdisjoint(ctx.hexes.neighbours(hex_id))


def _built_up(ctx: Context) -> frozenset[str]:
    """The map's built-up hexes (`Context.built_up` of each), kept in the context: ZOC asks often."""
    found: frozenset[str] | None = ctx.cache.get("zoc:built_up")
    if found is None:
        found = ctx.cache["zoc:built_up"] = frozenset(h for h in ctx.hexes.terrain_of if ctx.built_up(h))
    return found


def zoc_hexes(ctx: Context, occupied_by: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for hex_id in occupied_by:
        out.update(projects_into(ctx, hex_id))
    return out


# --- hex control (3.2) -------------------------------------------------------------------------


class Occupancy:
    """How many active units of each side stand in each hex, kept as units move.

    Movement refreshes control after every step of every stack; counting the occupied hexes
    afresh each time (every unit of the game) was most of ToC's replay. Whoever holds one must
    move units only through it. Control changes are kept here too, as a set (the state's list is
    sorted again only by `settle`): whoever refreshes control through one calls `settle` before
    anything else reads the state's control.
    """

    def __init__(self, ctx: Context, state: State) -> None:
        self.ctx, self.state = ctx, state
        self.side_of = ctx.side_of
        self.count: dict[str, dict[str, int]] = {"german": {}, "british": {}}
        self.control: set[str] | None = None  # the German-controlled hexes, once a refresh gave one an owner
        self.changed = False
        for uid, unit in state["units"].items():
            if unit["status"] == "active":
                self._add(uid, unit["hex"], 1)

    def _add(self, uid: str, hex_id: str, step: int) -> None:
        counts = self.count["german" if self.side_of(uid) == "german" else "british"]
        left = counts.get(hex_id, 0) + step
        if left:
            counts[hex_id] = left
        else:
            del counts[hex_id]

    def place(self, uid: str, hex_id: str) -> None:
        """`kit.stacks.place`, counted."""
        unit = self.state["units"][uid]
        if unit["status"] == "active":
            self._add(uid, unit["hex"], -1)
        place(self.state, uid, hex_id)
        self._add(uid, hex_id, 1)

    def exit(self, uid: str) -> None:
        """The unit leaves the map (4.4)."""
        unit = self.state["units"][uid]
        if unit["status"] == "active":
            self._add(uid, unit["hex"], -1)
        unit.update(hex=None, status="exited")

    def settle(self) -> None:
        """Write the control changes into the state: the sorted list of German-controlled hexes."""
        if self.changed and self.control is not None:
            self.state["control"] = sorted(self.control)
            self.changed = False


def refresh_control(ctx: Context, state: State, hexes: Iterable[str], occupancy: Occupancy | None = None) -> None:
    """Switch control of the given hexes where 3.2 says so, at this instant.

    A hex holding units of only one side belongs to that side (a unit entered it). An empty
    hex switches to a side that exerts a ZOC into it while the other side exerts none
    (an uncontested ZOC). Otherwise control stays as it was. Reading: units in a hex contest
    an enemy ZOC into it, so an occupied hex changes hands only by entry. Given an `occupancy`,
    the changes stay in it until its `settle` (movement refreshes at every step of every stack).
    """
    if occupancy is None:
        occupancy = Occupancy(ctx, state)
        _refresh(occupancy, hexes)
        occupancy.settle()
    else:
        _refresh(occupancy, hexes)


def _refresh(occupancy: Occupancy, hexes: Iterable[str]) -> None:
    """`refresh_control` into the occupancy's control set (`Occupancy.settle` writes it to the state)."""
    ctx, state = occupancy.ctx, occupancy.state
    german, british = occupancy.count["german"].keys(), occupancy.count["british"].keys()
    # Each hex's new owner depends only on the occupied hexes, never on another hex's control:
    # the hexes are taken in any order, and the control list is read only when some hex has an owner.
    sources = _zoc_sources(ctx)
    control = occupancy.control
    changed = False
    for hex_id in hexes if isinstance(hexes, (set, frozenset)) else set(hexes):
        next_to = sources.get(hex_id)
        if next_to is None:  # off the map
            continue
        if hex_id in german:
            if hex_id in british:
                continue
            owner = "german"
        elif hex_id in british:
            owner = "british"
        else:  # 7.2: a built-up hex has no sources, so never an uncontested ZOC
            gz = not german.isdisjoint(next_to)
            if gz == (not british.isdisjoint(next_to)):
                continue
            owner = "german" if gz else "british"
        if control is None:
            control = occupancy.control = set(state["control"])
        if owner == "german" and hex_id not in control:
            control.add(hex_id)
            changed = True
        elif owner == "british" and hex_id in control:
            control.discard(hex_id)
            changed = True
    if changed:
        occupancy.changed = True


def _zoc_sources(ctx: Context) -> dict[str, tuple[str, ...]]:
    """Map hex -> the hexes whose units exert a ZOC into it: its neighbours, none for a built-up hex
    (7.2). Kept in the context: control is refreshed at every step of every move."""
    found: dict[str, tuple[str, ...]] | None = ctx.cache.get("zoc:sources")
    if found is None:
        built_up, neighbours = _built_up(ctx), ctx.hexes.neighbours
        found = ctx.cache["zoc:sources"] = {h: () if h in built_up else neighbours(h) for h in ctx.hexes.terrain_of}
    return found


def around(ctx: Context, *hexes: str | None) -> frozenset[str]:
    """The hexes whose control may change when units come or go in these hexes."""
    table: dict[str, frozenset[str]] | None = ctx.cache.get("zoc:around")
    if table is None:
        neighbours = ctx.hexes.neighbours
        table = ctx.cache["zoc:around"] = {h: frozenset((h, *neighbours(h))) for h in ctx.hexes.terrain_of}
    found = [table[h] for h in hexes if h is not None and h in table]
    if len(found) == 1:
        return found[0]
    return frozenset().union(*found)


# --- 4.5 ---------------------------------------------------------------------------------------


def surrounded(ctx: Context, hex_id: str, german: set[str]) -> bool:
    """4.5: every hex around `hex_id` holds a German unit or a German ZOC.

    Reading: only hexes on the map count (a hex on the map edge is surrounded when all of its
    on-map neighbours are covered); British units nearby change nothing (4.5, 7.4).
    """
    return all(n in german or in_zoc(ctx, n, german) for n in ctx.hexes.neighbours(hex_id))


def cut_off(ctx: Context, hex_id: str, german: set[str]) -> bool:
    """4.5: no path of adjacent hexes from `hex_id` to an exit hex free of German units and ZOC.

    The location hex itself may lie in a German ZOC. Terrain does not matter to the trace.
    """
    exits = set(ctx.hexes.set("exit"))
    if hex_id in exits:
        return False
    blocked = set(german) | zoc_hexes(ctx, german)
    seen = {hex_id}
    todo = deque([hex_id])
    while todo:
        here = todo.popleft()
        for n in ctx.hexes.neighbours(here):
            if n in seen or n in blocked:
                continue
            if n in exits:
                return False
            seen.add(n)
            todo.append(n)
    return True
