"""The Rout Phase (11.0), the side moving first completing its own before the other.

Subject to rout, judged for all of a side's units at once as the phase starts: a unit in an
enemy's hex; next to an enemy not in melee; or in open ground (no foxhole) within five hexes
and LOS of an enemy not in melee, unless a hedgerow would cover it against every such enemy.
Each takes one Morale Check. Failing it by at least its second casualty number (its first when
in or next to an enemy's hex; a Reduced unit reads its full side's numbers) also reduces it.
Then every failed unit routs, all of a side's together: up to its MP, never next to an enemy
not in melee, never closer to an enemy in its LOS, ending where its own terrain covers it if it
can (`auto`: the covered hex farthest from the enemy, then the cheapest, then the lowest id), or
where its owner chooses (`rout: ask`). A unit with nowhere to go is eliminated. A gun that fails is
eliminated instead of routing (V2); vehicles take no check (V3).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, State, standing_answer

from .checks import check, public_name
from .conceal import in_the_open
from .context import Context, other
from .movement import retreat_step_ok
from .state import on_map, stacked
from .terrain import Target, hedgerow_cover, los, own_cover


def _melee_hexes(ctx: Context, state: State) -> set[str]:
    a = {u["hex"] for uid, u in on_map(ctx, state, "american") if not ctx.units[uid].type.vehicle}
    b = {u["hex"] for uid, u in on_map(ctx, state, "german") if not ctx.units[uid].type.vehicle}
    return a & b


def subject(ctx: Context, state: State, uid: str, melee: set[str]) -> str | None:
    """Why the unit must check (11.0), or None."""
    unit = state["units"][uid]
    here = unit["hex"]
    enemies = [(e, u["hex"]) for e, u in on_map(ctx, state, other(ctx.units[uid].side))]
    if any(h == here for _, h in enemies):
        return "in an enemy's hex"
    free = [(e, h) for e, h in enemies if h not in melee]
    if any(ctx.hexes.distance(h, here) <= 1 for _, h in free):
        return "next to an enemy"
    if in_the_open(ctx, state, here):
        near = [h for _, h in free if ctx.hexes.distance(h, here) <= int(ctx.tables["rout_radius"]) and los(ctx, h, here)]
        if near and not all(hedgerow_cover(ctx, h, Target(uid, here)) for h in near):
            return "in the open in enemy sight"
    return None


def resolve(ctx: Context, state: State, dice: Dice, decisions: Decisions, events: list[dict[str, Any]]) -> None:
    for side in (ctx.card.first, ctx.card.second):
        melee = _melee_hexes(ctx, state)
        failed: list[tuple[str, bool]] = []
        for uid, unit in list(on_map(ctx, state, side)):
            if ctx.units[uid].decoy or ctx.units[uid].type.vehicle:
                continue  # V3: a vehicle takes no Morale Check
            why = subject(ctx, state, uid, melee)
            if why is None:
                continue
            close = why != "in the open in enemy sight"
            before = len(events)
            passed = check(ctx, state, dice, uid, kind="morale", section="11.0", events=events,
                           reroll=standing_answer(state, side, "reroll", "never") == "checks", purpose="rout")
            events[before]["why"] = why
            if not passed and ctx.units[uid].type.gun:
                state["units"][uid].update(status="eliminated", hex=None)  # V2: a gun that fails is eliminated
                events[before]["result"] = "eliminated"
            elif not passed:
                failed.append((uid, close))
                _maybe_reduce(ctx, state, uid, close, events[before])
        _rout(ctx, state, decisions, side, [uid for uid, _ in failed], events)


def _maybe_reduce(ctx: Context, state: State, uid: str, close: bool, event: dict[str, Any]) -> None:
    unit = state["units"][uid]
    full = ctx.units[uid].type.full.casualty
    number = full[0] if close or len(full) < 2 else full[1]
    margin = event["rolls"][-1] - event["morale"] if event["rolls"] else 10
    if margin >= number:
        if unit["reduced"]:
            unit.update(status="eliminated", hex=None)
            event["result"] = "eliminated"
        else:
            unit["reduced"] = True
            event["result"] = "reduced"


def _rout(ctx: Context, state: State, decisions: Decisions, side: str, routers: list[str],
          events: list[dict[str, Any]]) -> None:
    routers = [u for u in routers if state["units"][u]["status"] == "active"]
    leaving = set(routers)
    enemies = [u["hex"] for _, u in on_map(ctx, state, other(side))]
    staying = {u["hex"] for uid, u in on_map(ctx, state, side) if uid not in leaving}
    melee = {h for h in enemies if h in staying}
    for uid in routers:
        unit = state["units"][uid]
        start = unit["hex"]
        reach = _reachable(ctx, state, side, uid, start, enemies, melee)
        if not reach:
            unit.update(status="eliminated", hex=None)
            events.append({"type": "rout", "side": side, "section": "11.0", "unit": uid,
                           "as": public_name(state, uid), "from": start, "to": None, "eliminated": True})
            continue
        covered = [h for h in reach if _covered(ctx, state, h)]
        pool = covered or list(reach)
        pool.sort(key=lambda h: (-min([ctx.hexes.distance(h, e) for e in enemies] or [0]), reach[h], h))
        choice = pool[0]
        if standing_answer(state, side, "rout", "auto") == "ask":
            choice = decisions.ask(side, "rout", "11.0", {"unit": uid, "from": start},
                                   [choice] + sorted(h for h in reach if h != choice))
        unit["hex"] = choice
        events.append({"type": "rout", "side": side, "section": "11.0", "unit": uid, "as": public_name(state, uid),
                       "from": start, "to": choice, "eliminated": False})


def _covered(ctx: Context, state: State, hex_id: str) -> bool:
    return hex_id in state["foxholes"] or own_cover(ctx, hex_id) > 0


def _reachable(ctx: Context, state: State, side: str, uid: str, start: str, enemies: list[str],
               melee: set[str]) -> dict[str, int]:
    """Every hex the router may end in with its cost (never its start, never an enemy's hex)."""
    allowance = ctx.allowance(uid)
    best: dict[str, int] = {start: 0}
    frontier = [start]
    while frontier:
        here = frontier.pop(0)
        for there in ctx.hexes.neighbours(here):
            cost = ctx.move_cost(here, there) if ctx.hexes.on_map(there) else None
            if cost is None or there in enemies:
                continue
            total = best[here] + cost
            if total > allowance or best.get(there, allowance + 1) <= total:
                continue
            if not retreat_step_ok(ctx, enemies, melee, here, there):
                continue
            best[there] = total
            frontier.append(there)
    limit = int(ctx.tables["stacking"])
    return {h: c for h, c in best.items() if h != start and len(stacked(ctx, state, h, side)) < limit}
