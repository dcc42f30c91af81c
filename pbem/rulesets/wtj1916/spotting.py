"""Spotting (3.4): which enemy units a side may see, and so fire at; the fog of war is built on it.

A unit is in cover when every one of its bases touches terrain that gives cover (a unit with a
base in the open is in the open: reading, docs/wtj1916.md). A unit in the open is always
spotted. A unit in cover is spotted when it fired or moved while in cover (this turn or the
next, `frame.spotted_turns`, assumed), or when one of its bases is within 120 yards of a base
belonging to an enemy recon unit, or within 60 yards of any enemy base (edge to edge). A side sees an
enemy unit when it is spotted and one of the side's bases has a clear line of sight to one of
its bases (`geometry.clear_sight`).
"""

from __future__ import annotations

from pbem.core.ruleset import State
from pbem.geometry import plane

from .context import Context
from .geometry import clear_sight, cover_features, footprint
from .state import bases_of, units_of


def in_cover(context: Context, state: State, uid: str) -> bool:
    kind = context.type_of(state["units"][uid])
    bases = bases_of(state, uid)
    return bool(bases) and all(cover_features(context, footprint(kind, b).shape) for b in bases.values())


def spotted(context: Context, state: State, uid: str, by: str) -> bool:
    """3.4: whether side `by` has spotted unit `uid`."""
    unit = state["units"][uid]
    if not in_cover(context, state, uid):
        return True
    revealed = unit["revealed"]
    if revealed is not None and state["turn"] - revealed <= int(context.tables["frame"]["spotted_turns"]):
        return True
    near_recon = int(context.tables["distances"]["spot_recon"])
    near_any = int(context.tables["distances"]["spot_any"])
    kind = context.type_of(unit)
    shapes = [footprint(kind, b).shape for b in bases_of(state, uid).values()]
    for eye_uid, eye_unit in units_of(state, by):
        eye_kind = context.type_of(eye_unit)
        reach = near_recon if eye_kind.recon else near_any
        for eye in bases_of(state, eye_uid).values():
            eye_shape = footprint(eye_kind, eye).shape
            if any(plane.within(eye_shape, shape, reach) for shape in shapes):
                return True
    return False


def sees_unit(context: Context, state: State, side: str, uid: str) -> bool:
    """Whether `side` sees enemy unit `uid`: spotted, and in a clear line of sight of a base of the side."""
    if not spotted(context, state, uid, side):
        return False
    kind = context.type_of(state["units"][uid])
    targets = [footprint(kind, b) for b in bases_of(state, uid).values()]
    for eye_uid, eye_unit in units_of(state, side):
        eye_kind = context.type_of(eye_unit)
        for eye in bases_of(state, eye_uid).values():
            base = footprint(eye_kind, eye)
            if any(clear_sight(context, base, target) for target in targets):
                return True
    return False


def seen_units(context: Context, state: State, side: str) -> list[str]:
    """The enemy units `side` sees, in id order."""
    return [uid for uid, unit in sorted(state["units"].items())
            if unit["side"] != side and unit["status"] == "active" and sees_unit(context, state, side, uid)]
