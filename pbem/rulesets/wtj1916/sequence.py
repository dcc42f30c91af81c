"""The turn (assumed frame F1, docs/wtj1916.md): the moving side's move phase, then a fire phase.

Turn 1 is the scenario's `first` side's; the sides then alternate. In `<side>-move` that side
moves (F2) while the other side's standing passing fire orders (standing answer `pass_fire`)
fire at its movers (3.7); then both sides fire in `fire`.
Fire is not simultaneous: the text has losses thin a unit and its fire within a fire phase
(3.3), so the orders of the two sides are taken in turn, one each, the moving side's first, and
each is judged on the state as it then stands. At the end of the turn the turn's flags clear.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.ruleset import State, Submission, standing_answer

from . import fire, movement
from .board import board
from .context import SIDES, Context, other
from .spotting import sees_unit, seen_units


def orders_of(submissions: Mapping[str, Submission | None], side: str) -> list[Any]:
    found = submissions.get(side)
    return list(found.orders) if found is not None else []


def resolve_move(context: Context, state: State, side: str, submissions: Mapping[str, Submission | None],
                 dice: Dice, events: list[dict[str, Any]]) -> None:
    enemy = other(side)
    moves = orders_of(submissions, side)
    passing = passing_orders(context, state, enemy)
    used: set[int] = set()
    for order in moves:
        if state["units"][movement.unit_of(order)]["status"] != "active":
            continue  # its last base went to resurrect a machine gun (3.3) earlier in this phase
        uid, length = movement.resolve_move(context, state, side, order, events)
        if state["units"][uid]["status"] == "active" and eligible(context, state, uid, length):
            pass_fire(context, state, enemy, uid, passing, used, dice, events)
    for uid, unit in state["units"].items():
        if unit["side"] == side:
            unit["bound"] = False
            if not unit["moved"]:  # 3.5 rushing: only the last move phase counts
                for base in state["bases"].values():
                    if base["unit"] == uid:
                        base["rushed"] = False
    state["phase"] = "fire"


def passing_orders(context: Context, state: State, side: str) -> list[dict[str, Any]]:
    """3.7: the side's standing passing fire orders (standing answer `pass_fire`, default machine-guns)."""
    given = standing_answer(state, side, "pass_fire", "machine-guns")
    if isinstance(given, dict):
        return [{"pass_fire": str(target), "unit": uid} for uid, target in sorted(given.items())
                if uid in state["units"] and state["units"][uid]["side"] == side]
    chosen = []
    for uid, unit in sorted(state["units"].items()):
        kind = context.type_of(unit)
        if unit["side"] != side or unit["status"] != "active" or not kind.weapons:
            continue
        if given == "all" or (given == "machine-guns" and kind.cls == "machine-gun"):
            chosen.append({"pass_fire": "any", "unit": uid})
    return chosen


def eligible(context: Context, state: State, uid: str, length: int) -> bool:
    """3.7: a vehicle that moved more than 120 yards, or personnel more than 20 yards not crouching in a trench."""
    kind = context.type_of(state["units"][uid])
    limits = context.tables["distances"]
    if kind.vehicle:
        return length > int(limits["passing_vehicle"])
    crouching = all(b["crouching"] for b in state["bases"].values() if b["unit"] == uid)
    return length > int(limits["passing_infantry"]) and not crouching


def pass_fire(context: Context, state: State, side: str, mover: str, orders: list[Any], used: set[int],
              dice: Dice, events: list[dict[str, Any]]) -> None:
    if not sees_unit(context, state, side, mover):
        return
    seen = seen_units(context, state, side)  # what the side sees as the mover stops
    for index, order in enumerate(orders):
        if index in used or order["pass_fire"] not in ("any", mover):
            continue
        known = board(state, side, seen)  # again for each fire: the losses of the last one count (3.3)
        if order["unit"] not in known["units"]:
            continue
        if fire.check_fire(context, known, side, {**order, "pass_fire": mover}, index, other(side), passing=True):
            continue
        start = len(events)
        if fire.resolve_fire(context, state, known, side, order, dice, other(side), events, target=mover,
                             passing=True):
            mark_firers_seen(context, state, events, start)
            used.add(index)
            state["units"][order["unit"]]["marked"] = True
        if state["units"][mover]["status"] != "active":
            return


def resolve_fire_phase(context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                       events: list[dict[str, Any]]) -> None:
    phasing = context.phasing(state["turn"])
    seen = {side: seen_units(context, state, side) for side in SIDES}
    queues = {side: orders_of(submissions, side) for side in SIDES}
    order_of_sides = [phasing, other(phasing)]
    for step in range(max(len(q) for q in queues.values())):
        for side in order_of_sides:
            if step >= len(queues[side]):
                continue
            start = len(events)
            one(context, state, board(state, side, seen[side]), side, queues[side][step], dice, phasing, events)
            mark_firers_seen(context, state, events, start)
    end_turn(context, state)


def one(context: Context, state: State, known: State, side: str, order: Mapping[str, Any], dice: Dice,
        phasing: str, events: list[dict[str, Any]]) -> None:
    if "fire" in order:
        fire.resolve_fire(context, state, known, side, order, dice, phasing, events)
    elif "flame" in order:
        fire.resolve_flame(context, state, known, side, order, dice, events)
    elif "unjam" in order:
        fire.resolve_unjam(state, side, order, dice, events)
    elif "air_strike" in order:
        fire.resolve_air(context, state, known, side, order, dice, events)


def mark_firers_seen(context: Context, state: State, events: list[dict[str, Any]], start: int) -> None:
    """Fog (3.4): whether the target's side sees each firer as it fires (spotted by its firing), so
    a unit killed later in the phase is still named to the side that saw it fire."""
    for event in events[start:]:
        if event["type"] in ("fire", "artillery", "flame"):
            enemy = other(event["side"])
            event["unseen_by"] = [] if sees_unit(context, state, enemy, event["unit"]) else [enemy]


def end_turn(context: Context, state: State) -> None:
    for unit in state["units"].values():
        unit["moved"] = False
        unit["marked"] = False
        unit["fired"] = []
    for base in state["bases"].values():
        base["crouching"] = False
    state["turn"] += 1
    state["phase"] = f"{context.phasing(state['turn'])}-move"
