"""Movement (5.0), declared retreat (5.1) and assault fire (5.2); the op fire each step draws (9.0, 10.0).

A move names the hexes entered in order. It costs each hex's terrain in half-MPs (a road from
road hex to road hex half a MP, a hedgerow hexside one more: `Context.move_cost`), must fit the
unit's allowance, and ends in the first hex holding an enemy piece (5.0). At most two units of
a side stand in a hex when the move ends (2.0). A unit starting in an enemy's hex passes a Prof
Check to leave and may not enter another enemy hex that move (5.0); any other unit passes a
Morale Check to move (-4 for a declared retreat, 5.1, which then keeps the rout limits of 11.0:
never next to an enemy not in melee, never closer to an enemy in its LOS). A reinforcement
enters by an entry hex of its side as its first hex (18.0).
"""

from __future__ import annotations

from typing import Any, Iterable

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State

from . import close_assault, conceal, satw, vehicles
from .board import Board
from .facing import facings_for
from .heavy import declared_target_problems
from .checks import check, public_name
from .context import Context, other
from .fire import attack, reach, targets_in
from .reactions import Step, react
from .state import in_hex, stacked
from .terrain import bank_of, los


def retreat_step_ok(ctx: Context, enemies: Iterable[str], melee: set[str], here: str, there: str) -> bool:
    """11.0 (and 5.1): the step never ends next to an enemy not in melee, nor closer to one in LOS."""
    for enemy in enemies:
        distance = ctx.hexes.distance(there, enemy)
        if distance <= 1 and enemy not in melee:
            return False
        if los(ctx, here, enemy) and distance < ctx.hexes.distance(here, enemy):
            return False
    return True


def route_problems(ctx: Context, board: Board, uid: str, order: dict[str, Any], index: int) -> list[Problem]:
    """Everything wrong with a move, judged on the side's board; a legal move is carried out on the board."""
    if ctx.units[uid].type.vehicle:
        return vehicles.route_problems(ctx, board, uid, order, index)
    if "facing" in order:
        return [Problem(f"{uid} has no facing: only guns and vehicles turn", order=index, path=("facing",),
                        section="V4", legal="leave `facing` out")]
    if "target" in order:
        return [_infantry_target(uid, str(order.get("assault") or order["path"][-1]), index)]
    if "opfire" in order:
        return [Problem(f"{uid} is not a vehicle: only a vehicle ends a short move marked Op Fire", order=index,
                        path=("opfire",), section="V3", legal=f"{{opfire: {uid}}} instead of the move (4.0)")]
    unit = board.own[uid]
    path = list(order["path"])
    start = unit["hex"] if unit["status"] == "active" else None
    enemy = board.enemy_hexes()
    in_melee = start is not None and start in enemy
    problems: list[Problem] = []
    if start is None and path[0] not in ctx.entry_hexes(board.side):
        return [Problem(f"{uid} enters the map: its first hex must be an entry hex", order=index, path=("path", 0),
                        section="18.0", legal=", ".join(ctx.entry_hexes(board.side)))]
    if order.get("retreat") and in_melee:
        problems.append(Problem(f"{uid} starts in an enemy's hex and cannot declare a retreat", order=index,
                                path=("retreat",), section="5.1"))
    melee_hexes = {h for h in enemy if board.own_in(h)}
    spent = 0
    allowance = ctx.allowance(uid)
    here = start
    for step, hex_id in enumerate(path):
        where = ("path", step)
        if here is not None and not ctx.hexes.adjacent(here, hex_id):
            return problems + [Problem(f"{hex_id} is not next to {here}", order=index, path=where, section="5.0",
                                       legal=", ".join(n for n in ctx.hexes.neighbours(here) if ctx.enterable(n)))]
        cost = ctx.move_cost(here, hex_id) if here is not None else \
            (ctx.move_cost(hex_id, hex_id) if ctx.enterable(hex_id) else None)
        if cost is None:
            return problems + [Problem(f"{uid} cannot enter {hex_id} ({ctx.terrain(hex_id)})", order=index, path=where,
                                       section="14.0", legal="river and canal hexes only at a bridge")]
        spent += cost
        if spent > allowance:
            return problems + [Problem(f"{uid} has {allowance // 2} MP; the path needs more by {hex_id}", order=index,
                                       path=where, section="5.0",
                                       legal=f"stop at {path[step - 1] if step else 'its hex'}")]
        if in_melee and hex_id in enemy:
            problems.append(Problem(f"{uid} left an enemy's hex and may not enter another ({hex_id})", order=index,
                                    path=where, section="5.0"))
        if order.get("retreat") and here is not None and \
                not retreat_step_ok(ctx, enemy, melee_hexes, here, hex_id):
            problems.append(Problem(f"a retreating unit may not step to {hex_id}: next to an enemy not in melee or "
                                    "closer to one in its LOS", order=index, path=where, section="5.1"))
        if hex_id in enemy and step != len(path) - 1:
            return problems + [Problem(f"{uid} must stop in {hex_id}: it holds an enemy", order=index, path=where,
                                       section="5.0", legal=f"end the path at {hex_id}")]
        assaulted = close_assault.target_problems(ctx, board, uid, hex_id, index, step, bool(order.get("retreat")))
        if assaulted is not None:
            if assaulted or "assault" in order:
                return problems + (assaulted or [Problem("a close assault ends the move: no assault fire after it",
                                                         order=index, path=("assault",), section="V8")])
            back = here if here is not None else unit["hex"]
            if back != start and len([u for u in board.own_in(back) if not ctx.units[u].type.vehicle]) + 1 > \
                    int(ctx.tables["stacking"]):
                return problems + [Problem(f"{uid} comes back to {back} after its close assault, and {back} would "
                                           f"hold more than {ctx.tables['stacking']} of your units", order=index,
                                           path=where, section="2.0")]
            if not problems:
                unit.update(hex=here if here is not None else unit["hex"], status="active", used=True)
            return problems
        here = hex_id
    end = path[-1]
    if len([u for u in board.own_in(end) if u != uid and not ctx.units[u].type.vehicle]) + 1 > \
            int(ctx.tables["stacking"]):
        problems.append(Problem(f"{end} would hold more than {ctx.tables['stacking']} of your units", order=index,
                                path=("path", len(path) - 1), section="2.0"))
    if "assault" in order:
        problems += assault_problems(ctx, board, uid, end, order["assault"], index, end in enemy)
    if not problems:
        unit.update(hex=end, status="active", used=True)
    return problems


