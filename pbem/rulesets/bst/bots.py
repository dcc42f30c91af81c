"""Bots (A1): legal orders for the drawn card from the side's own view, with a queue.

For each unit: its bases in close combat fight it out; recover the pinned and suppressed
bases; an unloaded crewed weapon sets up (W3); the others fire at the nearest enemy unit
they all may fire at, else move toward the nearest enemy base (or the table's centre), else
hold. An HMG that has nothing to fire at but an enemy in its arc and range, and no friend of
another unit there, goes on sustained fire (W4). A mortar is left out of its unit's orders: it
fires when its leader has called it (W6).

A platoon leader whose card is drawn first calls its mortar, when it has one with no fire
order in reach and sees an enemy base the mortar reaches with no friend near it (W6); else
it leads the bases in its command whose units have not activated, to fire or to move with
it (L1); else it moves to join its platoon. On its second card it leads, or holds.

Every candidate is judged by the ruleset's own checks on the view, and the first legal one is
taken, so an order kind the bots do not know never makes them write an illegal order. The
bot queues its own kind of orders for all its other units (a unit that already activated may
come up again after a Joker), so that consecutive cards of its side need no extra mail; a
lead is never queued (by the time its card came, the bases it names may have acted).
"""

from __future__ import annotations

import hashlib
from math import isqrt
from typing import Any, Iterable, Mapping, Sequence

from pbem.geometry import plane

from . import fire
from .context import Context
from .leaders import commanded
from .melee import contacts
from .mortars import seen
from .orders import bases_of, check_activation, check_unit, validate
from .stands import Stand

Order = dict[str, Any]
FRIEND_CLEARANCE = 180  # mm kept between a mortar's aim and any friend: two dice of deviation, a template and a base


def pick(seed: bytes, label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:8], "big") % n


def legal(context: Context, view: Mapping[str, Any], side: str, unit: str, orders: Sequence[Order]) -> bool:
    return not check_unit(context, view, side, unit, list(enumerate(orders)))


def first_legal(context: Context, view: Mapping[str, Any], side: str, unit: str, fixed: Sequence[Order],
                choices: Iterable[Sequence[Order]]) -> list[Order] | None:
    """`fixed` plus the first of `choices` the ruleset accepts for the unit."""
    for choice in choices:
        trial = [*fixed, *choice]
        if legal(context, view, side, unit, trial):
            return trial
    return None


def nearest_enemies(stands: Sequence[Stand], mine: Sequence[Stand], side: str) -> list[str]:
    """Enemy units, closest first (edge to edge from any of `mine`, then id)."""
    return sorted({s.unit for s in stands if s.side != side},
                  key=lambda u: (min(plane.distance2(m.shape, e.shape) for m in mine for e in stands if e.unit == u), u))


def goal_for(context: Context, stands: Sequence[Stand], here: plane.Point, side: str) -> plane.Point:
    goals = [e.centre for e in stands if e.side != side]
    if not goals:
        return context.table.width // 2, context.table.depth // 2
    return min(goals, key=lambda p: (plane.dist2(here, p), p))


def attacks(unit: str, ids: Sequence[str], stands: Sequence[Stand], mine: Sequence[Stand], side: str,
            act: str = "fire") -> list[list[Order]]:
    """One fire order of these bases at each enemy unit, the nearest first."""
    return [[{"unit": unit, "act": act, "bases": list(ids), "target": target}]
            for target in nearest_enemies(stands, mine, side)]


def advance(context: Context, unit: str, ids: Sequence[str], stands: Sequence[Stand], side: str) -> list[Order]:
    here = next(s.centre for s in stands if s.id == ids[0])
    goal = goal_for(context, stands, here, side)
    if goal == here:
        return []
    return [{"unit": unit, "act": "move", "bases": list(ids), "toward": list(goal), "distance": "max",
             "face": list(goal)}]


def sustain_worthwhile(context: Context, hmg: Stand, stands: Sequence[Stand], side: str) -> bool:
    """W4: an enemy base in the HMG's arc and range, and no friend of another unit there (the
    sweep marks friends too)."""
    reach = context.tables.weapon(hmg.weapon).range
    arc = fire.arc_of(context.tables, hmg)
    covered = [s for s in stands if s.id != hmg.id and arc.touches(s.shape)
               and plane.distance2(hmg.shape, s.shape) <= reach * reach]
    return any(s.side != side for s in covered) and not any(s.side == side and s.unit != hmg.unit for s in covered)


