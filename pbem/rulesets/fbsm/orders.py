"""The orders vocabulary: JSON Schemas per phase, the standing answers, and the template hints.

`order_template` writes the template's hints for the side that owes orders, from its own view:
its own unit ids, the markers it holds, and the hexes it may target or enter where they are few.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.core.listing import capped, compact

from . import bombardment, reinforcements, setup
from .board import Board, lof_problem
from .context import Context
from .fire import reach
from .movement import walk
from .sequence import AUTOMATIC, KIND, owner

HEX = {"type": "string", "pattern": "^[0-9]{4}$"}
UNIT = {"type": "string", "pattern": "^[A-Z]+[0-9]+$"}
MARKER = {"type": "string", "pattern": "^(heavy|light)-[0-9]+$"}


def _item(required: list[str], description: str, **properties: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties,
            "description": description}


# Each `description` opens with its rule section: a refusal by the schema cites it (pbem.core.order_shapes).
CONCEDE = _item(["concede"], "4.5: the side gives up the game", concede={"const": True})
SETUP = _item(["setup", "hex"], "3.2: one US unit onto a hex of a set-up zone", setup=UNIT, hex=HEX)
PLACE = _item(["place", "hex"], "8.3: one drawn German unit onto an entry hex", place=UNIT, hex=HEX)
MOVE = _item(["move", "path"], "9.1: one unit through the hexes it enters, in order",
             move={**UNIT, "description": "9.4: a move order names one unit: give each unit its own move order"},
             path={"type": "array", "items": HEX, "maxItems": 40,
                   "description": "9.1: the hexes entered, in order, as a list of quoted hexes"},
             exit={"type": "boolean", "description": "4.3: true or false"})
FIRE = _item(["fire", "with"], "10.2: the units listed fire together into one enemy hex",
             fire=HEX, advance={"type": "array", "items": UNIT, "uniqueItems": True,
                                "description": "10.12: a list of the firers that enter the hex if it is cleared"},
             **{"with": {"type": "array", "items": UNIT, "minItems": 1, "uniqueItems": True,
                         "description": "10.4: a list of the units that fire, each once"}})
HEAVY_MG = _item(["heavy_mg"], "7.8: the German unit given the heavy machineguns this phase", heavy_mg=UNIT)
BOMBARD = _item(["bombard", "markers", "spotter"], "11.2: markers on an enemy hex that a unit of yours spots",
                bombard=HEX, spotter={**UNIT, "description": "11.2: the one unit of yours that spots the hex"},
                markers={"type": "array", "items": MARKER, "minItems": 1, "uniqueItems": True,
                         "description": "11.1: a list of the markers placed, each once a phase"})

BY_KIND = {
    "setup": [SETUP],
    "placement": [PLACE],
    "movement": [MOVE],
    "fire": [FIRE, HEAVY_MG],
    "bombardment": [BOMBARD],
}

HINTS = {
    "setup": ['{setup: US01, hex: "2617"}   one US unit per hex: 16 infantry + 8 emplacements forward (3.3), '
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


CONCEDE_HINT = "{concede: true}   give up the game (4.5)"


def order_kinds(phase: str) -> list[str]:
    kind = KIND.get(phase, "")
    hints = list(HINTS.get(kind, []))
    if hints:
        hints.append(CONCEDE_HINT)
    return hints


# --- the template: what one side may order now, from its view -------------------------------------

def order_template(ctx: Context, view: Mapping[str, Any], side: str) -> list[str]:
    """The hints for `side` in the view's phase (none when another side or nobody gives orders)."""
    phase = str(view["phase"])
    if phase in AUTOMATIC or owner(phase) != side or view.get("result"):
        return []
    board = Board.from_view(ctx, view)
    return TEMPLATES[KIND[phase]](ctx, board, view) + [CONCEDE_HINT]


def _on_map(board: Board, kinds: tuple[str, ...] = ("infantry", "hw")) -> list[str]:
    return sorted(uid for uid in board.own if board.on_map(uid) and board.cfg.counters[uid].kind in kinds)


def _targets(ctx: Context, board: Board, reach_of: Callable[[str], int]) -> dict[str, list[str]]:
    """Enemy hexes, each with the own units on the map that reach it with a clear LOF (10.6-10.9)."""
    found: dict[str, list[str]] = {}
    for target in sorted(board.enemy):
        for uid in _on_map(board):
            if lof_problem(ctx, board.turn, board.effects, board.hex_of(uid), target, reach_of(uid)) is None:
                found.setdefault(target, []).append(uid)
    return found


