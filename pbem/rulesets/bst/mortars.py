"""Light mortars (W6, W7, W8): the platoon leader's order, and one bomb each activation.

A leader calls its mortar (`act: call-mortar`, a form of firing: the leader resolves its
markers at 5+ and may not call when suppressed). It must see the aim, a point or an enemy
base, and stand within 30 cm of the mortar; the aim lies on the table, 10 to 100 cm from the mortar (flares alone: no minimum). The
order (the aim and the rounds, H.E., smoke or flare, in order) replaces any earlier one; it is
the bookkeeping the text asks for, shown to its own side only (the other side sees that an
order was given, and each bomb as it lands: fog.py). A mortar whose unit has not activated fires the
first round at once, and that is its unit's activation for the turn (docs/bst.md, W6); then it fires one round each time its unit activates, unless it hunkers
down (allowed with 4 or more markers) or must set up (W3). Each bomb deviates (W7: one die
for the direction, one die of cm when the mortar sees the aim, two when it does not); an
H.E. bomb puts 6 markers on every base under its template (a base's size, W8) and 4 on every
base within a base width of it; a smoke bomb lays a screen (W9); a flare (W6 names it, and
nothing more: the rules have no night) deviates and lands, and does nothing else. An order aimed at a base
lapses when the mortar no longer sees it.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.ruleset import Event, State
from pbem.geometry import plane

from . import mortar
from .context import Context
from .sight import sees
from .smoke import lay

ROUNDS = ("he", "smoke", "flare")


def aim_point(state: Mapping[str, Any], aim: Any) -> plane.Point | None:
    """The point an aim names (a base's centre), or None when the base is gone."""
    if isinstance(aim, str):
        base = state["bases"].get(aim)
        return None if base is None else (base["at"][0], base["at"][1])
    return aim[0], aim[1]


def seen(context: Context, eye: plane.Base, state: Mapping[str, Any], aim: Any) -> bool:
    """Whether `eye` sees the aim (a base, or a point as a speck there)."""
    point = aim_point(state, aim)
    if point is None:
        return False
    target = context.stand(aim, state["bases"][aim]).base if isinstance(aim, str) else plane.Base(point, 0, 2, 2)
    return sees(context.table, eye, target)


def fire_round(context: Context, state: State, bid: str, dice: Dice, events: list[Event]) -> None:
    """W6-W9: the mortar fires the next round of its order."""
    order = state["mortars"].get(bid)
    if order is None or bid not in state["bases"]:
        return
    gun = context.stand(bid, state["bases"][bid])
    point = aim_point(state, order["aim"])
    if point is None or (isinstance(order["aim"], str) and not seen(context, gun.base, state, order["aim"])):
        del state["mortars"][bid]
        events.append({"type": "mortar-lapsed", "section": "W6", "mortar": bid})
        return
    direction = dice.die(6, f"W7 {bid} bomb direction")
    count = 1 if seen(context, gun.base, state, order["aim"]) else 2
    distance = [dice.die(6, f"W7 {bid} bomb distance") for _ in range(count)]
    landing = mortar.landing(context.tables, gun.centre, point, direction, sum(distance))
    kind = order["rounds"].pop(0)
    if not order["rounds"]:
        del state["mortars"][bid]
    section = {"he": "W8", "smoke": "W9"}.get(kind, "W6")
    event: Event = {"type": "bomb", "section": section, "mortar": bid, "kind": kind,
                    "aim": list(point), "direction": direction, "distance": distance, "landing": list(landing)}
    if kind == "flare":  # W6 names the round and gives it no effect: with no night rules it lights nothing
        events.append(event)
        return
    if kind == "smoke":
        events.append(event)
        lay(context, state, landing, events)
        return
    size = context.tables.number("base_size")
    template = plane.Base(landing, plane.bearing(gun.centre, point), size, size).shape
    marked: dict[str, int] = {}
    for stand in context.stands(state):
        if plane.overlap(template, stand.shape):
            marked[stand.id] = context.tables.number("he_markers")
        elif plane.within(template, stand.shape, context.tables.number("contact")):
            marked[stand.id] = context.tables.number("he_near_markers")
    for target, n in marked.items():
        state["bases"][target]["markers"] += n
    event["markers"] = marked
    events.append(event)