def crew_choices(context: Context, view: Mapping[str, Any], side: str, unit: str, crews: Sequence[str],
                 stands: Sequence[Stand]) -> list[list[Order]]:
    """What the unit's HMGs may do on their own: fire, else sustained fire (W4); none of it when
    nothing is worth doing (they then resolve their markers with the unit, A1)."""
    hmgs = [s for s in stands if s.id in crews and s.weapon == "hmg"]
    if not hmgs:
        return [[]]
    ids = [s.id for s in hmgs]
    choices = attacks(unit, ids, stands, hmgs, side)
    if all(sustain_worthwhile(context, s, stands, side) for s in hmgs):
        choices.append([{"unit": unit, "act": "sustain", "bases": ids}])
    return [*choices, []]


def unit_orders(context: Context, view: Mapping[str, Any], side: str, unit: str, seed: bytes) -> list[Order]:
    """One unit's orders: a legal set, or hold."""
    fighting = set(contacts(context, dict(view)))
    bases = view["bases"]
    ids = [bid for bid in bases_of(view, unit) if bases[bid]["weapon"] != "mortar"]  # it fires when called (W6)
    busy = [bid for bid in ids if bid in fighting]
    ids = [bid for bid in ids if bid not in fighting]
    hurt = [bid for bid in ids if bases[bid]["status"] != "ok"]
    unloaded = [bid for bid in ids if bid not in hurt and bases[bid].get("unloaded")]
    crewed = set(context.tables.values["crewed_weapons"])
    crews = [bid for bid in ids if bid not in hurt and bid not in unloaded and bases[bid]["weapon"] in crewed]
    fit = [bid for bid in ids if bid not in hurt and bid not in unloaded and bid not in crews]
    orders: list[Order] = [{"unit": unit, "act": "fight", "bases": busy}] if busy else []
    if hurt:
        orders.append({"unit": unit, "act": "recover", "bases": hurt})
    if unloaded:
        orders.append({"unit": unit, "act": "set-up", "bases": unloaded})
    stands = context.stands(view)
    if fit or crews:
        mine = [s for s in stands if s.id in fit + crews]
        together = attacks(unit, fit + crews, stands, mine, side) if fit and crews else []
        found = first_legal(context, view, side, unit, orders, together)
        if found is None:
            infantry: list[list[Order]] = []
            if fit:
                infantry = attacks(unit, fit, stands, [s for s in mine if s.id in fit], side)
                infantry.append(advance(context, unit, fit, stands, side))
                if pick(seed, unit, 4) == 0:
                    infantry.append([{"unit": unit, "act": "hunker", "bases": fit}])
            found = first_legal(context, view, side, unit, orders, infantry) or orders
            found = first_legal(context, view, side, unit, found,
                                crew_choices(context, view, side, unit, crews, stands)) or found
        if found and legal(context, view, side, unit, found):
            return found
    if orders and legal(context, view, side, unit, orders):
        return orders
    return [{"unit": unit, "act": "hold"}]


def mortar_call(context: Context, view: Mapping[str, Any], side: str, leader: str) -> Order | None:
    """W6: a call of the leader's idle mortar on the nearest enemy base it reaches, seen by the
    leader, with no friend within FRIEND_CLEARANCE of it, aimed at the point where it stands:
    one H.E. bomb (the leader calls again at its next card)."""
    own = bases_of(view, leader)
    bases = view["bases"]
    if len(own) != 1 or bases[own[0]]["status"] == "suppressed":
        return None
    company = context.company(leader)
    guns = [bid for bid, e in sorted(bases.items()) if e["weapon"] == "mortar" and e["unit"] in company
            and bid not in view.get("mortars", {}) and e["status"] != "suppressed"]
    stands = context.stands(view)
    eye = context.stand(own[0], bases[own[0]])
    friends = [s for s in stands if s.side == side]
    low, high = context.tables.number("mortar_min_range"), context.tables.number("mortar_max_range")
    for gun in guns:
        at = context.stand(gun, bases[gun]).centre
        aims = sorted((plane.dist2(at, s.centre), s.id) for s in stands if s.side != side
                      and low * low <= plane.dist2(at, s.centre) <= high * high
                      and all(plane.dist2(s.centre, f.centre) > FRIEND_CLEARANCE ** 2 for f in friends))
        for _, target in aims:
            if seen(context, eye.base, view, target):
                # aimed at the place, not the base: an order aimed at a base lapses when the mortar loses sight of it
                call: Order = {"unit": leader, "act": "call-mortar", "mortar": gun, "aim": list(bases[target]["at"]),
                               "rounds": ["he"]}
                if legal(context, view, side, leader, [call]):
                    return call
    return None


