"""Small arms fire (3.1) and its modifiers (3.5), judged on the firing side's board.

A unit fires as a whole with one die. Its firing bases are those with a line of fire to some
base of the target (lines.py); bases prone in a trench, pillbox or bunker cannot fire (3.4),
and target bases prone in a trench cannot be fired on by small arms (3.4). Strength (3.5)
counts the firing bases against the bases the unit started with: more than two thirds fire at
full strength, two thirds or less weak, one third or less remnant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.core.ruleset import State
from pbem.geometry import plane

from .context import Context, Weapon
from .geometry import COVER_RANK, closest2, dist2, flank_zones, footprint, in_kind, terrain_cover
from .lines import blockers, targets_in_line
from .state import bases_of

TRENCH_LIKE = "hides_movers"  # trenches (3.4: prone there, no fire; moving along, crouching)


@dataclass
class Shot:
    """One fire worked out: who fires, at which bases, with which modifiers (section by key)."""

    firer: str
    target: str
    weapon: Weapon
    firing: list[str]
    in_line: list[str]  # target bases some firing base has a line of fire to
    modifiers: dict[str, int] = field(default_factory=dict)
    packed_first: bool = False  # 3.3: removal begins with the packed bases


def fires_from(context: Context, state: State, bid: str) -> bool:
    """3.4: a base prone in a trench, pillbox or bunker cannot fire."""
    base = state["bases"][bid]
    if not base["prone"]:
        return True
    shape = footprint(context.type_of(state["units"][base["unit"]]), base).shape
    return not (in_kind(context, shape, TRENCH_LIKE) or in_kind(context, shape, "holds"))


def small_arms_target(context: Context, state: State, bid: str) -> bool:
    """3.4: a base prone in a trench cannot be fired upon by small arms."""
    base = state["bases"][bid]
    shape = footprint(context.type_of(state["units"][base["unit"]]), base).shape
    return not (base["prone"] and in_kind(context, shape, TRENCH_LIKE))


def shapes(context: Context, state: State, bids: list[str]) -> list[plane.Shape]:
    return [footprint(context.type_of(state["units"][state["bases"][b]["unit"]]), state["bases"][b]).shape
            for b in bids]


def packed_bases(context: Context, state: State, bids: list[str]) -> list[str]:
    """The bases within 10 yards of another of them (3.3, 3.5)."""
    reach = int(context.tables["distances"]["packed"])
    found = shapes(context, state, bids)
    return [b for i, b in enumerate(bids)
            if any(i != j and plane.within(found[i], found[j], reach) for j in range(len(bids)))]


def work_out(context: Context, state: State, firer: str, weapon: Weapon, target: str, moving: bool) -> Shot:
    """The shot of unit `firer` with `weapon` at unit `target` (firing may come out empty)."""
    candidates = {b: e for b, e in bases_of(state, target).items() if small_arms_target(context, state, b)}
    blocking = blockers(context, state, firer, target, weapon)
    firing, in_line = [], set()
    for fbid in bases_of(state, firer):
        if not fires_from(context, state, fbid):
            continue
        seen = targets_in_line(context, state, fbid, target, weapon, candidates, blocking)
        if seen:
            firing.append(fbid)
            in_line.update(seen)
    shot = Shot(firer, target, weapon, firing, sorted(in_line))
    if firing:
        modifiers(context, state, shot, moving)
    return shot


def modifiers(context: Context, state: State, shot: Shot, moving: bool) -> None:
    """Every 3.5 modifier that applies, by name, with the table's value."""
    table = context.tables["small_arms_modifiers"]
    units = state["units"]
    firer, target = units[shot.firer], units[shot.target]
    tkind = context.type_of(target)
    mods: dict[str, int] = {}
    # weak or remnant: killed and masked bases are both unavailable
    n, f = int(firer["strength"]), len(shot.firing)
    if 3 * f <= n:
        mods["remnant"] = table["remnant"]
    elif 3 * f <= 2 * n:
        mods["weak"] = table["weak"]
    enfiladed = tkind.infantry and enfilade(context, state, shot)
    if enfiladed:
        mods["enfilade"] = table["enfilade"]
    if shot.weapon.mg == "heavy":
        mods["hmg"] = table["hmg"]
    if shot.weapon.mg == "light":
        mods["lmg"] = table["lmg"]
    packed = len(packed_bases(context, state, shot.in_line)) >= 2
    if packed:
        mods["packed"] = table["packed"]
    shot.packed_first = packed or enfiladed
    tbases = bases_of(state, shot.target)
    count = len(tbases)
    if 2 * sum(1 for b in tbases.values() if b["rushed"]) >= count:
        mods["rushing"] = table["rushing"]
    if 2 * sum(1 for b in tbases.values() if b["prone"]) >= count:
        mods["prone"] = table["prone"]
    cover = target_cover(context, state, shot)
    if cover is not None:
        mods[cover] = table[cover]
    if tkind.shield:
        mods["shield"] = table["solid"]
    if moving:
        mods["moving"] = table["moving"]
    unit = shapes(context, state, sorted(bases_of(state, shot.firer)))  # 3.5: the firing unit's closest point
    d2 = closest2(context, unit, shapes(context, state, sorted(tbases)))
    near, far = int(context.tables["distances"]["short_range"]), int(context.tables["distances"]["small_arms_long"])
    if near * near <= d2 <= far * far:
        mods["long_range"] = table["long_range"]
    if firer["demoralized"]:
        mods["demoralized"] = table["demoralized"]
    shot.modifiers = mods


