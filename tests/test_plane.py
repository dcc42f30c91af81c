"""Exact plane geometry (`pbem/geometry/plane.py`) against slow, obviously-correct references.

Every reference here is written independently of plane.py's method, in `fractions.Fraction`
or by brute force:

- two segments meet: the two parametric lines solved by Cramer's rule (parallel ones: one
  segment's ends projected onto the other);
- point to segment: the nearer of the two ends and the clamped perpendicular foot;
- point in polygon: the winding number (Sunday's rule), the boundary tested first;
- two shapes: zero when they share a point, else the least distance over all pairs of edges;
  convex pairs are also checked by clipping one against the other;
- arc membership: angles compared exactly through a pseudo-angle (a rational function that
  grows with the clockwise bearing) of the point and of the table's two boundary vectors;
- a shape touching or held by an arc: Sutherland-Hodgman clipping of each of its edges (and
  of a convex shape whole) against the arc's half-planes, then asking whether anything is left
  (a bounded shape meets an arc, or its complement, exactly when its boundary does, since both
  are unbounded and star-shaped from the apex outward);
- along a segment: where it meets each edge, and the stretches inside a polygon from the
  winding number between those parameters (and by sampling);
- moving along a path: a walk of every whole unit.

Rounding rules (plane.py's docstring): to the nearest unit, a half toward +infinity;
`point_along` truncates toward the start; `leg_length` rounds up.

The triangle inequality, as we state and test it (d is the exact distance, |_x_| its floor):
- points a, b, c:             |_d(a,c)_| <= |_d(a,b)_| + |_d(b,c)_| + 1
- shapes A, C and a point b:  |_d(A,C)_| <= |_d(A,b)_| + |_d(b,C)_| + 1
- shapes A, B, C:             |_d(A,C)_| <= |_d(A,B)_| + |_d(B,C)_| + ceil(diam B) + 2
The distance between two shapes is not a metric (two shapes touching the two ends of a long
third one are far apart), hence the diameter; `test_shape_distance_is_not_a_metric` shows it.

Rule texts, cited by section: BST = Blood, Sweat and Tears (Terminology, "Contact"; Firing,
"Presence of Friendlies" and its Illustration 7; Part III, "Tank Aspects" and Illustrations
12-13); 1916 = the firing chapter of 1916 (3.4, "Fields of Fire").
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pbem.geometry import plane
from pbem.geometry.plane import (
    SCALE,
    Arc,
    Base,
    Crossing,
    FeatureIndex,
    Shape,
    Stop,
    bearing,
    ceil_sqrt,
    cosine,
    cross,
    direction,
    dist2,
    distance2,
    distance_floor,
    dot,
    first_stop,
    floor_sqrt_fraction,
    in_contact,
    inside_intervals,
    is_simple,
    leg_length,
    locate,
    meeting_parameters,
    offset,
    overlap,
    passes_near,
    path_length,
    point_along,
    point_along_path,
    point_near_segment,
    point_segment_dist2,
    polygon,
    polyline,
    round_div,
    segment_dist2,
    segments_meet,
    sine,
    stretch_at_most,
    turn_between,
    twice_area,
    within,
    within_distance,
)

Point = tuple[int, int]
FPoint = tuple[Fraction, Fraction]
Edge = tuple[Point, Point]
ZERO, ONE, HALF = Fraction(0), Fraction(1), Fraction(1, 2)


def examples(n: int) -> settings:
    """Reproducible property-test settings (the same examples on every run and machine)."""
    return settings(max_examples=n, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# === references ===============================================================================

def fp(p: Sequence[int] | Sequence[Fraction]) -> FPoint:
    return Fraction(p[0]), Fraction(p[1])


def f_sub(p: FPoint, q: FPoint) -> FPoint:
    return p[0] - q[0], p[1] - q[1]


def f_cross(u: FPoint, v: FPoint) -> Fraction:
    return u[0] * v[1] - u[1] * v[0]


def f_dot(u: FPoint, v: FPoint) -> Fraction:
    return u[0] * v[0] + u[1] * v[1]


def f_at(a: FPoint, b: FPoint, t: Fraction) -> FPoint:
    return a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])


def ref_round(q: Fraction) -> int:
    """To the nearest integer, a half toward +infinity."""
    return math.floor(q + HALF)


def ref_floor_sqrt(q: Fraction) -> int:
    """The greatest n >= 0 with n * n <= q, by bisection."""
    lo, hi = 0, 1
    while hi * hi <= q:
        hi *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid * mid <= q:
            lo = mid
        else:
            hi = mid
    return lo


def ref_on_segment(p: FPoint, a: FPoint, b: FPoint) -> bool:
    """p on the closed segment ab."""
    ab, ap = f_sub(b, a), f_sub(p, a)
    if ab == (0, 0):
        return p == a
    if f_cross(ab, ap) != 0:
        return False
    t = f_dot(ap, ab) / f_dot(ab, ab)
    return 0 <= t <= 1


def ref_segment_meet(a: Point, b: Point, c: Point, d: Point) -> list[Fraction]:
    """Where the closed segments meet, as parameters t of a + t (b - a): [] for nowhere, [t]
    for one point, [t0, t1] (t0 < t1) for a shared stretch. A degenerate ab meets at t = 0."""
    A, B, C, D = fp(a), fp(b), fp(c), fp(d)
    r, s, ca = f_sub(B, A), f_sub(D, C), f_sub(C, A)
    if r == (0, 0):
        return [ZERO] if ref_on_segment(A, C, D) else []
    denom = f_cross(r, s)
    if denom != 0:  # A + t r = C + u s
        t, u = f_cross(ca, s) / denom, f_cross(ca, r) / denom
        return [t] if 0 <= t <= 1 and 0 <= u <= 1 else []
    if f_cross(ca, r) != 0:
        return []  # parallel and apart
    rr = f_dot(r, r)
    tc, td = f_dot(ca, r) / rr, f_dot(f_sub(D, A), r) / rr
    lo, hi = max(ZERO, min(tc, td)), min(ONE, max(tc, td))
    if lo > hi:
        return []
    return [lo] if lo == hi else [lo, hi]


def ref_point_segment_dist2(p: FPoint, a: FPoint, b: FPoint) -> Fraction:
    """The squared distance to the nearest of: the two ends, the clamped perpendicular foot."""
    ab = f_sub(b, a)
    candidates = [a, b]
    if ab != (0, 0):
        t = min(ONE, max(ZERO, f_dot(f_sub(p, a), ab) / f_dot(ab, ab)))
        candidates.append(f_at(a, b, t))
    return min(f_dot(f_sub(p, q), f_sub(p, q)) for q in candidates)


def ref_segment_dist2(a: Point, b: Point, c: Point, d: Point) -> Fraction:
    if ref_segment_meet(a, b, c, d):
        return ZERO
    A, B, C, D = fp(a), fp(b), fp(c), fp(d)
    return min(ref_point_segment_dist2(A, C, D), ref_point_segment_dist2(B, C, D),
               ref_point_segment_dist2(C, A, B), ref_point_segment_dist2(D, A, B))


def ref_edges(points: Sequence[Point], closed: bool) -> list[Edge]:
    if len(points) == 1:
        return [(points[0], points[0])]
    pairs = list(zip(points, points[1:]))
    return pairs + [(points[-1], points[0])] if closed else pairs


def ref_winding(p: FPoint, points: Sequence[Point]) -> int:
    """1 inside the closed polygon, 0 on its boundary, -1 outside: the winding number."""
    edges = ref_edges(points, True)
    if any(ref_on_segment(p, fp(a), fp(b)) for a, b in edges):
        return 0
    wn = 0
    for a, b in edges:
        A, B = fp(a), fp(b)
        side = f_cross(f_sub(B, A), f_sub(p, A))  # > 0: p left of a->b
        if A[1] <= p[1] < B[1] and side > 0:
            wn += 1
        elif B[1] <= p[1] < A[1] and side < 0:
            wn -= 1
    return 1 if wn != 0 else -1


def ref_overlap(a: Shape, b: Shape) -> bool:
    """Share a point: the boundaries meet, or one lies inside the other polygon."""
    if any(ref_segment_meet(p, q, r, s) for p, q in ref_edges(a.points, a.closed)
           for r, s in ref_edges(b.points, b.closed)):
        return True
    return ((b.closed and ref_winding(fp(a.points[0]), b.points) >= 0)
            or (a.closed and ref_winding(fp(b.points[0]), a.points) >= 0))


def ref_distance2(a: Shape, b: Shape) -> Fraction:
    if ref_overlap(a, b):
        return ZERO
    return min(ref_segment_dist2(p, q, r, s) for p, q in ref_edges(a.points, a.closed)
               for r, s in ref_edges(b.points, b.closed))


def ref_box_gap(a: Shape, b: Shape) -> int:
    """A lower bound of the distance: the larger gap between the bounding boxes."""
    ax, ay = [p[0] for p in a.points], [p[1] for p in a.points]
    bx, by = [p[0] for p in b.points], [p[1] for p in b.points]
    return max(0, min(bx) - max(ax), min(ax) - max(bx), min(by) - max(ay), min(ay) - max(by))


def ref_within(a: Shape, b: Shape, reach: int) -> bool:
    if ref_box_gap(a, b) > reach:
        return False
    return ref_distance2(a, b) <= reach * reach


def ref_twice_area(points: Sequence[Point]) -> int:
    """By trapezoids under each edge (minus sign: counter-clockwise is positive)."""
    return -sum((b[0] - a[0]) * (b[1] + a[1]) for a, b in ref_edges(points, True))


def ref_is_simple(points: Sequence[Point]) -> bool:
    """No repeated point, some area, and edges meeting only where neighbours share a corner."""
    if len(set(points)) != len(points) or ref_twice_area(points) == 0:
        return False
    edges = ref_edges(points, True)
    n = len(edges)
    for i in range(n):
        for j in range(i + 1, n):
            meet = ref_segment_meet(*edges[i], *edges[j])
            if j == i + 1 or (i == 0 and j == n - 1):
                if len(meet) != 1:  # neighbours: only their shared corner
                    return False
            elif meet:
                return False
    return True


def pseudo_angle(v: FPoint | Point) -> Fraction:
    """A number in [0, 4) that grows strictly with the clockwise bearing of v != 0 from north
    (0 north, 1 east, 2 south, 3 west), rational in v's coordinates."""
    x, y = Fraction(v[0]), Fraction(v[1])
    if x >= 0 and y > 0:
        return x / (x + y)
    if x > 0 and y <= 0:
        return 1 + (-y) / (x - y)
    if x <= 0 and y < 0:
        return 2 + (-x) / (-x - y)
    assert x < 0 and y >= 0, v
    return 3 + y / (y - x)


