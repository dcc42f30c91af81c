"""Off-board artillery support (17.0), called in a side's own impulse.

The card lists each side's Artillery Supports with a firepower, a proficiency and an accuracy.
`{artillery: ID, at: HEX}` Uses one (three units against the Operations Range, no CP, once a
turn, Used whatever happens):

1. Prof Check: the d10 at most the proficiency (read as for guns, which 17.0 likens it to); a
   failure ends the call.
2. Accuracy: the d10 at most the accuracy lands the Fire Mission on the hex; a roll above drifts it
   one hex per point over, in the direction of a d6 (1 is hexside 0, up; then clockwise: assumed,
   `artillery_drift`); off the map it is lost for the turn.
3. The mission attacks its hex and the six around it, one roll a hex against every unit in it,
   both sides': infantry and guns as an infantry attack (the hex's own terrain or foxhole, the
   airburst -1 in woods, concealment, -4 for a unit moving in the open; a foxhole +4, as 14.0 gives
   it against artillery; no thread, so no hedgerow, orchard-line or dike modifier), a gun reading its casualty number before the slash; a vehicle
   is destroyed by a roll at most the firepower, -1 if open topped or unarmoured, +1 if its lower
   armour is over 3, a 10 never counting.
4. The mission stays to the end of the Operations Phase and attacks every unit that enters one of
   its hexes, in each hex it enters (`strike_mover`, called at every step, before Op Fire there; a
   mover it suppresses checks morale as under Op Fire, 9.0); units standing still are not attacked
   again.

As Op Fire (`{artillery: ID, opfire: true}` marks it, three units too), a support fires at an enemy
mover by its side's standing `artillery` answer (`op_fire`): +1 to the Prof Check die, the Fire
Mission aimed at the mover's own hex; the mover is attacked as moving.
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import Decisions, State, standing_answer

from . import conceal
from .checks import public_name
from .context import Context
from .fire import apply, outcome
from .heavy import gun_outcome
from .terrain import open_ground, own_cover


def supports(ctx: Context, side: str) -> dict[str, dict[str, int]]:
    return {str(s["id"]): s for s in ctx.card.artillery.get(side, [])}


def problems(ctx: Context, state_view: dict[str, Any], side: str, order: dict[str, Any], index: int,
             seen: set[str]) -> list[Problem]:
    """17.0 on the side's view: one of its supports, not yet Used this turn, at a hex on the map."""
    mine = supports(ctx, side)
    record = state_view.get("artillery") or {}
    used = set(record.get("used", [])) | set(record.get("marked", []))
    name = order["artillery"]
    if name not in mine:
        return [Problem(f"{name} is not one of your Artillery Supports", order=index, path=("artillery",),
                        section="17.0", legal=", ".join(sorted(mine)) or "none on the card")]
    if name in used or name in seen:
        return [Problem(f"{name} was Used this turn: each support fires once a turn", order=index,
                        path=("artillery",), section="17.0",
                        legal=", ".join(sorted(set(mine) - used - seen)) or "none left")]
    seen.add(name)
    if ("at" in order) == bool(order.get("opfire")):
        return [Problem(f"call {name} on a hex (`at`) or mark it Op Fire (`opfire: true`), one of the two",
                        order=index, path=("artillery",), section="17.0")]
    if "at" in order and not ctx.hexes.on_map(order["at"]):
        return [Problem(f"{order['at']} is not on the map", order=index, path=("at",), section="17.0")]
    return []


def _area(ctx: Context, centre: str) -> list[str]:
    return [h for h in (centre, *ctx.hexes.neighbours(centre)) if ctx.hexes.on_map(h)]


def _drift(ctx: Context, hex_id: str, direction: int, count: int) -> str | None:
    grid = ctx.hexes.grid
    landed = grid.step(hex_id, direction, count)
    found = landed.id if landed.has_id else None
    return found if found is not None and ctx.hexes.on_map(found) else None


def order(ctx: Context, state: State, dice: Dice, side: str, given: dict[str, Any],
          events: list[dict[str, Any]]) -> None:
    """Carry out one accepted artillery order of an impulse: a call, or marking the support Op Fire."""
    name = str(given["artillery"])
    if given.get("opfire"):
        record = state["artillery"]
        record["marked"] = sorted({*record["marked"], name})
        events.append({"type": "mark", "side": side, "section": "17.0", "unit": name, "as": name, "mark": "opfire"})
        return
    call(ctx, state, dice, side, name, str(given["at"]), events)


def call(ctx: Context, state: State, dice: Dice, side: str, name: str, at: str, events: list[dict[str, Any]], *,
         mover: str | None = None) -> None:
    """17.0: one Artillery Support fires at `at`; as Op Fire (`mover`) +1 to its Prof Check."""
    support = supports(ctx, side)[name]
    record = state["artillery"]
    record["used"] = sorted({*record["used"], name})
    record["marked"] = [m for m in record["marked"] if m != name]
    event: dict[str, Any] = {"type": "artillery", "side": side, "section": "17.0", "support": name,
                             "at": at, "prof": int(support["prof"]), "accuracy": int(support["accuracy"])}
    events.append(event)
    roll = dice.die(10, f"17.0 prof check of {name}")
    event["prof_roll"] = roll
    if mover is not None:
        event["op_fire"] = int(ctx.tables["artillery_op_fire"])
        roll += int(ctx.tables["artillery_op_fire"])
    if roll > int(support["prof"]):
        event["landed"] = None
        event["why"] = "failed its Prof Check"
        return
    aim = dice.die(10, f"17.0 accuracy of {name}")
    event["accuracy_roll"] = aim
    landed: str | None = at
    if aim > int(support["accuracy"]):
        face = dice.die(6, f"17.0 drift direction of {name}")
        direction = int(ctx.tables["artillery_drift"][face - 1])
        event["drift"] = {"hexes": aim - int(support["accuracy"]), "d6": face, "direction": direction}
        landed = _drift(ctx, at, direction, aim - int(support["accuracy"]))
    event["landed"] = landed
    if landed is None:
        event["why"] = "drifted off the map"
        return
    mission = {"side": side, "support": name, "hex": landed}
    record["missions"].append(mission)
    for hex_id in _area(ctx, landed):
        targets = [uid for uid, u in sorted(state["units"].items()) if u["status"] == "active" and u["hex"] == hex_id]
        _bombard(ctx, state, dice, mission, hex_id, targets, mover, events)
    conceal.sweep(ctx, state, events)


