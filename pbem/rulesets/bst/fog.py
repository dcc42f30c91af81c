"""What each side sees (docs/bst.md, "Fog of war"): the whole table, nothing else.

Bases, their fire markers, hit markers and Kill markers are on the open table, and the
deck's cards left and drawn are public. What is hidden never enters the state: the undrawn
order does not exist (cards are drawn on demand), and the other side's queued orders and
standing answers stay in its own files; the `standing` key is left out of every view. A
mortar's fire order (W6: the leader notes target and bombs) is shown to its own side only;
the other side sees that an order was given, and each bomb where it lands.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping

from pbem.core.ruleset import STANDING_KEY, Event, State

from .events import EVENTS

PUBLIC = ("setup", "phase", "turn", "deck", "card", "awaiting", "activated", "led", "smoke", "split", "mortars", "bases", "lost", "result")


def view(state: Mapping[str, Any], side: str) -> State:
    out = {key: copy.deepcopy(state[key]) for key in PUBLIC if key in state and key != STANDING_KEY}
    if "mortars" in out:  # W6: the leader notes the target and the bombs for his own side
        out["mortars"] = {bid: order for bid, order in out["mortars"].items() if owner(state, bid) == side}
    return out


def owner(state: Mapping[str, Any], bid: str) -> str | None:
    base = state.get("bases", {}).get(bid)
    unit = state.get("setup", {}).get("units", {}).get(base["unit"]) if base else None
    return str(unit["side"]) if unit else None


def visible(event: Event, side: str, side_of: Callable[[str], str]) -> Event | None:
    """A public event whole; a mortar's fire order whole to the side that gave it and only its
    `shown` fields to the other (W6); an uncatalogued event to nobody."""
    kind = EVENTS.events.get(event.get("type", ""))
    if kind is None:
        return None
    if kind.public or ("unit" in event and side_of(event["unit"]) == side):
        return copy.deepcopy(event)
    if kind.shown is None:
        return None
    return {key: copy.deepcopy(event[key]) for key in ("type", "section", *kind.shown) if key in event}
