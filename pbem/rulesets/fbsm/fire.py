"""Fire (10.1-10.12) and the German heavy machineguns (7.8).

`{fire: "2232", with: [G07, G08], advance: [G07]}` fires the listed units into one enemy hex.
Orders are carried out in the order listed (10.2): each target hex is resolved completely,
advance included, before the next. Checks: every firer is yours, on the map, fires once per
phase (10.2) and reaches the target (range 10.6, LOF 10.7-10.9, the LOF limits of 5.2 and 7.4);
a hex is fired into once per phase (10.5) and must hold an enemy unit (10.2).

Strength: the firers' fire factors (plus a rally's bonus, 7.6 / 7.9, added before doubling),
each doubled when it fires into an adjacent hex (10.11); odds = strength // the target hex's
defence (10.3); one die per defending unit, top first, eliminating on a roll up to the odds;
below 1:1 nothing happens and from 6:1 every defender is eliminated without a roll (10.10).

Advance (10.12): if every defender fell, close-assaulting infantry may enter the hex. The order's
`advance` list says who (kept as far as stacking allows); without it the side's standing answer
`advance` decides: none (the default), all, or ask.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.listing import capped, compact
from pbem.core.ruleset import Decisions, State, standing_answer
from pbem.rulesets.kit.stacks import place, stack

from .board import Board, fire_factor, fits, lof_problem
from .context import Context, other
from .setup import map_extent
from . import victory


def reach(cfg: Context, uid: str, heavy_mg: str | None) -> int:
    """10.6 range; 7.8 the designated heavy MG unit reaches 10 hexes this phase."""
    if heavy_mg == uid:
        return max(int(cfg.tables["heavy_mg_range"]), cfg.counters[uid].range)
    return cfg.counters[uid].range


def hexes_in_sight(board: Board, units: list[str], reach_of: Callable[[str], int], what: str) -> str:
    """The enemy hexes the side sees that one of `units` (its own, on the map) reaches with a clear LOF
    (10.6-10.9), for a refusal's legal text; `what` names the units in it."""
    cfg = board.cfg
    mine = [uid for uid in units if uid in board.own and board.on_map(uid)]
    found = [target for target in sorted(board.enemy) if board.enemy_at(target) and any(
        lof_problem(cfg, board.turn, board.effects, board.hex_of(uid), target, reach_of(uid)) is None for uid in mine)]
    if found:
        return f"an enemy hex in range and sight of {what}: {capped(found)}"
    return f"none: no enemy hex you see is in range and sight of {what}"


def own_on_map(board: Board) -> str:
    """The side's own units on the map, for the legal of a refusal of a unit it does not have there."""
    return f"one of your units on the map: {compact(sorted(uid for uid in board.own if board.on_map(uid))) or 'none'}"


def heavy_mg_problems(board: Board, orders: list[Any]) -> tuple[list[Problem], str | None]:
    problems: list[Problem] = []
    chosen: str | None = None
    for index, order in enumerate(orders):
        if "heavy_mg" not in order:
            continue
        uid = order["heavy_mg"]
        if board.side != "german":
            problems.append(Problem("only the German player has heavy machineguns", order=index, section="7.8"))
        elif not board.effects.get("heavy_mg"):
            problems.append(Problem("no German Heavy Machineguns event (7.8) is in force this turn", order=index,
                                    section="7.8"))
        elif chosen is not None:
            problems.append(Problem("only one unit may be given the heavy machineguns in a fire phase",
                                    order=index, section="7.8", legal=f"{chosen} already has them"))
        elif not board.on_map(uid):
            problems.append(Problem(f"{uid} is not one of your units on the map", order=index, path=("heavy_mg",),
                                    section="7.8", legal=own_on_map(board)))
        else:
            chosen = uid
    return problems, chosen


def advance_eligible(cfg: Context, side: str, firers: list[str], positions: dict[str, str], target: str) -> list[str]:
    """10.12: close-assaulting infantry (never emplacements; no US unit onto the riverbank, 9.8)."""
    if side == "us" and target in cfg.riverbank:
        return []
    return [uid for uid in firers
            if cfg.counters[uid].kind == "infantry" and cfg.adjacent(positions[uid], target)]


