"""Bots for both sides, from the side's view alone (docs/writing-a-ruleset.md, step 4).

The moving side advances its infantry toward the enemy's home edge (a rush when no enemy is
in sight) until an enemy is within 150 yards, its flamethrowers on toward the nearest enemy,
keeps machine guns and guns still so they can fire, and sets up its trench mortars; the other
side's machine guns pass fire at any mover (the default standing answer). In the fire phase a
flamethrower with fuel burns the nearest enemy it reaches, every other unit that can fires at the
closest enemy it has a line of fire to, jammed machine guns try to clear, and an air strike goes
in on the first enemy base in sight. Every order is checked with the rules'
own check first, so a bot never sends an order the referee refuses.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.core.ruleset import State
from pbem.geometry import plane

from . import fire, movement
from .context import Context
from .state import bases_of, units_of

KEEP_STILL = ("machine-gun", "gun", "mortar")


def pick(seed: bytes, label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:8], "big") % n


def orders(context: Context, view: State, side: str, seed: bytes) -> list[Any]:
    phasing = context.phasing(view["turn"])
    if view["phase"].endswith("-move"):
        return moves(context, view, side, seed) if side == phasing else []
    return fires(context, view, side, phasing)


def enemies(view: State, side: str) -> list[str]:
    return [uid for uid, unit in sorted(view["units"].items()) if unit["side"] != side and unit["status"] == "active"]


def centre(view: State, uid: str) -> tuple[int, int]:
    bases = list(bases_of(view, uid).values())
    return (sum(int(b["at"][0]) for b in bases) // len(bases), sum(int(b["at"][1]) for b in bases) // len(bases))


def moves(context: Context, view: State, side: str, seed: bytes) -> list[Any]:
    out: list[Any] = []
    foes = enemies(view, side)
    ahead = context.table.depth if context.table.edges.get(side) == "south" else 0
    for uid, unit in units_of(view, side):
        kind = context.type_of(unit)
        if any(w.setup for w in kind.weapons):
            if not unit["set_up"] and not unit["bound"]:
                out.append({"set_up": uid})
            continue
        if kind.cls in KEEP_STILL or not kind.weapons and not kind.recon:
            continue
        here = centre(view, uid)
        near = min(((plane.dist2(here, centre(view, e)), e) for e in foes), default=None)
        burning = any(b["flame"] and b["fuel"] for b in bases_of(view, uid).values())
        if near is not None and burning:
            closing = {"move": uid, "toward": list(centre(view, near[1])), "distance": "max"}
            if not movement.check_move(context, view, side, closing, len(out)):
                out.append(closing)
            continue
        if near is not None and near[0] <= 150 * 150:
            continue  # close enough to fire
        goal = [here[0] + pick(seed, f"{uid} x", 41) - 20, ahead]
        order: dict[str, Any] = {"move": uid, "toward": goal, "distance": "max",
                                 "mode": "walk" if foes else "rush", "face": 0 if ahead else 180}
        if not movement.check_move(context, view, side, order, len(out)):
            out.append(order)
    return out


def flames(context: Context, view: State, side: str, uid: str, targets: list[str], index: int) -> list[Any]:
    """A flamethrower base with fuel burns the nearest enemy it can reach (3.7)."""
    for bid, base in bases_of(view, uid).items():
        if base["flame"] and base["fuel"]:
            for target in targets:
                order = {"flame": target, "unit": uid, "base": bid}
                if not fire.check_flame(context, view, side, order, index):
                    return [order]
    return []


def fires(context: Context, view: State, side: str, phasing: str) -> list[Any]:
    out: list[Any] = []
    foes = enemies(view, side)
    for uid, unit in units_of(view, side):
        if unit["jammed"]:
            order: dict[str, Any] = {"unjam": uid}
            if not fire.check_unjam(context, view, side, order, len(out)):
                out.append(order)
            continue
        kind = context.type_of(unit)
        if not kind.weapons or unit["marked"] or not foes:
            continue
        here = centre(view, uid)
        nearest = sorted(foes, key=lambda e: (plane.dist2(here, centre(view, e)), e))
        flamed = flames(context, view, side, uid, nearest, len(out))
        out += flamed
        if flamed:
            continue
        for target in nearest:
            order = {"fire": target, "unit": uid}
            if side != phasing and kind.cls not in KEEP_STILL:
                order["moving"] = True
            if not fire.check_fire(context, view, side, order, len(out), phasing):
                out.append(order)
                break
    if side == phasing and int(view["air_strikes"].get(side, 0)) > 0 and foes:
        at = centre(view, foes[0])
        north = context.table.edges.get(side) == "south"
        order = {"air_strike": {"at": [at[0], max(20, at[1] - 60) if north else min(context.table.depth - 20,
                                                                                    at[1] + 60)],
                                "facing": 0 if north else 180}}
        if not fire.check_air(context, view, side, order, len(out), phasing):
            out.append(order)
    return out
