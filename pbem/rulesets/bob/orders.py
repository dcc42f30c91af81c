"""The orders vocabulary: JSON Schemas per phase, the standing answers, and the template hints."""

from __future__ import annotations

from typing import Any

HEX: dict[str, Any] = {"type": "string", "pattern": "^[0-9]{4}$"}
UNIT: dict[str, Any] = {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9-]{0,15}$"}


def _item(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


CONCEDE = _item(["concede"], concede={"const": True})
REROLL = {"type": "boolean", "description": "3.0: spend a CP to re-roll this unit's failed check"}
FACING = {"type": "integer", "minimum": 0, "maximum": 5,
          "description": "V4: a gun or vehicle faces the hex spine between hexsides N and N+1 (0 = up, clockwise)"}
TARGET = {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9-]{0,15}$",
          "description": "V10: the one enemy unit (or marker) fired at in a hex holding a vehicle"}
MOVE = _item(["move", "path"], move=UNIT, path={"type": "array", "items": HEX, "minItems": 1, "maxItems": 20},
             retreat={"type": "boolean", "description": "5.1: a declared retreat (-4 to the check, rout limits)"},
             assault={**HEX, "description": "5.2: assault fire at this hex after the move (squads only); V3: a "
                                            "vehicle fires at it at full firepower"},
             reroll=REROLL, facing={**FACING, "description": "V3: the vehicle's facing at the end of its move"},
             target=TARGET,
             opfire={"type": "boolean", "description": "V3: a vehicle that used at most a third of its MP ends "
                                                       "marked Op Fire instead of Used"})
FIRE = _item(["fire", "at"], fire=UNIT, at=HEX, reroll=REROLL,
             facing={**FACING, "description": "V2, V4: turn within the hex to this facing first (+1 to the Prof Check)"},
             target=TARGET, satw={"type": "boolean", "description": "V9: fire the squad's bazooka or panzerfaust"})
OPFIRE = _item(["opfire"], opfire=UNIT)
USED = _item(["used"], used=UNIT)
ARTILLERY = _item(["artillery"], artillery={**UNIT, "description": "17.0: one of your Artillery Supports"},
                  at={**HEX, "description": "17.0: the hex the Fire Mission is called on"},
                  opfire={"const": True, "description": "17.0: mark it Op Fire instead: it fires at an enemy mover "
                                                        "by your standing `artillery` answer (+1 to its Prof Check)"})
PLACE = _item(["place", "hex"], place=UNIT, hex=HEX, concealed={"type": "boolean"},
              bank={**HEX, "description": "14.0: in a dike road hex, the neighbour on the side of the road it stands"},
              facing=FACING)
FOXHOLE = _item(["foxhole"], foxhole=HEX)
ACTIONS = [MOVE, FIRE, OPFIRE, USED]

BY_PHASE: dict[str, list[dict[str, Any]]] = {
    "setup": [PLACE, FOXHOLE],
    "preturn": ACTIONS,
    "operations": [*ACTIONS, ARTILLERY],
}

HINTS = {
    "place": '{place: A1, hex: "0203", concealed: true}   set a unit up in your set-up area (18.0); a conceal '
             'marker only in terrain with a positive fire modifier (15.0); units you leave out keep the '
             "scenario's hex",
    "foxhole": '{foxhole: "0304"}   a foxhole counter in a non-building hex of your set-up area (14.0)',
    "move": '{move: A1, path: ["0304", "0305"], retreat: false, assault: "0507", reroll: true}   move hex by hex '
            '(5.0); `retreat` declares a retreat (5.1), `assault` fires after the move (5.2), `reroll` spends a CP '
            'on a failed check (3.0); a reinforcement enters by its first hex; a vehicle steps into its front hexes, '
            'turning on the way, ends at `facing`, fires after the move with `assault` or ends marked `opfire` (V3)',
    "fire": '{fire: A2, at: "0608", reroll: true}   fire at a hex in range and LOS (6.0); a gun or vehicle may '
            'turn first (`facing: 0-5`, V4) and names its `target` in a hex holding a vehicle (V10); `satw: true` '
            'fires a bazooka or panzerfaust (V9)',
    "opfire": '{opfire: A3}   mark a unit Op Fire (4.0): it then fires at movers by your standing orders',
    "used": '{used: A4}   mark a unit Used without acting (4.0)',
    "artillery": '{artillery: US-ART, at: "0608"}   call an Artillery Support on a hex (17.0): three units of '
                 'your Operations Range, once a turn; or {artillery: US-ART, opfire: true} to mark it Op Fire',
    "concede": "{concede: true}   give up the game",
}
KINDS = {"setup": ["place", "foxhole"], "preturn": ["move", "fire", "opfire", "used"],
         "operations": ["move", "fire", "opfire", "used", "artillery"]}