TABLE_ANGLES = [pseudo_angle(direction(f)) for f in range(360)]


def ref_arc_contains(arc: Arc, p: FPoint | Point) -> bool:
    """p lies clockwise from the left boundary vector no further than the right one is."""
    v = (Fraction(p[0]) - arc.apex[0], Fraction(p[1]) - arc.apex[1])
    if arc.half == 180 or v == (0, 0):
        return True
    left = pseudo_angle(direction(arc.facing - arc.half))
    right = pseudo_angle(direction(arc.facing + arc.half))
    return (pseudo_angle(v) - left) % 4 <= (right - left) % 4


HalfPlane = tuple[FPoint, bool]  # (normal n, strict): n . (v - apex) >= 0, or > 0 when strict


def clip(poly: list[FPoint], apex: FPoint, normal: FPoint) -> list[FPoint]:
    """Sutherland-Hodgman: the convex polygon (or segment, or point) cut to the closed
    half-plane normal . (v - apex) >= 0."""
    out: list[FPoint] = []
    k = len(poly)
    for i in range(k):
        p, q = poly[i], poly[(i + 1) % k]
        gp, gq = f_dot(normal, f_sub(p, apex)), f_dot(normal, f_sub(q, apex))
        if gp >= 0:
            out.append(p)
        if (gp > 0 > gq) or (gp < 0 < gq):
            out.append(f_at(p, q, gp / (gp - gq)))
    return out


