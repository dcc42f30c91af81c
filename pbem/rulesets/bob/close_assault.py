"""Close assault (V8): a squad or weapon team moves into the hex of an enemy vehicle and tries to destroy it.

The move must end in that hex (5.0), which may hold no enemy infantry or gun besides the vehicle
(V8; a hex whose marker hides such a unit stops the assault before it, found only then). In the
hex the unit draws Op Fire like any mover and, suppressed, checks morale (9.0); failing, or after
its attempt, it goes back to the hex it came from and is Used: it never ends a move in the
vehicle's hex. Surviving, it rolls a d10 (+1 against an armoured vehicle that is not open topped):
at most its melee firepower (12.0, 2.0) destroys the vehicle, at once, not in the Melee Phase.
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State

from . import conceal
from .board import Board
from .checks import public_name
from .context import Context, other
from .melee import melee_strength
from .reactions import Step, react
from .state import in_hex


def target_problems(ctx: Context, board: Board, uid: str, hex_id: str, index: int, step: int,
                    retreat: bool) -> list[Problem] | None:
    """V8 on the board: None when `hex_id` holds no face-up enemy vehicle, else what is wrong ([] if nothing)."""
    pieces = [p for p in board.enemy if p["hex"] == hex_id]
    vehicles = [p for p in pieces if "type" in p and ctx.types[p["type"]].vehicle]
    if not vehicles:
        return None
    where = ("path", step)
    if len(vehicles) < len(pieces):
        return [Problem(f"{hex_id} holds an enemy vehicle and other enemy units: no unit may enter it", order=index,
                        path=where, section="V8")]
    if ctx.units[uid].kind not in ("squad", "wt"):
        return [Problem(f"only a squad or weapon team close assaults a vehicle, not {uid}", order=index, path=where,
                        section="V8")]
    if retreat:
        return [Problem("a declared retreat never enters an enemy's hex", order=index, path=where, section="V8")]
    return []


def resolve(ctx: Context, state: State, dice: Dice, decisions: Decisions, uid: str, hex_id: str,
            previous: str | None, move: dict[str, Any], events: list[dict[str, Any]], *, reroll: bool,
            misses: dict[str, int] | None = None) -> None:
    """Carry out the assault on the master state; the unit ends back in `previous`, Used."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    enemy = in_hex(ctx, state, hex_id, other(side))
    vehicles = [u for u in enemy if ctx.units[u].type.vehicle]
    if len(vehicles) < len(enemy) or previous is None:
        move["ended"] = "an enemy vehicle and other units hold the next hex"
        return
    unit["hex"] = hex_id
    move["path"].append(hex_id)
    outcome = react(ctx, state, dice, decisions, Step(uid, hex_id, previous), events, retreating=False, reroll=reroll,
                    misses=misses)
    if outcome == "gone":
        move["ended"] = "eliminated" if unit["status"] == "eliminated" else "removed"
        return
    if outcome == "stopped":
        unit["hex"] = previous
        move["back_to"] = previous
        move["ended"] = "failed its check under fire"
        return
    vehicle = vehicles[0]
    kind = ctx.units[vehicle].type
    modifier = int(ctx.tables["close_assault_armoured"]) if kind.armour and not kind.open_topped else 0
    strength = melee_strength(ctx, uid, unit["reduced"])
    roll = dice.die(10, f"V8 close assault by {public_name(state, uid)} on {vehicle}")
    destroyed = roll + modifier <= strength
    if unit["concealed"]:
        conceal.take_off(ctx, state, uid, "it close assaulted", events)
    if destroyed:
        state["units"][vehicle].update(status="eliminated", hex=None)
    events.append({"type": "close-assault", "side": side, "section": "V8", "unit": uid, "as": public_name(state, uid),
                   "vehicle": vehicle, "hex": hex_id, "roll": roll, "modifier": modifier, "strength": strength,
                   "result": "destroyed" if destroyed else "none"})
    unit["hex"] = previous
    move["back_to"] = previous
    move["ended"] = "close assaulted a vehicle"
    conceal.adjacent_enemy(ctx, state, uid, events)
    conceal.sweep(ctx, state, events)
