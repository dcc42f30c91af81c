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
side, orders marked `queued: true` (the drawn card's unit after a Joker) and orders naming
another `card` of the unit (a platoon leader's other card, L1) are queued: used, in the same adjudication, if those units' cards come up before any
card of the other side (docs/bst.md, "One exchange per activation"); otherwise dropped unseen.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from pbem.core.errors import Problem
from pbem.geometry import plane
from pbem.rulesets.kit import positions

from . import fire, split
from .command import connected, move_problems
from .context import Context
from .leaders import commanded
from .movement import allowance, penalty
from .flamer import reaches as flamer_reaches
from .sight import blocker, section_of, sees
from .stands import Stand, in_contact
from .vehicles import convoy_problems
from .extras import EXTRA

ACTS = ("hold", "hunker", "recover", "fire", "move", "move-fire", "lead", "fight", "retire", "set-up", "sustain",
        "call-mortar")
LED = ("hunker", "recover", "fire", "move", "move-fire", "fight", "retire", "set-up", "sustain")
MOVES = ("move", "move-fire")
CREW_RIFLES = "crew-rifles"  # W1: Table 2's row for a crew's own rifles
FIRES = ("fire", "move-fire")
NEXT = "next"  # A1: the key word of the drawn unit's own queued orders, for its first card after a Joker
ACT_SECTION = {"call-mortar": "W6", "sustain": "W4", "set-up": "W3", "fight": "C3", "retire": "C7", "lead": "L1", "hold": "A1", "hunker": "H1", "recover": "R2", "fire": "F1", "move": "M1", "move-fire": "F6"}

ORDER_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["unit", "act"],
    "properties": {
        "unit": {"type": "string", "description": "one of your units"},
        "act": {"enum": list(ACTS)},
        "bases": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 40, "uniqueItems": True,
                  "description": "the bases that take this action (default: all the unit's bases; a lead names bases of several units)"},
        "target": {"type": "string", "description": "the enemy unit fired at (F4)"},
        "mortar": {"type": "string", "description": "W6: the mortar base a leader calls"},
        "aim": {"oneOf": [{"type": "string", "description": "an enemy base"}, positions.POINT_SCHEMA],
                "description": "W6: where the mortar aims: an enemy base, or a point"},
        "rounds": {"type": "array", "items": {"enum": ["he", "smoke", "flare"]}, "minItems": 1, "maxItems": 10,
                   "description": "W6: the bombs, in order"},
        "do": {"enum": list(LED), "description": "L1: the one action of the bases a platoon leader leads"},
        "card": {"type": "string", "description": "A1: the card of the unit this order answers (a platoon leader has two)"},
        "queued": {"type": "boolean", "description": "for this unit's next card, not the one drawn now (A1)"},
        "arms": {"enum": ["rifles"], "description": "W1: a crew fires its own rifles (one die less), not its weapon"},
        "split": {"enum": ["go", "stay"],
                  "description": "O3: when a hit stops a base of the group, the others go on (default) or stay with it"},
        "buttoned": {"type": "boolean", "description": "V1: a tank closes (true) or opens (false) its hatches"},
        "convoy": {"type": "boolean",
                   "description": "V3: this tank activates now, in convoy with the drawn tank (its own card is spent)"},
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
            "{unit: LEADER, act: lead, do: ACT, bases: [B, ...], ...}  a platoon leader leads its bases (L1)",
            "{unit: U, act: fight|retire, bases: [B, ...]}  bases in close combat fight it out, then stay or retire (C3, C7)",
            "{unit: U, act: set-up, bases: [B, ...]}  an unloaded crewed weapon gets ready to fire (W3)",
            "{unit: U, act: sustain, bases: [B, ...]}  an HMG sweeps its arc until it next activates (W4)",
            "{unit: LEADER, act: call-mortar, mortar: B, aim: BASE|[x, y], rounds: [he|smoke|flare, ...]}  (W6)",
            "{unit: TANK, act: ..., buttoned: true|false}  a tank closes or opens its hatches first (V1)",
            "{unit: TANK, act: ..., convoy: true}  another tank on the road activates with the drawn one (V3)",
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
    first = state["bases"][movers[0]]
    reach = allowance(context.tables, order["act"], first["weapon"], first.get("vehicle"))
    return positions.plan_move(clause, bases, movers[0], reach, board,
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
    if "buttoned" in order:  # V1: the hatches change before the tank fires
        out = [dataclasses.replace(s, buttoned=bool(order["buttoned"])) if s.vehicle else s for s in out]
    if order.get("arms") == "rifles":  # W1: the crews fire their rifles, one die less
        crewed = context.tables.values["crewed_weapons"]
        out = [dataclasses.replace(s, weapon=CREW_RIFLES) if s.weapon in crewed else s for s in out]
    face = order.get("face")
    if order["act"] == "fire" and isinstance(face, int):
        out = [fire.pivoted(context.tables, s, face) or s for s in out]
    return out


def call_problems(context: Context, state: Mapping[str, Any], side: str, unit: str, order: Mapping[str, Any],
                  index: int) -> list[Problem]:
    """W6: a leader's call: its mortar, within 30 cm, the aim seen and in range, not suppressed."""
    from .mortars import aim_point, seen

    def refuse(message: str, legal: str, key: str | None = None) -> list[Problem]:
        return [Problem(message, order=index, path=(key,) if key else (), section="W6", legal=legal)]

    gun_id = str(order.get("mortar", ""))
    gun = state["bases"].get(gun_id)
    mine = bases_of(state, unit)
    if not context.units[unit].leads or not mine:
        return refuse(f"{unit} is not a leader on the table", "a platoon leader calls its mortar")
    led = context.units[unit].leads  # W6: the platoon leader's own mortar, not one a level down
    if gun is None or gun["weapon"] != "mortar" or gun["unit"] not in led:
        able = [b for b, e in sorted(state["bases"].items()) if e["weapon"] == "mortar" and e["unit"] in led]
        return refuse(f"{gun_id} is not a mortar of {unit}'s platoon", ", ".join(able) or "none", "mortar")
    if "aim" not in order or "rounds" not in order:
        return refuse("a call names the aim and the rounds", "aim: a base or [x, y], rounds: [he|smoke|flare, ...]")
    leader = context.stand(mine[0], state["bases"][mine[0]])
    if state["bases"][mine[0]]["status"] == "suppressed":
        return refuse(f"{leader.id} is suppressed and may not call the mortar", "recover first")
    reach = context.tables.number("mortar_leader_reach")
    if plane.distance2(leader.shape, context.stand(gun_id, gun).shape) > reach * reach:
        return refuse(f"{leader.id} is more than {reach} mm from {gun_id}", f"within {reach} mm of the mortar")
    aim = order["aim"]
    if isinstance(aim, str) and (aim not in state["bases"] or context.side_of(state["bases"][aim]["unit"]) == side):
        return refuse(f"{aim} is not an enemy base on the table", "an enemy base, or a point [x, y]", "aim")
    if not seen(context, leader.base, state, aim):
        return refuse(f"{leader.id} does not see the aim", "an aim the leader sees", "aim")
    point = aim_point(state, aim)
    assert point is not None
    far2 = plane.dist2(context.stand(gun_id, gun).centre, point)
    low, high = context.tables.number("mortar_min_range"), context.tables.number("mortar_max_range")
    if set(order["rounds"]) == {"flare"}:
        low = 0  # W6 prints the minimum for smoke and H.E. only (docs/bst.md, readings)
    if not low * low <= far2 <= high * high:
        return refuse(f"the aim is not {low} to {high} mm from {gun_id}", f"a point {low} to {high} mm from it", "aim")
    if not (0 <= point[0] <= context.table.width and 0 <= point[1] <= context.table.depth):
        return refuse(f"the aim {list(point)} is off the table", f"a point from [0, 0] to "
                      f"[{context.table.width}, {context.table.depth}]", "aim")
    return []


def mortar_duty(context: Context, state: Mapping[str, Any], order: Mapping[str, Any], index: int, act: str,
                ids: Sequence[str]) -> list[Problem]:
    """W6: a mortar fires only by its leader's order; with one it must fire, unless it hunkers
    with 4 or more markers (or sets up, W3)."""
    found = []
    for bid in ids:
        base = state["bases"][bid]
        if base["weapon"] != "mortar":
            continue
        if (act in FIRES and order.get("arms") != "rifles") or act == "sustain":
            found.append(Problem(f"{bid} is a mortar: it fires by its leader's call", order=index, path=("bases",),
                                 section="W6", legal="act: call-mortar by its platoon leader"))
        elif base["status"] == "suppressed":
            continue  # W6: a suppressed mortar may not fire, so it is not bound to
        elif bid in state.get("mortars", {}) and act != "set-up" and not (act == "hunker" and base["markers"] >= 4):
            found.append(Problem(f"{bid} has fire orders and must fire", order=index, path=("bases",),
                                 section="W6", legal="leave it out (it fires), or hunker with 4 or more markers"))
    return found


def crew_problems(state: Mapping[str, Any], order: Mapping[str, Any], index: int, act: str, crews: Sequence[str],
                  lead: bool) -> list[Problem]:
    """W1-W3: crewed weapons do not fire on the move; an HMG moves only when its leader leads
    it; an unloaded one must set up before it fires; only an unloaded one sets up."""
    found: list[Problem] = []
    for bid in crews:
        unloaded = state["bases"][bid].get("unloaded", False)
        if act == "move-fire":
            found.append(Problem(f"{bid} is a crewed weapon and may not move and fire", order=index, path=("bases",),
                                 section="W1", legal="act: move, or act: fire"))
        elif act == "move" and not lead:
            found.append(Problem(f"{bid} is a crewed weapon: it moves only when its leader leads it", order=index,
                                 path=("bases",), section="W2", legal="a lead order of its platoon leader"))
        elif act == "fire" and unloaded and order.get("arms") != "rifles":
            found.append(Problem(f"{bid} is unloaded and must set up first", order=index, path=("bases",),
                                 section="W3", legal="act: set-up"))
        elif act == "sustain" and unloaded:
            found.append(Problem(f"{bid} is unloaded and must set up first", order=index, path=("bases",),
                                 section="W3", legal="act: set-up"))
        elif act == "set-up" and not unloaded:
            found.append(Problem(f"{bid} is not unloaded", order=index, path=("bases",), section="W3",
                                 legal="another action"))
    if act == "set-up":
        found += [Problem(f"{bid} has nothing to set up", order=index, path=("bases",), section="W3",
                          legal="bases of crewed weapons") for bid in named(state, order) if bid not in crews]
    if act == "sustain":
        found += [Problem(f"{bid} is not an HMG", order=index, path=("bases",), section="W4",
                          legal="HMG bases, or a tank (its machine guns are HMGs, V4)")
                  for bid in named(state, order)
                  if state["bases"][bid]["weapon"] != "hmg" and not state["bases"][bid].get("vehicle")]
    return found


def melee_contacts(context: Context, state: Mapping[str, Any]) -> set[str]:
    """C1: the bases in close combat."""
    from .melee import contacts
    return set(contacts(context, dict(state)))


def check_activation(context: Context, state: Mapping[str, Any], side: str, unit: str,
                     items: Sequence[tuple[int, Mapping[str, Any]]], second: bool) -> list[Problem]:
    """Every problem of the orders for one card of `unit` (its second card when `second`)."""
    acts = [order["act"] for _, order in items if order["unit"] == unit]
    if "lead" in acts:
        if len(items) > 1:
            return [Problem(f"{unit} leads: that is its whole activation", order=items[1][0], section="L1",
                            legal="one lead order alone")]
        return check_lead(context, state, side, unit, *items[0])
    if second and acts != ["hold"]:
        return [Problem(f"this is {unit}'s second card: it may only lead", order=items[0][0], section="L1",
                        legal="act: lead, or hold")]
    convoy = [(index, order) for index, order in items if order["unit"] != unit]
    problems = check_unit(context, state, side, unit, [(index, order) for index, order in items
                                                       if order["unit"] == unit])
    return problems + check_convoy(context, state, side, unit, items, convoy)


def check_convoy(context: Context, state: Mapping[str, Any], side: str, unit: str,
                 items: Sequence[tuple[int, Mapping[str, Any]]],
                 convoy: Sequence[tuple[int, Mapping[str, Any]]]) -> list[Problem]:
    """V3: the drawn tank activates with it the other tanks of a convoy (orders with
    `convoy: true`): tanks of the same side not yet activated, each checked as its own
    activation, all of them on a road, heading the same way, in single file."""
    problems = [Problem(f"{unit} is the tank the card drew: convoy marks the others", order=index,
                        path=("convoy",), section="V3", legal="convoy: true on the orders of the other tanks")
                for index, order in items if order["unit"] == unit and order.get("convoy")]
    if not convoy:
        return problems
    first = convoy[0][0]
    if not context.is_vehicle(unit):
        return problems + [Problem(f"{unit} is not a tank: only tanks activate in convoy", order=first,
                                   path=("convoy",), section="V3", legal="orders for the drawn unit only")]
    if any(order["act"] == "hold" for _, order in items if order["unit"] == unit):
        problems.append(Problem(f"{unit} holds, so no convoy activates with it", order=first, path=("convoy",),
                                section="V3", legal="an action for the drawn tank"))
    members: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for index, order in convoy:
        other = order["unit"]
        if not context.is_vehicle(other):
            problems.append(Problem(f"{other} is not a tank", order=index, path=("unit",), section="V3",
                                    legal="tanks of your side on the road"))
        elif other in state["activated"]:
            problems.append(Problem(f"{other} has already activated this turn", order=index, path=("unit",),
                                    section="V3", legal="tanks not yet activated"))
        elif order["act"] in ("hold", "lead"):
            problems.append(Problem(f"{other} would {order['act']} in convoy: a tank in convoy acts", order=index,
                                    path=("act",), section="V3", legal="an action of the tank, or leave it out"))
        else:
            members.setdefault(other, []).append((index, order))
    for other, own in members.items():
        problems += check_unit(context, state, side, other, own)
    tanks = [context.stand(bid, state["bases"][bid]) for u in (unit, *members) for bid in bases_of(state, u)]
    problems += [Problem(message, order=first, path=("convoy",), section="V3", legal=legal)
                 for message, legal in convoy_problems(context.tables, context.table, tanks)]
    return problems


def check_lead(context: Context, state: Mapping[str, Any], side: str, leader: str, index: int,
               order: Mapping[str, Any]) -> list[Problem]:
    """L1: the leader, the bases it leads (its units', in its command, not yet activated) and
    their one action, checked as any order of theirs."""
    meta = context.units[leader]
    if not meta.leads:
        return [Problem(f"{leader} is not a platoon leader", order=index, section="L1", legal="another action")]
    if "do" not in order or "bases" not in order:
        return [Problem("a lead order names its action (do) and the bases led", order=index, section="L1",
                        legal="do: fire|move|move-fire|hunker|recover, bases: [...]")]
    if leader in state.get("led", []):
        return [Problem(f"{leader} has already led this turn", order=index, section="L1", legal="act: hold")]
    problems: list[Problem] = []
    command = commanded(context, state, leader)
    for bid in order["bases"]:
        unit = state["bases"].get(bid, {}).get("unit")
        if unit is None or unit not in context.company(leader):
            problems.append(Problem(f"{bid} is not a base of {leader}'s platoon", order=index, path=("bases",),
                                    section="L1", legal=", ".join(sorted(command)) or "none"))
        elif unit != leader and unit in state["activated"]:
            problems.append(Problem(f"{unit} has already activated this turn", order=index, path=("bases",),
                                    section="L1", legal="bases of units not activated yet"))
        elif bid not in command and not (order.get("do") == "move" and hmg_unit(state, unit)):
            problems.append(Problem(f"{bid} is not in {leader}'s command", order=index, path=("bases",),
                                    section="L1", legal=", ".join(sorted(command))))
    if problems:
        return problems
    led = {key: value for key, value in order.items() if key != "do"}
    led["act"] = order["do"]
    return check_unit(context, state, side, leader, [(index, led)], own=list(order["bases"]))


def check_unit(context: Context, state: Mapping[str, Any], side: str, unit: str,
               items: Sequence[tuple[int, Mapping[str, Any]]], own: Sequence[str] | None = None) -> list[Problem]:
    """Every problem of one unit's orders, judged on `state` (a side's view, or the referee's
    state when a queued order comes up); `own` the bases a platoon leader leads (L1)."""
    problems: list[Problem] = []
    lead = own is not None
    own = list(own) if own is not None else bases_of(state, unit)
    if any(order["act"] == "hold" for _, order in items) and len(items) > 1:
        problems.append(Problem(f"{unit} holds, so it may take no other action", order=items[0][0], section="A2",
                                legal="hold alone, or actions without hold"))
    moving = [(index, order) for index, order in items if order["act"] in MOVES]
    together = len(moving) == 2 and not lead and moving_together(context, state, side, moving)
    joint: list[tuple[list[str], positions.Movement]] = []
    if len(moving) > 1 and not together:
        problems.append(Problem(f"{unit} has more than one move order", order=items[-1][0], section="M1",
                                legal="one move order per activation; the bases that move together go in it "
                                      "(a move and a move-fire order whose bases start and end in contact are one)"))
    taken: dict[str, int] = {}
    stands = context.stands(state)
    fire_groups: list[tuple[int, str, list[str]]] = []
    for index, order in items:
        act = order["act"]
        problems += vehicle_problems(context, unit, index, order)
        ids = named(state, order)
        for bid in ids:
            if bid not in own:
                problems.append(Problem(f"{bid} is not a base of {unit} on the table", order=index, path=("bases",),
                                        section="D2", legal=", ".join(own) or "none"))
            elif bid in taken:
                problems.append(Problem(f"{bid} already has an action in order {taken[bid] + 1}", order=index,
                                        path=("bases",), section="A1", legal="one action per base"))
            else:
                taken[bid] = index
        ids = [bid for bid in ids if bid in own]
        if not ids or act == "hold":
            continue
        if act == "call-mortar":
            problems += call_problems(context, state, side, unit, order, index)
            continue
        problems += mortar_duty(context, state, order, index, act, ids)
        fighting = melee_contacts(context, state)
        if act in ("fight", "retire"):
            problems += [Problem(f"{bid} is not in close combat", order=index, path=("bases",),
                                 section=ACT_SECTION[act], legal="bases in contact with an enemy")
                         for bid in ids if bid not in fighting]
            continue
        crews = [bid for bid in ids if state["bases"][bid]["weapon"] in context.tables.values["crewed_weapons"]]
        problems += crew_problems(state, order, index, act, crews, lead)
        if act in MOVES and not lead and hmg_unit(state, unit):
            problems += [Problem(f"{bid} is of HMG unit {unit}: it moves only when its platoon leader leads it",
                                 order=index, path=("bases",), section="W2", legal="a lead order of its platoon leader")
                         for bid in ids if bid not in crews]
        busy = [bid for bid in ids if bid in fighting]
        if busy:
            problems.append(Problem(f"{', '.join(busy)} in close combat can only fight it out", order=index,
                                    path=("bases",), section="C3", legal="act: fight, or act: retire"))
            continue
        moving_keys = [key for key in positions.MOVE_KEYS if key in order and key != "face"]
        if act in MOVES and not moving_keys:
            problems.append(Problem(f"a {act} order needs to, path or toward", order=index, section="M1",
                                    legal="to: [x, y], path: [[x, y], ...] or toward: [x, y]"))
            continue
        extras = [bid for bid in ids if state["bases"][bid]["weapon"] == EXTRA]
        if act in FIRES and extras:
            problems.append(Problem(f"{', '.join(extras)} is an extra base and fires nothing", order=index,
                                    path=("bases",), section="W5", legal="the HMG and the unit's other bases"))
            continue
        if "arms" in order and (act != "fire" or not crews):
            problems.append(Problem(f"arms: rifles is for crews that fire standing (order {index + 1} has "
                                    f"{'no crew' if not crews else act})", order=index, path=("arms",),
                                    section="W1", legal="arms: rifles on a fire order of crewed weapon bases"))
            continue
        if act not in MOVES and "split" in order:
            problems.append(Problem(f"a {act} order does not move, so nothing can split", order=index,
                                    path=("split",), section="O3", legal="split: on a move or move-fire order"))
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
        if act in ("fire", "sustain"):
            problems += [Problem(f"{bid} is suppressed and may not fire", order=index, path=("bases",),
                                 section="R1", legal="recover first") for bid in ids if status[bid] == "suppressed"]
        movement = None
        if act in MOVES:
            movement, found = plan(context, state, order, index, ids)
            problems += found
            crew_men = crews + extras  # W5: an extra base is part of its HMG's crew
            if movement is not None and crew_men and act == "move":
                enemies = [(s.id, s.shape) for s in stands if s.side != side]
                blocked, _ = plan(context, state, order, index, ids, enemies)
                if blocked is not None and blocked.stop is not None:
                    problems.append(Problem(f"{', '.join(crew_men)} would come into contact with {blocked.stop.key}",
                                            order=index, section="W1" if crews else "W5",
                                            legal="a crewed weapon (and an HMG's extra base, its crew) never moves "
                                                  "into contact with an enemy"))
            if movement is not None and together:
                joint.append((ids, movement))  # M1, M2 judged on both orders' moves at once, below
            elif movement is not None and not lead:
                problems += command_problems(context, state, unit, ids, movement, index)
            elif movement is not None:
                problems += lead_move_problems(context, state, ids, movement, index)
                problems += hmg_end_problems(context, state, unit, ids, movement, index)
        elif isinstance(order.get("face"), int):
            for s in firers_of(context, state, {**order, "face": None}, ids):
                if fire.pivoted(context.tables, s, order["face"]) is None:
                    problems.append(Problem(f"{s.id} would turn more than 45 degrees", order=index, path=("face",),
                                            section="F2", legal="a pivot of 45 degrees or less; more is a move"))
        if act in FIRES:
            problems += check_fire(context, state, side, order, index, ids, stands, heading_of(movement))
            fire_groups.append((index, order["target"], ids))
    if len(joint) == 2:
        (ids_a, move_a), (ids_b, move_b) = joint
        both = dataclasses.replace(move_a, bases={**move_a.bases, **move_b.bases})
        problems += command_problems(context, state, unit, ids_a + ids_b, both, moving[-1][0])
    for i, (index, target, ids) in enumerate(fire_groups):
        for other_index, other_target, other_ids in fire_groups[:i]:
            touching = any(in_contact(context.stand(a, state["bases"][a]), context.stand(b, state["bases"][b]),
                                      context.tables.number("contact")) for a in ids for b in other_ids)
            if touching:
                problems.append(Problem(f"bases in contact fire in orders {other_index} and {index}", order=index,
                                        section="F8", legal="bases in contact fire together, in one order, at one target"))
    return problems


def moving_together(context: Context, state: Mapping[str, Any], side: str,
                    moving: Sequence[tuple[int, Mapping[str, Any]]]) -> bool:
    """M1 as the C11 example reads it: one move, in two orders, when one is `move-fire` (its
    bases fire, then go 10 cm) and the other `move` (15 cm), and a base of each is in contact
    with a base of the other where they start and where they stop."""
    if len(moving) != 2 or {order["act"] for _, order in moving} != {"move", "move-fire"}:
        return False
    contact = context.tables.number("contact")
    enemies = [(s.id, s.shape) for s in context.stands(state) if s.side != side]
    groups = []
    for index, order in moving:
        ids = [bid for bid in named(state, order) if bid in state["bases"]]
        movement, found = plan(context, state, order, index, ids, enemies) if ids else (None, [])
        if movement is None:
            return True  # the move's own problems say what is wrong
        start = [context.stand(bid, state["bases"][bid]) for bid in ids]
        groups.append((start, [s.at(movement.bases[s.id]) for s in start]))
    (start_a, end_a), (start_b, end_b) = groups
    return (any(in_contact(a, b, contact) for a in start_a for b in start_b)
            and any(in_contact(a, b, contact) for a in end_a for b in end_b))


def vehicle_problems(context: Context, unit: str, index: int, order: Mapping[str, Any]) -> list[Problem]:
    """V1, V3, V4: the keys only a tank's orders take, and what a tank may not do."""
    tank = context.is_vehicle(unit)
    found = []
    if "buttoned" in order and (not tank or order["act"] == "hold"):
        found.append(Problem(f"{unit} is not a tank acting now: it has no hatches to change" if not tank else
                             f"{unit} holds: its hatches change only when it acts", order=index,
                             path=("buttoned",), section="V1", legal="buttoned: on an action of a tank"))
    if order.get("convoy") and (order.get("queued") or "card" in order):
        found.append(Problem("a convoy activates with the card drawn now, not a later one", order=index,
                             path=("convoy",), section="V3", legal="convoy: true without queued or card"))
    if tank and order["act"] == "move-fire":
        found.append(Problem(f"{unit}'s guns fire as HMGs, which may not fire on the move", order=index,
                             path=("act",), section="V4", legal="act: move, or act: fire"))
    return found


def hmg_unit(state: Mapping[str, Any], unit: str) -> bool:
    """W2: a unit with an HMG base: its bases move only when their platoon leader leads them."""
    return any(entry["weapon"] == "hmg" for entry in state["bases"].values() if entry["unit"] == unit)


def hmg_end_problems(context: Context, state: Mapping[str, Any], leader: str, ids: Sequence[str],
                     movement: positions.Movement, index: int) -> list[Problem]:
    """W2: the bases of an HMG unit that a leader leads may start out of its command (the
    exception to L1), but each must end its move in it."""
    moved = {bid: {**entry, "at": list(movement.bases[bid].centre), "facing": movement.bases[bid].facing}
             if bid in movement.bases else entry for bid, entry in state["bases"].items()}
    command = commanded(context, {**state, "bases": moved}, leader)
    return [Problem(f"{bid} of HMG unit {state['bases'][bid]['unit']} would end its move out of {leader}'s command",
                    order=index, section="W2", legal="a move that ends in contact with the leader's command")
            for bid in ids if hmg_unit(state, state["bases"][bid]["unit"]) and bid not in command]


def lead_move_problems(context: Context, state: Mapping[str, Any], ids: Sequence[str],
                       movement: positions.Movement, index: int) -> list[Problem]:
    """L1: led bases end in contact with one another, and each unit keeps its type (M2)."""
    problems: list[Problem] = []
    after = [s.at(movement.bases[s.id])
             for s in (context.stand(bid, state["bases"][bid]) for bid in ids)]
    if not connected(after, context.tables.number("contact")):
        problems.append(Problem("the bases led must end their move in contact with one another", order=index,
                                section="L1", legal="a move that keeps them together"))
    for unit in sorted({s.unit for s in after}):
        if context.units[unit].leads:
            continue  # a leader's base belongs to no section type
        mine = [bid for bid in ids if state["bases"][bid]["unit"] == unit]
        problems += command_problems(context, state, unit, mine, movement, index)
    return problems


def platoon_base(context: Context, state: Mapping[str, Any], unit: str) -> Stand | None:
    """W2, W6: the base of the platoon leader of an HMG unit or a light mortar's unit, standing in
    as its leader (its weapon hidden, so that M2 does not count it among the unit's rifles)."""
    crewed = hmg_unit(state, unit) or any(entry["weapon"] == "mortar" for entry in state["bases"].values()
                                          if entry["unit"] == unit)
    chief = context.platoon_leader(unit) if crewed else None
    mine = bases_of(state, chief) if chief is not None else []
    if not mine:
        return None
    return dataclasses.replace(context.stand(mine[0], state["bases"][mine[0]]), weapon="leader")


def command_problems(context: Context, state: Mapping[str, Any], unit: str, ids: Sequence[str],
                     movement: positions.Movement, index: int) -> list[Problem]:
    """M1, M2 for a planned move."""
    before = {bid: context.stand(bid, state["bases"][bid]) for bid in bases_of(state, unit)}
    after = dict(before)
    for bid, base in movement.bases.items():
        if bid in before:
            s = before[bid]
            after[bid] = s.at(base)
    meta = context.units[unit]
    leader = meta.leader
    chief = platoon_base(context, state, unit)
    if chief is not None:  # W2: the HMG platoon's leader replaces the section leader for command types
        leader = chief.id
        before[leader] = chief
        after[leader] = chief.at(movement.bases[leader]) if leader in movement.bases else chief
    found = move_problems(meta.command, leader, before, after, ids, context.tables.number("contact"),
                          lambda a, b: sees(context.table, a.base, b.base))
    problems = [Problem(message, order=index, section=section, legal="a move that keeps the unit's command type")
                for section, message in found]
    contact = context.tables.number("contact")
    guns = [s.id for s in after.values() if s.weapon == "hmg"]
    for extra in (s for s in after.values() if s.weapon == EXTRA and guns):  # an extra base with no HMG left is free
        if not (extra.id in ids or any(g in ids for g in guns)):
            continue
        if not any(o.weapon == "hmg" and in_contact(extra, o, contact) for o in after.values()):
            problems.append(Problem(f"{extra.id} would lose contact with its HMG", order=index, section="W5",
                                    legal="a move that keeps the extra base touching its HMG (move them together)"))
    return problems + [Problem(message, order=index, section="O3", legal=legal)
                       for message, legal in split.move_problems(context, state, unit, ids, after)]


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
    flamers = [f for f in firers if f.weapon == "flamer"]
    if flamers:
        return check_flame(context, order, index, firers, flamers, enemies, stands)
    first = fire.first_target(firers, enemies)
    found = []
    for firer in firers:
        refused = fire.refusal(context.table, context.tables, firer, first, stands, heading=heading)
        if refused is not None:
            found.append(Problem(f"{refused.message} (the first target of {target} is {first.id})", order=index,
                                 path=("target",), section=refused.section, legal=refused.legal))
    return found


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def queue_key(order: Mapping[str, Any], drawn: str, active: str) -> str:
    """Which card an order answers: the drawn card's unit (`active`) for its activation, else
    "UNIT" (its next card, whichever), "UNIT CARD" (that card), or "UNIT next" for the drawn
    unit's own `queued` order (its next card after a Joker, NEXT)."""
    unit, card = order["unit"], order.get("card")
    if unit == active and not order.get("queued") and card in (None, drawn):
        return active
    if order.get("convoy"):
        return active  # V3: a convoy activates with the drawn tank (check_convoy refuses a queued one)
    if card:
        return f"{unit} {card}"
    return f"{unit} {NEXT}" if unit == active else unit


def check_flame(context: Context, order: Mapping[str, Any], index: int, firers: Sequence[Stand],
                flamers: Sequence[Stand], enemies: Sequence[Stand], stands: Sequence[Stand]) -> list[Problem]:
    """W11: flame-throwers fire alone, at a target they see, within the template's reach."""
    if len(flamers) != len(firers):
        return [Problem("a flame-thrower fires its template alone, not with other weapons", order=index,
                        path=("bases",), section="W11", legal="the flame-throwers in one order, the rest in another")]
    found = []
    for flamer in flamers:
        target = fire.first_target([flamer], enemies)
        blocked = blocker(context.table, flamer.base, target.base)
        if blocked is not None:
            found.append(Problem(f"{blocked} blocks {flamer.id}'s line of sight to {target.id}", order=index,
                                 path=("target",), section=section_of(context.table, blocked), legal="a base it sees"))
        elif not flamer_reaches(context.tables, flamer, target):
            found.append(Problem(f"{target.id} is beyond {flamer.id}'s template (9 cm)", order=index,
                                 path=("target",), section="W11", legal="a target the template reaches"))
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
            problems.append(Problem(f"{unit} is not {article(side)} {side} unit with bases on the table", order=index,
                                    path=("unit",), section="A1", legal=", ".join(own)))
            continue
        meta = context.units[unit]
        card = order.get("card")
        if card is not None and card not in (meta.card, meta.card2):
            problems.append(Problem(f"{card} is not a card of {unit}", order=index, path=("card",), section="A1",
                                    legal=" or ".join(c for c in (meta.card, meta.card2) if c)))
            continue
        by_unit.setdefault(queue_key(order, view["card"], active), []).append((index, order))
    if active not in by_unit:
        problems.append(Problem(f"card {view['card']} activates {active}, and no order is for it", section="A1",
                                legal=f"orders for {active} (act: hold to hold it)"))
    for key, items in sorted(by_unit.items()):
        unit, _, card = key.partition(" ")
        card = view["card"] if key == active else card
        second = card not in ("", NEXT) and context.second(card)
        problems += check_activation(context, view, side, unit, items, second)
    return problems
