"""Exact plane geometry for miniatures on an open table: whole units, integers only.

Everything a rule may depend on is decided here by integer arithmetic, so an audit replays
the same answers on any machine. No float, no `math.sin`, no true division: a static test
(`tests/test_plane_exact.py`) reads this module and fails on any of them.

Conventions
- A point is `(x, y)` in whole table units (millimetres for bst, yards for wtj1916; the table
  map says which). x grows to the east, y to the north; the origin is the south-west corner.
- A facing is whole degrees, 0 = the table's north, growing clockwise (90 = east).
- Directions come from one fixed table, `sine.json`: the sine of every whole degree 0..90
  times 2^20 (`SCALE`), rounded to the nearest integer. `direction(f)` is the vector
  (sin f, cos f) in those units; every other angle is a cross or dot product with one.
- Rounding, wherever a result must be a whole unit, is one rule: to the nearest unit, a half
  toward +infinity (`round_div`). Two exceptions, both on the safe side of an allowance:
  `point_along` truncates toward the start (a move never ends beyond its allowance) and
  `leg_length` rounds up (a path is never shorter than its true length).
- Closed sets: a point on a polygon's edge is in the polygon; two shapes that touch are at
  distance 0; "within r" includes exactly r.
- A squared distance is compared, never its square root; where a distance must be a
  number it is a `Fraction` of squared units or a whole number rounded as stated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from importlib import resources
from math import isqrt
from typing import Iterable, Sequence

Point = tuple[int, int]

_TRIG = json.loads(resources.files("pbem.geometry").joinpath("sine.json").read_text(encoding="utf-8"))
SCALE: int = _TRIG["scale"]
_SINE: tuple[int, ...] = tuple(_TRIG["sine"])
assert len(_SINE) == 91 and _SINE[0] == 0 and _SINE[90] == SCALE


# --- whole numbers -------------------------------------------------------------------------

def round_div(n: int, d: int) -> int:
    """n / d to the nearest integer, a half toward +infinity (d > 0)."""
    return (2 * n + d) // (2 * d)


def ceil_sqrt(n: int) -> int:
    """The least integer whose square is at least n (n >= 0)."""
    r = isqrt(n)
    return r if r * r == n else r + 1


def floor_sqrt_fraction(q: Fraction) -> int:
    """The greatest integer not above the square root of q (q >= 0)."""
    return isqrt(q.numerator // q.denominator)


# --- directions ------------------------------------------------------------------------------

def sine(degrees: int) -> int:
    """sin(degrees) times SCALE, from the shipped table (any whole number of degrees)."""
    d = degrees % 360
    if d <= 90:
        return _SINE[d]
    if d <= 180:
        return _SINE[180 - d]
    if d <= 270:
        return -_SINE[d - 180]
    return -_SINE[360 - d]


def cosine(degrees: int) -> int:
    """cos(degrees) times SCALE, from the same table."""
    return sine(degrees + 90)


def direction(facing: int) -> Point:
    """The unit vector of a facing, times SCALE: (east, north) = (sin f, cos f)."""
    return sine(facing), cosine(facing)


def offset(facing: int, right: int, forward: int) -> Point:
    """A base-frame offset (`right` of and `forward` of the centre) turned to table units,
    rounded by `round_div`."""
    s, c = sine(facing), cosine(facing)
    return round_div(right * c + forward * s, SCALE), round_div(forward * c - right * s, SCALE)


# --- points and segments ---------------------------------------------------------------------

def cross(o: Point, a: Point, b: Point) -> int:
    """The z of (a - o) x (b - o): > 0 when o, a, b turn counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def dot(o: Point, a: Point, b: Point) -> int:
    """(a - o) . (b - o)."""
    return (a[0] - o[0]) * (b[0] - o[0]) + (a[1] - o[1]) * (b[1] - o[1])


def dist2(p: Point, q: Point) -> int:
    """Squared distance between two points."""
    dx, dy = p[0] - q[0], p[1] - q[1]
    return dx * dx + dy * dy


def within_distance(p: Point, q: Point, reach: int) -> bool:
    """Whether two points are at most `reach` apart."""
    return dist2(p, q) <= reach * reach


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    """p on the closed segment ab, given that p, a, b are collinear."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the closed segments ab and cd share a point (touching counts)."""
    d1, d2 = cross(c, d, a), cross(c, d, b)
    d3, d4 = cross(a, b, c), cross(a, b, d)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)):
        return True
    return ((d1 == 0 and _on_segment(a, c, d)) or (d2 == 0 and _on_segment(b, c, d))
            or (d3 == 0 and _on_segment(c, a, b)) or (d4 == 0 and _on_segment(d, a, b)))


