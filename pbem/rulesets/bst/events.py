"""The catalogue of bst's events (docs/writing-a-ruleset.md, "Events"): all of them public,
since everything an activation does happens on the open table (docs/bst.md, "Fog of war")."""

from __future__ import annotations

from pbem.rulesets.kit.events import LIST, MAPPING, NUMBER, TEXT, Catalogue, EventType

EVENTS = Catalogue({
    "drawn": EventType("a card drawn from the cards left (a public roll)", ("A1",),
                       {"card": TEXT, "unit": TEXT, "side": TEXT}, public=True),
    "passed": EventType("a drawn card whose unit already activated or has no bases", ("A1",),
                        {"card": TEXT, "unit": TEXT}, public=True),
    "queued": EventType("a drawn card answered by the side's queued order", ("A1",),
                        {"card": TEXT, "unit": TEXT}, public=True),
    "joker": EventType("the Joker: the turn ends, every card goes back, no unit is activated", ("A1",),
                       {"turn": NUMBER}, public=True),
    "held": EventType("a unit holds: its card is discarded, the unit is not activated", ("A2",),
                      {"unit": TEXT, "side": TEXT}, public=True),
    "resolved": EventType("one base's fire markers resolved", ("M1", "F1", "H1", "F7", "O1", "O2"),
                          {"base": TEXT, "markers": NUMBER, "to_hit": NUMBER, "rolls": LIST, "rethrows": LIST,
                           "results": LIST, "status": TEXT, "kills": NUMBER}, public=True),
    "recovered": EventType("a base recovers: fire markers replace its pin or suppress", ("R3",),
                           {"base": TEXT, "rolls": LIST, "rethrows": LIST, "results": LIST, "status": TEXT,
                            "markers": NUMBER}, public=True),
    "recovery-failed": EventType("a hit stops a recovery", ("R2",),
                                 {"base": TEXT, "rolls": LIST, "rethrows": LIST, "results": LIST, "status": TEXT,
                                  "markers": NUMBER}, public=True),
    "removed": EventType("a base with a second Kill leaves the table", ("R1",), {"base": TEXT, "unit": TEXT},
                         public=True),
    "fired": EventType("one fire attack: markers per firer, the chain, the cover discard, who resolves at once",
                       ("F4", "F6", "O1"), {"unit": TEXT, "firers": MAPPING, "target": TEXT, "first": TEXT, "chain": LIST,
                                      "dealt": MAPPING, "markers": MAPPING, "covered": LIST, "immediate": LIST},
                       public=True),
    "moved": EventType("bases moved together; contact with an enemy stops them", ("M3", "C1"),
                       {"unit": TEXT, "bases": LIST, "path": LIST, "length": NUMBER},
                       optional={"contact": TEXT, "stopped": MAPPING},
                       public=True),
    "opportunity": EventType("a unit gives opportunity fire at a mover, this far along its path", ("O1",),
                             {"unit": TEXT, "side": TEXT, "at": NUMBER}, public=True),
    "move-cancelled": EventType("a move that no longer fits the table or allowance when it comes", ("M3",),
                                {"bases": LIST, "why": TEXT}, public=True),
})
