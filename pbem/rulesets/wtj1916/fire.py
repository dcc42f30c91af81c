"""Fire orders: their checks (on the side's board) and their resolution (3.1-3.3, 3.7).

Orders of the fire phase:
    {unit: U, fire: T}                 # small arms (3.1) or direct artillery (3.2) at unit T
        weapon: NAME                   # when the unit type has more than one
        moving: true                   # the side not moving this turn: it will move (3.5, 3.6)
        then: [T2, T3]                 # rapid fire reward targets, in order (3.7)
    {unit: U, flame: T, base: B}       # a flamethrower base at unit T (3.7)
    {unjam: U}                         # a jammed machine gun tries to clear (3.7)
    {air_strike: {at: [x, y], facing: DEG}}   # the phasing side's air strike (3.7)
The side not moving passes fire (3.7) by its standing answer `pass_fire` (sequence.py), each
entry checked here as an order {unit: U, pass_fire: T | any}.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import State
from pbem.geometry import plane

from . import artillery, results, smallarms
from .context import Context, Weapon, other
from .geometry import closest2, dist2, footprint, terrain_cover
from .smallarms import chart_result, shapes
from .board import live
from .spotting import sees_unit
from .state import bases_of, units_of


def _listing(names: list[str]) -> str:
    return ", ".join(names) or "none"


def weapon_for(context: Context, board: State, side: str, order: Mapping[str, Any], index: int,
               key: str) -> tuple[str, Weapon | None, list[Problem]]:
    """The ordering unit and its weapon, or the problems of naming them (3.1, 3.7)."""
    uid = str(order.get("unit"))
    own = [u for u, _ in units_of(board, side)]
    if uid not in own:
        return uid, None, [Problem(
            f"{uid} is not one of your units on the table", order=index, path=("unit",), section="3.1",
            legal=_listing(own))]
    unit = board["units"][uid]
    kind = context.type_of(unit)
    if not kind.weapons:
        return uid, None, [Problem(f"{uid} ({kind.name}) has no weapon: mounted cavalry may not fire small arms",
                                   order=index, path=("unit",), section="3.1",
                                   legal="units with weapons: " + _listing(
                                       [u for u in own if context.type_of(board["units"][u]).weapons]))]
    names = [w.name for w in kind.weapons if (w.fire == "flame") == (key == "flame")]
    wanted = order.get("weapon", names[0] if names else None)
    weapon = kind.weapon(str(wanted)) if wanted in names else None
    if weapon is None:
        return uid, None, [Problem(f"{uid} has no weapon {wanted!r} for this order", order=index,
                                   path=("weapon",), section="3.7" if key == "flame" else "3.1",
                                   legal=_listing(names))]
    return uid, weapon, []


def target_for(context: Context, board: State, side: str, order: Mapping[str, Any], index: int,
               key: str) -> list[Problem]:
    target = order.get(key)
    seen = sorted(u for u, unit in board["units"].items() if unit["side"] != side and unit["status"] == "active")
    if target not in seen:
        return [Problem(f"{target} is not an enemy unit you see", order=index, path=(key,), section="3.4",
                        legal=_listing(seen) if seen else "no enemy unit is spotted (3.4)")]
    return []


def check_fire(context: Context, board: State, side: str, order: Mapping[str, Any], index: int,
               phasing: str, passing: bool = False) -> list[Problem]:
    key = "pass_fire" if passing else "fire"
    uid, weapon, problems = weapon_for(context, board, side, order, index, "fire")
    if problems or weapon is None:
        return problems
    unit = board["units"][uid]
    if unit["marked"] and not passing:
        return [Problem(f"{uid} passed fire this turn and may not fire in this fire phase", order=index,
                        path=("unit",), section="3.7", legal="units not marked for passing fire")]
    if weapon.name in unit["fired"]:
        return [Problem(f"{uid} has fired its {weapon.name} this turn", order=index, path=("unit",),
                        section="3.2" if weapon.fire == "artillery" else "3.1", legal="one fire each turn")]
    if context.type_of(unit).cls == "machine-gun" and unit["moved"]:  # MG bases, not vehicle MGs (3.1, 3.7)
        return [Problem(f"machine gun {uid} moved this turn and may not fire", order=index, path=("unit",),
                        section="3.7", legal="machine guns that have not moved this turn")]
    if weapon.mg != "none" and unit["jammed"]:
        return [Problem(f"machine gun {uid} is jammed", order=index, path=("unit",), section="3.7",
                        legal="an unjam order: {unjam: " + uid + "}")]
    if weapon.setup and not unit["set_up"]:
        return [Problem(f"trench mortar {uid} is not set up", order=index, path=("unit",), section="3.7",
                        legal="set it up in your move phase (set_up: true)")]
    if order.get("moving") and side == phasing and not passing:
        return [Problem(f"{uid}: moving: true is for the side not moving this turn; {side} has had its move phase",
                        order=index, path=("moving",), section="3.5",
                        legal="leave moving out: a unit of yours that moved fires with the modifier already")]
    if passing and order.get(key) == "any":
        return []
    problems = target_for(context, board, side, order, index, key)
    if problems:
        return problems
    target = str(order[key])
    problems = target_class(context, board, uid, weapon, target, index, key)
    if problems:
        return problems
    for extra in order.get("then") or []:
        if extra not in board["units"] or board["units"][extra]["side"] == side:
            return [Problem(f"rapid fire target {extra} is not an enemy unit you see", order=index, path=("then",),
                            section="3.7", legal=_listing(sorted(u for u, e in board["units"].items()
                                                                 if e["side"] != side)))]
        problems = target_class(context, board, uid, weapon, str(extra), index, "then")
        if problems:
            return problems  # 3.7: a rapid fire shot takes a valid target, so the weapon's own limits hold
    if not plan(context, board, uid, weapon, target, False):
        d2 = closest2(context, shapes(context, board, sorted(bases_of(board, uid))),
                      shapes(context, board, sorted(bases_of(board, target))))
        if d2 > weapon.range * weapon.range:
            return [Problem(f"{target} is {plane.floor_sqrt_fraction(d2)} yards from {uid}, closest point to closest "
                            f"point; its {weapon.name} reach {weapon.range}", order=index, path=(key,),
                            section="3.1" if weapon.fire == "small-arms" else "3.2",
                            legal=f"targets within {weapon.range} yards")]
        able = [t for t in sorted(board["units"]) if board["units"][t]["side"] != side
                and not target_class(context, board, uid, weapon, t, index, key)
                and plan(context, board, uid, weapon, t, False)]
        return [Problem(f"no base of {uid} has a line of fire to {target} with its {weapon.name}", order=index,
                        path=(key,), section="3.4", legal="targets in line of fire: " + _listing(able))]
    return []


def target_class(context: Context, board: State, uid: str, weapon: Weapon, target: str, index: int,
                 key: str) -> list[Problem]:
    """Which weapon may fire at which target (3.1, 3.7) and the mortar's ranges (3.7)."""
    tkind = context.type_of(board["units"][target])
    if weapon.fire == "small-arms" and not tkind.personnel:
        if weapon.mg != "heavy":
            return [Problem(f"{weapon.name} may not fire at the vehicle {target}: small arms fire at personnel, and "
                            "only heavy machine guns fire at vehicles", order=index, path=(key,), section="3.7",
                            legal="personnel targets")]
    if context.type_of(board["units"][uid]).cls == "machine-gun" and tkind.cls == "machine-gun":
        mine = shapes(context, board, sorted(bases_of(board, uid)))
        d_mg = closest2(context, mine, shapes(context, board, sorted(bases_of(board, target))))
        for other, unit in sorted(board["units"].items()):
            if unit["side"] == board["units"][uid]["side"] or not context.type_of(unit).infantry:
                continue
            if (closest2(context, mine, shapes(context, board, sorted(bases_of(board, other)))) < d_mg
                    and plan(context, board, uid, weapon, other, False)):
                return [Problem(f"{uid} may not fire at the machine gun {target}: enemy infantry {other} is closer",
                                order=index, path=(key,), section="3.7", legal=f"{other} or another closer target")]
    if weapon.min_range:
        d2 = closest2(context, shapes(context, board, sorted(bases_of(board, uid))),
                      shapes(context, board, sorted(bases_of(board, target))))
        low, high = weapon.min_range, weapon.range
        if not low * low <= d2 <= high * high:
            return [Problem(f"{target} is {plane.floor_sqrt_fraction(d2)} yards from {uid}", order=index, path=(key,),
                            section="3.7", legal=f"targets {low} to {high} yards away")]
    return []