def target_cover(context: Context, state: State, shot: Shot) -> str | None:
    """3.5: the best cover type half or more of the target's bases have (a base in better cover
    counts for the worse too); a tank of the target's side covers one personnel base behind it
    (the line from the firing base nearest to it passes through the tank) as solid cover."""
    tbases = bases_of(state, shot.target)
    kinds: dict[str, int] = {}
    for bid in tbases:
        kinds[bid] = COVER_RANK.get(terrain_cover(context, state["bases"], bid, state["units"]) or "", 0)
    for bid in chassis_covered(context, state, shot):
        kinds[bid] = max(kinds[bid], COVER_RANK["solid"])
    best = None
    for name, rank in sorted(COVER_RANK.items(), key=lambda item: item[1]):
        if 2 * sum(1 for r in kinds.values() if r >= rank) >= len(tbases):
            best = name
    return best


def chassis_covered(context: Context, state: State, shot: Shot) -> list[str]:
    """3.5: each tank of the target's side covers the first personnel base (id order) that the
    line from the firing base nearest to it passes the tank to reach."""
    units = state["units"]
    side = units[shot.target]["side"]
    if not context.type_of(units[shot.target]).personnel or context.type_of(units[shot.target]).vehicle:
        return []
    tanks = [(bid, footprint(context.type_of(units[b["unit"]]), b).shape) for bid, b in sorted(state["bases"].items())
             if units[b["unit"]]["side"] == side and context.type_of(units[b["unit"]]).cls == "tank"]
    if not tanks:
        return []
    used: set[str] = set()
    covered = []
    eyes = [footprint(context.type_of(units[shot.firer]), state["bases"][b]).centre for b in shot.firing]
    for bid, base in bases_of(state, shot.target).items():
        centre = (int(base["at"][0]), int(base["at"][1]))
        fc = min(eyes, key=lambda eye: (plane.dist2(eye, centre), eye))  # the firing base nearest, centre to centre
        for tank in plane.passes_near(fc, centre, [t for t in tanks if t[0] not in used], 0):
            used.add(tank)
            covered.append(bid)
            break
    return covered


def enfilade(context: Context, state: State, shot: Shot) -> bool:
    """3.5: the target is in close order (its enfiladed stands within 10 yards of each other) and a
    machine gun base lies in the flank zones of two such stands, or half or more of an infantry
    unit's firing bases each do. Only stands the firer has a line of fire to count."""
    reach = int(context.tables["distances"]["flank_zone"])
    units = state["units"]
    tkind = context.type_of(units[shot.target])
    zones = {b: flank_zones(footprint(tkind, state["bases"][b]), reach) for b in shot.in_line}
    flanked = 0
    for fbid in shot.firing:
        me = footprint(context.type_of(units[shot.firer]), state["bases"][fbid]).shape
        stands = [b for b in shot.in_line if any(plane.overlap(me, z) for z in zones[b])]
        if len(packed_bases(context, state, stands)) >= 2:
            flanked += 1
    if shot.weapon.mg != "none":
        return flanked >= 1
    return 2 * flanked >= len(shot.firing)


def chart_result(chart: list[Any], total: int) -> str:
    """The result of the last row whose least total is reached."""
    found = "-"
    for least, result in chart:
        if total >= least:
            found = str(result)
    return found
