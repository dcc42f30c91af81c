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

A move order is checked rule by rule (`Move`): first the order as a whole (`BEFORE_THE_PATH`),
then every element of its path (`EVERY_STEP`, then `LEAVING` for `off`, `ENTERING` for the first
hex of a stack still off the map, `STEPPING` for any other). Each check is one function named
by its section; the first check that fails stops the order.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from pbem.core.errors import Problem
from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import put_on_top

from .board import Board
from .context import Context
from .state import levels
from .zoc import Occupancy, around, refresh_control

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


def allowance(ctx: Context, uid: str, march: bool) -> int:
    """9.1, 9.20: the MF, doubled in march mode."""
    factor = int(ctx.tables["march_factor"]) if march else 1
    return ctx.counters[uid].move * factor


def canal_legal(ctx: Context, here: str) -> str:
    """9.13, 9.16: what a stack at `here` refused a canal hexside may do instead: step to a hex on
    its own bank, or cross where a bridge spans the canal (the nearest crossings first)."""
    hexes = ctx.hexes
    bank = sorted(n for n in hexes.neighbours_of.get(here, ()) if not ctx.canal_blocks(here, n))
    bridges = sorted((min(hexes.distance(here, a), hexes.distance(here, b)), a, b)
                     for a, b in (sorted(key) for key in hexes.sides_of) if ctx.canal(a, b) and ctx.bridged(a, b))
    crossings = ", ".join(f"{a}-{b}" for _, a, b in bridges)
    return f"a hex next to {here} on this bank: {', '.join(bank) or 'none'}; the canal's bridges: {crossings}"


def prohibition(ctx: Context, kind: str, a: str, b: str) -> tuple[str, str]:
    """Why a unit of `kind` may not step from a to b: (section, reason)."""
    if ctx.canal_blocks(a, b):
        return "9.13", f"the canal between {a} and {b} has no bridge"
    if ctx.river(a, b) and not ctx.bridged(a, b) and ctx.tables["river_extra"][kind] is None:
        return "9.12", f"{kind} crosses rivers only by bridges ({a}-{b})"
    terrain = ctx.hexes.terrain(b)
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
    ctx = board.ctx
    entry = ctx.entry_for(uid)
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
                on_map = sorted(unit for unit in board.own if board.on_map(unit))
                found.append(Problem(f"{uid} is not a {board.side} unit on the map", order=index, path=("top",),
                                     section="6.6", legal=", ".join(on_map) or "none: no unit of yours is on the map"))
            else:
                board.move(uid, board.hex_of(uid))
                self.plan.steps.append({"kind": "top", "order": index, "unit": uid})
            return found
        if "move" in order:
            move = Move(board, self.plan, order, index, self.closed)
            found += move.check()
            if not found:
                move.carry_out()
                # 9.6 closes a stack that began the phase on the map once another moves; units
                # still off the map began nowhere, so each entering stack stands alone (8.4).
                if self.current is not None and self.current != move.parent and not self.current.startswith("off:"):
                    self.closed.add(self.current)
                self.current = move.parent
        return found


def simulate(board: Board, orders: list[Any]) -> tuple[list[Problem], Plan]:
    """Walk the orders on the board (which is changed); return the problems and the plan.

    A side's orders are walked when they are checked (on its view's board) and again when they
    are resolved (on the master state's, which is the same board: see `board`); the second walk
    of equal orders on an equal board is taken from the first (`Walked`).
    """
    key = Walked.key(board, orders) if orders else None  # (nothing to walk: nothing to keep)
    memo: dict[bytes, Walked] = board.ctx.cache.setdefault("movement:walked", {})
    walked = memo.get(key) if key is not None else None
    if walked is not None:
        return walked.replay(board)
    walker = Walker(board)
    problems: list[Problem] = []
    for index, order in enumerate(orders):
        problems += walker.apply(order, index)
    if key is not None:
        if len(memo) >= Walked.KEPT:
            memo.clear()
        memo[key] = Walked(list(problems), copy_plan(walker.plan), board.units_now())
    return problems, walker.plan


