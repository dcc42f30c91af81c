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
import os
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
    line_meetings,
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


# PBEM_FUZZ_SCALE=20 runs twenty times the examples, fresh random ones (bug hunting); unset,
# every run draws the same examples (CI is reproducible).
FUZZ_SCALE = int(os.environ.get("PBEM_FUZZ_SCALE", "1"))


def examples(n: int) -> settings:
    """Property-test settings: n examples, the same on every run and machine."""
    return settings(max_examples=n * FUZZ_SCALE, derandomize="PBEM_FUZZ_SCALE" not in os.environ,
                    deadline=None, database=None,
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
    if ab == (ZERO, ZERO):
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
    if r == (ZERO, ZERO):
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
    if ab != (ZERO, ZERO):
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
    if arc.half == 180 or v == (ZERO, ZERO):
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


def ref_line_meetings(a: Point, b: Point, line: Shape) -> list[tuple[Fraction, Fraction]]:
    """The connected pieces of the segment's meeting with a polyline, as parameter intervals
    (t, t) for a point: the union of what each edge shares with it, joined where they touch."""
    pieces_: list[list[Fraction]] = sorted(
        [m[0], m[-1]] for c, d in ref_edges(line.points, False) if (m := ref_segment_meet(a, b, c, d)))
    out: list[tuple[Fraction, Fraction]] = []
    for t0, t1 in pieces_:
        if out and t0 <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], t1))
        else:
            out.append((t0, t1))
    return out


def ref_crossings(features: Sequence[tuple[str, Shape]], a: Point, b: Point) -> list[tuple[str, Fraction, Fraction]]:
    """Area features once per stretch inside; line features once per connected piece of the
    segment's meeting with them (a point, or a stretch running along)."""
    found: list[tuple[Fraction, Fraction, int, str]] = []
    for i, (key, shape) in enumerate(features):
        if shape.closed:
            found += [(t0, t1, i, key) for t0, t1 in ref_inside_intervals(a, b, shape)]
        else:
            found += [(t0, t1, i, key) for t0, t1 in ref_line_meetings(a, b, shape)]
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
    """Every whole unit of every leg, in order, checked against every obstacle: one not
    within reach at the start stops the move where any shape comes within reach of it; one
    already within reach stops it where any shape comes closer to it than it started."""
    if not path:
        return None
    start = path[0]
    began = {k: ([ref_distance2(s, o) for s in footprint]
                 if any(ref_within(s, o, reach) for s in footprint) else None) for k, o in obstacles}
    travelled = 0
    for p, q in list(zip(path, path[1:])) or [(start, start)]:
        length = ref_leg_length(p, q)
        for s in range(length + 1):
            at = ref_point_along(p, q, s)
            moved = [shape.moved(at[0] - start[0], at[1] - start[1]) for shape in footprint]
            for key, obstacle in obstacles:
                first = began[key]
                if first is None:
                    if any(ref_within(m, obstacle, reach) for m in moved):
                        return travelled + s, at, key
                elif any(ref_distance2(m, obstacle) < d0 for m, d0 in zip(moved, first)):
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
    return polygon(pts[::-1] if draw(st.booleans()) else pts)  # either way round


@st.composite
def bases(draw: st.DrawFn, spread: int = 40, size: int = 30, least: int = 1) -> Base:
    centre = draw(st.tuples(st.integers(-spread, spread), st.integers(-spread, spread)))
    return Base(centre, draw(facings), draw(st.integers(least, size)), draw(st.integers(least, size)))


@st.composite
def segments_for(draw: st.DrawFn, shape: Shape) -> tuple[Point, Point]:
    """A segment that is often degenerate against the shape: along one of its edges (extended
    or cut short), through or ending at a corner, or anywhere."""
    c, d = draw(st.sampled_from(list(ref_edges(shape.points, shape.closed))))
    k, m = draw(st.integers(-2, 2)), draw(st.integers(-2, 2))
    anywhere = draw(small_points)
    kind = draw(st.integers(0, 4))
    if kind == 4:  # both ends within the shape's box: often wholly inside it
        w, s, e, n = shape.box
        box_points = st.tuples(st.integers(w, e), st.integers(s, n))
        return draw(box_points), draw(box_points)
    if kind == 0:  # along the edge's line
        a = (c[0] + k * (d[0] - c[0]), c[1] + k * (d[1] - c[1]))
        b = (d[0] + m * (d[0] - c[0]), d[1] + m * (d[1] - c[1]))
    elif kind == 1:  # through a corner, on past it
        a, b = anywhere, (2 * c[0] - anywhere[0], 2 * c[1] - anywhere[1])
    elif kind == 2:  # ending at a corner
        a, b = anywhere, c
    else:
        a, b = anywhere, draw(small_points)
    return (a, b) if draw(st.booleans()) else (b, a)


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


@st.composite
def with_straight_corners(draw: st.DrawFn, base: st.SearchStrategy[Shape]) -> Shape:
    """A simple polygon doubled in size with corners added at the middle of some edges (a
    corner where the boundary runs straight on)."""
    shape = draw(base)
    pts: list[Point] = []
    for (ax, ay), (bx, by) in ref_edges(shape.points, True):
        pts.append((2 * ax, 2 * ay))
        if draw(st.booleans()):
            pts.append((ax + bx, ay + by))
    return polygon(pts)


# a base one unit wide or deep can round to a footprint with no area (see
# test_footprints_are_simple_from_two_units), so the simple polygons use bases from 2 units
_halved = st.tuples(st.integers(-6, 6), st.integers(-6, 6))
simple_polygons = st.one_of(convex_polygons(), star_polygons(), bases(12, 12, least=2).map(lambda b: b.shape),
                            with_straight_corners(st.one_of(convex_polygons(_halved), star_polygons(6))))


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
@examples(110)
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
@examples(160)
def test_round_div_is_nearest_half_up(n: int, d: int) -> None:
    assert round_div(n, d) == ref_round(Fraction(n, d))


