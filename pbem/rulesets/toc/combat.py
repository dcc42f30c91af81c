"""A combat phase (5.2, 10.x, 12.x): every bombardment first, then the melees one at a time.

Orders are checked together on the side's `Board` (each artillery unit bombards once, each hex
is bombarded once, each attacker melees once, each hex is meleed once per phase); bombardments
must come before melees in the list because that is the order the phase runs in (5.2).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State
from pbem.rulesets.kit.stacks import stacks

from . import bombardment, melee
from .board import Board
from .context import Context, other


def check(board: Board, orders: list[Any]) -> tuple[list[Problem], list[tuple[int, Any]]]:
    """Problems, and the legal bombardments as (order index, Fire)."""
    problems: list[Problem] = []
    fires: list[tuple[int, Any]] = []
    used_artillery: set[str] = set()
    bombarded: set[str] = set()
    attackers: set[str] = set()
    meleed: set[str] = set()
    seen_melee = False
    for index, order in enumerate(orders):
        if "bombard" in order:
            if seen_melee:
                problems.append(Problem("bombardments come before melees in a combat phase", order=index,
                                        section="5.2", legal="every bombard order before the first melee order"))
                continue
            found, fire = bombardment.check(board, order, index, used_artillery, bombarded)
            problems += found
            if fire is not None:
                fires.append((index, fire))
                used_artillery.update(fire.firers)
                bombarded.add(fire.target)
        elif "melee" in order:
            seen_melee = True
            found = melee.check(board, order, index, attackers, meleed)
            problems += found
            if not found:
                attackers.update(order["with"])
                meleed.add(order["melee"])
    return problems, fires


def resolve(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
            events: list[dict[str, Any]]) -> None:
    board = Board.from_state(ctx, state, side)
    problems, fires = check(board, orders)
    bad = {p.order for p in problems}
    for index in sorted(i for i in bad if i is not None):
        events.append({"type": "order-void", "side": side, "section": "5.2", "order": index,
                       "why": next(p.message for p in problems if p.order == index)})
    for index, fire in fires:
        if index not in bad:
            bombardment.resolve(ctx, state, side, orders[index], fire, dice, decisions, events)
    for index, order in enumerate(orders):
        if "melee" in order and index not in bad:
            melee.resolve(ctx, state, side, order, dice, decisions, events)


def possible(ctx: Context, state: State, side: str) -> bool:
    """Whether `side` has any bombardment or melee it could make now (else its combat phase passes)."""
    return possible_from_board(Board.from_state(ctx, state, side))


def possible_from_board(board: Board) -> bool:
    ctx = board.ctx
    if not board.enemy:
        return False
    for uid, unit in sorted(board.own.items()):
        if unit["status"] != "active":
            continue
        counter = ctx.counters[uid]
        here = unit["hex"]
        if counter.melee_capable:
            if uid in board.marched:
                continue
            if any(board.enemy_at(n) and not ctx.canal_blocks(here, n) for n in ctx.hexes.neighbours(here)):
                return True
        elif uid not in board.marched:
            for target in board.enemy:
                if ctx.hexes.distance(here, target) > counter.range:
                    continue
                if ctx.los_clear(here, target) or bombardment.spotters(board, target, [uid]):
                    return True
    return False


def possible_public(ctx: Context, state: State, side: str) -> bool:
    """Whether `side` might have a combat, judged only from what its enemy can see (6.6).

    `awaiting` is shown to both sides, so it must not depend on units hidden in stacks: a stack
    with units beneath its top counts as if those could be artillery of the longest range or
    infantry. Every real possibility (`possible`) is also a public one, so no combat is ever lost.
    """
    enemy = set(stacks(state, ctx.side_of, other(side)))
    if not enemy:
        return False
    mine = stacks(state, ctx.side_of, side)
    longest = max([c.range for c in ctx.counters.values() if c.side == side and c.artillery] + [0])
    occupied_by_me = set(mine)
    for here, units in mine.items():
        top = ctx.counters[units[-1]]
        hidden = len(units) > 1
        if top.melee_capable or hidden:
            if any(n in enemy and not ctx.canal_blocks(here, n) for n in ctx.hexes.neighbours(here)):
                return True
        reach = max(top.range if top.artillery else 0, longest if hidden else 0)
        if reach == 0:
            continue
        for target in enemy:
            if ctx.hexes.distance(here, target) > reach:
                continue
            if ctx.los_clear(here, target) or any(n in occupied_by_me for n in ctx.hexes.neighbours(target)):
                return True
    return False
