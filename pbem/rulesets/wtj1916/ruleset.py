"""The `Wtj1916` ruleset: the contract, each method a thin call into the rule modules."""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, Ruleset, State, Submission

from . import bots, fire, fog, movement, sequence
from .context import SCENARIO_SCHEMA, SIDES, Context, checked_setup, other, prepare, tables_schema
from .orders import STANDING_SCHEMA, order_kinds, order_schema, template
from .state import initial_units, normalize


class Wtj1916(Ruleset[Context]):
    id = "wtj1916"
    version = "3"
    title = "1916: Land War in the Age of Machines (the firing chapter)"
    sequence_section = "F1"

    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        return list(SIDES)

    def scenario_schema(self) -> dict[str, Any]:
        return SCENARIO_SCHEMA

    def tables_schema(self) -> dict[str, Any]:
        return tables_schema()

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        return checked_setup(scenario)

    def prepare(self, setup: Mapping[str, Any]) -> Context:
        return prepare(setup)

    def initial_state(self, context: Context, scenario: Mapping[str, Any]) -> State:
        setup = self.setup(scenario)
        units, bases = initial_units(setup)
        return normalize(context, {"setup": setup, "turn": 1, "phase": f"{context.first}-move",
                                   "units": units, "bases": bases})

    def phase_names(self) -> list[str]:
        return [f"{side}-move" for side in SIDES] + ["fire"]

    def phase(self, context: Context, state: State) -> str:
        return str(normalize(context, state)["phase"])

    def awaiting(self, context: Context, state: State) -> list[str]:
        """F1: the moving side in its move phase (the other's passing fire is standing), both in the fire phase."""
        if self.result(context, state):
            return []
        phase = str(normalize(context, state)["phase"])
        return [phase.removesuffix("-move")] if phase.endswith("-move") else list(SIDES)

    def result(self, context: Context, state: State) -> dict[str, Any] | None:
        state = normalize(context, state)
        for side in SIDES:
            if not any(u["side"] == side and u["status"] == "active" for u in state["units"].values()):
                return {"winner": other(side), "section": "F3", "reason": f"{side} has no units left"}
        if state["turn"] > context.turns:
            score = state["score"]
            best = max(SIDES, key=lambda s: (score.get(s, 0), s))
            tied = score.get("british", 0) == score.get("german", 0)
            return {"winner": None if tied else best, "section": "F3",
                    "reason": f"last turn played; bases destroyed: british {score.get('british', 0)}, "
                              f"german {score.get('german', 0)}"}
        return None

    def order_schema(self, phase: str) -> dict[str, Any]:
        return order_schema(phase)

    def standing_schema(self) -> dict[str, Any]:
        return STANDING_SCHEMA

    def order_kinds(self, phase: str) -> list[str]:
        return order_kinds(phase)

    def order_template(self, context: Context, view: State, side: str) -> list[str]:
        return template(context, normalize(context, view), side)

    def validate(self, context: Context, view: State, side: str, orders: list[Any]) -> list[Problem]:
        view = normalize(context, view)
        phase = view["phase"]
        problems: list[Problem] = []
        used: set[tuple[str, str]] = set()
        fired: set[str] = set()  # units with a fire order above
        strikes = 0
        for index, order in enumerate(orders):
            kind = next(iter(k for k in ("move", "set_up", "fire", "flame", "unjam", "air_strike")
                             if k in order))
            key = (kind if kind in ("flame",) else "act", str(order.get("unit", order.get(kind))))
            if kind == "flame":
                key = ("flame", str(order.get("base")))
            if kind == "air_strike":
                strikes += 1
                if strikes > int(view["air_strikes"].get(side, 0)):
                    problems.append(Problem(f"{side} has {view['air_strikes'].get(side, 0)} air strike(s) left",
                                            order=index, path=(kind,), section="3.7",
                                            legal="one order per air strike left"))
                    continue
            elif key in used:
                section = "3.1" if kind == "fire" else "3.7" if kind == "flame" else "F1"
                problems.append(Problem(f"{key[1]} already has an order this phase: a unit fires as a whole, at one "
                                        "target" if kind == "fire" else f"{key[1]} already has an order this phase",
                                        order=index, path=(kind,), section=section, legal="one order per unit each phase"))
                continue
            used.add(key)
            if kind == "flame" and str(order.get("unit")) in fired:
                problems.append(Problem(f"{order.get('unit')} fires earlier in these orders, {order.get('base')} with it: "
                                        "a base fires its small arms or its flamethrower, not both", order=index,
                                        path=("flame",), section="3.7",
                                        legal="the flame order before the fire order (the base then drops out of "
                                              "its unit's fire)"))
                continue
            if kind == "fire":
                fired.add(str(order.get("unit")))
            problems += self._check(context, view, side, phase, kind, order, index)
        return problems

    def _check(self, context: Context, view: State, side: str, phase: str, kind: str, order: Mapping[str, Any],
               index: int) -> list[Problem]:
        phasing = context.phasing(view["turn"])
        if phase.endswith("-move"):
            if side != phasing:
                return [Problem(f"{phasing} moves this turn", order=index, path=(kind,), section="F1",
                                legal="no orders: your passing fire is your standing answer pass_fire (3.7)")]
            return movement.check_move(context, view, side, order, index)
        if kind == "fire":
            return fire.check_fire(context, view, side, order, index, phasing)
        if kind == "flame":
            return fire.check_flame(context, view, side, order, index)
        if kind == "unjam":
            return fire.check_unjam(context, view, side, order, index)
        return fire.check_air(context, view, side, order, index, phasing)

    def resolve(self, context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        state = normalize(context, state)
        events: list[dict[str, Any]] = []
        if state["phase"].endswith("-move"):
            sequence.resolve_move(context, state, state["phase"].removesuffix("-move"), submissions, dice, events)
        else:
            sequence.resolve_fire_phase(context, state, submissions, dice, events)
        fog.annotate(context, state, events)
        return Resolution(state, events)

    def view(self, context: Context, state: State, side: str) -> State:
        return fog.view(context, normalize(context, state), side)

    def visible(self, context: Context, event: dict[str, Any], side: str) -> dict[str, Any] | None:
        return fog.visible(event, side)

    def bot_orders(self, context: Context, view: State, side: str, seed: bytes) -> list[Any]:
        return bots.orders(context, normalize(context, view), side, seed)

    def bot_answer(self, request: Mapping[str, Any], seed: bytes) -> Any:
        return request["options"][0]

    def picture(self, context: Context) -> Any:
        from .picture import Wtj1916Adapter

        return Wtj1916Adapter(context)
