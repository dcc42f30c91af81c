"""What must hold in every ToC state (whole-game tests check every state against these)."""

from __future__ import annotations

from pbem.core.ruleset import State

from .context import Context
from .stacking import violations
from .state import STATUSES


def problems(ctx: Context, state: State) -> list[str]:
    """What is wrong with a full state of the game `ctx` was prepared for (nothing: [])."""
    found: list[str] = []
    if set(state["units"]) != set(ctx.counters):
        found.append("the units are not exactly the order of battle")
    places: dict[str, set[str]] = {}
    for uid, unit in sorted(state["units"].items()):
        counter = ctx.counters[uid]
        status = unit["status"]
        if status not in STATUSES:
            found.append(f"{uid}: unknown status {status!r}")
        if status == "active":
            if unit["hex"] is None or not ctx.hexes.on_map(unit["hex"]):
                found.append(f"{uid}: on the map but at {unit['hex']!r}")
            elif not 1 <= unit["steps"] <= counter.steps:
                found.append(f"{uid}: {unit['steps']} steps of {counter.steps}")
            else:
                places.setdefault(unit["hex"], set()).add(counter.side)
        else:
            if unit["hex"] is not None:
                found.append(f"{uid}: {status} but placed at {unit['hex']}")
        if status == "eliminated" and unit["steps"] != 0:
            found.append(f"{uid}: dead with {unit['steps']} steps")
        if status == "exited" and counter.side != "british":
            found.append(f"{uid}: only British units leave the map (4.4)")
        if status == "container" and counter.side != "german":
            found.append(f"{uid}: only German units wait to enter (3.1)")
        if unit.get("surrounded") and (status != "eliminated" or counter.side != "british"):
            found.append(f"{uid}: only dead British units are surrounded (4.5)")
    for hex_id, sides in sorted(places.items()):
        if len(sides) > 1:
            found.append(f"{hex_id}: units of both sides (9.4)")
    for hex_id, side in violations(ctx, state):
        found.append(f"{hex_id}: {side} stack over the limits (6.3, 6.5)")
    if state["control"] != sorted(set(state["control"])) or any(not ctx.hexes.on_map(h) for h in state["control"]):
        found.append("control is not a sorted list of map hexes")
    zs = [u["z"] for u in state["units"].values() if u["status"] == "active"]
    if len(zs) != len(set(zs)):
        found.append("two units share a stacking position")
    if not 1 <= state["turn"] <= int(ctx.tables["last_turn"]):
        found.append(f"turn {state['turn']} is outside 1-{ctx.tables['last_turn']}")
    return found
