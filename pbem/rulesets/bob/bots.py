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

from . import operations, setup
from .board import Board
from .context import Context
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
    count = min(len(available), low + _pick(seed, "count", high - low + 1))
    if board.enemy_can_use == 0:
        count = len(available)
    chosen = _shuffled(available, seed, f"impulse{view['impulse']}")[:count]
    if phase == "preturn":
        chosen = chosen[:board.cps]
    found: list[dict[str, Any]] = []
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
    if unit["status"] == "active" and not ctx.units[uid].decoy:
        targets = [h for h in sorted(enemy) if reach(ctx, uid, unit["reduced"], unit["hex"], h)]
        targets.sort(key=lambda h: (-enemy[h], ctx.hexes.distance(unit["hex"], h), h))
        out += [{"fire": uid, "at": h, "reroll": True} for h in targets[:1]]
    path = _route(ctx, board, uid, held)
    if path:
        out.append({"move": uid, "path": path, "reroll": True})
    if unit["status"] == "active" and (_pick(seed, uid, 3) == 0 or ctx.units[uid].decoy):
        out.append({"opfire": uid})
    out.append({"used": uid})
    return out


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


def _cheapest(ctx: Context, start: str, goal: str) -> list[str]:
    """The cheapest path from start to goal by the movement costs (Dijkstra; ties by hex id), [start] if none."""
    best: dict[str, tuple[int, str]] = {start: (0, "")}
    frontier: list[tuple[int, str]] = [(0, start)]
    while frontier:
        cost, here = heapq.heappop(frontier)
        if here == goal:
            break
        if cost > best[here][0]:
            continue
        for there in ctx.hexes.neighbours(here):
            step = ctx.move_cost(here, there) if ctx.hexes.on_map(there) else None
            if step is not None and (there not in best or cost + step < best[there][0]):
                best[there] = (cost + step, here)
                heapq.heappush(frontier, (cost + step, there))
    if goal not in best:
        return [start]
    found = [goal]
    while found[-1] != start:
        found.append(best[found[-1]][1])
    return found[::-1]
