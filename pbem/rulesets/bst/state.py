"""A bst state completed from its compact form (case files give only what matters).

Every base has its unit, weapon, place, facing, fire markers, status and Kill markers; the
unit, weapon, place and facing default to the scenario's entry for that base id. The deck
defaults to every card left, the sequence to no card drawn.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.ruleset import State

from .context import Context
from .deck import new_deck


TANK_WEAPON = "tank-mg"  # V4: a tank's machine guns, each classed as an HMG


def base_entry(uid: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario's base as the state first holds it; a tank fires its machine guns (V4) and
    starts unbuttoned unless the scenario says otherwise (V1)."""
    out = {"unit": uid, "weapon": entry.get("weapon", TANK_WEAPON), "at": list(entry["at"]),
           "facing": entry.get("facing", 0), "markers": 0, "status": "ok", "kills": 0,
           "unloaded": False, "sustained": False}
    if "vehicle" in entry:
        out.update(vehicle=entry["vehicle"], buttoned=bool(entry.get("buttoned", False)))
    return out


def scenario_base(state: State, bid: str) -> dict[str, Any]:
    for uid, unit in state["setup"]["units"].items():
        if bid in unit["bases"]:
            return base_entry(uid, unit["bases"][bid])
    return {}


def normalize(context: Context, state: State) -> State:
    """Fill in what a compact state leaves out, in place; the state is returned."""
    for key, default in (("phase", "activation"), ("turn", 1), ("card", None), ("awaiting", None), ("result", None)):
        state.setdefault(key, default)
    state.setdefault("activated", [])
    state.setdefault("led", [])
    state.setdefault("smoke", [])
    state.setdefault("split", {})
    state.setdefault("mortars", {})
    state.setdefault("lost", {})
    if "deck" not in state:
        state["deck"] = new_deck(context.cards)
        if state["card"] in state["deck"]["left"]:  # the card waiting for orders is already drawn
            state["deck"]["left"].remove(state["card"])
            state["deck"]["drawn"].append(state["card"])
    for key, value in new_deck(context.cards).items():
        state["deck"].setdefault(key, value)
    for bid, entry in state.setdefault("bases", {}).items():
        known = scenario_base(state, bid)
        for key in ("unit", "weapon", "at", "vehicle", "buttoned"):
            if key not in entry and key in known:
                entry[key] = known[key]
        entry.setdefault("facing", known.get("facing", 0))
        entry.setdefault("markers", 0)
        entry.setdefault("status", "ok")
        entry.setdefault("kills", 0)
        entry.setdefault("unloaded", False)
        entry.setdefault("sustained", False)
    return state
