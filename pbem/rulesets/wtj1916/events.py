"""Every event type wtj1916 emits, its fields, its sections, and what the other side sees of it.

Fog (3.4 spotting, fog.py): an event about a unit the other side does not see reaches it
redacted or not at all. A move reaches the other side only when it sees the unit after the
phase (`seen_by`, set at the end of the resolution and never shown). A fire reaches the target's
side always (it was shot at), without the firer's name and numbers when that side does not see
the firer as it fires (`unseen_by`, set then). A resurrection names its donor base to its own side only.
"""

from __future__ import annotations

from pbem.rulesets.kit.events import FLAG, LIST, MAPPING, NUMBER, TEXT, Catalogue, EventType, Fields

HIT = Fields({"base": TEXT, "result": TEXT}, optional={"how": TEXT, "bail_out_roll": NUMBER,
                                                        "resurrected_from": TEXT, "section": TEXT})
OPTIONAL_TEXT = (str, type(None))

EVENTS = Catalogue({
    "move": EventType("a unit's move: its path, where each base ends, its mode and posture", ("F2",),
                      {"side": TEXT, "unit": TEXT, "path": LIST, "length": NUMBER, "to": MAPPING, "mode": TEXT,
                       "posture": TEXT},
                      optional={"stopped": FLAG, "seen_by": LIST}, shown=("type", "side", "unit", "to", "section")),
    "set-up": EventType("a trench mortar sets up", ("3.7",), {"side": TEXT, "unit": TEXT}),
    "fire": EventType("small arms fire: the firing bases, the die, the modifiers, the result and the hits", ("3.1",),
                      {"side": TEXT, "unit": TEXT, "weapon": TEXT, "target": TEXT, "firing": LIST, "roll": NUMBER,
                       "modifiers": MAPPING, "total": NUMBER, "result": TEXT, "passing": FLAG, "hits": LIST},
                      optional={"jam_roll": NUMBER, "jammed": FLAG, "unseen_by": LIST}, items={"hits": HIT},
                      public=True),
    "artillery": EventType("one direct artillery shot: hit dice, kill die, modifiers, result and hits", ("3.2",),
                           {"side": TEXT, "unit": TEXT, "base": TEXT, "weapon": TEXT, "target": TEXT,
                            "aim": OPTIONAL_TEXT, "hit_dice": LIST, "kill_die": NUMBER, "hit_modifiers": MAPPING,
                            "kill_modifiers": MAPPING, "size": NUMBER, "armour": NUMBER, "hit_total": NUMBER,
                            "kill_total": NUMBER, "hit": FLAG, "result": TEXT, "passing": FLAG, "extra": FLAG,
                            "hits": LIST},
                           optional={"rapid": NUMBER, "jam_roll": NUMBER, "jammed": FLAG, "unseen_by": LIST},
                           items={"hits": HIT}, public=True),
    "flame": EventType("a flamethrower attack and its fuel check", ("3.7",),
                       {"side": TEXT, "unit": TEXT, "base": TEXT, "target": TEXT, "hits": LIST, "fuel_roll": NUMBER,
                        "out_of_fuel": FLAG}, optional={"unseen_by": LIST}, items={"hits": HIT}, public=True),
    "unjam": EventType("a jammed machine gun's try to clear", ("3.7",),
                       {"side": TEXT, "unit": TEXT, "roll": NUMBER, "cleared": FLAG}),
    "air-strike": EventType("an air strike: its zone and a roll for every enemy base in it", ("3.7",),
                            {"side": TEXT, "at": LIST, "facing": NUMBER, "zone": LIST, "rolls": LIST},
                            items={"rolls": Fields({"base": TEXT, "unit": TEXT, "roll": NUMBER, "cover": TEXT,
                                                    "result": TEXT, "hits": LIST}, optional={"unseen_by": LIST})},
                            public=True),
    "fire-void": EventType("an accepted fire order the phase found impossible", ("3.1", "3.4", "3.7"),
                           {"side": TEXT, "unit": TEXT, "why": TEXT}),
})

REDACTED_FIRER = ("base", "weapon", "firing", "modifiers", "hit_modifiers", "kill_modifiers", "size",
                  "jam_roll", "jammed", "total", "hit_total", "kill_total", "fuel_roll", "out_of_fuel")
UNSEEN = "an unseen unit"
