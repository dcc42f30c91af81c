"""The desk's clicking rules for bst (`pbem desk`, docs/desk.md): one activation's orders, each a unit,
its action and the bases that take it; positions (`to`, `path`, `toward`, a move's `face` toward a
point) are points clicked on the table picture.

Everything is read from the side's view and judged by this ruleset's own functions: a unit, base,
target or card is offered only where `ok(order)` (the ruleset's `validate` on the orders so far plus
this one) finds nothing wrong with the order, or, for the bases, they are the unit's own in the view
(a lead's: the bases in the leader's command, L1). A platoon leader leads (L1) and calls its mortar
(W6) on a point clicked on the table or on an enemy base; each click on a round (he, smoke, flare) adds
one more bomb to the call. A tank's orders take `buttoned` (V1) and `convoy` (V3), a move's `split`
(O3), a crew's fire `arms: rifles` (W1). The standing answers `opfire` (O1) and `close_combat` (C2) are offered one row
for each of the side's own units on the table.
"""

from __future__ import annotations

from math import isqrt
from typing import Any, Callable, Mapping

from pbem.geometry import plane

from .context import Context
from .leaders import commanded
from .movement import allowance
from .orders import LED, bases_of

Ok = Callable[[dict[str, Any]], bool]
BEARINGS = list(range(0, 360, 45))  # whole degrees; a pivot of any other is typed by hand


def _field(name: str, type_: str, label: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "label": label, **more}


def _kind(act: str, label: str, section: str, *fields: dict[str, Any], kind: str | None = None,
          bases: bool = True) -> dict[str, Any]:
    head = [_field("unit", "unit", "unit"), _field("act", "const", act, value=act)]
    if bases:
        head.append(_field("bases", "units", "bases taking it (none picked: all of them)", optional=True))
    tail = [_field("card", "unit", "for this card of the unit (L1)", optional=True),
            _field("queued", "flag", "for the unit's next card (A1)", optional=True)]
    return {"kind": kind or act, "label": label, "section": section, "auto": False, "fields": head + list(fields) + tail}


POSITIONS = [_field("to", "point", "to this point", optional=True, clicks=True),
             _field("path", "points", "through these points", optional=True),
             _field("toward", "point", "toward this point", optional=True),
             _field("distance", "enum", "as far as allowed", values=["max"], optional=True),
             _field("face", "point", "then face toward this point", optional=True),
             _field("split", "enum", "after a hit, the others go on or stay with it (O3)", values=["go", "stay"],
                    optional=True)]
TANK = [_field("buttoned", "enum", "hatches closed (true) or open (false) from now on (V1, a tank)",
               values=[True, False], optional=True),
        _field("convoy", "flag", "with the drawn tank, in convoy (V3)", optional=True)]
ARMS = _field("arms", "enum", "a crew fires its own rifles (W1)", values=["rifles"], optional=True)
TARGET = _field("target", "unit", "enemy unit fired at (F4)")
MORTAR = _field("mortar", "unit", "the mortar called (W6)")
ROUNDS = _field("rounds", "list", "the bombs, in order, one more at each click (W8, W9)", repeat=True)
LEAD = _kind("lead", "Lead bases of the platoon", "L1", _field("do", "enum", "their one action", values=list(LED)),
             _field("bases", "units", "bases led (in the leader's command)"),
             {**TARGET, "optional": True}, *POSITIONS, bases=False)
KINDS = [_kind("hold", "Hold", "A1"), _kind("hunker", "Hunker down", "H1", *TANK),
         _kind("recover", "Recover", "R2", *TANK),
         _kind("fire", "Fire", "F1", TARGET, _field("face", "enum", "pivot to (degrees, F2)", values=BEARINGS,
                                                    optional=True), ARMS, *TANK),
         _kind("move", "Move", "M1", *POSITIONS, *TANK), _kind("move-fire", "Fire, then move", "F6", TARGET, *POSITIONS),
         _kind("fight", "Fight in close combat", "C3"), _kind("retire", "Retire from close combat", "C7"),
         _kind("set-up", "Set up a weapon", "W3"), _kind("sustain", "Sustained fire", "W4", *TANK), LEAD,
         _kind("call-mortar", "Call the mortar on a point", "W6", MORTAR,
               _field("aim", "point", "aimed at this point", clicks=True), ROUNDS, bases=False),
         _kind("call-mortar", "Call the mortar on an enemy base", "W6", MORTAR,
               _field("aim", "unit", "aimed at this enemy base"), ROUNDS, kind="call-mortar-on-base", bases=False)]