def op_fire(ctx: Context, state: State, dice: Dice, decisions: Decisions, side: str, mover: str, hex_id: str,
            events: list[dict[str, Any]]) -> None:
    """17.0: each of the side's supports marked Op Fire whose standing answer says so fires at the mover,
    its Fire Mission on the mover's hex (the area must hold the mover)."""
    for name in list(state["artillery"]["marked"]):
        if state["units"][mover]["status"] != "active" or name not in supports(ctx, side):
            continue
        policy = (standing_answer(state, side, "artillery", {}) or {}).get(name) or {"at": "first"}
        at = policy.get("at", "first")
        if at == "ask":
            wanted = decisions.ask(side, "opfire", "17.0", {"unit": name, "mover": public_name(state, mover),
                                                            "hex": hex_id, "from": None, "final": False, "cp": False},
                                   ["hold", "fire"]) == "fire"
        else:
            wanted = at == "first" or (at == "open" and open_ground(ctx, hex_id)) or \
                (at == "hexes" and hex_id in (policy.get("hexes") or []))
        if wanted:
            call(ctx, state, dice, side, name, hex_id, events, mover=mover)


def strike_mover(ctx: Context, state: State, dice: Dice, mover: str, hex_id: str, events: list[dict[str, Any]]) -> None:
    """17.0: every mission whose area holds the hex the mover just entered attacks it there."""
    for mission in (state.get("artillery") or {}).get("missions", []):
        if state["units"][mover]["status"] == "active" and hex_id in _area(ctx, mission["hex"]):
            _bombard(ctx, state, dice, mission, hex_id, [mover], mover, events)


def _modifiers(ctx: Context, state: State, uid: str, hex_id: str, moving: bool) -> dict[str, int]:
    table = ctx.tables["modifiers"]
    unit = state["units"][uid]
    terrain = ctx.terrain(hex_id)
    mods: dict[str, int] = {}
    if hex_id in state["foxholes"] and not moving and not ctx.building(hex_id):
        mods["foxhole"] = int(table["foxhole_vs_mortar"])  # 14.0: +4 against artillery and mortars
    elif own_cover(ctx, hex_id):
        mods[terrain] = own_cover(ctx, hex_id)
    if terrain == "woods":
        mods["airburst"] = int(table["mortar_in_woods"])
    if unit["concealed"]:
        mods["concealed"] = int(table["concealed"])
    if moving and terrain == "open":
        mods["moving_in_open"] = int(table["moving_in_open"])
    return mods


def _bombard(ctx: Context, state: State, dice: Dice, mission: dict[str, Any], hex_id: str, targets: list[str],
             mover: str | None, events: list[dict[str, Any]]) -> None:
    firepower = int(supports(ctx, mission["side"])[mission["support"]]["firepower"])
    roll = dice.die(10, f"17.0 fire mission of {mission['support']} in {hex_id}")
    results: list[dict[str, Any]] = []
    for uid in targets:
        unit = state["units"][uid]
        kind = ctx.units[uid].type
        shown = str(unit["marker"]) if unit["concealed"] else uid
        if kind.vehicle:
            armour = kind.armour or (0, 0)
            mods = {"open_or_unarmoured": -1} if kind.open_topped or max(armour) == 0 else \
                {"armour_over_3": 1} if min(armour) > 3 else {}
            modified = roll + sum(mods.values())
            result = "eliminated" if roll != 10 and modified <= firepower else "none"
            if result == "none" and unit["concealed"]:
                # V1: its marker comes off as an infantry unit's would; the entry shows that roll
                mods = _modifiers(ctx, state, uid, hex_id, uid == mover)
                modified = roll + sum(mods.values())
                if roll != 10 and modified <= firepower:
                    conceal.reveal(state, uid)
                    result = "revealed"
        else:
            mods = _modifiers(ctx, state, uid, hex_id, uid == mover)
            modified = roll + sum(mods.values())
            if roll == 10:
                result = "none"
            elif kind.gun:
                result = gun_outcome(ctx, uid, modified, firepower, heavy_hit=False)
            else:
                result = outcome(ctx, uid, unit["reduced"], modified, firepower)
        results.append({"unit": uid, "as": shown, "modifiers": mods, "modified": modified,
                        "result": result if result == "revealed" else apply(ctx, state, uid, result),
                        "moving": uid == mover})
    events.append({"type": "bombard", "side": mission["side"], "section": "17.0", "support": mission["support"],
                   "hex": hex_id, "firepower": firepower, "roll": roll, "results": results})


def end_of_phase(state: State) -> None:
    """17.0: the missions lift when the Operations Phase ends."""
    if "artillery" in state:
        state["artillery"]["missions"] = []