def convex_meets(poly: list[FPoint], apex: FPoint, planes: Sequence[HalfPlane]) -> bool:
    """Whether a convex polygon / segment / point meets the intersection of the half-planes.
    Clipped to their closures, what is left is a convex set K; K meets the open ones exactly
    when the average of its vertices (a point of its relative interior) does."""
    for normal, _ in planes:
        poly = clip(poly, apex, normal)
        if not poly:
            return False
    mid = (sum((p[0] for p in poly), ZERO) / len(poly), sum((p[1] for p in poly), ZERO) / len(poly))
    return all(f_dot(n, f_sub(mid, apex)) > 0 for n, strict in planes if strict)


def arc_normals(arc: Arc) -> tuple[FPoint, FPoint]:
    """Inward normals of the two boundary lines: the arc side of the left ray (its right-hand
    normal) and of the right ray (its left-hand normal)."""
    lx, ly = direction(arc.facing - arc.half)
    rx, ry = direction(arc.facing + arc.half)
    return (Fraction(ly), Fraction(-lx)), (Fraction(-ry), Fraction(rx))


def pieces(shape: Shape) -> list[list[FPoint]]:
    """The convex pieces whose union is the shape's boundary: its edges."""
    return [[fp(a), fp(b)] for a, b in ref_edges(shape.points, shape.closed)]


def ref_arc_meets(arc: Arc, piece: list[FPoint]) -> bool:
    """A convex piece meets the closed arc."""
    apex = fp(arc.apex)
    if arc.half == 180:
        return True
    nl, nr = arc_normals(arc)
    if arc.half <= 90:  # the intersection of two closed half-planes (one when half is 90)
        return convex_meets(piece, apex, [(nl, False), (nr, False)])
    return convex_meets(piece, apex, [(nl, False)]) or convex_meets(piece, apex, [(nr, False)])


def ref_arc_misses_outside(arc: Arc, piece: list[FPoint]) -> bool:
    """A convex piece lies entirely in the arc: it misses the open complement."""
    apex = fp(arc.apex)
    if arc.half == 180:
        return True
    nl, nr = arc_normals(arc)
    out_l, out_r = (-nl[0], -nl[1]), (-nr[0], -nr[1])
    if arc.half <= 90:  # the complement is the union of two open half-planes
        return not (convex_meets(piece, apex, [(out_l, True)]) or convex_meets(piece, apex, [(out_r, True)]))
    return not convex_meets(piece, apex, [(out_l, True), (out_r, True)])  # an open cone


def ref_touches(arc: Arc, shape: Shape) -> bool:
    return any(ref_arc_meets(arc, piece) for piece in pieces(shape))


def ref_holds(arc: Arc, shape: Shape) -> bool:
    return all(ref_arc_misses_outside(arc, piece) for piece in pieces(shape))


def ref_meeting_parameters(a: Point, b: Point, shape: Shape) -> list[Fraction]:
    found: set[Fraction] = set()
    for c, d in ref_edges(shape.points, shape.closed):
        found.update(ref_segment_meet(a, b, c, d))
    return sorted(found)