def plan(context: Context, board: State, uid: str, weapon: Weapon, target: str,
         moving: bool) -> list[Any]:
    """The shots a fire order makes: one small arms Shot, or an artillery Gun per firing base."""
    if weapon.fire == "small-arms" and context.type_of(board["units"][target]).personnel:
        shot = smallarms.work_out(context, board, uid, weapon, target, moving)
        shot.firing = [b for b in shot.firing if f"flame:{b}" not in board["units"][uid]["fired"]]
        return [shot] if shot.firing else []
    guns = [gun_shot(context, board, fbid, weapon, target, moving) for fbid in bases_of(board, uid)]
    return [g for g in guns if g.aim is not None]


def gun_shot(context: Context, board: State, fbid: str, weapon: Weapon, target: str, moving: bool) -> artillery.Gun:
    """One artillery base's shot; a trench mortar may fire on what a friendly base observes (3.4)."""
    observers = None
    if weapon.setup:
        side = board["units"][board["bases"][fbid]["unit"]]["side"]
        observers = sorted(b for b, e in board["bases"].items() if board["units"][e["unit"]]["side"] == side)
    return artillery.work_out(context, board, fbid, weapon, target, moving, observers)


def moving_now(unit: Mapping[str, Any], side: str, phasing: str, order: Mapping[str, Any]) -> bool:
    """3.5, 3.6: the unit moved this turn, or (the side not moving) declares it will move."""
    return bool(unit["moved"]) or (side != phasing and bool(order.get("moving")))