def validate(board: Board, orders: list[Any]) -> list[Problem]:
    cfg = board.cfg
    problems, heavy = heavy_mg_problems(board, orders)
    fired: set[str] = set()
    targeted: set[str] = set()
    for index, order in enumerate(orders):
        if "fire" not in order:
            continue
        target = order["fire"]
        firers = list(order["with"])
        if not cfg.on_map(target):
            problems.append(Problem(f"{target} is not on the map", order=index, path=("fire",), section="10.2",
                                    legal=map_extent(cfg)))
            continue
        if target in targeted:
            problems.append(Problem(f"{target} has already been fired into this phase", order=index, path=("fire",),
                                    section="10.5", legal="each hex once per fire phase"))
            continue
        if not board.enemy_at(target):
            problems.append(Problem(f"{target} holds no enemy unit", order=index, path=("fire",), section="10.2",
                                    legal=hexes_in_sight(board, firers, lambda uid: reach(cfg, uid, heavy),
                                                         "these firers")))
            continue
        bad = False
        for k, uid in enumerate(firers):
            where = ("with", k)
            if uid not in board.own:
                problems.append(Problem(f"{uid} is not one of your units", order=index, path=where, section="10.1",
                                        legal=own_on_map(board)))
            elif not board.on_map(uid):
                problems.append(Problem(f"{uid} is not on the map", order=index, path=where, section="10.1",
                                        legal=own_on_map(board)))
            elif uid in fired:
                problems.append(Problem(f"{uid} has already fired this phase", order=index, path=where,
                                        section="10.2", legal="each unit fires once per fire phase"))
            else:
                found = lof_problem(cfg, board.turn, board.effects, board.hex_of(uid), target,
                                    reach(cfg, uid, heavy))
                if found is None:
                    continue
                problems.append(Problem(f"{uid}: {found[1]}", order=index, path=where, section=found[0],
                                        legal=hexes_in_sight(board, [uid], lambda one: reach(cfg, one, heavy), uid)))
            bad = True
        if bad:
            continue
        positions = {uid: board.hex_of(uid) for uid in firers}
        eligible = advance_eligible(cfg, board.side, firers, positions, target)
        for k, uid in enumerate(order.get("advance") or []):
            if uid not in firers:
                problems.append(Problem(f"{uid} does not take part in this fire", order=index, path=("advance", k),
                                        section="10.12", legal=", ".join(eligible) or "none"))
            elif uid not in eligible:
                why = ("heavy weapons emplacements never move" if cfg.counters[uid].kind == "hw"
                       else "US units may not enter Marne riverbank hexes" if board.side == "us"
                       and target in cfg.riverbank else "only close-assaulting (adjacent) infantry may advance")
                problems.append(Problem(f"{uid} may not advance: {why}", order=index, path=("advance", k),
                                        section="10.12", legal=", ".join(eligible) or "none"))
        fired.update(firers)
        targeted.add(target)
    return problems


def _advance_options(cfg: Context, eligible: list[str]) -> list[list[str]]:
    limit = int(cfg.tables["stacking_fire_factors"])
    if len(eligible) <= 5:
        subsets = [list(c) for size in range(len(eligible) + 1) for c in combinations(eligible, size)]
    else:
        subsets = [eligible[:k] for k in range(len(eligible) + 1)]
    return [s for s in subsets if sum(cfg.counters[u].fire for u in s) <= limit]


def resolve(cfg: Context, state: State, side: str, orders: list[Any], dice: Dice, decisions: Decisions,
            events: list[dict[str, Any]]) -> None:
    """10.2: the fires in the order given, each complete (advance included) before the next; a victory stops them."""
    _, heavy = heavy_mg_problems(Board.from_state(cfg, state, side), orders)
    for order in orders:
        if "fire" in order:
            resolve_fire(cfg, state, side, order, heavy, dice, decisions, events)
        if state.get("result"):
            break


