"""Movement (9.1-9.8) with stacking at every instant (6.1-6.2) and the German exit (4.3).

`{move: G07, path: ["2235", "2234"]}` moves one infantry unit through the hexes listed, in
order; `exit: true` then takes it off the south edge from the last hex, which must be one of
1900-3300. Costs are counted in half movement points (9.5: half an MP along a road hexside).
Every hex entered is checked at that instant: on the map and passable, adjacent, not holding
an enemy unit (9.7), not a riverbank hex for a US unit (9.8), within the 16 fire-factor limit
and never ending on a heavy weapons emplacement (6.1), with the MP to pay for it (9.2).
"""

from __future__ import annotations

from typing import Any

from pbem.core.errors import Problem
from pbem.core.listing import compact
from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import place

from .board import Board, move_allowance
from .context import Context
from . import victory


def walk(board: Board, uid: str, path: list[str], exit_: bool) -> tuple[Problem | None, int]:
    """Check one unit's move on the board; (problem or None, half-MP spent). Path index in `path`."""
    cfg = board.cfg
    if uid not in board.own:  # (before the counter lookup: an id no counter has is a player's typo, not a crash)
        return Problem(f"{uid} is not one of your units", path=("move",), section="9.1", legal=_movers(board)), 0
    counter = cfg.counters[uid]
    if not board.on_map(uid):
        return Problem(f"{uid} is not on the map", path=("move",), section="9.1", legal=_movers(board)), 0
    if counter.kind != "infantry":
        return Problem(f"{uid} is a heavy weapons emplacement and never moves", path=("move",), section="9.3",
                       legal="infantry units only"), 0
    allowance = move_allowance(cfg, board.effects, uid)
    here = board.hex_of(uid)
    spent = 0
    limit = int(cfg.tables["stacking_fire_factors"])
    for step, hex_id in enumerate(path):
        where = ("path", step)
        if not cfg.on_map(hex_id) or cfg.impassable(hex_id):
            return Problem(f"{hex_id} is not a hex a unit may enter", path=where, section="9.1"), spent
        if hex_id == here and step == 0:  # the likeliest slip: a path that starts with the unit's own hex
            return Problem(f"{uid} stands in {here}: leave {here} out: a path starts with the first hex entered",
                           path=where, section="9.1", legal=_first_steps(board, uid)), spent
        if hex_id == here:
            return Problem(f"{here} is listed twice in a row: leave one out", path=where, section="9.1",
                           legal=", ".join(cfg.neighbours(here))), spent
        if not cfg.adjacent(here, hex_id):
            return Problem(f"{hex_id} is not adjacent to {here}", path=where, section="9.1",
                           legal=", ".join(cfg.neighbours(here))), spent
        if board.enemy_at(hex_id):
            return Problem(f"{hex_id} holds enemy units", path=where, section="9.7"), spent
        if counter.side == "us" and hex_id in cfg.riverbank:
            return Problem(f"US units may never enter Marne riverbank hexes ({hex_id})", path=where,
                           section="9.8"), spent
        cost = cfg.enter_cost(here, hex_id)
        if spent + cost > allowance:
            return Problem(f"entering {hex_id} costs {_mp(cost)} MP and {uid} has {_mp(allowance - spent)} left",
                           path=where, section="9.2", legal=f"{_mp(allowance)} MP in all this phase"), spent
        last = step == len(path) - 1
        if board.has_hw(hex_id) and (last and not exit_):
            return Problem(f"infantry may pass through but never end a move on a heavy weapons emplacement "
                           f"({hex_id})", path=where, section="6.1"), spent
        if board.ff(hex_id, leaving=uid) + counter.fire > limit:
            how = "ending its move in" if last and not exit_ else "passing through"
            return Problem(f"{uid} would overstack {hex_id} ({board.ff(hex_id, leaving=uid)} + {counter.fire} "
                           f"fire factors > {limit}) {how} it", path=where,
                           section="6.1" if last and not exit_ else "6.2"), spent
        spent += cost
        here = hex_id
    if exit_:
        if counter.side != "german":
            return Problem("only German units move off the map", path=("exit",), section="4.3",
                           legal="leave exit out: a US unit moves on the map only"), spent
        if here not in cfg.south_exit:
            return Problem(f"{here} is not a south-edge exit hex", path=("exit",), section="4.3",
                           legal=f"{cfg.south_exit[0]} to {cfg.south_exit[-1]}"), spent
        cost = int(cfg.tables["move_cost"]["exit"])
        if spent + cost > allowance:
            return Problem(f"moving off the map costs {_mp(cost)} MP and {uid} has {_mp(allowance - spent)} left",
                           path=("exit",), section="9.2"), spent
        spent += cost
    elif not path:
        return Problem("a move needs at least one hex in its path", path=("path",), section="9.1"), spent
    return None, spent


