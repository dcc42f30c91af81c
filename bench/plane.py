"""Line-of-sight and contact queries per second on a miniatures table (`pbem/geometry/plane.py`),
against the floor of iterating the same pairs of bases and computing only the squared distance
between their centres (`dist2`). Target (issue #12): 50,000 LoS queries per second or better.

The table is built from a fixed seed (the same on every machine): 1800 x 1200 mm, 40 terrain
features (30 simple polygons 50-300 mm across: woods, buildings, rough ground, hills; 10
polylines: walls, hedges, roads) and 60 bases 30 mm square with random facings, two sides in
twelve units of five. Every polygon is checked with `plane.is_simple`, no two bases overlap.

Queries, all over the pairs of distinct bases (every unordered pair once, in a shuffled order,
each from a random one of its ends, so no memo of any kind can answer one from another):

- LoS: `FeatureIndex.crossings(a, b)` between the two centres;
- full LoS: the same plus `passes_near(a, b, <the other 58 bases>, 30)`, what a ruleset asks
  (the features crossed, and the bases the line passes within a base width of);
- contact: `in_contact(a, b, 30)` over every pair, then over the near pairs only (centres at
  most 100 mm apart; most of these pass the boxes' reject and need the exact test);
- floor: the same loop over the pairs computing only `dist2` of the two centres.

It prints how many lines cross a feature and pass near a base (a table where nothing is hit
would be fast for nothing), and a digest of every answer, so a faster plane.py can be shown to
answer exactly as the one before it.

Each figure is the best of --repeat passes (`time.perf_counter`); the ratio is the query's
time over the floor's time for the same pairs, measured in the same run.

    python bench/plane.py [--repeat 5] [--seed 12] [--quick]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import table  # noqa: E402
from pbem.geometry import plane  # noqa: E402
from pbem.geometry.plane import Base, FeatureIndex, Shape, dist2, in_contact, passes_near  # noqa: E402

WIDTH, HEIGHT = 1800, 1200
BASE = 30
REACH = 30
NEAR = 100


def best_of(action: Callable[[], object], repeat: int) -> float:
    """The shortest of `repeat` timed runs, in seconds."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        spent = time.perf_counter() - start
        best = spent if best is None else min(best, spent)
    assert best is not None
    return best


