"""Sustained fire (W4): an HMG sweeping its arc until its next activation.

An HMG that declares `act: sustain` resolves its markers at 5+ and, still able to fire, is
marked (the `sustained` flag). Until its unit next activates or holds, every base that
moves through its arc of fire (45 degrees either side, F2) within its range and in its sight
(pbem's reading) takes 2 fire markers where it first enters, friend or foe, each HMG once per
move; a mover in the open there is then treated as under opportunity fire (O2). For each base
it marks the HMG rolls a die: on a 1 it is unloaded (W3) and its sustained fire ends.

A tank's machine guns are HMGs (V4) and may sustain too: the hull gun sweeps the front arc,
the pintle gun (unbuttoned only) all round, 2 markers for each gun that bears; a tank never
needs setting up, so a 1 on its belt roll only ends the sweep (pbem's reading, docs/bst.md).
"""

from __future__ import annotations

from pbem.core.chance import Dice
from pbem.core.ruleset import Event, State
from pbem.geometry import plane

from . import fire
from .context import Context
from .opfire import Mover, any_in_open, moving_hit
from .sight import sees


def sweep(context: Context, state: State, mover: Mover, length: int, dice: Dice, events: list[Event]) -> None:
    """W4: every sustaining HMG marks the movers that cross its arc."""
    step = context.tables.number("opfire_step")
    points = list(range(0, length, step)) + [length]
    hits: list[tuple[int, str, str, int]] = []
    for hmg in context.stands(state):
        if not state["bases"][hmg.id].get("sustained") or hmg.id in mover.start:
            continue
        reach = context.tables.weapon(hmg.weapon).range
        arc = fire.arc_of(context.tables, hmg)
        for bid in sorted(mover.start):
            for distance in points:
                if bid not in mover.moving(distance):
                    break
                there = mover.at(bid, distance)
                guns = (len(fire.machine_guns(context.tables, hmg, there.shape)) if hmg.vehicle is not None
                        else int(arc.touches(there.shape)))
                if guns and plane.distance2(hmg.shape, there.shape) <= reach * reach \
                        and sees(context.table, hmg.base, there.base):
                    hits.append((distance, hmg.id, bid, 2 * guns))
                    break
    for distance, hmg_id, bid, markers in sorted(hits):
        if hmg_id not in state["bases"] or not state["bases"][hmg_id].get("sustained") or bid not in state["bases"]:
            continue
        state["bases"][bid]["markers"] += markers
        roll = dice.die(6, f"W4 {hmg_id} belt")
        unloaded = roll == 1 and not state["bases"][hmg_id].get("vehicle")  # V4: a tank is never unloaded
        if roll == 1:
            state["bases"][hmg_id]["sustained"] = False
        if unloaded:
            state["bases"][hmg_id]["unloaded"] = True
        events.append({"type": "swept", "section": "W4", "hmg": hmg_id, "base": bid, "at": distance,
                       "markers": markers, "roll": roll, "unloaded": unloaded})
        sweeper = [context.stand(hmg_id, state["bases"][hmg_id])]
        moving_hit(context, state, sweeper, mover, bid, distance, any_in_open(context, sweeper, mover, distance),
                   dice, events)
