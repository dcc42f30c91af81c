"""Movement (9.1-9.20) with German entry (8.1-8.4), exits (4.4, 9.19), ZOC (7.3) and stacking (6.2-6.5).

`simulate` walks a side's movement orders on a `Board` - from the side's view when validating,
from the master state when resolving (movement never depends on hidden facts, so both give the
same answer) - and returns every problem with its rule section plus the plan of what moved.
`resolve` carries the plan out on the state hex by hex, switching hex control as units enter
hexes and project ZOC (3.2), then enters the German units that are due but were not ordered in
(8.3: entry cannot be delayed at will).

Orders:
- `{move: [units], path: [hexes], march: bool}`: units that began the phase together (9.5) and
  stand together now move along the path, paying each unit's own cost for every hex (9.7,
  9.18); a stack may halt, let a sub-stack split off, and go on, but once another parent stack
  has moved it may not resume (9.6). A German unit not yet on the map enters by a path whose
  first hex is its designated entry hex (8.2); the n-th entering stack at a hex pays n MP to
  enter it (8.4). A British unit in an exit hex leaves with the last path element `off` (4.4).
- `{top: unit}`: put a unit on top of its own stack (what the enemy sees of it, 6.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.core.errors import Problem

from .board import Board
from .config import Config
from .state import State, place, put_on_top
from .zoc import around, refresh_control

OFF = "off"


@dataclass
class Unit:
    """One unit's movement so far this phase."""

    start: str | None
    mp: int = 0
    march: bool | None = None
    stopped: bool = False
    began_next_to_enemy: bool = False
    entry: str | None = None  # the entry hex a unit that began off the map came in by


@dataclass
class Plan:
    """What the orders do: one entry per carried-out order, in order."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    units: dict[str, Unit] = field(default_factory=dict)
    columns: dict[str, int] = field(default_factory=dict)  # entry hex -> stacks entered so far (8.4)


def allowance(cfg: Config, uid: str, march: bool) -> int:
    """9.1, 9.20: the MF, doubled in march mode."""
    factor = int(cfg.tables["march_factor"]) if march else 1
    return cfg.counters[uid].move * factor


def prohibition(cfg: Config, kind: str, a: str, b: str) -> tuple[str, str]:
    """Why a unit of `kind` may not step from a to b: (section, reason)."""
    if cfg.canal_blocks(a, b):
        return "9.13", f"the canal between {a} and {b} has no bridge"
    if cfg.river(a, b) and not cfg.bridged(a, b) and cfg.tables["river_extra"][kind] is None:
        return "9.12", f"{kind} crosses rivers only by bridges ({a}-{b})"
    terrain = cfg.terrain(b)
    if terrain == "forest":
        return "9.11", f"{kind} enters forest ({b}) only along a road"
    return "9.15", f"{kind} enters built-up hexes ({b}) only along a road"


def parent_of(board: Board, plan: Plan, uid: str, path: list[Any]) -> str:
    """9.5-9.6: the stack a unit began the phase in (off-map units: the column at their entry hex, never closed)."""
    info = plan.units[uid]
    if info.start is None:
        return f"off:{info.entry or (path[0] if path else '')}"
    return f"map:{info.start}"


def entry_problem(board: Board, uid: str, entry_hex: str) -> str | None:
    cfg = board.cfg
    entry = cfg.entry_for(uid)
    if entry is None:
        return f"{uid} has no entry in 8.2"
    if board.turn < entry.turn:
        return f"{uid} enters on turn {entry.turn}, not before"
    if entry_hex not in entry.hexes:
        return f"{uid} enters only by {' or '.join(entry.hexes)}"
    return None


class Walker:
    """Movement orders applied one at a time to a board (validation, resolution and the bots share it)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.plan = Plan()
        for uid, unit in board.own.items():
            if unit["status"] == "active":
                self.plan.units[uid] = Unit(unit["hex"], began_next_to_enemy=board.next_to_enemy(unit["hex"]))
            elif unit["status"] == "container":
                self.plan.units[uid] = Unit(None)
        self.closed: set[str] = set()
        self.current: str | None = None

    def apply(self, order: dict[str, Any], index: int) -> list[Problem]:
        """Check one order and, if it is legal, carry it out on the board; return its problems."""
        board = self.board
        found: list[Problem] = []
        if "concede" in order or "sequence" in order:
            return found
        if "top" in order:
            uid = order["top"]
            if not board.on_map(uid):
                found.append(Problem(f"{uid} is not a {board.side} unit on the map", order=index, path=("top",),
                                     section="6.6"))
            else:
                board.move(uid, board.hex_of(uid))
                self.plan.steps.append({"kind": "top", "order": index, "unit": uid})
            return found
        if "move" in order:
            parent = _check_move(board, self.plan, order, index, found, self.closed, self.current)
            if not found and parent is not None:
                # 9.6 closes a stack that began the phase on the map once another moves; units
                # still off the map began nowhere, so each entering stack stands alone (8.4).
                if self.current is not None and self.current != parent and not self.current.startswith("off:"):
                    self.closed.add(self.current)
                self.current = parent
        return found


