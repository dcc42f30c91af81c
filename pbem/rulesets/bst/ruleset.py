"""`Bst`: Blood, Sweat and Tears, gluing the rule modules to the core interface."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Event, Resolution, Ruleset, State, Submission

from . import bots, fog, orders, sequence
from .opfire import STANDING_SCHEMA
from .context import SCENARIO_SCHEMA, SIDES, Context, checked_setup, prepare, tables_schema
from .deck import new_deck
from .smoke import with_smoke
from .state import base_entry, normalize


class Bst(Ruleset[Context]):
    id = "bst"
    version = "36"
    title = "Blood, Sweat and Tears"
    sequence_section = "A1"

    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        return list(SIDES)

    def scenario_schema(self) -> dict[str, Any]:
        return copy.deepcopy(SCENARIO_SCHEMA)

    def tables_schema(self) -> dict[str, Any]:
        return tables_schema()

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        return checked_setup(scenario)

    def prepare(self, setup: Mapping[str, Any]) -> Context:
        return prepare(setup)

    def initial_state(self, context: Context, scenario: Mapping[str, Any]) -> State:
        setup = checked_setup(scenario)
        bases = {bid: base_entry(uid, entry)
                 for uid, unit in sorted(setup["units"].items()) for bid, entry in sorted(unit["bases"].items())}
        return {"setup": setup, "phase": sequence.PHASE, "turn": 1, "deck": new_deck(context.cards), "card": None,
                "awaiting": None, "activated": [], "led": [], "smoke": [], "split": {}, "mortars": {}, "bases": bases, "lost": {}, "result": None}

    def phase(self, context: Context, state: State) -> str:
        return str(state.get("phase", sequence.PHASE))

    def awaiting(self, context: Context, state: State) -> list[str]:
        return sequence.awaiting(normalize(context, state))

    def result(self, context: Context, state: State) -> dict[str, Any] | None:
        found = state.get("result")
        return dict(found) if found else None

    def phase_names(self) -> list[str]:
        return [sequence.PHASE]

    def order_schema(self, phase: str) -> dict[str, Any]:
        return orders.order_schema()

    def standing_schema(self) -> dict[str, Any]:
        return copy.deepcopy(STANDING_SCHEMA)

    def order_kinds(self, phase: str) -> list[str]:
        return orders.order_kinds()

    def validate(self, context: Context, view: State, side: str, given: list[Any]) -> list[Problem]:
        view = normalize(context, view)
        return orders.validate(with_smoke(context, view), view, side, given)

    def resolve(self, context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        state = normalize(context, copy.deepcopy(state))  # a decision replays resolution from the same state
        side = state.get("awaiting")
        sub = submissions.get(side) if side else None
        events = sequence.resolve(context, state, sub.orders if sub else [], dice, decisions)
        return Resolution(state, events)

    def view(self, context: Context, state: State, side: str) -> State:
        return fog.view(normalize(context, state), side)

    def visible(self, context: Context, event: Event, side: str) -> Event | None:
        return fog.visible(event, side, context.side_of)

    def picture(self, context: Context) -> Any:
        from .picture import BstAdapter
        sizes = {name: (kind.width, kind.depth) for name in context.tables.vehicles()
                 for kind in [context.tables.vehicle(name)]}
        return BstAdapter(context.table, {uid: unit.side for uid, unit in context.units.items()},
                          context.tables.number("base_size"), sizes)

    def bot_orders(self, context: Context, view: State, side: str, seed: bytes) -> list[Any]:
        view = normalize(context, view)
        return bots.bot_orders(with_smoke(context, view), view, side, seed)
