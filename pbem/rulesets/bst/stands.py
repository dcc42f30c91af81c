"""Bases on the table as the rules see them (D1, L4): size, contact and being in command.

A stand is one base: its id, side, unit, weapon, its place (`plane.Base`) and its Kill
markers. Contact is edge to edge within a base width, closed (D1; docs/bst.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import isqrt
from typing import Iterable, Mapping, Sequence

from pbem.geometry import plane


@dataclass(frozen=True)
class Stand:
    """One base (D1). `kills` counts its Kill markers (R1); a tank (part III) names its
    `vehicle` type and whether it is `buttoned` (V1)."""

    id: str
    side: str
    unit: str
    weapon: str
    base: plane.Base
    kills: int = 0
    vehicle: str | None = None
    buttoned: bool = False

    @property
    def centre(self) -> plane.Point:
        return self.base.centre

    @property
    def shape(self) -> plane.Shape:
        return self.base.shape

    def at(self, base: plane.Base) -> Stand:
        """The same stand on another place (a pivot, a step of a move)."""
        return replace(self, base=base)


def square(centre: Sequence[int], facing: int, size: int) -> plane.Base:
    """An infantry base: `size` mm square (D1)."""
    return plane.Base((centre[0], centre[1]), facing, size, size)


def reach_bound(base: plane.Base) -> int:
    """A whole number at least half the base's diagonal: no point of it lies further from its centre."""
    return isqrt(base.width * base.width + base.depth * base.depth) // 2 + 1


def within_reach(a: plane.Base, b: plane.Base, reach: int) -> bool:
    """Whether the two bases come within `reach` of each other, edge to edge, exactly: the
    distance between centres settles most pairs (edges are never further apart than centres,
    nor nearer than the centres less the half-diagonals); the shapes settle the rest."""
    centres = plane.dist2(a.centre, b.centre)
    if centres <= reach * reach:
        return True
    bound = reach + reach_bound(a) + reach_bound(b)
    if centres > bound * bound:
        return False
    return plane.within(a.shape, b.shape, reach)


def in_contact(a: Stand, b: Stand, contact: int) -> bool:
    """D1: within a base width of each other, edge to edge (centres too far apart are ruled
    out first, exactly, before the shapes are compared)."""
    return within_reach(a.base, b.base, contact)


def linked(start: Stand, stands: Iterable[Stand], contact: int) -> list[Stand]:
    """D1 "in command": every stand joined to `start` by a chain of contacts through the
    stands given (start included), in id order. Pass the unit's stands for section command,
    the platoon's for platoon leader command (L1)."""
    pool = {s.id: s for s in stands}
    pool[start.id] = start
    reached = {start.id}
    frontier = [start]
    while frontier:
        current = frontier.pop()
        for other in sorted(pool.values(), key=lambda s: s.id):
            if other.id not in reached and in_contact(current, other, contact):
                reached.add(other.id)
                frontier.append(other)
    return [pool[i] for i in sorted(reached)]


def in_command(stand: Stand, leader: Stand, stands: Iterable[Stand], contact: int) -> bool:
    """D1, L1: whether `stand` is joined to its leader by contacts through `stands`."""
    return stand.id in {s.id for s in linked(leader, stands, contact)}


def by_id(stands: Iterable[Stand]) -> Mapping[str, Stand]:
    return {s.id: s for s in sorted(stands, key=lambda s: s.id)}