def _movers(board: Board) -> str:
    """The side's own infantry on the map (emplacements never move, 9.3), for a refusal's legal."""
    found = [uid for uid in board.own if board.on_map(uid) and board.cfg.counters[uid].kind == "infantry"]
    return f"your infantry on the map: {compact(found) or 'none'}"


def _first_steps(board: Board, uid: str) -> str:
    """The hexes next to the unit that it may enter first (from the side's own board), for a refusal's legal."""
    here = board.hex_of(uid)
    steps = [hex_id for hex_id in board.cfg.neighbours(here)
             if hex_id != here and walk(board, uid, [hex_id], False)[0] is None]
    return ", ".join(steps) or f"none: {uid} may enter no hex next to it this phase"


def _mp(half: int) -> str:
    return str(half // 2) + (".5" if half % 2 else "")


def validate(board: Board, orders: list[Any]) -> list[Problem]:
    problems: list[Problem] = []
    moved: set[str] = set()
    for index, order in enumerate(orders):
        if "move" not in order:
            continue
        uid = order["move"]
        if uid in moved:
            problems.append(Problem(f"{uid} has already moved this phase", order=index, path=("move",),
                                    section="9.1", legal="one move order per unit"))
            continue
        moved.add(uid)
        problem, _ = walk(board, uid, list(order["path"]), bool(order.get("exit")))
        if problem is not None:
            problems.append(Problem(problem.message, order=index, path=problem.path, section=problem.section,
                                    legal=problem.legal))
            continue
        if order.get("exit"):
            board.move(uid, None, "exited")
        elif order["path"]:
            board.move(uid, order["path"][-1])
    return problems


def resolve(cfg: Context, state: State, side: str, orders: list[Any], events: list[dict[str, Any]]) -> None:
    """9.4: each move in the order given, carried out before the next is checked; a victory stops them."""
    for order in orders:
        resolve_move(cfg, state, side, order, events)
        if state.get("result"):
            break


def resolve_move(cfg: Context, state: State, side: str, order: dict[str, Any], events: list[dict[str, Any]]) -> None:
    uid = order["move"]
    path = list(order["path"])
    exit_ = bool(order.get("exit"))
    board = Board.from_state(cfg, state, side)
    problem, spent = walk(board, uid, path, exit_)
    origin = state["units"][uid]["hex"]
    if problem is not None:
        events.append({"type": "order-void", "side": side, "section": problem.section, "unit": uid,
                       "reason": problem.message})
        return
    event = {"type": "move", "side": side, "section": "9.1", "unit": uid, "from": origin, "path": path,
             "mp_half": spent}
    if exit_:
        unit = state["units"][uid]
        unit["status"], unit["hex"] = "exited", None
        event.update(exit=True, section="4.3")
        events.append(event)
        result = victory.check(cfg, state)
        if result:
            events.append({"type": "victory", **result})
        return
    place(state, uid, path[-1])
    events.append(event)
