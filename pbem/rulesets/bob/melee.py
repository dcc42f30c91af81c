"""The Melee Phase (12.0) and the Recovery Phase (13.0).

Melee: in every hex holding both sides' units, each squad and weapon team rolls two d10 at
once, without modifiers; each die at most its melee firepower (a squad's firepower, a weapon
team's 2, or 1 when Reduced) reduces one enemy unit there, the owner choosing which (`auto`:
full-strength squads first, then Reduced squads, weapon teams last; a weapon team chosen is
eliminated, a Reduced unit chosen is eliminated). A side may spend one CP per melee to roll a
unit's two dice again (`melee_reroll: misses`: the first of its units whose two dice both
missed). Decoys take no part (a decoy next to an enemy has already been removed, 15.0); a
concealed unit in a melee loses its marker.

Recovery: every unit not in melee recovers one step of suppression; Used, Op Fire and CP
markers come off; the turn advances, or the game ends after the last turn (18.0).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, State, standing_answer

from . import conceal, sequence, victory
from .context import SIDES, Context, other
from .state import in_hex, on_map


def melee_strength(ctx: Context, uid: str, reduced: bool) -> int:
    kind = ctx.units[uid].type
    if kind.gun:
        return int(ctx.tables["wt_melee"][0])  # V7: a gun and its crew melee as a full-strength weapon team
    if kind.kind == "wt":
        return int(ctx.tables["wt_melee"][1 if reduced else 0])
    return kind.face(reduced).firepower


def _loss_order(ctx: Context, state: State, uids: list[str]) -> list[str]:
    def rank(uid: str) -> tuple[int, str]:
        unit = state["units"][uid]
        if ctx.units[uid].kind in ("wt", "gun"):
            return (2, uid)
        return (1 if unit["reduced"] else 0, uid)
    return sorted(uids, key=rank)


def resolve(ctx: Context, state: State, dice: Dice, decisions: Decisions, events: list[dict[str, Any]]) -> None:
    hexes = sorted({u["hex"] for _, u in on_map(ctx, state, SIDES[0])} & {u["hex"] for _, u in on_map(ctx, state, SIDES[1])})
    for hex_id in hexes:
        fighters = {side: [u for u in in_hex(ctx, state, hex_id, side)
                           if not ctx.units[u].decoy and not ctx.units[u].type.vehicle] for side in SIDES}
        if not all(fighters.values()):
            continue
        for uid in fighters[SIDES[0]] + fighters[SIDES[1]]:
            if state["units"][uid]["concealed"]:
                conceal.take_off(ctx, state, uid, "it fights a melee", events)
        rolls: dict[str, list[int]] = {}
        hits = {side: 0 for side in SIDES}
        for side in SIDES:
            rerolled = False
            for uid in fighters[side]:
                strength = melee_strength(ctx, uid, state["units"][uid]["reduced"])
                dice_ = dice.dice(2, 10, f"12.0 melee in {hex_id}: {uid}")
                unit = state["units"][uid]
                if not rerolled and all(d > strength for d in dice_) and state["cps"][side] > 0 and not unit["cp"] \
                        and not ctx.units[uid].type.heavy \
                        and standing_answer(state, side, "melee_reroll", "never") == "misses":
                    state["cps"][side] -= 1
                    unit["cp"] = True
                    rerolled = True
                    dice_ = dice.dice(2, 10, f"3.0 melee re-roll in {hex_id}: {uid}")
                rolls[uid] = dice_
                hits[other(side)] += sum(1 for d in dice_ if d <= strength)
        losses: list[dict[str, Any]] = []
        for side in SIDES:
            for number in range(hits[side]):
                alive = [u for u in fighters[side] if state["units"][u]["status"] == "active"]
                if not alive:
                    break
                order = _loss_order(ctx, state, alive)
                choice = order[0]
                if standing_answer(state, side, "melee_losses", "auto") == "ask":
                    choice = decisions.ask(side, "melee_losses", "12.0",
                                           {"hex": hex_id, "hit": number + 1, "of": hits[side]}, order)
                unit = state["units"][choice]
                if unit["reduced"] or ctx.units[choice].kind in ("wt", "gun"):
                    unit.update(status="eliminated", hex=None)
                    losses.append({"unit": choice, "result": "eliminated"})
                else:
                    unit["reduced"] = True
                    losses.append({"unit": choice, "result": "reduced"})
        events.append({"type": "melee", "section": "12.0", "hex": hex_id, "rolls": rolls, "hits": hits,
                       "losses": losses})
    victory.update_held(ctx, state)


def recover(ctx: Context, state: State, events: list[dict[str, Any]]) -> None:
    """13.0, then the next turn (1.0) or the end (18.0)."""
    melee = {u["hex"] for _, u in on_map(ctx, state, SIDES[0])} & {u["hex"] for _, u in on_map(ctx, state, SIDES[1])}
    for uid, unit in state["units"].items():
        if unit["status"] == "active" and unit["hex"] not in melee and unit["supp"] > 0:
            unit["supp"] -= 1
        unit["used"] = unit["opfire"] = unit["marked"] = unit["cp"] = False
    if "artillery" in state:
        state["artillery"]["used"] = state["artillery"]["marked"] = []  # 17.0: each support once a turn
    if state["turn"] >= ctx.card.turns:
        state["result"] = victory.final(ctx, state)
        events.append({"type": "victory", **state["result"]})
        return
    state["turn"] += 1
    sequence.start_turn(ctx, state, events)