LEADING = ("lead", "call-mortar", "call-mortar-on-base")
PER_UNIT = ("opfire", "close_combat")  # standing answers that map each unit to its own (O1, C2)


def spec(ctx: Context, view: Mapping[str, Any]) -> dict[str, Any]:
    """The order kinds of an activation, for the side whose card was drawn."""
    if view.get("result") or view.get("awaiting") != view["side"] or not view.get("card"):
        return {"kinds": [], "next_phase": None}
    return {"kinds": KINDS, "next_phase": None}


def _units(ctx: Context, view: Mapping[str, Any], own: bool) -> list[str]:
    return [u for u in sorted(ctx.units) if (ctx.side_of(u) == view["side"]) == own and bases_of(view, u)]


def candidates(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any], field: str, ok: Ok) -> list[Any] | None:
    """What may be picked for `field` of the order being built (None: any point of the table)."""
    order = dict(draft["order"])
    kind = draft.get("kind")
    if field == "unit":
        return [u for u in _units(ctx, view, own=True) if kind not in LEADING or ctx.units[u].leads]
    if "unit" not in order:
        return [] if field in ("bases", "target", "card", "mortar", "aim", "rounds") else None
    unit = str(order["unit"])
    if field == "bases":
        return sorted(commanded(ctx, view, unit)) if kind == "lead" else bases_of(view, unit)
    if field == "target":
        before = {k: order[k] for k in ("unit", "act", "do", "bases") if k in order}
        return [t for t in _units(ctx, view, own=False) if ok({**before, "target": t})]
    if field == "card":
        meta = ctx.units[unit]
        return [c for c in (meta.card, meta.card2) if c is not None]
    if field == "mortar":  # W6: the mortars of the units the leader leads itself
        led = ctx.units[unit].leads
        return [b for b, e in sorted(view["bases"].items()) if e["weapon"] == "mortar" and e["unit"] in led]
    if field == "rounds":
        return ["he", "smoke", "flare"]
    if field == "aim" and kind == "call-mortar-on-base":
        call = {"unit": unit, "act": "call-mortar", "mortar": order.get("mortar", ""), "rounds": ["he"]}
        return [b for b, e in sorted(view["bases"].items()) if ctx.side_of(e["unit"]) != view["side"]
                and ok({**call, "aim": b})]
    return None


def _centre(view: Mapping[str, Any], unit: str) -> plane.Point:
    spots = [view["bases"][b]["at"] for b in bases_of(view, unit)]
    return (sum(int(p[0]) for p in spots) // len(spots), sum(int(p[1]) for p in spots) // len(spots))


def notes(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any]) -> list[str]:
    """A move's allowance (M3), and a fire's distance centre to centre."""
    order = dict(draft["order"])
    act, unit, lines = order.get("act"), order.get("unit"), []
    if act == "lead":
        act = order.get("do")  # the bases led take that action (L1)
    if not isinstance(unit, str) or not bases_of(view, unit):
        return []
    if act in ("move", "move-fire"):
        lines.append(f"{unit}: each base moves at most {allowance(ctx.tables, str(act))} {ctx.table.unit} allowed, "
                     "less the terrain's cost (M3)")
    target = order.get("target")
    if isinstance(target, str) and bases_of(view, target):
        far = isqrt(plane.dist2(_centre(view, unit), _centre(view, target)))
        lines.append(f"{unit} to {target}: a range of about {far} {ctx.table.unit}, centre to centre")
    return lines


def standing_keys(ctx: Context, view: Mapping[str, Any], topic: str) -> list[str] | None:
    """The units a per-unit standing answer is offered for: the side's own with bases on the table."""
    return _units(ctx, view, own=True) if topic in PER_UNIT else None
