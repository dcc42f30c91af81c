"""The sequence of play (A1, A2, P1): cards drawn one at a time until a side owes orders.

An adjudication first resolves the activation the last drawn card asked for (its side's
orders), then draws on: a Joker ends the turn and unmarks every unit (A1); a card whose
unit already activated or has no bases is passed over; a card of the same side whose unit
has a queued order that still checks is resolved at once; any other card stops the drawing
and its side owes the next orders. Queued orders left unused are dropped, never shown.
The game ends with the Joker that closes its last turn (P1: the scenario sets the length).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, Event, State

from .activation import activate
from .context import SIDES, Context
from .deck import JOKER, draw_card
from .orders import NEXT, bases_of, check_activation, queue_key
from .smoke import joker, with_smoke
from .victory import outcome

PHASE = "activation"


def group(orders: Sequence[Mapping[str, Any]], drawn: str, active: str) -> dict[str, list[Mapping[str, Any]]]:
    """Queued orders by "UNIT", "UNIT CARD" or "UNIT next" (`orders.queue_key`)."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for order in orders:
        out.setdefault(queue_key(order, drawn, active), []).append(order)
    return out


def resolve(context: Context, state: State, orders: Sequence[Mapping[str, Any]], dice: Dice,
            decisions: Decisions) -> list[Event]:
    """Resolve the waiting card's activation by `orders`, then draw until a side owes orders."""
    events: list[Event] = []
    table_only = context
    context = with_smoke(table_only, state)
    queue: dict[str, list[Mapping[str, Any]]] = {}
    sender = state.get("awaiting")
    if sender and state.get("card"):
        unit = context.cards[state["card"]]
        drawn = state["card"]
        now = [o for o in orders if queue_key(o, drawn, unit) == unit]
        activate(context, state, unit, now or [{"unit": unit, "act": "hold"}], dice, decisions, events,
                 context.second(drawn))
        queue = group([o for o in orders if queue_key(o, drawn, unit) != unit], drawn, unit)
        state["result"] = outcome(context, state, final=False)
        context = with_smoke(table_only, state)
    state["card"] = None
    state["awaiting"] = None
    after_joker = False  # A1: the drawn unit's own queued orders wait for its card after a Joker
    while state["result"] is None:
        card = draw_card(state["deck"], dice)
        if card == JOKER:
            events.append({"type": "joker", "section": "A1", "turn": state["deck"]["turn"] - 1})
            state["activated"] = []
            state["led"] = []
            state["turn"] = state["deck"]["turn"]
            after_joker = True
            joker(table_only, state, events)
            context = with_smoke(table_only, state)
            if state["deck"]["turn"] > context.turns:
                state["result"] = outcome(context, state)
                break
            state["result"] = outcome(context, state, final=False)
            continue
        unit = context.cards[card]
        side = context.side_of(unit)
        events.append({"type": "drawn", "section": "A1", "card": card, "unit": unit, "side": side})
        second = context.second(card)
        spent = unit in state.get("led", []) if second else unit in state["activated"]
        if spent or not bases_of(state, unit):
            events.append({"type": "passed", "section": "A1", "card": card, "unit": unit})
            continue
        queued = (queue.get(f"{unit} {card}") or queue.get(unit)
                  or (queue.get(f"{unit} {NEXT}") if after_joker and not second else None)) if side == sender else None
        if queued and not check_activation(context, state, side, unit, list(enumerate(queued)), second):
            events.append({"type": "queued", "section": "A1", "card": card, "unit": unit})
            activate(context, state, unit, queued, dice, decisions, events, second)
            state["result"] = outcome(context, state, final=False)
            context = with_smoke(table_only, state)
            continue
        state["card"] = card
        state["awaiting"] = side
        break
    return events


def awaiting(state: Mapping[str, Any]) -> list[str]:
    side = state.get("awaiting")
    return [side] if side in SIDES else []
