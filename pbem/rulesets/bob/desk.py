"""The desk's clicking rules for bob (`pbem desk`, docs/desk.md): the set-up and one impulse (or the
pre-turn CP actions), what may be picked for each field, and the numbers shown while an action is built.

Everything is read from the side's view (its `Board`) and judged by this ruleset's own functions:
the picks are kept only where `ok(order)` (the ruleset's `validate` on the actions so far plus this
one) finds nothing wrong with the action itself; the notes come from `reach` (range, LOS, directed
fire), the movement costs of `Context` and `vehicles.next_facing`.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from . import artillery, vehicles
from .board import Board
from .context import Context
from .fire import reach
from .operations import actor

Ok = Callable[[dict[str, Any]], bool]
FACINGS = list(range(6))


def _field(name: str, type_: str, label: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "label": label, **more}


def _kind(kind: str, label: str, section: str, *fields: dict[str, Any], auto: bool = False) -> dict[str, Any]:
    return {"kind": kind, "label": label, "section": section, "auto": auto, "fields": list(fields)}


FACING = _field("facing", "enum", "facing, 0 = up, clockwise (V4)", values=FACINGS, optional=True)
PLACE = _kind("place", "Set up a unit", "18.0", _field("place", "unit", "unit to set up"),
              _field("hex", "hex", "set-up hex"),
              _field("concealed", "flag", "under a conceal marker (15.0)", optional=True, keep_false=True),
              _field("bank", "hex", "on the bank of this neighbour (dike road, 14.0)", optional=True), FACING)
FOXHOLE = _kind("foxhole", "Dig a foxhole", "14.0", _field("foxhole", "hex", "foxhole hex"), auto=True)
MOVE = _kind("move", "Move a unit", "5.0", _field("move", "unit", "unit"),
             _field("path", "path", "hexes entered, in order"),
             _field("retreat", "flag", "declared retreat (5.1)", optional=True),
             _field("assault", "hex", "assault fire after the move (5.2, V3)", optional=True),
             _field("reroll", "flag", "spend a CP on a failed check (3.0)", optional=True),
             {**FACING, "label": "facing at the end of the move (V3)"},
             _field("target", "unit", "the unit fired at beside a vehicle (V10)", optional=True),
             _field("opfire", "flag", "end marked Op Fire after a short move (V3)", optional=True))
FIRE = _kind("fire", "Fire at a hex", "6.0", _field("fire", "unit", "firing unit"), _field("at", "hex", "target hex"),
             _field("reroll", "flag", "spend a CP on a failed check (3.0)", optional=True),
             {**FACING, "label": "turn to this facing first (V4)"},
             _field("satw", "flag", "fire the bazooka or panzerfaust (V9)", optional=True),
             _field("target", "unit", "the unit fired at beside a vehicle (V10)", optional=True))
ARTILLERY = _kind("artillery", "Call artillery", "17.0", _field("artillery", "unit", "Artillery Support"),
                  _field("at", "hex", "hex of the Fire Mission", optional=True),
                  _field("opfire", "flag", "mark it Op Fire instead", optional=True))
OPFIRE = _kind("opfire", "Mark a unit Op Fire", "4.0", _field("opfire", "unit", "unit"), auto=True)
USED = _kind("used", "Mark a unit Used", "4.0", _field("used", "unit", "unit"), auto=True)
CONCEDE = _kind("concede", "Concede the game", "1.0", _field("concede", "const", "give up the game", value=True))
KINDS = {"setup": [PLACE, FOXHOLE], "preturn": [MOVE, FIRE, OPFIRE, USED],
         "operations": [MOVE, FIRE, ARTILLERY, OPFIRE, USED]}


def spec(ctx: Context, view: Mapping[str, Any]) -> dict[str, Any]:
    """The order kinds `view`'s side may give in the phase awaited (none when it gives no orders)."""
    phase = str(view["phase"])
    if phase not in KINDS or view.get("result"):  # the desk asks only a side the phase awaits
        return {"kinds": [], "next_phase": None}
    return {"kinds": KINDS[phase] + [CONCEDE], "next_phase": None}


