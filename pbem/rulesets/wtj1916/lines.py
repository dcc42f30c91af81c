"""Lines of fire (3.4) from one firing base to one target base, judged on a board: the firing
side's view (its own units and the enemy units it sees), never on what it cannot see.

A base has a line of fire to a target base when
- any part of the target lies in the weapon's field of fire (360, 180 or 90 degrees off the
  weapon's edges; a base inside a pillbox or bunker no wider than the structure's, 3.4),
- the line of sight between them is clear (`geometry.clear_sight`: blocking terrain, 60 yards
  of full cover),
- the line passes through no base of another unit (3.1, 3.4): the firer's own bases never
  block, nor do the target side's tanks (they give the bases behind them cover instead, 3.5); a machine gun also fires through the units of its own battalion when the battalion's
  training is great or outstanding; towed and vehicle cannon are blocked only by erect personnel
  bases (not prone, not rushing); trench mortars by no base (they see, or their observer does),
- and the target base is within the weapon's range edge to edge (the Base and Range chart,
  assumed in the unit types).
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.ruleset import State
from pbem.geometry import plane

from .context import Context, Weapon
from .geometry import clear_sight, footprint, in_field, structure_arc

GREAT = ("great", "outstanding")


def arc_of(context: Context, state: State, bid: str, weapon: Weapon) -> int:
    base = state["bases"][bid]
    shape = footprint(context.type_of(state["units"][base["unit"]]), base).shape
    held = structure_arc(context, shape)
    return weapon.arc if held is None else min(weapon.arc, held)


def blockers(context: Context, state: State, firer: str, target: str, weapon: Weapon) -> list[tuple[str, plane.Shape]]:
    """The bases a line of fire from unit `firer` at unit `target` may not pass through."""
    if weapon.setup:
        return []  # 3.4 masks towed and vehicle cannon with erect personnel; a trench mortar lobs over bases
    units = state["units"]
    through_battalion = (weapon.mg != "none" and weapon.fire == "small-arms"
                         and units[firer].get("battalion") is not None
                         and context.training(units[firer]["battalion"]) in GREAT)
    out = []
    for bid, base in sorted(state["bases"].items()):
        uid = base["unit"]
        if uid in (firer, target):
            continue
        kind = context.type_of(units[uid])
        if kind.cls == "tank" and units[uid]["side"] == units[target]["side"]:
            continue  # 3.5: a tank chassis covers the personnel behind it (solid cover) rather than masking them
        if weapon.fire == "artillery" and not (kind.personnel and not kind.vehicle
                                               and not base["prone"] and not base["rushed"]):
            continue
        if through_battalion and units[uid].get("battalion") == units[firer]["battalion"]:
            continue
        out.append((bid, footprint(kind, base).shape))
    return out


def line_of_fire(context: Context, state: State, fbid: str, tbid: str, weapon: Weapon,
                 blocking: list[tuple[str, plane.Shape]]) -> bool:
    bases, units = state["bases"], state["units"]
    fbase, tbase = bases[fbid], bases[tbid]
    firing = footprint(context.type_of(units[fbase["unit"]]), fbase)
    target = footprint(context.type_of(units[tbase["unit"]]), tbase)
    if not plane.within(firing.shape, target.shape, weapon.range):
        return False
    if not in_field(firing, weapon.edges, arc_of(context, state, fbid, weapon), target.shape):
        return False
    if not clear_sight(context, firing, target):
        return False
    return not plane.passes_near(firing.centre, target.centre, blocking, 0)


def targets_in_line(context: Context, state: State, fbid: str, target: str, weapon: Weapon,
                    candidates: Mapping[str, Any], blocking: list[tuple[str, plane.Shape]]) -> list[str]:
    """The target unit's bases (of `candidates`) to which base `fbid` has a line of fire."""
    return [tbid for tbid in sorted(candidates) if line_of_fire(context, state, fbid, tbid, weapon, blocking)]