@dataclass(frozen=True)
class Walked:
    """What one walk of orders gave: its problems and plan, and the own units where it left them.

    Kept in the game's context by a hash of everything the walk reads (the board but for hex
    control and the enemy's top units, which no movement rule looks at, and the orders), so a
    board and orders with the same key walk to exactly this; each use gets copies.
    """

    problems: list[Problem]
    plan: Plan
    units: tuple[dict[str, dict[str, Any]], int | None]  # `Board.units_now` once walked

    KEPT: ClassVar[int] = 8  # a check and then its resolution are what meet again (a context serves
    # every game of one setup in a process: the walks of other games pass by in between)

    @staticmethod
    def key(board: Board, orders: list[Any]) -> bytes | None:
        """SHA-256 of the board's fields a walk may read and the orders, in canonical JSON (None: not
        plain data). Hex control (220 hexes) and the enemy's top units are left out: hashing them
        cost as much as half a walk."""
        try:
            text = json.dumps([board.side, board.turn, board.phase, board.sequence, board.own, board.enemy,
                               sorted(board.marched), orders], sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):
            return None
        return hashlib.sha256(text.encode("ascii")).digest()

    def replay(self, board: Board) -> tuple[list[Problem], Plan]:
        """The walk's outcome, the board left as the walk left it."""
        board.put_back(self.units)
        return list(self.problems), copy_plan(self.plan)


def copy_plan(plan: Plan) -> Plan:
    """A copy that shares nothing a later use may change (8.3 entries add columns, say)."""
    return Plan(steps=[{key: list(value) if isinstance(value, list) else value for key, value in step.items()}
                       for step in plan.steps],
                units={uid: Unit(**vars(info)) for uid, info in plan.units.items()},
                columns=dict(plan.columns))


# --- one move order ------------------------------------------------------------------------------


class Move:
    """One `{move: ..., path: ..., march: ...}` order: its checks walk the path on a copy of the
    stack's progress (MP spent, where it stands, whether it stopped or left); `carry_out` then
    records a legal move on the board and in the plan."""

    def __init__(self, board: Board, plan: Plan, order: dict[str, Any], index: int, closed: set[str]) -> None:
        self.board = board
        self.ctx = board.ctx
        self.plan = plan
        self.index = index
        self.closed = closed
        self.units = list(order["move"])
        self.path = list(order["path"])
        self.march = bool(order.get("march", False))
        self.group = set(self.units)
        self.stacking_points = 0  # of the whole stack, once the path is walked
        self.k = 0  # the path element being checked
        self.location: str | None = None
        self.entry_hex: str | None = None
        self.column = 0
        self.costs: dict[str, int] = {}
        self.taken: list[str] = []
        self.stopped = False
        self.exited = False
        self._parents: set[str] | None = None
        self._corps: set[str] | None = None
        self._prices: dict[str, int | None] = {}
        self._priced = -1  # the path element `_prices` is for

    def problem(self, message: str, section: str, where: tuple[str | int, ...] = (),
                legal: str | None = None) -> Problem:
        return Problem(message, order=self.index, path=where, section=section, legal=legal)

    def at_step(self, message: str, section: str, legal: str | None = None) -> Problem:
        return self.problem(message, section, ("path", self.k), legal)

    def end_before(self) -> str:
        """What is legal instead of the refused path element: the path up to the hex before it."""
        if self.k == 0:
            return "leave this order out: the units stay where they are"
        return f"end the path at {self.location}"

    @property
    def parents(self) -> set[str]:
        """9.5-9.6: the stacks the units began the phase in (one, for a legal move)."""
        if self._parents is None:
            self._parents = {parent_of(self.board, self.plan, uid, self.path) for uid in self.units}
        return self._parents

    @property
    def parent(self) -> str:
        return next(iter(self.parents))

    @property
    def corps(self) -> set[str]:
        if self._corps is None:
            self._corps = {str(self.ctx.counters[uid].corps) for uid in self.units}
        return self._corps

    def price(self, step: str) -> dict[str, int | None]:
        """Each unit's MP to enter `step`, the path element being checked, from where the stack stands
        (None: prohibited); entering, the column cost of the entry hex (8.4)."""
        if self._priced != self.k:
            prices: dict[str, int | None] = {}
            if self.location is None:
                column = self.plan.columns.get(step, 0) + 1
                for uid in self.units:
                    prices[uid] = column
            else:
                counters, enter_cost = self.ctx.counters, self.ctx.enter_cost
                for uid in self.units:
                    prices[uid] = enter_cost(counters[uid].kind, self.location, step)
            self._prices, self._priced = prices, self.k
        return self._prices

    def check(self) -> list[Problem]:
        """Every problem of the order (none: it is legal), walking its path as far as it goes."""
        for group in BEFORE_THE_PATH:
            found: list[Problem] = []
            for order_check in group:
                found += order_check(self)
            if found:
                return found
        self.location = {self.board.own[uid]["hex"] for uid in self.units}.pop()
        self.costs = {uid: self.plan.units[uid].mp for uid in self.units}
        self.stacking_points = sum(self.ctx.counters[uid].stacking for uid in self.units)
        for k, step in enumerate(self.path):
            self.k = k
            checks = WHEN_LEAVING if step == OFF else WHEN_ENTERING if self.location is None else WHEN_STEPPING
            for step_check in checks:
                problem = step_check(self, step)
                if problem is not None:
                    return [problem]
            if step == OFF:
                self._leave()
            else:
                self._enter(step)
        return []

    def _leave(self) -> None:
        for uid in self.units:
            self.costs[uid] += int(self.ctx.tables["exit_cost"])
        self.exited = True
        self.taken.append(OFF)

    def _enter(self, step: str) -> None:
        prices = self.price(step)
        if self.location is None:
            self.entry_hex = step
            self.column = self.plan.columns.get(step, 0) + 1
        for uid in self.units:
            self.costs[uid] += int(prices[uid] or 0)
        self.location = step
        self.taken.append(step)
        if self.board.ezoc(step):
            self.stopped = True

    def carry_out(self) -> None:
        """Record the checked move: the stack's new place and MP, and the step of the plan."""
        board, plan = self.board, self.plan
        if self.entry_hex is not None:
            plan.columns[self.entry_hex] = self.column
        for uid in sorted(self.units, key=lambda u: board.own[u]["z"]):
            if self.location is not None:
                board.move(uid, self.location)
        for uid in self.units:
            info = plan.units[uid]
            info.mp = self.costs[uid]
            info.march = self.march
            if self.entry_hex is not None:
                info.entry = self.entry_hex
            if self.stopped:
                info.stopped = True
            if self.exited:
                board.move(uid, None, "exited")
        plan.steps.append({"kind": "move", "order": self.index, "units": self.units, "path": self.taken,
                           "march": self.march, "entry": self.entry_hex, "column": self.column, "exit": self.exited,
                           "stopped": self.stopped})


