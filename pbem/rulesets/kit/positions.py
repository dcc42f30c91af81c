"""Positions by mail: the order words a player uses to move bases on a table, and their check.

A player reads positions off the table picture (its grid is labelled in the table's unit) and
writes one of these in a move order (the ruleset decides which key holds it and who moves):

    to: [640, 420]                 # the reference base's centre ends here
    path: [[500, 300], [640, 420]] # through these waypoints, in order
    toward: [900, 420]             # in the direction of a point (it may go past it) ...
    distance: 120                  # ... this far, or `max` (as far as allowed; the default)
    face: 90                       # then face this way (whole degrees, 0 = the table's up)
    face: [900, 500]               # or face toward a point

Every base that moves keeps its offset from the reference base (a formation move is a
translation); `face` then turns each base about its own centre. A clause with only `face`
turns the bases where they stand.

Each leg of a route is counted in whole units, rounded up (`plane.leg_length`), so a route
of many short legs counts a little longer than the line it draws.

`plan_move` checks a clause against the allowance and the table, and works out where the
move really ends: a `toward` with `max` (or a distance beyond the allowance) is cut to the
allowance, and with obstacles (say enemy bases within contact reach) the move stops at the
first whole unit where it comes within reach. A `to` or `path` longer than the allowance, or
one that leaves the table, is refused with the length, the allowance and the furthest legal
point. Everything here is integer geometry from `pbem.geometry.plane`; the only inputs are
what the moving side knows (its own bases, the table, the allowance), so `pbem check` from a
side's view gives the same verdict as the referee, except for stops at things the side
cannot see, which are outcomes, not refusals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from pbem.core.errors import DocPath, Problem
from pbem.geometry.plane import Base, Point, Shape, Stop, bearing, first_stop, path_length, point_along_path
from pbem.geometry.tablemap import MAX_SIZE

POINT_SCHEMA: dict[str, Any] = {
    "type": "array", "items": {"type": "integer", "minimum": -MAX_SIZE, "maximum": 2 * MAX_SIZE},
    "minItems": 2, "maxItems": 2,
    "description": "[x, y] in whole table units: x to the east, y to the north, from the south-west corner",
}

FACING_SCHEMA: dict[str, Any] = {
    "oneOf": [{"type": "integer", "minimum": 0, "maximum": 359,
               "description": "whole degrees, 0 = the table's up (north), clockwise"},
              POINT_SCHEMA],
}

MOVE_KEYS = ("to", "path", "toward", "distance", "face")


def move_schema(*, required: Sequence[str] = (), extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema of a move clause; `extra` adds the ruleset's own keys (e.g. which unit).

    At most one of `to`, `path`, `toward`; `distance` only with `toward`; at least one of them
    or `face`.
    """
    properties: dict[str, Any] = {
        "to": POINT_SCHEMA,
        "path": {"type": "array", "items": POINT_SCHEMA, "minItems": 1, "maxItems": 32},
        "toward": POINT_SCHEMA,
        "distance": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "max"}]},
        "face": FACING_SCHEMA,
    }
    properties.update(extra or {})
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(required),
        "properties": properties,
        "anyOf": [{"required": [key]} for key in ("to", "path", "toward", "face")],
        "not": {"anyOf": [{"required": ["to", "path"]}, {"required": ["to", "toward"]},
                          {"required": ["path", "toward"]}]},
        "dependentRequired": {"distance": ["toward"]},
    }


@dataclass(frozen=True)
class Table:
    """What a move is checked against: the table's size and unit (the footprint must stay on
    it), and the rule section that sets the allowance, for the messages."""

    width: int
    depth: int
    unit: str
    section: str

    def holds(self, shape: Shape) -> bool:
        """Whether the whole shape lies on the table (edges included)."""
        w, s, e, n = shape.box
        return w >= 0 and s >= 0 and e <= self.width and n <= self.depth


@dataclass(frozen=True)
class Movement:
    """Where a move ends. `path` is the reference point's path actually travelled (its first
    point the start); `length` counts it as `plane.path_length` does; `stop` says what cut it
    short; `clamped` that the allowance or the table edge did."""

    bases: dict[str, Base]
    path: tuple[Point, ...]
    length: int
    stop: Stop | None
    clamped: bool

    @property
    def end(self) -> Point:
        """The reference point where the move ends."""
        return self.path[-1]


Penalty = Callable[[Sequence[Point]], int]