def ref_inside_at(a: Point, b: Point, t: Fraction, shape: Shape) -> bool:
    return ref_winding(f_at(fp(a), fp(b), t), shape.points) >= 0


def ref_inside_intervals(a: Point, b: Point, shape: Shape) -> list[tuple[Fraction, Fraction]]:
    """Maximal stretches t0 < t1 of the segment inside the closed polygon. Between two
    consecutive places where the segment meets the boundary it is wholly in or wholly out."""
    if a == b:
        return []  # one point is no stretch
    ts = sorted({ZERO, ONE, *ref_meeting_parameters(a, b, shape)})
    out: list[tuple[Fraction, Fraction]] = []
    for t0, t1 in zip(ts, ts[1:]):
        if ref_inside_at(a, b, (t0 + t1) / 2, shape):
            if out and out[-1][1] == t0:
                out[-1] = (out[-1][0], t1)
            else:
                out.append((t0, t1))
    return out


def ref_crossings(features: Sequence[tuple[str, Shape]], a: Point, b: Point) -> list[tuple[str, Fraction, Fraction]]:
    """Area features once per stretch inside; line features once per meeting parameter (an
    overlap along a line feature is reported at its two ends, see the note in the tests)."""
    found: list[tuple[Fraction, Fraction, int, str]] = []
    for i, (key, shape) in enumerate(features):
        if shape.closed:
            found += [(t0, t1, i, key) for t0, t1 in ref_inside_intervals(a, b, shape)]
        else:
            found += [(t, t, i, key) for t in ref_meeting_parameters(a, b, shape)]
    found.sort()
    return [(key, t0, t1) for t0, t1, _, key in found]


def ref_leg_length(a: Point, b: Point) -> int:
    """The least n with n * n >= the squared length, counting up."""
    n = ref_floor_sqrt(Fraction(dist2(a, b)))
    return n if n * n == dist2(a, b) else n + 1


def ref_point_along(a: Point, b: Point, distance: int) -> Point:
    """Each coordinate of a + distance / |ab| (b - a), truncated toward a."""
    l2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
    if distance <= 0 or l2 == 0:
        return a
    if distance * distance >= l2:
        return b
    out = []
    for k in (0, 1):
        delta = b[k] - a[k]
        # the greatest s with s <= |delta| * distance / sqrt(l2)
        s = ref_floor_sqrt(Fraction(delta * delta * distance * distance, l2))
        out.append(a[k] + (s if delta >= 0 else -s))
    return out[0], out[1]


def ref_first_stop(footprint: Sequence[Shape], path: Sequence[Point],
                   obstacles: Sequence[tuple[str, Shape]], reach: int) -> tuple[int, Point, str] | None:
    """Every whole unit of every leg, in order, checked against every obstacle not already
    within reach at the start."""
    if not path:
        return None
    start = path[0]
    live = [(k, o) for k, o in obstacles if not any(ref_within(s, o, reach) for s in footprint)]
    travelled = 0
    for p, q in list(zip(path, path[1:])) or [(start, start)]:
        length = ref_leg_length(p, q)
        for s in range(length + 1):
            at = ref_point_along(p, q, s)
            moved = [shape.moved(at[0] - start[0], at[1] - start[1]) for shape in footprint]
            for key, obstacle in live:
                if any(ref_within(m, obstacle, reach) for m in moved):
                    return travelled + s, at, key
        travelled += length
    return None


def ref_base_corners(base: Base) -> list[FPoint]:
    """The exact corners with the table's vectors: forward is direction(facing), right is
    direction(facing + 90); front-left, front-right, back-right, back-left."""
    fx, fy = direction(base.facing)
    rx, ry = direction(base.facing + 90)
    cx, cy = base.centre
    out = []
    for right, forward in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
        hw, hd = Fraction(right * base.width, 2), Fraction(forward * base.depth, 2)
        out.append((cx + (hw * rx + hd * fx) / SCALE, cy + (hw * ry + hd * fy) / SCALE))
    return out


def ref_bearing(v: Point) -> int:
    """bearing's rule read from its docstring: the two neighbouring table directions with v
    between them (found by exact angle order), the one with the smaller |cross| wins, a tie to
    the first (the smaller bearing)."""
    k = pseudo_angle(v)
    f = max(i for i in range(360) if TABLE_ANGLES[i] <= k)
    g = (f + 1) % 360

    def off(h: int) -> int:
        dx, dy = direction(h)
        return abs(dx * v[1] - dy * v[0])

    return f if off(f) <= off(g) else g


# === strategies ===============================================================================

SPECIAL_HALVES = [1, 45, 89, 90, 91, 135, 179, 180]
SPECIAL_FACINGS = [0, 1, 44, 45, 46, 89, 90, 135, 179, 180, 181, 225, 270, 315, 359]

small = st.integers(-12, 12)
small_points = st.tuples(small, small)
mid = st.integers(-300, 300)
mid_points = st.tuples(mid, mid)
facings = st.one_of(st.sampled_from(SPECIAL_FACINGS), st.integers(0, 359))
halves = st.one_of(st.sampled_from(SPECIAL_HALVES), st.integers(1, 180))


