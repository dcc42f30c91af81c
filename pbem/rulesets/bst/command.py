"""Command and who may move (D1, M1, M2, L4).

A unit's leader base (L4) is named in the scenario. A base is in command when a chain of
contacts through its unit's bases joins it to the leader (D1). A move must keep to its
unit's command type (M2):

- A: each moving base starts or ends in command;
- B: the rifles stay in contact with each other; any other weapon (the MG) moves on its own
  and starts or ends in command;
- C: as B, but the MG must end in command;
- D: all the unit's bases stay in contact.

and to M1: a moving base sees its unit leader; bases moving together touch another mover.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from .stands import Stand, in_contact, linked

RIFLES = ("rifles", "smg", "auto-rifle", "bar")


def connected(stands: Sequence[Stand], contact: int) -> bool:
    """Whether the stands form one group by contacts among themselves."""
    if len(stands) < 2:
        return True
    return len(linked(stands[0], stands, contact)) == len(stands)


def in_command(stand_id: str, leader: str, unit: Mapping[str, Stand], contact: int) -> bool:
    """D1: joined to the leader base by contacts through the unit's bases."""
    if leader not in unit:
        return False
    return stand_id in {s.id for s in linked(unit[leader], list(unit.values()), contact)}


def move_problems(kind: str, leader: str, before: Mapping[str, Stand], after: Mapping[str, Stand],
                  moving: Sequence[str], contact: int, sees: Callable[[Stand, Stand], bool]) -> list[tuple[str, str]]:
    """What is wrong with moving `moving` of a unit from `before` to `after` (every base of
    the unit in both), as (section, message) pairs; empty when the move keeps M1 and M2."""
    found: list[tuple[str, str]] = []
    movers = [before[i] for i in moving]
    if len(movers) > 1 and any(not any(in_contact(m, o, contact) for o in movers if o.id != m.id) for m in movers):
        found.append(("M1", "bases moving together must each touch another moving base"))
    if leader in before:
        for m in movers:
            if m.id != leader and not sees(m, before[leader]):
                found.append(("M1", f"{m.id} cannot see its unit leader {leader}, so it may not move"))
    start = {i: in_command(i, leader, before, contact) for i in moving}
    end = {i: in_command(i, leader, after, contact) for i in moving}
    if kind == "A":
        found += [("M2", f"type A: {i} must start or end its move in command") for i in moving
                  if not (start[i] or end[i])]
    elif kind in ("B", "C"):
        rifles_before = [s for s in before.values() if s.weapon in RIFLES]
        rifles_after = [after[s.id] for s in rifles_before]
        if connected(rifles_before, contact) and not connected(rifles_after, contact):
            found.append(("M2", f"type {kind}: the rifles must stay in contact with each other"))
        others = [i for i in moving if before[i].weapon not in RIFLES]
        rifles_moving = [i for i in moving if before[i].weapon in RIFLES]
        for i in others:
            if rifles_moving:
                continue  # the MG moves with the rifles: the rifles' rule holds it
            if kind == "B" and not (start[i] or end[i]):
                found.append(("M2", f"type B: the {before[i].weapon} {i} must start or end its move in command"))
            if kind == "C" and not end[i]:
                found.append(("M2", f"type C: the {before[i].weapon} {i} must end its move in command"))
    elif kind == "D":
        if connected(list(before.values()), contact) and not connected(list(after.values()), contact):
            found.append(("M2", "type D: all the unit's bases must stay in contact"))
    return found
