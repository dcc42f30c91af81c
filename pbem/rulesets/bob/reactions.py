"""Opportunity fire (9.0) and Final Opportunity Fire (10.0), answered from standing orders.

Each time a moving unit enters a hex (and once in its start hex, when its first step is into an
enemy hex: 9.0), every unit of the other side that could fire at it is asked, in unit id order,
by its side's standing orders (`standing.opfire`), or by a decision request when they say `ask`:

- a unit not Used may Op Fire: it needs LOS and range to the mover's hex (long range at half
  firepower, 6.0) and must not share a hex with an enemy (6.0) nor fire into a hex holding its
  own side's units; a unit marked Op Fire uses the `marked` answer, any other the `unmarked` one;
- a Used unit may Final Op Fire only at an adjacent mover (10.0), or within its normal range by
  spending a CP when `final_cp` says so; it fires with +2;
- the answers: `first` (fire at any mover it can), `open` (only at a mover entering open ground),
  `adjacent` (only next to it), `hexes` (only in the listed hexes), `hold`, `ask`; `within: N`
  limits the range.

A reacting unit passes a Prof Check first (its proficiency, less one each for a target in the
open, an adjacent target and being marked Op Fire, never below 0: 9.0); failing it, the unit
may not fire at this mover in this hex, and an Op Fire attempt does not make it Used (9.0). A
unit that fired may fire Final Op Fire at the same mover in a later hex (10.0). A mover that
receives a suppression result takes a Morale Check at once (its declared retreat's -4 still
counts), and on a failure its move ends and it is Used (9.0, 5.0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, State, standing_answer

from . import conceal
from .checks import check, public_name
from .artillery import op_fire as artillery_op_fire
from .artillery import strike_mover
from .facing import turn_to
from .heavy import prof_check, prof_modifiers
from .context import Context, other
from .fire import Reach, attack, reach, targets_in
from .state import in_hex, on_map
from .terrain import open_ground

POLICIES = ("first", "open", "adjacent", "hexes", "hold", "ask")
DEFAULT_MARKED = "first"
DEFAULT_UNMARKED = "hold"
DEFAULT_FINAL = "adjacent"


@dataclass(frozen=True)
class Step:
    """A mover in the hex it just entered."""

    mover: str
    hex: str
    came_from: str | None
    entered: bool = True  # False for the fire in the start hex before the first step (9.0)


def _policy(state: State, side: str, uid: str, unit: Mapping[str, Any]) -> dict[str, Any]:
    per_unit = standing_answer(state, side, "opfire", {}) or {}
    if uid in per_unit:
        return dict(per_unit[uid])
    if unit["used"]:
        return {"at": standing_answer(state, side, "final", DEFAULT_FINAL)}
    return {"at": standing_answer(state, side, "marked" if unit["opfire"] else "unmarked",
                                  DEFAULT_MARKED if unit["opfire"] else DEFAULT_UNMARKED)}


def _wants(ctx: Context, policy: Mapping[str, Any], origin: str, step: Step) -> bool | None:
    """Whether the standing answer fires at this mover here (None: ask)."""
    at = policy.get("at", "hold")
    within = policy.get("within")
    distance = ctx.hexes.distance(origin, step.hex)
    if within is not None and distance > int(within):
        return False
    if at == "ask":
        return None
    if at == "first":
        return True
    if at == "open":
        return open_ground(ctx, step.hex)
    if at == "adjacent":
        return distance <= 1
    if at == "hexes":
        return step.hex in (policy.get("hexes") or [])
    return False


def wants_to_fire(ctx: Context, state: State, decisions: Decisions, uid: str, step: Step, section: str, *,
                  final: bool = False, cp: bool = False) -> bool:
    """The unit's standing answer to this mover here, or its owner's answer to a decision request (`ask`)."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    wanted = _wants(ctx, _policy(state, side, uid, unit), unit["hex"], step)
    if wanted is None:
        wanted = decisions.ask(side, "opfire", section, {"unit": uid, "mover": public_name(state, step.mover),
                                                         "hex": step.hex, "from": step.came_from, "final": final,
                                                         "cp": cp}, ["hold", "fire"]) == "fire"
    return wanted


def _final_reach(ctx: Context, state: State, uid: str, unit: Mapping[str, Any], step: Step,
                 side: str) -> tuple[Reach, bool] | None:
    """10.0: the reach of a Used unit's Final Op Fire, and whether it needs a CP."""
    found = reach(ctx, uid, unit["reduced"], unit["hex"], step.hex)
    if found is None or found.long:
        return None
    if ctx.hexes.distance(unit["hex"], step.hex) <= 1:
        return found, False
    if standing_answer(state, side, "final_cp", False) and state["cps"][side] > 0 and not unit["cp"]:
        return found, True
    return None


