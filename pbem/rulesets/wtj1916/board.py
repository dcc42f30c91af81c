"""What one side knows of the state: its own units and the enemy units it sees (3.4).

Fire is judged on this board, in `validate` (from the side's view, which holds exactly this) and
in `resolve` (from the state, filtered the same way), so a refusal or a firing base never
depends on a unit the side cannot see, and the events tell it nothing its view hides.
"""

from __future__ import annotations

from typing import Any, Iterable

from pbem.core.ruleset import State


def board(state: State, side: str, seen: Iterable[str]) -> State:
    """The state as `side` knows it: its units and the `seen` enemy units, with their bases.
    Shares the unit and base entries with `state` (changes made through it are the state's)."""
    keep = set(seen)
    units = {uid: unit for uid, unit in state["units"].items()
             if unit["status"] == "active" and (unit["side"] == side or uid in keep)}
    bases = {bid: base for bid, base in state["bases"].items() if base["unit"] in units}
    out: dict[str, Any] = dict(state)
    out["units"] = units
    out["bases"] = bases
    return out


def live(known: State, state: State) -> State:
    """The board without what was lost since it was drawn: losses count at once (3.3), so a
    later shot of the same order (another gun, a rapid fire shot) sees only the bases standing."""
    out: dict[str, Any] = dict(known)
    out["units"] = {uid: unit for uid, unit in known["units"].items() if unit["status"] == "active"}
    out["bases"] = {bid: base for bid, base in known["bases"].items() if bid in state["bases"]}
    return out
