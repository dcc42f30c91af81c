"""The FBSM state: its shape, the compact form case files use, and small accessors.

A full state (`fbsm: 1`) holds:

- `setup`: what `context.prepare` needs (map, play_balance, table overrides);
- `turn`, `phase`;
- `units`: id -> {hex, status, z}. status is `active` (on the map), `container` (off the map,
  not yet in play: the German holding container of 3.5, or a US unit before set-up), `drawn`
  (drawn from the container, waiting for its placement: 7.5, 7.7, 8.3), `eliminated` (carnage,
  2.6; `hex` keeps where it fell) or `exited` (off the south edge, 4.3). `z` orders a stack:
  the highest z in a hex is its top unit (6.5); every arrival goes on top;
- `next_z`: the next stacking number;
- `effects`: this turn's random event and what it changes (7.x);
- `once`: the once-per-game events already used (7.5, 7.6, 7.7);
- `pending`: the drawn units awaiting placement and where they may go;
- `markers`: per side, the bombardment markers usable this phase (13.4), null for all;
- `result`: null, or the game's result (4.x, 13.3).

The compact form (no `fbsm` key) lets a case file list only what matters: `phase`, `turn`
(default 2), `units` ({id: {hex, status}} in stacking order, bottom first; only listed units
exist; status defaults to `active` with a hex, else `container`; a container, drawn or exited
unit's hex is null), and any of the other keys; `normalize` fills in the rest, so every unit has
at least `hex` and `status`. Stacks are read and changed with the kit's helpers (`kit.stacks`).
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.core.errors import PbemError
from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import numbered

from .context import DEFAULT_MAP, Context

STATUSES = ("active", "container", "drawn", "eliminated", "exited")
OFF_MAP = ("container", "drawn", "exited")

NO_EFFECTS: dict[str, Any] = {
    "event": None,  # the event rolled this turn (7.1), or None
    "roll": None,
    "us_rally": False,  # 7.6
    "german_rally": False,  # 7.9
    "gas": False,  # 7.4
    "heavy_mg": False,  # 7.8
    "us_problems": False,  # 7.2
    "german_problems": False,  # 7.3
    "no_drift": None,  # 7.10: the side whose bombardments do not drift this turn
}
NO_ONCE: dict[str, bool] = {"breakthrough-west": False, "breakthrough-east": False, "us-rally": False}


def normalize(ctx: Context, state: State) -> State:
    """A full state from a full or compact one (a full state is returned as it is).

    `ctx` is the context of the state's setup (the core prepares it from the compact setup; the
    defaults `normalize` writes into `setup` are the ones `prepare` assumes).
    """
    if state.get("fbsm") == 1:
        return state
    if "phase" not in state:
        raise PbemError("an FBSM state needs at least `phase`")
    setup = dict(state.get("setup") or {})
    setup.setdefault("map", DEFAULT_MAP)
    setup.setdefault("play_balance", False)
    units: dict[str, dict[str, Any]] = {}
    listed = numbered(state.get("units") or {})
    for uid, entry, mine in listed:
        if uid not in ctx.counters:
            raise PbemError(f"unit {uid!r} is not in the counter mix")
        hex_id = entry.get("hex")
        status = entry.get("status", "active" if hex_id else "container")
        if status not in STATUSES:
            raise PbemError(f"unit {uid}: status must be one of {', '.join(STATUSES)}")
        if status in OFF_MAP:
            hex_id = None  # every unit has a hex, null off the map (an eliminated unit keeps where it fell)
        units[uid] = {"hex": hex_id, "status": status, "z": mine}
    effects = dict(NO_EFFECTS)
    effects.update(state.get("effects") or {})
    once = dict(NO_ONCE)
    once.update(state.get("once") or {})
    full: State = {
        "fbsm": 1,
        "setup": setup,
        "turn": int(state.get("turn", 2)),
        "phase": state["phase"],
        "units": {uid: units[uid] for uid in sorted(units)},
        "next_z": listed.next_z,
        "effects": effects,
        "once": once,
        "pending": copy.deepcopy(state.get("pending")),
        "markers": copy.deepcopy(state.get("markers") or {"us": None, "german": None}),
        "result": copy.deepcopy(state.get("result")),
    }
    for key in ("standing",):
        if key in state:
            full[key] = copy.deepcopy(state[key])
    return full


def container(ctx: Context, state: State, side: str = "german") -> list[str]:
    """The units of `side` off the map and not yet in play (3.5: the German holding container)."""
    return sorted(uid for uid, u in state["units"].items()
                  if u["status"] == "container" and ctx.counters[uid].side == side)
