"""Fog of war (6.5): what each side may know, built from an allow-list.

A side sees all of its own units (hex, status and, on the map, `level` in its stack: 0 is the
bottom; the values are the counter mix's, `tables.counters`). Of the enemy it sees, per occupied hex, only the top unit
and how many units the stack holds; the carnage (eliminated units are turned face down where
they fell, 2.6): by id where this side's own fire or bombardment killed them (it looked at
them while resolving it, 6.5), otherwise only as wrecks counted per hex (a side's bombardment
drifting onto its own units, 11.3, shows the other side nothing of who died); which units left
the map; and how many units are still in the German holding container. Hidden units show up
again only where the rules let a side look: the target hex of its own fire or bombardment
(the results of those events name every unit in the hex).

Events pass `visible` the same way: the acting side sees its own events whole; the other side
sees a projection with the acting side's hidden unit ids taken out. Which events are public and
which fields the other side sees is the event catalogue's (`events.EVENTS`).
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State

from .context import Context
from .state import normalize


def view(cfg: Context, state: State, side: str) -> dict[str, Any]:
    state = normalize(cfg, state)
    own: dict[str, Any] = {}
    enemy: dict[str, dict[str, Any]] = {}
    carnage: dict[str, Any] = {}
    wrecks: dict[str, int] = {}
    exited: list[str] = []
    in_container = 0
    tops: dict[str, tuple[int, str]] = {}
    levels: dict[str, list[tuple[int, str]]] = {}
    for uid, unit in state["units"].items():
        counter = cfg.counters[uid]
        if counter.side == side:
            own[uid] = {"hex": unit["hex"], "status": unit["status"]}
            if unit["status"] == "active":
                levels.setdefault(unit["hex"], []).append((unit["z"], uid))
            continue
        status = unit["status"]
        if status == "active":
            hex_id = unit["hex"]
            entry = enemy.setdefault(hex_id, {"count": 0})
            entry["count"] += 1
            if hex_id not in tops or unit["z"] > tops[hex_id][0]:
                tops[hex_id] = (unit["z"], uid)
        elif status == "eliminated" and unit.get("by", side) != side:
            wrecks[unit["hex"]] = wrecks.get(unit["hex"], 0) + 1
        elif status == "eliminated":
            carnage[uid] = unit["hex"]
        elif status == "exited":
            exited.append(uid)
        elif status == "container":
            in_container += 1
    for items in levels.values():  # own stacks: 0 is the bottom unit (never the global z: 6.5)
        for level, (_, uid) in enumerate(sorted(items)):
            own[uid]["level"] = level
    for hex_id, (_, uid) in tops.items():
        enemy[hex_id]["top"] = {"unit": uid, **cfg.counters[uid].values()}
    pending = state.get("pending")
    if pending and side != "german":
        pending = {"kind": pending["kind"], "count": len(pending["units"])}
    german_container = in_container if side == "us" else sum(
        1 for u in own.values() if u["status"] == "container")
    return {
        "fbsm": 1,
        "side": side,
        "setup": state["setup"],
        "turn": state["turn"],
        "phase": state["phase"],
        "effects": dict(state["effects"]),
        "once": dict(state["once"]),
        "markers": dict(state["markers"]),
        "pending": pending,
        "result": state.get("result"),
        "container": german_container,
        "units": own,
        "enemy": {hex_id: enemy[hex_id] for hex_id in sorted(enemy)},
        "carnage": carnage,
        "wrecks": {hex_id: wrecks[hex_id] for hex_id in sorted(wrecks)},
        "exited": sorted(exited),
    }


def _known(event: dict[str, Any], unit_side: str, viewer: str) -> bool:
    """A bombardment's result names a unit to the viewer's own side, or when the viewer resolved it."""
    return unit_side == viewer or event.get("side") == viewer


def visible(event: dict[str, Any], side: str) -> dict[str, Any] | None:
    """The event as `side` may see it (it needs no context: what an event shows is the catalogue's)."""
    from .events import EVENTS, PUBLIC  # the catalogue: not needed by `view`, which the intake calls

    kind = event.get("type")
    actor = event.get("side")
    if kind in PUBLIC or actor == side:
        return dict(event)
    if kind == "bombardment":
        shown = dict(event)
        shown["results"] = [r if _known(event, r["side"], side) else {**r, "unit": None} for r in event["results"]]
        return shown
    spec = EVENTS.get(str(kind))
    if spec is None or spec.shown is None:
        return None
    shown = {key: event[key] for key in spec.shown if key in event}
    if kind == "move":
        if event.get("exit"):
            shown["exit"] = True
            shown["unit"] = event["unit"]  # off the map and the game is over: nothing left to hide
    elif kind == "fire":
        shown["firers"] = len(event["firers"])
        shown["results"] = list(event["results"])
    elif kind == "advance":
        shown["count"] = len(event["units"])
    elif kind == "placed":
        shown["hexes"] = [item["hex"] for item in event["units"]]
    return shown
