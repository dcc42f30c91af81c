"""`duel`: a test-only ruleset that exercises every core mechanism, not a shipped game.

Two sides each hide a headquarters (strength 2) in one of a row of cells.
  D1  Deploy: each side secretly places its HQ in a cell (missing orders: cell 1).
  S1  Scout (automatic): each side rolls a d6 only it sees; on a 6 it learns where the enemy HQ is.
  F1  Fire: each side may fire at one cell; a public d6 of 4+ hits an HQ standing there.
  F2  A side may not fire at the cell of its own HQ.
  F3  A hit HQ's owner chooses: stand (lose 1 strength) or shift to an adjacent cell unharmed.
      The standing answer `when_hit` (ask, stand, shift-left, shift-right) may answer for it.
  V1  An HQ at strength 0 loses the game; after the last turn the game is drawn.
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, Resolution, Ruleset, State, Submission, standing_answer

SIDES = ["red", "blue"]


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


def pick(seed: bytes, label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:8], "big") % n


class Duel(Ruleset[Any]):
    id = "duel"
    version = "1"
    title = "Duel (core test fixture)"

    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        return list(SIDES)

    def scenario_schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, "required": ["cells", "turns"],
                "properties": {"cells": {"type": "integer", "minimum": 3, "maximum": 20},
                               "turns": {"type": "integer", "minimum": 1, "maximum": 50}}}

    def initial_state(self, context: Any, scenario: Mapping[str, Any]) -> State:
        setup = scenario["setup"]
        return {
            "phase": "deploy",
            "turn": 1,
            "last_turn": setup["turns"],
            "cells": setup["cells"],
            "hq": {side: {"cell": None, "strength": 2} for side in SIDES},
            "intel": {side: None for side in SIDES},
        }

    def phase_names(self) -> list[str]:
        return ["deploy", "scout", "fire"]

    def phase(self, context: Any, state: State) -> str:
        return str(state["phase"])

    def awaiting(self, context: Any, state: State) -> list[str]:
        return [] if state["phase"] == "scout" else list(SIDES)

    def result(self, context: Any, state: State) -> dict[str, Any] | None:
        for side in SIDES:
            if state["hq"][side]["strength"] <= 0:
                return {"winner": other(side), "section": "V1", "reason": f"{side} HQ destroyed"}
        if state["turn"] > state["last_turn"]:
            return {"winner": None, "section": "V1", "reason": "last turn played"}
        return None

    def order_schema(self, phase: str) -> dict[str, Any]:
        if phase == "deploy":
            item = {"type": "object", "additionalProperties": False, "required": ["place", "cell"],
                    "properties": {"place": {"const": "hq"}, "cell": {"type": "integer", "minimum": 1}}}
        elif phase == "fire":
            item = {"type": "object", "additionalProperties": False, "required": ["fire"],
                    "properties": {"fire": {"type": "integer", "minimum": 1}}}
        else:
            return {"type": "array", "maxItems": 0}
        return {"type": "array", "items": item}

    def standing_schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False,
                "properties": {"when_hit": {"enum": ["ask", "stand", "shift-left", "shift-right"]}}}

    def order_kinds(self, phase: str) -> list[str]:
        return {"deploy": ["{place: hq, cell: N}   exactly one (D1)"],
                "fire": ["{fire: N}   at most one (F1); not your own HQ's cell (F2)"]}.get(phase, [])

    def validate(self, context: Any, view: State, side: str, orders: list[Any]) -> list[Problem]:
        problems = []
        cells = view["cells"]
        legal_cells = f"cells 1 to {cells}"
        if view["phase"] == "deploy" and len(orders) != 1:
            problems.append(Problem(f"deploy takes exactly one order, got {len(orders)}", section="D1",
                                    legal="one {place: hq, cell: N}"))
        if view["phase"] == "fire" and len(orders) > 1:
            problems.append(Problem("only one fire order per turn", order=1, section="F1"))
        for index, order in enumerate(orders):
            cell = order.get("cell", order.get("fire"))
            if not 1 <= cell <= cells:
                key = "cell" if "cell" in order else "fire"
                problems.append(Problem(f"cell {cell} is off the board", order=index, path=(key,),
                                        section="D1" if key == "cell" else "F1", legal=legal_cells))
            elif "fire" in order and cell == view["own"]["cell"]:
                choices = (", ".join(str(c) for c in range(1, cells + 1) if c != cell) if cells <= 20
                           else f"any cell from 1 to {cells} but {cell}")  # a forged view may claim 2**64 cells
                problems.append(Problem(f"cell {cell} holds your own HQ", order=index, path=("fire",),
                                        section="F2", legal=choices))
        return problems

    def resolve(self, context: Any, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        events: list[dict[str, Any]] = []
        phase = state["phase"]
        if phase == "deploy":
            for side in SIDES:
                sub = submissions.get(side)
                cell = sub.orders[0]["cell"] if sub and sub.orders else 1
                state["hq"][side]["cell"] = cell
                events.append({"type": "deployed", "side": side, "cell": cell, "section": "D1"})
            state["phase"] = "scout"
        elif phase == "scout":
            for side in SIDES:
                roll = dice.die(6, f"S1 scouting by {side}", seen_by=[side])
                found = state["hq"][other(side)]["cell"] if roll == 6 else None
                if found is not None:
                    state["intel"][side] = {"cell": found, "turn": state["turn"]}
                events.append({"type": "scouted", "side": side, "roll": roll, "found": found, "section": "S1"})
            state["phase"] = "fire"
        else:
            for side in SIDES:
                sub = submissions.get(side)
                if sub and sub.orders:
                    self._fire(state, side, sub.orders[0]["fire"], dice, decisions, events)
            state["turn"] += 1
            state["phase"] = "scout"
        return Resolution(state, events)

    def _fire(self, state: State, side: str, cell: int, dice: Dice, decisions: Decisions,
              events: list[dict[str, Any]]) -> None:
        target = other(side)
        roll = dice.die(6, f"F1 {side} fires at cell {cell}")
        hq = state["hq"][target]
        hit = roll >= 4 and hq["cell"] == cell and hq["strength"] > 0
        events.append({"type": "fire", "side": side, "cell": cell, "roll": roll, "hit": hit, "section": "F1"})
        if not hit:
            return
        options = ["stand"] + [f"shift-{way}" for way, to in (("left", cell - 1), ("right", cell + 1))
                               if 1 <= to <= state["cells"]]
        answer = standing_answer(state, target, "when_hit", "ask")
        if answer not in options:
            answer = decisions.ask(target, "when_hit", "F3", {"hit_at": cell, "strength": hq["strength"]}, options)
        if answer == "stand":
            hq["strength"] -= 1
            events.append({"type": "loss", "side": target, "strength": hq["strength"], "section": "F3"})
        else:
            hq["cell"] = cell - 1 if answer == "shift-left" else cell + 1
            events.append({"type": "shifted", "side": target, "section": "F3", "to": hq["cell"]})

    def view(self, context: Any, state: State, side: str) -> State:
        enemy = state["hq"][other(side)]
        return {
            "phase": state["phase"],
            "turn": state["turn"],
            "last_turn": state["last_turn"],
            "cells": state["cells"],
            "own": dict(state["hq"][side]),
            "enemy": {"strength": enemy["strength"]},
            "intel": state["intel"][side],
        }

    def visible(self, context: Any, event: dict[str, Any], side: str) -> dict[str, Any] | None:
        if event["type"] in ("fire", "loss"):
            return dict(event)
        if event["type"] == "shifted":
            return dict(event) if event["side"] == side else {"type": "shifted", "side": event["side"],
                                                              "section": "F3"}
        return dict(event) if event["side"] == side else None

    def bot_orders(self, context: Any, view: State, side: str, seed: bytes) -> list[Any]:
        cells = view["cells"]
        if view["phase"] == "deploy":
            return [{"place": "hq", "cell": 1 + pick(seed, "deploy", cells)}]
        if view["phase"] == "fire":
            if view["intel"] and view["intel"]["cell"] != view["own"]["cell"]:
                return [{"fire": view["intel"]["cell"]}]
            choices = [c for c in range(1, cells + 1) if c != view["own"]["cell"]]
            return [{"fire": choices[pick(seed, "fire", len(choices))]}]
        return []

    def bot_answer(self, request: Mapping[str, Any], seed: bytes) -> Any:
        options = request["options"]
        return options[pick(seed, "answer", len(options))]
