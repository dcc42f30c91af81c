"""The German bot: enter on schedule, march on the canal bridges, then on Bavai; bombard and storm.

Plays from the German view only. Movement: every unit heads down a distance field toward its
goals (first-day bridges until turn 7, Bavai and the retreating BEF after), artillery toward
firing positions two or three hexes from British hexes; march mode when it gets further.
Combat: artillery groups (one division plus the corps' heavy regiment before turn 11) bombard
the British hexes about to be stormed; infantry and cavalry of one division melee British hexes
at odds worth taking (a bridge or Bavai is worth a riskier attack).
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .botkit import INF, field, move_order, reach
from .context import Context
from .movement import Walker, due

ORDER = {"infantry": 0, "cavalry": 1, "field-artillery": 2, "heavy-artillery": 3, "horse-artillery": 3}


def attack_positions(ctx: Context, board: Board, target: str) -> list[str]:
    return [n for n in ctx.hexes.neighbours(target) if not ctx.canal_blocks(n, target) and not board.enemy_at(n)]


def infantry_goals(board: Board) -> dict[str, int]:
    ctx = board.ctx
    goals: dict[str, int] = {}

    def add(hex_id: str, offset: int) -> None:
        goals[hex_id] = min(goals.get(hex_id, INF), offset)

    bridges = [h for h in ctx.hexes.set("bridges") if h not in board.control]
    bavai = [h for h in ctx.hexes.set("bavai") if h not in board.control or board.enemy_at(h)]
    first_day = board.turn <= int(ctx.tables["first_day_turn"])
    for hex_id in bridges if first_day else []:
        if board.enemy_at(hex_id):
            for n in attack_positions(ctx, board, hex_id):
                add(n, 0)
        else:
            add(hex_id, 0)
    for hex_id in bavai:
        offset = 6 if first_day else 0
        if board.enemy_at(hex_id):
            for n in attack_positions(ctx, board, hex_id):
                add(n, offset)
        else:
            add(hex_id, offset)
    for hex_id in sorted(board.enemy):
        for n in attack_positions(ctx, board, hex_id):
            add(n, 4 if first_day else 2)
    if not first_day and board.enemy:
        for hex_id in ctx.hexes.set("exit"):
            add(hex_id, 6)
    return goals


def artillery_goals(board: Board, uid: str) -> dict[str, int]:
    ctx = board.ctx
    reach_ = ctx.counters[uid].range
    goals: dict[str, int] = {}
    key_hexes = set(ctx.hexes.set("bridges")) | set(ctx.hexes.set("bavai"))
    for target in sorted(board.enemy):
        offset = 0 if target in key_hexes else 2
        for hex_id in ctx.within(target, max(2, reach_ - 1)):
            if ctx.hexes.distance(hex_id, target) < 2 or board.next_to_enemy(hex_id):
                continue
            goals[hex_id] = min(goals.get(hex_id, offset), offset)
    if not goals:
        for hex_id in ctx.hexes.set("bavai") + ctx.hexes.set("bridges"):
            goals[hex_id] = 4
    return goals


def movement_orders(board: Board, walker: Walker | None = None) -> list[dict[str, Any]]:
    ctx = board.ctx
    walker = walker or Walker(board)
    orders: list[dict[str, Any]] = []
    blocked = set(board.enemy)
    if not board.enemy and all(h in board.control for h in ctx.hexes.set("bavai")) and not any(
            due(board, uid) for uid in board.own):
        return orders  # the BEF has gone and Bavai is held: nothing left to march for
    inf_field = field(ctx, "infantry", infantry_goals(board), blocked)
    fields: dict[str, dict[str, int]] = {}

    def field_for(uid: str) -> dict[str, int]:
        counter = ctx.counters[uid]
        if counter.melee_capable:
            return inf_field
        key = f"{counter.kind}:{counter.range}"
        if key not in fields:
            fields[key] = field(ctx, counter.kind, artillery_goals(board, uid), blocked)
        return fields[key]

    def value(uid: str, hex_id: str | None) -> int:
        if hex_id is None:
            return INF
        return field_for(uid).get(hex_id, INF)

    on_map = sorted(uid for uid, u in board.own.items() if u["status"] == "active")
    groups: dict[str, list[str]] = {}
    for uid in on_map:
        groups.setdefault(str(board.hex_of(uid)), []).append(uid)
    ordered = sorted(groups.items(), key=lambda item: (min(value(u, item[0]) for u in item[1]), item[0]))
    for _, units in ordered:
        for uid in sorted(units, key=lambda u: (ORDER[ctx.counters[u].kind], u)):
            order = _best_move(walker, uid, field_for(uid), len(orders))
            if order:
                orders.append(order)
    # entering units (8.2-8.4), column by column: infantry first, the slow heavy artillery last
    waiting = sorted((uid for uid in board.own if due(board, uid)),
                     key=lambda u: (ORDER[ctx.counters[u].kind], u))
    entry_hexes = sorted({h for uid in waiting for h in ctx.entry_for(uid).hexes})  # type: ignore[union-attr]
    for hex_id in entry_hexes:
        for uid in waiting:
            entry = ctx.entry_for(uid)
            if board.own[uid]["status"] != "container" or entry is None or hex_id not in entry.hexes:
                continue
            if len(entry.hexes) > 1 and hex_id != _lighter(walker, entry.hexes):
                continue
            order = _best_move(walker, uid, field_for(uid), len(orders), hex_id)
            if order:
                orders.append(order)
    return orders


def _lighter(walker: Walker, hexes: tuple[str, ...]) -> str:
    """8.2: a separate unit takes whichever of its entry hexes has the shorter column so far."""
    return min(hexes, key=lambda h: (walker.plan.columns.get(h, 0), h))


def _best_move(walker: Walker, uid: str, values: dict[str, int], index: int,
               entry_hex: str | None = None) -> dict[str, Any] | None:
    board = walker.board
    here = board.hex_of(uid) if board.own[uid]["status"] == "active" else None
    current = values.get(here, INF) if here else INF
    if current == 0 or not values:
        return None  # already where it wants to be, or nowhere to go
    best: tuple[int, int, int, str] | None = None
    best_path: list[str] = []
    best_march = False
    for march in (False, True):
        found = reach(walker, uid, march, entry_hex)
        for hex_id, spent in found.cost.items():
            if hex_id == here:
                continue
            key = (values.get(hex_id, INF), 1 if march else 0, spent, hex_id)
            if best is None or key < best:
                best, best_march = key, march
                best_path = found.path(hex_id)
    if best is None or (here is not None and best[0] >= current):
        return None
    path = best_path[1:] if here is not None else best_path
    return move_order(walker, uid, path, best_march, index)


# --- combat --------------------------------------------------------------------------------------


def estimate_defence(board: Board, target: str) -> int:
    """A guess at the British melee total in a hex from what the view shows (top unit and count)."""
    ctx = board.ctx
    top = board.enemy_top[target]
    counter = ctx.counters[top["unit"]]
    first = counter.melee(top["steps"])
    return first + 4 * (board.enemy[target] - 1)


def division_groups(board: Board, units: list[str]) -> dict[tuple[str, str], list[str]]:
    """Units that may act together: one division plus the separate units of its corps (10.6, 12.14);
    from turn 11 one whole corps."""
    ctx = board.ctx
    late = board.turn >= int(ctx.tables["organisation_turn"])
    divisions: dict[str, set[str]] = {}
    for uid, counter in ctx.counters.items():
        if counter.side == "german" and counter.division is not None:
            divisions.setdefault(str(counter.corps), set()).add(str(counter.division))
    groups: dict[tuple[str, str], list[str]] = {}
    for uid in units:
        counter = ctx.counters[uid]
        corps = str(counter.corps)
        if late:
            keys = [(corps, "*")]
        elif counter.division is None:
            keys = [(corps, d) for d in sorted(divisions.get(corps, set()))]
        else:
            keys = [(corps, str(counter.division))]
        for key in keys:
            groups.setdefault(key, []).append(uid)
    return {k: sorted(v) for k, v in sorted(groups.items())}


def combat_orders(board: Board) -> list[dict[str, Any]]:
    ctx = board.ctx
    from .bombardment import check as check_bombard
    from .melee import check as check_melee

    first_day = board.turn <= int(ctx.tables["first_day_turn"])
    key_hexes = set(ctx.hexes.set("bridges")) if first_day else set(ctx.hexes.set("bavai"))
    fighters = [uid for uid, u in sorted(board.own.items())
                if u["status"] == "active" and ctx.counters[uid].melee_capable and uid not in board.marched]
    # plan the melees first, so the artillery can prepare them
    melees: list[tuple[str, list[str], int, int]] = []
    used: set[str] = set()
    targets = sorted(board.enemy, key=lambda h: (0 if h in key_hexes else 1, h))
    for target in targets:
        near = [uid for uid in fighters if uid not in used and ctx.hexes.adjacent(str(board.hex_of(uid)), target)
                and not ctx.canal_blocks(str(board.hex_of(uid)), target)]
        if not near:
            continue
        best: list[str] = []
        best_total = 0
        for _, units in division_groups(board, near).items():
            total = sum(ctx.counters[u].melee(board.own[u]["steps"]) for u in units)
            if total > best_total:
                best, best_total = units, total
        defence = estimate_defence(board, target)
        needed = 1 if (target in key_hexes or not first_day) else 2
        if best and best_total >= needed * defence:
            melees.append((target, best, best_total, defence))
            used.update(best)
    orders: list[dict[str, Any]] = []
    used_art: set[str] = set()
    bombarded: set[str] = set()
    artillery = [uid for uid, u in sorted(board.own.items())
                 if u["status"] == "active" and ctx.counters[uid].artillery and uid not in board.marched]
    priority = [m[0] for m in melees] + [h for h in targets if h not in {m[0] for m in melees}]
    for target in priority:
        able = [uid for uid in artillery if uid not in used_art
                and ctx.hexes.distance(str(board.hex_of(uid)), target) <= ctx.counters[uid].range]
        if not able:
            continue
        for _, units in sorted(division_groups(board, able).items(), key=lambda kv: -len(kv[1])):
            order: dict[str, Any] = {"bombard": target, "with": units}
            found, fire = check_bombard(board, order, len(orders), used_art, bombarded)
            if not found and fire is not None:
                orders.append(order)
                used_art.update(units)
                bombarded.add(target)
                break
            # drop the units without a line of sight and try again
            seeing = [u for u in units if ctx.los_clear(str(board.hex_of(u)), target)]
            if seeing and seeing != units:
                order = {"bombard": target, "with": seeing}
                found, fire = check_bombard(board, order, len(orders), used_art, bombarded)
                if not found and fire is not None:
                    orders.append(order)
                    used_art.update(seeing)
                    bombarded.add(target)
                    break
    meleed: set[str] = set()
    attackers: set[str] = set()
    for target, units, _, _ in melees:
        strongest = max(units, key=lambda u: (ctx.counters[u].melee(board.own[u]["steps"]), u))
        order = {"melee": target, "with": units, "advance": [strongest]}
        if not check_melee(board, order, len(orders), attackers, meleed):
            orders.append(order)
            attackers.update(units)
            meleed.add(target)
    return orders