def test_square_roots_by_hand() -> None:
    assert [ceil_sqrt(n) for n in (0, 1, 2, 4, 5, 24, 25, 26)] == [0, 1, 2, 2, 3, 5, 5, 6]
    assert floor_sqrt_fraction(Fraction(99, 4)) == 4  # sqrt(24.75)
    assert floor_sqrt_fraction(Fraction(100, 4)) == 5
    assert floor_sqrt_fraction(Fraction(1, 3)) == 0


@given(st.integers(0, 10**12), st.integers(1, 10**6))
@examples(160)
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
@examples(160)
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
@examples(220)
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
@examples(220)
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
@examples(160)
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
@examples(160)
def test_locate_agrees_with_the_winding_number(shape: Shape, p: Point) -> None:
    expected = ref_winding(fp(p), shape.points)
    assert locate(p, shape) == expected
    assert shape.contains(p) == (expected >= 0)
    assert locate(p, polygon(shape.points[::-1])) == expected  # either way round


@given(simple_polygons, small_points, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))
@examples(110)
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
@examples(160)
def test_shape_predicates_agree_with_the_reference(a: Shape, b: Shape, reach: int) -> None:
    d2 = ref_distance2(a, b)
    assert overlap(a, b) == ref_overlap(a, b) == overlap(b, a)
    assert distance2(a, b) == d2 == distance2(b, a)
    assert distance_floor(a, b) == ref_floor_sqrt(d2) == distance_floor(b, a)
    assert within(a, b, reach) == (d2 <= reach * reach) == within(b, a, reach)


@given(shapes(), shapes(), st.integers(-10**5, 10**5), st.integers(-10**5, 10**5))
@examples(60)
def test_distance_survives_moving_both(a: Shape, b: Shape, dx: int, dy: int) -> None:
    assert distance2(a.moved(dx, dy), b.moved(dx, dy)) == distance2(a, b)
    assert overlap(a.moved(dx, dy), b.moved(dx, dy)) == overlap(a, b)


@given(convex_polygons(), convex_polygons())
@examples(110)
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


# === triangle inequality and symmetry ===========================================================

def exact_floor_distance(a: Shape, b: Shape) -> int:
    return ref_floor_sqrt(ref_distance2(a, b))


@given(mid_points, mid_points, mid_points)
@examples(160)
def test_triangle_inequality_for_points(a: Point, b: Point, c: Point) -> None:
    pa, pb, pc = polyline([a]), polyline([b]), polyline([c])
    assert distance_floor(pa, pc) <= distance_floor(pa, pb) + distance_floor(pb, pc) + 1
    assert distance_floor(pa, pb) == distance_floor(pb, pa) == math.isqrt(dist2(a, b))


@given(shapes(), small_points, shapes(), shapes())
@examples(80)
def test_triangle_inequality_for_shapes(a: Shape, b: Point, c: Shape, mid_shape: Shape) -> None:
    pb = polyline([b])
    assert distance_floor(a, c) <= distance_floor(a, pb) + distance_floor(pb, c) + 1
    diameter = ceil_sqrt(max(dist2(p, q) for p in mid_shape.points for q in mid_shape.points))
    assert distance_floor(a, c) <= distance_floor(a, mid_shape) + distance_floor(mid_shape, c) + diameter + 2


def test_shape_distance_is_not_a_metric() -> None:
    a, long, c = polyline([(0, 0)]), polyline([(0, 0), (100, 0)]), polyline([(100, 0)])
    assert distance_floor(a, long) == distance_floor(long, c) == 0
    assert distance_floor(a, c) == 100  # hence the diameter in the shapes' inequality


# === bases ====================================================================================

def test_base_checks_itself() -> None:
    for facing in (-1, 360, 45.0):
        with pytest.raises(ValueError):
            Base((0, 0), facing, 30, 30)  # type: ignore[arg-type]
    for w, d in ((0, 30), (30, 0), (-30, 30)):
        with pytest.raises(ValueError):
            Base((0, 0), 0, w, d)


def test_base_corners_by_hand() -> None:
    b = Base((100, 200), 0, 30, 20)
    assert b.corners == ((85, 210), (115, 210), (115, 190), (85, 190))
    assert b.front_edge == ((85, 210), (115, 210)) and b.front_centre == (100, 210)
    east = Base((100, 200), 90, 30, 20)
    assert east.corners == ((110, 215), (110, 185), (90, 185), (90, 215))
    assert east.front_centre == (110, 200)
    odd = Base((0, 0), 0, 3, 3)  # half a unit rounds up: the odd base sits a half unit north-east
    assert odd.corners == ((-1, 2), (2, 2), (2, -1), (-1, -1))
    diamond = Base((0, 0), 45, 30, 30)
    assert diamond.corners == ((0, 21), (21, 0), (0, -21), (-21, 0))  # 15 * sqrt 2 = 21.2
    moved = b.placed((0, 0), 370)
    assert moved == Base((0, 0), 10, 30, 20) and b.placed((5, 5)).facing == 0


@given(st.tuples(st.integers(-10**4, 10**4), st.integers(-10**4, 10**4)), st.integers(1, 200),
       st.integers(1, 200), st.sampled_from([0, 90, 180, 270]))
@examples(80)
def test_even_bases_on_quarter_facings_are_exact(centre: Point, half_w: int, half_d: int, facing: int) -> None:
    b = Base(centre, facing, 2 * half_w, 2 * half_d)
    (cx, cy), hw, hd = b.centre, b.width // 2, b.depth // 2
    fx, fy = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}[facing]
    rx, ry = fy, -fx
    expected = tuple((cx + r * hw * rx + f * hd * fx, cy + r * hw * ry + f * hd * fy)
                     for r, f in ((-1, 1), (1, 1), (1, -1), (-1, -1)))
    assert b.corners == expected
    assert b.front_centre == (cx + hd * fx, cy + hd * fy)
    assert twice_area(b.shape) == -2 * b.width * b.depth  # clockwise, the full area


