"""Lines of sight (T1, T2, T3, W10): the segment between two bases' centres.

What a feature does to sight is its kind's `blocks_sight` property (data/tables.yaml `terrain`,
or the table map's own kinds):

- `inside-only` (woods, crops, hills; T2, T3) and `true` (buildings, T1): the line may run
  into the area to a base inside it, or out of it from a base inside it, but a stretch inside
  that starts and ends strictly between the two centres blocks. Touching areas count as one
  (a large wood is several areas side by side, T2), so their stretches are merged first;
- `unless-touching` (high linear, T1): a crossing blocks unless the eye's or the target's base
  touches that line;
- smoke bases laid in play (W10), passed as extra shapes: any meeting blocks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from pbem.geometry import plane
from pbem.geometry.tablemap import TableMap

Smoke = Sequence[tuple[str, plane.Shape]]


def merged(stretches: list[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
    """Overlapping or touching stretches joined, in order."""
    out: list[tuple[Fraction, Fraction]] = []
    for enter, leave in sorted(stretches):
        if out and enter <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], leave))
        else:
            out.append((enter, leave))
    return out


def blocker(table: TableMap, eye: plane.Base, target: plane.Base, smoke: Smoke = ()) -> str | None:
    """What blocks the line of sight between the two bases (a feature or smoke id), or None
    when they see each other (T1, T2, T3, W10)."""
    smoke_keys = {key for key, _ in smoke}
    stretches: list[tuple[Fraction, Fraction, str]] = []
    for crossing in table.sight(eye.centre, target.centre, smoke):
        if crossing.key in smoke_keys:
            return crossing.key
        feature = table.feature(crossing.key)
        if feature.kind == "smoke":  # W10: a line that meets any part of a smoke base is blocked
            return crossing.key
        mode = feature.properties.get("blocks_sight", False)
        if not mode:
            continue
        if feature.area:
            if crossing.enter < crossing.leave:
                stretches.append((crossing.enter, crossing.leave, crossing.key))
        elif mode != "unless-touching" or not (plane.overlap(eye.shape, feature.shape)
                                               or plane.overlap(target.shape, feature.shape)):
            return crossing.key
    for enter, leave in merged([(e, l) for e, l, _ in stretches]):
        if enter > 0 and leave < 1:
            return next(key for e, l, key in sorted(stretches) if enter <= e <= leave)
    return None


def sees(table: TableMap, eye: plane.Base, target: plane.Base, smoke: Smoke = ()) -> bool:
    """Whether a line of sight joins the two bases (T1, T2, T3, W10)."""
    return blocker(table, eye, target, smoke) is None


def section_of(table: TableMap, key: str) -> str:
    """The heading that makes this feature (or smoke) block sight."""
    if key not in {f.id for f in table.features} or table.feature(key).kind == "smoke":
        return "W10"
    kind = table.feature(key).kind
    return "T3" if kind == "hill" else "T2" if table.properties(key).get("blocks_sight") == "inside-only" else "T1"
