"""Stacking (6.1-6.5) and what happens to a stack found over the limit (6.2).

Orders that would overstack are refused when they are checked, so a violation can only come
from a state built that way (a case file, a scenario). When one is found, the opposing player
removes to the dead pile the fewest units that bring the stack back within the limits, his
choice among them: the standing answer `overstack` (default `strongest-first`) or, with `ask`,
a decision request listing every smallest set.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from pbem.core.ruleset import Decisions, State, standing_answer
from pbem.rulesets.kit.stacks import stacks

from . import losses
from .context import Context, other


def legal_stack(ctx: Context, units: list[str]) -> bool:
    """6.3: at most five stacking points; 6.5: German units of one corps only."""
    if sum(ctx.counters[uid].stacking for uid in units) > int(ctx.tables["stacking_points"]):
        return False
    corps = {ctx.counters[uid].corps for uid in units if ctx.counters[uid].side == "german"}
    return len(corps) <= 1


def violations(ctx: Context, state: State) -> list[tuple[str, str]]:
    """(hex, side) of every stack over the limit: the German side's first, each side's in hex order.

    `legal_stack` does not depend on the order of a stack, so the units are grouped without it.
    """
    found: dict[str, dict[str, list[str]]] = {"german": {}, "british": {}}
    side_of = ctx.side_of
    for uid, unit in state["units"].items():
        by_hex = found.get(side_of(uid))
        if by_hex is not None and unit["status"] == "active":
            by_hex.setdefault(unit["hex"], []).append(uid)
    return [(hex_id, side) for side in ("german", "british") for hex_id in sorted(found[side])
            if not legal_stack(ctx, found[side][hex_id])]


def removals(ctx: Context, units: list[str]) -> list[list[str]]:
    """Every smallest set of units whose removal leaves a legal stack."""
    for size in range(1, len(units) + 1):
        found = [sorted(c) for c in itertools.combinations(sorted(units), size)
                 if legal_stack(ctx, [u for u in units if u not in c])]
        if found:
            return found
    return [sorted(units)]


def enforce(ctx: Context, state: State, decisions: Decisions, events: list[dict[str, Any]]) -> None:
    for hex_id, side in violations(ctx, state):
        units = stacks(state, ctx.side_of, side).get(hex_id, [])
        chooser = other(side)
        options = removals(ctx, units)

        def worth(option: list[str]) -> tuple[int, int]:
            return (sum(ctx.counters[u].worth(state["units"][u]["steps"]) for u in option),
                    sum(state["units"][u]["steps"] for u in option))

        rule = standing_answer(state, chooser, "overstack", "strongest-first")
        ranked = sorted(options, key=lambda o: (worth(o), json.dumps(o)), reverse=(rule != "weakest-first"))
        picked = ranked[0]
        if rule == "ask" and len(options) > 1:
            ordered = [picked] + sorted((o for o in options if o != picked), key=json.dumps)
            question = {"hex": hex_id, "stack": [{"unit": u, "steps": state["units"][u]["steps"]} for u in units]}
            picked = [str(u) for u in decisions.ask(chooser, "overstack", "6.2", question, ordered)]
        results: list[dict[str, Any]] = []
        for uid in picked:
            record: dict[str, Any] = {"unit": uid, "before": state["units"][uid]["steps"], "after": 0}
            losses.eliminate(ctx, state, uid, record)
            results.append(record)
        events.append({"type": "overstack", "side": chooser, "section": "6.2", "hex": hex_id,
                       "stack": list(units), "removed": results})
