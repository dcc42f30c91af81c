"""The Operations Phase (4.0): one impulse per mail, and the pre-turn CP actions (3.0).

An impulse Uses between the least and the most of the side's Operations Range (4.0), or all of
its units that may still be Used when fewer are left than the least; each action Uses one unit:
`move` (5.0), `fire` (6.0), `opfire` (mark Op Fire) or `used` (mark Used). The actions are
carried out in the order written; the other side's reactions come from its standing orders
(`reactions.py`). In the pre-turn (3.0) the side moving second performs one action with a unit
per command point it spends, each unit at most one. Once the other side has nothing left to Use,
one impulse may Use every unit left (4.0 lets the side go on alone; one mail instead of several).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State

from . import artillery, conceal, movement, satw, victory
from .board import Board
from .checks import check
from .context import Context, other
from .fire import attack, heavy_fire, reach, targets_in
from .state import in_hex

ACTION_KEYS = ("move", "fire", "opfire", "used")


def actor(order: dict[str, Any]) -> str:
    """The unit an action Uses (an artillery call names its support)."""
    if "artillery" in order:
        return str(order["artillery"])
    return str(next(order[key] for key in ACTION_KEYS if key in order))


def weight(ctx: Context, order: dict[str, Any]) -> int:
    """V1, 17.0: how many units an action counts against the Operations Range."""
    if "artillery" in order:
        return int(ctx.tables["ops_weight"])
    return ctx.weight(actor(order)) if actor(order) in ctx.units else 1


def validate(ctx: Context, board: Board, phase: str, orders: list[dict[str, Any]],
             view: dict[str, Any] | None = None) -> list[Problem]:
    problems: list[Problem] = []
    available = [uid for uid in board.own if board.available(ctx, uid)]
    low, high = ctx.card.ops_range[board.side]
    seen: set[str] = set()
    called: set[str] = set()
    for index, order in enumerate(orders):
        if "artillery" in order:
            problems += artillery.problems(ctx, view or {}, board.side, order, index, called)
            continue
        uid = actor(order)
        if phase == "preturn" and uid in ctx.units and ctx.units[uid].type.heavy:
            problems.append(Problem(f"{uid} is a {ctx.units[uid].kind}: CPs are spent on squads and weapon teams only",
                                    order=index, section="3.0",
                                    legal=", ".join(u for u in available if not ctx.units[u].type.heavy) or "none"))
            continue
        if phase == "preturn" and uid in board.own and board.own[uid]["cp"]:
            problems.append(Problem(f"{uid} already had a CP this turn", order=index, section="3.0"))
        problems += action_problems(ctx, board, order, index, available, seen)
    count = sum(weight(ctx, o) for o in orders)
    if phase == "preturn":
        count = len(orders)  # 3.0: one action per CP, whatever the unit
        if count > board.cps:
            problems.append(Problem(f"{count} pre-turn actions need {count} CPs; you have {board.cps}", section="3.0",
                                    legal=f"at most {board.cps} actions"))
        return problems
    left = sum(ctx.weight(uid) for uid in available)
    least = min(low, left)
    if board.enemy_can_use == 0:
        high = left  # 4.0: once one side has Used all its units, the other Uses the rest
    alone = len(orders) == 1 and count > high  # V1: a gun or vehicle over the most may still act alone
    if not problems and not (least <= count <= high or alone):
        heavy = any(actor(o) in ctx.units and ctx.units[actor(o)].type.heavy for o in orders)
        section = "V1" if heavy else "17.0" if count != len(orders) else "4.0"
        problems.append(Problem(f"this impulse Uses {count} units (a gun, a vehicle or an Artillery Support counts "
                                f"three); your Operations Range is {low}-{high} and {left} may still be Used",
                                section=section, legal=f"{least} to {min(high, left)} units"))
    return problems


def action_problems(ctx: Context, board: Board, order: dict[str, Any], index: int, available: list[str],
                    seen: set[str]) -> list[Problem]:
    """One action's problems on the board (4.0, then its own rule); a legal action is carried out on it."""
    uid = actor(order)
    key = next(k for k in ACTION_KEYS if k in order)
    if uid not in board.own:
        return [Problem(f"{uid} is not one of your units", order=index, path=(key,), section="4.0",
                        legal=", ".join(available) or "none")]
    if uid in seen:
        return [Problem(f"{uid} is Used once per turn", order=index, path=(key,), section="4.0")]
    if uid not in available:
        return [Problem(f"{uid} cannot be Used now (already Used, marked Op Fire, eliminated or not yet arrived)",
                        order=index, path=(key,), section="4.0",
                        legal=", ".join(u for u in available if u not in seen) or "none")]
    seen.add(uid)
    unit = board.own[uid]
    if key == "move":
        if ctx.units[uid].type.gun:
            return [Problem(f"{uid} is a gun: it never moves to a new hex", order=index, path=("move",), section="V2",
                            legal=f"fire (turning with `facing`), opfire or used")]
        return movement.route_problems(ctx, board, uid, order, index)
    if unit["status"] != "active" and key != "used":
        return [Problem(f"{uid} is not on the map yet: it moves onto it or is marked Used", order=index,
                        path=(key,), section="18.0")]
    if key == "fire":
        found = movement.fire_problems(ctx, board, uid, unit["hex"], order["at"], index, ("at",),
                                       unit["hex"] in board.enemy_hexes(), order)
        if not found:
            unit["used"] = True
        return found
    unit["used" if key == "used" else "opfire"] = True
    return []


