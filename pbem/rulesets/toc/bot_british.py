"""The British bot: hold the canal bridges through the first day, then fall back and leave the map.

Plays from the British view only. Turns 1-7: battalions on the bridge hexes stay, reserves fill
thin bridge garrisons, and the player turn is move-fight (shuffle, then bombard). From turn 6
units that are not holding a bridge start south; from turn 8 (when exits open, 4.4) the player
turn is move-move and every unit makes for the nearest exit hex, keeping out of German ZOC where
it can, and leaves. Melee only at long odds against what the view shows.
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .botkit import INF, OFF, field, move_order, reach
from .movement import Walker


def choose_sequence(board: Board) -> str:
    """5.3: move-move once the exits open (turn 8), move-fight before; both need one mail exchange,
    the second phase's orders travelling with the first's (`next_phase`)."""
    ctx = board.ctx
    if board.turn >= int(ctx.tables["exit_from_turn"]):
        return "move-move"
    return "move-fight"


def _exit_field(board: Board, kind: str) -> dict[str, int]:
    ctx = board.ctx
    danger = {h: 3 for e in board.enemy for h in ctx.hexes.neighbours(e) if board.ezoc(h)}
    return field(ctx, kind, {h: 0 for h in ctx.hexes.set("exit")}, set(board.enemy), danger)


def _garrison_field(board: Board, kind: str) -> dict[str, int]:
    ctx = board.ctx
    goals: dict[str, int] = {}
    for hex_id in ctx.hexes.set("bridges"):
        if board.enemy_at(hex_id):
            continue
        points = board.stacking_points(hex_id)
        if points < 3:
            goals[hex_id] = 0
    return field(ctx, kind, goals, set(board.enemy)) if goals else {}


def movement_orders(board: Board, walker: Walker | None = None) -> list[dict[str, Any]]:
    ctx = board.ctx
    walker = walker or Walker(board)
    orders: list[dict[str, Any]] = []
    leaving = board.turn >= int(ctx.tables["exit_from_turn"])
    falling_back = board.turn >= int(ctx.tables["first_day_turn"]) - 1
    bridges = set(ctx.hexes.set("bridges"))
    fields: dict[str, dict[str, int]] = {}

    def field_for(kind: str, purpose: str) -> dict[str, int]:
        kind = {"cavalry": "infantry", "horse-artillery": "field-artillery"}.get(kind, kind)
        key = f"{purpose}:{kind}"
        if key not in fields:
            fields[key] = _exit_field(board, kind) if purpose == "exit" else _garrison_field(board, kind)
        return fields[key]

    on_map = sorted(uid for uid, u in board.own.items() if u["status"] == "active")
    exit_values = {uid: field_for(ctx.counters[uid].kind, "exit").get(str(board.hex_of(uid)), INF) for uid in on_map}
    groups: dict[str, list[str]] = {}
    for uid in on_map:
        groups.setdefault(str(board.hex_of(uid)), []).append(uid)
    ordered = sorted(groups.items(), key=lambda item: (min(exit_values[u] for u in item[1]), item[0]))
    for here, units in ordered:
        holding = here in bridges and not leaving
        for uid in units:
            kind = ctx.counters[uid].kind
            if leaving or (falling_back and not holding):
                purpose = "exit"
            elif holding:
                continue
            elif kind in ("infantry",):
                purpose = "garrison"
            else:
                continue
            values = field_for(kind, purpose)
            if not values:
                continue
            order = _best_move(walker, uid, values, len(orders), leaving)
            if order:
                orders.append(order)
    return orders


def _best_move(walker: Walker, uid: str, values: dict[str, int], index: int, leaving: bool) -> dict[str, Any] | None:
    board = walker.board
    ctx = board.ctx
    here = str(board.hex_of(uid))
    found = reach(walker, uid, False)
    current = values.get(here, INF)
    best: tuple[int, int, str] | None = None
    for hex_id, spent in found.cost.items():
        if hex_id == here:
            continue
        key = (values.get(hex_id, INF), spent, hex_id)
        if best is None or key < best:
            best = key
    path: list[str] = []
    if best is not None and best[0] < current:
        path = found.path(best[2])[1:]
        dest = best[2]
        spent = best[1]
    else:
        dest = here
        spent = found.cost.get(here, 0)
    if leaving and dest in ctx.hexes.set("exit"):
        from .movement import allowance

        if spent + int(ctx.tables["exit_cost"]) <= allowance(ctx, uid, False):
            path = path + [OFF]
    if not path:
        return None
    return move_order(walker, uid, path, False, index)


# --- combat --------------------------------------------------------------------------------------


def estimate_german(board: Board, target: str) -> int:
    ctx = board.ctx
    top = board.enemy_top[target]
    first = ctx.counters[top["unit"]].melee(top["steps"])
    return first + 8 * (board.enemy[target] - 1)


def combat_orders(board: Board) -> list[dict[str, Any]]:
    ctx = board.ctx
    from .bombardment import check as check_bombard
    from .melee import check as check_melee

    orders: list[dict[str, Any]] = []
    artillery = [uid for uid, u in sorted(board.own.items()) if u["status"] == "active" and ctx.counters[uid].artillery]
    own = board.own_hexes()
    targets = sorted(board.enemy, key=lambda h: (-sum(1 for n in ctx.hexes.neighbours(h) if n in own), h))
    used: set[str] = set()
    bombarded: set[str] = set()
    for target in targets:
        able = [uid for uid in artillery if uid not in used
                and ctx.hexes.distance(str(board.hex_of(uid)), target) <= ctx.counters[uid].range]
        if not able:
            continue
        for units in (able, [u for u in able if ctx.los_clear(str(board.hex_of(u)), target)]):
            if not units:
                continue
            order: dict[str, Any] = {"bombard": target, "with": units}
            found, fire = check_bombard(board, order, len(orders), used, bombarded)
            if not found and fire is not None:
                orders.append(order)
                used.update(units)
                bombarded.add(target)
                break
    fighters = [uid for uid, u in sorted(board.own.items()) if u["status"] == "active" and ctx.counters[uid].melee_capable]
    attackers: set[str] = set()
    meleed: set[str] = set()
    for target in targets:
        near = [uid for uid in fighters if uid not in attackers and ctx.hexes.adjacent(str(board.hex_of(uid)), target)
                and not ctx.canal_blocks(str(board.hex_of(uid)), target)]
        if not near:
            continue
        total = sum(ctx.counters[u].melee(board.own[u]["steps"]) for u in near)
        if total >= 3 * estimate_german(board, target):
            strongest = max(near, key=lambda u: (ctx.counters[u].melee(board.own[u]["steps"]), u))
            order = {"melee": target, "with": near, "advance": [strongest]}
            if not check_melee(board, order, len(orders), attackers, meleed):
                orders.append(order)
                attackers.update(near)
                meleed.add(target)
    return orders


__all__ = ["choose_sequence", "combat_orders", "movement_orders"]
