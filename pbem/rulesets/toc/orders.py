"""The orders vocabulary: JSON Schemas per phase, the standing answers, and the template hints."""

from __future__ import annotations

from typing import Any

from .sequence import SEQUENCES

HEX = {"type": "string", "pattern": "^[0-9]{4}$"}
UNIT = {"type": "string", "pattern": "^[GB]-[A-Z0-9]+$"}
UNITS = {"type": "array", "items": UNIT, "minItems": 1, "maxItems": 40, "uniqueItems": True}
STEP = {"oneOf": [HEX, {"const": "off"}]}


def _item(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


CONCEDE = _item(["concede"], concede={"const": True})
SEQUENCE = _item(["sequence"], sequence={"enum": sorted(SEQUENCES)})
MOVE = _item(["move", "path"], move=UNITS, path={"type": "array", "items": STEP, "minItems": 1, "maxItems": 40},
             march={"type": "boolean"})
TOP = _item(["top"], top=UNIT)
BOMBARD = _item(["bombard", "with"], bombard=HEX, losses={**UNITS, "minItems": 0},
                **{"with": UNITS})
MELEE = _item(["melee", "with"], melee=HEX, losses={**UNITS, "minItems": 0}, advance={**UNITS, "minItems": 0},
              then={"oneOf": [HEX, {"type": "object", "propertyNames": UNIT, "additionalProperties": HEX}]},
              **{"with": UNITS})

NEXT_GERMAN = _item(["next_phase"], next_phase={"type": "array", "maxItems": 300,
                                                 "items": {"oneOf": [BOMBARD, MELEE]}})
NEXT_BRITISH = _item(["next_phase"], next_phase={"type": "array", "maxItems": 300,
                                                  "items": {"oneOf": [MOVE, TOP, BOMBARD, MELEE]}})

BY_PHASE = {
    "german-movement": [MOVE, TOP, NEXT_GERMAN],
    "german-combat": [BOMBARD, MELEE],
    "british-first": [SEQUENCE, MOVE, TOP, BOMBARD, MELEE, NEXT_BRITISH],
    "british-second": [MOVE, TOP, BOMBARD, MELEE],
}
# The phase whose orders a movement phase may carry in its `next_phase` order.
NEXT_OF = {"german-movement": "german-combat", "british-first": "british-second"}

HINTS = {
    "sequence": '{sequence: fight-move}   first order of the British player turn (5.3): move-fight (default), '
                'fight-move, fight-fight or move-move',
    "move": '{move: [G-IR8, G-FA18], path: ["3101", "3102"], march: true}   a stack that began the phase together '
            '(9.5); a German unit still off the map enters by its entry hex (8.2-8.4); path ending "off" leaves '
            'by a British exit hex from turn 8 (4.4)',
    "top": '{top: B-RF}   put a unit on top of its stack: the enemy sees only the top unit (6.6)',
    "bombard": '{bombard: "3122", with: [G-HA2, G-FA18], losses: [B-RF]}   artillery at an enemy hex (10.x); '
               '`losses` ranks the enemy units you want hit (10.9)',
    "melee": '{melee: "3122", with: [G-IR8, G-IR12], losses: [G-IR12], advance: [G-IR8], then: "3123"}   '
             'infantry/cavalry next to an enemy hex (12.x); `losses` ranks your own units for losses (12.12), '
             '`advance` who enters the hex if it is emptied and `then` a second hex (12.13)',
    "concede": "{concede: true}   give up the game (5.4)",
    "next_phase": '{next_phase: [...]}   last order of a movement phase: the orders of the next phase of this '
                  'player turn, checked against the positions after this movement (saves a mail exchange; not '
                  'after a combat, whose results are not known yet)',
}


def order_schema(phase: str) -> dict[str, Any]:
    items = BY_PHASE.get(phase, [])
    if not items:
        return {"type": "array", "maxItems": 0}
    return {"type": "array", "maxItems": 300, "items": {"oneOf": [CONCEDE, *items]}}


def order_kinds(phase: str) -> list[str]:
    names = {"german-movement": ["move", "top", "next_phase"], "german-combat": ["bombard", "melee"],
             "british-first": ["sequence", "move", "top", "bombard", "melee", "next_phase"],
             "british-second": ["move", "top", "bombard", "melee"]}.get(phase, [])
    return [HINTS[name] for name in names] + ([HINTS["concede"]] if names else [])


DEFAULTS = {
    "defensive_fire": "largest-attack",
    "fire_losses": "strongest-first",
    "own_losses": "weakest-first",
    "bombard_losses": "strongest-first",
    "advance": "strongest",
    "overstack": "strongest-first",
}

STANDING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "defensive_fire": {"enum": ["largest-attack", "none", "ask"],
                           "description": "11.2: where this side's defending units fire - all at the attacking hex "
                                          "with the most melee factors (default), not at all, or ask"},
        "fire_losses": {"enum": ["strongest-first", "weakest-first", "spread", "ask"],
                        "description": "11.5: which attacking units this side's defensive fire hurts (default "
                                       "strongest-first)"},
        "own_losses": {"enum": ["weakest-first", "strongest-first", "spread", "ask"],
                       "description": "12.12: how this side absorbs its own melee losses when a melee order's "
                                      "`losses` does not settle it (default weakest-first)"},
        "bombard_losses": {"enum": ["strongest-first", "weakest-first", "spread", "ask"],
                           "description": "10.9: how this side apportions the losses its bombardments inflict when "
                                          "the order's `losses` does not settle it (default strongest-first)"},
        "advance": {"enum": ["strongest", "all", "ask"],
                    "description": "12.13: who advances into an emptied hex when the melee order's `advance` names "
                                   "no survivor (default strongest: the strongest survivor alone)"},
        "overstack": {"enum": ["strongest-first", "weakest-first", "ask"],
                      "description": "6.2: which of the opponent's units to remove from an overstacked hex "
                                     "(default strongest-first)"},
    },
}
