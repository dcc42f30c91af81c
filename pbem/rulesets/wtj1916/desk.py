"""The desk's clicking rules for wtj1916 (`pbem desk`, docs/desk.md): the moving side's moves and
set-ups, and both sides' fire, flame, unjam and air strike orders; positions (`to`, `path`,
`toward`, an air strike's `at`) are points clicked on the table picture.

Everything is read from the side's view and judged by this ruleset's own functions: a unit,
target, weapon or base is offered only where `ok(order)` (the ruleset's `validate` on the orders
so far plus this one) finds nothing wrong with the order; a move's notes come from
`movement.plan`, the same plan validation and resolution make.
"""

from __future__ import annotations

from math import isqrt
from typing import Any, Callable, Mapping

from pbem.geometry import plane

from . import movement
from .context import Context
from .state import bases_of, units_of

Ok = Callable[[dict[str, Any]], bool]
BEARINGS = list(range(0, 360, 45))  # whole degrees, 0 = the table's up; other bearings are typed by hand


def _field(name: str, type_: str, label: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "label": label, **more}


def _kind(kind: str, label: str, section: str, *fields: dict[str, Any], auto: bool = False) -> dict[str, Any]:
    return {"kind": kind, "label": label, "section": section, "auto": auto, "fields": list(fields)}


MOVE = _kind("move", "Move a unit", "F2", _field("move", "unit", "unit"),
             _field("to", "point", "to this point (the first base's centre)", optional=True, clicks=True),
             _field("path", "points", "through these points", optional=True),
             _field("toward", "point", "toward this point", optional=True),
             _field("distance", "enum", "as far as allowed", values=["max"], optional=True),
             _field("mode", "enum", "walk or rush (3.5)", values=["walk", "rush"], optional=True),
             _field("posture", "enum", "posture (3.5)", values=["standing", "prone"], optional=True),
             _field("face", "enum", "then face (degrees, 0 = up)", values=BEARINGS, optional=True))
SET_UP = _kind("set_up", "Set up a trench mortar", "3.7", _field("set_up", "unit", "trench mortar"), auto=True)
FIRE = _kind("fire", "Fire at a unit", "3.1", _field("fire", "unit", "enemy unit fired at"),
             _field("unit", "unit", "firing unit"), _field("weapon", "unit", "weapon", optional=True),
             _field("moving", "flag", "will move: the moving modifier (3.5)", optional=True),
             _field("then", "units", "rapid fire at these next (3.7)", optional=True))
FLAME = _kind("flame", "Flamethrower attack", "3.7", _field("flame", "unit", "enemy unit burnt"),
              _field("unit", "unit", "unit with the flamethrower"), _field("base", "unit", "flamethrower base"))
UNJAM = _kind("unjam", "Clear a jammed machine gun", "3.7", _field("unjam", "unit", "machine gun"), auto=True)
AIR = _kind("air_strike", "Air strike", "3.7", _field("air_strike.at", "point", "centre of the strike", clicks=True),
            _field("air_strike.facing", "enum", "heading (degrees, 0 = up)", values=BEARINGS))
CONCEDE = _kind("concede", "Concede the game", "F3", _field("concede", "const", "give up the game", value=True))


def spec(ctx: Context, view: Mapping[str, Any]) -> dict[str, Any]:
    """The order kinds `view`'s side may give in the phase awaited (none when it gives no orders)."""
    phase, side = str(view["phase"]), str(view["side"])
    if view.get("result"):
        return {"kinds": [], "next_phase": None}
    if phase.endswith("-move"):
        return {"kinds": [MOVE, SET_UP] if phase == f"{side}-move" else [], "next_phase": None}
    kinds = [FIRE, FLAME, UNJAM] + ([AIR] if int((view.get("air_strikes") or {}).get(side, 0)) > 0 else [])
    return {"kinds": kinds, "next_phase": None}


def _given(orders: list[Any], *keys: str) -> set[str]:
    return {str(o[k]) for o in orders if isinstance(o, dict) for k in keys if isinstance(o.get(k), str)}


def _enemies(view: Mapping[str, Any]) -> list[str]:
    return sorted(u for u, e in view["units"].items() if e["side"] != view["side"] and e["status"] == "active")


