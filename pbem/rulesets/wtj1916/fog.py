"""The fog of war (3.4 spotting): what a side may know.

A side's view holds its own units and bases whole, and of the enemy only the units it sees
(`spotting.seen_units`: spotted, and in a clear line of sight of one of its bases), each with
the fields a rule of the fire chapter reads about a target: type, status and the turn's marks
(moved, marked, set up, demoralized) and, per base, where it stands and its posture and damage.
An enemy unit unspotted in cover is not in the view at all: not its bases, not its losses (the
`lost` list holds the side's own bases only; the score, public, counts the enemy's). Events
follow `events.EVENTS`.
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State

from .context import Context
from .events import EVENTS, REDACTED_FIRER, UNSEEN
from .spotting import seen_units

ENEMY_UNIT = ("side", "type", "status", "moved", "marked", "set_up", "demoralized", "revealed")
ENEMY_BASE = ("unit", "at", "facing", "prone", "rushed", "crouching", "damaged", "immobilized")
PUBLIC = ("setup", "turn", "phase", "score", "air_strikes")


def view(context: Context, state: State, side: str) -> State:
    seen = set(seen_units(context, state, side))
    units: dict[str, Any] = {}
    for uid, unit in sorted(state["units"].items()):
        if unit["side"] == side:
            units[uid] = dict(unit)
        elif uid in seen:
            units[uid] = {key: unit[key] for key in ENEMY_UNIT}
    bases: dict[str, Any] = {}
    for bid, base in sorted(state["bases"].items()):
        if base["unit"] not in units:
            continue
        bases[bid] = dict(base) if units[base["unit"]]["side"] == side else {key: base[key] for key in ENEMY_BASE}
    lost = {bid: uid for bid, uid in sorted(state["lost"].items()) if state["units"][uid]["side"] == side}
    out: dict[str, Any] = {key: state[key] for key in PUBLIC if key in state}
    out.update({"units": units, "bases": bases, "lost": lost})
    return out


def visible(event: dict[str, Any], side: str) -> dict[str, Any] | None:
    kind = EVENTS.get(event["type"])
    if kind is None:
        return None
    hidden = ("seen_by", "unseen_by")
    if event["type"] == "air-strike":  # each side sees the rolls on the bases the striker sees and on its own
        rolls = [{k: v for k, v in r.items() if k not in hidden} for r in event["rolls"]
                 if side not in r.get("unseen_by", [])]
        if side == event["side"]:  # a resurrection's donor is the target side's to know (3.3)
            rolls = [{**r, "hits": [{k: v for k, v in h.items() if k != "resurrected_from"} for h in r["hits"]]}
                     for r in rolls]
        return {**{k: v for k, v in event.items() if k not in hidden}, "rolls": rolls}
    if event.get("side") == side or "side" not in event:
        return {k: v for k, v in event.items() if k not in hidden}
    if event["type"] == "move":
        if side not in event.get("seen_by", []):
            return None
        return {k: event[k] for k in (kind.shown or ()) if k in event}
    if not kind.public:
        return None
    out = {k: v for k, v in event.items() if k not in hidden}
    if side in event.get("unseen_by", []):
        for key in REDACTED_FIRER:
            out.pop(key, None)
        out["unit"] = UNSEEN
    if "hits" in out:
        out["hits"] = [{k: v for k, v in h.items() if k != "resurrected_from"} for h in event["hits"]]
    return out


def annotate(context: Context, state: State, events: list[dict[str, Any]]) -> None:
    """After a phase: which sides see each mover in the final state (and each firer, where the
    phase did not already say as it fired)."""
    from .context import SIDES

    seen = {side: set(seen_units(context, state, side)) for side in SIDES}
    for event in events:
        if event["type"] == "move":
            event["seen_by"] = [s for s in SIDES if s != event["side"] and event["unit"] in seen[s]]
        elif event["type"] in ("fire", "artillery", "flame") and "unseen_by" not in event:
            event["unseen_by"] = [s for s in SIDES if s != event["side"] and event["unit"] not in seen[s]]
