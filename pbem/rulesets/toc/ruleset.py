"""`Toc`: The Old Contemptibles ruleset, gluing the rule modules to the core interface."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, Ruleset, State, Submission

from . import bots, combat, fog, movement, sequence, stacking, victory
from .board import Board
from .config import PACKAGED_MAPS, SIDES, Config, config, scenario_setup
from .orders import NEXT_OF, STANDING_SCHEMA, order_kinds, order_schema
from .state import normalize, place


class Toc(Ruleset[Config]):
    id = "toc"
    version = "2"
    title = "The Old Contemptibles: The Battle of Mons, 1914"

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
        return {"type": "object"}  # still checked by scenario_setup

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        return scenario_setup(scenario)

    def prepare(self, setup: Mapping[str, Any]) -> Config:
        return config(setup)

    def initial_state(self, context: Config, scenario: Mapping[str, Any]) -> State:
        cfg = context
        state: State = {
            "toc": 1,
            "setup": self.setup(scenario),
            "turn": 1,
            "phase": "german-movement",
            "sequence": None,
            "units": {uid: {"hex": None, "steps": c.steps, "status": "container" if c.side == "german" else "active",
                            "z": 0} for uid, c in cfg.counters.items()},
            "next_z": 1,
            "control": [],
            "marched": [],
            "result": None,
        }
        for uid, counter in cfg.counters.items():  # 3.1: British units on their printed start hexes
            if counter.side == "british":
                place(state, uid, str(counter.start))
        return state

    # --- the sequence ---------------------------------------------------------------------------
    def phase(self, context: Any, state: State) -> str:
        return str(state["phase"])

    def awaiting(self, context: Any, state: State) -> list[str]:
        return sequence.awaiting(normalize(state))

    def result(self, context: Any, state: State) -> dict[str, Any] | None:
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

    def validate(self, context: Any, view: State, side: str, orders: list[Any]) -> list[Problem]:
        phase = view["phase"]
        if view.get("result") or sequence.owner(phase) != side:
            if orders:
                return [Problem(f"{side} gives no orders in the {phase} phase", section="5.2")]
            return []
        if any("concede" in order for order in orders):
            return []
        problems: list[Problem] = []
        chosen = view.get("sequence")
        for index, order in enumerate(orders):
            if "sequence" in order:
                if phase != "british-first" or index != 0:
                    problems.append(Problem("the British sequence is named first thing in the British player "
                                            "turn", order=index, section="5.3"))
                else:
                    chosen = order["sequence"]
            if "next_phase" in order and index != len(orders) - 1:
                problems.append(Problem("`next_phase` is the last order of a phase", order=index, section="5.2"))
        kind = sequence.kind(phase, chosen)
        later = orders[-1]["next_phase"] if orders and "next_phase" in orders[-1] else None
        current = orders[:-1] if later is not None else orders
        for index, order in enumerate(current):
            if kind == "movement" and ("bombard" in order or "melee" in order):
                problems.append(Problem("this is a movement phase", order=index, section="5.2"))
            if kind == "combat" and ("move" in order or "top" in order):
                problems.append(Problem("this is a combat phase", order=index, section="5.2"))
        if later is not None and (kind != "movement" or phase not in NEXT_OF):
            problems.append(Problem("only a movement phase may carry the orders of the next phase (a combat's "
                                    "results must be known first)", order=len(orders) - 1, section="5.2"))
        if problems:
            return problems
        board = Board.from_view(view)
        if kind == "movement":
            found, plan = movement.simulate(board, current)
        else:
            found, _ = combat.check(board, current)
        if found or later is None:
            return found
        following = NEXT_OF[phase]
        next_kind = sequence.kind(following, chosen)
        after = movement.after_phase(board, plan, following)
        for index, order in enumerate(later):
            if next_kind == "movement" and ("bombard" in order or "melee" in order):
                found.append(Problem("the next phase is a movement phase", order=len(orders) - 1,
                                     path=("next_phase", index), section="5.2"))
            if next_kind == "combat" and ("move" in order or "top" in order):
                found.append(Problem("the next phase is a combat phase", order=len(orders) - 1,
                                     path=("next_phase", index), section="5.2"))
        if found:
            return found
        if next_kind == "movement":
            inner, _ = movement.simulate(after, later)
        else:
            inner, _ = combat.check(after, later)
        return [Problem(f"next phase: {p.message}", order=len(orders) - 1,
                        path=("next_phase",) + ((p.order,) if p.order is not None else ()) + tuple(p.path),
                        section=p.section, legal=p.legal) for p in inner]

    def resolve(self, context: Any, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        state = normalize(copy.deepcopy(dict(state)))
        events: list[dict[str, Any]] = []
        phase = state["phase"]
        side = sequence.owner(phase)
        submission = submissions.get(side)
        stored = state.pop("next_orders", None)
        if stored is not None and stored.get("phase") == phase:
            orders = list(stored["orders"])
        else:
            orders = list(submission.orders) if submission is not None and side in sequence.awaiting(state) else []
        if any("concede" in order for order in orders):
            state["result"] = victory.concede(side)
            events.append({"type": "concede", "side": side, "section": "5.4"})
            events.append({"type": "victory", **state["result"]})
            return Resolution(state, events)
        if phase == "british-first":
            chosen = next((o["sequence"] for o in orders if "sequence" in o), sequence.DEFAULT_SEQUENCE)
            state["sequence"] = chosen
            events.append({"type": "sequence", "side": "british", "section": "5.3", "sequence": chosen,
                           "turn": state["turn"]})
        later = next((o["next_phase"] for o in orders if "next_phase" in o), None)
        current = [o for o in orders if "sequence" not in o and "next_phase" not in o]
        if sequence.kind(phase, state.get("sequence")) == "movement":
            movement.resolve(state, side, current, events)
        else:
            combat.resolve(state, side, current, dice, decisions, events)
        stacking.enforce(state, decisions, events)
        if not state.get("result"):
            sequence.advance(state, events)
        if not state.get("result"):
            if later is not None and phase in NEXT_OF and state["phase"] == NEXT_OF[phase]:
                state["next_orders"] = {"phase": state["phase"], "orders": list(later)}
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
        from .picture import TocAdapter  # imported on use: drawing is not needed to adjudicate

        return TocAdapter(context)
