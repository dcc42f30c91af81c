"""Morale and Prof Checks (7.0, 9.0) and the command point that re-rolls one (3.0).

A check passes when the d10, plus the unit's proficiency for a Prof Check and any modifier
(declared retreat -4, 5.1), is at most the unit's current morale (white, yellow or red by its
suppression). A check whose result no roll can change is not rolled (7.0: morale 10 passes
without a roll; a check no roll can pass fails without one): the dice are drawn only where they
decide something.

A failed check may be re-rolled once by spending a command point on the unit, if its side has
one left and the unit has had none this turn (3.0: one CP per unit per turn); never for a gun or a
vehicle (V1). The roll of a
unit under a conceal marker is seen only by its owner (15.0: the roll would tell a decoy, which
never rolls, from a unit).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.ruleset import State

from .context import Context
from .state import morale


def public_name(state: State, uid: str) -> str:
    """The name every side may use for a unit: its conceal marker while it has one."""
    unit = state["units"][uid]
    return str(unit["marker"]) if unit["concealed"] else uid


def check(ctx: Context, state: State, dice: Dice, uid: str, *, kind: str, section: str, events: list[dict[str, Any]],
          prof: int = 0, modifier: int = 0, reroll: bool = False, purpose: str = "") -> bool:
    """One Morale (`kind="morale"`) or Prof (`kind="prof"`) Check; spends a CP on a failure when `reroll`."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    target = morale(ctx, uid, unit)
    added = prof + modifier
    event: dict[str, Any] = {"type": "check", "side": side, "section": section, "unit": uid,
                             "marker": unit["marker"] if unit["concealed"] else None, "kind": kind,
                             "purpose": purpose, "morale": target, "added": added, "rolls": []}
    seen_by = [side] if unit["concealed"] else None
    if 10 + added <= target:
        passed = True
    elif 1 + added > target:
        passed = False
    else:
        roll = dice.die(10, f"{section} {kind} check of {public_name(state, uid)}", seen_by=seen_by)
        event["rolls"].append(roll)
        passed = roll + added <= target
        if not passed and reroll and state["cps"][side] > 0 and not unit["cp"] and not ctx.units[uid].type.heavy:
            state["cps"][side] -= 1
            unit["cp"] = True
            event["cp"] = True
            roll = dice.die(10, f"3.0 re-roll of the {kind} check of {public_name(state, uid)}", seen_by=seen_by)
            event["rolls"].append(roll)
            passed = roll + added <= target
    event["passed"] = passed
    events.append(event)
    return passed
