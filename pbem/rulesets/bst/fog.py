"""What each side sees (docs/bst.md, "Fog of war"): the whole table, nothing else.

Bases, their fire markers, hit markers and Kill markers are on the open table, and the
deck's cards left and drawn are public. What is hidden never enters the state: the undrawn
order does not exist (cards are drawn on demand), and the other side's queued orders and
standing answers stay in its own files; the `standing` key is left out of every view.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.core.ruleset import STANDING_KEY, Event, State

from .events import EVENTS

PUBLIC = ("setup", "phase", "turn", "deck", "card", "awaiting", "activated", "led", "smoke", "mortars", "bases", "lost", "result")


def view(state: Mapping[str, Any], side: str) -> State:
    return {key: copy.deepcopy(state[key]) for key in PUBLIC if key in state and key != STANDING_KEY}


def visible(event: Event, side: str) -> Event | None:
    """Every catalogued event is public (events.py); an uncatalogued one is shown to nobody."""
    kind = EVENTS.events.get(event.get("type", ""))
    return copy.deepcopy(event) if kind is not None and kind.public else None
