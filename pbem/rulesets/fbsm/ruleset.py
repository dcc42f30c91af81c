"""`Fbsm`: the First Blood: Second Marne ruleset, gluing the rule modules to the core interface."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, Ruleset, State, Submission

from . import bombardment, bots, fire, fog, movement, random_events, reinforcements, sequence, setup, victory
from .board import Board
from .tables import DEFAULT_MAP, PACKAGED_MAPS, SIDES, Config, config, scenario_setup
from .orders import STANDING_SCHEMA, order_kinds, order_schema
from .state import NO_EFFECTS, NO_ONCE, normalize


class Fbsm(Ruleset[Config]):
    id = "fbsm"
    version = "3"  # 3: german-placement always awaits the German (no `placement: auto`)
    title = "First Blood: Second Marne, 15 July 1918"

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
        return {"type": "object"}  # still checked by scenario_setup

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        return scenario_setup(scenario)

    def prepare(self, setup: Mapping[str, Any]) -> Config:
        return config(setup)

    def initial_state(self, context: Config, scenario: Mapping[str, Any]) -> State:
        cfg = context
        return {
            "fbsm": 1,
            "setup": self.setup(scenario),
            "turn": 1,
            "phase": "us-setup",
            "units": {uid: {"hex": None, "status": "container", "z": 0} for uid in sorted(cfg.counters)},
            "next_z": 1,
            "effects": dict(NO_EFFECTS),
            "once": dict(NO_ONCE),
            "pending": None,
            "markers": {"us": None, "german": None},
            "result": None,
        }

    # --- the sequence ---------------------------------------------------------------------------
    def phase(self, context: Any, state: State) -> str:
        return str(state["phase"])

    def awaiting(self, context: Any, state: State) -> list[str]:
        return sequence.awaiting(normalize(state))

    def result(self, context: Any, state: State) -> dict[str, Any] | None:
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

    def validate(self, context: Any, view: State, side: str, orders: list[Any]) -> list[Problem]:
        phase = view["phase"]
        kind = sequence.KIND.get(phase)
        if phase in sequence.AUTOMATIC or sequence.owner(phase) != side:
            if orders:
                return [Problem(f"{side} gives no orders in the {phase} phase", section="5.3")]
            return []
        board = Board.from_view(view)
        if kind == "setup":
            return setup.validate_us_setup(board, orders)
        if kind == "placement":
            return reinforcements.validate(board, orders, view.get("pending"))
        if kind == "movement":
            return movement.validate(board, orders)
        if kind == "fire":
            return fire.validate(board, orders)
        if kind == "bombardment":
            return bombardment.validate(board, orders, view.get("markers") or {})
        return []

    def resolve(self, context: Any, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        state = normalize(copy.deepcopy(dict(state)))
        events: list[dict[str, Any]] = []
        phase = state["phase"]
        kind = sequence.KIND[phase]
        side = sequence.owner(phase)
        submission = submissions.get(side)
        orders = list(submission.orders) if submission is not None and phase not in sequence.AUTOMATIC else []
        conceded = next((i for i, order in enumerate(orders) if "concede" in order), None)
        if conceded is not None:
            orders = orders[:conceded]
        placed_kind = None
        if phase == "us-setup":
            setup.resolve_us_setup(state, orders, events)
        elif phase == "german-setup":
            setup.resolve_german_setup(state, dice, events)
        elif phase == "random-events":
            random_events.resolve(state, dice, decisions, events)
        elif phase == "german-reinforcement":
            reinforcements.resolve_reinforcement(state, dice, events)
        elif kind == "placement":
            placed_kind = reinforcements.resolve_placement(state, orders, events)
        elif kind == "bombardment":
            bombardment.resolve(state, side, orders, dice, events)
        elif kind == "movement":
            for order in orders:
                movement.resolve_move(state, side, order, events)
                if state.get("result"):
                    break
        elif kind == "fire":
            _, heavy = fire.heavy_mg_problems(Board.from_state(state, side), orders)
            for order in orders:
                if "fire" in order:
                    fire.resolve_fire(state, side, order, heavy, dice, decisions, events)
                if state.get("result"):
                    break
        if conceded is not None and not state.get("result"):
            events.append({"type": "concede", "side": side, "section": "4.5"})
            events.append({"type": "victory", **victory.concede(state, side)})
        if not state.get("result"):
            sequence.advance(state, dice, events, placed_kind)
        return Resolution(state, events)

    # --- fog of war -----------------------------------------------------------------------------
    def view(self, context: Any, state: State, side: str) -> State:
        return fog.view(state, side)

    def visible(self, context: Any, event: dict[str, Any], side: str) -> dict[str, Any] | None:
        return fog.visible(event, side)

    # --- bots -----------------------------------------------------------------------------------
    def bot_orders(self, context: Any, view: State, side: str, seed: bytes) -> list[Any]:
        return bots.orders(view, side, seed)

    def bot_answer(self, request: Mapping[str, Any], seed: bytes) -> Any:
        return bots.answer(request, seed)

    # --- pictures and words ---------------------------------------------------------------------
    def picture(self, context: Config) -> Any:
        from .picture import FbsmAdapter  # imported on use: drawing is not needed to adjudicate

        return FbsmAdapter(context)