OrderCheck = Callable[[Move], list[Problem]]
UnitCheck = Callable[[Move, int, str], Problem | None]
StepCheck = Callable[[Move, Any], Problem | None]


def each_unit(*checks: UnitCheck) -> OrderCheck:
    """An order check running `checks` on every unit of the order in turn (unit by unit)."""
    def run(move: Move) -> list[Problem]:
        found: list[Problem] = []
        for k, uid in enumerate(move.units):
            for unit_check in checks:
                problem = unit_check(move, k, uid)
                if problem is not None:
                    found.append(problem)
        return found
    return run


# --- the order as a whole ------------------------------------------------------------------------


def _9_1_movable(move: Move, k: int, uid: str) -> Problem | None:
    """9.1: only the side's own units move, and only those on the map or waiting to enter."""
    own = move.board.own
    if uid not in own:
        movable = sorted(unit for unit, held in own.items() if held["status"] in ("active", "container"))
        return move.problem(f"{uid} is not a {move.board.side} unit", "9.1", ("move", k),
                            legal=", ".join(movable) or "none: no unit of yours may move")
    if own[uid]["status"] not in ("active", "container"):
        return move.problem(f"{uid} is {own[uid]['status']} and cannot move", "9.1", ("move", k),
                            legal=f"leave {uid} out of the order")
    return None


def _9_1_a_path(move: Move) -> list[Problem]:
    return [] if move.path else [move.problem("the path is empty", "9.1", ("path",),
                                              legal="the hexes entered, the first next to where the stack stands "
                                                    "(entering: its entry hex)")]


def _9_5_all_on_or_all_off(move: Move) -> list[Problem]:
    waiting = [uid for uid in move.units if move.board.own[uid]["status"] == "container"]
    if waiting and len(waiting) != len(move.units):
        on_map = [uid for uid in move.units if uid not in waiting]
        return [move.problem("units on the map and units still off it cannot move together", "9.5", ("move",),
                             legal=f"one move order for [{', '.join(on_map)}], another for [{', '.join(waiting)}]")]
    return []