@given(bases(spread=10**4, size=400))
@examples(160)
def test_base_corners_are_the_exact_rectangle_rounded(base: Base) -> None:
    exact = ref_base_corners(base)
    assert list(base.corners) == [(ref_round(x), ref_round(y)) for x, y in exact]
    for (x, y), (ex, ey) in zip(base.corners, exact):
        assert abs(x - ex) <= HALF and abs(y - ey) <= HALF  # within 1 unit (0.71)
    t = math.radians(base.facing)
    fwd, rgt = (math.sin(t), math.cos(t)), (math.cos(t), -math.sin(t))
    for (x, y), (r, f) in zip(base.corners, ((-1, 1), (1, 1), (1, -1), (-1, -1))):
        tx = base.centre[0] + r * base.width / 2 * rgt[0] + f * base.depth / 2 * fwd[0]
        ty = base.centre[1] + r * base.width / 2 * rgt[1] + f * base.depth / 2 * fwd[1]
        assert math.hypot(x - tx, y - ty) < 1  # and within 1 of the true rectangle
    assert twice_area(base.shape) <= 0  # clockwise seen from above
    fl, fr = base.front_edge
    assert base.front_centre == (round_div(fl[0] + fr[0], 2), round_div(fl[1] + fr[1], 2))
    fx, fy = direction(base.facing)
    ahead = (base.front_centre[0] - base.centre[0]) * fx + (base.front_centre[1] - base.centre[1]) * fy
    assert ahead >= 0 and (base.depth < 4 or ahead > 0)


@given(bases(spread=10**4, size=600, least=2))
@examples(110)
def test_footprints_are_simple_from_two_units(base: Base) -> None:
    """Not promised by the docstring, but what `locate` on a footprint relies on: a base at
    least 2 units each way keeps a simple, clockwise footprint at every facing (checked
    exhaustively for 2..60 units while writing this). One unit wide, rounding can fold it."""
    assert is_simple(base.shape) and twice_area(base.shape) < 0
    assert not is_simple(Base((0, 0), 44, 1, 3).shape)  # corners (1, 1) twice and (-1, -1) twice


@given(bases(), bases(), st.integers(0, 40))
@examples(110)
def test_contact_is_symmetric_and_exact(a: Base, b: Base, reach: int) -> None:
    expected = ref_distance2(a.shape, b.shape) <= reach * reach
    assert in_contact(a, b, reach) == in_contact(b, a, reach) == expected


# === arcs =====================================================================================

def test_arc_checks_its_half() -> None:
    for half in (0, 181, -5, 45.0):
        with pytest.raises(ValueError):
            Arc((0, 0), 0, half)  # type: ignore[arg-type]
    arc = Arc((0, 0), 0, 45)
    assert arc.rays == (direction(-45), direction(45))


def test_arc_contains_by_hand() -> None:
    north90 = Arc((0, 0), 0, 45)
    assert north90.contains((0, 0)) and north90.contains((0, 5)) and north90.contains((5, 5))  # rays belong
    assert north90.contains((-5, 5)) and not north90.contains((5, 4)) and not north90.contains((0, -5))
    front = Arc((10, 10), 90, 90)  # facing east, the front half-plane x >= 10
    assert front.contains((10, 50)) and front.contains((10, -50)) and not front.contains((9, 10))
    wide = Arc((0, 0), 0, 135)  # all but the 90 degrees behind
    assert wide.contains((5, -5)) and wide.contains((-5, -5)) and not wide.contains((1, -5))
    needle = Arc((0, 0), 0, 1)
    assert needle.contains((0, 100)) and needle.contains((1, 58)) and not needle.contains((1, 57))
    assert Arc((0, 0), 0, 180).contains((0, -1))
    assert Arc((0, 0), 0, 179).contains((-1, -57)) and not Arc((0, 0), 0, 179).contains((-1, -58))
    assert not Arc((0, 0), 0, 179).contains((0, -1))


def arc_probe_points(arc: Arc, extra: Sequence[Point]) -> list[Point]:
    """Points on, beside and far along both boundary rays, the apex, and others."""
    (lx, ly), (rx, ry) = direction(arc.facing - arc.half), direction(arc.facing + arc.half)
    ax, ay = arc.apex
    out = [arc.apex, *extra]
    for vx, vy in ((lx, ly), (rx, ry)):
        for far in (SCALE, 1500, 37):  # on the ray itself, and rounded to it at table distances
            px, py = ax + round_div(vx * far, SCALE), ay + round_div(vy * far, SCALE)
            for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                out.append((px + dx, py + dy))
        out.append((ax - vx, ay - vy))
    return out


@given(small_points, facings, halves, st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
                                                 max_size=6))
@examples(160)
def test_arc_contains_agrees_with_exact_angles(apex: Point, facing: int, half: int, others: list[Point]) -> None:
    arc = Arc(apex, facing, half)
    for p in arc_probe_points(arc, others):
        assert arc.contains(p) == ref_arc_contains(arc, p), p
        vx, vy = p[0] - apex[0], p[1] - apex[1]
        if (vx, vy) != (0, 0):  # and with real angles, away from the boundary
            off = abs((math.degrees(math.atan2(vx, vy)) - facing + 180) % 360 - 180)
            if abs(off - half) > 1e-4:
                assert arc.contains(p) == (off <= half), p


@given(small_points, facings, halves, shapes())
@examples(220)
def test_arc_touches_and_holds_agree_with_clipping(apex: Point, facing: int, half: int, shape: Shape) -> None:
    arc = Arc(apex, facing, half)
    touches, holds = ref_touches(arc, shape), ref_holds(arc, shape)
    assert arc.touches(shape) == touches
    assert arc.holds(shape) == holds
    assert not holds or touches
    if shape.closed and twice_area(shape) != 0 and len(convex_hull(shape.points)) == len(shape.points):
        whole = [fp(p) for p in shape.points]  # a convex polygon clipped whole says the same
        assert ref_arc_meets(arc, whole) == touches
        assert ref_arc_misses_outside(arc, whole) == holds


@given(facings, halves, bases(spread=60, size=40))
@examples(110)
def test_arc_of_a_base_against_another_base(facing: int, half: int, target: Base) -> None:
    for apex in ((0, 0), (target.corners[0][0], target.corners[0][1] - 3)):
        arc = Arc(apex, facing, half)
        assert arc.touches(target.shape) == ref_touches(arc, target.shape)
        assert arc.holds(target.shape) == ref_holds(arc, target.shape)
        if half < 180:  # a wider arc holds and touches at least as much
            wider = Arc(apex, facing, half + 1)
            assert wider.touches(target.shape) >= arc.touches(target.shape)
            assert wider.holds(target.shape) >= arc.holds(target.shape)


