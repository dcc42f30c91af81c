"""Which rules check and resolve each phase: two tables, read with the kit's `handler_for`.

Every phase is a movement or a combat phase (5.2, `sequence.kind`). Validation judges a side's
orders on its `Board` built from its own view; resolution runs on the master state. A movement
phase may carry the orders of the next phase of the same player turn (`next_phase`, `NEXT_OF`):
they are checked against the positions after the movement and resolved in the same adjudication.
A concession (5.4) ends the game at once (`kit.phases.conceding`, `concession_events`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, State, Submission
from pbem.rulesets.kit.phases import conceding, concession_events, handler_for
from pbem.rulesets.kit.plain import copy_plain

from . import combat, misplaced, movement, sequence, stacking, victory
from .board import Board
from .context import Context
from .movement import Plan
from .orders import NEXT_OF
from .state import normalize

Check = Callable[[Board, list[Any]], tuple[list[Problem], Plan | None]]
Resolve = Callable[[Context, State, str, list[Any], Dice, Decisions, list[dict[str, Any]]], None]


def _check_movement(board: Board, orders: list[Any]) -> tuple[list[Problem], Plan | None]:
    return movement.simulate(board, orders)


def _check_combat(board: Board, orders: list[Any]) -> tuple[list[Problem], Plan | None]:
    return combat.check(board, orders)[0], None


def _resolve_movement(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
                      events: list[dict[str, Any]]) -> None:
    movement.resolve(ctx, state, side, orders, events)  # 9.x: no dice, no decisions


# 5.2: every phase is a movement or a combat phase (`sequence.kind`); what checks and resolves each.
CHECKS: dict[str, Check] = {"movement": _check_movement, "combat": _check_combat}
RESOLVERS: dict[str, Resolve] = {"movement": _resolve_movement, "combat": combat.resolve}


def _misplaced_tag(kind: str, order: Any) -> str | None:
    """The order's kind if it belongs to the other kind of phase than `kind` (5.2), else None."""
    wrong = misplaced.COMBAT_KINDS if kind == "movement" else misplaced.MOVEMENT_KINDS
    return next((tag for tag in wrong if tag in order), None)


def validate(ctx: Context, view: State, side: str, orders: list[Any]) -> list[Problem]:
    """Every rule the orders break, judged from the side's view alone (`Toc.validate`)."""
    phase = view["phase"]
    if view.get("result") or sequence.owner(phase) != side:
        if orders:
            why = "the game is over" if view.get("result") else f"{sequence.owner(phase)} gives the orders of {phase}"
            return [Problem(f"{side} gives no orders in the {phase} phase", section="5.2",
                            legal=f"orders: [] ({why})")]
        return []
    if conceding(orders) is not None:
        return []
    problems: list[Problem] = []
    told: set[int] = set()  # orders refused for their place or kind: left out of the rules' walk, told once
    chosen = view.get("sequence")
    for index, order in enumerate(orders):
        if "sequence" in order:
            if phase != "british-first" or index != 0:
                legal = _sequence_legal(phase, chosen, orders, order)
                problems.append(Problem("the British sequence is named first thing in the British player turn",
                                        order=index, section="5.3", legal=legal))
            else:
                chosen = order["sequence"]
            told.add(index)  # (named first: not walked either, as resolution walks the orders without it)
        if "next_phase" in order and index != len(orders) - 1:
            problems.append(Problem("`next_phase` is the last order of a phase", order=index, section="5.2",
                                    legal="move it to the end of the list: the orders after it belong to this "
                                          "phase"))
            told.add(index)
    kind = sequence.kind(phase, chosen)
    later = orders[-1]["next_phase"] if orders and "next_phase" in orders[-1] else None
    current = orders[:-1] if later is not None else orders
    for index, order in enumerate(current):
        tag = _misplaced_tag(kind, order)
        if tag is not None:
            message, legal = misplaced.refusal(phase, chosen, tag)
            problems.append(Problem(message, order=index, path=(tag,), section="5.2", legal=legal))
            told.add(index)
    if later is not None and (kind != "movement" or phase not in NEXT_OF):
        problems.append(Problem("only a movement phase may carry the orders of the next phase (a combat's "
                                "results must be known first)", order=len(orders) - 1, section="5.2",
                                legal=_carried_legal(phase, chosen)))
        later = None
    board = Board.from_view(ctx, view)
    board.sequence = chosen  # as resolution stands once the British sequence is named (5.3)
    # every other order is still judged (one list of every problem): walked without those told already
    walked = [index for index in range(len(current)) if index not in told]
    found, plan = handler_for(CHECKS, kind)(board, [current[index] for index in walked])
    found = _in_order(problems + [problem.replaced(order=walked[problem.order]) if problem.order is not None
                                  else problem for problem in found])
    if found or later is None:
        return found
    assert plan is not None  # only a movement phase carries the next phase's orders
    following = NEXT_OF[phase]
    next_kind = sequence.kind(following, chosen)
    after = movement.after_phase(board, plan, following)
    kept: list[int] = []
    for index, order in enumerate(later):
        tag = _misplaced_tag(next_kind, order)
        if tag is None:
            kept.append(index)
            continue
        message, legal = misplaced.refusal(following, chosen, tag, carried=True)
        found.append(Problem(message, order=len(orders) - 1, path=("next_phase", index, tag), section="5.2",
                             legal=legal))
    inner, _ = handler_for(CHECKS, next_kind)(after, [later[index] for index in kept])
    found += [Problem(f"next phase: {p.message}", order=len(orders) - 1,
                      path=("next_phase",) + ((kept[p.order],) if p.order is not None else ()) + tuple(p.path),
                      section=p.section, legal=p.legal) for p in inner]
    return sorted(found, key=lambda p: p.path[1] if len(p.path) > 1 and isinstance(p.path[1], int) else -1)