# --- resolution -----------------------------------------------------------------------------------

def resolve_fire(context: Context, state: State, board: State, side: str, order: Mapping[str, Any], dice: Dice,
                 phasing: str, events: list[dict[str, Any]], target: str | None = None,
                 passing: bool = False) -> bool:
    """Resolve one fire order on the side's board; False (and an event) when it cannot fire now."""
    uid = str(order["unit"])
    target = target or str(order.get("pass_fire" if passing else "fire"))
    unit = state["units"].get(uid)
    kind_weapons = context.type_of(unit).weapons if unit else ()
    names = [w.name for w in kind_weapons if w.fire != "flame"]
    weapon = context.type_of(unit).weapon(str(order.get("weapon", names[0] if names else ""))) if unit else None
    if unit is None or unit["status"] != "active" or weapon is None:
        events.append(void(side, uid, "the unit has no bases left", "3.1"))
        return False
    if target not in board["units"] or board["units"][target]["status"] != "active":
        if not passing:
            events.append(void(side, uid, f"{target} is gone", "3.1"))
        return False
    moving = moving_now(unit, side, phasing, order)
    shots = plan(context, board, uid, weapon, target, moving)
    if not shots:
        if not passing:
            events.append(void(side, uid, f"no base has a line of fire to {target} now", "3.4"))
        return False
    unit["fired"] = sorted(set(unit["fired"]) | {weapon.name})
    unit["revealed"] = state["turn"]
    if side != phasing and not order.get("moving") and not passing:
        unit["bound"] = True
    if isinstance(shots[0], smallarms.Shot):
        small_arms_roll(context, state, side, shots[0], dice, events, passing)
        return True
    extra_targets = [str(t) for t in order.get("then") or []]
    for first in shots:
        now = live(board, state)  # the guns before this one may have killed bases (3.3)
        gun = (gun_shot(context, now, first.base, weapon, target, moving)
               if first.base in now["bases"] and target in now["units"] else None)
        if gun is None or gun.aim is None:
            why = f"no line of fire to {target} now" if target in now["units"] else f"{target} is gone"
            events.append(void(side, uid, f"{first.base}: {why}", "3.4" if target in now["units"] else "3.1"))
            continue
        artillery_roll(context, state, board, side, uid, weapon, gun, dice, events, passing, extra_targets, moving)
    return True


def small_arms_roll(context: Context, state: State, side: str, shot: smallarms.Shot, dice: Dice,
                    events: list[dict[str, Any]], passing: bool) -> None:
    roll = dice.die(int(context.tables["charts"]["small_arms_die"]), f"3.1 small arms fire at {shot.target}")
    total = roll + sum(shot.modifiers.values())
    result = chart_result(context.tables["charts"]["small_arms"], total)
    event: dict[str, Any] = {"type": "fire", "side": side, "unit": shot.firer, "weapon": shot.weapon.name,
                             "target": shot.target, "firing": list(shot.firing), "roll": roll,
                             "modifiers": dict(shot.modifiers), "total": total, "result": result,
                             "passing": passing, "section": "3.1"}
    hits: list[dict[str, Any]] = []
    if result != "-":
        unit_shapes = shapes(context, state, sorted(bases_of(state, shot.firer)))  # 3.3: the firing unit's
        order = results.removal_order(context, state, shot.target, unit_shapes, shot.packed_first)
        hits = results.apply(context, state, shot.target, result, order, dice, "3.3")
    event["hits"] = hits
    if shot.weapon.mg != "none" and roll == 1:
        jam_check(context, state, side, shot.firer, dice, event)
    events.append(event)