def _6_5_one_corps(move: Move) -> list[Problem]:
    corps = move.corps
    if move.board.side == "german" and len(corps) > 1:
        by_corps: dict[str, list[str]] = {}
        for uid in move.units:
            by_corps.setdefault(str(move.ctx.counters[uid].corps), []).append(uid)
        orders = ", ".join(f"[{', '.join(units)}]" for units in by_corps.values())
        return [move.problem(f"units of different corps ({', '.join(sorted(corps))}) never move together", "6.5",
                             ("move",), legal=f"one move order for each of {orders}")]
    return []


def _began(parent: str) -> str:
    """Where a parent stack (`parent_of`) began the phase, in words."""
    where, _, hex_id = parent.partition(":")
    return f"in {hex_id}" if where == "map" else f"off the map, entering by {hex_id}"


def _9_5_one_parent_stack(move: Move) -> list[Problem]:
    if len(move.parents) > 1:
        by_parent: dict[str, list[str]] = {}
        for uid in move.units:
            by_parent.setdefault(parent_of(move.board, move.plan, uid, move.path), []).append(uid)
        began = "; ".join(f"{', '.join(units)} began {_began(parent)}" for parent, units in by_parent.items())
        orders = ", ".join(f"[{', '.join(units)}]" for units in by_parent.values())
        return [move.problem(f"only units that began the phase in the same hex may move as a stack: {began}", "9.5",
                             ("move",), legal=f"one move order for each of {orders}")]
    return []


def _9_6_not_ended(move: Move) -> list[Problem]:
    if move.parent in move.closed:
        return [move.problem("this stack's movement ended when another stack moved", "9.6", ("move",),
                             legal="every move of this stack before the other stack's first move, or none")]
    return []


def _9_5_one_hex(move: Move) -> list[Problem]:
    by_hex: dict[str, list[str]] = {}
    for uid in move.units:
        by_hex.setdefault(str(move.board.own[uid]["hex"]), []).append(uid)
    if len(by_hex) > 1:
        where = "; ".join(f"{', '.join(units)} in {hex_id}" for hex_id, units in by_hex.items())
        orders = ", ".join(f"[{', '.join(units)}]" for units in by_hex.values())
        return [move.problem(f"the units are not in one hex now: {where} (9.5: a stack moves from where it stands)",
                             "9.5", ("move",), legal=f"one move order for each of {orders}")]
    return []


def _9_20_one_mode(move: Move, k: int, uid: str) -> Problem | None:
    """9.20: a unit moves in march mode or not for the whole phase."""
    info = move.plan.units[uid]
    if info.march is not None and info.march != move.march:
        return move.problem(f"{uid} already moved {'in' if info.march else 'without'} march mode this phase", "9.20",
                            ("march",), legal="march: true, as in its earlier move" if info.march
                            else "the order without `march: true`, as its earlier move")
    return None


def _7_3_not_stopped(move: Move, k: int, uid: str) -> Problem | None:
    """7.3: a unit that entered an enemy ZOC moves no further this phase."""
    if move.plan.units[uid].stopped:
        return move.problem(f"{uid} entered an enemy ZOC and has stopped for this phase", "7.3", ("move", k),
                            legal=f"leave {uid} out: it moves no more this phase")
    return None


def _9_20_march_mode(move: Move) -> list[Problem]:
    """9.20: march mode is German only, and never for a unit that began the phase next to a British unit."""
    if not move.march:
        return []
    if move.board.side != "german":
        return [move.problem("only German units use march mode", "9.20", ("march",),
                             legal="the order without `march`")]
    return [move.problem(f"{uid} began the phase next to a British unit: no march mode", "9.20", ("move", k),
                         legal="the order without `march: true`")
            for k, uid in enumerate(move.units) if move.plan.units[uid].began_next_to_enemy]


