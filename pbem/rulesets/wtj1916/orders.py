"""The order schemas, one tagged kind per order (docs/wtj1916.md, "Orders"), and their hints."""

from __future__ import annotations

from typing import Any

from pbem.rulesets.kit import positions

from .context import ID_PATTERN

UNIT: dict[str, Any] = {"type": "string", "pattern": ID_PATTERN}
MOVE = positions.move_schema(required=["move"], extra={
    "move": UNIT, "mode": {"enum": ["walk", "rush"]}, "posture": {"enum": ["standing", "prone"]}})
SET_UP = {"type": "object", "additionalProperties": False, "required": ["set_up"], "properties": {"set_up": UNIT}}
FIRE = {"type": "object", "additionalProperties": False, "required": ["fire", "unit"],
        "properties": {"fire": UNIT, "unit": UNIT, "weapon": {"type": "string"}, "moving": {"type": "boolean"},
                       "then": {"type": "array", "items": UNIT, "maxItems": 2}}}
FLAME = {"type": "object", "additionalProperties": False, "required": ["flame", "unit", "base"],
         "properties": {"flame": UNIT, "unit": UNIT, "base": UNIT}}
UNJAM = {"type": "object", "additionalProperties": False, "required": ["unjam"], "properties": {"unjam": UNIT}}
AIR = {"type": "object", "additionalProperties": False, "required": ["air_strike"],
       "properties": {"air_strike": {"type": "object", "additionalProperties": False, "required": ["at", "facing"],
                                     "properties": {"at": positions.POINT_SCHEMA,
                                                    "facing": {"type": "integer", "minimum": 0, "maximum": 359}}}}}

HINTS = {
    "move": "{move: UNIT, to: [x, y]}  or path/toward (+ distance); face: DEG|[x, y]; mode: walk|rush; "
            "posture: standing|prone  (F2, 3.5; the moving side)",
    "set_up": "{set_up: MORTAR}  a trench mortar sets up where it stands (3.7; the moving side)",
    "fire": "{fire: ENEMY, unit: UNIT}  weapon: NAME; moving: true (will move, 3.5); then: [ENEMY] (rapid fire, 3.7)",
    "flame": "{flame: ENEMY, unit: UNIT, base: BASE}  a flamethrower attack (3.7)",
    "unjam": "{unjam: MG}  a jammed machine gun tries to clear (3.7)",
    "air_strike": "{air_strike: {at: [x, y], facing: DEG}}  in your own fire phase (3.7)",
}


def order_schema(phase: str) -> dict[str, Any]:
    items = [MOVE, SET_UP] if phase.endswith("-move") else [FIRE, FLAME, UNJAM, AIR]
    return {"type": "array", "maxItems": 200, "items": {"oneOf": items}}


def order_kinds(phase: str) -> list[str]:
    names = ["move", "set_up"] if phase.endswith("-move") else ["fire", "flame", "unjam", "air_strike"]
    return [HINTS[name] for name in names]


PASS_FIRE_POLICIES = ("machine-guns", "all", "none")
STANDING_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {"pass_fire": {"anyOf": [{"enum": list(PASS_FIRE_POLICIES)},
                                           {"type": "object", "propertyNames": UNIT, "maxProperties": 80,
                                            "additionalProperties": {"anyOf": [UNIT, {"const": "any"}]}}],
                                 "description": "3.7: which of your units pass fire at enemy movers in the other "
                                                "side's move phase: machine-guns (default), all, none, or per unit "
                                                "the enemy unit it waits for, or any"},"mg_resurrection": {"enum": ["always", "never"],
                                       "description": "3.3: resurrect a killed machine gun from the closest "
                                                      "infantry base of its battalion (default always)"}},
}
