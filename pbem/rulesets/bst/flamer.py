"""Flame-throwers (W11): a template, not fire markers dealt along a chain.

The flame-thrower turns to face its one target and lays its template, 3 cm by 9 cm, from
the middle of its front edge toward the target (our reading of where W11 points the template's
arrow: along the line between the two centres). Every base with any part under the
template, friend or foe, takes 4 fire markers. A flame-thrower resolving markers throws one
die more, and a single Kill removes it.
"""

from __future__ import annotations

from pbem.geometry import plane

from .stands import Stand
from .tables import Tables


def template(tables: Tables, flamer: Stand, target: Stand) -> plane.Base:
    """W11: the template of a flame-thrower turned toward its target."""
    heading = plane.bearing(flamer.centre, target.centre)
    front = flamer.base.placed(flamer.centre, heading).front_centre
    width, length = tables.values["flamer_template"]
    step = plane.direction(heading)
    middle = plane.point_along(front, (front[0] + step[0], front[1] + step[1]), int(length) // 2)
    return plane.Base(middle, heading, int(width), int(length))


def under(tables: Tables, flamer: Stand, target: Stand, stands: list[Stand]) -> list[str]:
    """W11: the bases with any part under the template, in id order (the flamer excepted)."""
    shape = template(tables, flamer, target).shape
    return sorted(s.id for s in stands if s.id != flamer.id and plane.overlap(shape, s.shape))


def reaches(tables: Tables, flamer: Stand, target: Stand) -> bool:
    """W11: whether the template reaches the target."""
    return plane.overlap(template(tables, flamer, target).shape, target.shape)