def test_arc_touches_and_holds_by_hand() -> None:
    front = Arc((0, 0), 0, 45)
    ahead = polygon([(-2, 10), (2, 10), (2, 14), (-2, 14)])
    astride = polygon([(5, 4), (15, 4), (15, 8), (5, 8)])  # crosses the right ray
    beside = polygon([(10, 1), (20, 1), (20, 5), (10, 5)])
    assert front.holds(ahead) and front.touches(ahead)
    assert front.touches(astride) and not front.holds(astride)
    assert not front.touches(beside) and not front.holds(beside)
    around = polygon([(-5, -5), (5, -5), (5, 5), (-5, 5)])  # holds the apex, no corner in the arc
    assert front.touches(around) and not front.holds(around)
    wall = polyline([(-10, 20), (10, 20)])
    assert front.holds(wall)
    assert front.touches(polyline([(-30, 20), (30, 20)]))  # both ends outside, the middle in
    wide = Arc((0, 0), 0, 135)
    behind = polygon([(-1, -10), (1, -10), (1, -12), (-1, -12)])
    assert not wide.touches(behind) and wide.touches(beside)
    assert not wide.holds(polyline([(-20, -10), (20, -10)]))  # its middle is behind
    assert wide.holds(polyline([(-20, -10), (-20, 10), (20, 10), (20, -10)]))  # a U round the back


# === along a segment: what a line of sight crosses ============================================

SQUARE = polygon([(5, 0), (15, 0), (15, 10), (5, 10)])
U_SHAPE = polygon([(0, 0), (30, 0), (30, 20), (20, 20), (20, 10), (10, 10), (10, 20), (0, 20)])


def test_meeting_parameters_by_hand() -> None:
    assert meeting_parameters((0, 5), (20, 5), SQUARE) == [Fraction(1, 4), Fraction(3, 4)]
    assert meeting_parameters((0, 0), (20, 0), SQUARE) == [Fraction(1, 4), Fraction(3, 4)]  # along an edge
    assert meeting_parameters((5, 20), (25, 0), SQUARE) == [Fraction(1, 2)]  # through a corner only
    assert meeting_parameters((0, 30), (20, 30), SQUARE) == []
    assert meeting_parameters((5, 5), (5, 5), SQUARE) == [0] and meeting_parameters((6, 5), (6, 5), SQUARE) == []
    wall = polyline([(10, -5), (10, 15)])
    assert meeting_parameters((0, 5), (20, 5), wall) == [HALF]
    assert meeting_parameters((0, 5), (10, 5), wall) == [ONE]


def test_inside_intervals_by_hand() -> None:
    assert inside_intervals((0, 5), (20, 5), SQUARE) == [(Fraction(1, 4), Fraction(3, 4))]
    assert inside_intervals((0, 15), (40, 15), U_SHAPE) == [(0, Fraction(1, 4)), (HALF, Fraction(3, 4))]
    assert inside_intervals((0, 10), (40, 10), U_SHAPE) == [(ZERO, Fraction(3, 4))]  # along the notch's floor
    assert inside_intervals((5, 20), (25, 0), SQUARE) == []  # grazing a corner is no stretch
    assert inside_intervals((6, 1), (14, 9), SQUARE) == [(ZERO, ONE)]  # wholly inside
    assert inside_intervals((10, 5), (30, 5), SQUARE) == [(ZERO, Fraction(1, 4))]


def test_inside_intervals_of_one_point_is_empty_inside() -> None:
    assert inside_intervals((10, 5), (10, 5), SQUARE) == []
    assert inside_intervals((50, 5), (50, 5), SQUARE) == []


def test_inside_intervals_of_one_point_is_empty_on_the_boundary() -> None:
    assert inside_intervals((5, 5), (5, 5), SQUARE) == []
    assert FeatureIndex([("wood", SQUARE)]).crossings((5, 5), (5, 5)) == []


@given(st.data(), st.one_of(shapes(), simple_polygons))
@examples(160)
def test_meeting_parameters_agree_with_the_reference(data: st.DataObject, shape: Shape) -> None:
    a, b = data.draw(segments_for(shape))
    ts = meeting_parameters(a, b, shape)
    assert ts == ref_meeting_parameters(a, b, shape)
    assert all(0 <= t <= 1 for t in ts) and ts == sorted(set(ts))
    for t in ts:  # each is on the shape's boundary
        p = f_at(fp(a), fp(b), t)
        assert any(ref_on_segment(p, fp(c), fp(d)) for c, d in ref_edges(shape.points, shape.closed))


@given(st.data(), simple_polygons, st.lists(st.fractions(0, 1, max_denominator=97), max_size=8))
@examples(140)
def test_inside_intervals_agree_with_the_reference(data: st.DataObject, shape: Shape, samples: list[Fraction]) -> None:
    a, b = data.draw(segments_for(shape))
    assume(a != b)
    stretches = inside_intervals(a, b, shape)
    assert stretches == ref_inside_intervals(a, b, shape)
    assert all(t0 < t1 for t0, t1 in stretches)
    assert all(s0[1] < s1[0] for s0, s1 in zip(stretches, stretches[1:]))  # apart, in order
    cuts = set(ref_meeting_parameters(a, b, shape))
    for t in samples:  # sampling: inside exactly on the stretches, but for single boundary points
        in_stretch = any(t0 <= t <= t1 for t0, t1 in stretches)
        if t not in cuts:
            assert in_stretch == ref_inside_at(a, b, t, shape), t
        elif not in_stretch:
            assert ref_inside_at(a, b, t, shape)  # a touch: on the boundary, no stretch
    moved = shape.moved(7, -3)
    assert inside_intervals((a[0] + 7, a[1] - 3), (b[0] + 7, b[1] - 3), moved) == stretches


def test_stretch_at_most_by_hand() -> None:
    assert stretch_at_most((0, 0), (3, 4), Fraction(3, 5), 3)  # 3 of 5 units
    assert not stretch_at_most((0, 0), (3, 4), Fraction(3, 5), 2)
    assert stretch_at_most((0, 0), (1, 1), ONE, 2) and not stretch_at_most((0, 0), (1, 1), ONE, 1)


