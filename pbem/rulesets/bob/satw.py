"""Special anti-tank weapons (V9): bazookas, panzerschrecks and panzerfausts.

A squad the scenario arms with a bazooka (or a panzerschreck, assumed to work as one) and every
German squad (its panzerfausts) may fire that weapon instead of its firepower (`fire` with
`satw: true`), never from a building, never as Final Op Fire:

- at a vehicle within the weapon's range (bazooka 4, panzerfaust 2 in 1944 and 3 in 1945), after
  a Prof Check always taken: the squad's proficiency, +2 at a moving vehicle, -1 when marked Op
  Fire, +1 per hex of range, none of the infantry -1s; then the roll plus the armour the thread
  meets must be at most the weapon's firepower (11, 22); a 10 never hits;
- a bazooka also at a face-up gun or weapon team within 4 hexes: an infantry attack at the squad's
  firepower +1 at that unit alone, a gun reading its casualty number after the slash (V2);
- a panzerfaust is one shot: a squad that fired it has none left (read: for the scenario).

A squad marked Op Fire (or any squad not Used, by its standing orders) fires its weapon at a
vehicle moving in reach as its Op Fire (`react`); failing the check does not make it Used (9.0).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State, standing_answer

from . import conceal
from .board import Board
from .checks import check, public_name
from .context import Context
from .fire import Reach, attack, targets_in
from .reactions import Step, wants_to_fire
from .terrain import los


def weapon(ctx: Context, uid: str, unit: dict[str, Any]) -> str | None:
    """The SATW a squad may fire now, or None."""
    scenario = ctx.units[uid]
    if scenario.kind != "squad":
        return None
    if scenario.satw:
        return scenario.satw
    if scenario.side == "german" and not unit.get("faust"):
        return "panzerfaust"
    return None


def reach_of(ctx: Context, name: str) -> int:
    if name == "panzerfaust":
        return int(ctx.tables["panzerfaust_range"][str(ctx.card.year)])
    return int(ctx.tables["satw"][name]["range"])


def _in_reach(ctx: Context, name: str, origin: str, target: str) -> bool:
    return 0 < ctx.hexes.distance(origin, target) <= reach_of(ctx, name) and los(ctx, origin, target)


def problems(ctx: Context, board: Board, uid: str, origin: str, target: str, order: dict[str, Any],
             index: int) -> list[Problem]:
    """V9: the squad has a weapon left, stands outside buildings, and the named target may take it."""
    unit = board.own[uid]
    name = weapon(ctx, uid, unit)
    where = ("satw",)
    if name is None:
        return [Problem(f"{uid} has no special anti-tank weapon (left)", order=index, path=where, section="V9",
                        legal="squads the scenario gives a bazooka; German squads, one panzerfaust each")]
    if ctx.building(origin):
        return [Problem(f"{uid} is in a building: no {name} from inside one", order=index, path=where, section="V9")]
    if not _in_reach(ctx, name, origin, target):
        return [Problem(f"{target} is beyond the {name}'s {reach_of(ctx, name)} hexes or out of LOS", order=index,
                        path=("at",), section="V9")]
    pieces = [p for p in board.enemy if p["hex"] == target]
    vehicles = [str(p["unit"]) for p in pieces if "type" in p and ctx.types[p["type"]].vehicle]
    soft = [str(p["unit"]) for p in pieces if "type" in p and ctx.types[p["type"]].kind in ("gun", "wt")]
    allowed = vehicles + (soft if name != "panzerfaust" else [])
    declared = order.get("target")
    if not allowed:
        return [Problem(f"{target} holds no vehicle{'' if name == 'panzerfaust' else ', gun or weapon team'} in view",
                        order=index, path=("at",), section="V9")]
    if declared is None and len(allowed) > 1:
        return [Problem(f"name the unit the {name} fires at", order=index, path=where, section="V9",
                        legal="target: " + " | ".join(sorted(allowed)))]
    if declared is not None and declared not in allowed:
        return [Problem(f"the {name} may not fire at {declared}", order=index, path=("target",), section="V9",
                        legal=", ".join(sorted(allowed)))]
    return []


def _target(ctx: Context, state: State, side: str, hex_id: str, declared: str | None, name: str) -> str | None:
    for uid, unit in sorted(state["units"].items()):
        if unit["status"] != "active" or unit["hex"] != hex_id or ctx.units[uid].side == side or unit["concealed"]:
            continue
        kind = ctx.units[uid].type
        fits = kind.vehicle or (name != "panzerfaust" and kind.kind in ("gun", "wt"))
        if fits and declared in (None, uid):
            return str(uid)
    return None


def _prof_check(ctx: Context, state: State, dice: Dice, uid: str, distance: int, *, moving: bool, section: str,
                reroll: bool, events: list[dict[str, Any]], purpose: str) -> bool:
    unit = state["units"][uid]
    table = ctx.tables["satw_prof"]
    added = int(table["per_hex"]) * distance + (int(table["moving"]) if moving else 0) + \
        (int(table["marked_op_fire"]) if unit["opfire"] or unit["marked"] else 0)
    face = ctx.units[uid].type.face(unit["reduced"])
    return check(ctx, state, dice, uid, kind="prof", section=section, events=events, prof=face.prof + added,
                 reroll=reroll, purpose=purpose)


def _shoot(ctx: Context, state: State, dice: Dice, uid: str, name: str, target_uid: str, *, fire: str,
           moving: bool, events: list[dict[str, Any]]) -> None:
    unit = state["units"][uid]
    side = ctx.units[uid].side
    origin = unit["hex"]
    hex_id = state["units"][target_uid]["hex"]
    values = ctx.tables["satw"][name]
    if name == "panzerfaust":
        unit["faust"] = True
    if unit["concealed"]:
        conceal.take_off(ctx, state, uid, "it fired", events)
    if ctx.units[target_uid].type.vehicle:
        attack(ctx, state, dice, uid, origin, hex_id, Reach(int(values["firepower"]), False, False), fire=fire,
               targets=targets_in(ctx, state, hex_id, side, only=target_uid, mover=target_uid if moving else None),
               section="V9", events=events, anti_tank=int(values["firepower"]))
    else:
        firepower = ctx.units[uid].type.face(unit["reduced"]).firepower + int(values["vs_infantry"])
        attack(ctx, state, dice, uid, origin, hex_id, Reach(firepower, False, False), fire=fire,
               targets=targets_in(ctx, state, hex_id, side, only=target_uid), section="V9", events=events,
               heavy_hit=True)
    conceal.sweep(ctx, state, events)


def fire(ctx: Context, state: State, dice: Dice, uid: str, order: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """V9 in the squad's own impulse."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    name = weapon(ctx, uid, unit)
    target = _target(ctx, state, side, order["at"], order.get("target"), name or "")
    unit["used"] = True
    if name is None or target is None or not _in_reach(ctx, name, unit["hex"], order["at"]):
        events.append({"type": "order-void", "side": side, "section": "V9", "unit": uid,
                       "why": "no target left in reach of its anti-tank weapon"})
        return
    reroll = bool(order.get("reroll"))
    if not check(ctx, state, dice, uid, kind="morale", section="6.0", events=events, reroll=reroll, purpose="fire"):
        return
    if ctx.units[target].type.vehicle and not _prof_check(ctx, state, dice, uid, ctx.hexes.distance(unit["hex"],
                                                                                                       order["at"]),
                                                          moving=False, section="V9", reroll=reroll, events=events,
                                                          purpose="fire"):
        return
    _shoot(ctx, state, dice, uid, name, target, fire="fire", moving=False, events=events)


def may_react(ctx: Context, state: State, uid: str, step: Step) -> bool:
    """V9: a squad not Used, outside buildings, with a weapon in reach of the moving vehicle."""
    unit = state["units"][uid]
    name = weapon(ctx, uid, unit)
    return name is not None and not unit["used"] and not ctx.building(unit["hex"]) and \
        _in_reach(ctx, name, unit["hex"], step.hex)


def react(ctx: Context, state: State, dice: Dice, decisions: Decisions, uid: str, step: Step,
          events: list[dict[str, Any]]) -> None:
    """V9: Op Fire with the weapon at a vehicle entering a hex, by the squad's standing answer."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    if not wants_to_fire(ctx, state, decisions, uid, step, "V9"):
        return
    name = weapon(ctx, uid, unit) or ""
    reroll = standing_answer(state, side, "reroll", "never") == "checks"
    if not _prof_check(ctx, state, dice, uid, ctx.hexes.distance(unit["hex"], step.hex), moving=True, section="V9",
                       reroll=reroll, events=events, purpose="op fire"):
        return  # 9.0: a failed Op Fire check leaves the squad free
    unit["used"] = True
    unit["opfire"] = False
    _shoot(ctx, state, dice, uid, name, step.mover, fire="op", moving=True, events=events)

