"""Every event type fbsm emits: its fields, the rule sections it may cite, and what fog lets the other side see.

An event is a plain mapping with `type` and the fields listed here (`pbem.rulesets.kit.events`):
`fields` always, `optional` only in some cases (each says when), each with the kind of its value.
`items` gives the fields of the mappings inside a list field (`results`, `units`). `sections`
are the values the event's `section` may take; fbsm lists `section` among the fields as well.

Fog of war (6.5, `fog.visible`): a `public` event reaches both sides whole; any other event
reaches the acting side (`side`) whole and the other side as its `shown` fields (with what
`fog.visible` derives for that type: counts instead of ids, results without hidden ids), or
not at all when `shown` is None.

`problems(event)` checks an event against this catalogue; the tests run it over bot games and
the recorded sample (tests/test_fbsm_events.py).
"""

from __future__ import annotations

from pbem.rulesets.kit.events import (FLAG, HEX_OR_NONE, LIST, NUMBER, NUMBER_OR_NONE, TEXT, Catalogue, EventType,
                                      Fields)

__all__ = ["CATALOGUE", "EVENTS", "PUBLIC", "EventType", "Fields", "problems"]

COMBAT_RESULT = Fields({"unit": TEXT, "side": TEXT, "roll": NUMBER_OR_NONE, "eliminated": FLAG})
VOID_SECTIONS = ("4.3", "5.2", "6.1", "6.2", "7.4", "9.1", "9.2", "9.3", "9.7", "9.8", "10.1", "10.2", "10.6",
                 "10.8", "10.9")
SECTION = {"section": TEXT}

CATALOGUE = Catalogue({
    "us-setup": EventType(
        "the US set-up: each unit's hex and zone; `default` marks a unit the orders left out",
        ("3.2",), {**SECTION, "units": LIST},
        items={"units": Fields({"unit": TEXT, "hex": TEXT, "zone": TEXT}, {"default": FLAG})}, public=True),
    "german-setup": EventType(
        "the 30 blind draws onto the riverbank sequence (both players see them)",
        ("3.6",), {**SECTION, "units": LIST}, items={"units": Fields({"unit": TEXT, "hex": TEXT})}, public=True),
    "random-event": EventType(
        "the two dice of the random events table; `note` when a once-per-game event recurs, `rally` the US "
        "answer to a rally, `spotting_roll` and `favours` for superb spotting",
        ("7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "7.9", "7.10"),
        {**SECTION, "dice": LIST, "roll": NUMBER, "event": TEXT},
        {"note": TEXT, "rally": TEXT, "spotting_roll": NUMBER, "favours": TEXT}, public=True),
    "breakthrough": EventType(
        "a breakthrough: `thwarted` without an enemy-free edge hex, else its dice and the number to draw",
        ("7.5", "7.7"), {**SECTION, "kind": TEXT}, {"thwarted": FLAG, "dice": LIST, "count": NUMBER}, public=True),
    "reinforcements": EventType(
        "the reinforcement dice, or a `note` that the holding container is empty",
        ("8.3", "8.4"), {**SECTION, "count": NUMBER}, {"dice": LIST, "note": TEXT}, public=True),
    "drawn": EventType(
        "units drawn blind from the container; `delayed` when one could not enter (8.6)",
        ("7.5", "7.7", "8.3"),
        {"side": TEXT, **SECTION, "kind": TEXT, "rolled": NUMBER, "count": NUMBER, "units": LIST},
        {"delayed": FLAG}, shown=("type", "side", "section", "kind", "rolled", "count")),
    "placed": EventType(
        "drawn units placed on entry hexes (the other side sees the hexes)",
        ("7.5", "7.7", "8.3"), {"side": TEXT, **SECTION, "kind": TEXT, "units": LIST},
        items={"units": Fields({"unit": TEXT, "hex": TEXT}, {"default": FLAG})},
        shown=("type", "side", "section", "kind")),
    "bombard": EventType(
        "markers called down on a spotted enemy hex (the spotter stays hidden)",
        ("11.2",), {"side": TEXT, **SECTION, "target": TEXT, "markers": LIST, "spotter": TEXT},
        shown=("type", "side", "section", "target", "markers")),
    "drift": EventType(
        "one marker's drift (none on turn 1 or under superb spotting); `lost` off the map",
        ("5.2", "7.10", "11.3"),
        {"side": TEXT, **SECTION, "marker": TEXT, "target": TEXT, "roll": NUMBER_OR_NONE, "drift": NUMBER,
         "final": HEX_OR_NONE, "lost": FLAG}, public=True),
    "bombardment": EventType(
        "the markers in one hex resolved as one fire; results name only units the viewer may know",
        ("11.4",),
        {"side": TEXT, **SECTION, "hex": TEXT, "markers": LIST, "strength": NUMBER, "defense": NUMBER,
         "odds": NUMBER, "results": LIST},
        items={"results": COMBAT_RESULT},
        shown=("type", "side", "section", "hex", "markers", "strength", "defense", "odds")),
    "fire": EventType(
        "one fire order resolved; `heavy_mg` names the unit with the heavy machineguns (7.8)",
        ("10.10",),
        {"side": TEXT, **SECTION, "target": TEXT, "firers": LIST, "from": LIST, "strength": NUMBER,
         "defense": NUMBER, "odds": NUMBER, "close_assault": FLAG, "results": LIST},
        {"heavy_mg": TEXT}, items={"results": COMBAT_RESULT},
        shown=("type", "side", "section", "target", "from", "strength", "defense", "odds", "close_assault")),
    "order-void": EventType(
        "an accepted order that no longer applies when its turn comes (its `unit` or `target`)",
        VOID_SECTIONS, {"side": TEXT, **SECTION, "reason": TEXT}, {"unit": TEXT, "target": TEXT}),
    "advance": EventType(
        "units advancing into the hex their fire emptied (the other side sees how many)",
        ("10.12",), {"side": TEXT, **SECTION, "into": TEXT, "units": LIST},
        items={"units": Fields({"unit": TEXT, "from": TEXT})}, shown=("type", "side", "section", "into")),
    "move": EventType(
        "one unit's move; `exit` when it left by the south edge (4.3)",
        ("4.3", "9.1"), {"side": TEXT, **SECTION, "unit": TEXT, "from": TEXT, "path": LIST, "mp_half": NUMBER},
        {"exit": FLAG}, shown=("type", "side", "section", "from", "path")),
    "markers-drawn": EventType(
        "the German markers usable this phase under play balance",
        ("13.4",), {"side": TEXT, **SECTION, "roll": NUMBER, "markers": LIST}, public=True),
    "turn": EventType("a new game turn begins", ("5.3",), {**SECTION, "turn": NUMBER}, public=True),
    "concede": EventType("a side conceded", ("4.5",), {"side": TEXT, **SECTION}, public=True),
    "victory": EventType("the game is over", ("4.3", "4.4", "4.5", "13.3"),
                         {"winner": TEXT, **SECTION, "reason": TEXT}, public=True),
})

EVENTS = CATALOGUE.events
PUBLIC = CATALOGUE.public
problems = CATALOGUE.problems
