"""Bots (A1): legal orders for the drawn card from the side's own view, with a queue.

For each unit: its bases in close combat fight it out; recover the pinned and suppressed
bases; the others fire at the nearest
enemy unit they all may fire at, else move toward the nearest enemy base (or the table's
centre), else hold. The bot queues the same kind of orders for all its other units (a unit
that already activated may come up again after a Joker),
so that consecutive cards of its side need no extra mail.
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping

from pbem.geometry import plane

from .context import Context
from .melee import contacts
from .orders import bases_of, check_unit, validate


def pick(seed: bytes, label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:8], "big") % n


def unit_orders(context: Context, view: Mapping[str, Any], side: str, unit: str, seed: bytes) -> list[dict[str, Any]]:
    """One unit's orders: a legal set, or hold."""
    fighting = set(contacts(context, dict(view)))
    ids = bases_of(view, unit)
    busy = [bid for bid in ids if bid in fighting]
    ids = [bid for bid in ids if bid not in fighting]
    hurt = [bid for bid in ids if view["bases"][bid]["status"] != "ok"]
    fit = [bid for bid in ids if bid not in hurt]
    orders: list[dict[str, Any]] = [{"unit": unit, "act": "fight", "bases": busy}] if busy else []
    if hurt:
        orders.append({"unit": unit, "act": "recover", "bases": hurt})
    if fit:
        stands = context.stands(view)
        mine = [s for s in stands if s.id in fit]
        enemies = sorted({s.unit for s in stands if s.side != side},
                         key=lambda u: (min(plane.distance2(m.shape, e.shape) for m in mine for e in stands
                                            if e.unit == u), u))
        for target in enemies:
            trial = orders + [{"unit": unit, "act": "fire", "bases": fit, "target": target}]
            if not check_unit(context, view, side, unit, list(enumerate(trial))):
                return trial
        goals = [e.centre for e in stands if e.side != side]
        here = mine[0].centre
        goal = min(goals, key=lambda p: (plane.dist2(here, p), p)) if goals else (
            context.table.width // 2, context.table.depth // 2)
        if goal != here:
            trial = orders + [{"unit": unit, "act": "move", "bases": fit, "toward": list(goal),
                               "distance": "max", "face": list(goal)}]
            if not check_unit(context, view, side, unit, list(enumerate(trial))):
                return trial
        if pick(seed, unit, 4) == 0:
            trial = orders + [{"unit": unit, "act": "hunker", "bases": fit}]
            if not check_unit(context, view, side, unit, list(enumerate(trial))):
                return trial
    if orders and not check_unit(context, view, side, unit, list(enumerate(orders))):
        return orders
    return [{"unit": unit, "act": "hold"}]


def bot_orders(context: Context, view: Mapping[str, Any], side: str, seed: bytes) -> list[Any]:
    """The activation of the drawn card's unit, then a queue for the side's other units."""
    if view.get("awaiting") != side or not view.get("card"):
        return []
    active = context.cards[view["card"]]
    if context.second(view["card"]):
        orders: list[dict[str, Any]] = [{"unit": active, "act": "hold"}]  # the bots never lead (L1)
    else:
        orders = unit_orders(context, view, side, active, seed)
    for unit in sorted(context.units):
        if context.side_of(unit) != side or not bases_of(view, unit):
            continue
        meta = context.units[unit]
        queued = unit_orders(context, view, side, unit, seed)
        if meta.card2:  # a platoon leader: its own orders for its first card, hold on its second
            queued = [{**order, "card": meta.card} for order in queued] + [
                {"unit": unit, "act": "hold", "card": meta.card2}]
        if unit == active:
            queued = [{**order, "queued": True} for order in queued]
        if not validate(context, view, side, orders + queued):
            orders += queued
    return orders
