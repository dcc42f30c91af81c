"""Tank aspects (V2): which arc of a tank an observer stands in. Vehicles are not in play yet
(docs/bst.md); this is the geometry their fire will be judged by.

The front arc is 45 degrees either side of the tank's centre line, from the middle of its
front edge; the side arc is all that lies behind the line of its front edge; the flank arc is
between. It is the observer's position that counts, not where the line of sight meets the
tank, and to claim the flank or the side the observer must be wholly in it.
"""

from __future__ import annotations

from pbem.geometry import plane

FRONT_HALF = 45  # V2; data/tables.yaml tank_front_arc holds the same value for when vehicles come


def aspect(tank: plane.Base, observer: plane.Shape, front_half: int = FRONT_HALF) -> str:
    """V2: "front", "flank" or "side"."""
    if plane.Arc(tank.front_centre, tank.facing, front_half).touches(observer):
        return "front"
    if plane.Arc(tank.front_centre, tank.facing, 90).touches(observer):
        return "flank"
    return "side"
