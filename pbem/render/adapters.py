"""What the renderer needs from a ruleset, read from a view: the map, the counters, the events.

The core knows nothing of maps or counters, so each ruleset with pictures supplies an adapter
(`Ruleset.picture(context)`, in its own `picture.py`) that reads its view state and events. An
adapter only ever reads the view it is given: whatever it draws or says is what the side may know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.core.api import ruleset, rules_for, rulesets

from .board import Board

View = Mapping[str, Any]


@dataclass(frozen=True)
class Counter:
    """One counter to draw: an own unit (values known) or the top of an enemy stack."""

    uid: str
    side: str
    hex: str
    kind: str
    values: tuple[tuple[str, Any], ...] = ()
    own: bool = True
    count: int = 1  # units in the stack this counter tops (enemy stacks); 1 for own units
    level: int = 0
    flags: tuple[str, ...] = ()  # markers on the counter itself, e.g. "marched" (toc 9.20)
    note: str = ""  # more words for the counter's tooltip (e.g. its counter face)


@dataclass(frozen=True)
class Mark:
    """A marker on a hex: a bombardment marker where it landed, control of the hex, ..."""

    kind: str  # "bombardment", "control", ...
    hex: str
    label: str = ""  # the few letters printed on the marker
    side: str = ""
    detail: str = ""  # the tooltip
    data: tuple[tuple[str, str], ...] = ()  # more data-* attributes (name without "data-", value)


# Kinds of actions: "move" and "advance" (path: every hex from the start to the end), the
# attacks "fire", "close-assault", "melee", "defensive-fire", "bombard" (path: the hexes fired
# from; none gives a ring on the target), "bombardment" (a ring on the hex the markers hit),
# "spot" (a spotter's line of sight), "drift" (path: [aimed]; target: where the marker landed).
ATTACKS = ("fire", "close-assault", "melee", "defensive-fire", "bombard", "bombardment")


@dataclass(frozen=True)
class Action:
    """One thing the last adjudication did, drawn in the overlay."""

    kind: str
    side: str
    path: tuple[str, ...]
    target: str = ""
    label: str = ""  # odds, roll and result, printed by the target
    detail: str = ""  # the whole sentence (tooltip)
    units: tuple[str, ...] = ()  # the units the event names (only what the view holds)


@dataclass
class Picture:
    """Everything the SVG needs, ruleset-neutral; `map` is the board the pieces stand on (board.py)."""

    map: Board
    title: str
    own: list[Counter] = field(default_factory=list)
    enemy: list[Counter] = field(default_factory=list)  # tops of enemy stacks; uid may be ''
    off_map: list[tuple[str, str, str]] = field(default_factory=list)  # (uid, side, where: eliminated-in-hex / exited)
    wrecks: list[tuple[str, str, str]] = field(default_factory=list)  # (uid, side, hex) eliminated on the map
    places: list[tuple[str, str]] = field(default_factory=list)  # (name, hex)
    marks: list[Mark] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # extra legend lines (markers in hand, ...)


class Adapter:
    ruleset_id = ""
    sides: tuple[str, ...] = ()
    value_note = "counter: id, then its values"

    def side_name(self, side: str | None) -> str:
        return str(side or "").capitalize()

    def picture(self, view: View) -> Picture:
        raise NotImplementedError

    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        """One event as a plain sentence (with its rule section), or None to use the generic line."""
        return None

    def state_lines(self, view: View) -> list[str]:
        return []


def adapter_for(view: View) -> Adapter | None:
    """The picture adapter of the view's ruleset (through the core's registry).

    None when the view names no ruleset the registry knows, or its ruleset has no pictures
    (`Ruleset.picture` gives None): such a view gets the generic report and no map. A ruleset
    whose `picture` gives anything else is a bug, raised as one.
    """
    ruleset_id = str((view.get("ruleset") or {}).get("id"))
    if ruleset_id not in rulesets():
        return None
    state = view.get("state")
    found = rules_for(ruleset(ruleset_id), state if isinstance(state, Mapping) else {}).picture()
    if found is None or isinstance(found, Adapter):
        return found
    raise TypeError(f"ruleset {ruleset_id!r}: picture() gave a {type(found).__name__}, not a "
                    "pbem.render.adapters.Adapter (or None for no pictures)")
