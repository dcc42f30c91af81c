"""Every event type toc emits: its fields, the sections it cites, and who may see it (6.6).

An event is a mapping with `type` and `section` (the rule the event carries out) and the fields
listed here: `fields` are always there, `optional` only in some cases (an entry, an exit, a melee
that came to a roll, ...). Field kinds are Python types, so a test can check every event a game
produces against this catalogue (tests/test_toc_events.py), and `fog.visible` reads from it what
the other side may see of each type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

Kind = tuple[type, ...]  # the types a field's value may have

TEXT: Kind = (str,)
NUMBER: Kind = (int,)
FLAG: Kind = (bool,)
LIST: Kind = (list,)
MAPPING: Kind = (dict,)
HEX_OR_NONE: Kind = (str, type(None))


@dataclass(frozen=True)
class EventType:
    """One event type: what it records, under which sections, and what the other side sees of it."""

    about: str
    sections: tuple[str, ...]
    fields: Mapping[str, Kind]
    optional: Mapping[str, Kind] = field(default_factory=dict)
    public: bool = False  # the other side sees it too (6.6: combats are witnessed by both)
    hidden: tuple[str, ...] = ()  # fields the other side never sees (they could name units under a top)
    counted: tuple[str, ...] = ()  # list fields the other side sees only as a number


EVENTS: dict[str, EventType] = {
    "turn": EventType("the turn marker advances", ("5.4",), {"turn": NUMBER}, public=True),
    "sequence": EventType("the British player names the sequence of his player turn", ("5.3",),
                          {"side": TEXT, "sequence": TEXT, "turn": NUMBER}, public=True),
    "concede": EventType("a side concedes", ("5.4",), {"side": TEXT}, public=True),
    "victory": EventType("the game is over", ("4.2", "4.3", "5.4"), {"winner": TEXT, "reason": TEXT},
                         optional={"bridges": LIST, "tally": MAPPING}, public=True),
    "order-void": EventType("an order the side's own view could not judge fails in resolution", ("5.2", "9.1"),
                            {"side": TEXT, "order": NUMBER, "why": TEXT}),
    "top": EventType("a unit is put on top of its stack", ("6.6",), {"side": TEXT, "unit": TEXT}),
    "move": EventType("a stack moves, enters (8.x) or leaves the map (4.4)", ("9.1", "8.3", "8.4", "4.4"),
                      {"side": TEXT, "units": LIST, "from": HEX_OR_NONE, "path": LIST, "march": FLAG},
                      optional={"entered": TEXT, "column": NUMBER, "exited": FLAG, "stopped": FLAG,
                                "automatic": FLAG}),
    "entry-delayed": EventType("a due German unit cannot enter this turn", ("8.3",), {"side": TEXT, "unit": TEXT}),
    "bombard": EventType("a bombardment", ("10.7",),
                         {"side": TEXT, "target": TEXT, "with": LIST, "from": LIST, "spotters": LIST,
                          "factors": NUMBER, "roll": NUMBER, "modifiers": MAPPING, "modified": NUMBER,
                          "losses": NUMBER, "results": LIST},
                         optional={"stack": LIST}, public=True, hidden=("spotters", "with")),
    "melee-void": EventType("a melee whose target hex was emptied first", ("12.1",),
                            {"side": TEXT, "target": TEXT, "with": LIST, "why": TEXT}, public=True,
                            counted=("with",)),
    "melee": EventType("a melee with its defensive fire (11.x), result and advance", ("12.7",),
                       {"side": TEXT, "target": TEXT, "attackers": MAPPING, "defenders": LIST,
                        "defensive_fire": LIST, "outcome": TEXT},
                       optional={"attack": NUMBER, "defence": NUMBER, "roll": NUMBER, "modifiers": MAPPING,
                                 "modified": NUMBER, "odds": TEXT, "result": TEXT, "defender_results": LIST,
                                 "attacker_results": LIST, "advanced": LIST, "second_hex": MAPPING,
                                 "second_hex_refused": MAPPING},
                       public=True),
    "overstack": EventType("units of an overstacked hex are removed", ("6.2",),
                           {"side": TEXT, "hex": TEXT, "stack": LIST, "removed": LIST}, public=True),
}
PUBLIC = frozenset(name for name, kind in EVENTS.items() if kind.public)


def problems(event: Mapping[str, Any]) -> list[str]:
    """How an event differs from its catalogue entry ([] when it matches)."""
    kind = EVENTS.get(str(event.get("type")))
    if kind is None:
        return [f"unknown event type {event.get('type')!r}"]
    found: list[str] = []
    if event.get("section") not in kind.sections:
        found.append(f"{event['type']}: section {event.get('section')!r} is not one of {', '.join(kind.sections)}")
    for name, types in kind.fields.items():
        if name not in event:
            found.append(f"{event['type']}: no {name!r}")
        elif not _is(event[name], types):
            found.append(f"{event['type']}: {name!r} is {event[name]!r}")
    for name, value in event.items():
        if name in ("type", "section") or name in kind.fields:
            continue
        if name not in kind.optional:
            found.append(f"{event['type']}: unknown field {name!r}")
        elif not _is(value, kind.optional[name]):
            found.append(f"{event['type']}: {name!r} is {value!r}")
    return found


def _is(value: Any, types: Kind) -> bool:
    if isinstance(value, bool) and bool not in types:
        return False  # a yes/no is never a number
    return isinstance(value, types)
