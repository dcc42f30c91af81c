"""Every event type toc emits: its fields, the sections it cites, and who may see it (6.6).

An event is a mapping with `type` and `section` (the rule the event carries out) and the fields
listed here: `fields` are always there, `optional` only in some cases (an entry, an exit, a melee
that came to a roll, ...). Field kinds are Python types, so a test can check every event a game
produces against this catalogue (tests/test_toc_events.py), and `fog.visible` reads from it what
the other side may see of each type (the catalogue's format is `pbem.rulesets.kit.events`'s).
"""

from __future__ import annotations

from pbem.rulesets.kit.events import FLAG, HEX_OR_NONE, LIST, MAPPING, NUMBER, TEXT, Catalogue, EventType, Fields

__all__ = ["CATALOGUE", "EVENTS", "PUBLIC", "EventType", "problems"]

# One unit's losses (`losses.apply`, `stacking`): a survivor shows its new counter face, a British
# unit eliminated says whether it was surrounded (4.5).
STEP_RESULT = Fields({"unit": TEXT, "before": NUMBER, "after": NUMBER},
                     {"eliminated": FLAG, "surrounded": FLAG, "counter": TEXT, "face": TEXT})
COUNTER = Fields({"unit": TEXT, "steps": NUMBER})  # a unit of a stack a combat examined (6.6)
DEFENSIVE_FIRE = Fields({"at": TEXT, "firers": LIST, "factors": NUMBER, "roll": NUMBER, "modifiers": MAPPING,
                         "modified": NUMBER, "losses": NUMBER, "results": LIST})

# public: the other side sees it too (6.6: combats are witnessed by both); hidden: fields the other
# side never sees (they could name units under a top); counted: list fields it sees only as a number.
CATALOGUE = Catalogue({
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
                         optional={"stack": LIST}, items={"results": STEP_RESULT, "stack": COUNTER},
                         public=True, hidden=("spotters", "with")),
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
                       items={"defenders": COUNTER, "defensive_fire": DEFENSIVE_FIRE, "defender_results": STEP_RESULT,
                              "attacker_results": STEP_RESULT},
                       public=True),
    "overstack": EventType("units of an overstacked hex are removed", ("6.2",),
                           {"side": TEXT, "hex": TEXT, "stack": LIST, "removed": LIST},
                           items={"removed": STEP_RESULT}, public=True),
})

EVENTS = CATALOGUE.events
PUBLIC = CATALOGUE.public
problems = CATALOGUE.problems
