"""The state and its compact form: units (their side, type and flags) and bases (where each
stands). A case may give only what matters; `normalize` fills in the rest.

A unit: side, type, battalion, status (active | eliminated), strength (the bases it started
with: 3.5's weak and remnant fire counts killed bases as unavailable), and the turn's flags:
moved, bound (fired in the last fire phase without the moving modifier: may not move in its
next move phase, 3.5/3.6), marked (passed fire: may not fire in the next fire phase, 3.7),
revealed (the turn it last fired or moved: spotted in cover for a while, 3.4), jammed and
jammed_turn, unjam_turn (3.7), resurrected (a machine gun used its one resurrection, 3.3),
set_up (a trench mortar, 3.7), demoralized (3.5, 3.6; set by a scenario or case), fired (the
weapons used this turn, 3.2: artillery once each turn).

A base: unit, at, facing, prone, rushed (in its last move, 3.5), crouching (moving along a
trench, 3.4), damaged, immobilized (3.3), flame (carries a flamethrower) and fuel (3.7).
"""

from __future__ import annotations

import copy
from typing import Any, Iterator, Mapping

from pbem.core.ruleset import State

from .context import SIDES, Context

UNIT_DEFAULTS: dict[str, Any] = {"battalion": None, "status": "active", "moved": False, "bound": False,
                                 "marked": False, "revealed": None, "jammed": False, "jammed_turn": None,
                                 "unjam_turn": None, "resurrected": False, "set_up": False, "demoralized": False,
                                 "fired": []}
BASE_DEFAULTS: dict[str, Any] = {"prone": False, "rushed": False, "crouching": False, "damaged": False,
                                 "immobilized": False, "flame": False, "fuel": True}


def normalize(context: Context, state: State) -> State:
    """Every key the rules read, with its default where the state leaves it out (in place)."""
    state.setdefault("turn", 1)
    state.setdefault("phase", f"{context.phasing(state['turn'])}-move")
    state.setdefault("lost", {})
    state.setdefault("score", {side: 0 for side in SIDES})
    state.setdefault("air_strikes", dict(context.air_strikes))
    bases = state.setdefault("bases", {})
    units = state.setdefault("units", {})
    for base in bases.values():
        for key, value in BASE_DEFAULTS.items():
            base.setdefault(key, copy.deepcopy(value))
    for uid, unit in units.items():
        for key, value in UNIT_DEFAULTS.items():
            unit.setdefault(key, copy.deepcopy(value))
        unit.setdefault("strength", sum(1 for b in bases.values() if b["unit"] == uid))
    return state


def bases_of(state: State, uid: str) -> dict[str, dict[str, Any]]:
    return {bid: base for bid, base in sorted(state["bases"].items()) if base["unit"] == uid}


def units_of(state: State, side: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for uid, unit in sorted(state["units"].items()):
        if unit["side"] == side and unit["status"] == "active":
            yield uid, unit


def initial_units(setup: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The scenario's units and bases as state entries."""
    units: dict[str, Any] = {}
    bases: dict[str, Any] = {}
    for uid, entry in sorted(setup["units"].items()):
        units[uid] = {"side": entry["side"], "type": entry["type"], "battalion": entry.get("battalion"),
                      "strength": len(entry["bases"]), "set_up": bool(entry.get("set_up", False))}
        for bid, base in sorted(entry["bases"].items()):
            bases[bid] = {"unit": uid, "at": list(base["at"]), "facing": base["facing"],
                          "flame": bool(base.get("flame", False))}
    return units, bases
