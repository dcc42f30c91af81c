"""Close combat in play (C1-C9): entering it, resolving it on activation, continuing, retiring.

Bases of opposite sides within a base width are in close combat (C1); a close combat is a
group of bases joined by such contacts (C8), however far its ends lie apart.

- Entering (C2, C9): after a move, each enemy base newly contacted reacts (`entered`): at
  5+ when its unit has activated this turn, else by its side's standing answer, hunker down
  (resolving at 6) or fire. Then the movers now in
  contact and the bases they newly contacted place their close combat markers (Table 4, C3)
  on the enemies they touch, one each from the one most nearly in front (C4). They wait: the
  activation that placed them does not resolve them.
- Resolving (C3, C5, C8): when a unit activates with bases in close combat, after its other
  bases have acted, every base of those combats resolves all its markers at 3+, and results
  stack (two pins a suppress, two suppresses a kill).
- Then the activating side continues (the default): every base still in contact places its
  markers again (C6); or retires (`act: retire` on any of its bases): each of its bases in
  those combats that is neither pinned nor suppressed moves straight away from the closest
  enemy base until it is out of contact (at most 6 cm) and takes 1 fire marker (C7).
"""

from __future__ import annotations

from typing import Sequence

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, Event, State, standing_answer
from pbem.geometry import plane
from pbem.rulesets.kit import positions

from . import closecombat, hits
from .context import Context
from .opfire import Mover, fire_at
from .smoke import in_smoke
from .extras import partners
from .stands import Stand, in_contact


def contacts(context: Context, state: State) -> dict[str, list[str]]:
    """Each base in close combat, with the enemy bases it touches (C1). Vehicles take no part
    in close combat: part III gives them none (docs/bst.md, "Tanks")."""
    stands = [s for s in context.stands(state) if s.vehicle is None]
    reach = context.tables.number("contact")
    out: dict[str, list[str]] = {}
    for a in stands:
        touching = [b.id for b in stands if b.side != a.side and in_contact(a, b, reach)]
        if touching:
            out[a.id] = touching
    pairs = partners(stands, reach)  # W5: who fights an HMG fights its extra base too
    for gun, mate in sorted(pairs.items()):
        for enemy in list(out.get(gun, [])):
            if mate.id not in out.setdefault(enemy, []):
                out[enemy].append(mate.id)
            if enemy not in out.setdefault(mate.id, []):
                out[mate.id].append(enemy)
    return {bid: sorted(found) for bid, found in sorted(out.items())}


def combat_of(context: Context, state: State, start: Sequence[str]) -> list[str]:
    """C8: every base joined to `start` by contacts with enemies, in id order."""
    touching = contacts(context, state)
    seen = {bid for bid in start if bid in touching}
    frontier = sorted(seen)
    while frontier:
        bid = frontier.pop()
        for other in touching.get(bid, []):
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return sorted(seen)


def place(context: Context, state: State, ids: Sequence[str], events: list[Event], section: str) -> None:
    """C3, C4: each base places its close combat markers on the enemies it touches."""
    touching = contacts(context, state)
    stands = {s.id: s for s in context.stands(state)}
    pairs = partners(stands.values(), context.tables.number("contact"))
    placed: dict[str, dict[str, int]] = {}
    for bid in ids:
        if bid not in touching or bid not in stands:
            continue
        me = stands[bid]
        crew = me.weapon in context.tables.values["crewed_weapons"]  # W1: crews fight with 2
        count = closecombat.markers(context.tables, me, state["bases"][bid]["status"] == "suppressed", crew)
        spread = closecombat.allocate(me, [stands[e] for e in touching[bid]], count, pairs)
        for enemy, n in spread.items():
            state["bases"][enemy]["markers"] += n
        placed[bid] = spread
    if placed:
        events.append({"type": "close-combat-markers", "section": section, "placed": placed})


def entered(context: Context, state: State, movers: Sequence[str], before: set[str], dice: Dice,
            decisions: Decisions, events: list[Event], moves: Sequence[tuple[Mover, int]] = ()) -> None:
    """C2, C9: after a move, the newly contacted defenders react, then markers are placed.

    A unit that has activated resolves its contacted bases' markers at 5+. One that has not
    follows its standing answer `close_combat` (C2): `hunker` (the default) resolves them at 6;
    `fire` gives opportunity fire: the unit is activated, all its bases resolve at 5+, and
    those still able fire at the movers where they were one examined step before contact
    (a base touched by the attacker no longer fires), the markers not resolved at once."""
    from .activation import resolve_markers

    touching = contacts(context, state)
    new = sorted({e for m in movers for e in touching.get(m, []) if e not in before})
    for unit in sorted({state["bases"][bid]["unit"] for bid in new}):
        side = context.side_of(unit)
        mine = [bid for bid in new if state["bases"].get(bid, {}).get("unit") == unit]
        attackers = {m for m in movers if set(touching.get(m, [])) & set(mine)}
        # the first move that brought an attacker into contact with this unit
        mover, length = next(((m, n) for m, n in moves if attackers & set(m.start)), (None, 0))
        if mover is not None and out_of_smoke(context, state, mover, [m for m in movers
                                                                   if set(touching.get(m, [])) & set(mine)]):
            events.append({"type": "surprised", "section": "W10", "unit": unit, "bases": mine})
            continue  # W10: no reaction at all; the markers wait for the close combat
        reaction = "activated" if unit in state["activated"] else standing_answer(
            state, side, "close_combat", {}).get(unit, "hunker")
        if reaction == "ask":
            question = {"unit": unit, "contacted": mine,
                        "text": f"enemies close with {', '.join(mine)}: hunker down or fire (C2)"}
            reaction = decisions.ask(side, "close_combat", "C2", question, ["hunker", "fire"])
        if reaction == "fire" and mover is not None:
            state["activated"] = sorted({*state["activated"], unit})
            point = max(0, length - context.tables.number("opfire_step"))
            events.append({"type": "opportunity", "section": "C2", "unit": unit, "side": side, "at": point})
            for bid in sorted(b for b, e in state["bases"].items() if e["unit"] == unit):
                resolve_markers(context, state, bid, context.tables.to_hit("opportunity"), dice, events, "C2")
            fire_at(context, state, unit, mover, point, dice, events, "C2")
            continue
        to_hit = context.tables.to_hit("fire" if reaction in ("activated", "fire") else "hunker")
        for bid in mine:
            resolve_markers(context, state, bid, to_hit, dice, events, "C2")
    placing = [m for m in movers if m in touching] + [b for b in new if b in state["bases"]]
    place(context, state, placing, events, "C2")


