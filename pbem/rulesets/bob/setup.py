"""The set-up (18.0, 14.0, 15.0): both sides at once place their units, conceal markers and foxholes.

Each side may move any of its units within its set-up area (a unit left out keeps the
scenario's hex), put a conceal marker on a unit whose hex gives a positive fire modifier
(decoys always start concealed, so they too stand in such terrain), and place its foxholes in non-building hexes of its area.
Markers are numbered per side by hex (`number_markers`); within a hex, in an order a shuffle
shown to the owner alone decides, so a marker's number says nothing the other side could not see
already (where the markers stand), whatever the orders list or leave out. Reinforcements wait
off the map.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import State

from .context import SIDES, Context
from .terrain import bank_of, own_cover
from .state import marker_name


def in_cover(ctx: Context, hex_id: str, foxholes: set[str]) -> bool:
    """15.0: the hex gives a unit in it a positive fire modifier (its terrain, a foxhole, a hedgerow side)."""
    return hex_id in foxholes or own_cover(ctx, hex_id) > 0 or \
        bool(ctx.hedgerow_sides(hex_id))


def validate(ctx: Context, side: str, orders: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    area = set(ctx.setup_area(side))
    placed: dict[str, str] = {uid: u.hex for uid, u in ctx.units.items() if u.side == side and u.hex is not None}
    foxholes = [o["foxhole"] for o in orders if "foxhole" in o]
    seen: set[str] = set()
    for index, order in enumerate(orders):
        if "foxhole" in order:
            hex_id = order["foxhole"]
            if hex_id not in area or ctx.building(hex_id):
                problems.append(Problem(f"a foxhole goes in a non-building hex of your set-up area, not {hex_id}",
                                        order=index, path=("foxhole",), section="14.0"))
            continue
        uid = order["place"]
        if uid not in placed or uid in seen:
            problems.append(Problem(f"{uid} is not one of your units set up on the map, or is placed twice",
                                    order=index, path=("place",), section="18.0", legal=", ".join(sorted(placed))))
            continue
        seen.add(uid)
        if "facing" in order and not ctx.units[uid].type.heavy:
            problems.append(Problem(f"{uid} has no facing: only guns and vehicles face a hex spine", order=index,
                                    path=("facing",), section="V4"))
        if order["hex"] not in area:
            problems.append(Problem(f"{order['hex']} is not in your set-up area", order=index, path=("hex",),
                                    section="18.0", legal=f"the {side}-setup hexes of the map"))
        placed[uid] = order["hex"]
    if len(foxholes) > ctx.card.foxholes[side] or len(set(foxholes)) != len(foxholes):
        problems.append(Problem(f"{len(foxholes)} foxholes; you have {ctx.card.foxholes[side]}, one per hex",
                                section="14.0"))
    for index, order in enumerate(orders):
        if "place" in order and (order.get("concealed") or ctx.units[order["place"]].decoy) and \
                not in_cover(ctx, order["hex"], set(foxholes)):
            problems.append(Problem(f"a conceal marker needs terrain with a positive fire modifier; {order['hex']} "
                                    "has none", order=index, path=("concealed",), section="15.0"))
    return problems + stacking_problems(ctx, placed)


def stacking_problems(ctx: Context, placed: Mapping[str, str]) -> list[Problem]:
    """2.0 and V10: two squads or weapon teams (a gun counts as one) a hex, one gun, one vehicle."""
    problems: list[Problem] = []
    limits = (("infantry", "2.0", int(ctx.tables["stacking"])), ("gun", "V10", int(ctx.tables["guns_per_hex"])),
              ("vehicle", "V10", int(ctx.tables["vehicles_per_hex"])))
    for what, section, limit in limits:
        stacks: dict[str, int] = {}
        for uid, hex_id in placed.items():
            kind = ctx.units[uid].type.kind
            if (what == "infantry" and kind != "vehicle") or kind == what:
                stacks[hex_id] = stacks.get(hex_id, 0) + 1
        for hex_id, count in sorted(stacks.items()):
            if count > limit:
                problems.append(Problem(f"{hex_id} would hold {count} of your units" +
                                        ("" if what == "infantry" else f" that are {what}s"), section=section,
                                        legal=f"at most {limit}"))
    return problems


def resolve(ctx: Context, state: State, orders: Mapping[str, list[dict[str, Any]]], dice: Dice,
            events: list[dict[str, Any]]) -> None:
    for side in SIDES:
        given = {o["place"]: o for o in orders.get(side, []) if "place" in o}
        units = [uid for uid, u in ctx.units.items() if u.side == side]
        for uid in units:
            unit = state["units"][uid]
            scenario = ctx.units[uid]
            if scenario.hex is None:
                unit.update(status="waiting", hex=None)
                continue
            order = given.get(uid, {})
            unit.update(status="active", hex=order.get("hex", scenario.hex))
            if "facing" in order and "facing" in unit:
                unit["facing"] = int(order["facing"])  # V4
            unit["concealed"] = bool(order.get("concealed", scenario.concealed)) or scenario.decoy
            if ctx.dike(unit["hex"]) and order.get("bank"):
                unit["bank"] = bank_of(ctx, unit["hex"], order["bank"])
        for hole in orders.get(side, []):
            if "foxhole" in hole:
                state["foxholes"].append(hole["foxhole"])
        number_markers(state, side, [uid for uid in units if state["units"][uid]["concealed"]], dice)
        events.append({"type": "setup", "side": side, "section": "18.0",
                       "units": {uid: state["units"][uid]["hex"] for uid in units if state["units"][uid]["hex"]}})
    state["foxholes"] = sorted(set(state["foxholes"]))


def number_markers(state: State, side: str, concealed: list[str], dice: Dice) -> None:
    """15.0: number `side`'s set-up markers hex by hex; a stack's markers in a restricted shuffle's order.

    The other side sees each marker's hex, so numbering by hex tells it nothing. Within a hex any
    rule it could predict (the orders' listing, unit ids) would let it follow a decoy left where the
    public scenario puts it; the shuffle's rolls go to the owner only, and their number (one fewer
    than the hex's markers) is public anyway.
    """
    stacks: dict[str, list[str]] = {}
    for uid in sorted(concealed):
        stacks.setdefault(state["units"][uid]["hex"], []).append(uid)
    for hex_id, stack in sorted(stacks.items()):
        for uid in dice.shuffle(stack, f"15.0 the order of the markers in {hex_id}", seen_by=[side]):
            state["units"][uid]["marker"] = marker_name(side, state["markers"][side])
            state["markers"][side] += 1
