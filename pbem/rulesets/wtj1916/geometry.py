"""The table geometry the firing rules ask about, in exact integers (`pbem.geometry.plane`).

- footprints: a base is a rectangle of its unit type's width and depth (assumed sizes);
- fields of fire (3.4): 360, 180 or 90 degrees measured off a base edge: the arc's apex is the
  middle of that edge and it opens round the edge's outward direction, so a 180-degree arc is
  the half-plane beyond the edge line and a 90-degree arc spreads 45 degrees either side;
- cover (3.5, 3.7): the best cover type of the terrain a base's footprint touches; a pillbox or
  bunker covers only as many bases as it holds (3.7), in base id order;
- lines of sight (3.4): centre to centre, never through a feature that blocks sight, and through
  no more than 60 yards of full cover in all, overlapping covers counted once.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from pbem.geometry import plane
from pbem.geometry.plane import Base, Point, Shape

from .context import Context, UnitType

EDGE_TURN = {"front": 0, "right": 90, "rear": 180, "left": 270}
EDGE_CORNERS = {"front": (0, 1), "right": (1, 2), "rear": (2, 3), "left": (3, 0)}
COVER_RANK = {"soft": 1, "solid": 2, "hard": 3}
MEMO_LIMIT = 200_000  # remembered answers per game before starting afresh (a long-lived referee's memory)
HOLDS_CLASS = {"machine-gun": "machine_gun", "infantry": "infantry", "gun": "towed_gun"}


def point(value: Any) -> Point:
    return int(value[0]), int(value[1])


def footprint(kind: UnitType, base: Mapping[str, Any]) -> Base:
    """The base's rectangle (one object per place and facing, so its corners are worked out once)."""
    key = (int(base["at"][0]), int(base["at"][1]), int(base["facing"]))
    found = kind.footprints.get(key)
    if found is None:
        if len(kind.footprints) > MEMO_LIMIT:
            kind.footprints.clear()
        found = kind.footprints[key] = Base((key[0], key[1]), key[2], kind.width, kind.depth)
    assert isinstance(found, Base)
    return found


def dist2(context: Context, a: Shape, b: Shape) -> Fraction:
    """`plane.distance2`, remembered for the game (the same pairs come up fire after fire)."""
    key = ("d", a.points, b.points)
    found = context.memo.get(key)
    if found is None:
        _room(context)
        found = context.memo[key] = plane.distance2(a, b)
    assert isinstance(found, Fraction)
    return found