def resolve(ctx: Context, state: State, dice: Dice, decisions: Decisions, side: str, phase: str,
            orders: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
    for order in orders:
        uid = actor(order)
        if "artillery" in order:
            artillery.order(ctx, state, dice, side, order, events)
            victory.update_held(ctx, state)
            continue
        if state["units"][uid]["status"] in ("eliminated", "removed"):
            events.append({"type": "order-void", "side": side, "section": "4.0", "unit": uid,
                           "why": "the unit left the map earlier in this impulse"})
            continue
        if phase == "preturn":
            state["cps"][side] -= 1
            state["units"][uid]["cp"] = True
            events.append({"type": "cp", "side": side, "section": "3.0", "unit": uid,
                           "as": state["units"][uid]["marker"] or uid, "why": "pre-turn action"})
        if "moved" in state["units"][uid]:
            state["units"][uid]["moved"] = False  # V3: the Move marker comes off when the vehicle is chosen
        if "move" in order:
            movement.resolve(ctx, state, dice, decisions, uid, order, events)
        elif "fire" in order:
            _fire(ctx, state, dice, uid, order, events)
        else:
            unit = state["units"][uid]
            mark = "used" if "used" in order else "opfire"
            unit[mark] = True
            if mark == "opfire":
                unit["marked"] = True  # 9.0: "previously marked" keeps its -1 after it fires
            events.append({"type": "mark", "side": side, "section": "4.0", "unit": uid,
                           "as": unit["marker"] or uid, "mark": mark})
        victory.update_held(ctx, state)


def _fire(ctx: Context, state: State, dice: Dice, uid: str, order: dict[str, Any],
          events: list[dict[str, Any]]) -> None:
    """6.0: a Morale Check, then one attack at every enemy unit in the hex."""
    if ctx.units[uid].type.heavy:
        heavy_fire(ctx, state, dice, uid, order, events)
        return
    if order.get("satw"):
        satw.fire(ctx, state, dice, uid, order, events)
        return
    unit = state["units"][uid]
    side = ctx.units[uid].side
    target = order["at"]
    how = reach(ctx, uid, unit["reduced"], unit["hex"], target) if unit["status"] == "active" else None
    if how is None or not in_hex(ctx, state, target, other(side)) or in_hex(ctx, state, unit["hex"], other(side)):
        events.append({"type": "order-void", "side": side, "section": "6.0", "unit": uid,
                       "why": "the target hex holds no enemy unit any more"})
        return
    unit["used"] = True
    if not check(ctx, state, dice, uid, kind="morale", section="6.0", events=events, reroll=bool(order.get("reroll")),
                 purpose="fire"):
        return
    if unit["concealed"]:
        conceal.take_off(ctx, state, uid, "it fired", events)
    attack(ctx, state, dice, uid, unit["hex"], target, how, fire="fire", targets=targets_in(ctx, state, target, side),
           section="16.0" if how.directed else "6.0", events=events)
    conceal.sweep(ctx, state, events)
