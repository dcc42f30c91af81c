"""Opportunity fire (O1, O2, O4) from the reacting side's standing answers.

While a unit moves, every unactivated enemy unit (a held one too, A1) may fire at it. The
reacting side does not write mail for this: its `standing: {opfire: {UNIT: TRIGGER}}` says
when each unit fires (docs/bst.md, "One exchange per activation"):

- `open-short` (the default): at the first point of the move where a moving base in the open
  comes within short range of a base of the unit that may fire at it;
- `any`: at the first point where a base of the unit may fire at a moving base;
- `{within: N}`: at the first point where a moving base it may fire at comes within N mm;
- `hold`: never; `ask`: a decision request when the unit could first fire (`hold` if it lapses).

The move is examined every `opfire_step` mm (assumed 5 mm) along its path; each unit fires
at its own first point (reading of O1 "any point of the move" and O4: a unit that could not
see the mover earlier fires where it first can). A unit that fires is activated; all its
bases resolve their markers at 5+ first (O1); the bases still able fire, without pivoting,
at the moving bases where they stand at that point. The movers hit then (O2): in cover (any
part of the base, and of every base moving with it: when one is in the open all are, O1)
they finish the move and keep the markers; in the open at short range, or
at long range more than 5 cm from cover, they resolve at once at 4+, and a pin, suppress or
kill stops the base there (the others go on: O3). A tank's main gun fires at a moving vehicle
as in its own activation (V2: front arc, gun range, the same dice), resolved at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, Event, State, standing_answer
from pbem.geometry import plane

from . import fire
from .context import Context
from .cover import near_cover, partly_in_cover
from .extras import EXTRA
from .stands import Stand, within_reach
from .vehicles import gun_shot

TRIGGERS = ("open-short", "any", "hold", "ask")
STANDING_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "close_combat": {
            "type": "object", "maxProperties": 100, "propertyNames": {"pattern": "^[a-z][a-z0-9-]{0,15}$"},
            "additionalProperties": {"enum": ["hunker", "fire", "ask"]},
            "description": "C2: per unit, what it does when enemies close into contact (default hunker)"},
        "opfire": {
            "type": "object", "maxProperties": 100, "propertyNames": {"pattern": "^[a-z][a-z0-9-]{0,15}$"},
            "additionalProperties": {"oneOf": [
                {"enum": list(TRIGGERS)},
                {"type": "object", "additionalProperties": False, "required": ["within"],
                 "properties": {"within": {"type": "integer", "minimum": 1, "maximum": 5000}}}]},
            "description": "O1: per unit, when it gives opportunity fire at an enemy mover (default open-short)"},
    },
}


@dataclass
class Mover:
    """The moving bases: where each starts and the translation along the path; `stay_with`
    names, for a base, the movers that stop where it stops (O3: the order's `split: stay`)."""

    start: Mapping[str, Stand]
    path: Sequence[plane.Point]
    stopped: dict[str, int]
    stay_with: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def at(self, bid: str, distance: int) -> Stand:
        s = self.start[bid]
        d = min(distance, self.stopped.get(bid, distance))
        point = plane.point_along_path(list(self.path), d)
        dx, dy = point[0] - self.path[0][0], point[1] - self.path[0][1]
        return s.at(s.base.placed((s.centre[0] + dx, s.centre[1] + dy)))

    def moving(self, distance: int) -> list[str]:
        return [bid for bid in sorted(self.start) if bid not in self.stopped or self.stopped[bid] > distance]


def trigger_of(state: State, side: str, unit: str) -> Any:
    return standing_answer(state, side, "opfire", {}).get(unit, "open-short")


def able_at(context: Context, stands: Sequence[Stand], firers: Sequence[Stand], mover: Mover, distance: int,
            trigger: Any) -> list[tuple[Stand, Stand]]:
    """The (firer, moving base) pairs that meet the trigger with the movers `distance` along."""
    here = {s.id: s for s in stands}
    for bid in mover.start:
        here[bid] = mover.at(bid, distance)
    short = context.tables.number("short_range")
    pairs = []
    for bid in mover.moving(distance):
        target = here[bid]
        for firer in firers:
            if firer.vehicle is not None and target.vehicle is not None:
                reach = context.tables.vehicle(firer.vehicle).gun_range  # V2: the main gun
            else:
                reach = context.tables.weapon(firer.weapon).range
            if trigger == "open-short":
                reach = min(reach, short)
            elif isinstance(trigger, dict):
                reach = min(reach, trigger["within"])
            if not within_reach(firer.base, target.base, reach):  # the cheap test first: most pairs end here
                continue
            if trigger == "open-short" and partly_in_cover(context.table, firer.centre, target.base):
                continue
            if fire.refusal(context.table, context.tables, firer, target, list(here.values())) is not None:
                continue
            pairs.append((firer, target))
    return pairs


def first_point(context: Context, stands: Sequence[Stand], firers: Sequence[Stand], mover: Mover, length: int,
                trigger: Any) -> int | None:
    step = context.tables.number("opfire_step")
    for distance in list(range(0, length, step)) + [length]:
        if able_at(context, stands, firers, mover, distance, trigger):
            return distance
    return None


def react(context: Context, state: State, side: str, mover: Mover, length: int, dice: Dice, decisions: Decisions,
          events: list[Event]) -> None:
    """O1, O2, O4: the other side's units fire by their standing answers as the bases move;
    `mover.stopped` gets the bases stopped by hits."""
    from .activation import resolve_markers  # the activation module calls this one

    from .melee import contacts

    enemy = "axis" if side == "allies" else "allies"
    fighting = set(contacts(context, state))  # C2, O5: bases in close combat give no opportunity fire
    stands = [s for s in context.stands(state) if s.id not in mover.start]
    plans = []
    for unit in sorted(u for u, meta in context.units.items() if meta.side == enemy):
        firers = [s for s in stands if s.unit == unit and s.id not in fighting]
        trigger = trigger_of(state, enemy, unit)
        if unit in state["activated"] or not firers or trigger == "hold":
            continue
        point = first_point(context, stands, firers, mover, length, "any" if trigger == "ask" else trigger)
        if point is not None:
            plans.append((point, unit, trigger))
    for point, unit, trigger in sorted(plans):
        if trigger == "ask":
            # O1: the reacting player hears where the movers are going before choosing
            question = {"unit": unit, "movers": mover.moving(point), "at": point,
                        "path": [list(p) for p in mover.path],
                        "text": f"{unit} may give opportunity fire at {', '.join(mover.moving(point))} (O1)"}
            if decisions.ask(enemy, "opfire", "O1", question, ["hold", "fire"]) == "hold":
                continue
        state["activated"] = sorted({*state["activated"], unit})
        events.append({"type": "opportunity", "section": "O1", "unit": unit, "side": enemy, "at": point})
        for bid in sorted(b for b, e in state["bases"].items() if e["unit"] == unit):
            resolve_markers(context, state, bid, context.tables.to_hit("opportunity"), dice, events, "O1")
        fire_at(context, state, unit, mover, point, dice, events)


def fire_at(context: Context, state: State, unit: str, mover: Mover, point: int, dice: Dice,
            events: list[Event], section: str = "O1") -> None:
    """O1, O2: the unit's able bases fire at the movers where they are `point` along; under
    C2 (fire at bases closing into close combat) the movers do not resolve at once."""
    stands = [s for s in context.stands(state) if s.id not in mover.start]
    firers = [s for s in stands if s.unit == unit and state["bases"][s.id]["status"] != "suppressed"]
    if section == "C2":  # W5: an extra base, nominally rifles, fires only at enemies closing into close combat
        firers = [replace(s, weapon="rifles") if s.weapon == EXTRA else s for s in firers]
    pairs = able_at(context, stands, firers, mover, point, "any")
    guns = [(f, t) for f, t in pairs if f.vehicle is not None and t.vehicle is not None]
    if guns:
        main_guns(context, state, guns, mover, point, dice, events)
    pairs = [(f, t) for f, t in pairs if f.vehicle is None or t.vehicle is None]
    if not pairs:
        return
    shooting = sorted({f.id for f, _ in pairs})
    able = [f for f in firers if f.id in shooting]
    here = stands + [mover.at(bid, point) for bid in sorted(mover.start) if bid in state["bases"]]
    targets = [t for _, t in pairs]
    first = fire.first_target(able, targets)
    counts = {f.id: fire.markers_of(context.tables, f, first.base) or 0 for f in able}
    spread = fire.distribute(context.table, context.tables, able, first, here, sum(counts.values()))
    for bid, count in spread.markers.items():
        state["bases"][bid]["markers"] += count
    events.append({"type": "fired", "section": section, "unit": unit, "firers": counts, "target": first.unit,
                   "first": first.id, "chain": list(spread.chain), "dealt": dict(spread.dealt),
                   "markers": dict(spread.markers), "covered": list(spread.covered), "immediate": []})
    in_open = any_in_open(context, able, mover, point)  # before any of them stops
    for bid in mover.moving(point):
        if section == "O1" and bid in state["bases"] and spread.markers.get(bid):
            moving_hit(context, state, able, mover, bid, point, in_open, dice, events)


def main_guns(context: Context, state: State, pairs: Sequence[tuple[Stand, Stand]], mover: Mover, point: int,
              dice: Dice, events: list[Event]) -> None:
    """V2 in O1: each tank fires its main gun at the closest moving vehicle it may fire at
    (front arc, gun range, a buttoned tank's sight), with the dice of its own activation's
    shot; a mover knocked out stops there and leaves the table."""
    from .activation import remove

    tanks = {f.id: f for f, _ in pairs}
    for tid in sorted(tanks):
        tank = tanks[tid]
        moving = set(mover.moving(point))
        targets = [t for f, t in pairs if f.id == tid and t.id in moving and t.id in state["bases"]]
        if not targets:
            continue
        target = fire.first_target([tank], targets)
        event, knocked = gun_shot(context.tables, dice, tank, target)
        events.append(event)
        if knocked:
            mover.stopped[target.id] = point
            remove(context, state, target.id, events, "V2")


def any_in_open(context: Context, firers: Sequence[Stand], mover: Mover, point: int) -> bool:
    """O1: whether some base still moving `point` along has no part in cover from any of the
    firers; bases moving together are then all in the open."""
    return any(not any(partly_in_cover(context.table, f.centre, mover.at(bid, point).base) for f in firers)
               for bid in mover.moving(point))


def moving_hit(context: Context, state: State, firers: Sequence[Stand], mover: Mover, bid: str, point: int,
               in_open: bool, dice: Dice, events: list[Event]) -> None:
    """O2: a mover marked `point` along its move: in cover (and every base moving with it too,
    O1) it goes on; in the open at short range, or at long range more than 5 cm from cover, it
    resolves at once at 4+, and a hit stops it there."""
    from .activation import resolve_markers

    short = context.tables.number("short_range")
    target = mover.at(bid, point)
    if not in_open:
        return
    at_short = any(plane.distance2(f.shape, target.shape) <= short * short for f in firers)
    if not at_short and near_cover(context.table, target.base, context.tables.number("opfire_cover_reach")):
        return
    outcome = resolve_markers(context, state, bid, context.tables.to_hit("moving_in_open"), dice, events, "O2")
    if outcome is not None and (outcome.hits or outcome.removed):
        mover.stopped[bid] = point
        for mate in mover.stay_with.get(bid, ()):
            mover.stopped.setdefault(mate, point)
