"""Phase dispatch and concession, the same way in every game.

A ruleset names a handler per phase (or per kind of phase) in one table; `handler_for` finds
it and says plainly when a state names a phase the table lacks. A side concedes with an order
`{concede: ...}`; what happens to its other orders is each rulebook's own rule.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence, TypeVar

from pbem.core.errors import PbemError

Handler = TypeVar("Handler")
Event = dict[str, Any]


def handler_for(table: Mapping[str, Handler], phase: str) -> Handler:
    """The handler the table gives this phase; PbemError naming the phases it knows otherwise."""
    found = table.get(phase)
    if found is None:
        raise PbemError(f"no rule resolves the phase {phase!r}; the phases are {', '.join(table)}")
    return found


def conceding(orders: Sequence[Mapping[str, Any]]) -> int | None:
    """The index of the first `concede` order, or None."""
    return next((index for index, order in enumerate(orders) if "concede" in order), None)


def concession_events(side: str, section: str, result: Mapping[str, Any]) -> list[Event]:
    """What a concession adds to the events: the concession itself, then the result it gives."""
    return [{"type": "concede", "side": side, "section": section}, {"type": "victory", **result}]
