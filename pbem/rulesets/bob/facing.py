"""Where a gun or vehicle points (V4) and which armour a shot meets (V6): exact hex geometry.

A facing is a number 0-5: the arrow points at the hex spine (corner) between hexside N and
hexside N+1, counted clockwise from 0 = up as `pbem.geometry.hexgrid` numbers directions. Its two
front hexes are the neighbours across those hexsides (V3: a vehicle moves into one of them).

The firing arc (V4) is the cone the two front hexes make, widening outward: the target's centre
lies in the closed 60-degree cone between the directions of hexside N and hexside N+1 (a hex on
either edge row is in the arc).

Front armour (V6): the thread from the firer's centre reaches the target through one of the
target's two front hexsides, i.e. the firer's centre lies in the closed 120-degree cone from the
spine before hexside N to the spine after hexside N+1. A thread running exactly along one of those
two spines (the border between front and side) is in the cone: the armour better for the target.

Every test is a sign of an integer cross product in cube coordinates, which keeps the orientation
of the drawn map, so no angle is ever computed.
"""

from __future__ import annotations

from pbem.geometry.hexgrid import CUBE_DIRECTIONS, Cube

from .context import Context


def _cross(a: Cube, b: Cube) -> int:
    return a.q * b.r - a.r * b.q


def _in_cone(v: Cube, first: Cube, last: Cube) -> bool:
    """v lies in the closed cone turning from `first` to `last` (less than a half turn apart)."""
    turn = _cross(first, last)
    if v.length() == 0:
        return False
    return _cross(first, v) * turn >= 0 and _cross(v, last) * turn >= 0


def _offset(ctx: Context, origin: str, target: str) -> Cube:
    grid = ctx.hexes.grid
    return grid.to_cube(target) - grid.to_cube(origin)


def _direction(index: int) -> Cube:
    return CUBE_DIRECTIONS[index % 6]


def front_hexes(ctx: Context, hex_id: str, facing: int) -> tuple[str, str]:
    """V3: the two hexes a vehicle facing `facing` may move into, by direction (on the map's edge one
    or both may lie off it: "" then, which no path holds)."""
    grid = ctx.hexes.grid
    ahead = [grid.step(hex_id, direction % 6) for direction in (facing, facing + 1)]
    first, second = (h.id if h.has_id and ctx.hexes.on_map(h.id) else "" for h in ahead)
    return first, second


def in_arc(ctx: Context, origin: str, facing: int, target: str) -> bool:
    """V4: the target hex lies in the firing arc of a gun or vehicle in `origin`."""
    return _in_cone(_offset(ctx, origin, target), _direction(facing), _direction(facing + 1))


def facings_for(ctx: Context, origin: str, target: str) -> tuple[int, ...]:
    """Every facing whose arc holds the target (one, or two when it lies on an edge row)."""
    return tuple(f for f in range(6) if in_arc(ctx, origin, f, target))


def front_armour(ctx: Context, firer: str, target: str, facing: int) -> bool:
    """V6: the shot from `firer` meets the target's front armour (ties along a spine count as front)."""
    first = _direction(facing - 1) + _direction(facing)
    last = _direction(facing + 1) + _direction(facing + 2)
    return _in_cone(_offset(ctx, target, firer), first, last)


def turn_to(ctx: Context, origin: str, facing: int, target: str) -> int:
    """The facing holding the target that turns least from `facing` (ties: the lower number)."""
    options = facings_for(ctx, origin, target)
    if facing in options:
        return facing
    return min(options, key=lambda f: (min((f - facing) % 6, (facing - f) % 6), f))