def firer_die(context: Context, state: State, side: str, uid: str, dice: Dice, purpose: str) -> int:
    """A die about the firer alone (its jam check, its fuel). Fog (3.4): rolled after the fire's
    hits, and shown to the target's side only if that side then sees the firer, as the event is."""
    enemy = other(side)
    return dice.die(6, purpose, None if sees_unit(context, state, enemy, uid) else [side])


def jam_check(context: Context, state: State, side: str, uid: str, dice: Dice, event: dict[str, Any]) -> None:
    """3.7: a 1 on the fire roll (or an anti-tank kill die) makes a machine gun roll again; a second 1 jams it."""
    again = firer_die(context, state, side, uid, dice, "3.7 machine gun jam check")
    event["jam_roll"] = again
    if again == 1:
        state["units"][uid]["jammed"] = True
        state["units"][uid]["jammed_turn"] = state["turn"]
        event["jammed"] = True


def artillery_roll(context: Context, state: State, board: State, side: str, uid: str, weapon: Weapon,
                   gun: artillery.Gun, dice: Dice, events: list[dict[str, Any]], passing: bool,
                   extra_targets: list[str], moving: bool, extra: bool = False) -> None:
    hit_dice = [dice.die(6, f"3.2 artillery fire at {gun.target}: hit die") for _ in range(2)]
    kill_die = dice.die(6, f"3.2 artillery fire at {gun.target}: kill die")
    natural = hit_dice[0] + hit_dice[1]
    hit_total = natural + sum(gun.hit.values())
    hit = hit_total >= int(context.tables["charts"]["artillery_hit"])
    kill_total = kill_die + sum(gun.kill.values()) + gun.size - gun.armour
    result = chart_result(context.tables["charts"]["artillery_kill"], kill_total) if hit else "-"
    event: dict[str, Any] = {"type": "artillery", "side": side, "unit": uid, "base": gun.base, "weapon": weapon.name,
                             "target": gun.target, "aim": gun.aim, "hit_dice": hit_dice, "kill_die": kill_die,
                             "hit_modifiers": dict(gun.hit), "kill_modifiers": dict(gun.kill), "size": gun.size,
                             "armour": gun.armour, "hit_total": hit_total, "kill_total": kill_total, "hit": hit,
                             "result": result, "passing": passing, "extra": extra, "section": "3.2"}
    if hit and result != "-":
        firing = [footprint(context.type_of(state["units"][uid]), state["bases"][gun.base]).shape]
        rest = results.removal_order(context, state, gun.target, firing, False)
        event["hits"] = results.apply(context, state, gun.target, result, [gun.aim or ""] + rest, dice, "3.3")
    else:
        event["hits"] = []
    if weapon.mg == "heavy" and kill_die == 1:
        jam_check(context, state, side, uid, dice, event)
    rewards = 0 if extra else rapid_rewards(weapon, natural)
    if rewards:
        event["rapid"] = rewards
    events.append(event)
    for n in range(rewards):
        again = extra_targets[n] if n < len(extra_targets) else gun.target
        now = live(board, state)  # the shot before this one may have killed bases (3.3)
        if gun.base not in now["bases"] or again not in now["units"]:
            events.append(void(side, uid, f"rapid fire: {again} is gone", "3.7"))
            continue
        if target_class(context, now, uid, weapon, again, 0, "then"):
            events.append(void(side, uid, f"rapid fire: {again} is not a valid target", "3.7"))
            continue
        follow = gun_shot(context, now, gun.base, weapon, again, moving)
        if follow.aim is None:
            events.append(void(side, uid, f"rapid fire: no line of fire to {again}", "3.7"))
            continue
        artillery_roll(context, state, board, side, uid, weapon, follow, dice, events, passing, [], moving, True)


