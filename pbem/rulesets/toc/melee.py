"""Melee (12.1-12.14), with the defensive fire of 11.x that precedes each one (12.10).

`check` judges one `{melee: hex, with: [units], losses: [...], advance: [...], then: ...}` order
on a `Board`; `resolve` carries it out on the master state: defensive fire, odds, the die, losses
(the defender's first, 12.12), and the advance after combat (12.13).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State, standing_answer
from pbem.rulesets.kit.stacks import place, stack

from . import defensive_fire, losses
from .board import Board
from .bombardment import enemy_hexes_for, organisation_legal, organisation_problem
from .context import Context, other
from .results import automatic, clamp, melee_result
from .zoc import around, refresh_control


def then_map(order: dict[str, Any]) -> dict[str, str]:
    """12.13: the second-hex advance as {unit: hex}; a single hex applies to every advancing unit."""
    then = order.get("then")
    if then is None:
        return {}
    if isinstance(then, str):
        return {uid: then for uid in order.get("advance") or []}
    return {str(k): str(v) for k, v in then.items()}


def may_attack(board: Board, target: str, used: set[str]) -> list[str]:
    """12.1, 12.3, 8.4, 9.13: the side's units on the map that could attack `target` in melee now."""
    return sorted(uid for uid in board.own
                  if board.on_map(uid) and _attacker_refused(board, uid, str(board.hex_of(uid)), target, used) is None)


def _attackers_legal(board: Board, target: str, used: set[str]) -> str:
    """What is legal where an attacker is refused: the side's units that may attack `target` now, or why none."""
    return ", ".join(may_attack(board, target, used)) or f"none: no unit of yours may attack {target} now"


def _targets_legal(board: Board, used: set[str], targets: set[str]) -> str:
    """12.1, 12.3: the enemy hexes units of the side may attack now, with them."""
    return enemy_hexes_for(board, targets, lambda hex_id: may_attack(board, hex_id, used),
                           "none: no enemy hex you see may be attacked by a unit of yours now")


def _attacker_refused(board: Board, uid: str, here: str, target: str, used: set[str]) -> tuple[str, str] | None:
    """Why a unit of the side's own at `here` may not attack `target` in melee: (message, section), or None."""
    ctx = board.ctx
    if not ctx.counters[uid].melee_capable:
        return f"{uid} is artillery: artillery never attacks in melee", "12.1"
    if uid in used:
        return f"{uid} already attacks in another melee this phase (one hex per melee)", "12.3"
    if uid in board.marched:
        return f"{uid} used march mode this player turn and may not attack", "8.4"
    if not ctx.hexes.adjacent(here, target):
        return f"{uid} at {here} is not next to {target}", "12.1"
    if ctx.canal_blocks(here, target):
        return f"{uid} at {here} cannot attack across the unbridged canal into {target}", "9.13"
    return None


def check(board: Board, order: dict[str, Any], index: int, used: set[str], targets: set[str]) -> list[Problem]:
    ctx = board.ctx
    found: list[Problem] = []

    def problem(message: str, section: str, where: tuple[str | int, ...] = (), legal: str | None = None) -> None:
        found.append(Problem(message, order=index, path=where, section=section, legal=legal))

    target = order["melee"]
    if not ctx.hexes.on_map(target) or not board.enemy_at(target):
        problem(f"{target} holds no enemy unit to melee", "12.1", ("melee",), _targets_legal(board, used, targets))
        return found
    if target in targets:
        problem(f"{target} is already meleed this phase", "12.1", ("melee",), _targets_legal(board, used, targets))
    attackers = list(order["with"])
    for k, uid in enumerate(attackers):
        where = ("with", k)
        if not board.on_map(uid):
            problem(f"{uid} is not a {board.side} unit on the map", "12.1", where, _attackers_legal(board, target, used))
            continue
        refused = _attacker_refused(board, uid, str(board.hex_of(uid)), target, used)
        if refused is not None:
            problem(*refused, where, _attackers_legal(board, target, used))
    if found:
        return found
    if board.side == "german":
        wrong = organisation_problem(ctx, board.turn, attackers, "units")
        if wrong:
            problem(wrong, "12.14", ("with",), legal=organisation_legal(ctx, board.turn, attackers))
            return found
    for key, section in (("losses", "12.12"), ("advance", "12.13")):
        for k, uid in enumerate(order.get(key) or []):
            if uid not in attackers:
                problem(f"{uid} is not one of this melee's attackers", section, (key, k),
                        f"this melee's attackers: {', '.join(attackers)}")
    advance = list(order.get("advance") or [])
    points = sum(ctx.counters[uid].stacking for uid in advance if uid in ctx.counters)
    if points > int(ctx.tables["stacking_points"]):
        problem(f"the advancing units hold {points} stacking points; the limit is {ctx.tables['stacking_points']}",
                "12.13", ("advance",), f"advancing units of {ctx.tables['stacking_points']} stacking points at most")
    if order.get("then") is not None and not advance:
        problem("a second-hex advance needs the units that advance listed in `advance`", "12.13", ("then",),
                f"`advance` listing the attackers that enter {target}, or no `then`")
    for uid, hex_id in sorted(then_map(order).items()):
        at: tuple[str | int, ...] = ("then",) if isinstance(order.get("then"), str) else ("then", uid)
        if uid not in advance:
            problem(f"{uid} is not listed in `advance`", "12.13", at,
                    f"{uid} added to `advance`, or left out of `then`")
        elif not ctx.hexes.on_map(hex_id) or not ctx.hexes.adjacent(target, hex_id):
            problem(f"{hex_id} is not next to {target}", "12.13", at, _second_hexes(ctx, uid, target))
        elif ctx.enter_cost(ctx.counters[uid].kind, target, hex_id) is None:
            problem(f"{uid} cannot advance from {target} into {hex_id} (terrain still counts)", "12.13", at,
                    _second_hexes(ctx, uid, target))
    return found


