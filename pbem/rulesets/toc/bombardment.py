"""Bombardment (10.1-10.11): range, LoS, joint fire, German organisation, spotting, results, stacks.

`check` judges one `{bombard: hex, with: [artillery], losses: [units]}` order on a `Board`
(the side's view when validating); `resolve` carries it out on the master state. The target
stack is examined only when the result calls for losses to be apportioned (6.6), so a bombardment
without effect reveals nothing beneath the top unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.listing import capped
from pbem.core.ruleset import Decisions, State
from pbem.rulesets.kit.stacks import stack

from . import losses
from .board import Board
from .context import Context, other
from .results import bombardment_result, clamp


@dataclass(frozen=True)
class Fire:
    """What the rules make of one legal bombardment before the die is rolled."""

    target: str
    firers: tuple[str, ...]
    spotters: tuple[str, ...]
    no_los: tuple[str, ...]

    @property
    def spotted(self) -> bool:
        return bool(self.spotters)


def organisation_problem(ctx: Context, turn: int, units: list[str], what: str) -> str | None:
    """10.6 / 12.14 (and 6.5): one corps always; one division (plus the corps' separate units) before turn 11."""
    corps = sorted({str(ctx.counters[uid].corps) for uid in units})
    if len(corps) > 1:
        return f"German {what} of different corps ({', '.join(corps)}) never combine"
    divisions = sorted({str(ctx.counters[uid].division) for uid in units if ctx.counters[uid].division is not None})
    if len(divisions) > 1 and turn < int(ctx.tables["organisation_turn"]):
        return (f"before turn {ctx.tables['organisation_turn']} German {what} of different divisions "
                f"({', '.join(divisions)}) may not combine")
    return None


def organisation_legal(ctx: Context, turn: int, units: list[str]) -> str:
    """10.6 / 12.14: the units split into forces that may each act together (one corps; one division before the
    organisation turn, the corps' units of no division each on their own); one of them acts (a hex is bombarded
    or attacked once a phase, 10.5, 12.1)."""
    apart = turn < int(ctx.tables["organisation_turn"])
    forces: dict[tuple[str, str], list[str]] = {}
    for uid in units:
        counter = ctx.counters[uid]
        key = (str(counter.corps), (str(counter.division) if counter.division is not None else uid) if apart else "")
        forces.setdefault(key, []).append(uid)
    joins = apart and any(ctx.counters[uid].division is None for uid in units)
    return ("the units of one of " + " or ".join(f"[{', '.join(force)}]" for force in forces.values())
            + (" (a unit of no division may join one division of its corps)" if joins else ""))


def spotters(board: Board, target: str, firers: list[str]) -> list[str]:
    """10.11: own units next to the target; a German spotter only for artillery of its own corps."""
    ctx = board.ctx
    corps = {ctx.counters[uid].corps for uid in firers}
    found = []
    for n in ctx.hexes.neighbours(target):
        for uid in board.own_stack(n):
            if board.side == "german" and ctx.counters[uid].corps not in corps:
                continue
            found.append(uid)
    return sorted(found)


def may_bombard(board: Board, target: str, used: set[str]) -> list[str]:
    """10.1-10.2, 10.5, 9.20: the side's artillery on the map, not yet firing or marched, with `target` in range."""
    ctx = board.ctx
    return sorted(uid for uid in board.own if board.on_map(uid) and ctx.counters[uid].artillery
                  and uid not in used and uid not in board.marched
                  and ctx.hexes.distance(str(board.hex_of(uid)), target) <= ctx.counters[uid].range)


def enemy_hexes_for(board: Board, taken: set[str], units_for: Callable[[str], list[str]], none: str) -> str:
    """The enemy hexes the side sees (its own view's only: nothing hidden is named), less those `taken` this
    phase, each with the side's units that may act on it now (`units_for`); `none` where there is none."""
    reach = {hex_id: units_for(hex_id) for hex_id in sorted(board.enemy) if hex_id not in taken}
    named = [f"{hex_id} (by {' or '.join(units)})" for hex_id, units in reach.items() if units]
    return capped(named, 12) if named else none


def _targets(board: Board, used: set[str], targets: set[str]) -> str:
    """10.1-10.2, 10.5: the enemy hexes within range of the side's artillery free to fire, with that artillery."""
    return enemy_hexes_for(board, targets, lambda hex_id: may_bombard(board, hex_id, used),
                           "none: no enemy hex you see is within range of your artillery free to fire")


def _in_range(board: Board, uid: str, target: str, used: set[str], targets: set[str]) -> str:
    """10.2: the artillery that has `target` in range, and the enemy hexes (of the view) in range of `uid`."""
    ctx, here = board.ctx, str(board.hex_of(uid))
    reach = ctx.counters[uid].range
    artillery = may_bombard(board, target, used)
    hexes = [hex_id for hex_id in sorted(board.enemy) if hex_id not in targets
             and ctx.hexes.distance(here, hex_id) <= reach]
    return (f"artillery with {target} in range: {', '.join(artillery) or 'none of yours'}; "
            f"enemy hexes within {reach} of {uid} at {here}: {capped(hexes, 12) if hexes else 'none you see'}")


def check(board: Board, order: dict[str, Any], index: int, used: set[str], targets: set[str]) -> tuple[list[Problem], Fire | None]:
    ctx = board.ctx
    found: list[Problem] = []

    def problem(message: str, section: str, where: tuple[str | int, ...] = (), legal: str | None = None) -> None:
        found.append(Problem(message, order=index, path=where, section=section, legal=legal))

    target = order["bombard"]
    if not ctx.hexes.on_map(target) or not board.enemy_at(target):
        problem(f"{target} holds no enemy unit to bombard", "10.1", ("bombard",), legal=_targets(board, used, targets))
        return found, None
    if target in targets:
        problem(f"{target} is already bombarded this phase", "10.5", ("bombard",), legal=_targets(board, used, targets))
    firers = list(order["with"])
    free = ", ".join(may_bombard(board, target, used)) or f"none: no artillery of yours may bombard {target} now"
    for k, uid in enumerate(firers):
        where = ("with", k)
        if not board.on_map(uid):
            problem(f"{uid} is not a {board.side} unit on the map", "10.1", where, legal=free)
            continue
        counter = ctx.counters[uid]
        if not counter.artillery:
            problem(f"{uid} is not artillery", "10.1", where, legal=free)
        elif uid in used:
            problem(f"{uid} already bombards this phase", "10.5", where, legal=free)
        elif uid in board.marched:
            problem(f"{uid} used march mode this player turn and may not bombard", "9.20", where, legal=free)
        else:
            distance = ctx.hexes.distance(str(board.hex_of(uid)), target)
            if distance > counter.range:
                problem(f"{uid} at {board.hex_of(uid)} is {distance} hexes from {target}; its range is "
                        f"{counter.range}", "10.2", where, legal=_in_range(board, uid, target, used, targets))
    if found:
        return found, None
    if board.side == "german":
        wrong = organisation_problem(ctx, board.turn, firers, "artillery")
        if wrong:
            problem(wrong, "10.6", ("with",), legal=organisation_legal(ctx, board.turn, firers))
            return found, None
    seen = spotters(board, target, firers)
    no_los = [uid for uid in firers if not ctx.los_clear(str(board.hex_of(uid)), target)]
    if no_los and not seen:
        in_sight = [uid for uid in may_bombard(board, target, used) if ctx.los_clear(str(board.hex_of(uid)), target)]
        legal = (f"artillery in range and sight of {target}: {', '.join(in_sight) or 'none of yours'}; a unit of "
                 f"yours next to {target} spots it for the rest (10.11"
                 + (", a German spotter for its own corps' artillery)" if board.side == "german" else ")"))
        for uid in no_los:
            problem(f"{uid} at {board.hex_of(uid)} has no line of sight to {target}, and no spotter is next to it",
                    "10.3", ("with", firers.index(uid)), legal=legal)
        return found, None
    for k, uid in enumerate(order.get("losses") or []):
        if uid not in ctx.counters or ctx.counters[uid].side != other(board.side):
            problem(f"{uid} is not an enemy unit", "10.9", ("losses", k),
                    legal=f"enemy unit ids ({'B-' if board.side == 'german' else 'G-'}...) only, or {uid} left out")
    if found:
        return found, None
    return [], Fire(target, tuple(firers), tuple(seen), tuple(no_los))


def resolve(ctx: Context, state: State, side: str, order: dict[str, Any], fire: Fire, dice: Dice,
            decisions: Decisions, events: list[dict[str, Any]]) -> None:
    target = fire.target
    factors = sum(ctx.counters[uid].bombard(state["units"][uid]["steps"]) for uid in fire.firers)
    modifiers: dict[str, int] = {}
    if ctx.terrain_is(target, "bombardment_cover"):
        modifiers["cover"] = int(ctx.tables["modifiers"]["bombard_target_cover"])
    if not fire.spotted or fire.no_los:
        modifiers["unspotted"] = int(ctx.tables["modifiers"]["bombard_unspotted"])
    roll = dice.die(6, f"10.7 bombardment of {target}")
    modified = clamp(roll + sum(modifiers.values()))
    result = bombardment_result(ctx.tables, factors, modified)
    defenders = stack(state, target, ctx.side_of, other(side))
    batteries = sorted({str(state["units"][uid]["hex"]) for uid in fire.firers})
    event: dict[str, Any] = {"type": "bombard", "side": side, "section": "10.7", "target": target,
                             "with": list(fire.firers), "from": batteries, "spotters": list(fire.spotters),
                             "factors": factors,
                             "roll": roll, "modifiers": modifiers, "modified": modified, "losses": result}
    results: list[dict[str, Any]] = []
    if result > 0:
        steps = {uid: state["units"][uid]["steps"] for uid in defenders}
        event["stack"] = [{"unit": uid, "steps": steps[uid]} for uid in defenders]
        allocation = losses.choose(
            ctx, state, decisions, side=side, topic="bombard_losses", section="10.9", steps=steps, count=result,
            constrained=True, default="strongest-first", priority=list(order.get("losses") or []),
            question={"bombardment": target, "from": batteries, "factors": factors})
        losses.take_steps(ctx, state, allocation, results)
    event["results"] = results
    events.append(event)