# Groups of checks of the whole order, in order: a group runs in full, and one that finds anything
# ends the check (a later group may assume what an earlier one established).
BEFORE_THE_PATH: tuple[tuple[OrderCheck, ...], ...] = (
    (each_unit(_9_1_movable),),
    (_9_1_a_path,),
    (_9_5_all_on_or_all_off,),
    (_6_5_one_corps,),
    (_9_5_one_parent_stack,),
    (_9_6_not_ended,),
    (_9_5_one_hex,),
    (each_unit(_9_20_one_mode, _7_3_not_stopped), _9_20_march_mode),
)


# --- every element of the path -------------------------------------------------------------------


def _4_4_nothing_after_off(move: Move, step: Any) -> Problem | None:
    return move.at_step("nothing can follow `off` in a path", "4.4", "end the path with `off`") if move.exited else None


def _7_3_stack_stopped(move: Move, step: Any) -> Problem | None:
    if move.stopped:
        return move.at_step(f"the stack stopped in the enemy ZOC at {move.location}", "7.3", move.end_before())
    return None


def _4_4_british_only(move: Move, step: Any) -> Problem | None:
    if move.board.side != "british":
        return move.at_step("only British units leave the map", "4.4", move.end_before())
    return None


def _4_4_from_an_exit_hex(move: Move, step: Any) -> Problem | None:
    exits = move.ctx.hexes.set("exit")
    if move.location is None or move.location not in exits:
        return move.at_step("units leave the map only from a British exit hex", "4.4", ", ".join(exits))
    return None


def _4_4_from_turn(move: Move, step: Any) -> Problem | None:
    first = move.ctx.tables["exit_from_turn"]
    if move.board.turn < int(first):
        return move.at_step(f"no unit leaves the map before turn {first}", "4.4",
                            f"{move.end_before()}; `off` from turn {first}")
    return None


def _4_4_movement_points(move: Move, step: Any) -> Problem | None:
    cost = int(move.ctx.tables["exit_cost"])
    for uid in move.units:
        if move.costs[uid] + cost > allowance(move.ctx, uid, move.march):
            return move.at_step(f"{uid} has not the {cost} MP left to leave the map", "4.4", move.end_before())
    return None


def _9_19_on_the_map(move: Move, step: Any) -> Problem | None:
    if not isinstance(step, str) or not move.ctx.hexes.on_map(step):
        legal: str | None
        if move.location is not None:
            legal = ", ".join(sorted(move.ctx.hexes.neighbours_of.get(move.location, ())))
        else:
            entry = move.ctx.entry_for(move.units[0])
            legal = " or ".join(entry.hexes) if entry is not None else None
        return move.at_step(f"{step} is not a hex on the map", "9.19", legal)
    return None


def _8_2_entry_hex(move: Move, step: str) -> Problem | None:
    """8.2: a unit enters on its turn, by its designated entry hex."""
    for uid in move.units:
        why = entry_problem(move.board, uid, step)
        if why:
            entry = move.ctx.entry_for(uid)
            legal = (None if entry is None else f"leave {uid} out before turn {entry.turn}"
                     if move.board.turn < entry.turn else " or ".join(entry.hexes))
            return move.at_step(why, "8.2", legal)
    return None


def _9_1_next_hex(move: Move, step: str) -> Problem | None:
    assert move.location is not None
    if not move.ctx.hexes.adjacent(move.location, step):
        around = ", ".join(sorted(move.ctx.hexes.neighbours_of.get(move.location, ())))
        if step == move.location:  # the likeliest slip: the path starting at the stack's own hex
            return move.at_step(f"the path lists the hexes entered after {step}, where the stack stands: "
                                f"leave {step} out", "9.1", around)
        return move.at_step(f"{step} is not next to {move.location}", "9.1", around)
    return None


def _9_11_to_9_15_terrain(move: Move, step: str) -> Problem | None:
    """9.11-9.15: terrain and hexsides a unit of its kind may not cross (the section says which)."""
    assert move.location is not None
    prices = move.price(step)
    for uid in move.units:
        if prices[uid] is None:
            section, why = prohibition(move.ctx, move.ctx.counters[uid].kind, move.location, step)
            legal = canal_legal(move.ctx, move.location) if section == "9.13" else open_around(move)
            return move.at_step(f"{uid}: {why}", section, legal)
    return None


def _9_4_no_enemy(move: Move, step: str) -> Problem | None:
    if not move.board.enemy_at(step):
        return None
    if move.location is None:  # 8.3: an entry hex the enemy holds blocks the entry
        return move.at_step(f"{step} holds enemy units", "9.4", "leave this order out: the units wait until their "
                                                               "entry hex is free (8.3)")
    return move.at_step(f"{step} holds enemy units", "9.4", open_around(move))


