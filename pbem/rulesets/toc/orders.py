"""The orders vocabulary: JSON Schemas per phase, the standing answers, and the template hints.

`order_template` writes the template's hints for the side that owes orders, from its own view:
its stacks by hex, the German units that may enter now and where, its artillery and the enemy
hexes in its reach, the hexes it may melee.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.listing import capped, compact

from . import movement
from .board import Board
from .bombardment import may_bombard, organisation_problem, spotters
from .context import Context
from .melee import may_attack
from .sequence import SEQUENCES, kind as phase_kind, owner

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


# --- the template: what one side may order now, from its view -------------------------------------

def order_template(ctx: Context, view: Mapping[str, Any], side: str) -> list[str]:
    """The hints for `side` in the view's phase (none when the other side gives the orders)."""
    phase = str(view["phase"])
    if owner(phase) != side or view.get("result"):
        return []
    board = Board.from_view(ctx, view)
    if phase == "british-first":  # 5.3: the sequence chosen in these orders says what this phase is
        return ([HINTS["sequence"], "with move-fight (the default) or move-move, movement orders:"]
                + [f"  {line}" for line in _movement(ctx, board)]
                + ["with fight-move or fight-fight, combat orders:"]
                + [f"  {line}" for line in _combat(ctx, board)]
                + [_next_phase_hint(phase), HINTS["concede"]])
    if phase_kind(phase, view.get("sequence")) == "combat":
        return _combat(ctx, board) + [HINTS["concede"]]
    return _movement(ctx, board) + ([_next_phase_hint(phase)] if phase in NEXT_OF else []) + [HINTS["concede"]]


def _next_phase_hint(phase: str) -> str:
    return (f"{{next_phase: [...]}}   last order: the orders of {NEXT_OF[phase]} too, checked against the positions "
            "after this movement (saves a mail exchange)")


def _movement(ctx: Context, board: Board) -> list[str]:
    stacks = {hex_id: sorted(units) for hex_id, units in sorted(board.own_stacks().items()) if hex_id}
    lines = []
    first = _first_move(board, [(units, [hex_id]) for hex_id, units in stacks.items()])
    if first is not None:
        units, step, march = first
        mode = ", march: true" if march else ""
        lines.append(f'{{move: [{", ".join(units)}], path: ["{step}", ...]{mode}}}   units that began the phase in '
                     "one stack move together through the hexes listed (9.5)"
                     + ("; march: true for march mode (9.20)" if board.side == "german" else ""))
    if stacks:
        lines.append("your stacks: " + capped([f"{h} {'+'.join(us)}" for h, us in stacks.items()], 30))
    entering = _entering(ctx, board)
    if entering:
        first = _first_move(board, [([uid], list(hexes)) for hexes, units in entering.items() for uid in units],
                            entering=True)
        if first is not None:
            lines.append(f'{{move: [{first[0][0]}], path: ["{first[1]}", ...]}}   a unit off the map enters: its path '
                         "starts at its entry hex (8.2-8.4)")
        lines.append("may enter now, the path starting at the entry hex (8.2-8.4): "
                     + "; ".join(f"{compact(us)} by {' or '.join(hs)}" for hs, us in entering.items()))
    if board.side == "british":
        first_turn = int(ctx.tables["exit_from_turn"])
        when = "now" if board.turn >= first_turn else f"from turn {first_turn}"
        lines.append(f'a path ending "off" leaves the map by a British exit hex ({when}, 4.4): '
                     f"{', '.join(ctx.hexes.set('exit'))}")
    tall = [units for units in stacks.values() if len(units) > 1]
    if tall:
        lines.append(f"{{top: {tall[0][-1]}}}   put a unit on top of its stack: the enemy sees only the top unit "
                     f"(6.6); your stacks of two or more: {capped(['+'.join(us) for us in tall], 12)}")
    return lines or ["none of your units is on the map or may enter now: send orders: []"]


def _first_move(board: Board, candidates: list[tuple[list[str], list[str]]],
                entering: bool = False) -> tuple[list[str], str, bool] | None:
    """The first one-hex move the movement rules allow (units, hex, in march mode), each of `candidates` (units,
    where from: their hex, or their entry hexes when `entering`) tried in turn, its neighbours in hex order; march
    mode where it is allowed too. None: no candidate has one."""
    plan = movement.Walker(board).plan  # the phase's start: no unit has moved yet

    def allowed(units: list[str], step: str, march: bool) -> bool:
        order = {"move": units, "path": [step], "march": march}
        return not movement.Move(board, plan, order, 0, set()).check()  # (checked only: the board is not changed)

    for units, places in candidates:
        steps = places if entering else board.ctx.hexes.neighbours(places[0])
        for step in steps:
            if allowed(units, step, False):
                return units, step, board.side == "german" and allowed(units, step, True)
    return None


def _entering(ctx: Context, board: Board) -> dict[tuple[str, ...], list[str]]:
    """German units off the map whose entry turn has come, grouped by their entry hexes (8.2), in hex order."""
    by_hexes: dict[tuple[str, ...], list[str]] = {}
    for uid, unit in sorted(board.own.items()):
        entry = ctx.entry_for(uid)
        if unit["status"] == "container" and entry is not None and entry.turn <= board.turn:
            by_hexes.setdefault(tuple(entry.hexes), []).append(uid)
    return dict(sorted(by_hexes.items()))


def _combat(ctx: Context, board: Board) -> list[str]:
    none: set[str] = set()
    gunners = {target: units for target in sorted(board.enemy) if (units := may_bombard(board, target, none))}
    fighters = {target: units for target in sorted(board.enemy) if (units := may_attack(board, target, none))}
    lines = []
    fire = next(((target, uid) for target, units in gunners.items() for uid in units
                 if ctx.los_clear(str(board.hex_of(uid)), target) or spotters(board, target, [uid])), None)
    if fire is not None:
        lines.append(f'{{bombard: "{fire[0]}", with: [{fire[1]}], losses: [...]}}   artillery at an enemy hex in its '
                     "range and sight, or spotted by a unit next to it (10.x); `losses` ranks the enemy units you want "
                     "hit (10.9)")
    if gunners:
        artillery = sorted({uid for near in gunners.values() for uid in near})
        lines.append(f"enemy hexes within range of your artillery ({compact(artillery)}): {capped(sorted(gunners))}")
    if fighters:
        target, units = next(iter(fighters.items()))
        lines += [f'{{melee: "{target}", with: [{", ".join(_one_force(board, units))}], losses: [...], '
                  "advance: [...]}   infantry and cavalry next to an enemy hex, not across an unbridged canal "
                  "(12.x, 9.13); `losses` ranks your own units for losses (12.12), `advance` who enters the hex if "
                  "it is emptied, `then: HEX` a second hex (12.13); bombardments come first (5.2)",
                  "enemy hexes your infantry and cavalry may attack: "
                  + capped([f"{hex_id} ({compact(units)})" for hex_id, units in fighters.items()], 12)]
    return lines or ["no enemy hex is within range of your artillery or next to your infantry and cavalry: send "
                     "orders: []"]


def _one_force(board: Board, units: list[str]) -> list[str]:
    """`units` (which may attack one hex) less those a German attack may not combine with the first (12.14)."""
    if board.side != "german":
        return units
    force: list[str] = []
    for uid in units:
        if organisation_problem(board.ctx, board.turn, force + [uid], "units") is None:
            force.append(uid)
    return force


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
