"""The order schemas, one tagged kind per order (docs/wtj1916.md, "Orders"), and their hints."""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State
from pbem.rulesets.kit import positions

from .context import ID_PATTERN, Context
from .state import bases_of, units_of

UNIT: dict[str, Any] = {"type": "string", "pattern": ID_PATTERN, "maxLength": 64}
MOVE = positions.move_schema(required=["move"], extra={
    "move": UNIT, "mode": {"enum": ["walk", "rush"]}, "posture": {"enum": ["standing", "prone"]}})
SET_UP = {"type": "object", "additionalProperties": False, "required": ["set_up"], "properties": {"set_up": UNIT}}
FIRE = {"type": "object", "additionalProperties": False, "required": ["fire", "unit"],
        "properties": {"fire": UNIT, "unit": UNIT, "weapon": {"type": "string", "maxLength": 64},
                       "moving": {"type": "boolean"},
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


def template(context: Context, view: State, side: str) -> list[str]:
    """The template's lines: the phase's order kinds, then the side's units and what each may do,
    and (fire phase) the enemy units it sees, all from its own view."""
    phase = str(view["phase"])
    lines = order_kinds(phase)
    for uid, unit in units_of(view, side):
        kind = context.type_of(unit)
        bases = bases_of(view, uid)
        where = ", ".join(f"{bid} at {list(b['at'])}" for bid, b in bases.items())
        notes = [flag for flag in ("moved", "bound", "marked", "jammed", "set_up") if unit.get(flag)]
        if phase.endswith("-move"):
            what = f"walk {kind.move}, rush {kind.rush} yd"
        else:
            what = "weapons " + (", ".join(w.name for w in kind.weapons) or "none")
        lines.append(f"{uid}: {kind.name}; {what}" + (f" [{', '.join(notes)}]" if notes else "") + f"; {where}")
    if not phase.endswith("-move"):
        seen = sorted(u for u, e in view["units"].items() if e["side"] != side and e["status"] == "active")
        lines.append("enemy units you see (3.4): " + (", ".join(seen) or "none"))
    return lines


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