def _actors(orders: list[Any]) -> set[str]:
    found = set()
    for order in orders:
        if isinstance(order, dict) and any(k in order for k in ("move", "fire", "opfire", "used", "artillery")):
            found.add(actor(order))
    return found


def _pieces(board: Board, hex_id: str) -> list[str]:
    """What the side sees of the enemy in a hex: its units' ids, or their markers'."""
    return sorted(str(p.get("unit") or p.get("marker")) for p in board.enemy if p["hex"] == hex_id)


def _some(ok: Ok, base: dict[str, Any], *choices: list[tuple[str, Any]]) -> bool:
    """Whether `base`, or `base` with one value of each choice list added (in key order), passes."""
    trials = [dict(base)]
    for options in choices:
        trials += [{**t, key: value} for t in list(trials) for key, value in options if key not in t]
    return any(ok(trial) for trial in trials)


def _keys(order: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {name: order[name] for name in names if name in order}


def candidates(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any], field: str, ok: Ok) -> list[str] | None:
    """What may be picked for `field` of the action being built, given the actions before it."""
    kind, order = str(draft["kind"]), dict(draft["order"])
    board = Board.from_view(view)
    done = _actors(list(draft["orders"]))
    if kind == "place":
        return _setup(ctx, board, order, field, list(draft["orders"]), ok)
    if kind == "foxhole":
        return [h for h in ctx.setup_area(board.side) if ok({"foxhole": h})]
    if kind == "artillery":
        return _artillery(ctx, view, board, order, field, done, ok)
    free = [u for u in sorted(board.own) if board.available(ctx, u) and u not in done]
    if kind in ("opfire", "used"):
        return [u for u in free if ok({kind: u})]
    if kind == "move":
        return _move(ctx, board, order, field, free, ok)
    return _fire(ctx, board, order, field, free, ok)


def _setup(ctx: Context, board: Board, order: dict[str, Any], field: str, earlier: list[Any], ok: Ok) -> list[str]:
    placed = {str(o.get("place")) for o in earlier if isinstance(o, dict)}
    if field == "place":
        return [u for u in sorted(board.own) if ctx.units[u].hex is not None and u not in placed]
    if "place" not in order:
        return []
    base = _keys(order, "place")
    flags = _keys(order, "concealed")
    if field == "hex":
        return [h for h in ctx.setup_area(board.side) if ok({**base, "hex": h, **flags})]
    if "hex" not in order:
        return []
    return [h for h in ctx.hexes.neighbours(str(order["hex"]))
            if ctx.dike(str(order["hex"])) and ok({**base, "hex": order["hex"], **flags, "bank": h})]


def _artillery(ctx: Context, view: Mapping[str, Any], board: Board, order: dict[str, Any], field: str, done: set[str],
               ok: Ok) -> list[str]:
    record = view.get("artillery") or {}
    gone = set(record.get("used", [])) | set(record.get("marked", [])) | done
    ready = [s for s in sorted(artillery.supports(ctx, board.side)) if s not in gone]
    if field == "artillery":
        return [s for s in ready if ok({"artillery": s, "opfire": True}) or
                any(ok({"artillery": s, "at": h}) for h in sorted(board.enemy_hexes()))] or ready
    if "artillery" not in order:
        return []
    return [h for h in ctx.hexes.hexes() if ok({"artillery": order["artillery"], "at": h})]


def _move(ctx: Context, board: Board, order: dict[str, Any], field: str, free: list[str], ok: Ok) -> list[str]:
    if field == "move":
        return [u for u in free if not ctx.units[u].type.gun]
    if "move" not in order:
        return []
    uid = str(order["move"])
    path = list(order.get("path") or [])
    flags = _keys(order, "retreat", "reroll")
    if field == "path":
        unit = board.own[uid]
        if path:
            steps = list(ctx.hexes.neighbours(path[-1]))
        elif unit["status"] == "active":
            steps = list(ctx.hexes.neighbours(str(unit["hex"])))
        else:
            steps = list(ctx.entry_hexes(board.side))

        def passable(step: str) -> bool:  # a hex the unit may cross but not stop in is offered too
            base = {"move": uid, "path": path + [step], **flags}
            return _some(ok, base, [("facing", f) for f in FACINGS]) or any(
                ok({"move": uid, "path": path + [step, n], **flags}) for n in ctx.hexes.neighbours(step))

        return [s for s in steps if ctx.hexes.on_map(s) and passable(s)]
    if not path:
        return []
    moved = {"move": uid, "path": path, **flags}
    if field == "assault":
        return [h for h in sorted(board.enemy_hexes()) if _some(ok, {**moved, "assault": h},
                                                                [("target", t) for t in _pieces(board, h)])]
    if field == "target":
        at = str(order.get("assault") or path[-1])
        return [t for t in _pieces(board, at) if ok({**moved, **_keys(order, "assault", "facing"), "target": t})]
    return []