def simulate(board: Board, orders: list[Any]) -> tuple[list[Problem], Plan]:
    """Walk the orders on the board (which is changed); return the problems and the plan."""
    walker = Walker(board)
    problems: list[Problem] = []
    for index, order in enumerate(orders):
        problems += walker.apply(order, index)
    return problems, walker.plan


def _check_move(board: Board, plan: Plan, order: dict[str, Any], index: int, found: list[Problem],
                closed: set[str], current: str | None) -> str | None:
    cfg = board.cfg
    units = list(order["move"])
    path = list(order["path"])
    march = bool(order.get("march", False))

    def problem(message: str, section: str, where: tuple[str | int, ...] = (), legal: str | None = None) -> None:
        found.append(Problem(message, order=index, path=where, section=section, legal=legal))

    for k, uid in enumerate(units):
        if uid not in board.own:
            problem(f"{uid} is not a {board.side} unit", "9.1", ("move", k))
        elif board.own[uid]["status"] not in ("active", "container"):
            problem(f"{uid} is {board.own[uid]['status']} and cannot move", "9.1", ("move", k))
    if found:
        return None
    if not path:
        problem("the path is empty", "9.1", ("path",))
        return None
    waiting = [uid for uid in units if board.own[uid]["status"] == "container"]
    if waiting and len(waiting) != len(units):
        problem("units on the map and units still off it cannot move together", "9.5", ("move",))
        return None
    corps = {str(cfg.counters[uid].corps) for uid in units}
    if board.side == "german" and len(corps) > 1:
        problem(f"units of different corps ({', '.join(sorted(corps))}) never move together", "6.5", ("move",))
        return None
    parents = {parent_of(board, plan, uid, path) for uid in units}
    if len(parents) > 1:
        problem("only units that began the phase in the same hex may move as a stack", "9.5", ("move",))
        return None
    parent = parents.pop()
    if parent in closed or (current is not None and current != parent and parent in closed):
        problem("this stack's movement ended when another stack moved", "9.6", ("move",))
        return None
    locations = {board.own[uid]["hex"] for uid in units}
    if len(locations) > 1:
        problem("the units are not in one hex now (9.5: a stack moves from where it stands)", "9.5", ("move",))
        return None
    for k, uid in enumerate(units):
        info = plan.units[uid]
        if info.march is not None and info.march != march:
            problem(f"{uid} already moved {'in' if info.march else 'without'} march mode this phase", "9.20",
                    ("march",))
        if info.stopped:
            problem(f"{uid} entered an enemy ZOC and has stopped for this phase", "7.3", ("move", k))
    if march:
        if board.side != "german":
            problem("only German units use march mode", "9.20", ("march",))
        else:
            for k, uid in enumerate(units):
                if plan.units[uid].began_next_to_enemy:
                    problem(f"{uid} began the phase next to a British unit: no march mode", "9.20", ("move", k))
    if found:
        return None
    location: str | None = locations.pop()
    entry_hex = None
    column = 0
    taken: list[str] = []
    costs = {uid: plan.units[uid].mp for uid in units}
    stopped = False
    exited = False
    group = set(units)
    sp = sum(cfg.counters[uid].stacking for uid in units)
    for k, step in enumerate(path):
        where = ("path", k)
        if exited:
            problem("nothing can follow `off` in a path", "4.4", where)
            return None
        if stopped:
            problem(f"the stack stopped in the enemy ZOC at {location}", "7.3", where)
            return None
        if step == OFF:
            if board.side != "british":
                problem("only British units leave the map", "4.4", where)
                return None
            if location is None or location not in cfg.set("exit"):
                problem("units leave the map only from a British exit hex", "4.4", where,
                        ", ".join(cfg.set("exit")))
                return None
            if board.turn < int(cfg.tables["exit_from_turn"]):
                problem(f"no unit leaves the map before turn {cfg.tables['exit_from_turn']}", "4.4", where)
                return None
            for uid in units:
                cost = int(cfg.tables["exit_cost"])
                if costs[uid] + cost > allowance(cfg, uid, march):
                    problem(f"{uid} has not the {cost} MP left to leave the map", "4.4", where)
                    return None
                costs[uid] += cost
            exited = True
            taken.append(OFF)
            continue
        if not isinstance(step, str) or not cfg.on_map(step):
            problem(f"{step} is not a hex on the map", "9.19", where)
            return None
        if location is None:
            for uid in units:
                why = entry_problem(board, uid, step)
                if why:
                    problem(why, "8.2", where)
                    return None
            column = plan.columns.get(step, 0) + 1
            entry_hex = step
            step_costs = {uid: column for uid in units}
        else:
            if not cfg.adjacent(location, step):
                problem(f"{step} is not next to {location}", "9.1", where)
                return None
            step_costs = {}
            for uid in units:
                price = cfg.enter_cost(cfg.counters[uid].kind, location, step)
                if price is None:
                    section, why = prohibition(cfg, cfg.counters[uid].kind, location, step)
                    problem(f"{uid}: {why}", section, where)
                    return None
                step_costs[uid] = price
        if board.enemy_at(step):
            problem(f"{step} holds enemy units", "9.4", where)
            return None
        for uid in units:
            need = costs[uid] + step_costs[uid]
            have = allowance(cfg, uid, march)
            if need > have:
                section = "8.4" if location is None else "9.3"
                problem(f"{uid} would need {need} MP to reach {step} but has {have}", section, where)
                return None
        if location is not None and board.ezoc(location) and board.ezoc(step):
            problem(f"no move straight from one enemy ZOC ({location}) to another ({step})", "7.3", where)
            return None
        if march and board.next_to_enemy(step):
            problem(f"in march mode no unit moves next to a British unit ({step})", "9.20", where)
            return None
        points = board.stacking_points(step, group) + sp
        if points > int(cfg.tables["stacking_points"]):
            problem(f"{step} would hold {points} stacking points; the limit is {cfg.tables['stacking_points']}",
                    "6.3", where)
            return None
        if board.side == "german" and len(board.corps_in(step, group) | corps) > 1:
            problem(f"{step} holds units of another corps", "6.5", where)
            return None
        for uid in units:
            costs[uid] += step_costs[uid]
        location = step
        taken.append(step)
        if board.ezoc(step):
            stopped = True
    if entry_hex is not None:
        plan.columns[entry_hex] = column
    for uid in sorted(units, key=lambda u: board.own[u]["z"]):
        if location is not None:
            board.move(uid, location)
    for uid in units:
        info = plan.units[uid]
        info.mp = costs[uid]
        info.march = march
        if entry_hex is not None:
            info.entry = entry_hex
        if stopped:
            info.stopped = True
        if exited:
            board.move(uid, None, "exited")
    plan.steps.append({"kind": "move", "order": index, "units": units, "path": taken, "march": march,
                       "entry": entry_hex, "column": column, "exit": exited, "stopped": stopped})
    return parent