def rapid_rewards(weapon: Weapon, natural: int) -> int:
    """3.7: a natural 12 fires once more; a rapid-fire gun fires once more on 9+, twice more on 12
    (direct fire artillery only: a heavy machine gun on the artillery chart earns nothing)."""
    if weapon.fire != "artillery":
        return 0
    if natural == 12:
        return 2 if weapon.rapid else 1
    return 1 if weapon.rapid and natural >= 9 else 0


def void(side: str, uid: str, why: str, section: str) -> dict[str, Any]:
    return {"type": "fire-void", "side": side, "unit": uid, "why": why, "section": section}


# --- flamethrowers, machine gun repair, air strikes (3.7) -----------------------------------------

def check_flame(context: Context, board: State, side: str, order: Mapping[str, Any], index: int) -> list[Problem]:
    uid, weapon, problems = weapon_for(context, board, side, order, index, "flame")
    if problems or weapon is None:
        return problems
    unit = board["units"][uid]
    able = [b for b, e in bases_of(board, uid).items() if e["flame"] and e["fuel"]]
    if order.get("base") not in able:
        return [Problem(f"{order.get('base')} is not a base of {uid} with a flamethrower and fuel", order=index,
                        path=("base",), section="3.7", legal=_listing(able))]
    if unit["fired"] and any(not f.startswith("flame:") for f in unit["fired"]) or f"flame:{order['base']}" in unit["fired"]:
        return [Problem(f"{order['base']} has fired this turn: a base fires its small arms or its flamethrower, "
                        "not both", order=index, path=("base",), section="3.7", legal="bases that have not fired")]
    problems = target_for(context, board, side, order, index, "flame")
    if problems:
        return problems
    if flame_victim(context, board, str(order["base"]), weapon, str(order["flame"])) is None:
        return [Problem(f"no base of {order['flame']} is within {weapon.range} yards in line of fire of "
                        f"{order['base']}", order=index, path=("flame",), section="3.7",
                        legal="a target in reach")]
    return []


def flame_victim(context: Context, board: State, fbid: str, weapon: Weapon, target: str) -> str | None:
    from .lines import blockers, line_of_fire

    blocking = blockers(context, board, board["bases"][fbid]["unit"], target, weapon)
    me = footprint(context.type_of(board["units"][board["bases"][fbid]["unit"]]), board["bases"][fbid]).shape
    tkind = context.type_of(board["units"][target])
    found = [(dist2(context, me, footprint(tkind, e).shape), b) for b, e in bases_of(board, target).items()
             if line_of_fire(context, board, fbid, b, weapon, blocking)]
    return min(found)[1] if found else None


def resolve_flame(context: Context, state: State, board: State, side: str, order: Mapping[str, Any], dice: Dice,
                  events: list[dict[str, Any]]) -> None:
    uid, fbid, target = str(order["unit"]), str(order["base"]), str(order["flame"])
    unit = state["units"].get(uid)
    if unit is None or fbid not in state["bases"] or target not in board["units"]:
        events.append(void(side, uid, "the flamethrower or its target is gone", "3.7"))
        return
    if any(not used.startswith("flame:") for used in unit["fired"]):
        events.append(void(side, uid, f"{fbid} fired its small arms with its unit this turn: not both", "3.7"))
        return
    weapon = next(w for w in context.type_of(unit).weapons if w.fire == "flame")  # checked: it has one
    victim = flame_victim(context, board, fbid, weapon, target)
    if victim is None:
        events.append(void(side, uid, f"no base of {target} is in reach now", "3.7"))
        return
    unit["fired"] = sorted(set(unit["fired"]) | {f"flame:{fbid}"})
    unit["revealed"] = state["turn"]
    hits = results.kill(context, state, victim, "flamethrower", "3.7")
    fuel = firer_die(context, state, side, uid, dice, "3.7 flamethrower fuel check")
    if fuel <= 2:
        state["bases"][fbid]["fuel"] = False
    events.append({"type": "flame", "side": side, "unit": uid, "base": fbid, "target": target, "hits": hits,
                   "fuel_roll": fuel, "out_of_fuel": fuel <= 2, "section": "3.7"})


def check_unjam(context: Context, board: State, side: str, order: Mapping[str, Any], index: int) -> list[Problem]:
    uid = str(order.get("unjam"))
    unit = board["units"].get(uid)
    if unit is None or unit["side"] != side or not unit["jammed"] or unit["status"] != "active":
        jammed = [u for u, e in units_of(board, side) if e["jammed"]]
        return [Problem(f"{uid} is not one of your jammed machine guns", order=index, path=("unjam",), section="3.7",
                        legal=_listing(jammed))]
    if unit["jammed_turn"] == board["turn"] or unit["unjam_turn"] == board["turn"] or unit["moved"]:
        return [Problem(f"{uid} may not try to clear its jam this turn", order=index, path=("unjam",), section="3.7",
                        legal="one try each following turn, the gun stationary")]
    return []


