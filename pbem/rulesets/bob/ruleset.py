"""`Bob`: Band of Brothers: Screaming Eagles, gluing the rule modules to the core interface."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, Ruleset, State, Submission

from . import bots, fog, phases, sequence
from .context import SCENARIO_SCHEMA, SIDES, Context, checked_setup, prepare, tables_schema
from .board import Board
from .orders import STANDING_SCHEMA, order_kinds, order_schema, template
from .state import normalize


class Bob(Ruleset[Context]):
    id = "bob"
    version = "4"
    title = "Band of Brothers: Screaming Eagles"
    sequence_section = "1.0"

    # --- set-up ---------------------------------------------------------------------------------
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
        state = normalize(context, {"setup": checked_setup(scenario), "phase": "setup", "turn": 1,
                                    "units": {uid: {"status": "waiting"} for uid in context.units}})
        return state

    # --- the sequence ---------------------------------------------------------------------------
    def phase(self, context: Context, state: State) -> str:
        return str(state.get("phase", "operations"))

    def awaiting(self, context: Context, state: State) -> list[str]:
        return sequence.awaiting(context, normalize(context, state))

    def result(self, context: Context, state: State) -> dict[str, Any] | None:
        found = state.get("result")
        return dict(found) if found else None

    def phase_names(self) -> list[str]:
        return list(sequence.PHASES)

    # --- orders ---------------------------------------------------------------------------------
    def order_schema(self, phase: str) -> dict[str, Any]:
        return order_schema(phase)

    def standing_schema(self) -> dict[str, Any]:
        return copy.deepcopy(STANDING_SCHEMA)

    def order_kinds(self, phase: str) -> list[str]:
        return order_kinds(phase)

    def order_template(self, context: Context, view: State, side: str) -> list[str]:
        board = Board.from_view(view)
        available = [uid for uid in sorted(board.own) if board.available(context, uid)]
        return template(available, str(view["phase"]), list(context.setup_area(side)))

    def validate(self, context: Context, view: State, side: str, orders: list[Any]) -> list[Problem]:
        return phases.validate(context, view, side, orders)

    def resolve(self, context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        return phases.resolve(context, state, submissions, dice, decisions)

    # --- fog of war -----------------------------------------------------------------------------
    def view(self, context: Context, state: State, side: str) -> State:
        return fog.view(context, state, side)

    def visible(self, context: Context, event: dict[str, Any], side: str) -> dict[str, Any] | None:
        return fog.visible(context, event, side)

    # --- bots -----------------------------------------------------------------------------------
    def bot_orders(self, context: Context, view: State, side: str, seed: bytes) -> list[Any]:
        return bots.orders(context, view, side, seed)

    # --- pictures and words ---------------------------------------------------------------------
    def picture(self, context: Context) -> Any:
        from .picture import BobAdapter  # imported on use: drawing is not needed to adjudicate

        return BobAdapter(context)
