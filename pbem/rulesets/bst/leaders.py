"""Platoon leaders (L1) and the loss of a commander (L3).

A platoon leader is a unit of one base with two cards (`card` and `card2`) and the units it
leads (`leads`). A base is under platoon leader command when a chain of contacts through the
bases of the platoon (the leader's and its units') joins it to the leader's base (D1, L1):
that eases recovery (R2, R3). On either card the leader may lead: bases of its units in its
command, whose units have not activated this turn, all take one action together (the leader's
base may join them); this activates their units. The second card may only lead, and a leader
leads once a turn (docs/bst.md). When a leader's base is removed (L3), every base of its units
gets 2 fire markers, and those in its command at that moment a third.

A company commander (L2) is a leader whose units include platoon leaders: it leads, and
commands, any base of its company, the platoon leaders' bases among them.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.ruleset import Event, State

from .context import Context
from .stands import Stand, linked


def platoon(context: Context, state: Mapping[str, Any], leader: str) -> list[Stand]:
    """The bases of a leader and of every unit under it (a company commander's whole company,
    L2)."""
    units = context.company(leader)
    return [s for s in context.stands(state) if s.unit in units]


def commanded(context: Context, state: Mapping[str, Any], leader: str) -> set[str]:
    """L1: the bases in the leader's command (its own base included)."""
    bases = platoon(context, state, leader)
    own = [s for s in bases if s.unit == leader]
    if not own:
        return set()
    return {s.id for s in linked(own[0], bases, context.tables.number("contact"))}


def in_leader_command(context: Context, state: Mapping[str, Any], bid: str) -> bool:
    """R2, R3: whether the base is under its platoon leader's command."""
    unit = state["bases"][bid]["unit"]
    leader = context.platoon_leader(unit)
    return leader is not None and bid in commanded(context, state, leader)


def commander_lost(context: Context, state: State, leader: str, in_command: set[str], events: list[Event]) -> None:
    """L3: 2 fire markers on every base of the leader's units, 3 on those it commanded."""
    hit: dict[str, int] = {}
    under = context.company(leader) - {leader}
    for bid, entry in sorted(state["bases"].items()):
        if entry["unit"] in under:
            hit[bid] = 3 if bid in in_command else 2
            entry["markers"] += hit[bid]
    events.append({"type": "commander-lost", "section": "L3", "unit": leader, "markers": hit})