def resolve_fire(cfg: Context, state: State, side: str, order: dict[str, Any], heavy: str | None, dice: Dice,
                 decisions: Decisions, events: list[dict[str, Any]]) -> None:
    target = order["fire"]
    firers = list(order["with"])
    board = Board.from_state(cfg, state, side)
    defenders = list(reversed(stack(state, target, cfg.side_of, other(side))))  # top first
    if not defenders:
        events.append({"type": "order-void", "side": side, "section": "10.2", "target": target,
                       "reason": f"{target} holds no enemy unit any more"})
        return
    for uid in firers:
        found = None if board.on_map(uid) else ("10.1", f"{uid} is not on the map")
        found = found or lof_problem(cfg, state["turn"], state["effects"], board.hex_of(uid), target,
                                     reach(cfg, uid, heavy))
        if found:
            events.append({"type": "order-void", "side": side, "section": found[0], "target": target,
                           "reason": found[1]})
            return
    positions = {uid: board.hex_of(uid) for uid in firers}
    strength = 0
    close = []
    for uid in firers:
        value = fire_factor(cfg, state["effects"], uid)
        if cfg.adjacent(positions[uid], target):
            value *= 2  # 10.11, after any rally bonus (7.6, 7.9)
            close.append(uid)
        strength += value
    defense = cfg.defense(target)
    odds = strength // defense
    event: dict[str, Any] = {"type": "fire", "side": side, "section": "10.10", "target": target, "firers": firers,
                             "from": sorted(set(positions.values())), "strength": strength, "defense": defense,
                             "odds": odds, "close_assault": bool(close), "results": []}
    if heavy in firers:
        event["heavy_mg"] = heavy
    events.append(event)
    label = f"10.10 {side} fire into {target} at {odds}:1, defender {{position}} of {len(defenders)}"
    if combat_results(state, cfg, dice, event, defenders, odds, label, events):
        return
    if all(r["eliminated"] for r in event["results"]):
        _advance(cfg, state, side, order, firers, positions, target, decisions, events)


def combat_results(state: State, cfg: Context, dice: Dice, event: dict[str, Any], victims: list[str], odds: int,
                   label: str, events: list[dict[str, Any]]) -> bool:
    """10.10 (also for bombardment, 11.4): each unit in turn is eliminated outright at the
    automatic-elimination odds or better, survives below 1:1, and otherwise is eliminated on a
    d6 roll no higher than the odds. Results go into `event`; True once the game is won.
    `label` names the roll, with `{position}` standing for the unit's place in the stack."""
    auto = int(cfg.tables["auto_elim_odds"])
    for position, uid in enumerate(victims, start=1):
        if odds >= auto:
            roll, eliminated = None, True
        elif odds < 1:
            roll, eliminated = None, False
        else:
            roll = dice.die(6, label.format(position=position))
            eliminated = roll <= odds
        event["results"].append({"unit": uid, "side": cfg.counters[uid].side, "roll": roll,
                                 "eliminated": eliminated})
        if eliminated:
            state["units"][uid]["status"] = "eliminated"
            state["units"][uid]["by"] = event["side"]  # who looked at it (6.5): see fog.view's wrecks
            result = victory.check(cfg, state)
            if result:
                events.append({"type": "victory", **result})
                return True
    return False


def _advance(cfg: Context, state: State, side: str, order: dict[str, Any], firers: list[str],
             positions: dict[str, str], target: str, decisions: Decisions, events: list[dict[str, Any]]) -> None:
    eligible = advance_eligible(cfg, side, firers, positions, target)
    if not eligible:
        return
    if "advance" in order:
        chosen = [uid for uid in order["advance"] if uid in eligible]
    else:
        answer = standing_answer(state, side, "advance", "none")
        if answer == "all":
            chosen = eligible
        elif answer == "ask":
            options = _advance_options(cfg, eligible)
            chosen = decisions.ask(side, "advance", "10.12",
                                   {"target": target, "eligible": eligible,
                                    "note": "units to advance into the emptied hex"}, options)
        else:
            chosen = []
    moved = []
    for uid in chosen:
        board = Board.from_state(cfg, state, side)
        if fits(cfg, board, uid, target):
            place(state, uid, target)
            moved.append({"unit": uid, "from": positions[uid]})
    if moved:
        events.append({"type": "advance", "side": side, "section": "10.12", "into": target, "units": moved})
