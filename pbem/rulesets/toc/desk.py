"""The desk's clicking rules for toc (`pbem desk`, docs/desk.md): which orders the phase takes
(and, after a movement, the next phase's orders travelling with them), what may be picked for
each field, and the numbers shown while an order is built.

Everything is read from the side's view and judged by this ruleset's own functions (the
`Walker` that validation and the bots share); the desk also keeps only the picks for which
`ok(order)` (the ruleset's `validate` on the orders so far plus this one) finds nothing wrong.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .board import Board
from .context import Context
from .movement import OFF, Walker, after_phase, allowance
from .orders import NEXT_OF
from .sequence import SEQUENCES, kind as phase_kind, owner

Ok = Callable[[dict[str, Any]], bool]


def _field(name: str, type_: str, label: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "label": label, **more}


SEQUENCE = {"kind": "sequence", "label": "Choose the British sequence", "section": "5.3", "auto": True,
            "fields": [_field("sequence", "enum", "sequence", values=sorted(SEQUENCES))]}
MOVE = {"kind": "move", "label": "Move a stack", "section": "9.1",
        "fields": [_field("move", "units", "units that began the phase together (9.5)"),
                   _field("path", "path", "hexes entered, in order"),
                   _field("march", "flag", "march mode (9.20)", optional=True)]}
TOP = {"kind": "top", "label": "Put a unit on top", "section": "6.6", "auto": True,
       "fields": [_field("top", "unit", "unit to show on top")]}
BOMBARD = {"kind": "bombard", "label": "Bombard a hex", "section": "10.1",
           "fields": [_field("bombard", "hex", "target hex"), _field("with", "units", "artillery"),
                      _field("losses", "units", "enemy units to hit first (10.9)", optional=True)]}
MELEE = {"kind": "melee", "label": "Melee a hex", "section": "12.1",
         "fields": [_field("melee", "hex", "target hex"), _field("with", "units", "attackers"),
                    _field("losses", "units", "own units to lose first (12.12)", optional=True),
                    _field("advance", "units", "who advances if the hex is emptied (12.13)", optional=True),
                    _field("then", "hex", "second hex to advance into (12.13)", optional=True)]}
CONCEDE = {"kind": "concede", "label": "Concede the game", "section": "5.4",
           "fields": [_field("concede", "const", "give up the game", value=True)]}
MOVEMENT, COMBAT = [MOVE, TOP], [BOMBARD, MELEE]


def spec(ctx: Context, view: Mapping[str, Any]) -> dict[str, Any]:
    """The order kinds `view`'s side may give now, and those of the next phase it may send along."""
    phase = str(view["phase"])
    if owner(phase) != str(view["side"]) or view.get("result"):
        return {"kinds": [], "next_phase": None}
    chosen = view.get("sequence")
    if phase == "british-first":  # 5.3: the sequence named first decides what this phase is
        kinds = [SEQUENCE, *MOVEMENT, *COMBAT]
    else:
        kinds = list(MOVEMENT if phase_kind(phase, chosen) == "movement" else COMBAT)
    following = NEXT_OF.get(phase)
    later = None
    if following is not None:
        later = {"phase": following, "section": "5.2",
                 "kinds": MOVEMENT + COMBAT if phase == "british-first" else COMBAT}
    return {"kinds": kinds + [CONCEDE], "next_phase": later}


def _board(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any]) -> tuple[Board, set[str]]:
    """The side's board where the draft goes (after this phase's moves for the next phase's orders),
    and the units the orders before it already moved or used."""
    board = Board.from_view(ctx, view)
    orders = list(draft["orders"])
    nested = draft.get("next")
    walker = Walker(board)
    for index, order in enumerate(orders):
        walker.apply(order, index)
    earlier = orders
    if draft.get("target") == "next":
        board = after_phase(walker.board, walker.plan, str(NEXT_OF[str(view["phase"])]))
        earlier = list(nested or [])
    used: set[str] = set()
    for order in earlier:
        for key in ("move", "with"):
            used.update(str(u) for u in (order.get(key) or []) if isinstance(order, dict))
    return (walker.board if draft.get("target") != "next" else board), used


def _targets(board: Board, earlier: list[Any], key: str) -> list[str]:
    done = {str(o[key]) for o in earlier if isinstance(o, dict) and key in o}
    return [h for h in sorted(board.enemy) if h not in done]


