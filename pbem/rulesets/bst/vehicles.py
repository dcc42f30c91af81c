"""Tanks (part III): aspects (V2), convoys (V3) and the main gun against vehicles.

The front arc is 45 degrees either side of the tank's centre line, from the middle of its
front edge; the side arc is all that lies behind the line of its front edge; the flank arc is
between. It is the observer's position that counts, not where the line of sight meets the
tank, and to claim the flank or the side the observer must be wholly in it.

The text prints no anti-tank values: pbem's main gun (docs/bst.md, "Tanks") hits on a die of
`gun_to_hit` and then knocks the target out when a second die plus the gun's penetration
beats the armour of the aspect the firer stands in; both dice are public rolls, resolved at
once (there is nothing for the target's activation to resolve).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.core.chance import Dice
from pbem.core.ruleset import Event
from pbem.geometry import plane
from pbem.geometry.tablemap import TableMap

from .stands import Stand
from .tables import Tables

FRONT_HALF = 45  # V2; data/tables.yaml tank_front_arc holds the same value


def aspect(tank: plane.Base, observer: plane.Shape, front_half: int = FRONT_HALF) -> str:
    """V2: "front", "flank" or "side"."""
    if plane.Arc(tank.front_centre, tank.facing, front_half).touches(observer):
        return "front"
    if plane.Arc(tank.front_centre, tank.facing, 90).touches(observer):
        return "flank"
    return "side"


def on_road(table: TableMap, centre: plane.Point) -> bool:
    """V3: a vehicle is on a road when its centre lies within half the road's width of the
    road's centre line (the road kind's `width`)."""
    for road in table.of_kind("road"):
        half = int(road.properties.get("width", 0)) // 2
        if any(plane.point_near_segment(centre, a, b, half) for a, b in road.shape.edges):
            return True
    return False


def convoy_problems(tables: Tables, table: TableMap, tanks: Sequence[Stand]) -> list[tuple[str, str]]:
    """V3: (message, what is legal) for each way these tanks (the drawn one first) fail to be
    a convoy: every one on a road, facing within `convoy_heading` of the first, and in single
    file, front to back along the first's facing (each wholly behind the one in front, their
    depths not overlapping along that heading), each within `convoy_gap` (edge to edge) of
    the one in front of it."""
    lead = tanks[0]
    found = []
    in_line = []
    for tank in tanks:
        if not on_road(table, tank.centre):
            found.append((f"{tank.id} is not on a road", "tanks whose centres are on a road"))
        if plane.turn_between(tank.base.facing, lead.base.facing) > tables.number("convoy_heading"):
            found.append((f"{tank.id} does not head the same way as {lead.id}",
                          f"tanks facing within {tables.number('convoy_heading')} degrees of {lead.id}"))
        elif on_road(table, tank.centre):
            in_line.append(tank)
    ahead = plane.direction(lead.base.facing)
    file = sorted(in_line, key=lambda t: (-(t.centre[0] * ahead[0] + t.centre[1] * ahead[1]), t.id))
    gap = tables.number("convoy_gap")
    for front, back in zip(file, file[1:]):
        behind = (front.centre[0] - back.centre[0]) * ahead[0] + (front.centre[1] - back.centre[1]) * ahead[1]
        if 2 * behind < (front.base.depth + back.base.depth) * plane.SCALE:
            found.append((f"{back.id} is beside {front.id}, not behind it",
                          f"tanks in single file: each wholly behind the one in front along {lead.id}'s heading"))
        elif plane.distance2(front.shape, back.shape) > gap * gap:
            found.append((f"{back.id} is more than {gap} mm behind {front.id}",
                          f"each tank within {gap} mm of the one in front"))
    return found


def gun_shot(tables: Tables, dice: Dice, firer: Stand, target: Stand) -> tuple[Event, bool]:
    """The main gun at a vehicle: the event, and whether the target is knocked out."""
    kind = tables.vehicle(str(firer.vehicle))
    facing = aspect(target.base, firer.shape, tables.number("tank_front_arc"))
    armour = tables.vehicle(str(target.vehicle)).armour[facing]
    to_hit = tables.number("gun_to_hit")
    roll = dice.die(6, f"V2 gun to hit {firer.id} at {target.id}")
    event: dict[str, Any] = {"type": "gun-fired", "section": "V2", "unit": firer.unit, "tank": firer.id,
                             "target": target.id, "aspect": facing, "armour": armour, "to_hit": to_hit, "roll": roll}
    knocked = False
    if roll >= to_hit:
        strike = dice.die(6, f"V2 penetration {firer.id} at {target.id}")
        knocked = strike + kind.gun_penetration > armour
        event.update(penetration=strike, knocked_out=knocked)
    return event, knocked


def hatches(entry: Mapping[str, Any]) -> str:
    return "buttoned" if entry.get("buttoned") else "unbuttoned"