def _in_order(problems: list[Problem]) -> list[Problem]:
    """The problems by the order they are about (those about the list as a whole first), each order's in
    the order found."""
    return sorted(problems, key=lambda problem: -1 if problem.order is None else problem.order)


def _sequence_legal(phase: str, chosen: str | None, orders: list[Any], order: dict[str, Any]) -> str:
    """5.3: where the British sequence may be named, from the view's phase, the sequence in force and the orders."""
    if phase == "british-first":
        if isinstance(orders[0], dict) and "sequence" in orders[0]:
            return f"one sequence order, the first: {{sequence: {orders[0]['sequence']}}} stands; leave this one out"
        return (f"{{sequence: {order['sequence']}}} as the first order of the list, before every other (no "
                f"sequence order: {sequence.DEFAULT_SEQUENCE}, the default)")
    if phase == "british-second":
        return f"leave it out: {chosen or sequence.DEFAULT_SEQUENCE} was named for this player turn and stands"
    return "leave it out: the German player turn has no sequence to name"


def _carried_legal(phase: str, chosen: str | None) -> str:
    """5.2, 5.3: what the orders carried by a phase that cannot carry them may do instead."""
    following = NEXT_OF.get(phase)
    if following is None:
        return "leave `next_phase` out: no later phase of this player turn takes orders from it"
    movement_first = " or ".join(f"{{sequence: {name}}}" for name, kinds in sorted(sequence.SEQUENCES.items())
                                 if kinds[0] == "movement")
    return (f"leave `next_phase` out and send the orders of {following} once this combat is resolved, or name "
            f"{movement_first} first to make this a movement phase (5.3)")


def resolve(ctx: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
            decisions: Decisions) -> Resolution:
    """Resolve the current phase: its orders (or those a movement phase carried for it), then 6.2 and 5.4."""
    state = normalize(ctx, copy_plain(dict(state)))
    events: list[dict[str, Any]] = []
    phase = state["phase"]
    side = sequence.owner(phase)
    submission = submissions.get(side)
    stored = state.pop("next_orders", None)
    if stored is not None and stored.get("phase") == phase:
        orders = list(stored["orders"])
    else:
        orders = []
        if submission is not None and side in sequence.awaiting(ctx, state):
            orders = list(submission.orders)
    if conceding(orders) is not None:  # 5.4: the game ends at once, the other orders count for nothing
        state["result"] = victory.concede(side)
        events += concession_events(side, "5.4", state["result"])
        return Resolution(state, events)
    if phase == "british-first":
        chosen = next((o["sequence"] for o in orders if "sequence" in o), sequence.DEFAULT_SEQUENCE)
        state["sequence"] = chosen
        events.append({"type": "sequence", "side": "british", "section": "5.3", "sequence": chosen,
                       "turn": state["turn"]})
    later = next((o["next_phase"] for o in orders if "next_phase" in o), None)
    current = [o for o in orders if "sequence" not in o and "next_phase" not in o]
    resolve_phase = handler_for(RESOLVERS, sequence.kind(phase, state.get("sequence")))
    resolve_phase(ctx, state, side, current, dice, decisions, events)
    stacking.enforce(ctx, state, decisions, events)
    if not state.get("result"):
        sequence.advance(ctx, state, events)
    if not state.get("result"):
        if later is not None and phase in NEXT_OF and state["phase"] == NEXT_OF[phase]:
            state["next_orders"] = {"phase": state["phase"], "orders": list(later)}
    return Resolution(state, events)