def candidates(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any], field: str, ok: Ok) -> list[Any] | None:
    """What may be picked for `field` of the order being built (None: any point of the table)."""
    kind, order = str(draft["kind"]), dict(draft["order"])
    side = str(view["side"])
    own = [uid for uid, _ in units_of(dict(view), side)]
    if kind in ("move", "set_up"):
        if field in ("move", "set_up"):
            free = [u for u in own if u not in _given(list(draft["orders"]), "move", "set_up")]
            return [u for u in free if ok({"set_up": u})] if kind == "set_up" else free
        return None
    if kind == "unjam":
        return [u for u in own if ok({"unjam": u})]
    if kind == "air_strike":
        return None
    if kind == "flame":
        return _flame(view, order, field, own, ok)
    return _fire(ctx, view, order, field, own, ok)


def _fire(ctx: Context, view: Mapping[str, Any], order: dict[str, Any], field: str, own: list[str], ok: Ok) -> list[Any]:
    moving = [{"moving": True}] if "moving" not in order else []

    def fires(trial: dict[str, Any]) -> bool:
        return ok(trial) or any(ok({**trial, **more}) for more in moving)

    flags = {"moving": True} if order.get("moving") else {}
    if field == "fire":
        return [t for t in _enemies(view) if any(fires({"fire": t, "unit": u, **flags}) for u in own)]
    if "fire" not in order:
        return []
    target = str(order["fire"])
    if field == "unit":
        return [u for u in own if fires({"fire": target, "unit": u, **flags})]
    if "unit" not in order:
        return []
    uid = str(order["unit"])
    base = {"fire": target, "unit": uid}
    if field == "weapon":
        names = [w.name for w in ctx.type_of(view["units"][uid]).weapons]
        return [w for w in names if fires({**base, "weapon": w, **flags})]
    if field == "then":
        chosen = list(order.get("then") or [])
        extra = {k: order[k] for k in ("weapon",) if k in order}
        return chosen + [t for t in _enemies(view) if t not in chosen and t != target and
                         ok({**base, **extra, **flags, "then": chosen + [t]})]
    return []


def _flame(view: Mapping[str, Any], order: dict[str, Any], field: str, own: list[str], ok: Ok) -> list[Any]:
    def burners(uid: str) -> list[str]:
        return sorted(b for b, base in bases_of(dict(view), uid).items() if base.get("flame") and base.get("fuel"))

    if field == "flame":
        return [t for t in _enemies(view) if any(ok({"flame": t, "unit": u, "base": b}) for u in own for b in burners(u))]
    if "flame" not in order:
        return []
    if field == "unit":
        return [u for u in own if any(ok({"flame": order["flame"], "unit": u, "base": b}) for b in burners(u))]
    if field == "base" and "unit" in order:
        return [b for b in burners(str(order["unit"])) if ok({"flame": order["flame"], "unit": order["unit"], "base": b})]
    return []


def _centre(view: Mapping[str, Any], uid: str) -> plane.Point:
    bases = list(bases_of(dict(view), uid).values())
    return (sum(int(b["at"][0]) for b in bases) // len(bases), sum(int(b["at"][1]) for b in bases) // len(bases))


def notes(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any]) -> list[str]:
    """A move's length against its allowance and where it ends; a fire's distance, centre to centre."""
    kind, order = str(draft["kind"]), dict(draft["order"])
    units = view["units"]
    unit_name = ctx.table.unit
    if kind == "move" and order.get("move") in units and units[order["move"]]["side"] == view["side"]:
        uid = str(order["move"])
        allowed = movement.allowance(ctx, units[uid], order)
        if not any(k in order for k in ("to", "path", "toward")):
            return [f"{uid}: {allowed} {unit_name} of movement allowed ({order.get('mode', 'walk')}, F2)"]
        planned, problems = movement.plan(ctx, dict(view), order, len(draft["orders"]))
        if planned is None:
            return [f"{uid}: {p.message}" for p in problems]
        return [f"{uid}: moves {planned.length} of {allowed} {unit_name} allowed (F2), its first base ends at "
                f"{list(planned.end)}" + (" (cut short)" if planned.clamped else "")]
    target = order.get("fire") or order.get("flame")
    firer = order.get("unit")
    if kind in ("fire", "flame") and target in units and firer in units and bases_of(dict(view), str(firer)):
        far = isqrt(plane.dist2(_centre(view, str(firer)), _centre(view, str(target))))
        return [f"{firer} to {target}: about {far} {unit_name} centre to centre (range: 3.1, 3.2)"]
    return []