def point_segment_dist2(p: Point, a: Point, b: Point) -> Fraction:
    """Squared distance from p to the closed segment ab, exactly."""
    length2 = dist2(a, b)
    along = dot(a, p, b)
    if length2 == 0 or along <= 0:
        return Fraction(dist2(p, a))
    if along >= length2:
        return Fraction(dist2(p, b))
    c = cross(a, b, p)
    return Fraction(c * c, length2)


def point_near_segment(p: Point, a: Point, b: Point, reach: int) -> bool:
    """Whether p is at most `reach` from the closed segment ab (no fractions)."""
    length2 = dist2(a, b)
    along = dot(a, p, b)
    r2 = reach * reach
    if length2 == 0 or along <= 0:
        return dist2(p, a) <= r2
    if along >= length2:
        return dist2(p, b) <= r2
    c = cross(a, b, p)
    return c * c <= r2 * length2


def segment_dist2(a: Point, b: Point, c: Point, d: Point) -> Fraction:
    """Squared distance between the closed segments ab and cd, exactly."""
    if segments_meet(a, b, c, d):
        return Fraction(0)
    return min(point_segment_dist2(a, c, d), point_segment_dist2(b, c, d),
               point_segment_dist2(c, a, b), point_segment_dist2(d, a, b))


# --- shapes ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shape:
    """A point, a polyline (`closed=False`) or a simple polygon (`closed=True`), in whole units.

    A polygon's points go round its boundary once, either way round, without repeating the
    first. One point is a point; a polyline of two or more points is a chain of segments.
    """

    points: tuple[Point, ...]
    closed: bool = False

    def __post_init__(self) -> None:
        if not self.points:
            raise ValueError("a shape needs at least one point")
        if self.closed and len(self.points) < 3:
            raise ValueError("a polygon needs at least three points")
        for p in self.points:
            if len(p) != 2 or type(p[0]) is not int or type(p[1]) is not int:
                raise ValueError(f"a point is two whole numbers, got {p!r}")

    @cached_property
    def edges(self) -> tuple[tuple[Point, Point], ...]:
        """The segments of the boundary (a point has one degenerate edge)."""
        pts = self.points
        if len(pts) == 1:
            return ((pts[0], pts[0]),)
        pairs = tuple(zip(pts, pts[1:]))
        return pairs + ((pts[-1], pts[0]),) if self.closed else pairs

    @cached_property
    def box(self) -> tuple[int, int, int, int]:
        """Bounding box: west, south, east, north."""
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)

    def moved(self, dx: int, dy: int) -> Shape:
        """The same shape translated by whole units."""
        return Shape(tuple((x + dx, y + dy) for x, y in self.points), self.closed)

    def contains(self, p: Point) -> bool:
        """Whether p lies in the closed polygon (always False for a polyline or point)."""
        return self.closed and locate(p, self) >= 0


def polygon(points: Iterable[Sequence[int]]) -> Shape:
    """A polygon from `[[x, y], ...]`."""
    return Shape(tuple((p[0], p[1]) for p in points), closed=True)


def polyline(points: Iterable[Sequence[int]]) -> Shape:
    """A polyline (or one point) from `[[x, y], ...]`."""
    return Shape(tuple((p[0], p[1]) for p in points), closed=False)


def twice_area(shape: Shape) -> int:
    """Twice the signed area of a polygon: > 0 when its points go counter-clockwise."""
    pts = shape.points
    return sum(pts[i - 1][0] * p[1] - p[0] * pts[i - 1][1] for i, p in enumerate(pts))


def is_simple(shape: Shape) -> bool:
    """Whether a polygon has positive area and no two edges meet except neighbours at their
    shared corner (no self-crossing, no spike, no repeated point)."""
    if not shape.closed:
        return True
    if twice_area(shape) == 0 or len(set(shape.points)) != len(shape.points):
        return False
    edges = shape.edges
    n = len(edges)
    for i in range(n):
        a, b = edges[i]
        for j in range(i + 1, n):
            c, d = edges[j]
            if j == i + 1 or (i == 0 and j == n - 1):
                # neighbours share one corner; they must not fold back over each other
                shared = b if j == i + 1 else a
                other_end = d if j == i + 1 else c
                own_end = a if j == i + 1 else b
                if cross(shared, own_end, other_end) == 0 and dot(shared, own_end, other_end) > 0:
                    return False
                continue
            if segments_meet(a, b, c, d):
                return False
    return True


