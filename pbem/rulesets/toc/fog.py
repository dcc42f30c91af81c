"""Fog of war (6.6): what each side may know, built from an allow-list.

A side sees all of its own units (hex, steps, status and, on the map, `level` in its own stack:
0 is the bottom). Of the enemy it sees, per occupied hex, the number of counters there (the
height of a stack is plain to see on the table; reading recorded in docs/toc.md) and the top
unit with its step strength and counter face; the dead piles (the British surrounded pile
apart, 4.5) and the British units that left the map. Beneath the top unit nothing shows until a
combat examines the stack: the combat events carry what the examination revealed.

Events: a side sees its own whole; of the enemy's it sees the combats (bombardments, melees),
which both sides witness, and the public ones (turn, victory, sequence, concession, overstack
removals), less the fields that could name units under a top. Which types are public and what
they hide is the catalogue's (`events.EVENTS`). Enemy movement shows only through the positions
in the next view.
"""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State

from . import victory
from .context import Context
from .events import EVENTS
from .state import levels, normalize


def view(ctx: Context, state: State, side: str) -> dict[str, Any]:
    state = normalize(ctx, state)
    own: dict[str, Any] = {}
    enemy: dict[str, dict[str, Any]] = {}
    tops: dict[str, tuple[int, str]] = {}
    enemy_dead: list[str] = []
    enemy_surrounded: list[str] = []
    enemy_exited: list[str] = []
    for uid, unit in state["units"].items():
        counter = ctx.counters[uid]
        status = unit["status"]
        if counter.side == side:
            entry: dict[str, Any] = {"hex": unit["hex"], "steps": unit["steps"], "status": status}
            if unit.get("surrounded"):
                entry["surrounded"] = True
            own[uid] = entry
            continue
        if status == "active":
            hex_id = unit["hex"]
            enemy.setdefault(hex_id, {"count": 0})["count"] += 1
            if hex_id not in tops or unit["z"] > tops[hex_id][0]:
                tops[hex_id] = (unit["z"], uid)
        elif status == "eliminated":
            (enemy_surrounded if unit.get("surrounded") else enemy_dead).append(uid)
        elif status == "exited":
            enemy_exited.append(uid)
    for uid, level in levels(state["units"], own).items():
        own[uid]["level"] = level
    for hex_id, (_, uid) in tops.items():
        steps = state["units"][uid]["steps"]
        enemy[hex_id]["top"] = {"unit": uid, "steps": steps, **ctx.counters[uid].counter_face(steps)}
    marched = [uid for uid in state["marched"] if uid in own]
    return {
        "toc": 1,
        "side": side,
        "setup": state["setup"],
        "turn": state["turn"],
        "phase": state["phase"],
        "sequence": state.get("sequence"),
        "control": list(state["control"]),
        "result": state.get("result"),
        "units": own,
        "marched": marched,
        "enemy": {hex_id: enemy[hex_id] for hex_id in sorted(enemy)},
        "enemy_dead": sorted(enemy_dead),
        "enemy_surrounded": sorted(enemy_surrounded),
        "enemy_exited": sorted(enemy_exited),
        "tally": {key: value for key, value in victory.tally(ctx, state).items() if key != "cut_off"},
    }


def visible(ctx: Context, event: dict[str, Any], side: str) -> dict[str, Any] | None:
    """The event as `side` may see it: its own whole; of the enemy's, the public types (`events.EVENTS`)
    without their hidden fields."""
    if event.get("side") == side:
        return dict(event)
    kind = EVENTS.get(str(event.get("type")))
    if kind is None or not kind.public:
        return None
    shown = dict(event)
    # A bombardment: the target's side sees the strength and where it came from (`from`, `factors`)
    # and, in the modifiers, whether a spotter stood next to it (10.11); naming the guns or the
    # spotters would show units under the tops of the bombarding side's stacks (6.6).
    for name in kind.hidden:
        shown.pop(name, None)
    # A melee that never happened: no combat took place, so no stack was examined (6.6): the
    # other side learns how many would have attacked.
    for name in kind.counted:
        if name in shown:
            shown[name] = len(shown[name])
    return shown