@given(mid_points, mid_points, st.fractions(0, 1, max_denominator=50), st.integers(0, 900))
@examples(110)
def test_stretch_at_most_is_exact(a: Point, b: Point, fraction: Fraction, limit: int) -> None:
    """fraction * |ab| <= limit: against the real length away from ties (ties are exact in
    the hand cases), and monotone in the limit."""
    got = stretch_at_most(a, b, fraction, limit)
    real = float(fraction) * math.sqrt(dist2(a, b))
    if abs(real - limit) > 1e-6:
        assert got == (real <= limit)
    assert stretch_at_most(a, b, fraction, limit + 1) or not got
    assert stretch_at_most(a, b, fraction, ref_floor_sqrt(fraction * fraction * dist2(a, b)) + 1)


def test_crossings_by_hand() -> None:
    wood = polygon([(10, -10), (30, -10), (30, 10), (10, 10)])
    wall = polyline([(50, -10), (50, 10)])
    house = polygon([(60, -5), (70, -5), (70, 5), (60, 5)])
    far = polygon([(0, 100), (10, 100), (10, 110)])
    index = FeatureIndex([("house", house), ("wall", wall), ("wood", wood), ("far", far)])
    assert index.crossings((0, 0), (100, 0)) == [
        Crossing("wood", Fraction(1, 10), Fraction(3, 10)),
        Crossing("wall", HALF, HALF),
        Crossing("house", Fraction(3, 5), Fraction(7, 10)),
    ]
    assert index.crossings((100, 0), (0, 0))[0] == Crossing("house", Fraction(3, 10), Fraction(2, 5))
    assert index.crossings((0, 50), (100, 50)) == []
    assert index.crossings((40, 0), (55, 0)) == [Crossing("wall", Fraction(2, 3), Fraction(2, 3))]


def test_crossings_along_a_line_feature() -> None:
    """A sight line running along a wall is one crossing from where it joins the wall to where
    it leaves it; a zigzag wall met at a bend and crossed later is two."""
    wall = polyline([(10, 0), (20, 0), (25, 5)])
    assert FeatureIndex([("wall", wall)]).crossings((0, 0), (40, 0)) == [Crossing("wall", Fraction(1, 4), HALF)]
    zigzag = polyline([(0, 5), (5, 0), (10, 5), (15, -5)])
    assert FeatureIndex([("z", zigzag)]).crossings((0, 0), (20, 0)) == [
        Crossing("z", Fraction(1, 4), Fraction(1, 4)), Crossing("z", Fraction(5, 8), Fraction(5, 8))]


def test_line_meetings_by_hand() -> None:
    wall = polyline([(10, 0), (20, 0), (25, 5)])
    assert line_meetings((0, 0), (40, 0), wall) == [(Fraction(1, 4), HALF)]  # runs along, then leaves
    assert line_meetings((15, -5), (15, 5), wall) == [(HALF, HALF)]  # across
    assert line_meetings((0, 5), (40, 5), wall) == [(Fraction(5, 8), Fraction(5, 8))]  # touches the end
    assert line_meetings((0, 9), (40, 9), wall) == []
    assert line_meetings((20, 0), (20, 0), wall) == [(ZERO, ZERO)] and line_meetings((0, 1), (0, 1), wall) == []
    loop = polyline([(0, -5), (10, 5), (10, -5), (0, 5)])  # crosses itself on the segment
    assert line_meetings((0, 0), (20, 0), loop) == [(Fraction(1, 4), Fraction(1, 4)), (HALF, HALF)]


@given(st.data(), polylines())
@examples(160)
def test_line_meetings_agree_with_the_reference(data: st.DataObject, line: Shape) -> None:
    a, b = data.draw(segments_for(line))
    got = line_meetings(a, b, line)
    assert got == ref_line_meetings(a, b, line)
    assert all(t0 <= t1 for t0, t1 in got) and all(p[1] < q[0] for p, q in zip(got, got[1:]))
    ends = {t for span in got for t in span}
    assert ends <= set(meeting_parameters(a, b, line))  # each end is a meeting parameter


@st.composite
def feature_lists(draw: st.DrawFn) -> list[tuple[str, Shape]]:
    kinds = st.one_of(simple_polygons, polylines(), small_points.map(lambda p: polyline([p])),
                      star_polygons(30), bases(20, 30, least=2).map(lambda b: b.shape))
    found = draw(st.lists(kinds, min_size=1, max_size=5))
    return [(f"f{i}", shape) for i, shape in enumerate(found)]


@given(st.data(), feature_lists())
@examples(100)
def test_crossings_agree_with_the_reference(data: st.DataObject, features: list[tuple[str, Shape]]) -> None:
    a, b = data.draw(segments_for(data.draw(st.sampled_from(features))[1]))
    assume(a != b)
    got = FeatureIndex(features).crossings(a, b)
    assert [(c.key, c.enter, c.leave) for c in got] == ref_crossings(features, a, b)
    assert [(c.enter, c.leave) for c in got] == sorted((c.enter, c.leave) for c in got)
    back = FeatureIndex(features).crossings(b, a)  # the same things, seen from the other end
    assert sorted((c.key, 1 - c.leave, 1 - c.enter) for c in back) == sorted((c.key, c.enter, c.leave) for c in got)


def test_passes_near_by_hand() -> None:
    bases_ = [("b", polygon([(40, 5), (50, 5), (50, 15), (40, 15)])),
              ("a", polygon([(10, -15), (20, -15), (20, -6), (10, -6)])),
              ("c", polygon([(60, 20), (70, 20), (70, 30), (60, 30)]))]
    assert passes_near((0, 0), (100, 0), bases_, 5) == ["b"]
    assert passes_near((0, 0), (100, 0), bases_, 6) == ["a", "b"]  # ordered along the line
    assert passes_near((0, 0), (100, 0), bases_, 20) == ["a", "b", "c"]
    assert passes_near((0, 0), (0, 0), bases_, 10) == []
    assert passes_near((15, 0), (15, 0), bases_, 6) == ["a"]


