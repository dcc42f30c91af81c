"""Cover against one fire attack (T1, T3, F5): judged between the firer and the target.

A feature's kind says how it covers (its `cover` property):

- `inside` (woods, crops, rough, buildings; T1): all of the target base is in the area (its
  four corners inside the polygon or on its edge);
- `touching` (walls, bocage, fences, low rises; T1): the target base touches the line and the
  line of fire, centre to centre, crosses it;
- `behind-crest` (hills; T3): the target's centre is on the hill and the line of fire crosses
  the crest line.

Cover does not add up (F5): one feature is enough, a second gives nothing more.
"""

from __future__ import annotations

from pbem.geometry import plane
from pbem.geometry.tablemap import Feature, TableMap


def covers(feature: Feature, firer: plane.Point, target: plane.Base) -> bool:
    """Whether this feature gives the target cover from a firer at `firer` (T1, T3)."""
    mode = feature.properties.get("cover", False)
    if mode == "inside" and feature.area:
        return all(plane.locate(corner, feature.shape) >= 0 for corner in target.corners)
    if mode == "touching" and not feature.area:
        return (plane.overlap(target.shape, feature.shape)
                and bool(plane.line_meetings(firer, target.centre, feature.shape)))
    if mode == "behind-crest" and feature.crest is not None:
        return (feature.shape.contains(target.centre)
                and bool(plane.line_meetings(firer, target.centre, feature.crest)))
    return False


def cover_from(table: TableMap, firer: plane.Point, target: plane.Base) -> str | None:
    """The first feature (in map order) giving the target cover from `firer`, or None: in
    the open (F5, F7)."""
    for feature in table.features:
        if covers(feature, firer, target):
            return feature.id
    return None


def partly_in_cover(table: TableMap, firer: plane.Point, target: plane.Base) -> bool:
    """O1: whether any part of the base is in cover, so that firers may not call it in the
    open: it overlaps an area that covers, touches a line that covers, or has the crest's
    cover from this firer."""
    for feature in table.features:
        mode = feature.properties.get("cover", False)
        if mode in ("inside", "touching") and plane.overlap(target.shape, feature.shape):
            return True
        if mode == "behind-crest" and covers(feature, firer, target):
            return True
    return False


def near_cover(table: TableMap, target: plane.Base, reach: int) -> bool:
    """O2: whether cover (an area or line that covers) lies within `reach` of the base."""
    return any(feature.properties.get("cover") in ("inside", "touching")
               and plane.within(target.shape, feature.shape, reach) for feature in table.features)
