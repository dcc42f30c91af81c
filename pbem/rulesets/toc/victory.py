"""How to win (4.1-4.5) and conceding (5.4)."""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import State
from pbem.rulesets.kit.stacks import occupied, on_map

from .context import Context
from .zoc import cut_off


def first_day(ctx: Context, state: State) -> dict[str, Any] | None:
    """4.2: at the end of turn 7 the German player wins by holding all six south-bank bridge hexes."""
    bridges = list(ctx.hexes.set("bridges"))
    control = set(state["control"])
    held = [h for h in bridges if h in control]
    if bridges and len(held) == len(bridges):
        return {"winner": "german", "section": "4.2", "reason": "the German side holds all six canal bridge hexes "
                                                                "at the end of turn 7", "bridges": bridges}
    return None


def tally(ctx: Context, state: State, *, final: bool = False) -> dict[str, Any]:
    """4.3-4.5: the dead pile (surrounded eliminations twice, cut-off units at the end), exits, Bavai, VP."""
    dead: list[str] = []
    surrounded: list[str] = []
    exited: list[str] = []
    for uid, unit in state["units"].items():
        if ctx.counters[uid].side != "british":
            continue
        if unit["status"] == "eliminated":
            (surrounded if unit.get("surrounded") else dead).append(uid)
        elif unit["status"] == "exited":
            exited.append(uid)
    cut: list[str] = []
    if final:
        german = occupied(state, ctx.side_of, "german")
        cut = sorted(uid for uid, hex_id in on_map(state, ctx.side_of, "british").items()
                     if cut_off(ctx, hex_id, german))
    count = len(dead) + 2 * len(surrounded) + len(cut)
    control = set(state["control"])
    bavai = all(h in control for h in ctx.hexes.set("bavai"))
    exits_allowed = int(ctx.tables["exits_allowed"])
    vp = {"bavai": 1 if bavai else 0,
          "dead_pile": count // int(ctx.tables["dead_pile_per_vp"]),
          "exits": 1 if len(exited) <= exits_allowed else 0}
    return {"dead": sorted(dead), "surrounded": sorted(surrounded), "cut_off": cut, "dead_pile": count,
            "exited": sorted(exited), "bavai": bavai, "vp": vp, "total": sum(vp.values())}


def final(ctx: Context, state: State) -> dict[str, Any]:
    """4.3: at the end of turn 14 the German player wins with two VP or more, else the British player."""
    found = tally(ctx, state, final=True)
    german = found["total"] >= int(ctx.tables["vp_to_win"])
    return {"winner": "german" if german else "british", "section": "4.3",
            "reason": f"the German side has {found['total']} victory points at the end of turn "
                      f"{ctx.tables['last_turn']}", "tally": found}


def concede(side: str) -> dict[str, Any]:
    winner = "british" if side == "german" else "german"
    return {"winner": winner, "section": "5.4", "reason": f"the {side} player conceded"}
