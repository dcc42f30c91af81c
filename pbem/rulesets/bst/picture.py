"""bst's picture adapter: a side's view drawn as a table (`pbem.render.table`).

Every base with its fire markers, pin, suppress and Kill markers; the last adjudication's
moves and fire attacks; lost bases off the table; and each event as a sentence naming its
heading (labels of docs/bst.md).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.geometry.tablemap import TableMap
from pbem.render.adapters import Adapter, Figure, TableAction, TableMark, TablePicture

from .vehicles import hatches


class BstAdapter(Adapter):
    ruleset_id = "bst"
    sides = ("allies", "axis")

    def __init__(self, table: TableMap, sides_of: Mapping[str, str], size: int,
                 vehicle_sizes: Mapping[str, tuple[int, int]] | None = None) -> None:
        self.table = table
        self.sides_of = sides_of
        self.size = size
        self.vehicle_sizes = dict(vehicle_sizes or {})

    def picture(self, view: Mapping[str, Any]) -> TablePicture:
        side = view["side"]
        state = view["state"]
        figures: list[Figure] = []
        marks: list[TableMark] = []
        for bid, e in sorted(state["bases"].items()):
            owner = self.sides_of[e["unit"]]
            width, depth = self.vehicle_sizes.get(e.get("vehicle") or "", (self.size, self.size))
            note = f"{e['vehicle']}, {hatches(e)}" if e.get("vehicle") else e["weapon"]
            figures.append(Figure(uid=bid, side=owner, centre=(e["at"][0], e["at"][1]), facing=e["facing"],
                                  width=width, depth=depth, unit=e["unit"], own=owner == side, note=note,
                                  kind="armour" if e.get("vehicle") else "infantry"))
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
        words = SENTENCES.get(event["type"])
        return None if words is None else f"{words(event)} ({event['section']})"


def _names(items: Any) -> str:
    return ", ".join(items)


def _counts(mapping: Mapping[str, int]) -> str:
    return ", ".join(f"{key} {n}" for key, n in mapping.items() if n)


def _fired(e: Mapping[str, Any]) -> str:
    cover = f"; cover for {_names(e['covered'])}" if e["covered"] else ""
    return f"{e['unit']} fires at {e['target']}: {_counts(e['markers']) or 'no markers'}{cover}"


def _moved(e: Mapping[str, Any]) -> str:
    stop = f", stopped in contact with {e['contact']}" if "contact" in e else ""
    hit = "".join(f"; {b} stopped by fire after {d} mm" for b, d in e.get("stopped", {}).items())
    return f"{_names(e['bases'])} moved {e['length']} mm{stop}{hit}"


def _bomb(e: Mapping[str, Any]) -> str:
    hit = _counts(e.get("markers", {}))
    return (f"{e['mortar']}'s {e['kind']} bomb deviates {e['direction']} by {sum(e['distance'])} cm to "
            f"{e['landing']}{': ' + hit if hit else ''}")


# each event type in words, without its heading (the sentence adds it)
SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "drawn": lambda e: f"{e['card']} drawn: {e['unit']} of {e['side']} activates",
    "joker": lambda e: f"the Joker ends turn {e['turn']}: every card back, every unit unactivated",
    "queued": lambda e: f"{e['unit']} acts on its queued order",
    "passed": lambda e: f"{e['card']} passed over: {e['unit']} already acted or has no bases",
    "held": lambda e: f"{e['unit']} holds",
    "resolved": lambda e: (f"{e['base']} resolves {e['markers']} fire markers at {e['to_hit']}+: "
                           f"{e['rolls']}, then {e['rethrows']}: {e['status']}"),
    "recovered": lambda e: f"{e['base']} recovers: {e['status']}, {e['markers']} fire markers",
    "recovery-failed": lambda e: f"{e['base']} fails to recover: {e['status']}, {e['markers']} fire markers",
    "removed": lambda e: f"{e['base']} of {e['unit']} is removed by a second Kill",
    "fired": _fired,
    "moved": _moved,
    "opportunity": lambda e: f"{e['unit']} gives opportunity fire at the mover {e['at']} mm along its move",
    "move-cancelled": lambda e: f"{_names(e['bases'])} could not move: {e['why']}",
    "close-combat-markers": lambda e: "close combat markers: " + "; ".join(
        f"{b} on {_counts(spread)}" for b, spread in e["placed"].items()),
    "retired": lambda e: f"{_names(e['to'])} retire from close combat",
    "sustained": lambda e: f"{_names(e['bases'])} begin sustained fire",
    "swept": lambda e: (f"{e['base']} crosses {e['hmg']}'s sustained fire {e['at']} mm along its move: 2 markers;"
                        f" the HMG rolls {e['roll']}{', and is unloaded' if e['unloaded'] else ''}"),
    "flamed": lambda e: f"{e['flamer']} flames {e['target']}: 4 markers on {_names(e['markers'])}",
    "mortar-called": lambda e: (f"{e['unit']} calls {e['mortar']}: {_names(e['rounds'])} at {e['aim']}"
                                if "aim" in e else f"{e['unit']} gives {e['mortar']} a fire order"),
    "mortar-lapsed": lambda e: f"{e['mortar']}'s fire order lapses",
    "bomb": _bomb,
    "smoke": lambda e: f"smoke screen {e['screen']} laid at {e['at']}"
    + (", wholly off the table: gone" if e.get("off_table") else ""),
    "smoke-drifts": lambda e: f"the wind acts on smoke screen {e['screen']}: {e['step']}",
    "set-up": lambda e: f"{_names(e['bases'])} set up, ready to fire",
    "surprised": lambda e: f"{e['unit']} is taken by surprise out of the smoke: no reaction",
    "split": lambda e: f"{e['unit']} is split: its bases must close up again",
    "rejoined": lambda e: f"{e['unit']} is together again",
    "hatches": lambda e: f"{e['unit']} {'closes' if e['buttoned'] else 'opens'} its hatches",
    "kill-passed": lambda e: f"the Kill on {e['base']} passes to its extra base {e['to']}",
    "shrugged": lambda e: f"{e['base']} is buttoned: its {e['markers']} fire markers do nothing",
    "convoy": lambda e: f"{_names(e['units'])} activate in convoy with {e['unit']}",
    "gun-fired": lambda e: (f"{e['tank']} fires its gun at {e['target']} ({e['aspect']} armour {e['armour']}): "
                            f"{e['roll']} to hit at {e['to_hit']}+"
                            + (f", {e['penetration']} to penetrate: "
                               f"{'knocked out' if e['knocked_out'] else 'no effect'}" if "penetration" in e else "")),
    "lead": lambda e: f"{e['unit']} leads {_names(e['bases'])} to {e['act']}",
    "commander-lost": lambda e: f"{e['unit']} is lost: fire markers on {_counts(e['markers']) or 'nobody'}",
}
