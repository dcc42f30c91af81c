"""`Toc`: The Old Contemptibles ruleset, gluing the rule modules to the core interface.

The core prepares one `Context` per game (`prepare`) and passes it into every call; the rule
modules receive it from here (and a `Board` carries it), never building one of their own.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, Ruleset, State, Submission
from pbem.rulesets.kit.stacks import place

from . import bots, fog, misplaced, phases, sequence
from .context import PACKAGED_MAPS, SIDES, Context, checked_setup, prepare, scenario_setup, tables_schema
from .defensive_fire import HOLD
from .orders import STANDING_SCHEMA, order_kinds, order_schema, order_template
from .state import normalize


class Toc(Ruleset[Context]):
    id = "toc"
    version = "3"
    title = "The Old Contemptibles: The Battle of Mons, 1914"
    sequence_section = "5.2"

    # --- set-up ---------------------------------------------------------------------------------
    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        return list(SIDES)

    def scenario_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "map": {"oneOf": [{"enum": sorted(PACKAGED_MAPS)}, {"type": "object"}],
                        "description": "a packaged map name (default mons) or a whole map document"},
            },
        }

    def tables_schema(self) -> dict[str, Any]:
        return tables_schema()

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        return checked_setup(scenario)

    def prepare(self, setup: Mapping[str, Any]) -> Context:
        return prepare(setup)

    def initial_state(self, context: Context, scenario: Mapping[str, Any]) -> State:
        ctx = context
        state: State = {
            "toc": 1,
            "setup": scenario_setup(scenario),
            "turn": 1,
            "phase": "german-movement",
            "sequence": None,
            "units": {uid: {"hex": None, "steps": c.steps, "status": "container" if c.side == "german" else "active",
                            "z": 0} for uid, c in ctx.counters.items()},
            "next_z": 1,
            "control": [],
            "marched": [],
            "result": None,
        }
        for uid, counter in ctx.counters.items():  # 3.1: British units on their printed start hexes
            if counter.side == "british":
                place(state, uid, str(counter.start))
        return state

    # --- the sequence ---------------------------------------------------------------------------
    def phase(self, context: Context, state: State) -> str:
        return str(state["phase"])

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

    def misplaced(self, view: Mapping[str, Any] | None, orders: Sequence[Any], phase: str, tag: str,
                  within: str | None = None) -> Problem | None:
        return misplaced.said(view, orders, phase, tag, within)  # 5.2, 5.3: where that order goes

    def order_template(self, context: Context, view: State, side: str) -> list[str]:
        return order_template(context, view, side)

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

    def bot_answer(self, request: Mapping[str, Any], seed: bytes) -> Any:
        return bots.answer(request, seed)

    def option_name(self, topic: str, option: Any) -> str | None:
        if topic == "defensive_fire" and option == {}:
            return HOLD  # 11.2: the whole-hex plan in which no defender fires
        return super().option_name(topic, option)

    # --- pictures and words ---------------------------------------------------------------------
    def picture(self, context: Context) -> Any:
        from .picture import TocAdapter  # imported on use: drawing is not needed to adjudicate

        return TocAdapter(context)
