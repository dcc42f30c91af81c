"""Defensive fire (11.1-11.5): the defender of a declared melee fires at the attacking hexes first.

The defender decides where its units fire (11.2) and which attacking units take the losses (11.5):
both are decisions answered by its standing answers `defensive_fire` and `fire_losses`, and sent
as decision requests only when it chose `ask`.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, State, standing_answer

from . import losses
from .context import Context
from .results import clamp, defensive_fire_result

HOLD = "hold"
MAX_OPTIONS = 200


def fire_value(ctx: Context, state: State, uid: str) -> int:
    """11.1: melee factor for infantry and cavalry, one for artillery."""
    return ctx.counters[uid].defensive_fire(state["units"][uid]["steps"], int(ctx.tables["artillery_defence"]))


def attack_value(ctx: Context, state: State, uids: list[str]) -> int:
    return sum(ctx.counters[uid].melee(state["units"][uid]["steps"]) for uid in uids)


def allocate(ctx: Context, state: State, side: str, target: str, groups: Mapping[str, list[str]],
             defenders: list[str], decisions: Decisions) -> dict[str, list[str]]:
    """11.2: which defending units fire at which attacking hex ({hex: [units]}, hexes not fired at left out)."""
    rule = standing_answer(state, side, "defensive_fire", "largest-attack")
    if rule == "none" or not defenders or not groups:
        return {}
    hexes = sorted(groups)
    largest = max(hexes, key=lambda h: (attack_value(ctx, state, groups[h]), len(groups[h]), [-ord(c) for c in h]))
    default = {largest: sorted(defenders)}
    if rule != "ask" or len(hexes) == 1:
        return default
    question = {
        "melee": target,
        "attackers": {h: [{"unit": uid, "steps": state["units"][uid]["steps"]} for uid in groups[h]] for h in hexes},
        "defenders": [{"unit": uid, "steps": state["units"][uid]["steps"], "fire": fire_value(ctx, state, uid)}
                      for uid in sorted(defenders)],
    }
    targets = hexes + [HOLD]
    if len(targets) ** len(defenders) <= MAX_OPTIONS:
        options = []
        for choice in itertools.product(targets, repeat=len(defenders)):
            plan: dict[str, list[str]] = {}
            for uid, where in zip(sorted(defenders), choice):
                if where != HOLD:
                    plan.setdefault(where, []).append(uid)
            options.append(plan)
        ordered = [default] + sorted((o for o in options if o != default), key=lambda o: json.dumps(o, sort_keys=True))
        answer = decisions.ask(side, "defensive_fire", "11.2", question, ordered)
        return {str(h): sorted(str(u) for u in us) for h, us in dict(answer).items() if us}
    plan = {}
    for uid in sorted(defenders):
        answer = decisions.ask(side, "defensive_fire", "11.2", {**question, "unit": uid},
                               [largest] + [h for h in hexes if h != largest] + [HOLD])
        if answer != HOLD:
            plan.setdefault(str(answer), []).append(uid)
    return plan


def modifiers(ctx: Context, source: str, target: str) -> dict[str, int]:
    """11.3: -1 for attackers in a built-up hex, +1 for attackers across a canal or river hexside."""
    out: dict[str, int] = {}
    if ctx.built_up(source):
        out["built-up"] = int(ctx.tables["modifiers"]["defensive_fire_from_built_up"])
    if ctx.water(source, target):
        out["water"] = int(ctx.tables["modifiers"]["defensive_fire_across_water"])
    return out


def resolve(ctx: Context, state: State, side: str, target: str, groups: Mapping[str, list[str]],
            plan: Mapping[str, list[str]], dice: Dice, decisions: Decisions) -> list[dict[str, Any]]:
    """11.4-11.5: one roll per attacking hex fired at; the defender apportions the losses."""
    out: list[dict[str, Any]] = []
    for source in sorted(plan):
        firers = plan[source]
        factors = sum(fire_value(ctx, state, uid) for uid in firers)
        mods = modifiers(ctx, source, target)
        roll = dice.die(6, f"11.4 defensive fire from {target} at {source}")
        modified = clamp(roll + sum(mods.values()))
        result = defensive_fire_result(ctx.tables, factors, modified)
        record: dict[str, Any] = {"at": source, "firers": list(firers), "factors": factors, "roll": roll,
                                  "modifiers": mods, "modified": modified, "losses": result, "results": []}
        if result > 0:
            participants = [uid for uid in groups[source] if state["units"][uid]["status"] == "active"]
            steps = {uid: state["units"][uid]["steps"] for uid in participants}
            allocation = losses.choose(
                ctx, state, decisions, side=side, topic="fire_losses", section="11.5", steps=steps, count=result,
                constrained=True, default="strongest-first",
                question={"defensive_fire": target, "at": source})
            losses.take_steps(ctx, state, allocation, record["results"])
        out.append(record)
    return out
