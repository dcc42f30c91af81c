"""The desk's clicking rules for fbsm (`pbem desk`, docs/desk.md): which orders the phase takes,
what may be picked for each field, and the numbers shown while an order is built.

Everything is read from the side's view and judged by this ruleset's own functions; the desk
also keeps only the picks for which `ok(order)` (the ruleset's `validate` on the orders so far
plus this one) finds nothing wrong with the order itself.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from . import bombardment, reinforcements
from .board import Board, fire_factor, lof_problem, move_allowance
from .context import Context
from .fire import advance_eligible, reach
from .movement import walk
from .sequence import AUTOMATIC, KIND, owner

Ok = Callable[[dict[str, Any]], bool]


def _field(name: str, type_: str, label: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "label": label, **more}


CONCEDE = {"kind": "concede", "label": "Concede the game", "section": "4.5",
           "fields": [_field("concede", "const", "give up the game", value=True)]}
KINDS: dict[str, list[dict[str, Any]]] = {
    "setup": [{"kind": "setup", "label": "Set up a unit", "section": "3.2", "auto": True,
               "fields": [_field("setup", "unit", "unit to set up"), _field("hex", "hex", "set-up hex")]}],
    "placement": [{"kind": "place", "label": "Place a drawn unit", "section": "8.3", "auto": True,
                   "fields": [_field("place", "unit", "drawn unit"), _field("hex", "hex", "entry hex")]}],
    "movement": [{"kind": "move", "label": "Move a unit", "section": "9.1",
                  "fields": [_field("move", "unit", "unit"), _field("path", "path", "hexes entered, in order")]}],
    "fire": [{"kind": "fire", "label": "Fire at a hex", "section": "10.1",
              "fields": [_field("fire", "hex", "target hex"), _field("with", "units", "firing units"),
                         _field("advance", "units", "who advances if the hex is cleared (10.12)", optional=True,
                                keep_empty=True)]}],
    "bombardment": [{"kind": "bombard", "label": "Bombard a hex", "section": "11.1",
                     "fields": [_field("bombard", "hex", "target hex"), _field("markers", "list", "markers"),
                                _field("spotter", "unit", "spotter")]}],
}
EXIT = _field("exit", "flag", "then leave the map by the south edge (4.3)", optional=True)
HEAVY_MG = {"kind": "heavy_mg", "label": "Give the heavy machineguns", "section": "7.8", "auto": True,
            "fields": [_field("heavy_mg", "unit", "unit with heavy machineguns")]}


def spec(ctx: Context, view: Mapping[str, Any]) -> dict[str, Any]:
    """The order kinds `view`'s side may give in the phase awaited (none when it gives no orders)."""
    phase = str(view["phase"])
    side = str(view["side"])
    if phase in AUTOMATIC or owner(phase) != side or view.get("result"):
        return {"kinds": [], "next_phase": None}
    kinds = [dict(kind) for kind in KINDS.get(KIND[phase], [])]
    for kind in kinds:
        if kind["kind"] == "move" and side == "german":
            kind["fields"] = [*kind["fields"], EXIT]
    if KIND[phase] == "fire" and side == "german" and view["effects"].get("heavy_mg"):
        kinds.append(HEAVY_MG)
    return {"kinds": kinds + [CONCEDE], "next_phase": None}


def _given(orders: list[Any], key: str) -> set[str]:
    found: set[str] = set()
    for order in orders:
        value = order.get(key) if isinstance(order, dict) else None
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            found.update(str(v) for v in value)
    return found


def _heavy(orders: list[Any]) -> str | None:
    return next((str(o["heavy_mg"]) for o in orders if isinstance(o, dict) and "heavy_mg" in o), None)


def _on_map(board: Board, kinds: tuple[str, ...] = ("infantry", "hw")) -> list[str]:
    return sorted(uid for uid in board.own if board.on_map(uid) and board.cfg.counters[uid].kind in kinds)


