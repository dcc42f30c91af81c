"""Bots: simple but purposeful players that see only their own view.

German: places reinforcements nearest the Surmelin valley, bombards and fires at the best odds
it can reach, advances after close assaults when that brings it nearer the south edge, and
moves every unit along the cheapest route to the exit hexes (exiting when it can).
US: sets up along the German route (railway and towns forward, woods and villages behind),
holds any unit that has a target, sends the others to cut the route ahead of the leading German
units, and fires and bombards at the best odds. Every order list is checked with the ruleset's
own validation (`phases.validate`, with the context the bot was given) before it is sent; an
order that fails is dropped.

The German bot concedes (4.5) once turn 40 begins: a safety net so that bot games always end.
"""

from __future__ import annotations

import hashlib
import heapq
from typing import Any, Mapping

from .board import Board, fire_factor, fits, lof_problem, move_allowance
from .context import Context
from . import bombardment, fire, phases, reinforcements, sequence, setup

CONCEDE_TURN = 40


def jitter(seed: bytes, label: str, spread: int = 1000) -> int:
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:4], "big") % spread


# --- static cost fields ---------------------------------------------------------------------------

def _field(cfg: Context, name: str, sources: dict[str, int], us: bool = False) -> dict[str, int]:
    """Cheapest half-MP cost from every hex to any source hex (moving toward the source), kept in the context."""
    if name in cfg.fields:
        return cfg.fields[name]
    dist: dict[str, int] = {}
    heap = [(cost, hex_id) for hex_id, cost in sorted(sources.items())]
    heapq.heapify(heap)
    while heap:
        cost, here = heapq.heappop(heap)
        if here in dist:
            continue
        dist[here] = cost
        for n in cfg.neighbours(here):
            if n in dist or cfg.impassable(n) or (us and n in cfg.riverbank):
                continue
            heapq.heappush(heap, (cost + cfg.enter_cost(n, here), n))
    cfg.fields[name] = dist
    return dist


def exit_field(cfg: Context) -> dict[str, int]:
    found = cfg.fields.get("exit")
    if found is not None:
        return found
    exit_cost = int(cfg.tables["move_cost"]["exit"])
    return _field(cfg, "exit", {h: exit_cost for h in cfg.south_exit if not cfg.impassable(h)})


def river_field(cfg: Context) -> dict[str, int]:
    found = cfg.fields.get("river")
    if found is not None:
        return found
    return _field(cfg, "river", {h: 0 for h in cfg.riverbank})


def route_score(cfg: Context, hex_id: str) -> int:
    """Small on the cheapest riverbank-to-exit routes: where the Germans must pass."""
    big = 10_000
    return exit_field(cfg).get(hex_id, big) + river_field(cfg).get(hex_id, big)


# --- movement helpers --------------------------------------------------------------------------------

def reachable(board: Board, uid: str) -> dict[str, tuple[int, list[str]]]:
    """Every hex the unit may legally end its move in: hex -> (half-MP spent, path)."""
    cfg = board.cfg
    counter = cfg.counters[uid]
    allowance = move_allowance(cfg, board.effects, uid)
    start = board.hex_of(uid)
    limit = int(cfg.tables["stacking_fire_factors"])
    best: dict[str, tuple[int, list[str]]] = {start: (0, [])}
    heap: list[tuple[int, str, list[str]]] = [(0, start, [])]
    while heap:
        spent, here, path = heapq.heappop(heap)
        if best.get(here, (1 << 30,))[0] < spent:
            continue
        for n in cfg.neighbours(here):
            if cfg.impassable(n) or board.enemy_at(n) or (counter.side == "us" and n in cfg.riverbank):
                continue
            cost = spent + cfg.enter_cost(here, n)
            if cost > allowance or board.ff(n, leaving=uid) + counter.fire > limit:
                continue
            if n not in best or best[n][0] > cost:
                best[n] = (cost, path + [n])
                heapq.heappush(heap, (cost, n, path + [n]))
    return {h: v for h, v in best.items() if h == start or not board.has_hw(h)}


# --- phases --------------------------------------------------------------------------------------------

def orders(ctx: Context, view: Mapping[str, Any], side: str, seed: bytes) -> list[Any]:
    phase = view["phase"]
    if view.get("result") or sequence.owner(phase) != side or phase in sequence.AUTOMATIC:
        return []
    if side == "german" and view["turn"] >= CONCEDE_TURN:
        return [{"concede": True}]
    kind = sequence.KIND[phase]
    board = Board.from_view(ctx, view)
    if kind == "setup":
        planned = us_setup(board, seed)
    elif kind == "placement":
        planned = placement(board, view.get("pending") or {}, seed)
    elif kind == "bombardment":
        planned = bombard(board, view, seed)
    elif kind == "movement":
        planned = move_german(board, seed) if side == "german" else move_us(board, view, seed)
    elif kind == "fire":
        planned = fire_plan(board, view, seed)
    else:
        planned = []
    return _legal(ctx, view, side, planned)