def open_around(move: Move) -> str:
    """The hexes next to where the stack stands that every unit of it may enter (terrain, 9.10-9.16) and that hold
    no enemy unit the side sees (9.4); or the path ending there."""
    here, counters, enter_cost = str(move.location), move.ctx.counters, move.ctx.enter_cost
    free = [hex_id for hex_id in sorted(move.ctx.hexes.neighbours_of.get(here, ())) if not move.board.enemy_at(hex_id)
            and all(enter_cost(counters[uid].kind, here, hex_id) is not None for uid in move.units)]
    return f"a hex next to {here} that the stack may enter: {', '.join(free) or 'none'}; or {move.end_before()}"


def _mp_problem(move: Move, step: str, section: str) -> Problem | None:
    prices = move.price(step)
    for uid in move.units:
        need = move.costs[uid] + int(prices[uid] or 0)
        have = allowance(move.ctx, uid, move.march)
        if need > have:
            legal = move.end_before() if move.location is not None else None
            return move.at_step(f"{uid} would need {need} MP to reach {step} but has {have}", section, legal)
    return None


def _8_4_column_cost(move: Move, step: str) -> Problem | None:
    """8.4: entering, the n-th stack at an entry hex pays n MP."""
    return _mp_problem(move, step, "8.4")


def _9_3_movement_points(move: Move, step: str) -> Problem | None:
    """9.3, 9.7: every unit pays its own cost for the hex out of its own MF."""
    return _mp_problem(move, step, "9.3")


def _7_3_zoc_to_zoc(move: Move, step: str) -> Problem | None:
    where = move.location
    assert where is not None
    if move.board.ezoc(where) and move.board.ezoc(step):
        return move.at_step(f"no move straight from one enemy ZOC ({where}) to another ({step})", "7.3",
                            f"{move.end_before()}, or a hex free of enemy ZOC next")
    return None


def _9_20_not_next_to_enemy(move: Move, step: str) -> Problem | None:
    if move.march and move.board.next_to_enemy(step):
        return move.at_step(f"in march mode no unit moves next to a British unit ({step})", "9.20",
                            f"the order without `march: true`, or {move.end_before()}")
    return None


def _6_3_stacking_points(move: Move, step: str) -> Problem | None:
    limit = int(move.ctx.tables["stacking_points"])
    held = move.board.stacking_points(step, move.group)
    points = held + move.stacking_points
    if points > limit:
        room = limit - held
        legal = (f"{step} holds {held} of your stacking points already: "
                 + (f"units of at most {room} stacking point{'s' if room > 1 else ''} may enter it" if room > 0
                    else "no unit may enter it"))
        if move.location is not None:  # (entering, the path starts at the entry hex: 8.2)
            legal += "; or a path through other hexes"
        return move.at_step(f"{step} would hold {points} stacking points; the limit is {limit}", "6.3", legal)
    return None


def _6_5_one_corps_a_hex(move: Move, step: str) -> Problem | None:
    if move.board.side == "german" and len(move.board.corps_in(step, move.group) | move.corps) > 1:
        return move.at_step(f"{step} holds units of another corps", "6.5",
                            f"{move.end_before()}, or a path through hexes without another corps' units")
    return None


# The checks of every element of a path, in order; the first that fails ends the order. A stack
# still off the map enters by its first hex (8.x); on the map it steps into the next hex (9.x).
EVERY_STEP: tuple[StepCheck, ...] = (_4_4_nothing_after_off, _7_3_stack_stopped)
LEAVING: tuple[StepCheck, ...] = (_4_4_british_only, _4_4_from_an_exit_hex, _4_4_from_turn, _4_4_movement_points)
ENTERING: tuple[StepCheck, ...] = (
    _9_19_on_the_map,
    _8_2_entry_hex,
    _9_4_no_enemy,
    _8_4_column_cost,
    _9_20_not_next_to_enemy,
    _6_3_stacking_points,
    _6_5_one_corps_a_hex,
)
STEPPING: tuple[StepCheck, ...] = (
    _9_19_on_the_map,
    _9_1_next_hex,
    _9_11_to_9_15_terrain,
    _9_4_no_enemy,
    _9_3_movement_points,
    _7_3_zoc_to_zoc,
    _9_20_not_next_to_enemy,
    _6_3_stacking_points,
    _6_5_one_corps_a_hex,
)
WHEN_LEAVING = EVERY_STEP + LEAVING
WHEN_ENTERING = EVERY_STEP + ENTERING
WHEN_STEPPING = EVERY_STEP + STEPPING