def plan_move(clause: Mapping[str, Any], bases: Mapping[str, Base], reference: str, allowance: int,
              table: Table, *, obstacles: Sequence[tuple[str, Shape]] = (), reach: int = 0,
              penalty: Penalty | None = None, order: int | None = None,
              where: DocPath = ()) -> tuple[Movement | None, list[Problem]]:
    """Check a move clause for the `bases` (their ids to where they stand now), moving with
    `reference` as the point the clause speaks of, with `allowance` whole units.

    `penalty(path)` gives the units a path costs beyond its length (e.g. entering cover); the
    allowance left for the path is `allowance - penalty(path)`. Obstacles stop the move at
    the first whole unit within `reach` (not refused: the messages are the caller's events).
    Returns the movement, or None and the problems (each naming `where` + the clause's key).
    """
    start = bases[reference].centre
    unit = table.unit
    problems: list[Problem] = []

    def refuse(key: str, message: str, legal: str) -> tuple[None, list[Problem]]:
        problems.append(Problem(message, order=order, path=(*where, key), section=table.section, legal=legal))
        return None, problems

    clamped = False
    if "to" in clause:
        key, route = "to", [start, _point(clause["to"])]
    elif "path" in clause:
        key, route = "path", [start, *(_point(p) for p in clause["path"])]
    elif "toward" in clause:
        key = "toward"
        target = _point(clause["toward"])
        if target == start:
            return refuse(key, f"toward {_show(target)} is where the base already stands", "a point elsewhere")
        wanted = clause.get("distance", "max")
        far = 10 * (table.width + table.depth)  # beyond any table: the ray is cut below
        route = [start, _extend(start, target, far)]
        if wanted != "max":
            if wanted > allowance:
                wanted, clamped = allowance, True
            route = [start, point_along_path(route, wanted)]
        route, cut = _clamp(route, allowance, penalty)
        clamped = clamped or cut or wanted == "max"
        route = _keep_on_table(route, bases, start, table)
    else:
        key, route = "face", [start]

    if key in ("to", "path"):
        length = path_length(route)
        extra = penalty(route) if penalty else 0
        if length + extra > allowance:
            furthest = _keep_on_table(_clamp(route, allowance, penalty)[0], bases, start, table)[-1]
            cost = f" and costs {extra} {unit} more for terrain" if extra else ""
            return refuse(key, f"the move is {length} {unit} long{cost}, but the allowance is {allowance} {unit}",
                          f"a shorter move; along this route the furthest legal point is {_show(furthest)}")
        for i, point in enumerate(route[1:], start=1):
            if not _fits(bases, start, point, table):
                on_table = _keep_on_table(route[: i + 1], bases, start, table)[-1]
                return refuse(key, f"at {_show(point)} the move leaves the table "
                              f"(0 to {table.width} by 0 to {table.depth} {unit})",
                              f"a route on the table; along this one the furthest point on it is {_show(on_table)}")

    stop: Stop | None = None
    if obstacles and len(route) > 1:
        footprint = [base.shape for base in bases.values()]
        stop = first_stop(footprint, route, obstacles, reach)
        if stop is not None:
            route = _route_to(route, stop.distance)
    end = route[-1]
    dx, dy = end[0] - start[0], end[1] - start[1]
    moved: dict[str, Base] = {}
    for uid, base in bases.items():
        centre = (base.centre[0] + dx, base.centre[1] + dy)
        facing = base.facing
        if "face" in clause:
            face = clause["face"]
            facing = face if isinstance(face, int) else bearing(centre, _point(face))
        moved[uid] = base.placed(centre, facing)
        if not table.holds(moved[uid].shape):
            return refuse("face", f"facing {facing} turns {uid} at {_show(centre)} partly off the table",
                          "a facing that keeps the whole base on the table, or a move away from the edge first")
    return Movement(moved, tuple(route), path_length(route), stop, clamped), problems


def _point(value: Sequence[int]) -> Point:
    return value[0], value[1]


def _show(p: Point) -> str:
    return f"[{p[0]}, {p[1]}]"


def _extend(start: Point, target: Point, far: int) -> Point:
    """A point `far` or more beyond start along start -> target (whole units, exact direction)."""
    dx, dy = target[0] - start[0], target[1] - start[1]
    k = max(1, -(-far // max(abs(dx), abs(dy))))
    return start[0] + dx * k, start[1] + dy * k


def _route_to(route: Sequence[Point], distance: int) -> list[Point]:
    """The route cut at `distance` along it."""
    out = [route[0]]
    left = distance
    for p, q in zip(route, route[1:]):
        if left <= 0:
            return out
        leg = path_length([p, q])
        if left < leg:
            out.append(point_along_path([p, q], left))
            return out
        out.append(q)
        left -= leg
    return out


def _clamp(route: list[Point], allowance: int, penalty: Penalty | None) -> tuple[list[Point], bool]:
    """The longest start of the route the allowance pays for, and whether it is shorter than
    the route. The cost of a start, its length plus its penalty, never falls as it grows, so
    a binary search over whole units finds it."""
    def cost(route_part: list[Point]) -> int:
        return path_length(route_part) + (penalty(route_part) if penalty else 0)

    if cost(route) <= allowance:
        return route, False
    lo, hi = 0, min(path_length(route), allowance)  # the start of length lo is paid for
    if cost(_route_to(route, hi)) <= allowance:
        return _route_to(route, hi), True
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if cost(_route_to(route, mid)) <= allowance:
            lo = mid
        else:
            hi = mid
    return _route_to(route, lo), True


def _fits(bases: Mapping[str, Base], start: Point, at: Point, table: Table) -> bool:
    dx, dy = at[0] - start[0], at[1] - start[1]
    return all(table.holds(base.shape.moved(dx, dy)) for base in bases.values())


def _keep_on_table(route: list[Point], bases: Mapping[str, Base], start: Point, table: Table) -> list[Point]:
    """The route up to the last whole unit at which every base is still on the table."""
    total = path_length(route)
    if _fits(bases, start, route[-1], table):
        return route
    lo, hi = 0, total  # on the table at lo (the start), off at hi; the table is convex
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _fits(bases, start, point_along_path(route, mid), table):
            lo = mid
        else:
            hi = mid
    return _route_to(route, lo)