def _legal(ctx: Context, view: Mapping[str, Any], side: str, planned: list[Any]) -> list[Any]:
    kept = list(planned)
    for _ in range(len(planned) + 1):
        problems = phases.validate(ctx, dict(view), side, kept)
        bad = sorted({p.order for p in problems if p.order is not None})
        if not problems:
            return kept
        if not bad:
            return []
        kept = [order for i, order in enumerate(kept) if i != bad[0]]
    return []


def answer(request: Mapping[str, Any], seed: bytes) -> Any:
    options = list(request["options"])
    if request.get("topic") == "rally" and "accept" in options:
        return "accept"
    if request.get("topic") == "advance":
        return max(options, key=lambda o: (len(o), [str(x) for x in o]))
    return options[0]


def us_setup(board: Board, seed: bytes) -> list[Any]:
    cfg = board.cfg
    zones = cfg.zones
    river = river_field(cfg)
    out: list[Any] = []
    taken: set[str] = set()
    pending = [uid for uid, u in sorted(board.own.items()) if u["status"] == "container"]
    hws = [uid for uid in pending if cfg.counters[uid].kind == "hw"]
    infantry = [uid for uid in pending if cfg.counters[uid].kind == "infantry"]

    def forward_key(h: str) -> tuple[int, int, int, str]:
        # out of reach of turn 1's two-hex LOF, good cover, then near the German route
        gap = river.get(h, 99) // 2
        return (0 if 3 <= gap <= 6 else 1, -cfg.defense(h), route_score(cfg, h) + jitter(seed, h, 7), h)

    def rear_key(h: str) -> tuple[int, int, str]:
        return (route_score(cfg, h) + jitter(seed, "r" + h, 9), -cfg.defense(h), h)

    forward = sorted(zones["forward"], key=forward_key)
    rear = sorted(zones["rear"], key=rear_key)
    counts = {key: setup.quota(cfg, *key) for key in setup.QUOTA_KEYS}

    def put(units: list[str], hexes: list[str], number: int) -> None:
        for uid in units[:number]:
            spot = next((h for h in hexes if h not in taken), None)
            if spot is None:
                return  # the zone is full: the default set-up places the rest
            taken.add(spot)
            out.append({"setup": uid, "hex": spot})

    put(hws, [h for h in forward if cfg.terrain(h) != "clear"] + forward, counts[("forward", "hw")])
    put(hws[counts[("forward", "hw")]:], rear, counts[("rear", "hw")])
    put(infantry, forward, counts[("forward", "infantry")])
    put(infantry[counts[("forward", "infantry")]:], rear, counts[("rear", "infantry")])
    return out