def react(ctx: Context, state: State, dice: Dice, decisions: Decisions, step: Step, events: list[dict[str, Any]],
          *, retreating: bool, reroll: bool, misses: dict[str, int] | None = None) -> str:
    """Every reaction to one step; returns `go` (the move goes on), `stopped` or `gone` (eliminated/removed).

    `misses` counts, per gun or vehicle, the failed Op Fire checks at this mover (V4: the second makes
    it Used)."""
    mover_side = ctx.units[step.mover].side
    side = other(mover_side)
    at_vehicle = face_up_vehicle(ctx, state, step.mover)  # V5: a marker is fired on as infantry
    if step.entered and state.get("artillery", {}).get("missions"):
        before = len(events)
        strike_mover(ctx, state, dice, step.mover, step.hex, events)
        if state["units"][step.mover]["status"] != "active":
            return "gone"
        if _bombarded(step, events[before:]) and \
                _mover_checks(ctx, state, dice, step, events, retreating=retreating, reroll=reroll) == "stopped":
            return "stopped"
    if step.entered and state.get("artillery", {}).get("marked"):
        before = len(events)
        artillery_op_fire(ctx, state, dice, decisions, side, step.mover, step.hex, events)
        if state["units"][step.mover]["status"] != "active":
            return "gone"
        if _bombarded(step, events[before:]) and \
                _mover_checks(ctx, state, dice, step, events, retreating=retreating, reroll=reroll) == "stopped":
            return "stopped"
    for uid, unit in list(on_map(ctx, state, side)):
        mover = state["units"][step.mover]
        if mover["status"] != "active":
            return "gone"
        kind = ctx.units[uid].type
        if ctx.units[uid].decoy:
            continue
        if in_hex(ctx, state, unit["hex"], mover_side) or in_hex(ctx, state, step.hex, side):
            continue  # 6.0: not from a melee hex, never into a hex holding its own side's units
        if kind.heavy:
            if unit["used"]:
                continue  # V5: no Final Op Fire for guns and vehicles
            if _heavy_reaction(ctx, state, dice, decisions, uid, step, events, misses if misses is not None else {}):
                if state["units"][step.mover]["status"] != "active":
                    return "gone"
                if not at_vehicle and _stopped(state, step, events) and \
                        _mover_checks(ctx, state, dice, step, events, retreating=retreating, reroll=reroll) == "stopped":
                    return "stopped"
            continue
        if at_vehicle:
            from . import satw  # satw builds on this module's standing answers

            if satw.may_react(ctx, state, uid, step):
                satw.react(ctx, state, dice, decisions, uid, step, events)
            continue
        final = bool(unit["used"])
        cp_needed = False
        if final:
            got = _final_reach(ctx, state, uid, unit, step, side)
            if got is None:
                continue
            how, cp_needed = got
        else:
            found = reach(ctx, uid, unit["reduced"], unit["hex"], step.hex)
            if found is None:
                continue
            how = found
        if not wants_to_fire(ctx, state, decisions, uid, step, "10.0" if final else "9.0", final=final,
                             cp=cp_needed):
            continue
        if cp_needed:
            state["cps"][side] -= 1
            unit["cp"] = True
        if _fire(ctx, state, dice, uid, step, how, final=final, events=events) == "stopped" and \
                _mover_checks(ctx, state, dice, step, events, retreating=retreating, reroll=reroll) == "stopped":
            return "stopped"
    mover = state["units"][step.mover]
    return "go" if mover["status"] == "active" else "gone"


def face_up_vehicle(ctx: Context, state: State, uid: str) -> bool:
    """A vehicle the other side sees as one (under a marker it is fired on as infantry or a gun: V5)."""
    return ctx.units[uid].type.vehicle and not state["units"][uid]["concealed"]


def _bombarded(step: Step, events: list[dict[str, Any]]) -> bool:
    """17.0: a Fire Mission put a suppression result on the mover (it then checks as under Op Fire, 9.0)."""
    return any(r["unit"] == step.mover and r["result"] in ("suppressed", "reduced")
               for e in events if e["type"] == "bombard" for r in e["results"])


def _stopped(state: State, step: Step, events: list[dict[str, Any]]) -> bool:
    """Whether the last fire event put a suppression result on the mover."""
    last = events[-1] if events else {}
    return last.get("type") == "fire" and any(r["unit"] == step.mover and r["result"] in ("suppressed", "reduced")
                                               for r in last.get("results", []))


