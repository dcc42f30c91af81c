"""'Extra' bases (W5): an HMG's fifth and sixth men, a base that is no combat base.

An extra base (weapon `extra`) belongs to an HMG's unit and touches (is in contact with) its
HMG at all times. Fire markers treat the two as a pair: the marker after one on the HMG goes
on the extra base, and the one after a marker on the extra base goes on the HMG; whoever is
in close combat with the HMG is in close combat with its extra base too. Nominally a rifle base,
it fires only at enemies closing into close combat (C2, the rifles' row) and fights in close
combat as rifles do (`close_combat_markers.extra`); it resolves at its HMG's to-hit number, and
the Kills its HMG suffers are its own (pins and suppresses stay on the HMG).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from .stands import Stand, in_contact

EXTRA = "extra"


def partners(stands: Iterable[Stand], contact: int) -> dict[str, Stand]:
    """W5: each HMG with an extra base of its unit in contact, and each such extra base, mapped
    to the other of the pair (an HMG with two extra bases in contact pairs with the first by id)."""
    pool = sorted(stands, key=lambda s: s.id)
    out: dict[str, Stand] = {}
    for extra in (s for s in pool if s.weapon == EXTRA):
        gun = next((s for s in pool if s.unit == extra.unit and s.weapon == "hmg" and s.id not in out
                    and in_contact(s, extra, contact)), None)
        if gun is not None:
            out[gun.id] = extra
            out[extra.id] = gun
    return out


def paired(order: Sequence[Stand], pairs: Mapping[str, Stand], exclude: Iterable[str] = ()) -> list[Stand]:
    """W5: the order with each pair's second base moved (or added) right after the first."""
    barred = set(exclude)
    out: list[Stand] = []
    placed: set[str] = set()
    for stand in order:
        if stand.id in placed:
            continue
        out.append(stand)
        placed.add(stand.id)
        mate = pairs.get(stand.id)
        if mate is not None and mate.id not in placed and mate.id not in barred:
            out.append(mate)
            placed.add(mate.id)
    return out
