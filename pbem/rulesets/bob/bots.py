"""Bots for both sides, from their own view alone (with the default standing orders: units marked Op
Fire fire at the first mover they can, Used units at adjacent movers).

Set-up: every unit on a hex of the set-up area drawn from the bot's seed (concealed ones and
decoys in cover), listed in a shuffled order (so marker numbers follow no pattern). An impulse: as many units as the Operations Range
allows, each firing at the enemy hex it reaches with the most pieces, else moving toward the
nearest objective the side does not hold (or the nearest enemy), else marking Op Fire; every
action is checked with the same validation as a player's orders and dropped for `used` if it
fails.
"""

from __future__ import annotations

import copy
import hashlib
import heapq
from typing import Any

from pbem.core.ruleset import State

from . import artillery, operations, satw, setup, vehicles
from .board import Board
from .context import Context
from .facing import turn_to
from .fire import reach


def _pick(seed: bytes, label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:8], "big") % n


def _shuffled(items: list[str], seed: bytes, label: str) -> list[str]:
    keyed = sorted((hashlib.sha256(seed + f"{label}:{item}".encode()).digest(), item) for item in items)
    return [item for _, item in keyed]


def orders(ctx: Context, view: State, side: str, seed: bytes) -> list[Any]:
    phase = view["phase"]
    if phase == "setup":
        return _setup(ctx, side, seed)
    if phase not in ("operations", "preturn") or view["active"] != side:
        return []
    board = Board.from_view(view)
    available = [uid for uid in sorted(board.own) if board.available(ctx, uid)]
    low, high = ctx.card.ops_range[side]
    target = low + _pick(seed, "count", high - low + 1)
    shuffled = _shuffled(available, seed, f"impulse{view['impulse']}")
    found: list[dict[str, Any]] = []
    if phase == "operations" and board.enemy_can_use > 0 and high >= int(ctx.tables["ops_weight"]):
        found += _artillery(ctx, view, board, seed)
    weight = int(ctx.tables["ops_weight"]) * len(found)  # 17.0: a call counts three units
    if board.enemy_can_use == 0:
        chosen = shuffled
    elif phase == "preturn":
        chosen = [u for u in shuffled if not ctx.units[u].type.heavy][:board.cps]
    else:
        chosen = _within_range(ctx, shuffled, max(target - weight, 0), max(low - weight, 0), high - weight)
    seen: set[str] = set()
    for uid in chosen:
        for order in _candidates(ctx, board, uid, seed, view["held"]):
            trial = copy.deepcopy(board)
            if not operations.action_problems(ctx, trial, order, len(found), available, set(seen)):
                board = trial
                seen.add(uid)
                found.append(order)
                break
    return found


def _within_range(ctx: Context, shuffled: list[str], target: int, low: int, high: int) -> list[str]:
    """Units to Use, their weights (a gun or vehicle three, V1) making at least the least and at most the most."""
    chosen: list[str] = []
    total = 0
    for limit in (target, high):
        for uid in shuffled:
            if uid not in chosen and total + ctx.weight(uid) <= limit:
                chosen.append(uid)
                total += ctx.weight(uid)
        if total >= min(low, sum(ctx.weight(u) for u in shuffled)):
            return chosen
    heavy = [u for u in shuffled if ctx.units[u].type.heavy]
    return heavy[:1] if heavy and not chosen else chosen  # V1: a gun or vehicle alone


def _artillery(ctx: Context, view: State, board: Board, seed: bytes) -> list[dict[str, Any]]:
    """17.0: call a support left this turn on the enemy hex with the most pieces, three hexes clear of ours."""
    if _pick(seed, "artillery", 2):
        return []
    record = view.get("artillery") or {}
    used = set(record.get("used", [])) | set(record.get("marked", []))
    ready = sorted(s for s in artillery.supports(ctx, board.side) if s not in used)
    ours = [u["hex"] for u in board.own.values() if u["status"] == "active"]
    enemy = board.enemy_hexes()
    targets = sorted((h for h in enemy if all(ctx.hexes.distance(h, o) > 3 for o in ours)),
                     key=lambda h: (-enemy[h], h))
    if not ready:
        return []
    if not targets:
        return [{"artillery": ready[0], "opfire": True}]  # 17.0: wait for a mover instead
    return [{"artillery": ready[0], "at": targets[0]}]


