"""Orders of an activation (A1, A2, M1-M3, F2-F9, H1, R2) and their check from a side's view.

One orders file answers one drawn card. Each order names a unit of the sender and an action
for some of its bases (all of them when `bases` is left out):

    {unit: g1, act: hold}                                    # A1, A2: the card is discarded
    {unit: g1, act: hunker, bases: [g1a]}                    # H1
    {unit: g1, act: recover, bases: [g1b]}                   # R2
    {unit: g1, act: fire, target: u2, face: 20}              # F1-F9, pooled (F8); face: a pivot (F2)
    {unit: g1, act: move, toward: [900, 620], distance: max} # M1-M3, positions as in kit.positions
    {unit: g1, act: move-fire, target: u2, to: [500, 400]}   # F6: fire first, then move 10 cm

Orders for the unit of the drawn card are its activation. Orders for other units of the same
side, and orders marked `queued: true` (the drawn card's unit after a Joker), are queued: used, in the same adjudication, if those units' cards come up before any
card of the other side (docs/bst.md, "One exchange per activation"); otherwise dropped unseen.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.core.errors import Problem
from pbem.geometry import plane
from pbem.rulesets.kit import positions

from . import fire
from .command import move_problems
from .context import Context
from .movement import allowance, penalty
from .sight import sees
from .stands import Stand, in_contact

ACTS = ("hold", "hunker", "recover", "fire", "move", "move-fire")
MOVES = ("move", "move-fire")
FIRES = ("fire", "move-fire")
ACT_SECTION = {"hold": "A1", "hunker": "H1", "recover": "R2", "fire": "F1", "move": "M1", "move-fire": "F6"}

ORDER_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["unit", "act"],
    "properties": {
        "unit": {"type": "string", "description": "one of your units"},
        "act": {"enum": list(ACTS)},
        "bases": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4, "uniqueItems": True,
                  "description": "the bases that take this action (default: all the unit's bases)"},
        "target": {"type": "string", "description": "the enemy unit fired at (F4)"},
        "queued": {"type": "boolean", "description": "for this unit's next card, not the one drawn now (A1)"},
        **{key: positions.move_schema()["properties"][key] for key in positions.MOVE_KEYS},
    },
}


def order_schema() -> dict[str, Any]:
    return {"type": "array", "items": ORDER_SCHEMA, "minItems": 1, "maxItems": 40}


def order_kinds() -> list[str]:
    return ["{unit: U, act: hold}  the card is discarded, the unit may still act on opportunity (A1, A2)",
            "{unit: U, act: hunker|recover, bases: [B, ...]}  (H1, R2)",
            "{unit: U, act: fire, target: ENEMY-UNIT, face: DEG}  bases in one order pool their fire (F8)",
            "{unit: U, act: move, to|path|toward: ..., distance: N|max, face: DEG|[x, y]}  15 cm (M3)",
            "{unit: U, act: move-fire, target: ENEMY-UNIT, to|path|toward: ...}  fire, then 10 cm (F6)",
            "orders for your other units (or with queued: true) wait for their cards, if they come before the enemy's"]


def bases_of(state: Mapping[str, Any], unit: str) -> list[str]:
    return sorted(bid for bid, entry in state["bases"].items() if entry["unit"] == unit)


def named(state: Mapping[str, Any], order: Mapping[str, Any]) -> list[str]:
    """The bases an order names (all the unit's bases by default), in order."""
    return list(order.get("bases") or bases_of(state, order["unit"]))


def plan(context: Context, state: Mapping[str, Any], order: Mapping[str, Any], index: int, movers: Sequence[str],
         obstacles: Sequence[tuple[str, plane.Shape]] = ()) -> tuple[positions.Movement | None, list[Problem]]:
    """M1, M3: the move of `movers` by the order's positions clause."""
    bases = {bid: context.stand(bid, state["bases"][bid]).base for bid in movers}
    clause = {key: order[key] for key in positions.MOVE_KEYS if key in order}
    board = positions.Table(context.table.width, context.table.depth, context.table.unit, "M3")
    weapon = state["bases"][movers[0]]["weapon"]
    return positions.plan_move(clause, bases, movers[0], allowance(context.tables, order["act"], weapon), board,
                               obstacles=obstacles, reach=context.tables.number("contact"),
                               penalty=lambda path: penalty(context.table, path), order=index)


def heading_of(movement: positions.Movement | None) -> int | None:
    """F6: the direction of movement, the bearing of the move's first leg."""
    if movement is None or len(movement.path) < 2:
        return None
    return plane.bearing(movement.path[0], movement.path[1])


def firers_of(context: Context, state: Mapping[str, Any], order: Mapping[str, Any], ids: Sequence[str]) -> list[Stand]:
    """The firing bases, turned by the order's pivot (F2) when it fires standing."""
    out = [context.stand(bid, state["bases"][bid]) for bid in ids]
    face = order.get("face")
    if order["act"] == "fire" and isinstance(face, int):
        out = [fire.pivoted(context.tables, s, face) or s for s in out]
    return out


def check_unit(context: Context, state: Mapping[str, Any], side: str, unit: str,
               items: Sequence[tuple[int, Mapping[str, Any]]]) -> list[Problem]:
    """Every problem of one unit's orders, judged on `state` (a side's view, or the referee's
    state when a queued order comes up)."""
    problems: list[Problem] = []
    own = bases_of(state, unit)
    if any(order["act"] == "hold" for _, order in items) and len(items) > 1:
        problems.append(Problem(f"{unit} holds, so it may take no other action", order=items[0][0], section="A2",
                                legal="hold alone, or actions without hold"))
    if sum(1 for _, order in items if order["act"] in MOVES) > 1:
        problems.append(Problem(f"{unit} has more than one move order", order=items[-1][0], section="M1",
                                legal="one move order per activation; the bases that move together go in it"))
    taken: dict[str, int] = {}
    stands = context.stands(state)
    fire_groups: list[tuple[int, str, list[str]]] = []
    for index, order in items:
        act = order["act"]
        ids = named(state, order)
        for bid in ids:
            if bid not in own:
                problems.append(Problem(f"{bid} is not a base of {unit} on the table", order=index, path=("bases",),
                                        section="D2", legal=", ".join(own) or "none"))
            elif bid in taken:
                problems.append(Problem(f"{bid} already has an action in order {taken[bid]}", order=index,
                                        path=("bases",), section="A1", legal="one action per base"))
            else:
                taken[bid] = index
        ids = [bid for bid in ids if bid in own]
        if not ids or act == "hold":
            continue
        moving_keys = [key for key in positions.MOVE_KEYS if key in order and key != "face"]
        if act in MOVES and not moving_keys:
            problems.append(Problem(f"a {act} order needs to, path or toward", order=index, section="M1",
                                    legal="to: [x, y], path: [[x, y], ...] or toward: [x, y]"))
            continue
        if act not in MOVES and moving_keys:
            problems.append(Problem(f"a {act} order does not move", order=index, path=(moving_keys[0],),
                                    section=ACT_SECTION[act], legal="act: move or move-fire to move"))
            continue
        if act in FIRES and "target" not in order:
            problems.append(Problem(f"a {act} order names its target unit", order=index, section="F4",
                                    legal="target: an enemy unit"))
            continue
        if act not in FIRES and "target" in order:
            problems.append(Problem(f"a {act} order fires at nothing", order=index, path=("target",),
                                    section=ACT_SECTION[act], legal="act: fire or move-fire to fire"))
            continue
        status = {bid: state["bases"][bid]["status"] for bid in ids}
        if act == "recover":
            problems += [Problem(f"{bid} has no pin or suppress to recover from", order=index, path=("bases",),
                                 section="R2", legal="a pinned or suppressed base") for bid in ids if status[bid] == "ok"]
        if act in MOVES:
            problems += [Problem(f"{bid} is {status[bid]} and may not move", order=index, path=("bases",),
                                 section="R1", legal="recover first") for bid in ids if status[bid] != "ok"]
        if act == "fire":
            problems += [Problem(f"{bid} is suppressed and may not fire", order=index, path=("bases",),
                                 section="R1", legal="recover first") for bid in ids if status[bid] == "suppressed"]
        movement = None
        if act in MOVES:
            movement, found = plan(context, state, order, index, ids)
            problems += found
            if movement is not None:
                problems += command_problems(context, state, unit, ids, movement, index)
        elif isinstance(order.get("face"), int):
            for s in firers_of(context, state, {**order, "face": None}, ids):
                if fire.pivoted(context.tables, s, order["face"]) is None:
                    problems.append(Problem(f"{s.id} would turn more than 45 degrees", order=index, path=("face",),
                                            section="F2", legal="a pivot of 45 degrees or less; more is a move"))
        if act in FIRES:
            problems += check_fire(context, state, side, order, index, ids, stands, heading_of(movement))
            fire_groups.append((index, order["target"], ids))
    for i, (index, target, ids) in enumerate(fire_groups):
        for other_index, other_target, other_ids in fire_groups[:i]:
            touching = any(in_contact(context.stand(a, state["bases"][a]), context.stand(b, state["bases"][b]),
                                      context.tables.number("contact")) for a in ids for b in other_ids)
            if touching:
                problems.append(Problem(f"bases in contact fire in orders {other_index} and {index}", order=index,
                                        section="F8", legal="bases in contact fire together, in one order, at one target"))
    return problems


def command_problems(context: Context, state: Mapping[str, Any], unit: str, ids: Sequence[str],
                     movement: positions.Movement, index: int) -> list[Problem]:
    """M1, M2 for a planned move."""
    before = {bid: context.stand(bid, state["bases"][bid]) for bid in bases_of(state, unit)}
    after = dict(before)
    for bid, base in movement.bases.items():
        s = before[bid]
        after[bid] = Stand(s.id, s.side, s.unit, s.weapon, base, s.kills)
    meta = context.units[unit]
    found = move_problems(meta.command, meta.leader, before, after, ids, context.tables.number("contact"),
                          lambda a, b: sees(context.table, a.base, b.base))
    return [Problem(message, order=index, section=section, legal="a move that keeps the unit's command type")
            for section, message in found]


def check_fire(context: Context, state: Mapping[str, Any], side: str, order: Mapping[str, Any], index: int,
               ids: Sequence[str], stands: Sequence[Stand], heading: int | None) -> list[Problem]:
    """F2-F9: the target unit, and each firing base against the first target."""
    target = order["target"]
    enemies = [s for s in stands if s.unit == target]
    if target not in context.units or context.side_of(target) == side or not enemies:
        able = sorted({s.unit for s in stands if s.side != side})
        return [Problem(f"{target} is not an enemy unit on the table", order=index, path=("target",), section="F4",
                        legal=", ".join(able) or "none")]
    firers = firers_of(context, state, order, ids)
    first = fire.first_target(firers, enemies)
    found = []
    for firer in firers:
        refused = fire.refusal(context.table, context.tables, firer, first, stands, heading=heading)
        if refused is not None:
            found.append(Problem(f"{refused.message} (the first target of {target} is {first.id})", order=index,
                                 path=("target",), section=refused.section, legal=refused.legal))
    return found


def validate(context: Context, view: Mapping[str, Any], side: str, orders: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """A1: the orders answer the drawn card, with queued orders for other units."""
    if view.get("awaiting") != side or not view.get("card"):
        return [Problem(f"no card of {side} is waiting for orders", section="A1",
                        legal=f"wait for a card of {side}")]
    active = context.cards[view["card"]]
    problems: list[Problem] = []
    by_unit: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    own = sorted(uid for uid, u in context.units.items() if u.side == side and bases_of(view, uid))
    for index, order in enumerate(orders):
        unit = order["unit"]
        if unit not in own:
            problems.append(Problem(f"{unit} is not a {side} unit with bases on the table", order=index,
                                    path=("unit",), section="A1", legal=", ".join(own)))
            continue
        key = f"{unit} queued" if order.get("queued") and unit == active else unit
        by_unit.setdefault(key, []).append((index, order))
    if active not in by_unit:
        problems.append(Problem(f"card {view['card']} activates {active}, and no order is for it", section="A1",
                                legal=f"orders for {active} (act: hold to hold it)"))
    for key, items in sorted(by_unit.items()):
        problems += check_unit(context, view, side, key.split()[0], items)
    return problems
