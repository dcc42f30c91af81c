"""Every event type fbsm emits: its fields, the rule sections it may cite, and what fog lets the other side see.

An event is a plain mapping with `type` and the fields listed here: `fields` always, `optional`
only in some cases (each says when). `items` gives the fields of the mappings inside a list
field (`results`, `units`). `sections` are the values the event's `section` may take.

Fog of war (6.5, `fog.visible`): a `public` event reaches both sides whole; any other event
reaches the acting side (`side`) whole and the other side as its `shown` fields (with what
`fog.visible` derives for that type: counts instead of ids, results without hidden ids), or
not at all when `shown` is None.

`problems(event)` checks an event against this catalogue; the tests run it over bot games and
the recorded sample (tests/test_fbsm_events.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Fields:
    """The keys of a mapping: those always there and those that may be."""

    fields: tuple[str, ...]
    optional: tuple[str, ...] = ()


@dataclass(frozen=True)
class EventType:
    sections: tuple[str, ...]
    fields: tuple[str, ...]  # besides `type`
    optional: tuple[str, ...] = ()
    items: Mapping[str, Fields] = field(default_factory=dict)
    public: bool = False
    shown: tuple[str, ...] | None = None  # what the other side sees as it is (non-public events)
    what: str = ""


COMBAT_RESULT = Fields(("unit", "side", "roll", "eliminated"))
VOID_SECTIONS = ("4.3", "5.2", "6.1", "6.2", "7.4", "9.1", "9.2", "9.3", "9.7", "9.8", "10.1", "10.2", "10.6",
                 "10.8", "10.9")

EVENTS: dict[str, EventType] = {
    "us-setup": EventType(
        ("3.2",), ("section", "units"), items={"units": Fields(("unit", "hex", "zone"), ("default",))}, public=True,
        what="the US set-up: each unit's hex and zone; `default` marks a unit the orders left out"),
    "german-setup": EventType(
        ("3.6",), ("section", "units"), items={"units": Fields(("unit", "hex"))}, public=True,
        what="the 30 blind draws onto the riverbank sequence (both players see them)"),
    "random-event": EventType(
        ("7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "7.9", "7.10"), ("section", "dice", "roll", "event"),
        ("note", "rally", "spotting_roll", "favours"), public=True,
        what="the two dice of the random events table; `note` when a once-per-game event recurs, `rally` the US "
             "answer to a rally, `spotting_roll` and `favours` for superb spotting"),
    "breakthrough": EventType(
        ("7.5", "7.7"), ("section", "kind"), ("thwarted", "dice", "count"), public=True,
        what="a breakthrough: `thwarted` without an enemy-free edge hex, else its dice and the number to draw"),
    "reinforcements": EventType(
        ("8.3", "8.4"), ("section", "count"), ("dice", "note"), public=True,
        what="the reinforcement dice, or a `note` that the holding container is empty"),
    "drawn": EventType(
        ("7.5", "7.7", "8.3"), ("side", "section", "kind", "rolled", "count", "units"), ("delayed",),
        shown=("type", "side", "section", "kind", "rolled", "count"),
        what="units drawn blind from the container; `delayed` when one could not enter (8.6)"),
    "placed": EventType(
        ("7.5", "7.7", "8.3"), ("side", "section", "kind", "units"),
        items={"units": Fields(("unit", "hex"), ("default",))}, shown=("type", "side", "section", "kind"),
        what="drawn units placed on entry hexes (the other side sees the hexes)"),
    "bombard": EventType(
        ("11.2",), ("side", "section", "target", "markers", "spotter"),
        shown=("type", "side", "section", "target", "markers"),
        what="markers called down on a spotted enemy hex (the spotter stays hidden)"),
    "drift": EventType(
        ("5.2", "7.10", "11.3"), ("side", "section", "marker", "target", "roll", "drift", "final", "lost"), public=True,
        what="one marker's drift (none on turn 1 or under superb spotting); `lost` off the map"),
    "bombardment": EventType(
        ("11.4",), ("side", "section", "hex", "markers", "strength", "defense", "odds", "results"),
        items={"results": COMBAT_RESULT},
        shown=("type", "side", "section", "hex", "markers", "strength", "defense", "odds"),
        what="the markers in one hex resolved as one fire; results name only units the viewer may know"),
    "fire": EventType(
        ("10.10",), ("side", "section", "target", "firers", "from", "strength", "defense", "odds", "close_assault",
                     "results"), ("heavy_mg",), items={"results": COMBAT_RESULT},
        shown=("type", "side", "section", "target", "from", "strength", "defense", "odds", "close_assault"),
        what="one fire order resolved; `heavy_mg` names the unit with the heavy machineguns (7.8)"),
    "order-void": EventType(
        VOID_SECTIONS, ("side", "section", "reason"), ("unit", "target"),
        what="an accepted order that no longer applies when its turn comes (its `unit` or `target`)"),
    "advance": EventType(
        ("10.12",), ("side", "section", "into", "units"), items={"units": Fields(("unit", "from"))},
        shown=("type", "side", "section", "into"),
        what="units advancing into the hex their fire emptied (the other side sees how many)"),
    "move": EventType(
        ("4.3", "9.1"), ("side", "section", "unit", "from", "path", "mp_half"), ("exit",),
        shown=("type", "side", "section", "from", "path"),
        what="one unit's move; `exit` when it left by the south edge (4.3)"),
    "markers-drawn": EventType(
        ("13.4",), ("side", "section", "roll", "markers"), public=True,
        what="the German markers usable this phase under play balance"),
    "turn": EventType(("5.3",), ("section", "turn"), public=True, what="a new game turn begins"),
    "concede": EventType(("4.5",), ("side", "section"), public=True, what="a side conceded"),
    "victory": EventType(("4.3", "4.4", "4.5", "13.3"), ("winner", "section", "reason"), public=True,
                         what="the game is over"),
}

PUBLIC = frozenset(name for name, spec in EVENTS.items() if spec.public)


def problems(event: Mapping[str, Any]) -> list[str]:
    """How the event departs from the catalogue (none: [])."""
    kind = event.get("type")
    spec = EVENTS.get(str(kind))
    if spec is None:
        return [f"unknown event type {kind!r}"]
    found = _keys(f"{kind}", event, Fields(("type", *spec.fields), spec.optional))
    if event.get("section") not in spec.sections:
        found.append(f"{kind}: section {event.get('section')!r} is not one of {', '.join(spec.sections)}")
    for name, fields in spec.items.items():
        for index, item in enumerate(event.get(name) or []):
            if not isinstance(item, Mapping):
                found.append(f"{kind}.{name}[{index}]: not a mapping")
            else:
                found += _keys(f"{kind}.{name}[{index}]", item, fields)
    return found


def _keys(where: str, mapping: Mapping[str, Any], fields: Fields) -> list[str]:
    keys = set(mapping)
    missing = [key for key in fields.fields if key not in keys]
    extra = sorted(keys - set(fields.fields) - set(fields.optional))
    return ([f"{where}: missing {', '.join(missing)}"] if missing else []) + \
        ([f"{where}: unlisted {', '.join(extra)}"] if extra else [])