def locate(p: Point, shape: Shape) -> int:
    """Where p lies against a polygon: 1 inside, 0 on its boundary, -1 outside."""
    x, y = p
    inside = False
    for a, b in shape.edges:
        ax, ay = a
        bx, by = b
        c = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if c == 0 and min(ax, bx) <= x <= max(ax, bx) and min(ay, by) <= y <= max(ay, by):
            return 0
        if (ay > y) != (by > y):
            # the edge straddles the horizontal through p: does it pass east of p?
            if (c > 0) == (by > ay):
                inside = not inside
    return 1 if inside else -1


def _locate_scaled(num: Point, den: int, shape: Shape) -> int:
    """`locate` for the rational point num / den (den > 0)."""
    scaled = Shape(tuple((x * den, y * den) for x, y in shape.points), closed=True)
    return locate(num, scaled)


def _boxes_apart(a: tuple[int, int, int, int], b: tuple[int, int, int, int], reach: int) -> bool:
    return a[0] > b[2] + reach or b[0] > a[2] + reach or a[1] > b[3] + reach or b[1] > a[3] + reach


def overlap(a: Shape, b: Shape) -> bool:
    """Whether two shapes share a point (closed polygons: containment counts)."""
    if _boxes_apart(a.box, b.box, 0):
        return False
    for p, q in a.edges:
        for r, s in b.edges:
            if segments_meet(p, q, r, s):
                return True
    return (b.closed and locate(a.points[0], b) >= 0) or (a.closed and locate(b.points[0], a) >= 0)


def within(a: Shape, b: Shape, reach: int) -> bool:
    """Whether the two shapes come within `reach` of each other (edge to edge, closed)."""
    if _boxes_apart(a.box, b.box, reach):
        return False
    if overlap(a, b):
        return True
    for p in a.points:
        for r, s in b.edges:
            if point_near_segment(p, r, s, reach):
                return True
    for p in b.points:
        for r, s in a.edges:
            if point_near_segment(p, r, s, reach):
                return True
    return False


def distance2(a: Shape, b: Shape) -> Fraction:
    """The squared distance between two shapes, exactly (0 when they touch or overlap)."""
    if overlap(a, b):
        return Fraction(0)
    best: Fraction | None = None
    for p in a.points:
        for r, s in b.edges:
            d = point_segment_dist2(p, r, s)
            if best is None or d < best:
                best = d
    for p in b.points:
        for r, s in a.edges:
            d = point_segment_dist2(p, r, s)
            if best is None or d < best:
                best = d
    assert best is not None
    return best


def distance_floor(a: Shape, b: Shape) -> int:
    """The distance between two shapes rounded down to a whole unit."""
    return floor_sqrt_fraction(distance2(a, b))