def out_of_smoke(context: Context, state: State, mover: Mover, attackers: Sequence[str]) -> bool:
    """W10: the attackers came out of smoke into contact with their centres never leaving it:
    each centre in smoke all along its track (where it began, every millimetre of the way, and
    where it ended)."""
    return bool(attackers) and all(
        bid in mover.start and bid in state["bases"] and stayed_in_smoke(context, mover, bid)
        and in_smoke(context.table, (state["bases"][bid]["at"][0], state["bases"][bid]["at"][1]))
        for bid in attackers)


def stayed_in_smoke(context: Context, mover: Mover, bid: str) -> bool:
    """W10: the centre of mover `bid` in smoke all along its track, sampled each millimetre
    (the table's unit) up to where it stopped."""
    whole = plane.path_length(list(mover.path))
    length = min(whole, mover.stopped.get(bid, whole))
    return all(in_smoke(context.table, mover.at(bid, d).centre) for d in range(length + 1))


def resolve(context: Context, state: State, side: str, ids: Sequence[str], retire: bool, dice: Dice,
            events: list[Event]) -> None:
    """C3, C5-C8: the close combats of bases `ids` of the activating side."""
    from .activation import extra_of, give_kills, remove

    group = combat_of(context, state, ids)
    if not group:
        return
    for bid in group:
        if bid not in state["bases"] or not state["bases"][bid]["markers"]:
            continue
        entry = state["bases"][bid]
        extra = 1 if entry["weapon"] == "flamer" else 0  # W11
        rolls, rethrows, results = hits.roll_markers(context.tables, dice, entry["markers"] + extra,
                                                     context.tables.to_hit("close_combat"), bid)
        status, kills, removed = closecombat.stack(context.tables, entry["status"], entry["kills"], results)
        removed = removed or (entry["weapon"] == "flamer" and kills >= context.tables.number("flamer_kills"))
        mate = extra_of(context, state, bid) if kills > entry["kills"] else None
        passed = kills - entry["kills"]
        if mate is not None:  # W5: the Kill goes to the extra base
            kills, removed = entry["kills"], False
        entry.update(markers=0, status=status, kills=kills)
        events.append({"type": "resolved", "section": "C5", "base": bid, "markers": len(rolls),
                       "to_hit": context.tables.to_hit("close_combat"), "rolls": rolls, "rethrows": rethrows,
                       "results": results, "status": status, "kills": kills})
        if removed:
            remove(context, state, bid, events, "C5")
        if mate is not None:
            give_kills(context, state, bid, mate, passed, events)
    alive = [bid for bid in group if bid in state["bases"]]
    if not retire:
        place(context, state, alive, events, "C6")
        return
    retreat(context, state, side, alive, events)


def retreat(context: Context, state: State, side: str, group: Sequence[str], events: list[Event]) -> None:
    """C7: the activating side's able bases move straight away from the closest enemy base."""
    reach = context.tables.number("contact")
    limit = context.tables.number("retire_distance")
    board = positions.Table(context.table.width, context.table.depth, context.table.unit, "C7")
    moved: dict[str, list[int]] = {}
    for bid in group:
        entry = state["bases"][bid]
        me = context.stand(bid, entry)
        if me.side != side or entry["status"] != "ok":
            continue
        enemies = [s for s in context.stands(state) if s.side != side]
        if not enemies:
            continue
        closest = min(enemies, key=lambda s: (plane.distance2(s.shape, me.shape), s.id))
        heading = plane.bearing(closest.centre, me.centre)
        step = plane.direction(heading)
        far = (me.centre[0] + step[0], me.centre[1] + step[1])
        point = me.centre
        for distance in range(1, limit + 1):
            ahead = plane.point_along(me.centre, far, distance)
            there = me.at(me.base.placed(ahead))
            if not board.holds(there.shape):
                break  # our reading: a base retires no further than the table's edge
            point = ahead
            if not any(in_contact(there, e, reach) for e in enemies):
                break
        entry["at"] = list(point)
        entry["markers"] += 1
        moved[bid] = list(point)
    if moved:
        events.append({"type": "retired", "section": "C7", "to": moved})