def candidates(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any], field: str, ok: Ok) -> list[str] | None:
    """What may be picked for `field` of the order being built, given the orders before it."""
    kind, order = draft["kind"], dict(draft["order"])
    board, used = _board(ctx, view, draft)
    earlier = list(draft["next"] or []) if draft.get("target") == "next" else list(draft["orders"])
    if kind == "sequence":
        return sorted(SEQUENCES)
    if kind == "top":
        return sorted(u for u in board.own if board.on_map(u))
    if kind == "move":
        chosen = list(order.get("move") or [])
        if field == "move":
            free = [u for u, unit in sorted(board.own.items()) if u not in used and unit["status"] in ("active",
                                                                                                    "container")]
            if not chosen:
                return free
            where = board.own[chosen[0]]["hex"] if chosen[0] in board.own else None
            same = [u for u in free if u not in chosen and board.own[u]["hex"] == where]
            if where is None:  # still off the map: those that may enter with it by the same hex (8.2-8.4)
                entry = ctx.entry_for(chosen[0])
                first = (order.get("path") or [None])[0] or (entry.hexes[0] if entry is not None else None)
                same = [u for u in same if first is not None and ok({"move": chosen + [u], "path": [first]})]
            return chosen + same
        if field == "path" and chosen:
            path = list(order.get("path") or [])
            march = bool(order.get("march"))
            if path and path[-1] == OFF:
                return []
            if path:
                steps: list[str] = [*ctx.hexes.neighbours(path[-1]), OFF]
            elif board.on_map(chosen[0]):
                steps = [*ctx.hexes.neighbours(str(board.hex_of(chosen[0]))), OFF]
            else:
                entry = ctx.entry_for(chosen[0])
                steps = list(entry.hexes) if entry is not None else []
            flag = {"march": True} if march else {}

            def passable(step: str) -> bool:  # a hex the stack may cross but not stop in is offered too
                return ok({"move": chosen, "path": path + [step], **flag}) or step != OFF and any(
                    ok({"move": chosen, "path": path + [step, n], **flag}) for n in ctx.hexes.neighbours(step))

            return [s for s in steps if passable(s)]
        return None
    key = "bombard" if kind == "bombard" else "melee"
    if field == key:
        return _targets(board, earlier, key)
    if key not in order:
        return []
    target = str(order[key])
    firers = list(order.get("with") or [])
    if field == "with":
        mine = [u for u in sorted(board.own) if board.on_map(u) and u not in used]
        return firers + [u for u in mine if u not in firers and ok({key: target, "with": firers + [u]})]
    if field == "losses" and kind == "bombard":
        top = board.enemy_top.get(target)
        return [str(top["unit"])] if top else []
    if field in ("losses", "advance"):
        return firers
    if field == "then":
        advance = list(order.get("advance") or [])
        return [h for h in ctx.hexes.neighbours(target)
                if advance and ok({key: target, "with": firers, "advance": advance, "then": h})]
    return None


def notes(ctx: Context, view: Mapping[str, Any], draft: Mapping[str, Any]) -> list[str]:
    """Movement points left for each unit of a move; range and line of sight of each gun."""
    kind, order = draft["kind"], dict(draft["order"])
    board, _ = _board(ctx, view, draft)
    if kind == "move" and order.get("move"):
        units = [u for u in order["move"] if u in board.own]
        march = bool(order.get("march"))
        walker = Walker(board)
        walker.apply({"move": units, "path": list(order.get("path") or []), **({"march": True} if march else {})},
                     len(draft["orders"]))
        lines = []
        for uid in units:
            info = walker.plan.units.get(uid)
            spent = info.mp if info is not None else 0
            lines.append(f"{uid}: {allowance(ctx, uid, march) - spent} of {allowance(ctx, uid, march)} movement "
                         f"points left (9.1{', 9.20' if march else ''})")
        return lines
    if kind == "bombard" and "bombard" in order:
        target = str(order["bombard"])
        lines = []
        for uid in order.get("with") or []:
            if uid in board.own and board.on_map(uid):
                here = str(board.hex_of(uid))
                sight = "line of sight clear" if ctx.los_clear(here, target) else "no line of sight (10.3)"
                lines.append(f"{uid}: {ctx.hexes.distance(here, target)} hexes of range {ctx.counters[uid].range}, "
                             f"{sight}")
        return lines
    return []
