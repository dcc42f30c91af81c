"""German reinforcements (8.1-8.6) and the placement of units drawn for a breakthrough (7.5, 7.7).

Drawing is automatic: the number is rolled openly, the units are drawn blind one at a time
(only the German sees which: the draw rolls are his alone). Placement is the German's
deliberate choice (8.3), given as `{place: G31, hex: "3931"}` orders in the `german-placement`
phase that follows the draw; that phase always awaits the German (no standing answer skips it:
see sequence.py). Units the orders leave unplaced go, in draw order, to the legal entry hex
holding the fewest German fire factors (the first such hex in the map's listed order on a tie).

Entry hexes: any Marne riverbank hex for regular reinforcements (8.3, 8.6); for a breakthrough,
the west edge 4231-4222 (7.5) or the east edge 2242-1031 (7.7), only hexes empty of enemy units.
Stacking limits apply (8.3). A drawn unit may be refused only if no entry hex can take it (8.6):
such a unit is not drawn at all - it stays in the container and the drawing stops.
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import place

from .board import Board, fits
from .context import Context
from .state import container

KIND_SECTION = {"reinforcement": "8.3", "breakthrough-west": "7.5", "breakthrough-east": "7.7"}


def entry_hexes(cfg: Context, kind: str) -> tuple[str, ...]:
    if kind == "reinforcement":
        return cfg.riverbank
    return cfg.west_edge if kind == "breakthrough-west" else cfg.east_edge


def open_entries(cfg: Context, board: Board, kind: str) -> list[str]:
    return [h for h in entry_hexes(cfg, kind) if not board.enemy_at(h) and not cfg.impassable(h)]


def default_hex(cfg: Context, board: Board, kind: str, uid: str) -> str | None:
    best = None
    stacks = board.own_stacks()
    empty: tuple[bool, int] | None = None  # fits and ff depend only on the hex's own stack
    for rank, hex_id in enumerate(open_entries(cfg, board, kind)):
        if hex_id in stacks:
            fit, ff = fits(cfg, board, uid, hex_id), board.ff(hex_id)
        else:
            if empty is None:
                empty = (fits(cfg, board, uid, hex_id), board.ff(hex_id))
            fit, ff = empty
        if fit:
            key = (ff, rank)
            if best is None or key < best[0]:
                best = (key, hex_id)
    return best[1] if best else None


def plan_defaults(cfg: Context, board: Board, kind: str, units: list[str]) -> dict[str, str] | None:
    """Where the default puts each unit in turn (simulated on `board`); None if one cannot go."""
    plan: dict[str, str] = {}
    for uid in units:
        hex_id = default_hex(cfg, board, kind, uid)
        if hex_id is None:
            return None
        board.move(uid, hex_id)
        plan[uid] = hex_id
    return plan


def draw(cfg: Context, state: State, kind: str, count: int, dice: Dice, events: list[dict[str, Any]]) -> None:
    """Draw up to `count` German units for `kind`, leaving them `drawn` and pending placement."""
    section = KIND_SECTION[kind]
    drawn: list[str] = []
    delayed = False
    for number in range(1, count + 1):
        pool = [uid for uid in container(cfg, state, "german") if cfg.counters[uid].kind == "infantry"]
        if not pool:
            break
        uid = dice.draw(pool, f"{section} {kind} draw {number} of {count}", seen_by=["german"])
        if plan_defaults(cfg, Board.from_state(cfg, state, "german"), kind, drawn + [uid]) is None:
            delayed = True  # 8.6: no entry hex can take it; it stays in the container
            break
        state["units"][uid]["status"] = "drawn"
        drawn.append(uid)
    event: dict[str, Any] = {"type": "drawn", "side": "german", "section": section, "kind": kind,
                             "rolled": count, "count": len(drawn), "units": drawn}
    if delayed:
        event["delayed"] = True
    events.append(event)
    if drawn:
        state["pending"] = {"kind": kind, "units": drawn}


def validate(board: Board, orders: list[Any], pending: dict[str, Any] | None) -> list[Problem]:
    cfg = board.cfg
    problems: list[Problem] = []
    if not pending:
        return [Problem("there are no drawn units to place", order=i, section="8.3")
                for i, o in enumerate(orders) if "place" in o]
    kind = pending["kind"]
    section = KIND_SECTION[kind]
    waiting = list(pending["units"])
    entries = set(entry_hexes(cfg, kind))
    for index, order in enumerate(orders):
        if "place" not in order:
            continue
        uid, hex_id = order["place"], order["hex"]
        if uid not in waiting:
            problems.append(Problem(f"{uid} is not a drawn unit waiting for placement", order=index, path=("place",),
                                    section=section, legal=", ".join(waiting) or "none"))
            continue
        legal = ", ".join(open_entries(cfg, board, kind))
        if hex_id not in entries:
            problems.append(Problem(f"{hex_id} is not an entry hex for this {kind}", order=index, path=("hex",),
                                    section=section, legal=legal))
            continue
        if board.enemy_at(hex_id):
            problems.append(Problem(f"{hex_id} holds enemy units", order=index, path=("hex",), section=section,
                                    legal=legal))
            continue
        if not fits(cfg, board, uid, hex_id):
            problems.append(Problem(f"{uid} would overstack {hex_id}", order=index, path=("hex",), section="6.1",
                                    legal=legal))
            continue
        waiting.remove(uid)
        board.move(uid, hex_id)
    if not problems and waiting and plan_defaults(cfg, board, kind, waiting) is None:
        problems.append(Problem("after these placements some drawn units would have no legal entry hex left",
                                section="8.6", legal="leave room for every drawn unit"))
    return problems


def resolve_placement(cfg: Context, state: State, orders: list[Any], events: list[dict[str, Any]]) -> str:
    """Place the pending units; returns the kind that was placed."""
    pending = state["pending"] or {"kind": "reinforcement", "units": []}
    kind = pending["kind"]
    waiting = list(pending["units"])
    placed: list[dict[str, Any]] = []
    for order in orders:
        if "place" not in order or order["place"] not in waiting:
            continue
        uid, hex_id = order["place"], order["hex"]
        board = Board.from_state(cfg, state, "german")
        if hex_id in open_entries(cfg, board, kind) and fits(cfg, board, uid, hex_id):
            place(state, uid, hex_id)
            waiting.remove(uid)
            placed.append({"unit": uid, "hex": hex_id})
    for uid in list(waiting):
        hex_id = default_hex(cfg, Board.from_state(cfg, state, "german"), kind, uid)
        if hex_id is None:  # cannot happen: the draw checked the defaults; keep the unit drawn-safe
            state["units"][uid]["status"] = "container"
        else:
            place(state, uid, hex_id)
            placed.append({"unit": uid, "hex": hex_id, "default": True})
        waiting.remove(uid)
    state["pending"] = None
    events.append({"type": "placed", "side": "german", "section": KIND_SECTION[kind], "kind": kind,
                   "units": placed})
    return str(kind)


def resolve_reinforcement(cfg: Context, state: State, dice: Dice, events: list[dict[str, Any]]) -> None:
    """8.3: four dice, that many units drawn (8.4: until the container is empty)."""
    if not container(cfg, state, "german"):
        events.append({"type": "reinforcements", "section": "8.4", "count": 0,
                       "note": "the holding container is empty"})
        return
    number = int(cfg.tables["reinforcement_dice"])
    rolls = dice.dice(number, 6, f"8.3 reinforcements of turn {state['turn']}: number of units")
    events.append({"type": "reinforcements", "section": "8.3", "dice": rolls, "count": sum(rolls)})
    draw(cfg, state, "reinforcement", sum(rolls), dice, events)


def breakthrough(cfg: Context, state: State, kind: str, dice: Dice, events: list[dict[str, Any]]) -> None:
    """7.5 / 7.7: thwarted without an enemy-free edge hex; else roll and draw."""
    section = KIND_SECTION[kind]
    board = Board.from_state(cfg, state, "german")
    if not open_entries(cfg, board, kind):
        events.append({"type": "breakthrough", "section": section, "kind": kind, "thwarted": True})
        return
    dice_count = int(cfg.tables["breakthrough_dice"]["west" if kind == "breakthrough-west" else "east"])
    rolls = dice.dice(dice_count, 6, f"{section} {kind}: number of units")
    events.append({"type": "breakthrough", "section": section, "kind": kind, "dice": rolls, "count": sum(rolls)})
    draw(cfg, state, kind, sum(rolls), dice, events)
