"""bst's picture adapter: a side's view drawn as a table (`pbem.render.table`).

Every base with its fire markers, pin, suppress and Kill markers; the last adjudication's
moves and fire attacks; lost bases off the table; and each event as a sentence naming its
heading (labels of docs/bst.md).
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.geometry.tablemap import TableMap
from pbem.render.adapters import Adapter, Figure, TableAction, TableMark, TablePicture


class BstAdapter(Adapter):
    ruleset_id = "bst"
    sides = ("allies", "axis")

    def __init__(self, table: TableMap, sides_of: Mapping[str, str], size: int) -> None:
        self.table = table
        self.sides_of = sides_of
        self.size = size

    def picture(self, view: Mapping[str, Any]) -> TablePicture:
        side = view["side"]
        state = view["state"]
        figures: list[Figure] = []
        marks: list[TableMark] = []
        for bid, e in sorted(state["bases"].items()):
            owner = self.sides_of[e["unit"]]
            figures.append(Figure(uid=bid, side=owner, centre=(e["at"][0], e["at"][1]), facing=e["facing"],
                                  width=self.size, depth=self.size, unit=e["unit"], own=owner == side,
                                  note=e["weapon"]))
            if e["markers"]:
                marks.append(TableMark("fire", on=bid, count=e["markers"], side=owner,
                                       detail=f"{e['markers']} fire markers (F4)"))
            if e["status"] != "ok":
                marks.append(TableMark(e["status"], on=bid, side=owner, detail=f"{e['status']} (R1)"))
            if e.get("sustained"):
                marks.append(TableMark("sustained", on=bid, side=owner, label="SF", detail="sustained fire (W4)"))
            if e.get("unloaded"):
                marks.append(TableMark("unloaded", on=bid, side=owner, label="U", detail="unloaded (W3)"))
            if e["kills"]:
                marks.append(TableMark("kill", on=bid, side=owner, detail="a Kill marker (R1)"))
        actions = []
        bases = state["bases"]
        for event in view.get("events", []):
            owner = self.sides_of.get(event.get("unit", ""), "")
            if event["type"] == "moved":
                actions.append(TableAction("move", owner, tuple((p[0], p[1]) for p in event["path"]),
                                           detail=self.sentence(event, view) or "", units=tuple(event["bases"])))
            elif event["type"] == "fired":
                firers = tuple((bases[b]["at"][0], bases[b]["at"][1]) for b in event["firers"] if b in bases)
                target = bases.get(event["first"])
                if firers and target is not None:
                    placed = sum(event["markers"].values())
                    actions.append(TableAction("fire", owner, firers, (target["at"][0], target["at"][1]),
                                               label=f"{placed} markers", detail=self.sentence(event, view) or "",
                                               units=(event["unit"], event["target"])))
        lost = [(bid, self.sides_of[unit], "removed") for bid, unit in sorted(state["lost"].items())]
        card = state.get("card")
        notes = [f"turn {state.get('turn', 1)}; cards left {', '.join(state['deck']['left'])}"
                 + (f"; {card} drawn, {state.get('awaiting')} to order" if card else "")]
        return TablePicture(self.table, figures=figures, marks=marks, actions=actions, off_table=lost, notes=notes)

    def sentence(self, event: Mapping[str, Any], view: Mapping[str, Any]) -> str | None:
        kind = event["type"]
        where = f"({event['section']})"
        if kind == "drawn":
            return f"{event['card']} drawn: {event['unit']} of {event['side']} activates {where}"
        if kind == "joker":
            return f"the Joker ends turn {event['turn']}: every card back, every unit unactivated {where}"
        if kind == "queued":
            return f"{event['unit']} acts on its queued order {where}"
        if kind == "passed":
            return f"{event['card']} passed over: {event['unit']} already acted or has no bases {where}"
        if kind == "held":
            return f"{event['unit']} holds {where}"
        if kind == "resolved":
            return (f"{event['base']} resolves {event['markers']} fire markers at {event['to_hit']}+: "
                    f"{event['rolls']}, then {event['rethrows']}: {event['status']} {where}")
        if kind in ("recovered", "recovery-failed"):
            verb = "recovers" if kind == "recovered" else "fails to recover"
            return f"{event['base']} {verb}: {event['status']}, {event['markers']} fire markers {where}"
        if kind == "removed":
            return f"{event['base']} of {event['unit']} is removed by a second Kill {where}"
        if kind == "fired":
            placed = ", ".join(f"{b} {n}" for b, n in event["markers"].items() if n)
            cover = f"; cover for {', '.join(event['covered'])}" if event["covered"] else ""
            return f"{event['unit']} fires at {event['target']}: {placed or 'no markers'}{cover} {where}"
        if kind == "moved":
            stop = f", stopped in contact with {event['contact']}" if "contact" in event else ""
            hit = "".join(f"; {b} stopped by fire after {d} mm" for b, d in event.get("stopped", {}).items())
            return f"{', '.join(event['bases'])} moved {event['length']} mm{stop}{hit} {where}"
        if kind == "close-combat-markers":
            placed = "; ".join(f"{b} on {', '.join(f'{e} {n}' for e, n in spread.items())}"
                               for b, spread in event["placed"].items())
            return f"close combat markers: {placed} {where}"
        if kind == "retired":
            return f"{', '.join(event['to'])} retire from close combat {where}"
        if kind == "sustained":
            return f"{', '.join(event['bases'])} begin sustained fire {where}"
        if kind == "swept":
            belt = ", and is unloaded" if event["unloaded"] else ""
            return (f"{event['base']} crosses {event['hmg']}'s sustained fire {event['at']} mm along its move: "
                    f"2 markers; the HMG rolls {event['roll']}{belt} {where}")
        if kind == "flamed":
            return f"{event['flamer']} flames {event['target']}: 4 markers on {', '.join(event['markers'])} {where}"
        if kind == "mortar-called":
            return f"{event['unit']} calls {event['mortar']}: {', '.join(event['rounds'])} at {event['aim']} {where}"
        if kind == "mortar-lapsed":
            return f"{event['mortar']}'s fire order lapses {where}"
        if kind == "bomb":
            hit = ", ".join(f"{b} {n}" for b, n in event.get("markers", {}).items())
            return (f"{event['mortar']}'s {event['kind']} bomb deviates {event['direction']} by "
                    f"{sum(event['distance'])} cm to {event['landing']}{': ' + hit if hit else ''} {where}")
        if kind == "smoke":
            return f"smoke screen {event['screen']} laid at {event['at']} {where}"
        if kind == "smoke-drifts":
            return f"the wind acts on smoke screen {event['screen']}: {event['step']} {where}"
        if kind == "set-up":
            return f"{', '.join(event['bases'])} set up, ready to fire {where}"
        if kind == "lead":
            return f"{event['unit']} leads {', '.join(event['bases'])} to {event['act']} {where}"
        if kind == "commander-lost":
            hit = ", ".join(f"{b} {n}" for b, n in event["markers"].items())
            return f"{event['unit']} is lost: fire markers on {hit or 'nobody'} {where}"
        if kind == "opportunity":
            return f"{event['unit']} gives opportunity fire at the mover {event['at']} mm along its move {where}"
        if kind == "move-cancelled":
            return f"{', '.join(event['bases'])} could not move: {event['why']} {where}"
        return None