def assault_problems(ctx: Context, board: Board, uid: str, origin: str, target: str, index: int,
                     in_melee: bool) -> list[Problem]:
    """5.2 with 6.0's limits, from the hex the move ends in."""
    where = ("assault",)
    if ctx.units[uid].kind != "squad":
        return [Problem(f"{uid} is a weapon team: weapon teams never assault fire", order=index, path=where,
                        section="5.2")]
    return fire_problems(ctx, board, uid, origin, target, index, where, in_melee)


def fire_problems(ctx: Context, board: Board, uid: str, origin: str, target: str, index: int,
                  where: tuple[str, ...], in_melee: bool, order: dict[str, Any] | None = None) -> list[Problem]:
    """6.0 and 16.0: an enemy-held hex in range and LOS, not into your own units, not from a melee;
    a gun or vehicle also within its arc after any turn (V2, V4) and naming its target where V10 asks."""
    unit = board.own[uid]
    order = order or {}
    kind = ctx.units[uid].type
    if in_melee:
        return [Problem(f"{uid} shares its hex with an enemy and may not fire", order=index, path=where,
                        section="6.0")]
    if order.get("satw"):
        return satw.problems(ctx, board, uid, origin, target, order, index)
    facing = unit.get("facing")
    if "facing" in order:
        if not kind.heavy:
            return [Problem(f"{uid} has no facing: only guns and vehicles turn", order=index, path=("facing",),
                            section="V4")]
        if kind.gun and ctx.building(origin) and order["facing"] != facing:
            return [Problem(f"{uid} is a gun in a building and may not turn", order=index, path=("facing",),
                            section="V2", legal=f"facing {facing}")]
        facing = order["facing"]
    in_reach = ", ".join(sorted(h for h in board.enemy_hexes() if reach(ctx, uid, unit["reduced"], origin, h,
                                                                         facing))) or "no enemy hex is in reach"
    if target not in board.enemy_hexes():
        return [Problem(f"no enemy piece is in {target}", order=index, path=where, section="6.0", legal=in_reach)]
    if board.own_in(target):
        return [Problem(f"{target} holds your own units: no fire into it", order=index, path=where, section="6.0")]
    if kind.heavy and reach(ctx, uid, unit["reduced"], origin, target) is not None and \
            reach(ctx, uid, unit["reduced"], origin, target, facing) is None:
        turns = facings_for(ctx, origin, target)
        return [Problem(f"{target} is outside {uid}'s firing arc (facing {facing})", order=index, path=where,
                        section="V4", legal=f"turn first: facing {' or '.join(str(f) for f in turns)}"
                        + (" (a gun in a building cannot turn)" if kind.gun and ctx.building(origin) else ""))]
    if reach(ctx, uid, unit["reduced"], origin, target) is None:
        face = kind.face(unit["reduced"])
        why = f"minimum range {face.range}" if kind.mortar else f"range {face.range} (double at half)"
        return [Problem(f"{uid} cannot fire at {target}: out of LOS or {why}", order=index, path=where,
                        section="16.0" if kind.mortar else "6.0", legal=in_reach)]
    declared = declared_target_problems(ctx, board, target, order.get("target"), index, where, heavy=kind.heavy)
    if not declared and "target" in order and not kind.heavy:
        return [_infantry_target(uid, target, index)]
    return declared


def _infantry_target(uid: str, target: str, index: int) -> Problem:
    return Problem(f"{uid} fires at every unit in {target} (6.0): only a gun or vehicle names its target",
                   order=index, path=("target",), section="V10", legal="leave `target` out")


