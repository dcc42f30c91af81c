"""Fire (6.0), suppression (7.0), casualties (8.0), mortars (16.0).

A fire attack is one d10 for the whole target hex, modified for each unit in it (its terrain,
concealment, moving in the open, ...: `terrain.fire_modifiers`). Against each unit: a modified
roll at most the firer's firepower suppresses one step; adding the first casualty number and
still at most the firepower reduces it and fully suppresses it; adding the second and still at
most the firepower eliminates it (a Reduced unit's one number eliminates). A natural 10 never
has an effect. A decoy (or a conceal marker) that takes any suppression result is removed or
revealed (15.0).

Range (6.0): full firepower up to the range, half (rounded down) up to twice the range; a
mortar's range is its minimum and it has no maximum; a mortar that cannot see the target may
fire by directed fire when a hex next to it sees the target (16.0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from pbem.core.chance import Dice
from pbem.core.ruleset import State

from . import conceal
from .checks import public_name
from .context import Context, other
from .terrain import Fire, Target, fire_modifiers, los


@dataclass(frozen=True)
class Reach:
    """Whether and how a unit in one hex can fire at another (6.0, 16.0)."""

    firepower: int
    long: bool
    directed: bool


def reach(ctx: Context, uid: str, reduced: bool, origin: str, target: str) -> Reach | None:
    """The firepower a unit would fire with at `target`, or None when out of range or sight."""
    kind = ctx.units[uid].type
    face = kind.face(reduced)
    if kind.kind == "decoy" or face.firepower <= 0 or origin == target:
        return None
    distance = ctx.hexes.distance(origin, target)
    if kind.mortar:
        if distance < face.range:
            return None  # 16.0: the mortar's minimum range
        if los(ctx, origin, target):
            return Reach(face.firepower, False, False)
        if any(los(ctx, n, target) for n in ctx.hexes.neighbours(origin) if ctx.hexes.on_map(n)):
            return Reach(face.firepower, False, True)  # 16.0: directed fire
        return None
    if not los(ctx, origin, target):
        return None
    if distance <= face.range:
        return Reach(face.firepower, False, False)
    if distance <= 2 * face.range:
        return Reach(face.firepower // 2, True, False)
    return None


def outcome(ctx: Context, uid: str, reduced: bool, modified: int, firepower: int) -> str:
    """6.0: what a modified roll does to one unit: none, suppressed, reduced or eliminated."""
    if modified > firepower:
        return "none"
    casualty = ctx.units[uid].type.face(reduced).casualty
    if reduced:
        return "eliminated" if modified + casualty[0] <= firepower else "suppressed"
    if len(casualty) > 1 and modified + casualty[1] <= firepower:
        return "eliminated"
    if modified + casualty[0] <= firepower:
        return "reduced"
    return "suppressed"


def apply(ctx: Context, state: State, uid: str, result: str) -> str:
    """Carry out a result on a unit (7.0, 8.0, 15.0); returns what happened (a decoy is `removed`)."""
    unit = state["units"][uid]
    if result == "none":
        return "none"
    if ctx.units[uid].decoy:
        unit.update(status="removed", hex=None, concealed=False, marker=None)
        return "removed"
    conceal.reveal(state, uid)  # 15.0: any suppression result removes the marker
    if result == "eliminated" or (result == "reduced" and unit["reduced"]):
        unit.update(status="eliminated", hex=None)
        return "eliminated"
    if result == "reduced":
        unit["reduced"] = True
        unit["supp"] = 2  # 8.0: a casualty is fully suppressed
        return "reduced"
    unit["supp"] = min(2, unit["supp"] + 1)
    return "suppressed"


def attack(ctx: Context, state: State, dice: Dice, firer: str, origin: str, target_hex: str, how: Reach, *,
           fire: Fire, targets: Iterable[Target], section: str, events: list[dict[str, Any]]) -> dict[str, str]:
    """One fire attack at every unit in the hex (6.0); returns uid -> what happened to it."""
    side = ctx.units[firer].side
    kind = ctx.units[firer].type
    roll = dice.die(10, f"{section} fire by {public_name(state, firer)} at {target_hex}")
    results: list[dict[str, Any]] = []
    happened: dict[str, str] = {}
    for target in targets:
        uid = target.uid
        unit = state["units"][uid]
        shown_as = public_name(state, uid)
        mods = fire_modifiers(ctx, origin, target, fire=fire, mortar=kind.mortar, directed=how.directed)
        modified = roll + sum(mods.values())
        result = "none" if roll == 10 else outcome(ctx, uid, unit["reduced"], modified, how.firepower)
        done = apply(ctx, state, uid, result)
        happened[uid] = done
        entry: dict[str, Any] = {"unit": uid, "as": shown_as, "modifiers": mods, "modified": modified,
                                 "result": done, "moving": target.moving}
        results.append(entry)
    events.append({"type": "fire", "side": side, "section": section, "firer": firer, "from": origin,
                   "target": target_hex, "fire": fire, "firepower": how.firepower, "long": how.long,
                   "directed": how.directed, "roll": roll, "results": results})
    return happened


def targets_in(ctx: Context, state: State, hex_id: str, side: str, *, mover: str | None = None,
               came_from: str | None = None) -> list[Target]:
    """Every unit of the other side in the hex as the fire sees it; the mover is the one moving."""
    found: list[Target] = []
    foxhole = hex_id in state["foxholes"]
    for uid, unit in sorted(state["units"].items()):
        if unit["status"] != "active" or unit["hex"] != hex_id or ctx.units[uid].side != other(side):
            continue
        moving = uid == mover
        found.append(Target(hex=hex_id, moving=moving, came_from=came_from if moving else None, foxhole=foxhole,
                                concealed=unit["concealed"], bank=unit["bank"], uid=uid))
    return found

