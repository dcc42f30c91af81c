"""The orders vocabulary: JSON Schemas per phase, the standing answers, and the template hints."""

from __future__ import annotations

from typing import Any

from .sequence import KIND

HEX = {"type": "string", "pattern": "^[0-9]{4}$"}
UNIT = {"type": "string", "pattern": "^[A-Z]+[0-9]+$"}
MARKER = {"type": "string", "pattern": "^(heavy|light)-[0-9]+$"}


def _item(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


CONCEDE = _item(["concede"], concede={"const": True})
SETUP = _item(["setup", "hex"], setup=UNIT, hex=HEX)
PLACE = _item(["place", "hex"], place=UNIT, hex=HEX)
MOVE = _item(["move", "path"], move=UNIT, path={"type": "array", "items": HEX, "maxItems": 40},
             exit={"type": "boolean"})
FIRE = _item(["fire", "with"], fire=HEX, advance={"type": "array", "items": UNIT, "uniqueItems": True},
             **{"with": {"type": "array", "items": UNIT, "minItems": 1, "uniqueItems": True}})
HEAVY_MG = _item(["heavy_mg"], heavy_mg=UNIT)
BOMBARD = _item(["bombard", "markers", "spotter"], bombard=HEX,
                markers={"type": "array", "items": MARKER, "minItems": 1, "uniqueItems": True}, spotter=UNIT)

BY_KIND = {
    "setup": [SETUP],
    "placement": [PLACE],
    "movement": [MOVE],
    "fire": [FIRE, HEAVY_MG],
    "bombardment": [BOMBARD],
}

HINTS = {
    "setup": ['{setup: US01, hex: "2717"}   one US unit per hex: 16 infantry + 8 emplacements forward (3.3), '
              '32 infantry + 1 emplacement rear (3.4); units left out get default hexes'],
    "placement": ['{place: G31, hex: "3931"}   a drawn unit onto an entry hex (8.3, 7.5, 7.7); units left out '
                  'get default hexes'],
    "movement": ['{move: G07, path: ["2235", "2234"]}   hexes entered in order (9.1); add exit: true to leave '
                 'the map from a south exit hex 1900-3300 (4.3)'],
    "fire": ['{fire: "2232", with: [G07, G08], advance: [G07]}   target hex, firers, who advances if it is '
             'cleared (10.12)', '{heavy_mg: G07}   the unit with heavy machineguns this phase (7.8)'],
    "bombardment": ['{bombard: "2136", markers: [heavy-1, light-2], spotter: G07}   markers on a spotted enemy '
                    'hex (11.2)'],
}


def order_schema(phase: str) -> dict[str, Any]:
    kind = KIND.get(phase)
    items = BY_KIND.get(kind or "", [])
    if not items:
        return {"type": "array", "maxItems": 0}
    return {"type": "array", "maxItems": 200, "items": {"oneOf": [CONCEDE, *items]}}


def order_kinds(phase: str) -> list[str]:
    kind = KIND.get(phase, "")
    hints = list(HINTS.get(kind, []))
    if hints:
        hints.append("{concede: true}   give up the game (4.5)")
    return hints


STANDING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "rally": {"enum": ["accept", "decline", "ask"],
                  "description": "7.6, US only: take a US Rally when rolled (default accept)"},
        "advance": {"enum": ["none", "all", "ask"],
                    "description": "10.12: advance after combat when a fire order has no `advance` (default none)"},
        "placement": {"enum": ["orders"],
                      "description": "8.3, 7.5, 7.7, German only: drawn units are placed by orders in the "
                                     "german-placement phase (units left out go to the default hex). The "
                                     "former `auto` is gone: skipping that phase would show the US a private "
                                     "standing answer (6.5)"},
    },
}
