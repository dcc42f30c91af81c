"""Tools the bots share: where one unit can go this phase, distance fields to goals, order building.

Everything works from a side's `Board` (built from its view) and the movement `Walker`, so a bot
only ever issues orders the referee's own check accepts.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable, Mapping

from .board import Board
from .context import Context
from .movement import OFF, Walker, allowance

INF = 10**9


@dataclass(frozen=True)
class Reach:
    cost: dict[str, int]
    prev: dict[str, str | None]

    def path(self, dest: str) -> list[str]:
        out = []
        here: str | None = dest
        while here is not None:
            out.append(here)
            here = self.prev[here]
        return list(reversed(out))


def can_stand(board: Board, uid: str, hex_id: str, march: bool) -> bool:
    ctx = board.ctx
    counter = ctx.counters[uid]
    if board.enemy_at(hex_id):
        return False
    if board.stacking_points(hex_id, {uid}) + counter.stacking > int(ctx.tables["stacking_points"]):
        return False
    if board.side == "german" and board.corps_in(hex_id, {uid}) - {str(counter.corps)}:
        return False
    if march and board.next_to_enemy(hex_id):
        return False
    return True


def reach(walker: Walker, uid: str, march: bool, entry_hex: str | None = None) -> Reach:
    """Every hex one unit could end in this phase (hex -> MP used), honouring 7.3, 8.4, 9.x and 6.x."""
    board = walker.board
    ctx = board.ctx
    info = walker.plan.units.get(uid)
    if info is None or info.stopped:
        return Reach({}, {})
    if info.march is not None and info.march != march:
        return Reach({}, {})
    if march and (board.side != "german" or info.began_next_to_enemy):
        return Reach({}, {})
    budget = allowance(ctx, uid, march)
    kind = ctx.counters[uid].kind
    start = board.hex_of(uid) if board.own[uid]["status"] == "active" else None
    cost: dict[str, int] = {}
    prev: dict[str, str | None] = {}
    heap: list[tuple[int, str]] = []
    if start is None:
        entry = ctx.entry_for(uid)
        if entry is None or board.turn < entry.turn:
            return Reach({}, {})
        for hex_id in entry.hexes:
            if entry_hex is not None and hex_id != entry_hex:
                continue
            column = walker.plan.columns.get(hex_id, 0) + 1
            if column <= budget and can_stand(board, uid, hex_id, march):
                cost[hex_id] = column
                prev[hex_id] = None
                heapq.heappush(heap, (column, hex_id))
    else:
        cost[start] = info.mp
        prev[start] = None
        heapq.heappush(heap, (info.mp, start))
    while heap:
        spent, here = heapq.heappop(heap)
        if spent > cost.get(here, INF):
            continue
        if here != start and board.ezoc(here):
            continue  # 7.3: stop in the first enemy ZOC entered
        for n, step in ctx.exits_from(kind, here):
            total = spent + step
            if total > budget or total >= cost.get(n, INF):
                continue
            if board.ezoc(here) and board.ezoc(n):
                continue
            if not can_stand(board, uid, n, march):
                continue
            cost[n] = total
            prev[n] = here
            heapq.heappush(heap, (total, n))
    return Reach(cost, prev)


def field(ctx: Context, kind: str, goals: Mapping[str, int], blocked: Iterable[str] = (),
          penalty: Mapping[str, int] | None = None) -> dict[str, int]:
    """Cost for a unit of `kind` to get from each hex to the cheapest goal (plus the goal's offset)."""
    blocked = set(blocked)
    penalty = penalty or {}
    dist: dict[str, int] = {}
    heap = [(offset, g) for g, offset in sorted(goals.items()) if ctx.hexes.on_map(g)]
    for offset, g in heap:
        dist[g] = min(dist.get(g, INF), offset)
    heapq.heapify(heap)
    while heap:
        d, here = heapq.heappop(heap)
        if d > dist.get(here, INF):
            continue
        for n, step in ctx.entries_into(kind, here):
            if n in blocked:
                continue
            total = d + step + penalty.get(n, 0)
            if total < dist.get(n, INF):
                dist[n] = total
                heapq.heappush(heap, (total, n))
    return dist


def move_order(walker: Walker, uid: str, path: list[str], march: bool, index: int) -> dict[str, object] | None:
    """Apply a one-unit move through the walker; the order if it was legal, else None."""
    if not path:
        return None
    order: dict[str, object] = {"move": [uid], "path": list(path)}
    if march:
        order["march"] = True
    problems = walker.apply(order, index)
    return None if problems else order


def pick(seed: bytes, label: str, n: int) -> int:
    import hashlib

    if n <= 1:
        return 0
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:8], "big") % n


__all__ = ["OFF", "Reach", "can_stand", "field", "move_order", "pick", "reach"]