# --- bases -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Base:
    """A rectangular base: its centre, facing, width (along the front edge) and depth.

    Its corners are the centre plus the half-extents turned by the facing, each rounded by
    `round_div` (on the four quarter facings an even-sized base has exact corners).
    """

    centre: Point
    facing: int
    width: int
    depth: int

    def __post_init__(self) -> None:
        if type(self.facing) is not int or not 0 <= self.facing < 360:
            raise ValueError(f"a facing is whole degrees 0..359, got {self.facing!r}")
        if self.width <= 0 or self.depth <= 0:
            raise ValueError("a base has a positive width and depth")

    @cached_property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, back-right, back-left (clockwise seen from above)."""
        cx, cy = self.centre
        s, c = sine(self.facing), cosine(self.facing)
        w, d = self.width, self.depth
        out = []
        for right, forward in ((-w, d), (w, d), (w, -d), (-w, -d)):  # doubled half-extents
            out.append((cx + round_div(right * c + forward * s, 2 * SCALE),
                        cy + round_div(forward * c - right * s, 2 * SCALE)))
        return out[0], out[1], out[2], out[3]

    @cached_property
    def shape(self) -> Shape:
        """The footprint as a polygon."""
        return Shape(self.corners, closed=True)

    @property
    def front_edge(self) -> tuple[Point, Point]:
        """Front-left and front-right corners."""
        return self.corners[0], self.corners[1]

    @property
    def front_centre(self) -> Point:
        """The middle of the front edge, rounded by `round_div`."""
        (ax, ay), (bx, by) = self.front_edge
        return round_div(ax + bx, 2), round_div(ay + by, 2)

    def placed(self, centre: Point, facing: int | None = None) -> Base:
        """The same base moved to `centre`, turned to `facing` if given."""
        return Base(centre, self.facing if facing is None else facing % 360, self.width, self.depth)


def in_contact(a: Base, b: Base, reach: int) -> bool:
    """Whether two bases are within `reach` of each other edge to edge (symmetric)."""
    return within(a.shape, b.shape, reach)


# --- arcs ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Arc:
    """The part of the table within `half` degrees either side of `facing`, seen from `apex`.

    `half` is 1..180: 90 is the 180-degree front (a half-plane), 45 a 90-degree arc, 180 all
    round. The boundary rays belong to the arc. The rays are the table's directions of
    `facing - half` and `facing + half`, so "inside" is decided by integer cross products.
    """

    apex: Point
    facing: int
    half: int

    def __post_init__(self) -> None:
        if type(self.half) is not int or not 1 <= self.half <= 180:
            raise ValueError(f"an arc's half-angle is 1..180 whole degrees, got {self.half!r}")

    @cached_property
    def rays(self) -> tuple[Point, Point]:
        """The left and right boundary directions (times SCALE)."""
        return direction(self.facing - self.half), direction(self.facing + self.half)

    def contains(self, p: Point) -> bool:
        """Whether the point lies in the arc (its boundary included; the apex too)."""
        if self.half == 180:
            return True
        (lx, ly), (rx, ry) = self.rays
        vx, vy = p[0] - self.apex[0], p[1] - self.apex[1]
        right_of_left = lx * vy - ly * vx <= 0
        left_of_right = rx * vy - ry * vx >= 0
        if self.half <= 90:
            return right_of_left and left_of_right
        return right_of_left or left_of_right

    def touches(self, shape: Shape) -> bool:
        """Whether any part of the shape lies in the arc."""
        if self.half == 180:
            return True
        if self.half >= 90:
            # the union of two closed half-planes: a shape meets one exactly when a corner does
            return any(self.contains(p) for p in shape.points)
        # a convex cone, unbounded, so it meets a shape exactly when it meets one of its edges
        return any(_meets_cone(self.apex, self.rays, a, b, closed=True) for a, b in shape.edges)

    def holds(self, shape: Shape) -> bool:
        """Whether all of the shape lies in the arc."""
        if self.half == 180:
            return True
        if self.half <= 90:
            return all(self.contains(p) for p in shape.points)
        # outside the arc is an open convex cone: the shape must miss it, edge by edge
        left, right = self.rays
        return not any(_meets_cone(self.apex, (right, left), a, b, closed=False) for a, b in shape.edges)


def _meets_cone(apex: Point, rays: tuple[Point, Point], a: Point, b: Point, *, closed: bool) -> bool:
    """Whether the segment ab meets the cone turning clockwise from rays[0] to rays[1] (narrower
    than a half-plane): the closed cone, or with `closed=False` the open one. Separating axes:
    the normals of the two rays and of the segment."""
    ox, oy = apex
    ax, ay, bx, by = a[0] - ox, a[1] - oy, b[0] - ox, b[1] - oy
    (lx, ly), (rx, ry) = rays
    for nx, ny in ((-ly, lx), (ry, -rx), (ay - by, bx - ax)):
        if nx == 0 and ny == 0:
            continue
        pa, pb = ax * nx + ay * ny, bx * nx + by * ny
        lo, hi = (pa, pb) if pa <= pb else (pb, pa)
        l_dir, r_dir = lx * nx + ly * ny, rx * nx + ry * ny
        # the cone projects onto the axis from its apex (0) along the rays' projections
        cone_from_zero_up = l_dir >= 0 and r_dir >= 0
        cone_from_zero_down = l_dir <= 0 and r_dir <= 0
        if closed:
            if (cone_from_zero_down and lo > 0) or (cone_from_zero_up and hi < 0):
                return False
        elif (cone_from_zero_down and lo >= 0) or (cone_from_zero_up and hi <= 0):
            return False
    return True


# --- along a segment: what a line of sight crosses -------------------------------------------

def _parameter_on(a: Point, b: Point, p: Point) -> Fraction:
    """The parameter t of p (a point on the line ab) in a + t (b - a)."""
    return Fraction(dot(a, p, b), dist2(a, b))




def _edge_meetings(a: Point, b: Point, shape: Shape) -> list[tuple[Fraction, Fraction]]:
    """Where the segment a + t (b - a) meets each edge of the shape, edge by edge, unsorted:
    (t, t) for a crossing or a touch, (t0, t1) for the part of a collinear edge it runs along."""
    if a == b:
        return [(Fraction(0), Fraction(0))] if any(point_near_segment(a, r, s, 0) for r, s in shape.edges) else []
    spans: list[tuple[Fraction, Fraction]] = []
    for c, d in shape.edges:
        d1, d2 = cross(c, d, a), cross(c, d, b)
        if (d1 > 0 and d2 > 0) or (d1 < 0 and d2 < 0):
            continue
        d3, d4 = cross(a, b, c), cross(a, b, d)
        if (d3 > 0 and d4 > 0) or (d3 < 0 and d4 < 0):
            continue
        if d1 != d2:
            t = Fraction(d1, d1 - d2)
            spans.append((t, t))
            continue
        ends = [_parameter_on(a, b, p) for p in (c, d) if _on_segment(p, a, b)]
        ends += [t for t, p in ((Fraction(0), a), (Fraction(1), b)) if _on_segment(p, c, d)]
        if ends:
            spans.append((min(ends), max(ends)))
    return spans


def line_meetings(a: Point, b: Point, line: Shape) -> list[tuple[Fraction, Fraction]]:
    """Where the segment a + t (b - a) meets a polyline, in order: a crossing or a touch as
    (t, t), a stretch running along it as (t0, t1); meetings that touch are merged."""
    merged: list[tuple[Fraction, Fraction]] = []
    for t0, t1 in sorted(_edge_meetings(a, b, line)):
        if merged and t0 <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], t1))
        else:
            merged.append((t0, t1))
    return merged


def meeting_parameters(a: Point, b: Point, shape: Shape) -> list[Fraction]:
    """Every parameter t in [0, 1] where the segment a + t (b - a) meets the shape's edges,
    sorted, without repeats (a stretch along an edge gives its two ends)."""
    return sorted({t for span in _edge_meetings(a, b, shape) for t in span})


def inside_intervals(a: Point, b: Point, area: Shape) -> list[tuple[Fraction, Fraction]]:
    """The stretches (t0 < t1) of the segment a + t (b - a) lying in the closed polygon, in
    order. Grazing a corner (a single point) is not a stretch."""
    if a == b:
        return []
    cuts = meeting_parameters(a, b, area)
    if not cuts:
        return [(Fraction(0), Fraction(1))] if locate(a, area) >= 0 else []
    ts = sorted(set([Fraction(0), *cuts, Fraction(1)]))
    out: list[tuple[Fraction, Fraction]] = []
    dx, dy = b[0] - a[0], b[1] - a[1]
    for t0, t1 in zip(ts, ts[1:]):
        mid = (t0 + t1) * Fraction(1, 2)
        den = mid.denominator
        num = (a[0] * den + dx * mid.numerator, a[1] * den + dy * mid.numerator)
        if _locate_scaled(num, den, area) >= 0:
            if out and out[-1][1] == t0:
                out[-1] = (out[-1][0], t1)
            else:
                out.append((t0, t1))
    return out


def stretch_at_most(a: Point, b: Point, fraction: Fraction, limit: int) -> bool:
    """Whether `fraction` of the segment's length is at most `limit` units (exact)."""
    return fraction * fraction * dist2(a, b) <= limit * limit


