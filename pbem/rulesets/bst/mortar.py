"""Mortar bomb deviation (W7): where a bomb lands.

One die gives the direction, six of them 60 degrees apart measured from the line of fire
(docs/bst.md reading): 2 long (straight on, away from the mortar), 3 long right, 6 short
right, 5 short (straight back toward the mortar), 4 short left, 1 long left. One die (the
mortar sees the target) or two added (it does not) give the distance in cm.
"""

from __future__ import annotations

from pbem.geometry import plane

from .tables import Tables

# the turn from "long" for each face, in steps of the table's deviation_step (60 degrees)
STEPS = {2: 0, 3: 1, 6: 2, 5: 3, 4: 4, 1: 5}


def deviation_bearing(tables: Tables, mortar: plane.Point, aim: plane.Point, face: int) -> int:
    """W7: the bearing the bomb drifts along for a direction die of `face`."""
    return (plane.bearing(mortar, aim) + STEPS[face] * tables.number("deviation_step")) % 360


def landing(tables: Tables, mortar: plane.Point, aim: plane.Point, face: int, distance_dice: int) -> plane.Point:
    """W7: the point where the bomb lands: the aim moved `distance_dice` cm along the
    deviation (each coordinate truncated toward the aim point)."""
    heading = deviation_bearing(tables, mortar, aim, face)
    step = plane.direction(heading)
    far = (aim[0] + step[0], aim[1] + step[1])
    return plane.point_along(aim, far, distance_dice * tables.number("deviation_unit"))