def lead_orders(context: Context, view: Mapping[str, Any], side: str, leader: str, card: str) -> Order | None:
    """L1: the bases in the leader's command, of units not yet activated, led to fire at the
    nearest enemy unit they all may fire at, else to move toward the enemy with the leader."""
    if leader in view.get("led", []):
        return None
    bases = view["bases"]
    fighting = set(contacts(context, dict(view)))
    own = bases_of(view, leader)
    led = [bid for bid in sorted(commanded(context, view, leader)) if bid not in own and bid not in fighting
           and bases[bid]["unit"] not in view["activated"] and bases[bid]["status"] == "ok"
           and bases[bid]["weapon"] != "mortar" and not bases[bid].get("unloaded")]
    if not led:
        return None
    stands = context.stands(view)
    mine = [s for s in stands if s.id in led]
    choices = [{"unit": leader, "act": "lead", "do": "fire", "bases": led, "target": order["target"]}
               for [order] in attacks(leader, led, stands, mine, side)]
    movers = led + [bid for bid in own if bid not in fighting and bases[bid]["status"] == "ok"]
    choices += [{"unit": leader, "act": "lead", "do": "move", **{k: v for k, v in order.items() if k not in ("unit", "act")}}
                for order in advance(context, leader, movers, stands, side)]
    for order in choices:
        if not check_activation(context, view, side, leader, [(0, {**order, "card": card})], context.second(card)):
            return {**order, "card": card}
    return None


def join_platoon(context: Context, view: Mapping[str, Any], side: str, leader: str) -> list[Order] | None:
    """A leader out of contact with every base of its platoon moves next to the nearest one."""
    own = bases_of(view, leader)
    if len(own) != 1 or view["bases"][own[0]]["status"] != "ok":
        return None
    stands = context.stands(view)
    me = next(s for s in stands if s.id == own[0])
    platoon = [s for s in stands if s.unit in context.company(leader) and s.unit != leader]
    if not platoon or any(b.id in commanded(context, view, leader) for b in platoon):
        return None
    nearest = min(platoon, key=lambda s: (plane.dist2(me.centre, s.centre), s.id))
    gap = isqrt(plane.dist2(me.centre, nearest.centre)) - context.tables.number("base_size") - 10
    if gap <= 0:
        return None
    if gap > context.tables.number("move"):
        move: Order = {"unit": leader, "act": "move", "toward": list(nearest.centre), "distance": "max"}
    else:
        move = {"unit": leader, "act": "move", "to": list(plane.point_along_path([me.centre, nearest.centre], gap))}
    return [move] if legal(context, view, side, leader, [move]) else None


def leader_orders(context: Context, view: Mapping[str, Any], side: str, leader: str, seed: bytes) -> list[Order]:
    """A platoon leader's own activation (its first card): call the mortar, else join the platoon,
    else as any unit."""
    call = mortar_call(context, view, side, leader)
    if call is not None:
        return [call]
    return join_platoon(context, view, side, leader) or unit_orders(context, view, side, leader, seed)


def activation(context: Context, view: Mapping[str, Any], side: str, seed: bytes) -> list[Order]:
    """The orders for the drawn card's unit."""
    card = view["card"]
    active = context.cards[card]
    if context.units[active].leads:
        if context.second(card):
            return [lead_orders(context, view, side, active, card) or {"unit": active, "act": "hold"}]
        chosen = mortar_call(context, view, side, active) or lead_orders(context, view, side, active, card)
        if chosen is not None:
            return [chosen]
        return join_platoon(context, view, side, active) or unit_orders(context, view, side, active, seed)
    return unit_orders(context, view, side, active, seed)


def bot_orders(context: Context, view: Mapping[str, Any], side: str, seed: bytes) -> list[Any]:
    """The activation of the drawn card's unit, then a queue for the side's other units."""
    if view.get("awaiting") != side or not view.get("card"):
        return []
    active = context.cards[view["card"]]
    orders = activation(context, view, side, seed)
    if validate(context, view, side, orders):
        orders = [{"unit": active, "act": "hold"}]
    for unit in sorted(context.units):
        if context.side_of(unit) != side or not bases_of(view, unit):
            continue
        meta = context.units[unit]
        if meta.card2:  # a platoon leader: its own orders for its first card, hold on its second
            queued = [{**order, "card": meta.card} for order in leader_orders(context, view, side, unit, seed)] + [
                {"unit": unit, "act": "hold", "card": meta.card2}]
        else:
            queued = unit_orders(context, view, side, unit, seed)
        if unit == active:
            queued = [{**order, "queued": True} for order in queued]
        if not validate(context, view, side, orders + queued):
            orders += queued
    return orders