def order_schema(phase: str) -> dict[str, Any]:
    items = BY_PHASE.get(phase, [])
    if not items:
        return {"type": "array", "maxItems": 0}
    return {"type": "array", "maxItems": 200, "items": {"oneOf": [CONCEDE, *items]}}


def order_kinds(phase: str) -> list[str]:
    names = KINDS.get(phase, [])
    return [HINTS[name] for name in names] + ([HINTS["concede"]] if names else [])


POLICY = {"enum": ["first", "open", "adjacent", "hexes", "hold", "ask"]}
STANDING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "opfire": {
            "type": "object", "propertyNames": UNIT, "maxProperties": 200,
            "additionalProperties": _item(["at"], at=POLICY, within={"type": "integer", "minimum": 1, "maximum": 99},
                                          hexes={"type": "array", "items": HEX, "maxItems": 50}),
            "description": "9.0/10.0: per unit, when it fires at an enemy mover: first (any it can), open (only in "
                           "open ground), adjacent, hexes (only in `hexes`), hold, ask; `within` limits the range"},
        "marked": {**POLICY, "description": "9.0: units marked Op Fire without an `opfire` entry (default first)"},
        "unmarked": {**POLICY, "description": "9.0: other units not Used, without an entry (default hold)"},
        "final": {**POLICY, "description": "10.0: Used units, without an entry (default adjacent)"},
        "final_cp": {"type": "boolean", "description": "10.0: spend a CP to Final Op Fire beyond adjacent, within "
                                                      "normal range (default false)"},
        "reroll": {"enum": ["never", "checks"], "description": "3.0: spend CPs to re-roll failed Prof Checks of "
                                                              "reacting units (default never)"},
        "rout": {"enum": ["auto", "ask"], "description": "11.0: where a routing unit goes (default auto)"},
        "melee_losses": {"enum": ["auto", "ask"], "description": "12.0: which of your units takes each melee hit "
                                                                "(default auto: full-strength squads first)"},
        "melee_reroll": {"enum": ["never", "misses"], "description": "12.0: spend a CP to re-roll a unit's two "
                                                                    "melee dice when both miss (default never)"},
        "preturn": {"enum": ["skip", "play"], "description": "3.0: the side moving second plays the pre-turn CP "
                                                           "actions (default skip: no mail)"},
        "artillery": {
            "type": "object", "propertyNames": UNIT, "maxProperties": 20,
            "additionalProperties": _item(["at"], at={"enum": ["first", "open", "hexes", "hold", "ask"]},
                                          hexes={"type": "array", "items": HEX, "maxItems": 50}),
            "description": "17.0: per Artillery Support marked Op Fire, when it fires at an enemy mover: first "
                           "(default), open (only one entering open ground), hexes (only in `hexes`), hold, ask"},
    },
}


def template(available: list[str], phase: str, area: list[str]) -> list[str]:
    """The template's lines for the side that owes orders: its order kinds, then its own units that may act."""
    lines = order_kinds(phase)
    if phase == "setup":
        lines.append(f"your set-up area: {', '.join(area)}")
    elif available:
        lines.append(f"your units that may still be Used: {', '.join(available)}")
    return lines
