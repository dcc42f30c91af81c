"""The picture adapter: a side's view drawn on the table (`pbem.render.table`).

It reads only the view: own bases and the enemy bases the side sees, the moves and fires of
the last adjudication as the view's events hold them, and the side's own lost bases.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.geometry.plane import Shape
from pbem.render.adapters import Adapter, Figure, TableAction, TableMark, TablePicture

from .context import SIDES, Context

FIGURE_KIND = {"infantry": "infantry", "cavalry": "cavalry", "machine-gun": "mg", "mortar": "mortar", "gun": "gun",
               "tank": "armour", "armoured-car": "vehicle"}  # a tank's base carries the armour symbol


class Wtj1916Adapter(Adapter):
    ruleset_id = "wtj1916"
    sides = SIDES

    def __init__(self, context: Context) -> None:
        self.context = context

    def picture(self, view: Mapping[str, Any]) -> TablePicture:
        side = view["side"]
        state = view["state"]
        units, bases = state["units"], state["bases"]
        figures, marks = [], []
        for bid, base in sorted(bases.items()):
            unit = units[base["unit"]]
            kind = self.context.type_of(unit)
            flags = tuple(name for name in ("prone", "rushed", "damaged", "immobilized") if base.get(name))
            flags += tuple(name for name in ("moved", "marked", "jammed", "set_up") if unit.get(name))
            figures.append(Figure(uid=bid, side=unit["side"], centre=(base["at"][0], base["at"][1]),
                                  facing=base["facing"], width=kind.width, depth=kind.depth,
                                  kind=FIGURE_KIND.get(kind.cls, "infantry"), unit=base["unit"],
                                  own=unit["side"] == side, flags=flags, note=kind.name))
            for flag in ("damaged", "immobilized", "prone"):
                if base.get(flag):
                    marks.append(TableMark(flag, on=bid, label=flag[0].upper(), side=unit["side"], detail=flag))
            if unit.get("marked"):
                marks.append(TableMark("passing-fire", on=bid, label="PF", side=unit["side"],
                                       detail="passed fire: no fire this fire phase (3.7)"))
        actions = []
        for event in view.get("events", []):
            action = self._action(event, view)
            if action is not None:
                actions.append(action)
        lost = [(bid, side, "destroyed") for bid in sorted(state.get("lost", {}))]
        return TablePicture(self.context.table, figures=figures, marks=marks, actions=actions, off_table=lost)

    def _action(self, event: Mapping[str, Any], view: Mapping[str, Any]) -> TableAction | None:
        bases = view["state"]["bases"]
        detail = self.sentence(event, view) or ""
        if event["type"] == "move" and "path" in event:
            return TableAction("move", event["side"], tuple((p[0], p[1]) for p in event["path"]), detail=detail,
                               units=(event["unit"],))
        if event["type"] in ("fire", "artillery", "flame"):
            firers = [event.get("base")] if event.get("base") else list(event.get("firing", []))
            points = tuple((bases[b]["at"][0], bases[b]["at"][1]) for b in firers if b in bases)
            aim = [b for b, e in sorted(bases.items()) if e["unit"] == event["target"]]
            if not points or not aim:
                return None
            label = event.get("result", "")
            return TableAction("fire", event["side"], points, (bases[aim[0]]["at"][0], bases[aim[0]]["at"][1]),
                               label=str(label), detail=detail, units=(event["unit"], event["target"]))
        if event["type"] == "air-strike":
            return TableAction("template", event["side"], area=Shape(tuple((p[0], p[1]) for p in event["zone"]),
                                                                     closed=True), label="air strike", detail=detail)
        return None

    def state_lines(self, view: Mapping[str, Any]) -> list[str]:
        state = view["state"]
        score = state.get("score", {})
        lines = [f"bases destroyed (F3): british {score.get('british', 0)}, german {score.get('german', 0)}"]
        strikes = state.get("air_strikes", {})
        if any(strikes.values()):
            lines.append("air strikes left (3.7): " + ", ".join(f"{s} {n}" for s, n in sorted(strikes.items())))
        return lines

    def sentence(self, event: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
        kind = event["type"]
        hits = ", ".join(f"{h['base']} {h['result']}" for h in event.get("hits", [])) or "no loss"
        if "jam_roll" in event:
            hits += f"; jam check {event['jam_roll']}" + (": jammed" if event.get("jammed") else ": no jam")
        if kind == "move":
            return f"{event['unit']} moved ({event['section']})"
        if kind == "fire":
            mods = ", ".join(f"{k} {v:+d}" for k, v in sorted(event.get("modifiers", {}).items()))
            total = f" = {event['total']}" if "total" in event else ""
            return (f"{event['unit']} fired at {event['target']}: roll {event['roll']}"
                    + (f" ({mods})" if mods else "") + f"{total}: {event['result']}; {hits} (3.1, 3.5)")
        if kind == "artillery":
            return (f"{event.get('base', event['unit'])} fired at {event['target']}: hit dice {event['hit_dice']}, "
                    f"{'hit' if event['hit'] else 'miss'}; kill die {event['kill_die']}: {event['result']}; {hits} "
                    "(3.2, 3.6)")
        if kind == "flame":
            return f"{event['unit']} used a flamethrower on {event['target']}: {hits} (3.7)"
        if kind == "air-strike":
            return f"an air strike by {event['side']}: {len(event['rolls'])} bases rolled for (3.7)"
        if kind == "unjam":
            return f"{event['unit']} {'cleared' if event['cleared'] else 'did not clear'} its jam (3.7)"
        if kind == "fire-void":
            return f"{event['unit']} could not fire: {event['why']} ({event['section']})"
        if kind == "set-up":
            return f"{event['unit']} set up (3.7)"
        return None