@given(st.data(), feature_lists(), st.integers(0, 8))
@examples(100)
def test_passes_near_agrees_with_the_reference(data: st.DataObject, features: list[tuple[str, Shape]],
                                               reach: int) -> None:
    a, b = data.draw(segments_for(data.draw(st.sampled_from(features))[1]))
    seg = polyline([a, b]) if a != b else polyline([a])
    near = [(dot(a, s.points[0], b), i, k) for i, (k, s) in enumerate(features) if ref_within(seg, s, reach)]
    assert passes_near(a, b, features, reach) == [k for _, _, k in sorted(near)]


# === moving along a path ======================================================================

def test_leg_and_path_lengths_by_hand() -> None:
    assert leg_length((0, 0), (3, 4)) == 5 and leg_length((0, 0), (1, 1)) == 2
    assert leg_length((2, 2), (2, 2)) == 0 and leg_length((0, 0), (0, -7)) == 7
    assert path_length([(0, 0), (3, 4), (3, 10), (4, 11)]) == 5 + 6 + 2
    assert path_length([(1, 1)]) == 0 and path_length([]) == 0


@given(st.lists(mid_points, min_size=2, max_size=5))
@examples(160)
def test_leg_length_rounds_up_by_less_than_one(points: list[Point]) -> None:
    for p, q in zip(points, points[1:]):
        n = leg_length(p, q)
        assert n == ref_leg_length(p, q) == leg_length(q, p)
        assert n * n >= dist2(p, q) and (n - 1) ** 2 < dist2(p, q) or n == 0 == dist2(p, q)
        assert math.sqrt(dist2(p, q)) <= n < math.sqrt(dist2(p, q)) + 1
    assert path_length(points) == sum(ref_leg_length(p, q) for p, q in zip(points, points[1:]))


def test_point_along_by_hand() -> None:
    assert point_along((0, 0), (3, 4), 5) == (3, 4) and point_along((0, 0), (3, 4), 6) == (3, 4)
    assert point_along((0, 0), (3, 4), 2) == (1, 1)  # exactly (1.2, 1.6)
    assert point_along((0, 0), (-3, -4), 2) == (-1, -1)  # truncated toward the start
    assert point_along((10, 10), (10, 30), 7) == (10, 17)
    assert point_along((0, 0), (3, 4), 0) == (0, 0) and point_along((0, 0), (3, 4), -4) == (0, 0)
    assert point_along((5, 5), (5, 5), 3) == (5, 5)
    assert point_along_path([(0, 0), (3, 4), (3, 14)], 8) == (3, 7)
    assert point_along_path([(0, 0), (3, 4), (3, 14)], 99) == (3, 14)
    assert point_along_path([(0, 0), (1, 1), (1, 11)], 2) == (1, 1)  # the diagonal counts 2
    assert point_along_path([(0, 0), (1, 1), (1, 11)], 3) == (1, 2)


def within_two_of_exact(a: Point, b: Point, distance: int, p: Point) -> bool:
    """|p - (a + distance / L (b - a))| < 2 with L = |ab|, decided exactly: with u = p - a,
    |u|^2 - 2 distance (u . (b - a)) / L + distance^2 < 4, i.e. A * L < B below."""
    u = (p[0] - a[0], p[1] - a[1])
    l2 = dist2(a, b)
    big_a = u[0] ** 2 + u[1] ** 2 + distance ** 2 - 4
    big_b = 2 * distance * (u[0] * (b[0] - a[0]) + u[1] * (b[1] - a[1]))
    if big_a <= 0:
        return big_b > 0 or big_a * big_a * l2 > big_b * big_b
    return big_b > 0 and big_a * big_a * l2 < big_b * big_b


@given(mid_points, mid_points, st.integers(-5, 900))
@examples(220)
def test_point_along_truncates_toward_the_start(a: Point, b: Point, distance: int) -> None:
    p = point_along(a, b, distance)
    assert p == ref_point_along(a, b, distance)
    if distance <= 0 or a == b:
        assert p == a
    elif distance * distance >= dist2(a, b):
        assert p == b
    else:
        assert dist2(a, p) <= distance * distance  # never beyond the distance
        assert within_two_of_exact(a, b, distance, p)
        for k in (0, 1):  # each coordinate lies between a's and the exact point's
            lo, hi = sorted((a[k], b[k]))
            assert lo <= p[k] <= hi


@given(st.lists(mid_points, min_size=1, max_size=5), st.integers(-3, 2000))
@examples(110)
def test_point_along_path_walks_the_legs(points: list[Point], distance: int) -> None:
    left = distance
    expected = points[-1]
    for p, q in zip(points, points[1:]):
        n = ref_leg_length(p, q)
        if left <= n:
            expected = ref_point_along(p, q, left)
            break
        left -= n
    assert point_along_path(points, distance) == expected


def test_first_stop_by_hand() -> None:
    mover = Base((0, 0), 0, 30, 30)
    enemy = Base((0, 130), 180, 30, 30)  # front edges 100 apart
    stop = first_stop([mover.shape], [(0, 0), (0, 200)], [("enemy", enemy.shape)], 30)
    assert stop == Stop(70, (0, 70), "enemy")  # contact: within 30 (BST, Contact), gap exactly 30
    assert first_stop([mover.shape], [(0, 0), (0, 69)], [("enemy", enemy.shape)], 30) is None
    # a dog-leg: 3-4-5 first (5 counted), then north; the stop counts the legs' whole lengths
    stop = first_stop([mover.shape], [(0, 0), (3, 4), (3, 200)], [("enemy", enemy.shape)], 30)
    assert stop == Stop(5 + 66, (3, 70), "enemy")
    # already in contact at the start: moving away from that enemy is free, another one stops it
    near = Base((40, 0), 0, 30, 30)
    wood = polygon([(-50, 150), (50, 150), (50, 160)])
    assert first_stop([mover.shape], [(0, 0), (0, 200)], [("near", near.shape)], 30) is None
    stop = first_stop([mover.shape], [(0, 0), (0, 200)], [("near", near.shape), ("wood", wood)], 0)
    assert stop is not None and stop.key == "wood" and stop.at == (0, stop.distance)
    assert first_stop([mover.shape], [(0, 0)], [("enemy", enemy.shape)], 30) is None
    assert first_stop([mover.shape], [(0, 0), (0, 200)], [], 30) is None


