"""The bob state: its shape, the compact form case files use, and small accessors.

A full state (`bob: 1`) holds:

- `setup`: the scenario card the context is built from (context.py);
- `turn`, `phase` (`sequence.PHASES`), `active` (the side whose impulse it is, 4.0) and `impulse`
  (impulses played this turn);
- `units`: id -> {hex, status, reduced, supp, used, opfire, cp, concealed, marker, bank}:
  status `active` (on the map), `waiting` (a reinforcement not yet entered, 18.0), `eliminated`,
  or `removed` (a decoy taken off, 15.0); `supp` 0, 1 (yellow) or 2 (red) (7.0); `used`, `opfire`,
  `cp` are the markers of 3.0/4.0 (`marked`: it was marked Op Fire this turn, 9.0); `concealed` with its conceal `marker` id (15.0); `bank` the
  side of a dike road the unit stands on (14.0); a gun or vehicle also has `facing` (0-5, V4) and
  `moved` (its Move marker, V3); a German squad that fired its panzerfaust has `faust` (V9);
- `cps`: command points left this turn per side (3.0); `foxholes`: hexes holding one (14.0);
- `markers`: the next conceal marker number per side; `held`: objective hex -> side holding it;
- `result`: null, or the game's result.

The compact form (no `bob` key) lets a case file list only what matters: `phase` (default
operations), `turn` (1), `active` (the card's first side), `units` ({id: {hex, ...}}, only listed
units exist, every flag defaulting to false/0), `cps` (the card's), `foxholes`.
"""

from __future__ import annotations

import copy
from typing import Any, Iterator

from pbem.core.errors import PbemError
from pbem.core.ruleset import State

from .context import SIDES, Context

STATUSES = ("active", "waiting", "eliminated", "removed")
FLAGS = ("reduced", "used", "opfire", "marked", "cp", "concealed")


def marker_name(side: str, number: int) -> str:
    return f"{'US' if side == 'american' else 'DE'}-{number}"


def normalize(ctx: Context, state: State) -> State:
    """A full state from a full or compact one (a full state is returned as it is)."""
    if state.get("bob") == 1:
        return state
    units: dict[str, dict[str, Any]] = {}
    markers = {side: 1 for side in SIDES}
    for uid, entry in (state.get("units") or {}).items():
        if uid not in ctx.units:
            raise PbemError(f"unit {uid!r} is not in the scenario")
        entry = dict(entry or {})
        hex_id = entry.get("hex")
        status = entry.get("status", "active" if hex_id else "waiting")
        if status not in STATUSES:
            raise PbemError(f"unit {uid}: status must be one of {', '.join(STATUSES)}")
        if status == "active" and (hex_id is None or not ctx.hexes.on_map(hex_id)):
            raise PbemError(f"unit {uid}: hex {hex_id!r} is not on the map")
        unit: dict[str, Any] = {"hex": hex_id if status == "active" else None, "status": status,
                                "supp": int(entry.get("supp", 0)), "marker": None, "bank": int(entry.get("bank", 0))}
        for flag in FLAGS:
            unit[flag] = bool(entry.get(flag, False))
        unit["marked"] = bool(entry.get("marked", unit["opfire"]))
        side = ctx.units[uid].side
        if ctx.units[uid].type.heavy:
            # V3, V4: only guns and vehicles carry these, so an infantry game's state keeps its bytes
            unit["facing"] = int(entry.get("facing", ctx.units[uid].facing)) % 6
            unit["moved"] = bool(entry.get("moved", False))
        if entry.get("faust"):
            unit["faust"] = True  # V9: this squad fired its one panzerfaust
        if unit["concealed"]:
            unit["marker"] = entry.get("marker") or marker_name(side, markers[side])
            markers[side] += 1
        units[uid] = unit
    card = ctx.card
    full: State = {
        "bob": 1,
        "setup": copy.deepcopy(state.get("setup") or {}),
        "turn": int(state.get("turn", 1)),
        "phase": state.get("phase", "operations"),
        "active": state.get("active", card.first),
        "impulse": int(state.get("impulse", 0)),
        "units": {uid: units[uid] for uid in sorted(units)},
        "cps": {side: int((state.get("cps") or {}).get(side, card.cps[side])) for side in SIDES},
        "foxholes": sorted(state.get("foxholes") or []),
        "markers": {side: int((state.get("markers") or {}).get(side, markers[side])) for side in SIDES},
        "held": dict(sorted((state.get("held") or {h: o[1] for h, o in card.objectives.items()}).items())),
        "result": copy.deepcopy(state.get("result")),
    }
    if any(card.artillery.values()):
        given = state.get("artillery") or {}
        full["artillery"] = {"used": sorted(given.get("used", [])),  # 17.0: supports Used this turn
                             "marked": sorted(given.get("marked", [])),  # marked Op Fire, not fired yet
                             "missions": copy.deepcopy(given.get("missions", []))}  # Fire Missions on the map
    if "standing" in state:
        full["standing"] = copy.deepcopy(state["standing"])
    return full


def on_map(ctx: Context, state: State, side: str | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(uid, unit) of the units on the map, of `side` or all, in id order."""
    for uid, unit in state["units"].items():
        if unit["status"] == "active" and (side is None or ctx.units[uid].side == side):
            yield uid, unit


def in_hex(ctx: Context, state: State, hex_id: str, side: str | None = None) -> list[str]:
    return [uid for uid, unit in on_map(ctx, state, side) if unit["hex"] == hex_id]


def stacked(ctx: Context, state: State, hex_id: str, side: str) -> list[str]:
    """2.0, V10: the units that count for stacking (vehicles do not; a gun counts as a squad)."""
    return [uid for uid in in_hex(ctx, state, hex_id, side) if not ctx.units[uid].type.vehicle]



def morale(ctx: Context, uid: str, unit: dict[str, Any]) -> int:
    """7.0: the white, yellow or red morale by the unit's suppression."""
    return ctx.units[uid].type.face(unit["reduced"]).morale[unit["supp"]]

