"""Which rules validate and resolve each phase: two tables, read with the kit's `handler_for`.

Validation is by kind of phase (`sequence.KIND`) and judges a side's orders on its `Board`
built from its own view; resolution is by phase, on the master state, and returns what a
placement placed (the sequence needs it to know what follows, 7.5 and 7.7). A concession
(4.5) ends the orders given before it (`kit.phases.conceding`) and, unless they already won
the game, gives the other side the victory (`kit.phases.concession_events`). The bots validate
their own orders here too, with the context they were given.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Event, Resolution, State, Submission
from pbem.rulesets.kit.phases import conceding, concession_events, handler_for
from pbem.rulesets.kit.plain import copy_plain

from . import bombardment, fire, movement, random_events, reinforcements, sequence, setup, victory
from .board import Board
from .context import Context
from .state import normalize

Validator = Callable[[Board, list[Any], Mapping[str, Any]], list[Problem]]  # board, orders, the side's view
Resolver = Callable[[Context, State, str, list[Any], Dice, Decisions, list[Event]], str | None]


# --- validation, by kind of phase ---------------------------------------------------------------

def _setup(board: Board, orders: list[Any], view: Mapping[str, Any]) -> list[Problem]:
    return setup.validate_us_setup(board, orders)


def _placement(board: Board, orders: list[Any], view: Mapping[str, Any]) -> list[Problem]:
    return reinforcements.validate(board, orders, view.get("pending"))


def _movement(board: Board, orders: list[Any], view: Mapping[str, Any]) -> list[Problem]:
    return movement.validate(board, orders)


def _fire(board: Board, orders: list[Any], view: Mapping[str, Any]) -> list[Problem]:
    return fire.validate(board, orders)


def _bombardment(board: Board, orders: list[Any], view: Mapping[str, Any]) -> list[Problem]:
    return bombardment.validate(board, orders, view.get("markers") or {})


VALIDATE: dict[str, Validator] = {"setup": _setup, "placement": _placement, "movement": _movement, "fire": _fire,
                                  "bombardment": _bombardment}


def validate(ctx: Context, view: State, side: str, orders: list[Any]) -> list[Problem]:
    """Every rule the orders break, judged from the side's view alone (`Fbsm.validate`)."""
    phase = view["phase"]
    if phase in sequence.AUTOMATIC or sequence.owner(phase) != side:
        if orders:
            return [Problem(f"{side} gives no orders in the {phase} phase", section="5.3")]
        return []
    check = handler_for(VALIDATE, sequence.KIND.get(phase) or phase)
    return check(Board.from_view(ctx, view), orders, view)


# --- resolution, by phase -------------------------------------------------------------------------

def _us_setup(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
              events: list[Event]) -> str | None:
    setup.resolve_us_setup(ctx, state, orders, events)
    return None


def _german_setup(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
                  events: list[Event]) -> str | None:
    setup.resolve_german_setup(ctx, state, dice, events)
    return None


def _random_events(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
                   events: list[Event]) -> str | None:
    random_events.resolve(ctx, state, dice, decisions, events)
    return None


def _reinforcement(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
                   events: list[Event]) -> str | None:
    reinforcements.resolve_reinforcement(ctx, state, dice, events)
    return None


def _placed(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
            events: list[Event]) -> str | None:
    return reinforcements.resolve_placement(ctx, state, orders, events)


def _bombard(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
             events: list[Event]) -> str | None:
    bombardment.resolve(ctx, state, side, orders, dice, events)
    return None


def _move(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
          events: list[Event]) -> str | None:
    movement.resolve(ctx, state, side, orders, events)
    return None


def _fire_orders(ctx: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
                 events: list[Event]) -> str | None:
    fire.resolve(ctx, state, side, orders, dice, decisions, events)
    return None


BY_PHASE: dict[str, Resolver] = {"us-setup": _us_setup, "german-setup": _german_setup,
                                 "random-events": _random_events, "german-reinforcement": _reinforcement}
BY_KIND: dict[str, Resolver] = {"placement": _placed, "bombardment": _bombard, "movement": _move,
                                "fire": _fire_orders}
RESOLVE: dict[str, Resolver] = {phase: BY_PHASE[phase] if phase in BY_PHASE else BY_KIND[kind]
                                for phase, kind in sequence.KIND.items()}


def resolve(ctx: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
            decisions: Decisions) -> Resolution:
    """Resolve the state's phase with the owner's orders, then move the sequence on (`Fbsm.resolve`)."""
    state = normalize(ctx, copy_plain(dict(state)))
    events: list[Event] = []
    phase = state["phase"]
    handler = handler_for(RESOLVE, phase)
    side = sequence.owner(phase)
    submission = submissions.get(side)
    orders = list(submission.orders) if submission is not None and phase not in sequence.AUTOMATIC else []
    conceded = conceding(orders)
    if conceded is not None:
        orders = orders[:conceded]  # 4.5: nothing after the concession is carried out
    placed_kind = handler(ctx, state, side, orders, dice, decisions, events)
    if conceded is not None and not state.get("result"):
        events += concession_events(side, "4.5", victory.concede(state, side))
    if not state.get("result"):
        sequence.advance(ctx, state, dice, events, placed_kind)
    return Resolution(state, events)
