"""A vehicle's move (V3): front hexes, turning, its Move marker, Op Fire after a short move, fire after moving.

A vehicle steps only into one of its two front hexes (`facing.front_hexes`); to step elsewhere it
first turns within its hex to the nearer facing that has the step in front, which costs
`vehicle_turn_cost`; `facing:` turns it once more where the move ends. A path of its own hex alone
with a `facing:` only turns it there (no Move marker: it did not change hexes). It pays
the vehicle costs of the (assumed) aid card, never enters woods or buildings (V3), takes no Morale
Check to move (V3: no morale), may pass through a friendly vehicle's hex or an enemy infantry hex
but end in neither (V10), and never enters a hex holding an enemy vehicle (assumed). It may be fired
on in every hex it enters (V3: the move pauses for Op Fire). A vehicle that spent at most a third
of its MP, rounded down, and does not fire may end marked Op Fire (`opfire: true`); otherwise it
ends Used with a Move marker. `assault:` fires at full firepower when the move ends, the Prof Check
at +4 for moving to a new hex (V4).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State

from . import conceal
from .board import Board
from .checks import public_name
from .context import Context, other
from .facing import front_hexes
from .reactions import Step, react
from .state import in_hex


def next_facing(ctx: Context, here: str, there: str, facing: int) -> int:
    """The facing a vehicle takes to step from `here` into `there`: unchanged when it is in front."""
    if there in front_hexes(ctx, here, facing):
        return facing
    d = ctx.hexes.grid.direction(here, there)
    options = ((d - 1) % 6, d)
    return min(options, key=lambda f: (min((f - facing) % 6, (facing - f) % 6), f))


def opfire_allowance(ctx: Context, uid: str) -> int:
    """V3: the half-MPs a vehicle may spend and still end marked Op Fire (a third of its MP, rounded down)."""
    return (ctx.units[uid].type.move // int(ctx.tables["opfire_marked_share"])) * int(ctx.tables["half_points"])


def _enemy_pieces(ctx: Context, board: Board, hex_id: str) -> tuple[bool, bool]:
    """(a face-up enemy vehicle, any other enemy piece) in the hex, as the side sees them."""
    vehicle = other_piece = False
    for piece in board.enemy:
        if piece["hex"] != hex_id:
            continue
        if "type" in piece and ctx.types[piece["type"]].vehicle:
            vehicle = True
        else:
            other_piece = True
    return vehicle, other_piece


def route_problems(ctx: Context, board: Board, uid: str, order: dict[str, Any], index: int) -> list[Problem]:
    """Everything wrong with a vehicle's move, judged on its side's board; a legal one is carried out on it."""
    from .movement import fire_problems  # movement imports this module

    unit = board.own[uid]
    path = list(order["path"])
    here = unit["hex"] if unit["status"] == "active" else None
    facing = int(unit.get("facing", 0))
    if order.get("retreat"):
        return [Problem(f"{uid} is a vehicle: it never declares a retreat (no morale)", order=index,
                        path=("retreat",), section="V3")]
    if here is None and path[0] not in ctx.entry_hexes(board.side):
        return [Problem(f"{uid} enters the map: its first hex must be an entry hex", order=index, path=("path", 0),
                        section="18.0", legal=", ".join(ctx.entry_hexes(board.side)))]
    spent = 0
    turn_cost = int(ctx.tables["vehicle_turn_cost"])
    allowance = ctx.allowance(uid)
    if path == [here]:
        if "facing" not in order or order["facing"] == facing:
            return [Problem(f"{uid} stays in {here}: give the new `facing` it turns to", order=index,
                            path=("facing",), section="V3")]
        path = []  # V3: it only turns within its hex
    for step, hex_id in enumerate(path):
        where = ("path", step)
        last = step == len(path) - 1
        if here is not None:
            if not ctx.hexes.adjacent(here, hex_id):
                return [Problem(f"{hex_id} is not next to {here}", order=index, path=where, section="5.0",
                                legal=", ".join(n for n in ctx.hexes.neighbours(here) if ctx.enterable(n)))]
            turned = next_facing(ctx, here, hex_id, facing)
            if turned != facing:
                spent += turn_cost
                facing = turned
            cost = ctx.vehicle_move_cost(here, hex_id)
        else:
            cost = ctx.vehicle_move_cost(hex_id, hex_id)
        if cost is None:
            return [Problem(f"{uid} cannot enter {hex_id} ({ctx.terrain(hex_id)})", order=index, path=where,
                            section="V3", legal="no woods, buildings, river or canal (a bridge is a road)")]
        spent += cost
        if spent > allowance:
            return [Problem(f"{uid} has {allowance // 2} MP; the path needs more by {hex_id}", order=index,
                            path=where, section="V3", legal=f"stop at {path[step - 1] if step else 'its hex'}")]
        vehicle, infantry = _enemy_pieces(ctx, board, hex_id)
        if vehicle:
            return [Problem(f"{hex_id} holds an enemy vehicle: a vehicle does not enter it", order=index, path=where,
                            section="V10")]
        if infantry and last:
            return [Problem(f"{uid} may not end its move in {hex_id} with enemy units: it must have MP to leave",
                            order=index, path=where, section="V10", legal="go on through it, or stop before it")]
        if last and [u for u in board.own_in(hex_id) if u != uid and ctx.units[u].type.vehicle]:
            return [Problem(f"{hex_id} already holds one of your vehicles: only one ends a move in a hex",
                            order=index, path=where, section="V10", legal="pass through it")]
        here = hex_id
    if "facing" in order and order["facing"] != facing:
        spent += turn_cost
        facing = int(order["facing"])
        if spent > allowance:
            return [Problem(f"{uid} has no MP left to turn at the end", order=index, path=("facing",), section="V3")]
    if order.get("opfire"):
        if "assault" in order:
            return [Problem(f"{uid} fires after its move, so it ends Used, not marked Op Fire", order=index,
                            path=("opfire",), section="V3")]
        if spent > opfire_allowance(ctx, uid):
            return [Problem(f"{uid} spends {spent / 2:g} MP; it may end marked Op Fire only after at most "
                            f"{opfire_allowance(ctx, uid) // 2}", order=index, path=("opfire",), section="V3")]
    end = path[-1] if path else str(here)
    unit.update(hex=end, status="active", facing=facing)
    if "assault" in order:
        problems = fire_problems(ctx, board, uid, end, order["assault"], index, ("assault",), False,
                                 {k: v for k, v in order.items() if k == "target"})
        if problems:
            return problems
    unit["opfire" if order.get("opfire") else "used"] = True
    return []


def resolve(ctx: Context, state: State, dice: Dice, decisions: Decisions, uid: str, order: dict[str, Any],
            events: list[dict[str, Any]]) -> None:
    """Carry out one accepted vehicle move on the master state (V3), drawing fire in every hex (9.0)."""
    from .fire import heavy_fire

    unit = state["units"][uid]
    side = ctx.units[uid].side
    start = unit["hex"] if unit["status"] == "active" else None
    if order["path"] == [start] and "assault" in order:
        # V4: turning within its hex to fire is a turn (+1 to the Prof Check), as a fire order with a facing
        heavy_fire(ctx, state, dice, uid, {"at": order["assault"], "facing": order["facing"],
                                           **{k: order[k] for k in ("target",) if k in order}}, events)
        return
    if order["path"] == [start]:
        _turn_in_place(ctx, state, uid, int(order["facing"]), bool(order.get("opfire")), events)
        return
    move: dict[str, Any] = {"type": "move", "side": side, "section": "V3", "unit": uid,
                            "as": public_name(state, uid), "from": start, "path": [], "retreat": False}
    events.append(move)
    unit["used"] = True
    previous = start
    misses: dict[str, int] = {}
    for hex_id in order["path"]:
        if previous is not None:
            turned = next_facing(ctx, previous, hex_id, unit["facing"])
            if turned != unit["facing"]:
                move.setdefault("turns", []).append({"in": previous, "to": turned})
                unit["facing"] = turned
        if in_hex(ctx, state, hex_id, other(side)) and \
                any(ctx.units[u].type.vehicle for u in in_hex(ctx, state, hex_id, other(side))):
            move["ended"] = "a hidden enemy vehicle stood in its way"
            break
        unit["status"] = "active"
        unit["hex"] = hex_id
        move["path"].append(hex_id)
        if unit["concealed"] and conceal.seen_by_enemy(ctx, state, uid):
            # V1: the marker comes off as soon as an enemy sees the vehicle, before any Op Fire at it
            conceal.take_off(ctx, state, uid, "a vehicle in enemy sight", events)
        if react(ctx, state, dice, decisions, Step(uid, hex_id, previous), events, retreating=False, reroll=False,
                 misses=misses) == "gone":
            move["ended"] = "eliminated"
            return
        conceal.adjacent_enemy(ctx, state, uid, events)
        conceal.sweep(ctx, state, events)
        previous = hex_id
    if unit["status"] != "active":
        return
    _back_to_a_hex_it_may_end_in(ctx, state, uid, [start] + move["path"], move)
    if "facing" in order and order["facing"] != unit["facing"]:
        move.setdefault("turns", []).append({"in": unit["hex"], "to": int(order["facing"])})
        unit["facing"] = int(order["facing"])
    move["facing"] = unit["facing"]
    if order.get("opfire"):
        unit["used"] = False
        unit["opfire"] = unit["marked"] = True
        events.append({"type": "mark", "side": side, "section": "V3", "unit": uid, "as": public_name(state, uid),
                       "mark": "opfire"})
    else:
        unit["moved"] = unit["hex"] != start
        if "assault" in order:
            heavy_fire(ctx, state, dice, uid, {"at": order["assault"], **{k: order[k] for k in ("target",) if k in order}},
                       events, moved=bool(unit["moved"]))
    if unit["status"] == "active":
        conceal.regain(ctx, state, uid, events)


def _may_not_end_in(ctx: Context, state: State, uid: str, hex_id: str) -> bool:
    """V10: a vehicle never ends a move with enemy units, nor with another vehicle of its side."""
    side = ctx.units[uid].side
    return bool(in_hex(ctx, state, hex_id, other(side))) or \
        any(u != uid and ctx.units[u].type.vehicle for u in in_hex(ctx, state, hex_id, side))


def _back_to_a_hex_it_may_end_in(ctx: Context, state: State, uid: str, trail: list[str | None],
                                 move: dict[str, Any]) -> None:
    """V10: a move that ends early (a hidden vehicle in the way) or among enemy infantry it could not
    see goes back along its path to the last hex it may end in."""
    unit = state["units"][uid]
    here = unit["hex"]
    if not _may_not_end_in(ctx, state, uid, here):
        return
    if in_hex(ctx, state, here, other(ctx.units[uid].side)):
        move["ended"] = "enemy units it could not see held its last hex"
    back = trail[:-1]
    while back and back[-1] is not None and _may_not_end_in(ctx, state, uid, str(back[-1])):
        back.pop()
    if back and back[-1] is not None:
        unit["hex"] = back[-1]
        move["back_to"] = back[-1]


def _turn_in_place(ctx: Context, state: State, uid: str, facing: int, opfire: bool,
                   events: list[dict[str, Any]]) -> None:
    """V3: a vehicle only turning within its hex; it ends Used or marked Op Fire, with no Move marker.

    Told as a turn (hidden from the enemy under a marker, `fog.visible`) and a mark, so a concealed
    vehicle turning shows the enemy what a concealed squad marked Used or Op Fire would (15.0)."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    events.append({"type": "turn-facing", "side": side, "section": "V3", "unit": uid, "as": public_name(state, uid),
                   "hex": unit["hex"], "from": unit["facing"], "to": facing})
    unit["facing"] = facing
    unit["moved"] = False
    mark = "opfire" if opfire else "used"
    unit["used"] = not opfire
    if opfire:
        unit["opfire"] = unit["marked"] = True
    events.append({"type": "mark", "side": side, "section": "4.0", "unit": uid, "as": public_name(state, uid),
                   "mark": mark})