def _hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Convex hull (monotone chain), counter-clockwise, no collinear points."""
    pts = sorted(set(points))
    lower: list[tuple[int, int]] = []
    for p in pts:
        while len(lower) >= 2 and plane.cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[int, int]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and plane.cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _around(centre: tuple[int, int], angle: int, radius: int) -> tuple[int, int]:
    dx, dy = plane.offset(angle, 0, radius)
    return centre[0] + dx, centre[1] + dy


def _star(rng: random.Random, centre: tuple[int, int], radius: int, corners: int) -> Shape:
    """A star-shaped polygon about `centre`: sorted distinct whole-degree angles, radii from
    half to all of `radius`."""
    angles = sorted(rng.sample(range(360), corners))
    return plane.polygon(_around(centre, a, rng.randint(radius // 2, radius)) for a in angles)


def _polygon(rng: random.Random, kind: str, centre: tuple[int, int]) -> Shape:
    if kind == "building":  # a turned rectangle, as a base's footprint is
        return Base(centre, rng.randrange(360), rng.randint(50, 150), rng.randint(50, 120)).shape
    if kind == "woods":
        return _star(rng, centre, rng.randint(60, 150), rng.randint(8, 14))
    if kind == "rough":
        return _star(rng, centre, rng.randint(40, 120), rng.randint(5, 9))
    radius = rng.randint(80, 150)  # hill: the hull of scattered points
    return plane.polygon(_hull([_around(centre, rng.randrange(360), rng.randint(radius // 3, radius))
                                for _ in range(12)]))


def _polyline(rng: random.Random, kind: str, n: int) -> Shape:
    if kind == "road":  # edge to edge (south to north, then west to east), bending at each leg
        along = 0 if n % 2 else 90
        x, y = (rng.randint(300, WIDTH - 300), 0) if along == 0 else (0, rng.randint(200, HEIGHT - 200))
        heading = along + rng.randint(-20, 20)
        points = [(x, y)]
        while 0 <= x <= WIDTH and 0 <= y <= HEIGHT:
            heading = max(along - 45, min(along + 45, heading + rng.randint(-25, 25)))
            x, y = _around((x, y), heading, rng.randint(150, 300))
            points.append((x, y))
        return plane.polyline(points)
    start = (rng.randint(100, WIDTH - 100), rng.randint(100, HEIGHT - 100))
    heading = rng.randrange(360)
    points = [start]
    for _ in range(rng.randint(1, 3)):  # wall or hedge: a few straight runs
        heading += rng.choice((0, 0, 90, -90, rng.randint(-40, 40)))
        points.append(_around(points[-1], heading, rng.randint(60, 200)))
    return plane.polyline(points)


def build_table(seed: int) -> tuple[list[tuple[str, Shape]], list[tuple[str, str, Base]]]:
    """The 40 features (key, shape) and the 60 bases (key, side, base)."""
    rng = random.Random(seed)
    features: list[tuple[str, Shape]] = []
    kinds = ["woods"] * 9 + ["building"] * 9 + ["rough"] * 6 + ["hill"] * 6
    for n, kind in enumerate(kinds):
        while True:
            centre = (rng.randint(150, WIDTH - 150), rng.randint(150, HEIGHT - 150))
            shape = _polygon(rng, kind, centre)
            w, s, e, north = shape.box
            if not plane.is_simple(shape) or not 50 <= max(e - w, north - s) <= 300:
                continue
            # areas do not overlap one another (a gap of 10 mm at least)
            if any(f.closed and plane.within(shape, f, 10) for _, f in features):
                continue
            features.append((f"{kind}-{n + 1}", shape))
            break
    for n, kind in enumerate(["wall"] * 4 + ["hedge"] * 4 + ["road"] * 2):
        features.append((f"{kind}-{n + 1}", _polyline(rng, kind, n)))
    bases: list[tuple[str, str, Base]] = []
    for unit in range(12):
        side = ("red", "blue")[unit % 2]
        while True:  # a unit's centre; its five bases scattered around it
            ux, uy = rng.randint(100, WIDTH - 100), rng.randint(100, HEIGHT - 100)
            placed: list[Base] = []
            for _ in range(200):
                base = Base((ux + rng.randint(-90, 90), uy + rng.randint(-90, 90)), rng.randrange(360), BASE, BASE)
                if any(plane.overlap(base.shape, other.shape) for other in placed + [b for _, _, b in bases]):
                    continue
                placed.append(base)
                if len(placed) == 5:
                    break
            if len(placed) == 5:
                break
        bases.extend((f"{side}-{unit + 1}.{k + 1}", side, b) for k, b in enumerate(placed))
    return features, bases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="timed passes per query (the best counts)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--quick", action="store_true", help="one pass each, full LoS on a quarter of the pairs")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat

    features, bases = build_table(args.seed)
    index = FeatureIndex(features)
    centres = [b.centre for _, _, b in bases]
    shaped = [(key, b.shape) for key, _, b in bases]
    rng = random.Random(args.seed + 1)
    pairs = [(i, j) if rng.random() < 0.5 else (j, i) for i in range(len(bases)) for j in range(i + 1, len(bases))]
    rng.shuffle(pairs)
    near = [(i, j) for i, j in pairs if dist2(centres[i], centres[j]) <= NEAR * NEAR]
    full_pairs = pairs[:len(pairs) // 4] if args.quick else pairs
    objects = [b for _, _, b in bases]

    def floor(over: list[tuple[int, int]]) -> Callable[[], None]:
        def run() -> None:
            for i, j in over:
                dist2(centres[i], centres[j])
        return run

    def los() -> None:
        crossings = index.crossings
        for i, j in pairs:
            crossings(centres[i], centres[j])

    def full_los() -> None:
        crossings = index.crossings
        for i, j in full_pairs:
            a, b = centres[i], centres[j]
            crossings(a, b)
            passes_near(a, b, [s for k, s in enumerate(shaped) if k != i and k != j], REACH)

    def contact(over: list[tuple[int, int]]) -> Callable[[], None]:
        def run() -> None:
            for i, j in over:
                in_contact(objects[i], objects[j], REACH)
        return run

    # what the queries answer (also warms every cached property: corners, shapes, edges, boxes)
    seen = [index.crossings(centres[i], centres[j]) for i, j in pairs]
    hit = sum(1 for s in seen if s)
    total = sum(len(s) for s in seen)
    passing = [passes_near(centres[i], centres[j], [s for k, s in enumerate(shaped) if k != i and k != j], REACH)
               for i, j in full_pairs]
    near_los = sum(1 for p in passing if p)
    touching = sum(1 for i, j in pairs if in_contact(objects[i], objects[j], REACH))
    touching_near = sum(1 for i, j in near if in_contact(objects[i], objects[j], REACH))
    # two 30 mm squares within 30 mm edge to edge have centres at most 30 + 2 * 21.3 mm apart
    assert touching == touching_near
    boxes = [b.shape.box for b in objects]
    unboxed = sum(1 for i, j in near if not (boxes[i][0] > boxes[j][2] + REACH or boxes[j][0] > boxes[i][2] + REACH
                                             or boxes[i][1] > boxes[j][3] + REACH or boxes[j][1] > boxes[i][3] + REACH))
    polygons = sum(1 for _, f in features if f.closed)
    print(f"table {WIDTH} x {HEIGHT} mm, seed {args.seed}: {len(features)} features ({polygons} polygons, "
          f"{sum(len(f.points) for _, f in features)} corners; {len(features) - polygons} polylines), "
          f"{len(bases)} bases {BASE} mm square")
    print(f"LoS: {len(pairs)} pairs, {hit} of them cross at least one feature ({total} crossings in all, "
          f"up to {max(len(s) for s in seen)} on one line)")
    digest = hashlib.sha256(repr(([[(c.key, c.enter, c.leave) for c in s] for s in seen], passing)).encode())
    print(f"answers (crossings and passes_near, to compare two versions of plane.py): sha256 {digest.hexdigest()[:16]}")
    print(f"full LoS: {len(full_pairs)} pairs, {near_los} of them pass within {REACH} mm of another base "
          f"({sum(len(p) for p in passing)} such bases in all)")
    print(f"contact: {touching} of {len(pairs)} pairs within {REACH} mm; {len(near)} near pairs (centres <= {NEAR} mm), "
          f"{unboxed} of them not told apart by their boxes")

    base_all = best_of(floor(pairs), max(repeat, 5))
    base_full = best_of(floor(full_pairs), max(repeat, 5))
    base_near = best_of(floor(near), max(repeat, 5))
    rows = [[f"floor: dist2 of the centres ({len(pairs)} pairs)", f"{len(pairs) / base_all:,.0f}", "1"]]
    for name, action, count, base in [
            ("LoS: FeatureIndex.crossings(a, b)", los, len(pairs), base_all),
            (f"full LoS: crossings + passes_near(58 bases, {REACH})", full_los, len(full_pairs), base_full),
            (f"contact: in_contact(a, b, {REACH}), all pairs", contact(pairs), len(pairs), base_all),
            (f"contact: in_contact(a, b, {REACH}), near pairs ({len(near)})", contact(near), len(near), base_near)]:
        t = best_of(action, repeat)
        if action is los:
            los_rate = count / t
        rows.append([name, f"{count / t:,.0f}", f"{t / base:,.0f}"])
    print(f"best of {repeat}" + (" (--quick)" if args.quick else ""))
    print(table(["query", "per second", "x floor time"], rows))
    print(f"target 50,000 LoS queries per second: {'met' if los_rate >= 50000 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