def convex_hull(points: Sequence[Point]) -> list[Point]:
    """Andrew's monotone chain, strict turns only (counter-clockwise)."""
    pts = sorted(set(points))

    def chain(seq: Sequence[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and f_cross(f_sub(fp(out[-1]), fp(out[-2])), f_sub(fp(p), fp(out[-2]))) <= 0:
                out.pop()
            out.append(p)
        return out

    if len(pts) < 3:
        return pts
    return chain(pts)[:-1] + chain(pts[::-1])[:-1]


@st.composite
def convex_polygons(draw: st.DrawFn, points: st.SearchStrategy[Point] = small_points) -> Shape:
    hull = convex_hull(draw(st.lists(points, min_size=3, max_size=8)))
    assume(len(hull) >= 3)
    if draw(st.booleans()):
        hull = hull[::-1]
    rot = draw(st.integers(0, len(hull) - 1))
    return polygon(hull[rot:] + hull[:rot])


@st.composite
def star_polygons(draw: st.DrawFn, spread: int = 12) -> Shape:
    """Corners at distinct angles round a centre: integer offsets sorted by exact angle, or
    whole-degree angles with integer radii. Kept only when simple (by the reference)."""
    cx, cy = draw(st.tuples(st.integers(-spread, spread), st.integers(-spread, spread)))
    if draw(st.booleans()):
        vs = draw(st.lists(st.tuples(st.integers(-spread, spread), st.integers(-spread, spread)),
                           min_size=3, max_size=8))
    else:
        degs = draw(st.lists(st.integers(0, 359), min_size=3, max_size=8, unique=True))
        radii = draw(st.lists(st.integers(1, spread), min_size=len(degs), max_size=len(degs)))
        vs = [(round(r * math.sin(math.radians(d))), round(r * math.cos(math.radians(d))))
              for d, r in zip(degs, radii)]
    by_angle: dict[Fraction, Point] = {}
    for v in vs:
        if v != (0, 0):
            by_angle.setdefault(pseudo_angle(v), v)
    pts = [(cx + v[0], cy + v[1]) for _, v in sorted(by_angle.items())]
    assume(len(pts) >= 3 and ref_is_simple(pts))
    return polygon(pts)


@st.composite
def bases(draw: st.DrawFn, spread: int = 40, size: int = 30) -> Base:
    centre = draw(st.tuples(st.integers(-spread, spread), st.integers(-spread, spread)))
    return Base(centre, draw(facings), draw(st.integers(1, size)), draw(st.integers(1, size)))


def polylines(points: st.SearchStrategy[Point] = small_points) -> st.SearchStrategy[Shape]:
    return st.lists(points, min_size=1, max_size=4).map(polyline)


def shapes(spread: int = 12) -> st.SearchStrategy[Shape]:
    pts = st.tuples(st.integers(-spread, spread), st.integers(-spread, spread))
    return st.one_of(
        pts.map(lambda p: polyline([p])),
        polylines(pts),
        convex_polygons(pts),
        star_polygons(spread),
        bases(spread, max(2, spread)).map(lambda b: b.shape),
    )


simple_polygons = st.one_of(convex_polygons(), star_polygons(), bases(12, 12).map(lambda b: b.shape))


# === the references themselves, on cases worked by hand ======================================

def test_references_on_hand_cases() -> None:
    assert ref_segment_meet((0, 0), (4, 4), (0, 4), (4, 0)) == [HALF]
    assert ref_segment_meet((0, 0), (4, 0), (2, 0), (6, 0)) == [HALF, ONE]
    assert ref_segment_meet((0, 0), (1, 0), (2, 0), (3, 0)) == []
    assert ref_winding(fp((1, 1)), [(0, 0), (2, 0), (2, 2), (0, 2)]) == 1
    assert ref_winding(fp((2, 1)), [(0, 0), (2, 0), (2, 2), (0, 2)]) == 0
    assert ref_winding((Fraction(5, 2), ONE), [(0, 0), (2, 0), (2, 2), (0, 2)]) == -1
    assert ref_is_simple([(0, 0), (2, 0), (2, 2), (0, 2)])
    assert not ref_is_simple([(0, 0), (2, 2), (2, 0), (0, 2)])  # a bow tie
    assert [pseudo_angle(v) for v in ((0, 1), (1, 0), (0, -1), (-1, 0))] == [0, 1, 2, 3]
    assert ref_arc_contains(Arc((0, 0), 0, 45), (1, 1)) and not ref_arc_contains(Arc((0, 0), 0, 44), (1, 1))
    assert ref_floor_sqrt(Fraction(24)) == 4 and ref_floor_sqrt(Fraction(25)) == 5
    assert ref_leg_length((0, 0), (1, 1)) == 2


@given(small_points, small_points, small_points)
@examples(200)
def test_reference_half_planes_agree_with_the_angle_reference(apex: Point, p: Point, q: Point) -> None:
    """The clipping reference's half-planes describe the same arc as the pseudo-angle one."""
    for half in SPECIAL_HALVES:
        arc = Arc(apex, (q[0] * 31 + q[1]) % 360, half)
        assert ref_arc_meets(arc, [fp(p)]) == ref_arc_contains(arc, p)
        assert ref_arc_misses_outside(arc, [fp(p)]) == ref_arc_contains(arc, p)


# === whole numbers ============================================================================

def test_round_div_by_hand() -> None:
    assert [round_div(n, 2) for n in (-5, -3, -1, 1, 3, 5)] == [-2, -1, 0, 1, 2, 3]  # halves up
    assert round_div(7, 3) == 2 and round_div(-7, 3) == -2 and round_div(8, 3) == 3
    assert round_div(0, 9) == 0


@given(st.integers(-10**9, 10**9), st.integers(1, 10**6))
@examples(300)
def test_round_div_is_nearest_half_up(n: int, d: int) -> None:
    assert round_div(n, d) == ref_round(Fraction(n, d))


def test_square_roots_by_hand() -> None:
    assert [ceil_sqrt(n) for n in (0, 1, 2, 4, 5, 24, 25, 26)] == [0, 1, 2, 2, 3, 5, 5, 6]
    assert floor_sqrt_fraction(Fraction(99, 4)) == 4  # sqrt(24.75)
    assert floor_sqrt_fraction(Fraction(100, 4)) == 5
    assert floor_sqrt_fraction(Fraction(1, 3)) == 0


@given(st.integers(0, 10**12), st.integers(1, 10**6))
@examples(300)
def test_square_roots(n: int, d: int) -> None:
    r = ceil_sqrt(n)
    assert r * r >= n and (r == 0 or (r - 1) * (r - 1) < n)
    q = Fraction(n, d)
    f = floor_sqrt_fraction(q)
    assert f * f <= q < (f + 1) * (f + 1)
    assert f == ref_floor_sqrt(q)


# === the sine table ===========================================================================

def test_sine_table_is_rounded_sine_of_each_degree() -> None:
    assert SCALE == 2 ** 20
    for d in range(91):
        exact = math.sin(math.radians(d)) * SCALE
        assert abs(exact - math.floor(exact) - 0.5) > 1e-6, d  # no entry sits on a half
        assert sine(d) == round(exact), d
        assert type(sine(d)) is int


def test_sine_and_cosine_symmetries_for_every_degree() -> None:
    for d in range(-720, 721):
        s, c = sine(d), cosine(d)
        assert s == round(math.sin(math.radians(d)) * SCALE)
        assert c == round(math.cos(math.radians(d)) * SCALE)
        assert s == sine(d + 360) == sine(d - 360)
        assert sine(-d) == -s
        assert sine(180 - d) == s
        assert sine(d + 180) == -s
        assert c == sine(90 - d) == cosine(-d)
        assert direction(d) == (s, c)
        assert abs(s * s + c * c - SCALE * SCALE) <= SCALE  # each entry within half a unit
    assert direction(0) == (0, SCALE) and direction(90) == (SCALE, 0)
    assert direction(180) == (0, -SCALE) and direction(270) == (-SCALE, 0)


def test_table_directions_go_round_clockwise_in_order() -> None:
    assert TABLE_ANGLES == sorted(TABLE_ANGLES) and len(set(TABLE_ANGLES)) == 360
    assert TABLE_ANGLES[0] == 0 and TABLE_ANGLES[90] == 1 and TABLE_ANGLES[180] == 2


def test_offset_by_hand() -> None:
    assert offset(0, 10, 20) == (10, 20)
    assert offset(90, 10, 20) == (20, -10)  # facing east: forward is east, right is south
    assert offset(180, 10, 20) == (-10, -20)
    assert offset(270, 10, 20) == (-20, 10)
    assert offset(45, 0, 100) == (71, 71)  # 70.71...


@given(facings, st.integers(-3000, 3000), st.integers(-3000, 3000))
@examples(300)
def test_offset_is_the_rounded_turned_vector(facing: int, right: int, forward: int) -> None:
    fx, fy = direction(facing)
    rx, ry = direction(facing + 90)  # the right of a facing is the facing a quarter turn on
    x, y = offset(facing, right, forward)
    assert (x, y) == (ref_round(Fraction(right * rx + forward * fx, SCALE)),
                      ref_round(Fraction(right * ry + forward * fy, SCALE)))
    t = math.radians(facing)
    assert abs(x - (right * math.cos(t) + forward * math.sin(t))) < 0.51
    assert abs(y - (forward * math.cos(t) - right * math.sin(t))) < 0.51


# === points and segments ======================================================================

def test_products_and_squared_distance_by_hand() -> None:
    assert cross((0, 0), (1, 0), (0, 1)) == 1 and cross((0, 0), (0, 1), (1, 0)) == -1
    assert dot((1, 1), (4, 1), (1, 5)) == 0 and dot((0, 0), (2, 3), (4, 5)) == 23
    assert dist2((1, 2), (4, 6)) == 25
    assert within_distance((1, 2), (4, 6), 5) and not within_distance((1, 2), (4, 6), 4)


def test_segments_meet_by_hand() -> None:
    assert segments_meet((0, 0), (4, 4), (0, 4), (4, 0))  # an X
    assert segments_meet((0, 0), (4, 0), (2, 0), (2, 5))  # a T
    assert segments_meet((0, 0), (4, 0), (4, 0), (9, 9))  # end to end
    assert segments_meet((0, 0), (4, 0), (2, 0), (6, 0))  # collinear overlap
    assert not segments_meet((0, 0), (1, 0), (2, 0), (3, 0))  # collinear apart
    assert not segments_meet((0, 0), (4, 0), (0, 1), (4, 1))  # parallel
    assert not segments_meet((0, 0), (4, 0), (2, 1), (2, 5))  # a T that stops short
    assert segments_meet((2, 0), (2, 0), (0, 0), (4, 0))  # a point on a segment
    assert not segments_meet((2, 1), (2, 1), (0, 0), (4, 0))
    assert segments_meet((3, 3), (3, 3), (3, 3), (3, 3))


@given(small_points, small_points, small_points, small_points)
@examples(400)
def test_segments_meet_agrees_with_the_reference(a: Point, b: Point, c: Point, d: Point) -> None:
    expected = bool(ref_segment_meet(a, b, c, d))
    assert segments_meet(a, b, c, d) == expected
    assert segments_meet(c, d, a, b) == expected
    assert segments_meet(b, a, d, c) == expected


def test_point_segment_distance_by_hand() -> None:
    assert point_segment_dist2((0, 5), (-3, 0), (3, 0)) == 25
    assert point_segment_dist2((5, 4), (0, 0), (3, 0)) == 20  # past the end: to (3, 0)
    assert point_segment_dist2((1, 1), (0, 0), (2, 2)) == 0
    assert point_segment_dist2((0, 2), (0, 0), (2, 2)) == 2
    assert point_segment_dist2((1, 1), (4, 5), (4, 5)) == 25
    assert point_near_segment((0, 5), (-3, 0), (3, 0), 5)
    assert not point_near_segment((0, 5), (-3, 0), (3, 0), 4)
    assert segment_dist2((0, 0), (4, 0), (1, 3), (5, 3)) == 9
    assert segment_dist2((0, 0), (1, 0), (3, 1), (3, 5)) == 5
    assert segment_dist2((0, 0), (4, 4), (0, 4), (4, 0)) == 0


@given(small_points, small_points, small_points, small_points, st.integers(0, 20))
@examples(400)
def test_point_and_segment_distances_agree_with_the_reference(p: Point, a: Point, c: Point, d: Point,
                                                              reach: int) -> None:
    expected = ref_point_segment_dist2(fp(p), fp(c), fp(d))
    assert point_segment_dist2(p, c, d) == expected
    assert point_near_segment(p, c, d, reach) == (expected <= reach * reach)
    seg = ref_segment_dist2(a, p, c, d)
    assert segment_dist2(a, p, c, d) == seg == segment_dist2(c, d, a, p) == segment_dist2(p, a, d, c)
    # the reference is a true minimum: no point of ap (sampled) is nearer to cd
    for t in (ZERO, Fraction(1, 3), HALF, Fraction(5, 7), ONE):
        assert ref_point_segment_dist2(f_at(fp(a), fp(p), t), fp(c), fp(d)) >= seg


# === shapes ===================================================================================

def test_shape_checks_its_points() -> None:
    with pytest.raises(ValueError):
        Shape(())
    with pytest.raises(ValueError):
        polygon([(0, 0), (1, 1)])
    with pytest.raises(ValueError):
        polyline([(0, 0), (1.5, 1)])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        polyline([(True, 1)])
    with pytest.raises(ValueError):
        Shape(((1, 2, 3),))  # type: ignore[arg-type]
    square = polygon([[0, 0], [4, 0], [4, 4], [0, 4]])
    assert square.points == ((0, 0), (4, 0), (4, 4), (0, 4)) and square.closed
    assert square.edges[-1] == ((0, 4), (0, 0)) and len(square.edges) == 4
    assert polyline([(1, 1)]).edges == (((1, 1), (1, 1)),)
    assert polyline([(1, 1), (2, 2), (3, 1)]).edges == (((1, 1), (2, 2)), ((2, 2), (3, 1)))
    assert square.box == (0, 0, 4, 4)
    assert square.moved(-3, 7).points == ((-3, 7), (1, 7), (1, 11), (-3, 11))
    assert square.contains((4, 2)) and not polyline(square.points).contains((2, 2))


def test_twice_area_and_is_simple_by_hand() -> None:
    ccw = [(0, 0), (2, 0), (2, 2), (0, 2)]
    assert twice_area(polygon(ccw)) == 8 and twice_area(polygon(ccw[::-1])) == -8
    assert is_simple(polygon(ccw))
    assert is_simple(polygon([(0, 0), (1, 0), (2, 0), (2, 2), (0, 2)]))  # a corner on a straight edge
    assert not is_simple(polygon([(0, 0), (2, 2), (2, 0), (0, 2)]))  # a bow tie
    assert not is_simple(polygon([(0, 0), (4, 0), (2, 0), (2, 2)]))  # a spike folding back
    assert not is_simple(polygon([(0, 0), (2, 0), (2, 2), (2, 0)]))  # a repeated point
    assert not is_simple(polygon([(0, 0), (1, 1), (2, 2)]))  # no area
    assert not is_simple(polygon([(0, 0), (4, 0), (4, 4), (2, 0), (0, 4)]))  # a corner on an edge
    assert is_simple(polyline([(0, 0), (2, 2), (2, 0), (0, 2)]))  # a polyline is never refused


@given(st.lists(small_points, min_size=3, max_size=7))
@examples(300)
def test_is_simple_and_area_agree_with_the_reference(points: list[Point]) -> None:
    shape = polygon(points)
    assert twice_area(shape) == ref_twice_area(points)
    assert is_simple(shape) == ref_is_simple(points)


@given(simple_polygons)
@examples(60)
def test_generated_polygons_are_simple(shape: Shape) -> None:
    assert is_simple(shape)


def test_locate_by_hand() -> None:
    square = polygon([(0, 0), (10, 0), (10, 10), (0, 10)])
    assert [locate(p, square) for p in ((5, 5), (0, 5), (10, 10), (11, 5), (5, -1))] == [1, 0, 0, -1, -1]
    notch = polygon([(0, 0), (10, 0), (10, 10), (6, 10), (5, 4), (4, 10), (0, 10)])  # a V notch
    assert locate((5, 8), notch) == -1 and locate((5, 3), notch) == 1 and locate((5, 4), notch) == 0
    assert locate((2, 10), notch) == 0 and locate((8, 5), notch) == 1


@given(simple_polygons, small_points)
@examples(300)
def test_locate_agrees_with_the_winding_number(shape: Shape, p: Point) -> None:
    expected = ref_winding(fp(p), shape.points)
    assert locate(p, shape) == expected
    assert shape.contains(p) == (expected >= 0)
    assert locate(p, polygon(shape.points[::-1])) == expected  # either way round


@given(simple_polygons, small_points, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))
@examples(200)
def test_inside_stays_inside_after_any_whole_translation(shape: Shape, p: Point, dx: int, dy: int) -> None:
    moved = shape.moved(dx, dy)
    assert locate((p[0] + dx, p[1] + dy), moved) == locate(p, shape)
    assert moved.box == (shape.box[0] + dx, shape.box[1] + dy, shape.box[2] + dx, shape.box[3] + dy)


def test_overlap_within_distance_by_hand() -> None:
    big = polygon([(0, 0), (10, 0), (10, 10), (0, 10)])
    inner = polygon([(2, 2), (4, 2), (4, 4)])
    far = big.moved(20, 0)
    corner = big.moved(10, 10)
    assert overlap(big, inner) and overlap(inner, big)  # containment counts
    assert not overlap(big, far) and overlap(big, corner)  # touching at a corner counts
    assert not overlap(polyline(inner.points), polyline([(3, 3)]))  # a polyline has no inside
    assert within(big, far, 10) and not within(big, far, 9)
    diag = big.moved(13, 14)  # corner gap (3, 4)
    assert distance2(big, diag) == 25 and distance_floor(big, diag) == 5
    assert within(big, diag, 5) and not within(big, diag, 4)
    assert distance2(big, big.moved(11, 11)) == 2 and distance_floor(big, big.moved(11, 11)) == 1
    assert distance2(big, inner) == 0 and distance_floor(big, corner) == 0


@given(shapes(), shapes(), st.integers(0, 15))
@examples(300)
def test_shape_predicates_agree_with_the_reference(a: Shape, b: Shape, reach: int) -> None:
    d2 = ref_distance2(a, b)
    assert overlap(a, b) == ref_overlap(a, b) == overlap(b, a)
    assert distance2(a, b) == d2 == distance2(b, a)
    assert distance_floor(a, b) == ref_floor_sqrt(d2) == distance_floor(b, a)
    assert within(a, b, reach) == (d2 <= reach * reach) == within(b, a, reach)


@given(shapes(), shapes(), st.integers(-10**5, 10**5), st.integers(-10**5, 10**5))
@examples(100)
def test_distance_survives_moving_both(a: Shape, b: Shape, dx: int, dy: int) -> None:
    assert distance2(a.moved(dx, dy), b.moved(dx, dy)) == distance2(a, b)
    assert overlap(a.moved(dx, dy), b.moved(dx, dy)) == overlap(a, b)


@given(convex_polygons(), convex_polygons())
@examples(200)
def test_convex_overlap_agrees_with_clipping(a: Shape, b: Shape) -> None:
    """A second, independent reference for convex pairs: clip a by b's edges' half-planes."""
    pts = b.points if ref_twice_area(b.points) > 0 else b.points[::-1]  # counter-clockwise
    piece = [fp(p) for p in a.points]
    expected = True
    for p, q in ref_edges(pts, True):  # inside is to the left of each edge
        piece = clip(piece, fp(p), (Fraction(p[1] - q[1]), Fraction(q[0] - p[0])))
        if not piece:
            expected = False
            break
    assert overlap(a, b) == expected
    assert (distance2(a, b) == 0) == expected
