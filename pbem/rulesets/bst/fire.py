"""Firing (F2-F10): who may fire at what, how many fire markers, and where they go.

No dice are rolled by the firer (F4): an attack places fire markers, resolved when the
target activates (R1). The steps, in the order of the Firing Summary (F10):

1. each firing base's markers from Table 2 (F3), the long column and 15 cm on the move (F6),
   one less with a Kill marker; bases in contact of one unit firing together pool them into
   one attack (F8);
2. the first target is the base of the unit fired at closest to the firers (F4); a base may
   not fire through another base (F2), outside its arc (F2, F6), nor when a friendly within
   short range is within a base width of its line of fire (F9);
3. the markers are dealt one by one along the chain of bases in contact and in sight (F4);
4. a base with cover against the attack discards one, never below one (F5);
5. a target at short range in the open resolves at once, at the end of the activation (F7).

Every reading of vague text is in docs/bst.md, "Exact readings".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from pbem.geometry import plane
from pbem.geometry.tablemap import TableMap

from .cover import cover_from
from .extras import paired, partners
from .sight import Smoke, blocker, section_of, sees
from .stands import Stand, in_contact, within_reach
from .tables import Tables


@dataclass(frozen=True)
class Refusal:
    """Why one base may not fire at one target: the heading and what would be legal."""

    section: str
    message: str
    legal: str


@dataclass(frozen=True)
class Distribution:
    """One attack's markers: `chain` in dealing order, `dealt` per base before cover,
    `markers` after the cover discard, `covered` the bases that discarded (or would have),
    `immediate` the bases that resolve at once (F7)."""

    chain: tuple[str, ...]
    dealt: Mapping[str, int]
    markers: Mapping[str, int]
    covered: tuple[str, ...]
    immediate: tuple[str, ...]


def markers_of(tables: Tables, firer: Stand, target: plane.Base, on_move: bool = False) -> int | None:
    """F3, F6: the markers one base fires at a target, or None when it is out of range.
    Ranges are edge to edge, closed (docs/bst.md)."""
    weapon = tables.weapon(firer.weapon)
    guns = 1
    if firer.vehicle is not None:
        guns = len(machine_guns(tables, firer, target.shape))
        if on_move or not guns:
            return None
    if on_move:
        if not within_reach(firer.base, target, tables.number("move_fire_range")):
            return None
        count = weapon.long
    elif within_reach(firer.base, target, tables.number("short_range")):
        count = weapon.short
    elif within_reach(firer.base, target, weapon.range):
        count = weapon.long
    else:
        return None
    if firer.kills:
        count -= tables.number("kill_penalty")
    return max(count, 0) * guns


def machine_guns(tables: Tables, tank: Stand, target: plane.Shape) -> list[str]:
    """V4: the tank's machine guns that bear on the target: the hull gun through the front arc
    (V2), the pintle gun all round but only when the tank is unbuttoned (V1)."""
    kind = tables.vehicle(str(tank.vehicle))
    found = []
    if kind.hull_mg and front_arc(tables, tank).touches(target):
        found.append("hull")
    if kind.pintle_mg and not tank.buttoned:
        found.append("pintle")
    return found


def front_arc(tables: Tables, tank: Stand) -> plane.Arc:
    """V2: the front arc, 45 degrees either side of the centre line from the front edge's middle."""
    return plane.Arc(tank.base.front_centre, tank.base.facing, tables.number("tank_front_arc"))