def _fire(ctx: Context, board: Board, order: dict[str, Any], field: str, free: list[str], ok: Ok) -> list[str]:
    if field == "fire":
        return [u for u in free if board.own[u]["status"] == "active"]
    if "fire" not in order:
        return []
    base = {"fire": order["fire"], **_keys(order, "reroll", "facing", "satw")}
    if field == "at":
        facings = [] if "facing" in order else [("facing", f) for f in FACINGS]
        return [h for h in sorted(board.enemy_hexes())
                if _some(ok, {"fire": order["fire"], "at": h, **_keys(order, "reroll", "facing", "satw")}, facings,
                         [("target", t) for t in _pieces(board, h)])]
    if field == "target" and "at" in order:
        at = str(order["at"])
        ordered = {"fire": base["fire"], "at": at, **_keys(order, "reroll", "facing", "satw")}
        return [t for t in _pieces(board, at) if ok({**ordered, "target": t})]
    return []


def _points(halves: int) -> str:
    """Movement points counted in halves, as a player reads them."""
    return f"{halves // 2}{'½' if halves % 2 else ''}".replace("0½", "½")


def _spent(ctx: Context, board: Board, uid: str, path: list[str]) -> int | None:
    """What the path costs the unit (in half MP, turns included for a vehicle), None past a hex it cannot enter."""
    unit = board.own[uid]
    vehicle = ctx.units[uid].type.vehicle
    cost_of = ctx.vehicle_move_cost if vehicle else ctx.move_cost
    here = str(unit["hex"]) if unit["status"] == "active" else None
    facing = int(unit.get("facing", 0))
    total = 0
    for step in path:
        cost = cost_of(here, step) if here is not None else cost_of(step, step)
        if cost is None:
            return None
        if vehicle and here is not None:
            turned = vehicles.next_facing(ctx, here, step, facing)
            cost += int(ctx.tables["vehicle_turn_cost"]) if turned != facing else 0
            facing = turned
        total += cost
        here = step
    return total


def notes(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any]) -> list[str]:
    """Movement points spent and left for a move; firepower, range band and LOS for a fire."""
    kind, order = str(draft["kind"]), dict(draft["order"])
    board = Board.from_view(view)
    if kind == "move" and order.get("move") in board.own:
        uid = str(order["move"])
        spent = _spent(ctx, board, uid, list(order.get("path") or []))
        allowance = ctx.allowance(uid)
        if spent is None:
            return [f"{uid}: the path enters a hex it cannot enter (14.0)"]
        return [f"{uid}: {_points(spent)} of {_points(allowance)} movement points spent, {_points(max(allowance - spent, 0))} "
                f"left (5.0{', V3' if ctx.units[uid].type.vehicle else ''})"]
    if kind == "fire" and order.get("fire") in board.own and "at" in order:
        uid, at = str(order["fire"]), str(order["at"])
        unit = board.own[uid]
        if unit["status"] != "active":
            return [f"{uid} is not on the map"]
        facing = order.get("facing", unit.get("facing")) if ctx.units[uid].type.heavy else None
        how = reach(ctx, uid, bool(unit["reduced"]), str(unit["hex"]), at, facing)
        distance = ctx.hexes.distance(str(unit["hex"]), at)
        if how is None:
            return [f"{uid}: {distance} hexes to {at}, out of range, sight{' or arc' if facing is not None else ''} "
                    "(6.0, 14.0)"]
        band = ("long range, firepower halved" if how.long else "in range, directed fire (16.0)" if how.directed
                else "in range")
        return [f"{uid}: {distance} hexes to {at}, {band}, firepower {how.firepower} (6.0)"]
    return []
