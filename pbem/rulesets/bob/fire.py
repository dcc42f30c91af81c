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
from .facing import in_arc
from .checks import check
from .heavy import armour_met, declared_uid, gun_outcome, prof_check, prof_modifiers
from .state import in_hex
from .terrain import Fire, Target, fire_modifiers, los


@dataclass(frozen=True)
class Reach:
    """Whether and how a unit in one hex can fire at another (6.0, 16.0)."""

    firepower: int
    long: bool
    directed: bool


def reach(ctx: Context, uid: str, reduced: bool, origin: str, target: str, facing: int | None = None) -> Reach | None:
    """The firepower a unit would fire with at `target`, or None when out of range or sight.

    A gun or vehicle given its `facing` must also have the target in its arc (V4); its firepower is
    the one against infantry (the caller reads `at` against a vehicle)."""
    kind = ctx.units[uid].type
    face = kind.face(reduced)
    if kind.kind == "decoy" or face.firepower <= 0 or origin == target:
        return None
    if kind.heavy and facing is not None and not in_arc(ctx, origin, facing, target):
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
           fire: Fire, targets: Iterable[Target], section: str, events: list[dict[str, Any]],
           anti_tank: int | None = None, heavy_hit: bool = False) -> dict[str, str]:
    """One fire attack at every unit in the hex (6.0); returns uid -> what happened to it.

    A gun or vehicle firing meets only the terrain (V5); `anti_tank` is the firepower against a
    vehicle target (V6, V9: the roll plus the armour the thread meets); `heavy_hit` makes a gun
    read its casualty number after the slash (V2)."""
    side = ctx.units[firer].side
    kind = ctx.units[firer].type
    roll = dice.die(10, f"{section} fire by {public_name(state, firer)} at {target_hex}")
    results: list[dict[str, Any]] = []
    happened: dict[str, str] = {}
    for target in targets:
        uid = target.uid
        unit = state["units"][uid]
        shown_as = public_name(state, uid)
        firepower = how.firepower
        if ctx.units[uid].type.vehicle and unit["concealed"]:
            # V5: a marker is fired on as infantry or a gun; V1: a vehicle's marker comes off as an
            # infantry unit's would, and the fire does nothing else to it (V7)
            mods = fire_modifiers(ctx, origin, target, fire=fire, mortar=kind.mortar, directed=how.directed,
                                  terrain_only=kind.heavy)
            modified = roll + sum(mods.values())
            result = "revealed" if roll != 10 and modified <= firepower else "none"
            if result == "revealed":
                conceal.reveal(state, uid)
        elif ctx.units[uid].type.vehicle:
            name, armour = armour_met(ctx, state, origin, uid)
            mods = {name: armour}
            firepower = (anti_tank or 0) // (2 if how.long else 1)  # half at long range, as a squad's (V5, V6)
            modified = roll + armour
            result = "eliminated" if roll != 10 and modified <= firepower else "none"
        else:
            mods = fire_modifiers(ctx, origin, target, fire=fire, mortar=kind.mortar, directed=how.directed,
                                  terrain_only=kind.heavy)
            modified = roll + sum(mods.values())
            if roll == 10:
                result = "none"
            elif ctx.units[uid].type.gun:
                result = gun_outcome(ctx, uid, modified, firepower, heavy_hit=heavy_hit or kind.heavy)
            else:
                result = outcome(ctx, uid, unit["reduced"], modified, firepower)
        done = result if result == "revealed" else apply(ctx, state, uid, result)
        happened[uid] = done
        entry: dict[str, Any] = {"unit": uid, "as": shown_as, "modifiers": mods, "modified": modified,
                                 "result": done, "moving": target.moving}
        if firepower != how.firepower:
            entry["firepower"] = firepower
        results.append(entry)
    events.append({"type": "fire", "side": side, "section": section, "firer": firer, "from": origin,
                   "target": target_hex, "fire": fire, "firepower": how.firepower, "long": how.long,
                   "directed": how.directed, "roll": roll, "results": results})
    return happened


def targets_in(ctx: Context, state: State, hex_id: str, side: str, *, mover: str | None = None,
               came_from: str | None = None, only: str | None = None) -> list[Target]:
    """Every unit of the other side in the hex as the fire sees it; the mover is the one moving.

    Face-up vehicles are never among them (V8: infantry fire does nothing to one); a vehicle under
    a marker is, fired on as the infantry it may be (V5); `only` names the one target a gun or
    vehicle declared in a hex holding a vehicle (V10)."""
    found: list[Target] = []
    foxhole = hex_id in state["foxholes"]
    for uid, unit in sorted(state["units"].items()):
        if unit["status"] != "active" or unit["hex"] != hex_id or ctx.units[uid].side != other(side):
            continue
        if (only is not None and uid != only) or (only is None and ctx.units[uid].type.vehicle
                                                   and not unit["concealed"]):
            continue
        moving = uid == mover
        found.append(Target(hex=hex_id, moving=moving, came_from=came_from if moving else None, foxhole=foxhole,
                                concealed=unit["concealed"], bank=unit["bank"], uid=uid))
    return found



def heavy_fire(ctx: Context, state: State, dice: Dice, uid: str, order: dict[str, Any], events: list[dict[str, Any]],
               *, moved: bool = False, section: str | None = None) -> None:
    """A gun or vehicle fires in its own impulse (V4-V6), after any turn; `moved`: a vehicle after its move."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    kind = ctx.units[uid].type
    target = str(order.get("at") or order.get("assault"))
    turned = "facing" in order and order["facing"] != unit["facing"] and not moved
    if turned:
        events.append({"type": "turn-facing", "side": side, "section": "V4", "unit": uid,
                       "as": public_name(state, uid), "hex": unit["hex"], "from": unit["facing"],
                       "to": int(order["facing"])})
        unit["facing"] = int(order["facing"])
    how = reach(ctx, uid, False, unit["hex"], target, unit["facing"])
    only = declared_uid(ctx, state, target, side, order.get("target"))
    if how is None or not in_hex(ctx, state, target, other(side)) or in_hex(ctx, state, unit["hex"], other(side)):
        events.append({"type": "order-void", "side": side, "section": "V4", "unit": uid,
                       "why": "no enemy left in reach of its fire"})
        unit["used"] = True
        return
    unit["used"] = True
    if kind.gun and unit["supp"] > 0 and not check(ctx, state, dice, uid, kind="morale", section="V5", events=events,
                                                   purpose="fire"):
        return
    victim = state["units"][only] if only is not None else None
    mods = prof_modifiers(ctx, state, uid, unit["hex"], target, op=False, turned=turned, moved=moved,
                          target_moving_marker=bool(victim and victim.get("moved")))
    if mods is not None and not prof_check(ctx, state, dice, uid, mods, section="V4", purpose="fire", events=events):
        return
    if unit["concealed"]:
        conceal.take_off(ctx, state, uid, "it fired", events)
    vehicle = only is not None and ctx.units[only].type.vehicle
    attack(ctx, state, dice, uid, unit["hex"], target, how, fire="fire",
           targets=targets_in(ctx, state, target, side, only=only), section=section or ("V6" if vehicle else "V5"),
           events=events, anti_tank=kind.full.at)
    conceal.sweep(ctx, state, events)