# --- resolution --------------------------------------------------------------------------------


def resolve(ctx: Context, state: State, side: str, orders: list[Any], events: list[dict[str, Any]]) -> None:
    """Carry out the movement orders on the state, then the entries nobody ordered (8.3)."""
    board = Board.from_state(ctx, state, side)
    problems, plan = simulate(board, orders)
    bad = sorted({p.order for p in problems if p.order is not None})
    for index in bad:
        events.append({"type": "order-void", "side": side, "section": "9.1", "order": index,
                       "why": next(p.message for p in problems if p.order == index)})
    marched = set(state["marched"])
    occupancy = Occupancy(ctx, state)
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
                    occupancy.exit(uid)
                refresh_control(ctx, state, around(ctx, previous), occupancy)
                continue
            for uid in units:
                occupancy.place(uid, hex_id)
            refresh_control(ctx, state, around(ctx, previous, hex_id), occupancy)
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
        _enter_the_rest(ctx, board, plan, occupancy, events)
        state["marched"] = sorted(marched)
    occupancy.settle()


def due(board: Board, uid: str) -> bool:
    entry = board.ctx.entry_for(uid)
    return entry is not None and board.own[uid]["status"] == "container" and board.turn >= entry.turn


def auto_entries(board: Board, plan: Plan) -> list[tuple[str, str | None, int]]:
    """8.3: due units the orders left off the map enter where they can, in id order, at the next
    column cost of their entry hex; the others wait. Applied to the board; (unit, hex or None, column)."""
    ctx = board.ctx
    out: list[tuple[str, str | None, int]] = []
    for uid in sorted(uid for uid in board.own if due(board, uid)):
        entry = ctx.entry_for(uid)
        assert entry is not None
        placed: str | None = None
        column = 0
        for hex_id in entry.hexes:
            column = plan.columns.get(hex_id, 0) + 1
            fits = (not board.enemy_at(hex_id)
                    and board.stacking_points(hex_id) + ctx.counters[uid].stacking <= int(ctx.tables["stacking_points"])
                    and board.corps_in(hex_id) <= {str(ctx.counters[uid].corps)}
                    and column <= allowance(ctx, uid, False))
            if fits:
                plan.columns[hex_id] = column
                board.move(uid, hex_id)
                placed = hex_id
                break
        out.append((uid, placed, column if placed else 0))
    return out


def _enter_the_rest(ctx: Context, board: Board, plan: Plan, occupancy: Occupancy,
                    events: list[dict[str, Any]]) -> None:
    for uid, hex_id, column in auto_entries(board, plan):
        if hex_id is None:
            events.append({"type": "entry-delayed", "side": "german", "section": "8.3", "unit": uid})
            continue
        occupancy.place(uid, hex_id)
        refresh_control(ctx, occupancy.state, around(ctx, hex_id), occupancy)
        events.append({"type": "move", "side": "german", "section": "8.3", "units": [uid], "from": None,
                       "path": [hex_id], "march": False, "entered": hex_id, "column": column, "automatic": True})


def after_phase(board: Board, plan: Plan, next_phase: str) -> Board:
    """The side's board as the next phase of its player turn begins (8.3 entries made, march recorded)."""
    if board.side == "german":
        auto_entries(board, plan)
    marched = set(board.marched) | {uid for uid, info in plan.units.items() if info.march}
    own = {uid: dict(unit) for uid, unit in board.own.items()}
    level = levels(own, own)
    for uid, unit in own.items():  # z as a board built when that phase begins has it (`Board.from_state`)
        unit["z"] = level.get(uid, 0)
    return Board(side=board.side, own=own, enemy=dict(board.enemy), ctx=board.ctx, turn=board.turn, phase=next_phase,
                 sequence=board.sequence, enemy_top=dict(board.enemy_top), marched=marched,
                 control=set(board.control))
