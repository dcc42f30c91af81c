"""`Fbsm`: the First Blood: Second Marne ruleset, gluing the rule modules to the core interface.

The game's context (`context.Context`: map, tables, counters, derived hex sets) is prepared once
per game by the core (`prepare`) and handed to every call; each call passes it on, so no rule
reads its configuration from a state.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Event, Resolution, Ruleset, State, Submission

from . import phases, sequence
from .context import DEFAULT_MAP, PACKAGED_MAPS, SIDES, Context, prepare, setup_of, tables_schema
from .orders import STANDING_SCHEMA, order_kinds, order_schema, order_template
from .state import NO_EFFECTS, NO_ONCE, normalize


class Fbsm(Ruleset[Context]):
    id = "fbsm"
    version = "3"  # 3: german-placement always awaits the German (no `placement: auto`)
    title = "First Blood: Second Marne, 15 July 1918"
    sequence_section = "5.1"

    # --- set-up ---------------------------------------------------------------------------------
    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        return list(SIDES)

    def scenario_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "map": {"oneOf": [{"enum": sorted(PACKAGED_MAPS)}, {"type": "object"}],
                        "description": f"a packaged map name (default {DEFAULT_MAP}) or a whole map document"},
                "play_balance": {"type": "boolean", "description": "13.1-13.4: turn limit 16 and German "
                                                                   "bombardment deterioration from turn 9"},
            },
        }

    def tables_schema(self) -> dict[str, Any]:
        return tables_schema()

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        return setup_of(scenario)

    def prepare(self, setup: Mapping[str, Any]) -> Context:
        return prepare(setup)

    def initial_state(self, context: Context, scenario: Mapping[str, Any]) -> State:
        return {
            "fbsm": 1,
            "setup": self.setup(scenario),
            "turn": 1,
            "phase": "us-setup",
            "units": {uid: {"hex": None, "status": "container", "z": 0} for uid in sorted(context.counters)},
            "next_z": 1,
            "effects": dict(NO_EFFECTS),
            "once": dict(NO_ONCE),
            "pending": None,
            "markers": {"us": None, "german": None},
            "result": None,
        }

    # --- the sequence ---------------------------------------------------------------------------
    def phase(self, context: Context, state: State) -> str:
        return str(state["phase"])

    def awaiting(self, context: Context, state: State) -> list[str]:
        return sequence.awaiting(normalize(context, state))

    def result(self, context: Context, state: State) -> dict[str, Any] | None:
        result = state.get("result")
        return dict(result) if result else None

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
        return order_template(context, view, side)

    def validate(self, context: Context, view: State, side: str, orders: list[Any]) -> list[Problem]:
        return phases.validate(context, view, side, orders)

    def resolve(self, context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        return phases.resolve(context, state, submissions, dice, decisions)

    # --- fog of war -----------------------------------------------------------------------------
    # imported on use, with the event catalogue: a check or an intake shows nothing to anyone
    def view(self, context: Context, state: State, side: str) -> State:
        from . import fog

        return fog.view(context, state, side)

    def visible(self, context: Context, event: Event, side: str) -> Event | None:
        from . import fog

        return fog.visible(event, side)

    # --- bots -----------------------------------------------------------------------------------
    # imported on use: the referee's commands never play a bot
    def bot_orders(self, context: Context, view: State, side: str, seed: bytes) -> list[Any]:
        from . import bots

        return bots.orders(context, view, side, seed)

    def bot_answer(self, request: Mapping[str, Any], seed: bytes) -> Any:
        from . import bots

        return bots.answer(request, seed)

    # --- pictures and words ---------------------------------------------------------------------
    def picture(self, context: Context) -> Any:
        from .picture import FbsmAdapter  # imported on use: drawing is not needed to adjudicate

        return FbsmAdapter(context)