def _setup(ctx: Context, side: str, seed: bytes) -> list[dict[str, Any]]:
    """Every unit on a hex of the set-up area drawn from the bot's own seed (the scenario's hexes are
    public, so a side keeping them would show where its decoys stand); concealed ones in cover."""
    area = list(ctx.setup_area(side))
    covered = [h for h in area if setup.in_cover(ctx, h, set())]
    count: dict[str, int] = {}
    found: list[dict[str, Any]] = []
    for uid in _shuffled([u for u, unit in ctx.units.items() if unit.side == side and unit.hex is not None], seed,
                         "setup"):
        hidden = ctx.units[uid].concealed or ctx.units[uid].decoy
        pool = [h for h in _shuffled(covered if hidden else area, seed, uid) if count.get(h, 0) < 2]
        hex_id = pool[0] if pool else str(ctx.units[uid].hex)
        count[hex_id] = count.get(hex_id, 0) + 1
        found.append({"place": uid, "hex": hex_id, "concealed": hidden})
    return found


def _candidates(ctx: Context, board: Board, uid: str, seed: bytes, held: dict[str, str]) -> list[dict[str, Any]]:
    unit = board.own[uid]
    out: list[dict[str, Any]] = []
    enemy = board.enemy_hexes()
    kind = ctx.units[uid].type
    if unit["status"] == "active" and not ctx.units[uid].decoy:
        out += _anti_tank(ctx, board, uid)
        targets = [h for h in sorted(enemy) if reach(ctx, uid, unit["reduced"], unit["hex"], h)]
        targets.sort(key=lambda h: (-enemy[h], ctx.hexes.distance(unit["hex"], h), h))
        for h in targets[:2]:
            order: dict[str, Any] = {"fire": uid, "at": h, "reroll": True}
            if kind.heavy:
                order.update(_aim(ctx, board, uid, h))
            out.append(order)
    if kind.vehicle:
        path = _vehicle_route(ctx, board, uid, held)
    elif kind.gun:
        path = []
    else:
        path = _route(ctx, board, uid, held)
    if path:
        out.append({"move": uid, "path": path, "reroll": True})
    if unit["status"] == "active" and (_pick(seed, uid, 3) == 0 or ctx.units[uid].decoy or kind.gun):
        out.append({"opfire": uid})
    out.append({"used": uid})
    return out


def _aim(ctx: Context, board: Board, uid: str, hex_id: str) -> dict[str, Any]:
    """A gun's or vehicle's turn to face the target (V4) and its named target beside a vehicle (V10)."""
    unit = board.own[uid]
    extra: dict[str, Any] = {}
    facing = turn_to(ctx, unit["hex"], int(unit["facing"]), hex_id)
    if facing != unit["facing"]:
        extra["facing"] = facing
    pieces = [p for p in board.enemy if p["hex"] == hex_id]
    vehicles = [str(p["unit"]) for p in pieces if "type" in p and ctx.types[p["type"]].vehicle]
    if vehicles:
        extra["target"] = vehicles[0]
    return extra


def _anti_tank(ctx: Context, board: Board, uid: str) -> list[dict[str, Any]]:
    """V9: a squad's bazooka or panzerfaust at the nearest face-up enemy vehicle in reach."""
    unit = board.own[uid]
    name = satw.weapon(ctx, uid, unit)
    if name is None:
        return []
    vehicles = sorted((ctx.hexes.distance(unit["hex"], p["hex"]), str(p["hex"]), str(p["unit"])) for p in board.enemy
                      if "type" in p and ctx.types[p["type"]].vehicle)
    return [{"fire": uid, "at": h, "satw": True, "target": v} for _, h, v in vehicles[:1]]