def vehicle_refusal(tables: Tables, firer: Stand, target: Stand) -> Refusal | None:
    """V1, V2, V4: what part III adds when a tank fires or a tank is fired at; None when it
    adds nothing. A tank fires its main gun at vehicles (through the front arc, within the
    gun's range) and its machine guns at anything else; small arms hurt only an unbuttoned
    tank; a buttoned tank sees no further than `buttoned_sight`."""
    if firer.vehicle is not None and firer.buttoned:
        sight = tables.number("buttoned_sight")
        if not within_reach(firer.base, target.base, sight):
            return Refusal("V1", f"{firer.id} is buttoned and sees no further than {sight} mm",
                           f"a target within {sight} mm, or unbutton (buttoned: false)")
    if target.vehicle is None:
        return None
    if firer.vehicle is None:
        if target.buttoned:
            return Refusal("V1", f"{target.id} is a buttoned tank: small arms cannot hurt it",
                           "infantry, or an unbuttoned tank")
        return None
    kind = tables.vehicle(firer.vehicle)
    if kind.gun_penetration <= 0:
        return Refusal("V4", f"{firer.id} has no main gun to fire at {target.id}", "infantry")
    if not within_reach(firer.base, target.base, kind.gun_range):
        return Refusal("V2", f"{target.id} is beyond {firer.id}'s gun range of {kind.gun_range} mm",
                       f"a vehicle within {kind.gun_range} mm, edge to edge")
    if not front_arc(tables, firer).touches(target.shape):
        return Refusal("V2", f"{target.id} is outside {firer.id}'s front arc: its main gun fires only there",
                       "a vehicle in its front arc (45 degrees either side), or pivot first")
    return None


def arc_of(tables: Tables, firer: Stand, heading: int | None = None) -> plane.Arc:
    """F2: the forward 180 degrees (HMGs 45 either side) from the front edge's centre; F6:
    45 either side of `heading`, the direction of movement, when firing on the move."""
    if heading is not None:
        return plane.Arc(firer.base.front_centre, heading, tables.number("move_fire_arc"))
    half = tables.number("hmg_arc") if firer.weapon == "hmg" else tables.number("front_arc")
    return plane.Arc(firer.base.front_centre, firer.base.facing, half)


def pivoted(tables: Tables, firer: Stand, facing: int) -> Stand | None:
    """F2: the firer turned about its centre to `facing`, or None when the turn is more than
    the pivot allowed before firing (a bigger turn is a move)."""
    if plane.turn_between(firer.base.facing, facing) > tables.number("pivot"):
        return None
    return firer.at(firer.base.placed(firer.centre, facing))


def closeness(firers: Sequence[Stand]) -> Callable[[Stand], tuple[object, ...]]:
    """F4: the sort key of 'closest to the firer': edge to edge, then centre to centre, then
    id; for a pooled attack (F8), the nearest of its firers counts."""
    def key(stand: Stand) -> tuple[object, ...]:
        return (min(plane.distance2(f.shape, stand.shape) for f in firers),
                min(plane.dist2(f.centre, stand.centre) for f in firers), stand.id)
    return key


def first_target(firers: Sequence[Stand], unit: Sequence[Stand]) -> Stand:
    """F4: the base of the unit fired at that is closest to the firers."""
    return min(unit, key=closeness(firers))


def in_the_way(firer: Stand, target: Stand, stands: Sequence[Stand]) -> list[str]:
    """F2: the bases the line of fire passes through (you shoot at the one in the way)."""
    others = [(s.id, s.shape) for s in stands if s.id not in (firer.id, target.id)]
    return plane.passes_near(firer.centre, target.centre, others, 0)


def friendlies_in_danger(tables: Tables, firer: Stand, target: Stand, stands: Sequence[Stand]) -> list[str]:
    """F9: the friendly bases within short range of the firer that lie within a base width
    of the line from the firer's centre to the target's. Bases in contact with the firer sit
    beside it, not in its line of fire, and are not counted (a base right in front is F2's
    base in the way)."""
    reach = tables.number("safety_zone_range")
    contact = tables.number("contact")
    near = [(s.id, s.shape) for s in stands
            if s.side == firer.side and s.id != firer.id and not in_contact(s, firer, contact)
            and plane.distance2(firer.shape, s.shape) <= reach * reach]
    return plane.passes_near(firer.centre, target.centre, near, tables.number("safety_zone_reach"))