@dataclass(frozen=True)
class Crossing:
    """What a segment does with one feature: from `enter` to `leave` (parameters 0..1 along
    it). For a line feature enter == leave where it crosses or touches, enter < leave where
    the segment runs along it."""

    key: str
    enter: Fraction
    leave: Fraction


# Sort keys for parameters: floor(t * 2^64), an integer that orders like t (exact ties are then
# broken by the Fraction itself), so sorting crossings rarely compares two Fractions.
_KEY_BITS = 64
_T0 = Fraction(0)
_T1 = Fraction(1)
_K1 = 1 << _KEY_BITS


def _key(t: Fraction) -> int:
    return (t.numerator << _KEY_BITS) // t.denominator


@dataclass
class FeatureIndex:
    """Terrain features by key, for asking what a segment crosses. Built once per table."""

    features: Sequence[tuple[str, Shape]]
    # per feature: west, south, east, north, position, key, shape, counter-clockwise (polygons)
    _items: list[tuple[int, int, int, int, int, str, Shape, bool]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._items = [(*shape.box, i, key, shape, shape.closed and twice_area(shape) > 0)
                       for i, (key, shape) in enumerate(self.features)]

    def crossings(self, a: Point, b: Point) -> list[Crossing]:
        """Every feature the closed segment ab touches, ordered by where it enters (then by
        where it leaves, then by the features' order): an area feature once per stretch
        inside it, a line feature once per point or overlap where it is met.

        The common case is decided here with one cross product per corner: when no corner of
        a feature lies on the line ab and neither a nor b lies on the line of an edge the
        segment meets, every meeting is a proper crossing inside one edge (a point, never a
        stretch), so a polygon's inside and outside alternate from one cut to the next.
        Anything else (a corner on the line, an end on an edge's line, a == b) goes to
        `inside_intervals` and `line_meetings` for that feature; both ways give the same
        answers.
        """
        ax, ay = a
        bx, by = b
        x0, x1 = (ax, bx) if ax <= bx else (bx, ax)
        y0, y1 = (ay, by) if ay <= by else (by, ay)
        dx, dy = bx - ax, by - ay
        k = dx * ay - dy * ax  # cross(a, b, p) == dx * p.y - dy * p.x - k
        point = dx == 0 and dy == 0
        out: list[tuple[int, Fraction, int, Fraction, int, Crossing]] = []
        for w, s, e, n, i, key, shape, ccw in self._items:
            if w > x1 or e < x0 or s > y1 or n < y0:
                continue
            if point:
                out += _crossings_exact(a, b, i, key, shape)
                continue
            # the line ab misses the box when all four corners are strictly on one side
            ws, es = dy * w + k, dy * e + k
            c1, c2, c3, c4 = dx * s - ws, dx * s - es, dx * n - ws, dx * n - es
            if (c1 > 0 and c2 > 0 and c3 > 0 and c4 > 0) or (c1 < 0 and c2 < 0 and c3 < 0 and c4 < 0):
                continue
            pts = shape.points
            sides = [dx * py - dy * px - k for px, py in pts]
            if 0 in sides:
                out += _crossings_exact(a, b, i, key, shape)
                continue
            closed = shape.closed
            cuts: list[tuple[int, Fraction, bool]] = []  # key, t, a on the left of the edge
            exact = False
            behind = False  # the line crosses the boundary an odd number of times before a
            prev = sides[-1] if closed else sides[0]
            cx, cy = pts[-1] if closed else pts[0]
            for j in range(0 if closed else 1, len(pts)):
                cur = sides[j]
                ex, ey = pts[j]
                if (prev > 0) != (cur > 0):  # the edge (c, e) straddles the line ab
                    ux, uy = ex - cx, ey - cy
                    d1 = ux * (ay - cy) - uy * (ax - cx)  # cross(c, e, a)
                    d2 = ux * (by - cy) - uy * (bx - cx)  # cross(c, e, b)
                    if d1 == 0 or d2 == 0:
                        exact = True
                        break
                    if (d1 > 0) != (d2 > 0):
                        num, den = (d1, d1 - d2) if d1 > d2 else (-d1, d2 - d1)
                        cuts.append(((num << _KEY_BITS) // den, Fraction(num, den), d1 > 0))
                    elif (d1 > 0) != (d1 > d2):  # it meets the line before a (t < 0)
                        behind = not behind
                prev = cur
                cx, cy = ex, ey
            if exact:
                out += _crossings_exact(a, b, i, key, shape)
            elif not closed:
                if len(cuts) > 1:  # two edges of a self-crossing polyline may meet ab at one point
                    cuts = sorted({(ck, ct, False) for ck, ct, _ in cuts})
                out += [(ck, ct, ck, ct, i, Crossing(key, ct, ct)) for ck, ct, _ in cuts]
            elif not cuts:
                # all of ab inside or all outside: a is inside when the line ab crosses the
                # boundary an odd number of times before it (no corner lies on the line)
                if behind:
                    out.append((0, _T0, _K1, _T1, i, Crossing(key, _T0, _T1)))
            else:
                cuts.sort()
                # before the first cut ab is inside when a is on the polygon's inner side of
                # that edge (the left of an edge of a counter-clockwise polygon), then each
                # cut changes sides
                inside = cuts[0][2] == ccw
                pk, pt = 0, _T0
                for ck, ct, _ in cuts:
                    if inside:
                        out.append((pk, pt, ck, ct, i, Crossing(key, pt, ct)))
                    inside = not inside
                    pk, pt = ck, ct
                if inside:
                    out.append((pk, pt, _K1, _T1, i, Crossing(key, pt, _T1)))
        # (enter, leave, feature) never repeats, so the Crossing itself is never compared
        out.sort()
        return [item[5] for item in out]


def _crossings_exact(a: Point, b: Point, i: int, key: str,
                     shape: Shape) -> list[tuple[int, Fraction, int, Fraction, int, Crossing]]:
    """One feature's crossings by the general (Fraction) route, as `crossings` sorts them."""
    if shape.closed:
        return [(_key(t0), t0, _key(t1), t1, i, Crossing(key, t0, t1)) for t0, t1 in inside_intervals(a, b, shape)]
    return [(_key(t0), t0, _key(t1), t1, i, Crossing(key, t0, t1)) for t0, t1 in line_meetings(a, b, shape)]


def passes_near(a: Point, b: Point, shapes: Iterable[tuple[str, Shape]], reach: int) -> list[str]:
    """The keys of the shapes the closed segment ab comes within `reach` of, in the order of
    their first point's projection along ab (ties by the given order).

    Two exact shortcuts before `within`: a corner within `reach` of the line ab whose foot
    falls on the segment is within reach of the segment (a hit); a shape whose corners all
    lie strictly on one side of the line, each further than `reach` from it, is not (the
    shape lies in the convex hull of its corners)."""
    if a == b:
        seg = Shape((a,))
        return [key for _, _, key in sorted((dot(a, shape.points[0], b), i, key)
                                            for i, (key, shape) in enumerate(shapes)
                                            if within(seg, shape, reach))]
    ax, ay = a
    bx, by = b
    x0, x1 = (ax - reach, bx + reach) if ax <= bx else (bx - reach, ax + reach)
    y0, y1 = (ay - reach, by + reach) if ay <= by else (by - reach, ay + reach)
    dx, dy = bx - ax, by - ay
    k = dx * ay - dy * ax
    length2 = dx * dx + dy * dy
    limit = reach * reach * length2  # side * side > limit: further than reach from the line
    segment: Shape | None = None
    hits: list[tuple[int, int, str]] = []
    for i, (key, shape) in enumerate(shapes):
        w, s, e, n = shape.box
        if w > x1 or e < x0 or s > y1 or n < y0:
            continue
        pts = shape.points
        left = right = near = False
        for px, py in pts:
            side = dx * py - dy * px - k
            if side * side <= limit:
                along = dx * (px - ax) + dy * (py - ay)
                if 0 <= along <= length2:
                    near = True
                    break
                left = right = True
            elif side > 0:
                left = True
            else:
                right = True
        if not near:
            if left != right:
                continue
            if segment is None:
                segment = Shape((a, b))
            if not within(segment, shape, reach):
                continue
        p = pts[0]
        hits.append((dx * (p[0] - ax) + dy * (p[1] - ay), i, key))
    hits.sort()
    return [key for _, _, key in hits]


# --- moving along a path ---------------------------------------------------------------------

def leg_length(a: Point, b: Point) -> int:
    """A leg's length in whole units, rounded up (a path is never counted short)."""
    return ceil_sqrt(dist2(a, b))


def path_length(points: Sequence[Point]) -> int:
    """The sum of the legs' lengths, each rounded up."""
    return sum(leg_length(p, q) for p, q in zip(points, points[1:]))


def point_along(a: Point, b: Point, distance: int) -> Point:
    """The whole-unit point `distance` from a toward b: each coordinate of the exact point
    truncated toward a, so it is never further from a than `distance`. At or beyond the leg's
    end it is b."""
    length2 = dist2(a, b)
    if distance <= 0 or length2 == 0:
        return a
    if distance * distance >= length2:
        return b
    dx, dy = b[0] - a[0], b[1] - a[1]
    sx = isqrt(dx * dx * distance * distance // length2)
    sy = isqrt(dy * dy * distance * distance // length2)
    return a[0] + (sx if dx >= 0 else -sx), a[1] + (sy if dy >= 0 else -sy)


def point_along_path(points: Sequence[Point], distance: int) -> Point:
    """The point `distance` along a path of legs (lengths as `leg_length` counts them)."""
    left = distance
    for p, q in zip(points, points[1:]):
        length = leg_length(p, q)
        if left <= length:
            return point_along(p, q, left)
        left -= length
    return points[-1]


@dataclass(frozen=True)
class Stop:
    """Where a move along a path stops: `distance` units along it (`leg_length` counting),
    the point reached, and the key of what stopped it."""

    distance: int
    at: Point
    key: str


def first_stop(footprint: Sequence[Shape], path: Sequence[Point],
               obstacles: Sequence[tuple[str, Shape]], reach: int) -> Stop | None:
    """Moving the footprint (shapes placed relative to the path's first point, moved
    together) along the path one whole unit at a time, the first place where any of it comes
    within `reach` of an obstacle; None when the whole path is clear. An obstacle already
    within reach at the start stops it only where it would come closer than it started: a
    base in contact may move away, or along, but never through.

    Exact at every whole unit (contact between two whole units is not looked for: cross a
    thin line feature with `line_meetings` on each leg). An obstacle is skipped only as far
    as its distance proves safe: a translation by k units moves every point by at most k,
    and the truncation of `point_along` by less than 2 more.
    """
    if not obstacles or not footprint or len(path) < 1:
        return None
    start = path[0]
    # per obstacle: its key, its shape, and for one already in reach the squared distance
    # of each footprint shape at the start (None for the others)
    watched: list[tuple[str, Shape, list[Fraction] | None]] = []
    for key, obstacle in obstacles:
        if any(within(shape, obstacle, reach) for shape in footprint):
            watched.append((key, obstacle, [distance2(shape, obstacle) for shape in footprint]))
        else:
            watched.append((key, obstacle, None))
    travelled = 0
    legs = list(zip(path, path[1:])) or [(start, start)]
    for p, q in legs:
        length = leg_length(p, q)
        clear = [0] * len(watched)  # each obstacle is proved clear up to this distance on the leg
        s = 0
        while True:
            at = point_along(p, q, s)
            dx, dy = at[0] - start[0], at[1] - start[1]
            moved: list[Shape] | None = None
            for i, (key, obstacle, began) in enumerate(watched):
                if clear[i] > s:
                    continue
                if moved is None:
                    moved = [shape.moved(dx, dy) for shape in footprint]
                gap: int | None = None
                for j, shape in enumerate(moved):
                    if began is None:
                        if within(shape, obstacle, reach):
                            return Stop(travelled + s, at, key)
                    elif distance2(shape, obstacle) < began[j]:
                        return Stop(travelled + s, at, key)
                    g = distance_floor(shape, obstacle)
                    gap = g if gap is None else min(gap, g)
                assert gap is not None
                clear[i] = s + (max(1, gap - reach - 3) if began is None else 1)
            if s >= length:
                break
            s = min(length, min(clear))
        travelled += length
    return None


# --- bearings --------------------------------------------------------------------------------

def bearing(a: Point, b: Point) -> int:
    """The whole-degree facing from a toward b (0 = north, clockwise): the table direction
    nearest to b - a, judged by the cross products with the two neighbouring table
    directions; an exact tie goes to the counter-clockwise one. a == b gives 0."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    if vx == 0 and vy == 0:
        return 0

    def clockwise_of(f: int) -> bool:
        """Whether v lies clockwise of (or on) direction f, within the half-turn after it."""
        dx, dy = direction(f)
        c = dx * vy - dy * vx  # < 0: v is clockwise of f
        return c < 0 or (c == 0 and dx * vx + dy * vy > 0)

    # the quadrant first, then a binary search for the last f with v clockwise of it
    quadrant = 0 if vx >= 0 and vy > 0 else 90 if vx > 0 and vy <= 0 else 180 if vx <= 0 and vy < 0 else 270
    lo, hi = quadrant, quadrant + 90  # v lies in [lo, hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if clockwise_of(mid):
            lo = mid
        else:
            hi = mid
    (ax, ay), (bx, by) = direction(lo), direction(hi)
    off_lo = abs(ax * vy - ay * vx)
    off_hi = abs(bx * vy - by * vx)
    return (lo if off_lo <= off_hi else hi) % 360


def turn_between(a: int, b: int) -> int:
    """The smaller turn, in whole degrees (0..180), from facing a to facing b."""
    d = (b - a) % 360
    return min(d, 360 - d)
