"""Guns and vehicles firing (V4, V5, V6) and fire at them (V2, V7): checks, arcs, armour, casualties.

- V4 Prof Check: a gun or vehicle passes when the d10 plus the modifiers is at most its
  proficiency. It checks only when one of these holds (all that hold add up): the target is over
  5 hexes away (+0, and +1 over 10, 20 and 30), it fires as Op Fire (+2), the target is a vehicle
  with a Move marker (+1), it turned within its hex to fire (+1), it is a vehicle that moved to a
  new hex (+4); being marked Op Fire (-1) counts once a check is due. No CP re-rolls it (V1).
- V5 against infantry or guns: a suppressed gun also passes a Morale Check; the attack is an
  infantry attack with the first firepower, with only the terrain modifiers and concealment.
- V6 against a vehicle: the roll plus the armour the thread meets (`facing.front_armour`) must be at
  most the second firepower; that destroys it. A 10 never hits.
- V2 a gun hit by a roll that also fits its casualty number is eliminated, never reduced: the
  number before the slash against infantry or artillery, the one after against a gun, a vehicle
  or a bazooka.
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import State

from .board import Board
from .context import Context
from .facing import front_armour


def prof_modifiers(ctx: Context, state: State, uid: str, origin: str, target_hex: str, *, op: bool, turned: bool,
                   moved: bool, target_moving_marker: bool) -> dict[str, int] | None:
    """V4: the modifiers of a gun's or vehicle's Prof Check by name, or None when it needs none."""
    table = ctx.tables["heavy_prof"]
    distance = ctx.hexes.distance(origin, target_hex)
    mods: dict[str, int] = {}
    for limit in (5, 10, 20, 30):
        if distance > limit:
            mods[f"beyond_{limit}"] = int(table[f"beyond_{limit}"])
    if op:
        mods["op_fire"] = int(table["op_fire"])
    if target_moving_marker:
        mods["target_move_marker"] = int(table["target_move_marker"])
    if turned:
        mods["turned"] = int(table["turned"])
    if moved:
        mods["moved"] = int(table["moved"])
    if not mods:
        return None
    unit = state["units"][uid]
    if unit["opfire"] or unit["marked"]:
        mods["marked_op_fire"] = int(table["marked_op_fire"])
    return mods


def prof_check(ctx: Context, state: State, dice: Dice, uid: str, mods: dict[str, int], *, section: str,
               purpose: str, events: list[dict[str, Any]]) -> bool:
    """V4: a gun's or vehicle's own Prof Check against its proficiency; no CP (V1)."""
    unit = state["units"][uid]
    target = ctx.units[uid].type.full.prof
    added = sum(mods.values())
    event: dict[str, Any] = {"type": "check", "side": ctx.units[uid].side, "section": section, "unit": uid,
                             "marker": unit["marker"] if unit["concealed"] else None, "kind": "prof",
                             "purpose": purpose, "morale": target, "added": added, "rolls": [],
                             "modifiers": dict(mods)}
    seen_by = [ctx.units[uid].side] if unit["concealed"] else None
    if 10 + added <= target:
        passed = True
    elif 1 + added > target:
        passed = False
    else:
        roll = dice.die(10, f"{section} prof check of {unit['marker'] if unit['concealed'] else uid}",
                        seen_by=seen_by)
        event["rolls"].append(roll)
        passed = roll + added <= target
    event["passed"] = passed
    events.append(event)
    return passed


def gun_outcome(ctx: Context, uid: str, modified: int, firepower: int, *, heavy_hit: bool) -> str:
    """V2: a gun hit is suppressed, or eliminated when its casualty number still fits."""
    if modified > firepower:
        return "none"
    casualty = ctx.units[uid].type.full.casualty
    number = casualty[1 if heavy_hit and len(casualty) > 1 else 0]
    return "eliminated" if modified + number <= firepower else "suppressed"


def armour_met(ctx: Context, state: State, origin: str, uid: str) -> tuple[str, int]:
    """V6: which armour a shot from `origin` meets, by the thread and the target's facing."""
    unit = state["units"][uid]
    armour = ctx.units[uid].type.armour or (0, 0)
    if front_armour(ctx, origin, unit["hex"], int(unit.get("facing", 0))):
        return "front_armour", armour[0]
    return "side_armour", armour[1]


def piece_name(piece: dict[str, Any]) -> str:
    return str(piece.get("unit") or piece.get("marker"))


def board_vehicle(ctx: Context, piece: dict[str, Any]) -> bool:
    """A piece the board shows face up as a vehicle (a marker is infantry or a gun to the firer: V5)."""
    return "type" in piece and ctx.types[piece["type"]].vehicle


def declared_target_problems(ctx: Context, board: Board, target: str, declared: str | None, index: int,
                             where: tuple[str, ...], *, heavy: bool) -> list[Problem]:
    """V10 and V8: the target a fire order must name, from what the firer's side sees in the hex."""
    pieces = [p for p in board.enemy if p["hex"] == target]
    vehicles = [piece_name(p) for p in pieces if board_vehicle(ctx, p)]
    others = [piece_name(p) for p in pieces if not board_vehicle(ctx, p)]
    if not heavy:
        if not others:
            return [Problem(f"{target} holds only a vehicle: infantry fire does nothing to it", order=index,
                            path=where, section="V8", legal="close assault it (move into its hex) or fire a "
                                                            "bazooka or panzerfaust (`satw: true`)")]
        return []
    if declared is not None and declared not in vehicles + others:
        return [Problem(f"{declared} is not in {target}", order=index, path=("target",), section="V10",
                        legal=", ".join(sorted(vehicles + others)))]
    if vehicles and others and declared is None:
        return [Problem(f"{target} holds a vehicle and infantry: name the one unit you fire at", order=index,
                        path=where, section="V10", legal="target: " + " | ".join(sorted(vehicles + others)))]
    return []


def declared_uid(ctx: Context, state: State, target: str, side: str, declared: str | None) -> str | None:
    """The one unit a gun's or vehicle's fire affects (V10), or None for every non-vehicle in the hex."""
    enemy = [uid for uid, u in sorted(state["units"].items())
             if u["status"] == "active" and u["hex"] == target and ctx.units[uid].side != side]
    vehicles = [uid for uid in enemy if ctx.units[uid].type.vehicle and not state["units"][uid]["concealed"]]
    if not vehicles:
        return None
    for uid in enemy:
        if declared in (uid, state["units"][uid]["marker"]):
            return str(uid)
    return str(vehicles[0]) if len(vehicles) == len(enemy) else None