def resolve(ctx: Context, state: State, dice: Dice, decisions: Decisions, uid: str, order: dict[str, Any],
            events: list[dict[str, Any]]) -> None:
    """Carry out one accepted move on the master state (5.0-5.2, 9.0, 10.0, 15.0)."""
    if ctx.units[uid].type.vehicle:
        vehicles.resolve(ctx, state, dice, decisions, uid, order, events)
        return
    unit = state["units"][uid]
    side = ctx.units[uid].side
    face = ctx.units[uid].type.face(unit["reduced"])
    start = unit["hex"] if unit["status"] == "active" else None
    retreating = bool(order.get("retreat"))
    reroll = bool(order.get("reroll"))
    move: dict[str, Any] = {"type": "move", "side": side, "section": "5.0", "unit": uid,
                            "as": public_name(state, uid), "from": start, "path": [], "retreat": retreating}
    started_in_melee = start is not None and bool(in_hex(ctx, state, start, other(side)))
    if started_in_melee:
        passed = check(ctx, state, dice, uid, kind="prof", section="5.0", events=events, prof=face.prof,
                       reroll=reroll, purpose="leave an enemy's hex")
    else:
        modifier = int(ctx.tables["modifiers"]["declared_retreat"]) if retreating else 0
        passed = check(ctx, state, dice, uid, kind="morale", section="5.1" if retreating else "5.0", events=events,
                       modifier=modifier, reroll=reroll, purpose="move")
    unit["used"] = True
    events.append(move)  # after its check; the steps and the fire they draw fill it in below
    if not passed:
        move["ended"] = "failed its check"
        return
    path = list(order["path"])
    misses: dict[str, int] = {}  # V4: a gun's or vehicle's failed Op Fire checks at this mover
    if start is not None and in_hex(ctx, state, path[0], other(side)):
        # 9.0: fire at the mover in its own hex as it tries to enter an enemy's
        if react(ctx, state, dice, decisions, Step(uid, start, None, entered=False), events, retreating=retreating,
                 reroll=reroll, misses=misses) != "go":
            move["ended"] = _end_reason(unit)
            return
    previous = start
    for hex_id in path:
        if any(ctx.units[u].type.vehicle for u in in_hex(ctx, state, hex_id, other(side))):
            close_assault.resolve(ctx, state, dice, decisions, uid, hex_id, previous, move, events, reroll=reroll,
                                  misses=misses)
            return
        unit["status"] = "active"
        unit["hex"] = hex_id
        if ctx.dike(hex_id):
            unit["bank"] = bank_of(ctx, hex_id, previous)
        move["path"].append(hex_id)
        outcome = react(ctx, state, dice, decisions, Step(uid, hex_id, previous), events, retreating=retreating,
                        reroll=reroll, misses=misses)
        if outcome == "gone":
            move["ended"] = _end_reason(unit)
            return
        if outcome == "stopped":
            if len(stacked(ctx, state, hex_id, side)) > int(ctx.tables["stacking"]) and previous is not None:
                unit["hex"] = previous  # 5.0: back to the previous hex rather than overstack
                move["back_to"] = previous
            move["ended"] = "failed its check under fire"
            conceal.adjacent_enemy(ctx, state, uid, events)  # 15.0: it survived the fire there
            conceal.sweep(ctx, state, events)
            conceal.regain(ctx, state, uid, events)
            return
        conceal.adjacent_enemy(ctx, state, uid, events)
        conceal.sweep(ctx, state, events)
        if state["units"][uid]["status"] != "active":
            move["ended"] = _end_reason(unit)
            return
        if in_hex(ctx, state, hex_id, other(side)):
            move["ended"] = "entered an enemy's hex"
            break
        previous = hex_id
    if "assault" in order and unit["status"] == "active":
        _assault(ctx, state, dice, uid, order["assault"], reroll, events)
    if unit["status"] == "active":
        conceal.regain(ctx, state, uid, events)


def _end_reason(unit: dict[str, Any]) -> str:
    return "eliminated" if unit["status"] == "eliminated" else "removed" if unit["status"] == "removed" else "stopped"


def _assault(ctx: Context, state: State, dice: Dice, uid: str, target: str, reroll: bool,
             events: list[dict[str, Any]]) -> None:
    """5.2: a Prof Check, then a fire attack at +1, before the unit is marked Used."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    origin = unit["hex"]
    how = reach(ctx, uid, unit["reduced"], origin, target)
    if how is None or in_hex(ctx, state, origin, other(side)) or not in_hex(ctx, state, target, other(side)):
        events.append({"type": "order-void", "side": side, "section": "5.2", "unit": uid,
                       "why": "no enemy left in reach of the assault fire"})
        return
    face = ctx.units[uid].type.face(unit["reduced"])
    if not check(ctx, state, dice, uid, kind="prof", section="5.2", events=events, prof=face.prof, reroll=reroll,
                 purpose="assault fire"):
        return
    if unit["concealed"]:
        conceal.take_off(ctx, state, uid, "it fired", events)
    attack(ctx, state, dice, uid, origin, target, how, fire="assault", targets=targets_in(ctx, state, target, side),
           section="5.2", events=events)
    conceal.sweep(ctx, state, events)
