"""Direct artillery fire (3.2) and its modifiers (3.6), one firing base at a time.

Each artillery base (towed and vehicle cannon, trench mortars, and heavy machine guns against
vehicles, 3.7) rolls two hit dice and one kill die at once. The hit dice plus the To Hit
modifiers hit on the chart's total (assumed); the kill die plus the To Kill modifiers, the
weapon size index (3.6) and less the target's armour (assumed) read the K, D, I or none result.
The shot lands on the target unit's base closest to the firing base among those it has a line
of fire to. Which modifier reads on which die where 3.6 does not say is assumed (docs/wtj1916.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.ruleset import State
from pbem.geometry import plane

from .context import Context, Weapon
from .geometry import closest2, dist2, footprint, terrain_cover
from .lines import blockers, line_of_fire
from .smallarms import packed_bases
from .state import bases_of


@dataclass
class Gun:
    """One artillery base's shot: its aim and modifiers (section 3.6 by name)."""

    base: str
    target: str
    aim: str | None  # the target base it lands on
    in_line: list[str]
    size: int = 0
    armour: int = 0
    hit: dict[str, int] = field(default_factory=dict)
    kill: dict[str, int] = field(default_factory=dict)


def size_key(context: Context, state: State, weapon: Weapon, target: str) -> str:
    """3.7: a heavy machine gun fires as class 0 at tanks and class 1 at armoured cars."""
    if weapon.fire == "small-arms" and weapon.mg == "heavy":
        return "hmg-vs-tank" if context.type_of(state["units"][target]).cls == "tank" else "hmg-vs-armoured-car"
    return weapon.size


def work_out(context: Context, state: State, fbid: str, weapon: Weapon, target: str, moving: bool,
             observers: list[str] | None = None) -> Gun:
    """The shot of base `fbid` at unit `target`. `observers` (mortars, 3.4): bases whose sight
    of the target stands in for the mortar's own; the mortar's own arc and range still apply."""
    units = state["units"]
    firer = state["bases"][fbid]["unit"]
    blocking = blockers(context, state, firer, target, weapon)
    in_line = [t for t in bases_of(state, target) if line_of_fire(context, state, fbid, t, weapon, blocking)]
    if not in_line and observers:
        in_line = observed(context, state, fbid, target, weapon, observers)
    me = footprint(context.type_of(units[firer]), state["bases"][fbid])
    tkind = context.type_of(units[target])
    aim = min(in_line, key=lambda t: (dist2(context, me.shape, footprint(tkind, state["bases"][t]).shape), t),
              default=None)
    gun = Gun(fbid, target, aim, in_line)
    if aim is None:
        return gun
    hit, kill = context.tables["artillery_modifiers"]["hit"], context.tables["artillery_modifiers"]["kill"]
    tbase = state["bases"][aim]
    tshape = footprint(tkind, tbase)
    cover = terrain_cover(context, state["bases"], aim, units)
    if tkind.size in ("small", "large"):
        gun.hit[tkind.size] = hit[tkind.size]
    if cover is None and not units[target]["moved"]:
        gun.hit["stationary_open"] = hit["stationary_open"]
    if cover in ("solid", "hard"):
        gun.hit[cover] = hit[cover]
    if tkind.infantry and len(packed_bases(context, state, in_line)) >= 2:
        gun.hit["packed"] = hit["packed"]
    d2 = closest2(context, [me.shape], [footprint(tkind, b).shape for b in bases_of(state, target).values()])
    near, far = int(context.tables["distances"]["short_range"]), int(context.tables["distances"]["small_arms_long"])
    longest = int(context.tables["distances"]["artillery_long"])
    if far * far <= d2 <= longest * longest:
        gun.hit["long_range"] = hit["long_range"]
    if moving:
        gun.hit["moved"] = hit["moved"]
    if units[firer]["demoralized"]:
        gun.hit["demoralized"] = hit["demoralized"]
    if state["bases"][fbid]["damaged"]:
        gun.hit["damaged"] = hit["damaged"]
    if d2 < near * near:
        gun.kill["under_200"] = kill["under_200"]
    if tkind.vehicle and tkind.cls != "gun" and not plane.Arc(tshape.front_centre, tshape.facing, 45).holds(me.shape):
        gun.kill["flank_rear"] = kill["flank_rear"]
    gun.size = int(context.tables["weapon_size"][size_key(context, state, weapon, target)])
    gun.armour = tkind.armour
    return gun


def observed(context: Context, state: State, fbid: str, target: str, weapon: Weapon, observers: list[str]) -> list[str]:
    """3.4: a mortar fires on what a friendly base within 120 yards, in its line of sight, observes.
    The mortar's field of fire and range still bound the target bases."""
    from .geometry import clear_sight, in_field
    from .lines import arc_of

    units = state["units"]
    me = footprint(context.type_of(units[state["bases"][fbid]["unit"]]), state["bases"][fbid])
    reach = int(context.tables["distances"]["observer"])
    tkind = context.type_of(units[target])
    found: list[str] = []
    for obid in observers:
        ob = footprint(context.type_of(units[state["bases"][obid]["unit"]]), state["bases"][obid])
        if obid == fbid or not plane.within(me.shape, ob.shape, reach) or not clear_sight(context, me, ob):
            continue
        for tbid in bases_of(state, target):
            tb = footprint(tkind, state["bases"][tbid])
            if (tbid not in found and clear_sight(context, ob, tb) and plane.within(me.shape, tb.shape, weapon.range)
                    and in_field(me, weapon.edges, arc_of(context, state, fbid, weapon), tb.shape)):
                found.append(tbid)
    return sorted(found)