def test_first_stop_lets_a_start_contact_go_away_but_never_through() -> None:
    """The docstring's reading: an obstacle within reach at the start stops the move only
    where the footprint would come closer to it than it started."""
    mover, near = Base((0, 0), 0, 30, 30), Base((40, 0), 0, 30, 30)
    assert first_stop([mover.shape], [(0, 0), (-100, 0), (0, 0)], [("near", near.shape)], 30) is None
    assert first_stop([mover.shape], [(0, 0), (0, 100)], [("near", near.shape)], 30) is None   # along
    assert first_stop([mover.shape], [(0, 0), (100, 0)], [("near", near.shape)], 30) == Stop(1, (1, 0), "near")
    assert first_stop([mover.shape], [(0, 0), (0, 50), (100, 50)], [("near", near.shape)], 30) is None  # round it
    assert first_stop([mover.shape], [(0, 0), (0, 20), (100, 20)], [("near", near.shape)], 30) == Stop(21, (1, 20), "near")
    # backing off first does not make the way through free: it stops once closer than at the start
    assert first_stop([mover.shape], [(0, 0), (-20, 0), (100, 0)], [("near", near.shape)], 30) == Stop(41, (1, 0), "near")


def test_first_stop_with_nothing_moving_is_never_stopped() -> None:
    enemy = Base((0, 130), 0, 30, 30)
    assert first_stop([], [(0, 0), (0, 100)], [("enemy", enemy.shape)], 30) is None


Scene = tuple[list[Shape], list[Point], list[tuple[str, Shape]], int]  # footprint, path, obstacles, reach


def assert_stops_like_the_walk(scene: Scene) -> None:
    footprint, path, obstacles, reach = scene
    stop = first_stop(footprint, path, obstacles, reach)
    expected = ref_first_stop(footprint, path, obstacles, reach)
    assert (None if stop is None else (stop.distance, stop.at, stop.key)) == expected


@st.composite
def moving_scenes(draw: st.DrawFn) -> tuple[list[Shape], list[Point], list[tuple[str, Shape]], int]:
    start = draw(st.tuples(st.integers(0, 40), st.integers(0, 40)))
    footprint = [Base(start, draw(facings), draw(st.integers(1, 20)), draw(st.integers(1, 20))).shape]
    if draw(st.booleans()):  # a second base keeping its offset
        footprint.append(Base((start[0] + draw(st.integers(-25, 25)), start[1] + draw(st.integers(-25, 25))),
                              draw(facings), draw(st.integers(1, 20)), draw(st.integers(1, 20))).shape)
    path = [start] + draw(st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100)), min_size=0, max_size=3))
    obstacle_shapes = st.one_of(
        bases(spread=60, size=25).map(lambda b: b.shape.moved(40, 40)),
        convex_polygons(st.tuples(st.integers(0, 110), st.integers(0, 110))),
        polylines(st.tuples(st.integers(0, 110), st.integers(0, 110))),
    )
    obstacles = [(f"o{i}", s) for i, s in enumerate(draw(st.lists(obstacle_shapes, min_size=0, max_size=3)))]
    return footprint, path, obstacles, draw(st.integers(0, 30))


@st.composite
def long_moves(draw: st.DrawFn) -> tuple[list[Shape], list[Point], list[tuple[str, Shape]], int]:
    """Table-sized moves (hundreds of units) past a few bases: the skipping is what is tested."""
    start = draw(st.tuples(st.integers(0, 600), st.integers(0, 600)))
    footprint = [Base(start, draw(facings), 30, 30).shape]
    path = [start] + draw(st.lists(st.tuples(st.integers(0, 600), st.integers(0, 600)), min_size=1, max_size=2))
    enemies = draw(st.lists(bases(spread=300, size=60, least=10), min_size=1, max_size=3))
    obstacles = [(f"e{i}", b.shape.moved(300, 300)) for i, b in enumerate(enemies)]
    return footprint, path, obstacles, draw(st.integers(0, 40))


@given(long_moves())
@examples(12)
def test_first_stop_on_long_moves_agrees_with_the_walk(scene: Scene) -> None:
    assert_stops_like_the_walk(scene)


@given(moving_scenes())
@examples(60)
def test_first_stop_agrees_with_a_walk_of_every_unit(scene: Scene) -> None:
    assert_stops_like_the_walk(scene)


@given(mid_points, mid_points)
@examples(220)
def test_bearing_is_the_nearest_table_direction(a: Point, b: Point) -> None:
    f = bearing(a, b)
    assert 0 <= f < 360
    if a == b:
        assert f == 0
        return
    v = (b[0] - a[0], b[1] - a[1])
    assert f == ref_bearing(v)
    true = math.degrees(math.atan2(v[0], v[1])) % 360
    assert abs((true - f + 180) % 360 - 180) <= 0.5 + 1e-6
    # nearest by exact angle among all 360 directions (cos of the angle, squared with sign),
    # but for near ties, where the rule's unnormalised cross products may pick either side
    def closeness(h: int) -> Fraction:
        d = direction(h)
        c = d[0] * v[0] + d[1] * v[1]
        return Fraction(c * abs(c), d[0] ** 2 + d[1] ** 2)
    best = max(range(360), key=closeness)
    gap = abs(closeness(best) - closeness(f)) / closeness(best)
    assert f == best or gap < Fraction(1, 10**5)


def test_bearing_by_hand() -> None:
    assert bearing((0, 0), (1, 1)) == 45 and bearing((0, 0), (0, -5)) == 180
    assert bearing((0, 0), (-1, 0)) == 270 and bearing((3, 3), (3, 3)) == 0
    assert bearing((10, 10), (10, 11)) == 0 and bearing((0, 0), (-1, 100)) == 359
    for f in range(360):  # each table direction is its own bearing, also scaled down
        assert bearing((0, 0), direction(f)) == f
        dx, dy = direction(f)
        assert bearing((5, -5), (5 + round_div(dx * 1000, SCALE), -5 + round_div(dy * 1000, SCALE))) == f