def resolve_unjam(state: State, side: str, order: Mapping[str, Any], dice: Dice, events: list[dict[str, Any]]) -> None:
    uid = str(order["unjam"])
    unit = state["units"][uid]
    if unit["status"] != "active":
        events.append(void(side, uid, "the machine gun is gone", "3.7"))
        return
    roll = dice.die(6, "3.7 a machine gun tries to clear its jam", seen_by=[side])
    unit["unjam_turn"] = state["turn"]
    if roll == 1:
        unit["jammed"] = False
    events.append({"type": "unjam", "side": side, "unit": uid, "roll": roll, "cleared": roll == 1, "section": "3.7"})


def strike_zone(context: Context, order: Mapping[str, Any]) -> plane.Shape:
    """3.7: the 120-yard zone straight ahead of the aircraft base's leading edge."""
    spec = order["air_strike"]
    size = int(context.tables["distances"]["aircraft"])
    base = plane.Base((int(spec["at"][0]), int(spec["at"][1])), int(spec["facing"]) % 360, size, size)
    ahead = plane.offset(base.facing, 0, int(context.tables["distances"]["air_zone"]))
    fl, fr = base.front_edge
    return plane.Shape((fl, fr, (fr[0] + ahead[0], fr[1] + ahead[1]), (fl[0] + ahead[0], fl[1] + ahead[1])),
                       closed=True)


def check_air(context: Context, board: State, side: str, order: Mapping[str, Any], index: int,
              phasing: str) -> list[Problem]:
    if side != phasing:
        return [Problem("an air strike comes in its controller's own fire phase", order=index, path=("air_strike",),
                        section="3.7", legal=f"the fire phase of a turn {side} moves in")]
    if int(board["air_strikes"].get(side, 0)) < 1:
        return [Problem(f"{side} has no air strike left", order=index, path=("air_strike",), section="3.7",
                        legal="the scenario's air strikes, each used once")]
    at = order["air_strike"]["at"]
    if not context.table.on_table((int(at[0]), int(at[1]))):
        return [Problem(f"the aircraft base at {list(at)} is off the table", order=index, path=("air_strike", "at"),
                        section="3.7", legal=f"a point on the table: x 0 to {context.table.width}, "
                                             f"y 0 to {context.table.depth}")]
    return []


def resolve_air(context: Context, state: State, known: State, side: str, order: Mapping[str, Any], dice: Dice,
                events: list[dict[str, Any]]) -> None:
    """3.7: a roll for every enemy base in the zone. Fog (3.4): the rolls on bases of units the
    striking side does not see (`known`, its board) are hidden from it, dice and entries both."""
    if int(state["air_strikes"].get(side, 0)) < 1:
        events.append(void(side, "air strike", "no air strike left", "3.7"))
        return
    zone = strike_zone(context, order)
    state["air_strikes"][side] = int(state["air_strikes"].get(side, 0)) - 1
    mods = context.tables["area_modifiers"]
    chart = context.tables["charts"]["area_weapons"]
    rolls = []
    for bid, base in sorted(state["bases"].items()):
        unit = state["units"][base["unit"]]
        if unit["side"] == side or not plane.overlap(footprint(context.type_of(unit), base).shape, zone):
            continue
        cover = terrain_cover(context, state["bases"], bid, state["units"], area=True)
        seen_by = None if base["unit"] in known["units"] else [unit["side"]]
        roll = dice.die(6, f"3.7 air strike on {bid}", seen_by)
        total = roll + (int(mods[cover]) if cover else 0)
        result = chart_result(chart, total)
        hits = results.apply(context, state, base["unit"], result, [bid], dice, "3.7", seen_by)
        entry = {"base": bid, "unit": base["unit"], "roll": roll, "cover": cover or "none", "result": result,
                 "hits": hits}
        rolls.append(entry if seen_by is None else {**entry, "unseen_by": [side]})
    events.append({"type": "air-strike", "side": side, "at": list(order["air_strike"]["at"]),
                   "facing": int(order["air_strike"]["facing"]), "zone": [list(p) for p in zone.points],
                   "rolls": rolls, "section": "3.7"})