# --- resolution --------------------------------------------------------------------------------


def resolve(state: State, side: str, orders: list[Any], events: list[dict[str, Any]]) -> None:
    """Carry out the movement orders on the state, then the entries nobody ordered (8.3)."""
    board = Board.from_state(state, side)
    problems, plan = simulate(board, orders)
    bad = sorted({p.order for p in problems if p.order is not None})
    for index in bad:
        events.append({"type": "order-void", "side": side, "section": "9.1", "order": index,
                       "why": next(p.message for p in problems if p.order == index)})
    cfg = board.cfg
    marched = set(state["marched"])
    for step in plan.steps:
        if step["kind"] == "top":
            put_on_top(state, [step["unit"]])
            events.append({"type": "top", "side": side, "section": "6.6", "unit": step["unit"]})
            continue
        units = sorted(step["units"], key=lambda u: (state["units"][u]["z"], u))
        start = state["units"][units[0]]["hex"]
        previous = start
        for hex_id in step["path"]:
            if hex_id == OFF:
                for uid in units:
                    state["units"][uid].update(hex=None, status="exited")
                refresh_control(state, around(cfg, previous))
                continue
            for uid in units:
                place(state, uid, hex_id)
            refresh_control(state, around(cfg, previous, hex_id))
            previous = hex_id
        if step["march"]:
            marched.update(units)
        event = {"type": "move", "side": side, "section": "9.1", "units": list(step["units"]), "from": start,
                 "path": list(step["path"]), "march": step["march"]}
        if step["entry"]:
            event.update(section="8.4", entered=step["entry"], column=step["column"])
        if step["exit"]:
            event.update(section="4.4", exited=True)
        if step["stopped"]:
            event["stopped"] = True
        events.append(event)
    if side == "german":
        _enter_the_rest(state, board, plan, events)
        state["marched"] = sorted(marched)


