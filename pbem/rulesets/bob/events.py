"""Every event type bob emits: its fields, the sections it cites, and what the other side sees.

Most of what happens on a Band of Brothers table is seen by both players: fire, checks, moves,
routs, melees. What fog hides is what a conceal marker covers (15.0): an event naming a unit
under a marker shows the other side the marker (`as`) and not the unit, nor the numbers that
would tell a decoy from a unit (its morale, its rolls). `fog.visible` applies that; this
catalogue says which events reach the other side at all.
"""

from __future__ import annotations

from pbem.rulesets.kit.events import (FLAG, HEX_OR_NONE, LIST, MAPPING, NUMBER, TEXT, Catalogue, EventType,
                                      Fields)

FIRE_RESULT = Fields({"unit": TEXT, "as": TEXT, "modifiers": MAPPING, "modified": NUMBER, "result": TEXT,
                      "moving": FLAG}, optional={"firepower": NUMBER})
OPTIONAL_TEXT = (str, type(None))

EVENTS = Catalogue({
    "setup": EventType("a side's set-up: where each of its units stands", ("18.0",), {"side": TEXT, "units": MAPPING}),
    "turn": EventType("a new turn begins", ("1.0",), {"turn": NUMBER}, public=True),
    "phase": EventType("the Operations Phase ends; the Rout Phase follows", ("1.0",),
                       {"phase": TEXT, "turn": NUMBER}, public=True),
    "check": EventType("a Morale or Prof Check, with a CP re-roll if one was spent", ("5.0", "5.1", "5.2", "6.0", "9.0",
                                                                                     "10.0", "11.0", "V2", "V4",
                                                                                     "V5", "V8", "V9", "17.0"),
                       {"side": TEXT, "unit": TEXT, "marker": OPTIONAL_TEXT, "kind": TEXT, "purpose": TEXT,
                        "morale": NUMBER, "added": NUMBER, "rolls": LIST, "passed": FLAG},
                       optional={"cp": FLAG, "why": TEXT, "result": TEXT, "modifiers": MAPPING}, public=True),
    "move": EventType("a unit's move: the hexes it entered and why it stopped", ("5.0", "V3"),
                      {"side": TEXT, "unit": TEXT, "as": TEXT, "from": HEX_OR_NONE, "path": LIST, "retreat": FLAG},
                      optional={"ended": TEXT, "back_to": TEXT, "turns": LIST, "facing": NUMBER}, public=True),
    "fire": EventType("a fire attack: one roll against every unit in the hex", ("6.0", "5.2", "9.0", "10.0", "16.0", "V5",
                                                                                      "V6", "V9", "17.0"),
                      {"side": TEXT, "firer": TEXT, "from": TEXT, "target": TEXT, "fire": TEXT, "firepower": NUMBER,
                       "long": FLAG, "directed": FLAG, "roll": NUMBER, "results": LIST},
                      items={"results": FIRE_RESULT}, public=True),
    "mark": EventType("a unit marked Used or Op Fire", ("4.0", "V3", "17.0"), {"side": TEXT, "unit": TEXT, "as": TEXT, "mark": TEXT},
                      public=True),
    "cp": EventType("a command point spent on a pre-turn action", ("3.0",),
                    {"side": TEXT, "unit": TEXT, "as": TEXT, "why": TEXT}, public=True),
    "reveal": EventType("a conceal marker comes off (a decoy with it)", ("15.0",),
                        {"side": TEXT, "marker": TEXT, "unit": TEXT, "hex": HEX_OR_NONE, "why": TEXT, "decoy": FLAG},
                        public=True),
    "concealed": EventType("a unit out of every enemy's sight gains a conceal marker", ("15.0",),
                           {"side": TEXT, "unit": TEXT, "marker": TEXT, "hex": TEXT},
                           shown=("type", "side", "section", "marker", "hex")),
    "rout": EventType("a unit routs, or is eliminated with nowhere to go", ("11.0",),
                      {"side": TEXT, "unit": TEXT, "as": TEXT, "from": TEXT, "to": HEX_OR_NONE, "eliminated": FLAG},
                      public=True),
    "melee": EventType("a melee: every unit's two dice and the losses", ("12.0",),
                       {"hex": TEXT, "rolls": MAPPING, "hits": MAPPING, "losses": LIST},
                       items={"losses": Fields({"unit": TEXT, "result": TEXT})}, public=True),
    "turn-facing": EventType("a gun or vehicle turns within its hex", ("V2", "V3", "V4"),
                             {"side": TEXT, "unit": TEXT, "as": TEXT, "hex": TEXT, "from": NUMBER, "to": NUMBER},
                             public=True),
    "close-assault": EventType("a squad or weapon team close assaults a vehicle", ("V8",),
                               {"side": TEXT, "unit": TEXT, "as": TEXT, "vehicle": TEXT, "hex": TEXT, "roll": NUMBER,
                                "modifier": NUMBER, "strength": NUMBER, "result": TEXT}, public=True),
    "artillery": EventType("an Artillery Support called: its Prof Check, accuracy, drift and where it landed",
                           ("17.0",), {"side": TEXT, "support": TEXT, "at": TEXT, "prof": NUMBER, "accuracy": NUMBER,
                                       "prof_roll": NUMBER, "landed": HEX_OR_NONE},
                           optional={"accuracy_roll": NUMBER, "drift": MAPPING, "why": TEXT, "op_fire": NUMBER},
                           public=True),
    "bombard": EventType("a Fire Mission's roll against every unit in one of its seven hexes", ("17.0",),
                         {"side": TEXT, "support": TEXT, "hex": TEXT, "firepower": NUMBER, "roll": NUMBER,
                          "results": LIST}, items={"results": FIRE_RESULT}, public=True),
    "order-void": EventType("an accepted order its turn found impossible", ("4.0", "5.2", "6.0", "V3", "V4", "V8",
                                                                           "V9"),
                            {"side": TEXT, "unit": TEXT, "why": TEXT}),
    "concede": EventType("a side concedes", ("18.0",), {"side": TEXT}, public=True),
    "victory": EventType("the game is over", ("18.0",), {"winner": OPTIONAL_TEXT, "reason": TEXT},
                         optional={"scores": MAPPING}, public=True),
})

