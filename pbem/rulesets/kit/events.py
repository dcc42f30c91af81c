"""A game's event catalogue: every event type it emits, its fields, the sections it cites, and fog.

An event is a plain mapping with `type`, `section` and the fields its `EventType` lists: `fields`
always, `optional` only in some cases. `items` gives the keys of the mappings inside a list
field (`results`, `units`). Each field names the Python types its value may have (a `Kind`); a
yes/no is never a number unless the kind says so.

What the other side sees of an event (a game's `fog.visible` reads it here): a `public` event
whole; a non-public one as its `shown` fields, or not at all when `shown` is None. `hidden`
(fields the other side never sees) and `counted` (list fields it sees only as a count) refine a
public event.

`Catalogue.problems(event)` says how one event departs from the catalogue, so a game's tests can
run it over bot games and the recorded sample (docs/writing-a-ruleset.md, "Events").
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.records import FrozenRecord, set_field

Kind = tuple[type, ...]  # the types a field's value may have

TEXT: Kind = (str,)
NUMBER: Kind = (int,)
NUMBER_OR_NONE: Kind = (int, type(None))  # a roll that was not needed
FLAG: Kind = (bool,)
LIST: Kind = (list,)
MAPPING: Kind = (dict,)
HEX_OR_NONE: Kind = (str, type(None))
ANY: Kind = (object,)  # present, with any value

_NAMES: dict[type, str] = {str: "text", int: "a whole number", bool: "yes or no", list: "a list",
                           dict: "a mapping", type(None): "null", object: "anything"}


class Fields(FrozenRecord):
    """The keys of a mapping inside a list field: those always there and those that may be.

    A hand-written frozen record, not a dataclass (`pbem.core.records`: cheaper at import).
    """

    __slots__ = ("fields", "optional")
    fields: Mapping[str, Kind]
    optional: Mapping[str, Kind]

    def __init__(self, fields: Mapping[str, Kind], optional: Mapping[str, Kind] | None = None) -> None:
        set_field(self, "fields", fields)
        set_field(self, "optional", {} if optional is None else optional)


class EventType(FrozenRecord):
    """One event type: what it records, under which sections, its fields, and what fog shows of it.

    A hand-written frozen record, not a dataclass (`pbem.core.records`: cheaper at import).
    """

    __slots__ = ("about", "sections", "fields", "optional", "items", "public", "shown", "hidden", "counted")
    about: str  # one line: what the event records
    sections: tuple[str, ...]  # the values the event's `section` may take
    fields: Mapping[str, Kind]  # always there (besides `type` and `section`)
    optional: Mapping[str, Kind]
    items: Mapping[str, Fields]
    public: bool  # every side sees it whole
    shown: tuple[str, ...] | None  # non-public: the fields the other side sees (None: not at all)
    hidden: tuple[str, ...]  # fields the other side never sees
    counted: tuple[str, ...]  # list fields the other side sees only as a count

    def __init__(self, about: str, sections: tuple[str, ...], fields: Mapping[str, Kind],
                 optional: Mapping[str, Kind] | None = None, items: Mapping[str, Fields] | None = None,
                 public: bool = False, shown: tuple[str, ...] | None = None, hidden: tuple[str, ...] = (),
                 counted: tuple[str, ...] = ()) -> None:
        set_field(self, "about", about)
        set_field(self, "sections", sections)
        set_field(self, "fields", fields)
        set_field(self, "optional", {} if optional is None else optional)
        set_field(self, "items", {} if items is None else items)
        set_field(self, "public", public)
        set_field(self, "shown", shown)
        set_field(self, "hidden", hidden)
        set_field(self, "counted", counted)

    @property
    def what(self) -> str:
        """`about` under the name fbsm's catalogue first gave it."""
        return self.about


class Catalogue:
    """Every event type of a game by name, checked for consistency when it is built."""

    def __init__(self, events: Mapping[str, EventType]) -> None:
        self.events: Mapping[str, EventType] = dict(events)
        self.public: frozenset[str] = frozenset(name for name, spec in self.events.items() if spec.public)
        wrong = [problem for name, spec in self.events.items() for problem in _inconsistent(name, spec)]
        if wrong:
            raise ValueError("event catalogue: " + "; ".join(wrong))

    def __getitem__(self, name: str) -> EventType:
        return self.events[name]

    def get(self, name: str) -> EventType | None:
        return self.events.get(name)

    def problems(self, event: Mapping[str, Any]) -> list[str]:
        """How the event departs from the catalogue ([] when it matches)."""
        if not isinstance(event, Mapping):
            return [f"an event is a mapping, not {event!r}"]
        name = event.get("type")
        spec = self.events.get(name) if isinstance(name, str) else None
        if spec is None or not isinstance(name, str):
            return [f"unknown event type {name!r}"]
        found = _keys(name, event, {"section": TEXT, **spec.fields}, spec.optional, skip=("type",))
        if "section" in event and event["section"] not in spec.sections:
            found.append(f"{name}: section {event['section']!r} is not one of {', '.join(spec.sections)}")
        for list_name, keys in spec.items.items():
            value = event.get(list_name)
            if not isinstance(value, list):
                continue  # absent, or already reported as the wrong kind
            for index, item in enumerate(value):
                where = f"{name}.{list_name}[{index}]"
                if isinstance(item, Mapping):
                    found += _keys(where, item, keys.fields, keys.optional)
                else:
                    found.append(f"{where}: {item!r} is not a mapping")
        return found


def _keys(where: str, mapping: Mapping[str, Any], fields: Mapping[str, Kind], optional: Mapping[str, Kind],
          skip: tuple[str, ...] = ()) -> list[str]:
    """Missing, unlisted and wrong-kind keys of one mapping, in that order."""
    missing = [key for key in fields if key not in mapping]
    unlisted = sorted(str(key) for key in mapping if key not in fields and key not in optional and key not in skip)
    found = [f"{where}: missing {', '.join(missing)}"] if missing else []
    if unlisted:
        found.append(f"{where}: unlisted {', '.join(unlisted)}")
    for key, kind in [*fields.items(), *optional.items()]:
        if key in mapping and not is_kind(mapping[key], kind):
            found.append(f"{where}: {key} is {mapping[key]!r}, not {describe(kind)}")
    return found


def is_kind(value: Any, kind: Kind) -> bool:
    """Whether a value is of a kind (a yes/no is never a number unless the kind says yes/no)."""
    if isinstance(value, bool) and bool not in kind and object not in kind:
        return False
    return isinstance(value, kind)


def describe(kind: Kind) -> str:
    """A kind in words, for a problem: `text or null`."""
    return " or ".join(_NAMES.get(each, each.__name__) for each in kind)


def _inconsistent(name: str, spec: EventType) -> list[str]:
    """What is wrong with one entry of the catalogue itself (a typo there would pass every event)."""
    known = {**spec.fields, **spec.optional}
    wrong = []
    if not spec.sections:
        wrong.append(f"{name} cites no section")
    if spec.public and spec.shown is not None:
        wrong.append(f"{name} is public, so it is shown whole: `shown` has no use")
    for list_name in spec.items:
        if known.get(list_name) not in (LIST, ANY):
            wrong.append(f"{name}.{list_name} has items but is not a list field")
    shown_names = [key for key in spec.shown or () if key not in ("type", "section")]
    for key in [*shown_names, *spec.hidden, *spec.counted]:
        if key not in known:
            wrong.append(f"{name} names {key!r}, which is not one of its fields")
    return wrong
