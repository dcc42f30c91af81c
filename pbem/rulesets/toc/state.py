"""The ToC state: its shape, the compact form case files use, and small accessors.

A full state (`toc: 1`) holds:

- `setup`: what `context.prepare` builds the game's context from (map, table overrides);
- `turn` (1-14, 5.4) and `phase` (see `sequence.PHASES`);
- `sequence`: the British player's choice for the current British player turn (5.3), or null;
- `units`: id -> {hex, steps, status, z}; status `container` (a German unit not yet entered,
  8.x: off the map, `hex` null), `active` (on the map), `eliminated` (the dead pile, `hex` null;
  British units eliminated while surrounded carry
  `surrounded: true`, 4.5) or `exited` (off by a British exit hex, 4.4). `z` orders a stack:
  the highest z in a hex is its top unit (6.6); arrivals go on top;
- `next_z`: the next stacking number;
- `control`: the hexes the German side controls, sorted (3.2; every other hex is British);
- `marched`: German units that used march mode this player turn (9.20);
- `result`: null, or the game's result;
- `next_orders` (only between two phases of one adjudication): the orders a movement phase
  carried for the next phase of the same player turn (`next_phase`), consumed by that phase.

The compact form (no `toc` key) lets a case file list only what matters: `phase`, `turn`
(default 2), `units` ({id: {hex, steps, status}} in stacking order, bottom first; only listed
units exist; steps default to full strength), and any of the other keys. Stacks (`z`, the top
unit, arrivals on top) are the kit's `pbem.rulesets.kit.stacks`.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.core.errors import PbemError
from pbem.core.ruleset import State
from pbem.rulesets.kit import stacks
from pbem.rulesets.kit.stacks import numbered

from .context import Context

STATUSES = ("container", "active", "eliminated", "exited")


def normalize(ctx: Context, state: State) -> State:
    """A full state from a full or compact one (a full state is returned as it is).

    `ctx` is the context of the state's setup (a compact state without one: the default map's).
    """
    if state.get("toc") == 1:
        return state
    if "phase" not in state:
        raise PbemError("a ToC state needs at least `phase`")
    setup = dict(state.get("setup") or {})
    setup.setdefault("map", "mons")
    units: dict[str, dict[str, Any]] = {}
    listed = numbered(state.get("units") or {})
    for uid, entry, z in listed:
        if uid not in ctx.counters:
            raise PbemError(f"unit {uid!r} is not in the order of battle")
        hex_id = entry.get("hex")
        status = entry.get("status", "active" if hex_id else "container")
        if status not in STATUSES:
            raise PbemError(f"unit {uid}: status must be one of {', '.join(STATUSES)}")
        if status == "active" and (hex_id is None or not ctx.hexes.on_map(hex_id)):
            raise PbemError(f"unit {uid}: hex {hex_id!r} is not on the map")
        steps = int(entry.get("steps", ctx.counters[uid].steps))
        unit: dict[str, Any] = {"hex": hex_id if status == "active" else None,
                                "steps": steps if status != "eliminated" else 0, "status": status,
                                "z": z}
        if entry.get("surrounded"):
            unit["surrounded"] = True
        units[uid] = unit
    full: State = {
        "toc": 1,
        "setup": setup,
        "turn": int(state.get("turn", 2)),
        "phase": state["phase"],
        "sequence": state.get("sequence"),
        "units": {uid: units[uid] for uid in sorted(units)},
        "next_z": listed.next_z,
        "control": sorted(state.get("control") or []),
        "marched": sorted(state.get("marched") or []),
        "result": copy.deepcopy(state.get("result")),
    }
    if state.get("next_orders") is not None:
        full["next_orders"] = copy.deepcopy(state["next_orders"])
    if "standing" in state:
        full["standing"] = copy.deepcopy(state["standing"])
    return full


def occupied(ctx: Context, state: State, side: str) -> set[str]:
    """The hexes `side` has units in."""
    return stacks.occupied(state, ctx.side_of, side)


def levels(units: dict[str, dict[str, Any]], uids: Any) -> dict[str, int]:
    """Each active unit's place in its own stack, 0 at the bottom (6.6: what its side sees of it);
    `uids` picks the units of one side."""
    by_hex: dict[str, list[tuple[int, str]]] = {}
    for uid in uids:
        unit = units[uid]
        if unit["status"] == "active":
            by_hex.setdefault(unit["hex"], []).append((unit["z"], uid))
    return {uid: level for items in by_hex.values() for level, (_, uid) in enumerate(sorted(items))}