def _vehicle_route(ctx: Context, board: Board, uid: str, held: dict[str, str]) -> list[str]:
    """V3: toward the goal by the vehicle costs, turning as it must, never ending among enemies or friends' vehicles."""
    unit = board.own[uid]
    enemy = board.enemy_hexes()
    targets = [h for h, side in sorted(held.items()) if side != board.side] or sorted(enemy)
    entries = [h for h in ctx.entry_hexes(board.side) if ctx.vehicle_move_cost(h, h) is not None and h not in enemy]
    if not targets or (unit["status"] != "active" and not entries):
        return []
    start = unit["hex"] if unit["status"] == "active" else entries[0]
    goal = min(targets, key=lambda h: (ctx.hexes.distance(start, h), h))
    allowance = ctx.allowance(uid)
    path: list[str] = [] if unit["status"] == "active" else [start]
    spent = 0 if unit["status"] == "active" else (ctx.vehicle_move_cost(start, start) or 0)
    facing = int(unit["facing"])
    here = start
    for step in _cheapest(ctx, start, goal, vehicle=True)[1:]:
        if step in enemy:
            break
        turned = vehicles.next_facing(ctx, here, step, facing)
        cost = (ctx.vehicle_move_cost(here, step) or 99) + (int(ctx.tables["vehicle_turn_cost"]) if turned != facing
                                                            else 0)
        if spent + cost > allowance:
            break
        spent += cost
        facing = turned
        path.append(step)
        here = step
    while path and [u for u in board.own_in(path[-1]) if ctx.units[u].type.vehicle and u != uid]:
        path.pop()
    return path


def _route(ctx: Context, board: Board, uid: str, held: dict[str, str]) -> list[str]:
    """A cheapest path toward the goal, cut where the allowance ends or at an enemy's hex."""
    unit = board.own[uid]
    enemy = board.enemy_hexes()
    starts = [unit["hex"]] if unit["status"] == "active" else list(ctx.entry_hexes(board.side))
    targets = [h for h, side in sorted(held.items()) if side != board.side] or sorted(enemy)
    if not starts or not targets:
        return []
    start = starts[0]
    goal = min(targets, key=lambda h: (ctx.hexes.distance(start, h), h))
    allowance = ctx.allowance(uid)
    spent = 0 if unit["status"] == "active" else (ctx.move_cost(start, start) or 0)
    path: list[str] = [] if unit["status"] == "active" else [start]
    for step in _cheapest(ctx, start, goal)[1:]:
        cost = ctx.move_cost(path[-1] if path else start, step) or 99
        if spent + cost > allowance:
            break
        spent += cost
        path.append(step)
        if step in enemy:
            break
    return path


def _cheapest(ctx: Context, start: str, goal: str, vehicle: bool = False) -> list[str]:
    """The cheapest path from start to goal by the movement costs (Dijkstra; ties by hex id), [start] if none."""
    cost_of = ctx.vehicle_move_cost if vehicle else ctx.move_cost
    best: dict[str, tuple[int, str]] = {start: (0, "")}
    frontier: list[tuple[int, str]] = [(0, start)]
    while frontier:
        cost, here = heapq.heappop(frontier)
        if here == goal:
            break
        if cost > best[here][0]:
            continue
        for there in ctx.hexes.neighbours(here):
            step = cost_of(here, there) if ctx.hexes.on_map(there) else None
            if step is not None and (there not in best or cost + step < best[there][0]):
                best[there] = (cost + step, here)
                heapq.heappush(frontier, (cost + step, there))
    if goal not in best:
        return [start]
    found = [goal]
    while found[-1] != start:
        found.append(best[found[-1]][1])
    return found[::-1]
