"""Conceal markers and decoys (15.0).

A concealed unit (or a decoy, always concealed while it is on the map) shows the other side only
its marker (`fog.py`). The marker comes off, revealing what is under it (a decoy is removed),
when: the unit takes a suppression result (`fire.apply`); an enemy unit ends a step adjacent to
it and survives the fire in that hex (`adjacent_enemy`); it stands in open ground in the LOS of
an enemy unit, or anywhere in its LOS for a vehicle (`sweep`, V1); it passes its check and fires (`reveal`, called by the fire). A unit
without a marker gains one by ending its move out of the LOS of every enemy unit (`regain`).
Markers are numbered per side in the order they are placed (`state.markers`; at set-up hex by
hex, a stack's markers in a shuffle only its owner sees, `setup.number_markers`), so a number says
nothing of what is under it.
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State

from .context import Context, other
from .state import marker_name, on_map
from .terrain import los, open_ground


def reveal(state: State, uid: str) -> None:
    unit = state["units"][uid]
    unit["concealed"] = False
    unit["marker"] = None


def take_off(ctx: Context, state: State, uid: str, why: str, events: list[dict[str, Any]]) -> None:
    """Remove a unit's marker for `why`; a decoy goes with it (15.0)."""
    unit = state["units"][uid]
    event: dict[str, Any] = {"type": "reveal", "side": ctx.units[uid].side, "section": "15.0", "marker": unit["marker"],
                             "unit": uid, "hex": unit["hex"], "why": why, "decoy": ctx.units[uid].decoy}
    reveal(state, uid)
    if ctx.units[uid].decoy:
        unit.update(status="removed", hex=None)
    events.append(event)


def put_on(ctx: Context, state: State, uid: str) -> None:
    side = ctx.units[uid].side
    unit = state["units"][uid]
    unit["concealed"] = True
    unit["marker"] = marker_name(side, state["markers"][side])
    state["markers"][side] += 1


def in_the_open(ctx: Context, state: State, hex_id: str) -> bool:
    """Open ground for 15.0 and 11.0: an open-ground hex (`terrain.open_ground`) without a foxhole."""
    return open_ground(ctx, hex_id) and hex_id not in state["foxholes"]


def seen_by_enemy(ctx: Context, state: State, uid: str) -> bool:
    hex_id = state["units"][uid]["hex"]
    return any(los(ctx, unit["hex"], hex_id) for _, unit in on_map(ctx, state, other(ctx.units[uid].side)))


def sweep(ctx: Context, state: State, events: list[dict[str, Any]]) -> None:
    """15.0: every concealed unit in open ground in an enemy unit's LOS loses its marker."""
    for uid, unit in list(on_map(ctx, state)):
        vehicle = ctx.units[uid].type.vehicle  # V1: a vehicle loses it in enemy sight, whatever the terrain
        if unit["concealed"] and (vehicle or in_the_open(ctx, state, unit["hex"])) and seen_by_enemy(ctx, state, uid):
            take_off(ctx, state, uid, "a vehicle in enemy sight" if vehicle else "in open ground in enemy sight",
                     events)


def adjacent_enemy(ctx: Context, state: State, mover: str, events: list[dict[str, Any]]) -> None:
    """15.0: an enemy unit moved next to these markers and survived the fire there."""
    hex_id = state["units"][mover]["hex"]
    for uid, unit in list(on_map(ctx, state, other(ctx.units[mover].side))):
        if unit["concealed"] and ctx.hexes.distance(unit["hex"], hex_id) <= 1:
            take_off(ctx, state, uid, "an enemy unit came next to it", events)


def regain(ctx: Context, state: State, uid: str, events: list[dict[str, Any]]) -> None:
    """15.0: a unit ending its move out of every enemy unit's LOS gains a marker."""
    unit = state["units"][uid]
    if unit["status"] != "active" or unit["concealed"] or seen_by_enemy(ctx, state, uid):
        return
    put_on(ctx, state, uid)
    events.append({"type": "concealed", "side": ctx.units[uid].side, "section": "15.0", "unit": uid,
                   "marker": unit["marker"], "hex": unit["hex"]})
