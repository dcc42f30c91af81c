"""Bombardment (11.1-11.5), its drift and the events that change it (5.2, 7.2, 7.3, 7.10, 13.4).

`{bombard: "2136", markers: [heavy-1, light-2], spotter: G07}` puts markers on an enemy
hex (11.1) that the spotter reaches with a normal LOF within its own range (11.2). Each
marker serves once per phase (11.5); with play balance the German may use only the markers
drawn for the phase (13.4). Once every marker is placed, each one drifts (11.3): a die minus
5 (US) or 4 (German), never below zero, that many hexes north (US) or south (German); the
artillery-problem events subtract 4 and 3 instead (7.2, 7.3); there is no drift on the first
turn (5.2) nor for the side a Superb Artillery Spotting event favours (7.10). A marker drifting
off the map is lost (11.3). The markers that end in the same hex are resolved together like
one fire (11.4 sends to 10.10): their total strength against the hex's defence, a die per unit
in the hex, friend or foe (11.3). Bombardment never advances (11.4).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.listing import compact
from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import stack

from .board import Board, lof_problem
from .context import Context
from .fire import combat_results, hexes_in_sight, own_on_map
from .setup import map_extent


def marker_names(cfg: Context) -> list[str]:
    table = cfg.tables["bombardment"]
    return ([f"heavy-{n}" for n in range(1, int(table["heavy_count"]) + 1)]
            + [f"light-{n}" for n in range(1, int(table["light_count"]) + 1)])


def strength(cfg: Context, marker: str) -> int:
    weight = marker.split("-")[0]
    return int(cfg.tables["bombardment"][f"{weight}_strength"])


def available(cfg: Context, markers: dict[str, Any], side: str) -> list[str]:
    """11.1; 13.4: the markers drawn for this German phase when deterioration applies."""
    drawn = (markers or {}).get(side)
    return list(drawn) if drawn is not None else marker_names(cfg)


def validate(board: Board, orders: list[Any], markers: dict[str, Any]) -> list[Problem]:
    cfg = board.cfg
    problems: list[Problem] = []
    usable = available(cfg, markers, board.side)
    used: set[str] = set()
    for index, order in enumerate(orders):
        if "bombard" not in order:
            continue
        target = order["bombard"]
        for k, marker in enumerate(order["markers"]):
            if marker not in marker_names(cfg):
                problems.append(Problem(f"there is no marker {marker!r}", order=index, path=("markers", k),
                                        section="11.1", legal=", ".join(marker_names(cfg))))
            elif marker not in usable:
                problems.append(Problem(f"{marker} was not drawn for this phase", order=index, path=("markers", k),
                                        section="13.4", legal=", ".join(usable) or "none"))
            elif marker in used:
                problems.append(Problem(f"{marker} is already used this phase", order=index, path=("markers", k),
                                        section="11.5", legal="each marker once per bombardment phase"))
            used.add(marker)
        if not cfg.on_map(target):
            problems.append(Problem(f"{target} is not on the map", order=index, path=("bombard",), section="11.1",
                                    legal=map_extent(cfg)))
            continue
        if not board.enemy_at(target):
            problems.append(Problem(f"{target} holds no enemy unit", order=index, path=("bombard",), section="11.1",
                                    legal=hexes_in_sight(board, [order["spotter"]], lambda uid: cfg.counters[uid].range,
                                                         f"the spotter {order['spotter']}")))
            continue
        spotter = order["spotter"]
        if not board.on_map(spotter):
            problems.append(Problem(f"{spotter} is not one of your units on the map", order=index,
                                    path=("spotter",), section="11.2", legal=own_on_map(board)))
            continue
        found = lof_problem(cfg, board.turn, board.effects, board.hex_of(spotter), target,
                            cfg.counters[spotter].range)
        if found:
            problems.append(Problem(f"{spotter} cannot spot {target}: {found[1]}", order=index, path=("spotter",),
                                    section="11.2" if found[0] in ("10.6", "10.8") else found[0],
                                    legal=spotters_of(board, target)))
    return problems


def spotters_of(board: Board, target: str) -> str:
    """11.2: the side's own units on the map that see `target` within their range, for a refusal's legal."""
    cfg = board.cfg
    found = [uid for uid in sorted(board.own) if board.on_map(uid) and lof_problem(
        cfg, board.turn, board.effects, board.hex_of(uid), target, cfg.counters[uid].range) is None]
    return (f"a unit of yours that sees {target} within its range: {compact(found)}" if found
            else f"none: no unit of yours sees {target} within its range")


def drift_subtract(cfg: Context, effects: dict[str, Any], side: str) -> int:
    table = cfg.tables["drift_subtract"]
    if effects.get(f"{side}_problems"):
        return int(table[f"{side}_problems"])
    return int(table[side])


def resolve(cfg: Context, state: State, side: str, orders: list[dict[str, Any]], dice: Dice,
            events: list[dict[str, Any]]) -> None:
    placed: list[tuple[str, str]] = []
    for order in orders:
        if "bombard" not in order:
            continue
        placed += [(marker, order["bombard"]) for marker in order["markers"]]
        events.append({"type": "bombard", "side": side, "section": "11.2", "target": order["bombard"],
                       "markers": list(order["markers"]), "spotter": order["spotter"]})
    if not placed:
        return
    effects = state["effects"]
    no_drift = state["turn"] == 1 or effects.get("no_drift") == side
    subtract = drift_subtract(cfg, effects, side)
    compass = "S" if side == "german" else "N"
    finals: dict[str, list[str]] = {}
    order_of: list[str] = []
    for marker, target in placed:
        roll = None
        drift = 0
        if not no_drift:
            roll = dice.die(6, f"11.3 drift of the {side} {marker} aimed at {target}")
            drift = max(0, roll - subtract)
        final = cfg.step(target, compass, drift) if drift else target
        section = "5.2" if state["turn"] == 1 else "7.10" if no_drift else "11.3"
        events.append({"type": "drift", "side": side, "section": section,
                       "marker": marker, "target": target, "roll": roll, "drift": drift, "final": final,
                       "lost": final is None})
        if final is None:
            continue
        if final not in finals:
            finals[final] = []
            order_of.append(final)
        finals[final].append(marker)
    for hex_id in order_of:
        markers = finals[hex_id]
        total = sum(strength(cfg, m) for m in markers)
        victims = list(reversed(stack(state, hex_id, cfg.side_of)))  # top first, either side
        defense = cfg.defense(hex_id) if not cfg.impassable(hex_id) else 0
        odds = total // defense if defense else 0
        event: dict[str, Any] = {"type": "bombardment", "side": side, "section": "11.4", "hex": hex_id,
                                 "markers": markers, "strength": total, "defense": defense, "odds": odds,
                                 "results": []}
        events.append(event)
        label = f"11.4 {side} bombardment of {hex_id} at {odds}:1, unit {{position}} of {len(victims)}"
        if combat_results(state, cfg, dice, event, victims, odds, label, events):
            return