def _setup_template(ctx: Context, board: Board, view: Mapping[str, Any]) -> list[str]:
    waiting = sorted(uid for uid, unit in board.own.items() if unit["status"] == "container")
    if not waiting:
        return []
    example = sorted(ctx.zones["forward"] or ctx.zones["rear"])[0]
    lines = [f'{{setup: {waiting[0]}, hex: "{example}"}}   one of your units onto a set-up zone hex, one unit per '
             "hex (3.2, 6.6); units left out get default hexes"]
    for kind, label in (("infantry", "infantry"), ("hw", "heavy weapons emplacements")):
        ids = [uid for uid in waiting if ctx.counters[uid].kind == kind]
        if ids:
            lines.append(f"{label} to set up: {compact(ids)}")
    zones = [f"{zone} zone ({section}, {len(ctx.zones[zone])} hexes): {setup.quota(ctx, zone, 'infantry')} infantry "
             f"and {setup.quota(ctx, zone, 'hw')} emplacement(s)" for zone, section in (("forward", "3.3"), ("rear", "3.4"))]
    lines.append("; ".join(zones) + " (pbem render VIEW.yaml draws the map)")
    return lines


def _placement_template(ctx: Context, board: Board, view: Mapping[str, Any]) -> list[str]:
    pending = view.get("pending") or {}
    units = [str(uid) for uid in pending.get("units", [])]
    if not units:
        return []
    kind = str(pending["kind"])
    entries = reinforcements.open_entries(ctx, board, kind)
    example = entries[0] if entries else "CCRR"
    sections = ", ".join(dict.fromkeys((reinforcements.KIND_SECTION[kind], "8.3")))
    return [f'{{place: {units[0]}, hex: "{example}"}}   a drawn unit onto an entry hex ({sections}); units left '
            "out get default hexes",
            f"drawn units to place: {compact(units)}",
            f"entry hexes free of US units: {capped(entries) or 'none'}"]


def _bombardment_template(ctx: Context, board: Board, view: Mapping[str, Any]) -> list[str]:
    markers = bombardment.available(ctx, view.get("markers") or {}, board.side)
    targets = _targets(ctx, board, lambda uid: ctx.counters[uid].range)
    if not markers:
        return ["no bombardment markers were drawn for this phase (13.4): send orders: []"]
    if not targets:
        return [f"no enemy hex is in sight of a spotter of yours within its range (11.2): send orders: [] "
                f"(your markers: {', '.join(markers)})"]
    target, spotters = next(iter(targets.items()))
    return [f'{{bombard: "{target}", markers: [{markers[0]}], spotter: {spotters[0]}}}   markers on an enemy hex '
            "a spotter of yours sees within its range (11.1, 11.2); each marker once (11.5)",
            f"your markers: {', '.join(markers)}",
            f"enemy hexes your units can spot: {capped(list(targets))}"]


def _movement_template(ctx: Context, board: Board, view: Mapping[str, Any]) -> list[str]:
    movers = _on_map(board, ("infantry",))
    example = None
    for uid in movers:
        step = next((h for h in ctx.neighbours(board.hex_of(uid)) if walk(board, uid, [h], False)[0] is None), None)
        if step is not None:
            example = f'{{move: {uid}, path: ["{step}", ...]}}   the hexes entered, in order (9.1)'
            break
    lines = [example or '{move: UNIT, path: ["CCRR", ...]}   the hexes entered, in order (9.1)']
    if board.side == "german":
        lines[0] += "; add exit: true to leave the map from a south exit hex 1900-3300 (4.3)"
    lines.append(f"your infantry on the map: {compact(movers) or 'none'} (emplacements never move, 9.3)")
    return lines


def _fire_template(ctx: Context, board: Board, view: Mapping[str, Any]) -> list[str]:
    targets = _targets(ctx, board, lambda uid: reach(ctx, uid, None))
    lines = ["no enemy hex is in range and sight of your units (10.6-10.9): send orders: []"]
    if targets:
        target, firers = next(iter(targets.items()))
        lines = [f'{{fire: "{target}", with: [{", ".join(firers[:2])}]}}   the target hex and its firers; add '
                 "advance: [...] for who enters it if it is cleared (10.12)",
                 "enemy hexes in range and sight of your units: "
                 + capped([f"{hex_id} ({compact(units)})" for hex_id, units in targets.items()], 12)]
    if board.side == "german" and board.effects.get("heavy_mg"):
        lines.append(f"{{heavy_mg: {(_on_map(board) or ['UNIT'])[0]}}}   the unit with heavy machineguns this "
                     "phase (7.8): its range is 10")
    return lines


Template = Callable[[Context, Board, Mapping[str, Any]], list[str]]
TEMPLATES: dict[str, Template] = {"setup": _setup_template, "placement": _placement_template,
                                  "bombardment": _bombardment_template, "movement": _movement_template,
                                  "fire": _fire_template}


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
