"""Fog of war (15.0): what each side may know, built from an allow-list.

A side sees its own units in full. Of the enemy it sees every piece on the map: a unit without
a conceal marker face up (type, reduced, suppression, Used/Op Fire/CP markers), and a concealed
unit or decoy as its marker alone (its hex and its Used/Op Fire markers, which are placed on the
marker where everyone sees them); pieces are listed by hex and name, so their order says
nothing. It sees how many units each side may still Use this phase (the Used and Op Fire
markers and the turn track show it at the table), the enemy units eliminated, how many enemy markers were found to be decoys,
the foxholes, the CPs left and the objectives held.

Events: the public ones reach both sides, with any unit under a marker shown as its marker and
without its morale or rolls (`_masked`). A fire result names the unit hit only when the result
took the marker off or the unit was already in view: the firing side's own fire events are
masked so too, since their results are about the other side's units.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.core.ruleset import State

from . import sequence
from .context import SIDES, Context
from .events import EVENTS
from .state import normalize

OWN_FIELDS = ("hex", "status", "reduced", "supp", "used", "opfire", "marked", "cp", "concealed", "marker", "bank")
OPTIONAL = ("facing", "moved", "faust")  # V3, V4, V9: on the counters, face up


def view(ctx: Context, state: State, side: str) -> dict[str, Any]:
    state = normalize(ctx, state)
    own: dict[str, Any] = {}
    enemy: list[dict[str, Any]] = []
    lost: list[str] = []
    decoys = 0
    for uid, unit in state["units"].items():
        scenario = ctx.units[uid]
        if scenario.side == side:
            own[uid] = {"type": scenario.type.name, **{k: unit[k] for k in OWN_FIELDS + OPTIONAL if k in unit}}
            continue
        if unit["status"] == "eliminated":
            lost.append(uid)
        elif unit["status"] == "removed":
            decoys += 1
        elif unit["status"] == "active":
            if unit["concealed"]:
                enemy.append({"hex": unit["hex"], "marker": unit["marker"], "used": unit["used"],
                              "opfire": unit["opfire"]})
            else:
                enemy.append({"hex": unit["hex"], "unit": uid, "type": scenario.type.name,
                              "reduced": unit["reduced"], "supp": unit["supp"], "used": unit["used"],
                              "opfire": unit["opfire"], "cp": unit["cp"], "bank": unit["bank"],
                              **{k: unit[k] for k in OPTIONAL if k in unit}})
    enemy.sort(key=lambda p: (p["hex"], p.get("unit") or p.get("marker") or ""))
    return {
        "bob": 1,
        "side": side,
        "setup": state["setup"],
        "turn": state["turn"],
        "phase": state["phase"],
        "active": state["active"],
        "impulse": state["impulse"],
        "result": copy.deepcopy(state.get("result")),
        "cps": dict(state["cps"]),
        "can_use": {s: len(sequence.available(ctx, state, s)) for s in SIDES},
        "foxholes": list(state["foxholes"]),
        "held": dict(state["held"]),
        "units": own,
        "enemy": enemy,
        "enemy_eliminated": sorted(lost),
        "enemy_decoys_removed": decoys,
        **({"artillery": copy.deepcopy(state["artillery"])} if "artillery" in state else {}),
    }


def visible(ctx: Context, event: dict[str, Any], side: str) -> dict[str, Any] | None:
    if event.get("type") == "check" and event.get("marker") and event.get("side") != side:
        return _marker_check(event)
    if event.get("type") in ("fire", "bombard") and event.get("side") == side:
        return _masked(event)  # the firer's side: the targets are the other side's units
    if event.get("type") == "turn-facing" and event.get("side") != side and event.get("as") != event.get("unit"):
        return None  # V1: a marker that turns would show a gun or vehicle under it
    if event.get("side") == side:
        return dict(event)
    kind = EVENTS.get(str(event.get("type")))
    if kind is None:
        return None
    if not kind.public:
        if kind.shown is None:
            return None
        return {key: copy.deepcopy(event[key]) for key in kind.shown if key in event}
    return _masked(event)


MARKER_MOVE = ("type", "side", "as", "from", "path", "retreat", "ended", "back_to")
MARKER_CHECK = ("type", "side", "marker", "purpose", "passed", "cp")


def _marker_check(event: dict[str, Any]) -> dict[str, Any] | None:
    """15.0: a check under a marker shows the other side only that the marker failed one, and for what.

    Its section, kind (Morale or Prof) and a passed check would tell a gun (V4, V5: a suppressed gun
    checks morale, then proficiency) from a squad (9.0: one Prof Check) or a decoy (never checks);
    what passes shows anyway by what the unit then does."""
    if event.get("passed"):
        return None
    return {**{key: copy.deepcopy(event[key]) for key in MARKER_CHECK if key in event}, "section": "15.0"}


def _masked(event: dict[str, Any]) -> dict[str, Any]:
    shown = copy.deepcopy(event)
    kind = shown["type"]
    if kind == "move" and shown.get("as") != shown.get("unit"):
        # a marker moves as a marker: a vehicle's facing, turns and section would tell it (V1, V3)
        shown = {**{key: shown[key] for key in MARKER_MOVE if key in shown}, "section": "5.0"}
    elif kind in ("mark", "cp", "rout", "turn-facing", "close-assault") and shown.get("as") != shown.get("unit"):
        shown.pop("unit", None)
    elif kind in ("fire", "bombard"):
        # a miss on a marker shows the marker alone: the modifiers it met, the firepower used
        # against it and the order of the entries would tell a vehicle, a gun or a decoy (V1, V5)
        shown["results"] = sorted(({"as": r["as"], "result": "none", "moving": r["moving"]}
                                   if r["as"] != r["unit"] and r["result"] == "none" else r
                                   for r in shown["results"]), key=lambda r: str(r["as"]))
    return shown