def refusal(table: TableMap, tables: Tables, firer: Stand, target: Stand, stands: Sequence[Stand],
            smoke: Smoke = (), heading: int | None = None) -> Refusal | None:
    """Why this base may not fire at this target base, or None when it may (F2, F3, F6, F9).
    `heading` is the direction of movement when it fires on the move."""
    blocked = blocker(table, firer.base, target.base, smoke)
    if blocked is not None:
        return Refusal(section_of(table, blocked), f"{blocked} blocks {firer.id}'s line of sight to {target.id}",
                       "a base it sees")
    if heading is not None and (firer.weapon == "hmg" or firer.vehicle is not None):
        return Refusal("F6", f"{firer.id} fires as an HMG and may not fire on the move", "fire without moving")
    part_three = vehicle_refusal(tables, firer, target)
    if part_three is not None:
        return part_three
    main_gun = firer.vehicle is not None and target.vehicle is not None  # vehicle_refusal judged range and arc
    if firer.vehicle is not None and not main_gun and not machine_guns(tables, firer, target.shape):
        return Refusal("V4", f"{target.id} is outside {firer.id}'s hull machine gun's front arc, and its pintle gun "
                       "fires only unbuttoned", "a target in the front arc, or unbutton first")
    if not main_gun and markers_of(tables, firer, target.base, heading is not None) is None:
        reach = tables.number("move_fire_range") if heading is not None else tables.weapon(firer.weapon).range
        return Refusal("F6" if heading is not None else "F3", f"{target.id} is beyond {firer.id}'s range of {reach} mm",
                       f"a target within {reach} mm, edge to edge")
    if firer.vehicle is None and not arc_of(tables, firer, heading).touches(target.shape):
        if heading is not None:
            return Refusal("F6", f"{target.id} is not within 45 degrees of {firer.id}'s direction of movement",
                           "a target ahead of the move")
        return Refusal("F2", f"{target.id} is outside {firer.id}'s arc of fire", "a target in its front arc, or pivot first")
    blocking = in_the_way(firer, target, stands)
    if blocking:
        in_way = next(s for s in stands if s.id == blocking[0])
        legal = f"fire at {in_way.id}" if in_way.side != firer.side else "a target whose line of fire passes through no base"
        return Refusal("F2", f"{firer.id} would fire through {in_way.id}", legal)
    danger = friendlies_in_danger(tables, firer, target, stands)
    if danger:
        return Refusal("F9", f"friendly {danger[0]} is within a base width of {firer.id}'s line of fire",
                       "a target whose line of fire keeps a base width from friendlies within short range")
    return None


def chain(table: TableMap, firers: Sequence[Stand], first: Stand, stands: Sequence[Stand], contact: int,
          smoke: Smoke = ()) -> list[Stand]:
    """F4: the bases the markers are dealt to, in order. From the first target, each next
    base is the closest to the firers among those not yet in the chain that are in contact
    with a base in it and that a firer sees; friend or foe alike."""
    firing = {f.id for f in firers}
    order = [first]
    taken = {first.id}
    key = closeness(firers)
    candidates = [s for s in stands if s.id not in firing and s.id != first.id]
    while True:
        frontier = [s for s in candidates if s.id not in taken
                    and any(in_contact(s, c, contact) for c in order)
                    and any(sees(table, f.base, s.base, smoke) for f in firers)]
        if not frontier:
            return paired(order, partners(stands, contact), firing)
        step = min(frontier, key=key)
        order.append(step)
        taken.add(step.id)


def deal(order: Sequence[Stand], markers: int) -> dict[str, int]:
    """F4: one marker at a time along the chain, from its start again when it ends."""
    counts = {s.id: 0 for s in order}
    for i in range(markers):
        counts[order[i % len(order)].id] += 1
    return counts


def discard_for_cover(dealt: Mapping[str, int], covered: Sequence[str]) -> dict[str, int]:
    """F5: a covered base drops one marker of this attack, to a minimum of one."""
    return {sid: n - 1 if sid in covered and n >= 2 else n for sid, n in dealt.items()}


def distribute(table: TableMap, tables: Tables, firers: Sequence[Stand], first: Stand, stands: Sequence[Stand],
               markers: int, smoke: Smoke = ()) -> Distribution:
    """F4, F5, F7, F8: one attack of `markers` markers from `firers` (pooled) at `first`."""
    order = chain(table, firers, first, stands, tables.number("contact"), smoke)
    dealt = deal(order, markers)
    covered = tuple(s.id for s in order
                    if all(cover_from(table, f.centre, s.base) is not None for f in firers))
    after = discard_for_cover(dealt, covered)
    short = tables.number("short_range")
    immediate = tuple(s.id for s in order if after[s.id] > 0 and s.id not in covered
                      and any(plane.distance2(f.shape, s.shape) <= short * short for f in firers))
    return Distribution(tuple(s.id for s in order), dealt, after, covered, immediate)