def _heavy_reaction(ctx: Context, state: State, dice: Dice, decisions: Decisions, uid: str, step: Step,
                    events: list[dict[str, Any]], misses: dict[str, int]) -> bool:
    """V4, V5, V6: a gun's or vehicle's Op Fire at the mover, turning first when it must; True if it fired."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    kind = ctx.units[uid].type
    how = reach(ctx, uid, False, unit["hex"], step.hex)
    if how is None or (kind.gun and ctx.building(unit["hex"]) and
                       reach(ctx, uid, False, unit["hex"], step.hex, unit["facing"]) is None):
        return False
    if not wants_to_fire(ctx, state, decisions, uid, step, "V4"):
        return False
    if unit.get("moved"):
        unit["moved"] = False  # V3: picking the vehicle to act again removes its Move marker
    before = unit["facing"]
    facing = turn_to(ctx, unit["hex"], before, step.hex)
    turned = facing != before
    if turned:
        events.append({"type": "turn-facing", "side": side, "section": "V4", "unit": uid,
                       "as": public_name(state, uid), "hex": unit["hex"], "from": before, "to": facing})
        unit["facing"] = facing
    at_vehicle = face_up_vehicle(ctx, state, step.mover)
    mods = prof_modifiers(ctx, state, uid, unit["hex"], step.hex, op=True, turned=turned, moved=False,
                          target_moving_marker=False) or {}
    steady = not (kind.gun and unit["supp"]) or check(ctx, state, dice, uid, kind="morale", section="V5",
                                                       events=events, purpose="op fire")  # V5: a suppressed gun
    if not steady or not prof_check(ctx, state, dice, uid, mods, section="V4", purpose="op fire", events=events):
        misses[uid] = misses.get(uid, 0) + 1
        if misses[uid] > 1:
            unit["used"] = True  # V4: its second failure at the same mover
            unit["opfire"] = False
        if turned and kind.vehicle and at_vehicle:
            unit["facing"] = before  # V4: back to its facing when it turned to op fire at a vehicle and failed
            events.append({"type": "turn-facing", "side": side, "section": "V4", "unit": uid,
                           "as": public_name(state, uid), "hex": unit["hex"], "from": facing, "to": before})
        return False
    unit["used"] = True
    unit["opfire"] = False
    if unit["concealed"]:
        conceal.take_off(ctx, state, uid, "it fired", events)
    only = step.mover if at_vehicle or any(face_up_vehicle(ctx, state, u)
                                           for u in in_hex(ctx, state, step.hex, other(side))) else None
    attack(ctx, state, dice, uid, unit["hex"], step.hex, how, fire="op",
           targets=targets_in(ctx, state, step.hex, side, mover=step.mover, came_from=step.came_from, only=only),
           section="V6" if at_vehicle else "V5", events=events, anti_tank=kind.full.at)
    return True


def _fire(ctx: Context, state: State, dice: Dice, uid: str, step: Step, how: Reach, *, final: bool,
          events: list[dict[str, Any]]) -> str:
    """One reacting unit's Prof Check and fire; `stopped` when the mover took a suppression result."""
    unit = state["units"][uid]
    side = ctx.units[uid].side
    face = ctx.units[uid].type.face(unit["reduced"])
    bonus = ctx.tables["prof_bonus"]
    lowered = (int(bonus["target_in_open"]) if open_ground(ctx, step.hex) else 0) \
        + (int(bonus["target_adjacent"]) if ctx.hexes.distance(unit["hex"], step.hex) <= 1 else 0) \
        + (int(bonus["marked_op_fire"]) if unit["opfire"] or unit["marked"] else 0)
    prof = max(0, face.prof - lowered)
    reroll = standing_answer(state, side, "reroll", "never") == "checks"
    section = "10.0" if final else "9.0"
    if not check(ctx, state, dice, uid, kind="prof", section=section, events=events, prof=prof, reroll=reroll,
                 purpose="final op fire" if final else "op fire"):
        return "failed"  # 9.0: not Used for a failed Op Fire check
    unit["used"] = True
    unit["opfire"] = False
    if unit["concealed"]:
        conceal.take_off(ctx, state, uid, "it fired", events)
    happened = attack(ctx, state, dice, uid, unit["hex"], step.hex, how, fire="final" if final else "op",
                      targets=targets_in(ctx, state, step.hex, side, mover=step.mover, came_from=step.came_from),
                      section=section, events=events)
    return "stopped" if happened.get(step.mover) in ("suppressed", "reduced") else "fired"


def _mover_checks(ctx: Context, state: State, dice: Dice, step: Step, events: list[dict[str, Any]], *,
                  retreating: bool, reroll: bool) -> str | None:
    """9.0: a suppressed mover checks morale at once; None when it passes and goes on."""
    modifier = int(ctx.tables["modifiers"]["declared_retreat"]) if retreating else 0
    if check(ctx, state, dice, step.mover, kind="morale", section="9.0", events=events, modifier=modifier,
             reroll=reroll, purpose="go on moving under fire"):
        return None
    return "stopped"