def placement(board: Board, pending: Mapping[str, Any], seed: bytes) -> list[Any]:
    cfg = board.cfg
    kind = pending.get("kind", "reinforcement")
    field = exit_field(cfg)
    out = []
    for uid in pending.get("units", []):
        options = [h for h in reinforcements.open_entries(cfg, board, kind) if fits(cfg, board, uid, h)]
        if not options:
            continue
        spot = min(options, key=lambda h: (board.ff(h) // 6, field.get(h, 9999), jitter(seed, uid + h, 5), h))
        board.move(uid, spot)
        out.append({"place": uid, "hex": spot})
    return out


def _targets(board: Board, view: Mapping[str, Any]) -> list[str]:
    return sorted(view["enemy"])


def bombard(board: Board, view: Mapping[str, Any], seed: bytes) -> list[Any]:
    cfg = board.cfg
    markers = bombardment.available(cfg, view.get("markers") or {}, board.side)
    markers = sorted(markers, key=lambda m: (-bombardment.strength(cfg, m), m))
    spotters = sorted(uid for uid in board.own if board.on_map(uid))
    compass = "S" if board.side == "german" else "N"
    no_drift = board.turn == 1 or board.effects.get("no_drift") == board.side
    worst = 6 - bombardment.drift_subtract(cfg, board.effects, board.side)
    scored = []
    for target in _targets(board, view):
        spotter = next((s for s in spotters if lof_problem(cfg, board.turn, board.effects, board.hex_of(s), target,
                                                           cfg.counters[s].range) is None), None)
        if spotter is None:
            continue
        if not no_drift:
            path = [cfg.step(target, compass, k) for k in range(1, worst + 1)]
            if any(h and board.own_stack(h) for h in path):
                continue  # 11.3: a drift could hit our own units
        count = view["enemy"][target]["count"]
        scored.append((-count * 12 // cfg.defense(target), cfg.defense(target), jitter(seed, target), target, spotter))
    out = []
    for _, defense, _, target, spotter in sorted(scored):
        if not markers:
            break
        chosen: list[str] = []
        total = 0
        while markers and total < 6 * defense:
            chosen.append(markers.pop(0))
            total = sum(bombardment.strength(cfg, m) for m in chosen)
        out.append({"bombard": target, "markers": chosen, "spotter": spotter})
    return out


def fire_plan(board: Board, view: Mapping[str, Any], seed: bytes) -> list[Any]:
    cfg = board.cfg
    side = board.side
    out: list[Any] = []
    heavy = None
    own = sorted(uid for uid in board.own if board.on_map(uid))
    if side == "german" and board.effects.get("heavy_mg") and own:
        def far_targets(uid: str) -> int:
            return sum(1 for t in view["enemy"] if lof_problem(cfg, board.turn, board.effects, board.hex_of(uid), t,
                                                               fire.reach(cfg, uid, uid)) is None)
        heavy = max(own, key=lambda u: (far_targets(u), cfg.counters[u].fire, u))
        out.append({"heavy_mg": heavy})
    field = exit_field(cfg)
    options: dict[str, list[str]] = {}
    for target in _targets(board, view):
        options[target] = [uid for uid in own if lof_problem(cfg, board.turn, board.effects, board.hex_of(uid),
                                                             target, fire.reach(cfg, uid, heavy)) is None]
    used: set[str] = set()
    auto = int(cfg.tables["auto_elim_odds"])

    def value(uid: str, target: str) -> int:
        v = fire_factor(cfg, board.effects, uid)
        return 2 * v if cfg.adjacent(board.hex_of(uid), target) else v

    while True:
        best = None
        for target, firers in options.items():
            free = sorted((u for u in firers if u not in used), key=lambda u: (-value(u, target), u))
            if not free:
                continue
            defense = cfg.defense(target)
            group: list[str] = []
            strength = 0
            for uid in free:
                if strength // defense >= auto:
                    break
                group.append(uid)
                strength += value(uid, target)
            odds = min(strength // defense, auto)
            if odds < 1:
                continue
            count = view["enemy"][target]["count"]
            key = (odds * count * 100 // max(len(group), 1), odds, jitter(seed, target, 10))
            if best is None or key > best[0]:
                best = (key, target, group)
        if best is None:
            break
        _, target, group = best
        order: dict[str, Any] = {"fire": target, "with": group}
        if side == "german":
            here = [u for u in group if cfg.counters[u].kind == "infantry" and cfg.adjacent(board.hex_of(u), target)
                    and field.get(target, 9999) < field.get(board.hex_of(u), 9999)]
            order["advance"] = here
        else:
            order["advance"] = []
        out.append(order)
        used.update(group)
        del options[target]
    return out


def move_german(board: Board, seed: bytes) -> list[Any]:
    cfg = board.cfg
    field = exit_field(cfg)
    exit_cost = int(cfg.tables["move_cost"]["exit"])
    movers = [uid for uid in board.own if board.on_map(uid) and cfg.counters[uid].kind == "infantry"]
    movers.sort(key=lambda u: (field.get(board.hex_of(u), 9999), u))
    out: list[Any] = []
    for uid in movers:
        here = board.hex_of(uid)
        allowance = move_allowance(cfg, board.effects, uid)
        options = reachable(board, uid)
        exits = [(spent, h, path) for h, (spent, path) in options.items()
                 if h in cfg.south_exit and spent + exit_cost <= allowance]
        if exits:
            spent, h, path = min(exits)
            out.append({"move": uid, "path": path, "exit": True})
            board.move(uid, None, "exited")
            continue

        def key(h: str) -> tuple[int, int, int, str]:
            return (field.get(h, 9999), -cfg.defense(h), jitter(seed, uid + h, 10), h)

        dest = min(options, key=key)
        if dest == here or field.get(dest, 9999) >= field.get(here, 9999):
            continue
        out.append({"move": uid, "path": options[dest][1]})
        board.move(uid, dest)
    return out


def move_us(board: Board, view: Mapping[str, Any], seed: bytes) -> list[Any]:
    cfg = board.cfg
    field = exit_field(cfg)
    enemy = sorted(view["enemy"])
    if not enemy:
        return []
    lead = min(field.get(h, 9999) for h in enemy)
    out: list[Any] = []
    movers = sorted(uid for uid in board.own if board.on_map(uid) and cfg.counters[uid].kind == "infantry")
    near_enemy = {n for e in enemy for n in cfg.neighbours(e)}
    seen: dict[tuple[str, int], bool] = {}

    def sees(h: str, reach: int) -> bool:
        key = (h, reach)
        if key not in seen:
            seen[key] = any(cfg.distance(h, e) <= reach
                            and lof_problem(cfg, board.turn, board.effects, h, e, reach) is None for e in enemy)
        return seen[key]

    for uid in movers:
        here = board.hex_of(uid)
        reach = cfg.counters[uid].range
        if here in near_enemy:
            continue
        if sees(here, reach) and cfg.defense(here) >= 3:
            continue  # hold good ground with a target in sight
        options = reachable(board, uid)

        def key(h: str) -> tuple[int, int, int, int, int, int, str]:
            adjacent = h in near_enemy
            ahead = 0 if field.get(h, 9999) <= lead else 1  # between the leading Germans and the exits
            return (1 if adjacent else 0, 0 if sees(h, reach) else 1, ahead, -cfg.defense(h),
                    route_score(cfg, h), jitter(seed, uid + h, 10), h)

        dest = min(options, key=key)
        if dest != here and key(dest) < key(here):
            out.append({"move": uid, "path": options[dest][1]})
            board.move(uid, dest)
    return out