@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
@examples(110)
def test_turn_between_is_the_smaller_turn(a: int, b: int) -> None:
    expected = min(k for k in range(181) if (a + k - b) % 360 == 0 or (a - k - b) % 360 == 0)
    assert turn_between(a, b) == expected == turn_between(b, a)


def test_turn_between_by_hand() -> None:
    assert turn_between(350, 10) == 20 and turn_between(0, 180) == 180 and turn_between(90, 89) == 1
    assert turn_between(45, 45) == 0 and turn_between(-90, 270) == 0


# === the rule texts' worked geometry ==========================================================

MM_BASE = 30  # BST, Terminology: a base is 30 mm square
CONTACT = 30  # BST, Terminology: in contact = within a base width, 3 cm if measured


def bst_base(x: int, y: int, facing: int = 0) -> Base:
    return Base((x, y), facing, MM_BASE, MM_BASE)


def test_bst_contact_is_within_one_base_width() -> None:
    a = bst_base(0, 0)
    assert in_contact(a, bst_base(60, 0), CONTACT)  # a gap of exactly 30 mm
    assert not in_contact(a, bst_base(61, 0), CONTACT)
    assert in_contact(a, bst_base(30, 0), 0)  # edge to edge, touching
    assert in_contact(a, bst_base(50, 50), CONTACT) and not in_contact(a, bst_base(60, 60), CONTACT)  # corners
    assert in_contact(a, bst_base(48, 54), CONTACT)  # corner to corner (18, 24): exactly 30
    assert not in_contact(a, bst_base(48, 55), CONTACT)  # (18, 25): 30.8
    # a base turned 45 degrees points a corner (15 * sqrt 2 = 21.2 out, rounded to 21) at a's edge
    assert in_contact(a, bst_base(66, 0, 45), CONTACT) and not in_contact(a, bst_base(67, 0, 45), CONTACT)
    assert in_contact(bst_base(66, 0, 45), a, CONTACT)


def test_bst_safety_zone_for_friendlies() -> None:
    """BST, Firing, "Presence of Friendlies" (Illustration 7): the centre-to-centre line of fire
    may not pass within a base width of a friendly base (within short range); one more than a
    base width away does not stop the shot."""
    firer, target = bst_base(0, 0), bst_base(250, 0)
    a = bst_base(80, 40)  # its near edge 25 mm from the line
    b = bst_base(160, -45)  # its near edge exactly 30 mm from the line
    c = bst_base(120, 46)  # 31 mm: over a base width away
    friendlies = [("C", c.shape), ("B", b.shape), ("A", a.shape)]
    assert passes_near(firer.centre, target.centre, friendlies, MM_BASE) == ["A", "B"]  # along the line
    line = polyline([firer.centre, target.centre])
    assert within(line, a.shape, MM_BASE) and within(line, b.shape, MM_BASE) and not within(line, c.shape, MM_BASE)
    behind = bst_base(-60, 20)  # near the line's extension behind the firer: not on the line
    assert passes_near(firer.centre, target.centre, [("behind", behind.shape)], MM_BASE) == []


def tank_aspect(tank: Base, attacker: Base) -> str:
    """BST, Part III, Tank Aspects (Illustrations 12-13), from the attacker's position: any part
    within 45 degrees either side of the tank's centre line is the front; wholly behind the line
    of the tank's front edge is the side; otherwise the flank."""
    if Arc(tank.centre, tank.facing, 45).touches(attacker.shape):
        return "front"
    if Arc(tank.front_centre, (tank.facing + 180) % 360, 90).holds(attacker.shape):
        return "side"
    return "flank"


def test_bst_tank_aspects() -> None:
    tank = Base((0, 0), 0, 40, 70)  # facing north, front edge along y = 35
    assert tank_aspect(tank, bst_base(30, 300)) == "front"  # 6 degrees off the centre line
    assert tank_aspect(tank, bst_base(300, 100)) == "flank"  # 72 degrees off, ahead of the front edge
    assert tank_aspect(tank, bst_base(300, 10)) == "side"  # just behind the front edge's line
    assert tank_aspect(tank, bst_base(300, 25)) == "flank"  # straddles that line: not wholly behind
    assert tank_aspect(tank, bst_base(-200, -300)) == "side"
    assert tank_aspect(tank, bst_base(100, 100)) == "front"  # 45 degrees: on the boundary, front
    assert tank_aspect(tank, bst_base(125, 112)) == "front"  # centre 48 degrees off, a corner in the arc
    assert tank_aspect(tank, bst_base(160, 100)) == "flank"
    turned = Base((0, 0), 90, 40, 70)  # the same tank facing east
    assert tank_aspect(turned, bst_base(300, 30)) == "front" and tank_aspect(turned, bst_base(-100, 0)) == "side"


def test_1916_fields_of_fire() -> None:
    """1916, 3.4, Fields of Fire: 360, 180 or 90 degrees by weapon, measured off the base's
    front edge (here its middle)."""
    gun = Base((0, 0), 0, 20, 20)  # yards; front edge along y = 10
    apex = gun.front_centre
    all_round, half, quarter = (Arc(apex, gun.facing, h) for h in (180, 90, 45))
    behind, abreast, ahead = (0, -100), (100, 10), (0, 100)
    assert all(all_round.contains(p) for p in (behind, abreast, ahead))
    assert half.contains(ahead) and half.contains(abreast) and not half.contains(behind)
    assert not half.contains((100, 9))  # a yard behind the front edge's line
    assert quarter.contains((100, 110)) and not quarter.contains((100, 109))  # 45 degrees off the front
    assert quarter.contains((100, 115)) and not quarter.contains((105, 110))
    target = Base((0, 200), 180, 20, 20)
    assert quarter.holds(target.shape) and half.holds(target.shape)
    flank_target = Base((190, 200), 180, 20, 20)  # straddles the 45-degree ray
    assert quarter.touches(flank_target.shape) and not quarter.holds(flank_target.shape)
    east = Base((0, 0), 90, 20, 20)
    assert Arc(east.front_centre, east.facing, 45).contains((100, 0))
    assert not Arc(east.front_centre, east.facing, 45).contains((0, 100))
