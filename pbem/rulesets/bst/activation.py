"""One unit's activation (A1, A2, R1-R3, H1, F1-F10, M1-M3, C1).

The order of play: every base's action is declared (the orders); then each base, in id
order, resolves all its fire markers against the to-hit number of its action (R1; a base
given no action resolves at 5+, as a firer would: our reading); then the fire attacks, each
from the bases still able to fire (F10), before any movement (F6); then the moves, stopping
at contact with an enemy base (C1); then the bases hit at short range in the open resolve
at once (F7). The unit is then marked activated; a held unit is not (A1, A2).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Mapping, Sequence

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, Event, State
from pbem.geometry import plane

from . import fire, hits, melee, split
from . import flamer as flamer_rules
from .cover import cover_from
from .extras import partners
from .stands import Stand
from .context import Context
from .deck import take_out
from .leaders import commanded, commander_lost, in_leader_command
from .mortars import fire_round
from .opfire import Mover, react
from .sustained import sweep
from .vehicles import gun_shot
from .orders import FIRES, MOVES, bases_of, firers_of, heading_of, named, plan

# actions that only change a base's mark: the key, its new value, the heading, the event (W3, W4)
MARKS = {"sustain": ("sustained", True, "W4", "sustained"), "set-up": ("unloaded", False, "W3", "set-up")}
TO_HIT = {"move": "move", "move-fire": "move", "fire": "fire", "hunker": "hunker", "none": "fire", "retire": "fire", "fight": "fire",
          "set-up": "fire", "sustain": "fire", "call-mortar": "fire"}


def remove(context: Context, state: State, bid: str, events: list[Event], section: str) -> None:
    """R1: a base with two Kills leaves the table; a unit with none left leaves the deck (both
    of a platoon leader's cards), and a platoon leader's units feel the loss (L3)."""
    unit = state["bases"][bid]["unit"]
    in_command = commanded(context, state, unit) if context.units[unit].leads else set()
    state["bases"].pop(bid)
    state["lost"][bid] = unit
    events.append({"type": "removed", "section": section, "base": bid, "unit": unit})
    if not bases_of(state, unit):
        meta = context.units[unit]
        for card in (meta.card, meta.card2):
            if card:
                take_out(state["deck"], card)
        if meta.leads:
            commander_lost(context, state, unit, in_command, events)


def resolve_markers(context: Context, state: State, bid: str, to_hit: int, dice: Dice, events: list[Event],
                    section: str) -> hits.HitOutcome | None:
    """R1: all of one base's markers at one to-hit number; None when it has none."""
    entry = state["bases"][bid]
    if not entry["markers"]:
        return None
    if entry.get("vehicle") and entry.get("buttoned"):
        events.append({"type": "shrugged", "section": "V1", "base": bid, "markers": entry["markers"]})
        entry["markers"] = 0
        return None
    extra = 1 if entry["weapon"] == "flamer" else 0  # W11: one die more for a flame-thrower
    outcome = hits.resolve(context.tables, dice, entry["status"], entry["kills"], entry["markers"] + extra, to_hit,
                           bid)
    if entry["weapon"] == "flamer" and outcome.kills >= context.tables.number("flamer_kills"):
        outcome = dataclasses.replace(outcome, removed=True)
    crew_hit = bool(entry.get("vehicle")) and outcome.kills > entry["kills"]
    mate = extra_of(context, state, bid) if outcome.kills > entry["kills"] else None
    if mate is not None:  # W5: the HMG's Kill goes to its extra base; its pin or suppress stays
        passed = outcome.kills - entry["kills"]
        outcome = dataclasses.replace(outcome, kills=entry["kills"], removed=False)
    if entry.get("vehicle"):  # V1: small arms reach only the crew's heads: no Kill, the hatches close
        outcome = dataclasses.replace(outcome, kills=entry["kills"], removed=False)
    entry.update(markers=0, status=outcome.status, kills=outcome.kills)
    event: Event = {"type": "resolved", "section": section, "base": bid, "markers": len(outcome.rolls),
                    "to_hit": to_hit, "rolls": list(outcome.rolls), "rethrows": list(outcome.rethrows),
                    "results": list(outcome.results), "status": outcome.status, "kills": outcome.kills}
    if crew_hit:
        entry["buttoned"] = True
        event["buttoned"] = True
    events.append(event)
    if outcome.removed:
        remove(context, state, bid, events, "R1")
    if mate is not None:
        give_kills(context, state, bid, mate, passed, events)
    return outcome


def give_kills(context: Context, state: State, hmg: str, mate: str, kills: int, events: list[Event]) -> None:
    """W5: the extra base takes the Kills its HMG suffered; a second one removes it (R1)."""
    state["bases"][mate]["kills"] += kills
    events.append({"type": "kill-passed", "section": "W5", "base": hmg, "to": mate})
    if state["bases"][mate]["kills"] >= context.tables.number("kills_to_remove"):
        remove(context, state, mate, events, "R1")


def extra_of(context: Context, state: State, bid: str) -> str | None:
    """W5: the extra base paired with HMG `bid`, if it has one."""
    if state["bases"][bid]["weapon"] != "hmg":
        return None
    mate = partners(context.stands(state), context.tables.number("contact")).get(bid)
    return mate.id if mate is not None else None


def to_hit_act(context: Context, state: State, ids: Sequence[str], action: Mapping[str, str]) -> dict[str, str]:
    """R1 per base; W5: an extra base resolves at its HMG's number, whatever it does itself."""
    acts = {bid: action.get(bid, "none") for bid in ids}
    for bid, mate in partners(context.stands(state), context.tables.number("contact")).items():
        if bid in acts and mate.id in acts and mate.weapon == "hmg":
            acts[bid] = acts[mate.id]
    return acts


def activate(context: Context, state: State, unit: str, orders: Sequence[Mapping[str, Any]], dice: Dice,
             decisions: Decisions, events: list[Event], second: bool = False) -> None:
    """Resolve the activation of `unit` by its (already checked) orders; `second` when a
    platoon leader's second card called it (L1)."""
    side = context.side_of(unit)
    if any(order["act"] == "hold" for order in orders):
        for bid in bases_of(state, unit):
            state["bases"][bid]["sustained"] = False  # W4: a deferring HMG stops its sweep
        events.append({"type": "held", "section": "A2", "unit": unit, "side": side})
        return
    lead = [order for order in orders if order["act"] == "lead"]
    if lead:
        order = {**lead[0], "act": lead[0]["do"]}
        units = sorted({state["bases"][bid]["unit"] for bid in order["bases"]} - {unit})
        events.append({"type": "lead", "section": "L1", "unit": unit, "units": units, "act": order["act"],
                       "bases": list(order["bases"])})
        ids = [bid for bid in sorted(state["bases"]) if state["bases"][bid]["unit"] in units]
        ids += [bid for bid in order["bases"] if state["bases"][bid]["unit"] == unit]
        run(context, state, side, sorted(ids), [order], dice, decisions, events)
        for acted in [*units, *([] if second else [unit])]:
            split.after_activation(context, state, acted, events)
        state["led"] = sorted({*state.get("led", []), unit})
        state["activated"] = sorted({*state["activated"], *units, *([] if second else [unit])})
        return
    convoy = list(dict.fromkeys(order["unit"] for order in orders if order["unit"] != unit))
    own = [order for order in orders if order["unit"] == unit]
    if convoy:
        events.append({"type": "convoy", "section": "V3", "unit": unit, "units": convoy})
    run(context, state, side, bases_of(state, unit), own, dice, decisions, events)
    split.after_activation(context, state, unit, events)
    state["activated"] = sorted({*state["activated"], unit})
    for other in convoy:  # V3: the tanks of a convoy activate with the drawn one, in the order given
        if bases_of(state, other):
            run(context, state, side, bases_of(state, other), [o for o in orders if o["unit"] == other], dice,
                decisions, events)
        state["activated"] = sorted({*state["activated"], other})


def run(context: Context, state: State, side: str, ids: Sequence[str], orders: Sequence[Mapping[str, Any]],
        dice: Dice, decisions: Decisions, events: list[Event]) -> None:
    """The bases `ids` act by `orders`: markers first, then fire, moves and F7 (the order of
    play in the module's docstring)."""
    action = {bid: order["act"] for order in orders for bid in named(state, order)}
    touching = melee.contacts(context, state)
    fighting = [bid for bid in ids if bid in touching]  # C3: close combat is their action, and the last
    retire = any(order["act"] == "retire" for order in orders)
    able: dict[str, bool] = {}
    to_hit_by = to_hit_act(context, state, ids, action)
    for bid in ids:
        state["bases"][bid]["sustained"] = False  # W4: sustained fire ends when the HMG next activates
        if bid in fighting:
            continue
        act = action.get(bid, "none")
        entry = state["bases"][bid]
        if act == "recover":
            rec = hits.recover(context.tables, dice, entry["status"], entry["kills"], entry["markers"],
                               in_leader_command(context, state, bid), bid)
            entry.update(status=rec.status, kills=rec.outcome.kills, markers=rec.markers)
            events.append({"type": "recovered" if rec.recovered else "recovery-failed", "section": "R3" if rec.recovered
                           else "R2", "base": bid, "rolls": list(rec.outcome.rolls),
                           "rethrows": list(rec.outcome.rethrows), "results": list(rec.outcome.results),
                           "status": rec.status, "markers": rec.markers})
            if rec.outcome.removed:
                remove(context, state, bid, events, "R1")
            continue
        section = {"move": "M1", "move-fire": "M1", "hunker": "H1"}.get(act, "F1")
        outcome = resolve_markers(context, state, bid, context.tables.to_hit(TO_HIT[to_hit_by[bid]]), dice, events,
                                  section)
        able[bid] = bid in state["bases"] and (outcome is None or hits.may_act(act, outcome)) and (
            act not in MOVES or state["bases"][bid]["status"] == "ok") and (
            act not in (*FIRES, "sustain") or state["bases"][bid]["status"] != "suppressed")
    for order in orders:  # V1: the hatches open or close after the markers resolve, before any fire
        if "buttoned" in order:
            changed = [bid for bid in named(state, order) if bid in state["bases"]
                       and state["bases"][bid].get("vehicle") and state["bases"][bid]["buttoned"] != order["buttoned"]]
            for bid in changed:
                state["bases"][bid]["buttoned"] = bool(order["buttoned"])
            if changed:
                events.append({"type": "hatches", "section": "V1", "unit": order["unit"], "bases": changed,
                               "buttoned": bool(order["buttoned"])})
    immediate: list[str] = []
    movements = {}
    for index, order in enumerate(orders):
        if order["act"] in MOVES:
            movers = [bid for bid in named(state, order) if able.get(bid)]
            movements[index] = plan(context, state, order, index, movers)[0] if movers else None
    for index, order in enumerate(orders):
        if order["act"] in FIRES:
            firers = [bid for bid in named(state, order) if able.get(bid)]
            immediate += attack(context, state, side, order, firers, heading_of(movements.get(index)), dice, events)
    contacts_before = set(melee.contacts(context, state))
    moves: list[tuple[Mover, int]] = []
    for index, order in enumerate(orders):
        if order["act"] in MOVES:
            made = move(context, state, side, order, [bid for bid in named(state, order) if able.get(bid)], dice,
                        decisions, events)
            if made is not None:
                moves.append(made)
        if order["act"] in MARKS:
            key, value, section, kind = MARKS[order["act"]]
            marked = [bid for bid in named(state, order) if able.get(bid)]
            for bid in marked:
                state["bases"][bid][key] = value
            if marked:
                events.append({"type": kind, "section": section, "bases": marked})
    if moves:  # C1, C2: contact is judged once every base has moved (the C11 example: two orders, one move)
        movers = [bid for mover, _ in moves for bid in mover.start if bid in state["bases"]]
        melee.entered(context, state, movers, contacts_before, dice, decisions, events, moves)
    for index, order in enumerate(orders):
        if order["act"] == "call-mortar" and any(able.get(bid) for bid in named(state, order)):
            call(context, state, order, dice, events)
    for bid in ids:  # W6: a mortar with orders fires when its unit activates
        entry = state["bases"].get(bid)
        if (entry and bid in state["mortars"] and able.get(bid) and action.get(bid, "none") == "none"
                and not entry["unloaded"] and entry["status"] != "suppressed"):
            fire_round(context, state, bid, dice, events)
    fighting_now = melee.contacts(context, state)  # C10: markers on a base in close combat wait for it
    for bid in sorted(set(immediate)):
        if bid in state["bases"] and bid not in fighting_now:
            resolve_markers(context, state, bid, context.tables.to_hit("immediate"), dice, events, "F7")
    melee.resolve(context, state, side, [bid for bid in fighting if bid in state["bases"]], retire, dice, events)


def call(context: Context, state: State, order: Mapping[str, Any], dice: Dice, events: list[Event]) -> None:
    """W6: the leader's order replaces the mortar's; an unactivated mortar fires at once, and
    that round is its unit's activation for the turn (docs/bst.md, W6): its bases resolve
    their markers at 5+ first, as in opportunity fire (O1), and its card is then passed over."""
    gun = order["mortar"]
    state["mortars"][gun] = {"aim": copy.deepcopy(order["aim"]), "rounds": list(order["rounds"])}
    events.append({"type": "mortar-called", "section": "W6", "unit": order["unit"], "mortar": gun,
                   "aim": copy.deepcopy(order["aim"]), "rounds": list(order["rounds"])})
    entry = state["bases"][gun]
    unit = entry["unit"]
    if unit in state["activated"] or entry["unloaded"] or entry["status"] == "suppressed":
        return
    state["activated"] = sorted({*state["activated"], unit})
    for bid in bases_of(state, unit):
        if bid in state["bases"]:
            resolve_markers(context, state, bid, context.tables.to_hit("fire"), dice, events, "W6")
    if gun in state["bases"] and state["bases"][gun]["status"] != "suppressed":
        fire_round(context, state, gun, dice, events)


def attack(context: Context, state: State, side: str, order: Mapping[str, Any], ids: Sequence[str],
           heading: int | None, dice: Dice, events: list[Event]) -> list[str]:
    """F3-F9: one pooled attack; the bases that resolve at once (F7)."""
    target = order["target"]
    stands = context.stands(state)
    enemies = [s for s in stands if s.unit == target]
    if not ids or not enemies:
        return []
    firers = firers_of(context, state, order, ids)
    if all(f.weapon == "flamer" for f in firers):
        return flame(context, state, order, firers, enemies, events)
    if all(f.vehicle is not None for f in firers) and all(e.vehicle is not None for e in enemies):
        main_guns(context, state, firers, enemies, dice, events)
        return []
    for s in firers:
        state["bases"][s.id]["facing"] = s.base.facing
    first = fire.first_target(firers, enemies)
    counts = {f.id: fire.markers_of(context.tables, f, first.base, heading is not None) or 0 for f in firers}
    spread = fire.distribute(context.table, context.tables, firers, first, context.stands(state), sum(counts.values()))
    for bid, count in spread.markers.items():
        state["bases"][bid]["markers"] += count
    events.append({"type": "fired", "section": "F6" if heading is not None else "F4", "unit": order["unit"],
                   "firers": counts, "target": target, "first": first.id, "chain": list(spread.chain),
                   "dealt": dict(spread.dealt), "markers": dict(spread.markers), "covered": list(spread.covered),
                   "immediate": list(spread.immediate)})
    return list(spread.immediate)


def main_guns(context: Context, state: State, firers: Sequence[Stand], enemies: Sequence[Stand], dice: Dice,
              events: list[Event]) -> None:
    """V2: each tank's main gun at the closest vehicle of the unit fired at, resolved at once."""
    for tank in firers:
        target = fire.first_target([tank], enemies)
        if target.id not in state["bases"]:
            continue
        state["bases"][tank.id]["facing"] = tank.base.facing
        event, knocked = gun_shot(context.tables, dice, tank, target)
        events.append(event)
        if knocked:
            remove(context, state, target.id, events, "V2")


def flame(context: Context, state: State, order: Mapping[str, Any], firers: Sequence[Stand],
          enemies: Sequence[Stand], events: list[Event]) -> list[str]:
    """W11: each flame-thrower lays its template on its target; 4 markers on every base under
    it; those at short range in the open resolve at once (F7)."""
    immediate: list[str] = []
    for flamer in firers:
        target = fire.first_target([flamer], enemies)
        state["bases"][flamer.id]["facing"] = plane.bearing(flamer.centre, target.centre)
        marked = flamer_rules.under(context.tables, flamer, target, context.stands(state))
        count = context.tables.number("flamer_markers")
        for bid in marked:
            state["bases"][bid]["markers"] += count
        open_ = [bid for bid in marked
                 if cover_from(context.table, flamer.centre, context.stand(bid, state["bases"][bid]).base) is None]
        events.append({"type": "flamed", "section": "W11", "unit": order["unit"], "flamer": flamer.id,
                       "target": target.id, "markers": {bid: count for bid in marked}, "immediate": open_})
        immediate += open_
    return immediate


def own_route(context: Context, state: State, order: Mapping[str, Any], ids: Sequence[str]) -> Mapping[str, Any]:
    """M1: when some bases of a move order cannot move (hits), the others keep to the route
    the order gave them: its path shifted from the order's first base to the first mover."""
    named_here = [bid for bid in named(state, order) if bid in state["bases"]]
    if not named_here or named_here[0] == ids[0]:
        return order
    full, _ = plan(context, state, order, 0, named_here)
    if full is None:
        return order
    first, mine = state["bases"][named_here[0]]["at"], state["bases"][ids[0]]["at"]
    dx, dy = mine[0] - first[0], mine[1] - first[1]
    shifted = {key: value for key, value in order.items() if key not in ("to", "path", "toward", "distance")}
    shifted["path"] = [[x + dx, y + dy] for x, y in full.path[1:]]
    return shifted


def move(context: Context, state: State, side: str, order: Mapping[str, Any], ids: Sequence[str], dice: Dice,
         decisions: Decisions, events: list[Event]) -> tuple[Mover, int] | None:
    """M1-M3, O1-O3: the bases move together; contact with an enemy base stops them, and so
    does a hit from opportunity fire in the open (that base only). The move and its length,
    for close combat (C1, C2: `run` judges contact once every move is made)."""
    if not ids:
        return None
    order = own_route(context, state, order, ids)
    enemies = [(s.id, s.shape) for s in context.stands(state) if s.side != side]
    movement, problems = plan(context, state, order, 0, ids, enemies)
    if movement is None:
        events.append({"type": "move-cancelled", "section": "M3", "bases": list(ids),
                       "why": "; ".join(p.message for p in problems)})
        return None
    standing_before = context.stands(state)
    mover = Mover({bid: context.stand(bid, state["bases"][bid]) for bid in ids}, movement.path, {},
                  split.stay_with(context, standing_before, ids) if order.get("split") == "stay" else {})
    crewed = context.tables.values["crewed_weapons"]
    reacting: list[Event] = []
    if len(movement.path) > 1:
        sweep(context, state, mover, movement.length, dice, reacting)
        react(context, state, side, mover, movement.length, dice, decisions, reacting)
    for bid, base in movement.bases.items():
        if bid not in state["bases"]:
            continue
        centre = mover.at(bid, mover.stopped[bid]).centre if bid in mover.stopped else base.centre
        if list(centre) != state["bases"][bid]["at"] and state["bases"][bid]["weapon"] in crewed:
            state["bases"][bid]["unloaded"] = True  # W3: a pivot on the spot leaves it loaded
        state["bases"][bid]["at"] = list(centre)
        state["bases"][bid]["facing"] = base.facing
    event: Event = {"type": "moved", "section": "M3", "unit": order["unit"], "bases": list(ids),
                    "path": [list(p) for p in movement.path], "length": movement.length}
    if movement.stop is not None:
        event.update(section="C1", contact=movement.stop.key)
    if mover.stopped:
        event["stopped"] = dict(sorted(mover.stopped.items()))
    events.append(event)
    events.extend(reacting)
    if mover.stopped:  # O3: opportunity fire may have parted bases that must keep together
        for unit in sorted({state["bases"][bid]["unit"] for bid in ids if bid in state["bases"]}):
            split.after_move(context, state, unit, standing_before, events)
    return mover, movement.length
