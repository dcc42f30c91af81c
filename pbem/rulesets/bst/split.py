"""Split up units (O3): bases that must keep together, parted by opportunity fire.

The bases a unit's command type keeps in contact (M2: the rifles of types B and C, every
base of type D; type A keeps none together) can be parted when a hit stops some of them in
the open and the others finish the move (O2). The state's `split` then names the unit and
where it stands (docs/bst.md, "Exact readings", O3):

A move order's `split: stay` keeps the group's movers with a base that a hit stops (the
text lets them finish their move, and `go`, the default, does).

- `new`: parted during this activation;
- `cover`: its next activation: a base of the group may move only if it ends with some
  part in cover (an area or line that covers), otherwise it stays;
- `rejoin`: from then on a base of the group moves only to close up: a move that could
  bring it back into contact must do so; from further away it goes straight toward the
  nearest base of the group it is parted from.

At the end of each of the unit's activations the mark moves on (`new` to `cover`, `cover` to
`rejoin`), and it is gone once the group is in contact again.
"""

from __future__ import annotations

from math import isqrt
from typing import Any, Mapping, Sequence

from pbem.core.ruleset import Event, State
from pbem.geometry import plane

from .command import RIFLES, connected
from .context import Context
from .cover import near_cover
from .movement import penalty
from .stands import Stand, linked

NEXT = {"new": "cover", "cover": "rejoin", "rejoin": "rejoin"}


def together(context: Context, unit: str, stands: Sequence[Stand]) -> list[Stand]:
    """M2: the unit's bases that must stay in contact with one another."""
    kind = context.units[unit].command
    if kind in ("B", "C"):
        return [s for s in stands if s.unit == unit and s.weapon in RIFLES]
    if kind == "D":
        return [s for s in stands if s.unit == unit]
    return []


def parted(context: Context, unit: str, stands: Sequence[Stand]) -> bool:
    return not connected(together(context, unit, stands), context.tables.number("contact"))


def stay_with(context: Context, stands: Sequence[Stand], moving: Sequence[str]) -> dict[str, list[str]]:
    """O3: with `split: stay` a base of a group that is stopped by a hit keeps the group's
    other movers with it (the text lets them finish the move: they MAY)."""
    out: dict[str, list[str]] = {}
    for unit in sorted({s.unit for s in stands if s.id in moving}):
        group = [s.id for s in together(context, unit, stands) if s.id in moving]
        for bid in group:
            out[bid] = [mate for mate in group if mate != bid]
    return out


def after_move(context: Context, state: State, unit: str, before: Sequence[Stand], events: list[Event]) -> None:
    """O3: a group in contact before a move that opportunity fire stopped part of, and parted
    after it, is split."""
    if unit in state["split"] or parted(context, unit, before) or not parted(context, unit, context.stands(state)):
        return
    state["split"][unit] = "new"
    events.append({"type": "split", "section": "O3", "unit": unit})


def after_activation(context: Context, state: State, unit: str, events: list[Event]) -> None:
    """O3: the mark moves on, or goes when the group is in contact again (or gone)."""
    stage = state["split"].get(unit)
    if stage is None:
        return
    if len(together(context, unit, context.stands(state))) < 2 or not parted(context, unit, context.stands(state)):
        del state["split"][unit]
        events.append({"type": "rejoined", "section": "O3", "unit": unit})
        return
    state["split"][unit] = NEXT[stage]


def move_problems(context: Context, state: Mapping[str, Any], unit: str, moving: Sequence[str],
                  after: Mapping[str, Stand]) -> list[tuple[str, str]]:
    """O3: (message, what is legal) for each moving base of a split unit's group that breaks
    the stage's rule; `after` holds every base of the unit where the move leaves it."""
    stage = state.get("split", {}).get(unit)
    if stage not in ("cover", "rejoin"):
        return []
    before = [context.stand(bid, entry) for bid, entry in sorted(state["bases"].items()) if entry["unit"] == unit]
    group = {s.id for s in together(context, unit, before)}
    movers = [bid for bid in moving if bid in group]
    if stage == "cover":
        return [(f"{unit} was split (O3): {bid} may move this activation only to reach cover",
                 "a move that ends with part of the base in cover, or no move")
                for bid in movers if not near_cover(context.table, after[bid].base, 0)]
    if not parted(context, unit, [after[bid] for bid in sorted(after)]):
        return []
    found = []
    contact = context.tables.number("contact")
    reach = context.tables.number("move")
    start = {s.id: s for s in before}
    for bid in movers:
        part = {s.id for s in linked(start[bid], [s for s in before if s.id in group], contact)}
        others = [start[o] for o in sorted(group - part)]
        if not others:
            continue
        nearest = min(others, key=lambda s: (plane.distance2(start[bid].shape, s.shape), s.id))
        gap = plane.distance_floor(start[bid].shape, nearest.shape)
        if gap - contact <= reach - penalty(context.table, [start[bid].centre, nearest.centre]):  # M3: cover costs
            found.append((f"{unit} is split (O3): {bid} can get back into contact, so its move must do so",
                          f"a move that ends in contact with {nearest.id}"))
            continue
        was = isqrt(plane.dist2(start[bid].centre, nearest.centre))
        now = isqrt(plane.dist2(after[bid].centre, nearest.centre))
        moved = isqrt(plane.dist2(start[bid].centre, after[bid].centre))
        if now > was - moved + context.tables.number("split_slack"):
            found.append((f"{unit} is split (O3): {bid} may only move straight toward {nearest.id}",
                          f"toward: {list(nearest.centre)}"))
    return found