def _second_hexes(ctx: Context, uid: str, target: str) -> str:
    """12.13: the hexes next to `target` that `uid`'s terrain lets it enter from there (map facts only)."""
    hexes = [hex_id for hex_id in sorted(ctx.hexes.neighbours_of.get(target, ()))
             if ctx.enter_cost(ctx.counters[uid].kind, target, hex_id) is not None]
    return f"a hex next to {target} that {uid} may enter: {', '.join(hexes) or 'none'}"


def _groups(state: State, attackers: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for uid in attackers:
        unit = state["units"][uid]
        if unit["status"] == "active":
            out.setdefault(unit["hex"], []).append(uid)
    return {h: sorted(out[h]) for h in sorted(out)}


def _modifiers(ctx: Context, target: str, groups: dict[str, list[str]]) -> dict[str, int]:
    """12.6: the defender's terrain, and -1 when every attacker comes across a canal or river."""
    out: dict[str, int] = {}
    if ctx.built_up(target):
        out["built-up"] = int(ctx.tables["modifiers"]["melee_defender_built_up"])
    elif ctx.terrain_is(target, "melee_forest"):
        out["forest"] = int(ctx.tables["modifiers"]["melee_defender_forest"])
    if groups and all(ctx.water(source, target) for source in groups):
        out["water"] = int(ctx.tables["modifiers"]["melee_all_across_water"])
    return out


def resolve(ctx: Context, state: State, side: str, order: dict[str, Any], dice: Dice, decisions: Decisions,
            events: list[dict[str, Any]]) -> None:
    enemy = other(side)
    target = order["melee"]
    defenders = stack(state, target, ctx.side_of, enemy)
    attackers = [uid for uid in order["with"] if state["units"][uid]["status"] == "active"]
    if not defenders:
        events.append({"type": "melee-void", "side": side, "section": "12.1", "target": target,
                       "with": list(order["with"]), "why": "the hex is empty"})
        return
    groups = _groups(state, attackers)
    event: dict[str, Any] = {
        "type": "melee", "side": side, "section": "12.7", "target": target,
        "attackers": {h: [{"unit": uid, "steps": state["units"][uid]["steps"]} for uid in us]
                      for h, us in groups.items()},
        "defenders": [{"unit": uid, "steps": state["units"][uid]["steps"]} for uid in defenders],
    }
    # 12.10 / 11.x: defensive fire against the just-declared melee
    plan = defensive_fire.allocate(ctx, state, enemy, target, groups, defenders, decisions)
    event["defensive_fire"] = defensive_fire.resolve(ctx, state, enemy, target, groups, plan, dice, decisions)
    attackers = [uid for uid in attackers if state["units"][uid]["status"] == "active"]
    groups = _groups(state, attackers)
    if not attackers:
        event["outcome"] = "attackers-eliminated"
        events.append(event)
        return
    attack = sum(ctx.counters[uid].melee(state["units"][uid]["steps"]) for uid in attackers)
    defence = sum(ctx.counters[uid].melee(state["units"][uid]["steps"], int(ctx.tables["artillery_defence"]))
                  for uid in defenders)
    event.update(attack=attack, defence=defence)
    if automatic(attack, defence, int(ctx.tables["max_odds"])):
        lose_a, lose_d, how = melee_result(ctx.tables, attack, defence, None)
    else:
        mods = _modifiers(ctx, target, groups)
        roll = dice.die(6, f"12.11 melee at {target}")
        modified = clamp(roll + sum(mods.values()))
        lose_a, lose_d, how = melee_result(ctx.tables, attack, defence, modified)
        event.update(roll=roll, modifiers=mods, modified=modified)
    event.update(odds=how, result=f"{lose_a}/{lose_d}")
    # 12.12: the defender absorbs its losses first, each side spreads its own as it likes
    defender_results: list[dict[str, Any]] = []
    steps = {uid: state["units"][uid]["steps"] for uid in defenders}
    allocation = losses.choose(ctx, state, decisions, side=enemy, topic="own_losses", section="12.12", steps=steps,
                               count=lose_d, constrained=False, default="weakest-first",
                               question={"melee": target, "as": "defender"})
    losses.take_steps(ctx, state, allocation, defender_results)
    attacker_results: list[dict[str, Any]] = []
    steps = {uid: state["units"][uid]["steps"] for uid in attackers}
    allocation = losses.choose(ctx, state, decisions, side=side, topic="own_losses", section="12.12", steps=steps,
                               count=lose_a, constrained=False, default="weakest-first",
                               question={"melee": target, "as": "attacker"},
                               priority=list(order.get("losses") or []))
    losses.take_steps(ctx, state, allocation, attacker_results)
    event.update(defender_results=defender_results, attacker_results=attacker_results)
    survivors = [uid for uid in attackers if state["units"][uid]["status"] == "active"]
    if stack(state, target, ctx.side_of, enemy) or not survivors:
        event["outcome"] = "held" if stack(state, target, ctx.side_of, enemy) else "both-eliminated"
        events.append(event)
        return
    event["outcome"] = "taken"
    advance(ctx, state, side, order, target, survivors, decisions, event)
    events.append(event)


def _fits(ctx: Context, units: list[str]) -> bool:
    return sum(ctx.counters[uid].stacking for uid in units) <= int(ctx.tables["stacking_points"])


def _advancers(ctx: Context, state: State, side: str, order: dict[str, Any], target: str, survivors: list[str],
               decisions: Decisions) -> list[str]:
    """12.13: who advances into the emptied hex (at least one); the order's list, else the standing answer."""
    listed = [uid for uid in order.get("advance") or [] if uid in survivors]
    if listed and _fits(ctx, listed):
        return listed
    strongest = sorted(survivors, key=lambda u: (-ctx.counters[u].melee(state["units"][u]["steps"]),
                                                 -state["units"][u]["steps"], u))
    rule = standing_answer(state, side, "advance", "strongest")
    default = [strongest[0]]
    if rule == "all":
        chosen: list[str] = []
        for uid in strongest:
            if _fits(ctx, chosen + [uid]):
                chosen.append(uid)
        return chosen
    if rule == "ask" and len(survivors) > 1:
        options = [sorted(c) for n in range(1, len(survivors) + 1) for c in itertools.combinations(sorted(survivors), n)
                   if _fits(ctx, list(c))]
        ordered = [default] + sorted((o for o in options if o != default), key=json.dumps)
        answer = decisions.ask(side, "advance", "12.13",
                               {"melee": target, "survivors": [{"unit": u, "steps": state["units"][u]["steps"]}
                                                                for u in sorted(survivors)]}, ordered)
        return [str(u) for u in answer]
    return default


def advance(ctx: Context, state: State, side: str, order: dict[str, Any], target: str, survivors: list[str],
            decisions: Decisions, event: dict[str, Any]) -> None:
    movers = _advancers(ctx, state, side, order, target, survivors, decisions)
    origins = {uid: state["units"][uid]["hex"] for uid in movers}
    for uid in sorted(movers, key=lambda u: (state["units"][u]["z"], u)):
        place(state, uid, target)
        refresh_control(ctx, state, around(ctx, origins[uid], target))
    event["advanced"] = list(movers)
    wanted = {uid: h for uid, h in then_map(order).items() if uid in movers}
    if not wanted:
        return
    # 12.13: the second hex must be empty before this secondary advance begins
    occupied_before = {h for h in set(wanted.values()) if stack(state, h, ctx.side_of)}
    moved: dict[str, str] = {}
    refused: dict[str, str] = {}
    for uid in sorted(wanted):
        hex_id = wanted[uid]
        arriving = [u for u, h in moved.items() if h == hex_id] + [uid]
        if hex_id in occupied_before:
            refused[uid] = "occupied"
        elif ctx.enter_cost(ctx.counters[uid].kind, target, hex_id) is None:
            refused[uid] = "terrain"
        elif not _fits(ctx, arriving):
            refused[uid] = "stacking"
        else:
            moved[uid] = hex_id
    for uid in sorted(moved, key=lambda u: (state["units"][u]["z"], u)):
        place(state, uid, moved[uid])
        refresh_control(ctx, state, around(ctx, target, moved[uid]))
    event["second_hex"] = dict(sorted(moved.items()))
    if refused:
        event["second_hex_refused"] = dict(sorted(refused.items()))