def edge_arc(base: Base, edge: str, degrees: int) -> plane.Arc:
    """The field of fire of `degrees` measured off one edge of the base (3.4)."""
    a, b = (base.corners[i] for i in EDGE_CORNERS[edge])
    apex = (plane.round_div(a[0] + b[0], 2), plane.round_div(a[1] + b[1], 2))
    return plane.Arc(apex, (base.facing + EDGE_TURN[edge]) % 360, max(1, degrees // 2))


def in_field(base: Base, edges: tuple[str, ...], degrees: int, target: Shape) -> bool:
    """Whether any part of the target lies in the field of fire off any of the edges."""
    if degrees >= 360:
        return True
    return any(edge_arc(base, edge, degrees).touches(target) for edge in edges)


def flank_zones(base: Base, reach: int) -> list[Shape]:
    """The two flank zones of a stand (3.5 enfilade; assumed shape): the strips beside its side
    edges, between the lines of its front and rear edges, `reach` long."""
    fl, fr, br, bl = base.corners
    right = plane.offset(base.facing, reach, 0)
    left = plane.offset(base.facing, -reach, 0)
    return [Shape((fr, (fr[0] + right[0], fr[1] + right[1]), (br[0] + right[0], br[1] + right[1]), br), closed=True),
            Shape((bl, (bl[0] + left[0], bl[1] + left[1]), (fl[0] + left[0], fl[1] + left[1]), fl), closed=True)]


def touching(context: Context, shape: Shape) -> tuple[str, ...]:
    """The features a footprint touches (`TableMap.touching`), remembered for the game."""
    key = ("t", shape.points)
    found = context.memo.get(key)
    if found is None:
        _room(context)
        found = context.memo[key] = context.table.touching(shape)
    assert isinstance(found, tuple)
    return found


def cover_features(context: Context, shape: Shape) -> list[str]:
    """The features a footprint touches that give cover of some type."""
    return [key for key in touching(context, shape) if context.table.properties(key).get("cover")]


def terrain_cover(context: Context, bases: Mapping[str, Mapping[str, Any]], bid: str,
                  units: Mapping[str, Mapping[str, Any]], *, area: bool = False) -> str | None:
    """The best cover type the terrain gives base `bid` (None: in the open). With `area`, cover a
    kind marks `open_cover` does not count (3.6: open cover is no protection from area weapons)."""
    entry = bases[bid]
    kind = context.type_of(units[entry["unit"]])
    shape = footprint(kind, entry).shape
    best: str | None = None
    for key in cover_features(context, shape):
        props = context.table.properties(key)
        if area and props.get("open_cover"):
            continue
        if props.get("holds") and not _held(context, bases, units, key, bid):
            continue
        kind_cover = str(props["cover"])
        if best is None or COVER_RANK.get(kind_cover, 0) > COVER_RANK.get(best, 0):
            best = kind_cover
    return best


def _held(context: Context, bases: Mapping[str, Mapping[str, Any]], units: Mapping[str, Mapping[str, Any]],
          key: str, bid: str) -> bool:
    """3.7: a pillbox or bunker covers as many bases as it holds, of the class of the first base
    in it (base id order); the rest get no cover from it."""
    holds = context.table.properties(key)["holds"]
    feature = context.table.feature(key).shape
    inside = [b for b in sorted(bases) if plane.overlap(footprint(context.type_of(units[bases[b]["unit"]]),
                                                                  bases[b]).shape, feature)]
    first = HOLDS_CLASS.get(context.type_of(units[bases[inside[0]]["unit"]]).cls, "")
    room = int(holds.get(first, 0))
    same = [b for b in inside if HOLDS_CLASS.get(context.type_of(units[bases[b]["unit"]]).cls, "") == first]
    return bid in same[:room]


def structure_arc(context: Context, shape: Shape) -> int | None:
    """The field of fire a pillbox (180) or bunker (90) allows a base inside it (3.4)."""
    arcs = [int(context.table.properties(key)["arc"]) for key in touching(context, shape)
            if "arc" in context.table.properties(key)]
    return min(arcs) if arcs else None


def in_kind(context: Context, shape: Shape, prop: str) -> bool:
    """Whether the footprint touches a feature with a true `prop` (e.g. a trench's `hides_movers`)."""
    return any(context.table.properties(key).get(prop) for key in touching(context, shape))


def clear_sight(context: Context, a: Base, b: Base) -> bool:
    """3.4: the line between the two centres meets no feature that blocks sight (other than one
    either base stands in) and runs through at most 60 yards of full cover in all."""
    key = ("s", a.corners, b.corners)
    found = context.memo.get(key)
    if found is None:
        _room(context)
        found = context.memo[key] = _clear_sight(context, a, b)
    return bool(found)


def _room(context: Context) -> None:
    if len(context.memo) > MEMO_LIMIT:
        context.memo.clear()


def _clear_sight(context: Context, a: Base, b: Base) -> bool:
    limit = int(context.tables["distances"]["cover_depth"])
    own = set(touching(context, a.shape)) | set(touching(context, b.shape))
    stretches: list[tuple[Fraction, Fraction]] = []
    for crossing in context.table.sight(a.centre, b.centre):
        props = context.table.properties(crossing.key)
        if props.get("blocks_sight") is True and crossing.key not in own:
            return False
        if props.get("full_cover") and crossing.enter < crossing.leave:
            stretches.append((crossing.enter, crossing.leave))
    return plane.stretch_at_most(a.centre, b.centre, _merged(stretches), limit)


def _merged(stretches: list[tuple[Fraction, Fraction]]) -> Fraction:
    total = Fraction(0)
    end = Fraction(-1)
    for enter, leave in sorted(stretches):
        if leave <= end:
            continue
        total += leave - max(enter, end)
        end = leave
    return total


def closest2(context: Context, a: list[Shape], b: list[Shape]) -> Fraction:
    """The squared distance from the closest point of one group to the closest of the other.

    Pairs are tried in the order of their bounding boxes' distance, which is never more than the
    shapes' own; once that bound reaches the best found, no later pair can be closer."""
    pairs = sorted((_box_gap2(x.box, y.box), i, j) for i, x in enumerate(a) for j, y in enumerate(b))
    best: Fraction | None = None
    for bound, i, j in pairs:
        if best is not None and bound >= best:
            break
        found = dist2(context, a[i], b[j])
        if best is None or found < best:
            best = found
    assert best is not None
    return best


def _box_gap2(p: tuple[int, int, int, int], q: tuple[int, int, int, int]) -> int:
    dx = max(0, p[0] - q[2], q[0] - p[2])
    dy = max(0, p[1] - q[3], q[1] - p[3])
    return dx * dx + dy * dy
