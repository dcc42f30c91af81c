"""Which rules check and resolve each phase (1.0): set-up, pre-turn and impulses by orders; the
Rout, Melee and Recovery Phases by themselves. A concession ends the game at once (18.0)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, State, Submission
from pbem.rulesets.kit.phases import conceding, concession_events

from . import conceal, melee, operations, rout, sequence, setup, victory
from .board import Board
from .context import Context
from .melee import recover
from .state import normalize


def validate(ctx: Context, view: State, side: str, orders: list[Any]) -> list[Problem]:
    phase = view["phase"]
    if view.get("result") or side not in sequence.awaiting(ctx, view):
        return [Problem(f"{side} gives no orders now: the {phase} phase awaits "
                        f"{', '.join(sequence.awaiting(ctx, view)) or 'nobody'}", section="1.0")] if orders else []
    if conceding(orders) is not None:
        return []
    if phase == "setup":
        return setup.validate(ctx, side, orders)
    return operations.validate(ctx, Board.from_view(view), phase, orders, dict(view))


def resolve(ctx: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
            decisions: Decisions) -> Resolution:
    state = normalize(ctx, copy.deepcopy(dict(state)))
    events: list[dict[str, Any]] = []
    phase = state["phase"]
    orders = {side: list(s.orders) for side, s in submissions.items()
              if s is not None and side in sequence.awaiting(ctx, state)}
    for side, given in sorted(orders.items()):
        if conceding(given) is not None:
            state["result"] = victory.concede(side)
            events += concession_events(side, "18.0", state["result"])
            return Resolution(state, events)
    if phase == "setup":
        setup.resolve(ctx, state, orders, dice, events)
        conceal.sweep(ctx, state, events)  # 15.0: markers come off only once both sides have set up
        victory.update_held(ctx, state)
        sequence.start_turn(ctx, state, events)
    elif phase in ("preturn", "operations"):
        side = state["active"]
        operations.resolve(ctx, state, dice, decisions, side, phase, orders.get(side, []), events)
        sequence.next_impulse(ctx, state, events)
    elif phase == "rout":
        rout.resolve(ctx, state, dice, decisions, events)
        state["phase"] = "melee"
    elif phase == "melee":
        melee.resolve(ctx, state, dice, decisions, events)
        state["phase"] = "recovery"
    else:
        recover(ctx, state, events)
    return Resolution(state, events)