def due(board: Board, uid: str) -> bool:
    entry = board.cfg.entry_for(uid)
    return entry is not None and board.own[uid]["status"] == "container" and board.turn >= entry.turn


def auto_entries(board: Board, plan: Plan) -> list[tuple[str, str | None, int]]:
    """8.3: due units the orders left off the map enter where they can, in id order, at the next
    column cost of their entry hex; the others wait. Applied to the board; (unit, hex or None, column)."""
    cfg = board.cfg
    out: list[tuple[str, str | None, int]] = []
    for uid in sorted(uid for uid in board.own if due(board, uid)):
        entry = cfg.entry_for(uid)
        assert entry is not None
        placed: str | None = None
        column = 0
        for hex_id in entry.hexes:
            column = plan.columns.get(hex_id, 0) + 1
            fits = (not board.enemy_at(hex_id)
                    and board.stacking_points(hex_id) + cfg.counters[uid].stacking <= int(cfg.tables["stacking_points"])
                    and board.corps_in(hex_id) <= {str(cfg.counters[uid].corps)}
                    and column <= allowance(cfg, uid, False))
            if fits:
                plan.columns[hex_id] = column
                board.move(uid, hex_id)
                placed = hex_id
                break
        out.append((uid, placed, column if placed else 0))
    return out


def _enter_the_rest(state: State, board: Board, plan: Plan, events: list[dict[str, Any]]) -> None:
    cfg = board.cfg
    for uid, hex_id, column in auto_entries(board, plan):
        if hex_id is None:
            events.append({"type": "entry-delayed", "side": "german", "section": "8.3", "unit": uid})
            continue
        place(state, uid, hex_id)
        refresh_control(state, around(cfg, hex_id))
        events.append({"type": "move", "side": "german", "section": "8.3", "units": [uid], "from": None,
                       "path": [hex_id], "march": False, "entered": hex_id, "column": column, "automatic": True})


def after_phase(board: Board, plan: Plan, next_phase: str) -> Board:
    """The side's board as the next phase of its player turn begins (8.3 entries made, march recorded)."""
    if board.side == "german":
        auto_entries(board, plan)
    marched = set(board.marched) | {uid for uid, info in plan.units.items() if info.march}
    own = {uid: dict(unit) for uid, unit in board.own.items()}
    return Board(board.cfg, board.side, board.turn, next_phase, board.sequence, own, dict(board.enemy),
                 dict(board.enemy_top), marched, set(board.control))