def candidates(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any], field: str, ok: Ok) -> list[str] | None:
    """What may be picked for `field` of the order being built, given the orders before it."""
    board = Board.from_view(ctx, view)
    kind, order, orders = draft["kind"], dict(draft["order"]), list(draft["orders"])
    if kind in ("setup", "place"):
        if field == kind:
            waiting = (sorted(u for u, unit in board.own.items() if unit["status"] == "container") if kind == "setup"
                       else [str(u) for u in (view.get("pending") or {}).get("units", [])])
            return [u for u in waiting if u not in _given(orders, kind)]
        if kind not in order:
            return []
        hexes = (sorted(set(ctx.zones["forward"]) | set(ctx.zones["rear"])) if kind == "setup"
                 else reinforcements.open_entries(ctx, board, str((view.get("pending") or {}).get("kind"))))
        taken = _given(orders, "hex") if kind == "setup" else set()  # 3.2: one US unit per hex at set-up
        return [h for h in hexes if h not in taken and ok({kind: order[kind], "hex": h})]
    if kind == "move":
        if field == "move":
            return [u for u in _on_map(board, ("infantry",)) if u not in _given(orders, "move")]
        if field == "path" and "move" in order:
            path = list(order.get("path") or [])
            here = path[-1] if path else board.hex_of(order["move"])
            # a hex the unit may cross but not stop in (6.1: an emplacement's hex) is offered too
            return [h for h in ctx.neighbours(here) if ok({"move": order["move"], "path": path + [h]}) or any(
                ok({"move": order["move"], "path": path + [h, n]}) for n in ctx.neighbours(h) if n != here)]
        return None
    if kind == "fire":
        fired = _given(orders, "with")
        heavy = _heavy(orders)
        free = [u for u in _on_map(board) if u not in fired]
        if field == "fire":
            targeted = _given(orders, "fire")
            return [t for t in sorted(board.enemy) if t not in targeted and any(
                lof_problem(ctx, board.turn, board.effects, board.hex_of(u), t, reach(ctx, u, heavy)) is None
                for u in free)]
        if "fire" not in order:
            return []
        firers = list(order.get("with") or [])
        if field == "with":
            return [u for u in free if u in firers or ok({"fire": order["fire"], "with": firers + [u]})]
        positions = {u: board.hex_of(u) for u in firers}
        return advance_eligible(ctx, board.side, firers, positions, order["fire"])
    if kind == "heavy_mg":
        return [] if _heavy(orders) else _on_map(board)
    if kind == "bombard":
        markers = bombardment.available(ctx, view.get("markers") or {}, board.side)
        if field == "markers":
            return [m for m in markers if m not in _given(orders, "markers")]
        spotters = _on_map(board)
        if field == "bombard":
            bombarded = _given(orders, "bombard")
            return [t for t in sorted(board.enemy) if t not in bombarded and any(
                lof_problem(ctx, board.turn, board.effects, board.hex_of(u), t, ctx.counters[u].range) is None
                for u in spotters)]
        if "bombard" not in order:
            return []
        return [u for u in spotters if ok({"bombard": order["bombard"], "markers": order.get("markers") or markers[:1],
                                           "spotter": u})]
    return None


def notes(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any]) -> list[str]:
    """The numbers a player weighs before adding the order: movement points left; odds, range and LOF."""
    board = Board.from_view(ctx, view)
    kind, order = draft["kind"], dict(draft["order"])
    if kind == "move" and order.get("move") in board.own and board.on_map(order["move"]):
        uid = str(order["move"])
        problem, spent = walk(board, uid, list(order.get("path") or []), bool(order.get("exit")))
        left = move_allowance(ctx, board.effects, uid) * 2 - spent
        line = f"{uid}: {left // 2}{'.5' if left % 2 else ''} movement points left (9.2)"
        return [line] + ([str(problem.replaced(path=()))] if problem else [])  # its section and what is legal
    if kind == "fire" and "fire" in order:
        target = str(order["fire"])
        heavy = _heavy(list(draft["orders"]))
        lines, strength = [], 0
        for uid in order.get("with") or []:
            if uid not in board.own or not board.on_map(uid):
                continue
            distance = ctx.distance(board.hex_of(uid), target)
            found = lof_problem(ctx, board.turn, board.effects, board.hex_of(uid), target, reach(ctx, uid, heavy))
            value = fire_factor(ctx, board.effects, uid) * (2 if ctx.adjacent(board.hex_of(uid), target) else 1)
            strength += value
            lof = "LOF clear" if found is None else f"{found[1]} (rule {found[0]})"
            lines.append(f"{uid}: range {distance} of {reach(ctx, uid, heavy)}, {lof}, fire {value}")
        defense = ctx.defense(target)
        odds = strength // defense
        lines.append(f"strength {strength} against defense {defense}: odds "
                     f"{f'{odds}:1' if odds >= 1 else 'under 1:1'} (10.10)")
        return lines
    if kind == "bombard" and "bombard" in order and order.get("spotter") in board.own:
        spotter, target = str(order["spotter"]), str(order["bombard"])
        if board.on_map(spotter):
            found = lof_problem(ctx, board.turn, board.effects, board.hex_of(spotter), target, ctx.counters[spotter].range)
            sight = "LOF clear" if found is None else f"{found[1]} (rule {found[0]})"
            return [f"{spotter} spots {target}: {ctx.distance(board.hex_of(spotter), target)} hexes of range "
                    f"{ctx.counters[spotter].range}, {sight} (11.2)"]
    return []
