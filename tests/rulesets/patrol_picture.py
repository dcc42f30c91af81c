"""The `patrol` fixture's picture adapter: its view drawn as a table (`pbem.render.table`)."""

from __future__ import annotations

from typing import Any, Mapping

from pbem.geometry.tablemap import TableMap
from pbem.render.adapters import Adapter, Figure, TableAction, TablePicture


class PatrolAdapter(Adapter):
    ruleset_id = "patrol"
    sides = ("red", "blue")

    def __init__(self, table: TableMap, squads: Mapping[str, str]) -> None:
        self.table = table
        self.squads = squads

    def picture(self, view: Mapping[str, Any]) -> TablePicture:
        side = view["side"]
        state = view["state"]
        figures = [Figure(uid=bid, side=self.squads[e["squad"]], centre=(e["at"][0], e["at"][1]),
                          facing=e["facing"], width=30, depth=30, unit=e["squad"],
                          own=self.squads[e["squad"]] == side)
                   for bid, e in sorted(state["bases"].items())]
        actions = []
        for event in view.get("events", []):
            if event["type"] == "moved" and "path" in event:
                actions.append(TableAction("move", event["side"], tuple((p[0], p[1]) for p in event["path"]),
                                           detail=self.sentence(event, view) or "", units=(event["squad"],)))
            elif event["type"] == "fire":
                bases = state["bases"]
                firers = tuple((bases[b]["at"][0], bases[b]["at"][1]) for b in event["firers"] if b in bases)
                target = bases.get(event["target"])
                if firers and target is not None:
                    actions.append(TableAction("fire", event["side"], firers, (target["at"][0], target["at"][1]),
                                               label=" ".join(str(r) for r in event["rolls"])
                                               + (" hit" if event["hit"] else ""),
                                               detail=self.sentence(event, view) or "", units=(event["squad"],)))
        lost = [(bid, self.squads[squad], "destroyed") for bid, squad in sorted(state["lost"].items())]
        return TablePicture(self.table, figures=figures, actions=actions, off_table=lost)

    def sentence(self, event: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
        if event["type"] == "fire":
            result = "and hit it" if event["hit"] else "and missed"
            return (f"{event['squad']} fired at {event['target']} (rolls {event['rolls']}) {result}"
                    f" ({event['section']})")
        if event["type"] == "moved":
            stop = f", stopped by {event['stopped_by']}" if "stopped_by" in event else ""
            return f"{event['squad']} moved{stop} ({event['section']})"
        return None
