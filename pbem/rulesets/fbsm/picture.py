"""The fbsm picture adapter (`Ruleset.picture`): First Blood: Second Marne views as pictures and sentences.

Reads only the view: own units (`state.units`, values from the counter mix), enemy stacks as
the view shows them (`state.enemy`: top unit and count), the carnage, the exited units, the
markers and the events of the last adjudication (already cut down to what the side may see).

Bombardment markers (11.x, 13.4) are placed, drift and are resolved within one adjudication,
so the map shows each marker of the last adjudication where it landed (the `drift` events,
public), a dotted arrow from where it was aimed, and a ring with the odds and rolls; the
markers a side may still use this phase (`state.markers`) are listed in the legend. FBSM's
rules track neither suppression nor control of hexes, so there are no such markers to draw.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.render.adapters import Action, Adapter, Counter, Mark, Picture, View

from .context import Context

SIDE_NAMES = {"us": "US", "german": "German"}
WHERE = {("us", "container"): "to set up (3.2)", ("german", "container"): "in the holding container (3.5)",
         ("german", "drawn"): "drawn, to be placed (7.5, 7.7, 8.3)"}  # own units off the map, by status
PLACES = ("varennes", "paroy", "crezancy", "moulin-ruine", "hill-231", "bridges", "rail-crossings")


def _odds(odds: Any) -> str:
    if not isinstance(odds, int):
        return "-"
    return f"{odds}:1" if odds >= 1 else "under 1:1"


def _hexes(items: list[str]) -> str:
    items = [str(x) for x in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _label(event: Mapping[str, Any]) -> str:
    """Odds, then each roll with a cross for each unit eliminated: "2:1 3, 5✕"."""
    rolls = ", ".join(("-" if r.get("roll") is None else str(r["roll"])) + ("✕" if r.get("eliminated") else "")
                      for r in event.get("results", []))
    return f"{_odds(event.get('odds'))} {rolls or 'nobody hit'}"


def _roll(roll: Any) -> str:
    return "no roll needed" if roll is None else f"rolled {roll}"


class FbsmAdapter(Adapter):
    ruleset_id = "fbsm"
    sides = ("us", "german")
    value_note = "counter: id, then fire-range-move"

    def __init__(self, cfg: Context) -> None:
        self.cfg = cfg

    def side_name(self, side: str | None) -> str:
        return SIDE_NAMES.get(str(side), str(side or "").capitalize())

    def picture(self, view: View) -> Picture:
        state = view["state"]
        cfg = self.cfg
        me = view["side"]
        pic = Picture(map=cfg.map, title="")
        for uid, unit in sorted(state.get("units", {}).items()):
            counter = cfg.counters.get(uid)
            kind = counter.kind if counter else "unit"
            values: tuple[tuple[str, Any], ...] = (
                (("fire", counter.fire), ("range", counter.range), ("move", counter.move)) if counter else ())
            if unit.get("status") == "active":
                pic.own.append(Counter(uid, me, str(unit["hex"]), kind, values, True, 1, int(unit.get("level", 0))))
            elif unit.get("status") == "eliminated" and cfg.on_map(str(unit.get("hex"))):
                pic.wrecks.append((uid, me, str(unit["hex"])))
            else:
                pic.off_map.append((uid, me, WHERE.get((me, str(unit.get("status"))), str(unit.get("status")))))
        enemy_side = "german" if me == "us" else "us"
        for hex_id, stack in sorted(state.get("enemy", {}).items()):
            top = stack.get("top") or {}
            top_values = tuple((k, top[k]) for k in ("fire", "range", "move") if k in top)
            pic.enemy.append(Counter(str(top.get("unit", "")), enemy_side, str(hex_id), str(top.get("kind", "unit")),
                                     top_values, False, int(stack.get("count", 1))))
        for uid, hex_id in sorted(state.get("carnage", {}).items()):
            if cfg.on_map(str(hex_id)):
                pic.wrecks.append((uid, enemy_side, str(hex_id)))
        for hex_id, count in sorted((state.get("wrecks") or {}).items()):  # the dead the view does not name (6.5)
            if cfg.on_map(str(hex_id)):
                pic.wrecks += [("", enemy_side, str(hex_id))] * int(count)
        for uid in state.get("exited", []):
            pic.off_map.append((uid, enemy_side, "exited"))
        for name in PLACES:
            if name in cfg.map.sets and cfg.map.sets[name]:
                hexes = cfg.map.sets[name]
                for h in (hexes if name in ("bridges", "rail-crossings") else hexes[:1]):
                    label = {"bridges": "bridge", "rail-crossings": "rail crossing"}.get(name, name)
                    pic.places.append((label.replace("-", " ").title(), h.id))
        if state.get("phase") == "us-setup":
            self._zones(pic)
        effects = [k.replace("_", " ") for k, v in sorted((state.get("effects") or {}).items())
                   if v and k not in ("roll", "event")]
        if effects:
            pic.notes += ["In effect this turn (7.x):", *(f"  {e}" for e in effects)]
        self._events(view, pic)
        held = [f"{self.side_name(side)} {', '.join(names)}" for side, names in
                sorted((state.get("markers") or {}).items()) if names]
        if held:
            pic.notes.append("Bombardment markers this phase (13.4):")
            pic.notes += [f"  {line}" for line in held]
        return pic

    def _zones(self, pic: Picture) -> None:
        """The US set-up zones (3.3, 3.4) as the set-up orders may use them: less the road and
        riverbank hexes (3.3); a hex in both zones shows both hatchings."""
        for zone, section in (("forward", "3.3"), ("rear", "3.4")):
            quota = self.cfg.tables["us_setup"]
            counts = f"{quota[f'{zone}_infantry']} infantry, {quota[f'{zone}_hw']} heavy weapons"
            words = f"US {zone} set-up zone ({section}): {counts}"
            for hex_id in sorted(self.cfg.zones[zone]):
                pic.marks.append(Mark(f"{zone}-zone", hex_id, side="us", detail=f"{hex_id}: {words}", style="hatch"))
            pic.keys[f"{zone}-zone"] = words

    def _events(self, view: View, pic: Picture) -> None:
        """The overlay and the bombardment markers of the last adjudication (events the view holds)."""
        own = {uid: str(u.get("hex")) for uid, u in (view["state"].get("units") or {}).items()
               if u.get("status") == "active"}
        for event in view.get("events") or []:
            kind = event.get("type")
            side = str(event.get("side") or "")
            detail = self.sentence(event, view) or ""
            if kind == "move" and event.get("from") and event.get("path"):
                units = (str(event["unit"]),) if event.get("unit") else ()
                pic.actions.append(Action("move", side, (str(event["from"]), *map(str, event["path"])),
                                          detail=detail, units=units))
            elif kind == "advance" and isinstance(event.get("units"), list):
                for item in event["units"]:
                    pic.actions.append(Action("advance", side, (str(item["from"]), str(event["into"])),
                                              detail=detail, units=(str(item["unit"]),)))
            elif kind == "fire" and event.get("target"):
                firers = event.get("firers")
                pic.actions.append(Action("close-assault" if event.get("close_assault") else "fire", side,
                                          tuple(str(x) for x in event.get("from", [])), str(event["target"]),
                                          _label(event), detail,
                                          tuple(map(str, firers)) if isinstance(firers, list) else ()))
            elif kind == "bombard" and event.get("target"):
                spotter = event.get("spotter")  # only in the bombarding side's own view
                if spotter and str(spotter) in own:
                    pic.actions.append(Action("spot", side, (own[str(spotter)],), str(event["target"]),
                                              detail=detail, units=(str(spotter),)))
            elif kind == "drift" and event.get("target") and event.get("marker"):
                marker, aimed = str(event["marker"]), str(event["target"])
                final = event.get("final")
                if final and final != aimed:
                    pic.actions.append(Action("drift", side, (aimed,), str(final), detail=detail))
                weight, _, number = marker.partition("-")
                pic.marks.append(Mark("bombardment", str(final or aimed), f"{weight[:1].upper()}{number}", side,
                                      detail, (("marker", marker), ("weight", weight), ("aimed", aimed),
                                               ("lost", "true" if event.get("lost") else "false"))))
            elif kind == "bombardment" and event.get("hex"):
                pic.actions.append(Action("bombardment", side, (), str(event["hex"]), _label(event), detail))

    # --- words -------------------------------------------------------------------------------
    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        kind = event.get("type")
        side = self.side_name(event.get("side"))
        sec = f" ({event['section']})" if event.get("section") else ""
        if kind == "fire":
            firers = event.get("firers")
            who = ", ".join(firers) if isinstance(firers, list) else \
                f"{firers} unit{'s' if firers != 1 else ''}"
            how = "close assault" if event.get("close_assault") else "fire"
            head = (f"{side} {how} from {_hexes(event.get('from', []))} ({who}) into {event['target']}: "
                    f"strength {event.get('strength')} against defence {event.get('defense')}, "
                    f"odds {_odds(event.get('odds'))}")
            parts = []
            for r in event.get("results", []):
                unit = f"{self.side_name(r.get('side'))} unit {r['unit']}" if r.get("unit") else \
                    f"a {self.side_name(r.get('side'))} unit"
                fate = "was eliminated" if r.get("eliminated") else "survived"
                parts.append(f"{unit} in {event['target']} {fate}, {_roll(r.get('roll'))}")
            return head + (". " + "; ".join(parts) if parts else "") + sec + "."
        if kind == "move":
            who = f"{side} unit {event['unit']}" if event.get("unit") else f"A {side} unit"
            path = [str(x) for x in event.get("path", [])]
            via = f" through {_hexes(path[:-1])}" if len(path) > 1 else ""
            end = path[-1] if path else event.get("from")
            tail = " and left the map" if event.get("exit") else ""
            return f"{who} moved from {event.get('from')}{via} to {end}{tail}{sec}."
        if kind == "advance":
            units = event.get("units")
            who = (", ".join(u["unit"] for u in units) if isinstance(units, list)
                   else f"{event.get('count')} unit(s)")
            return f"{side} advance into {event.get('into')} after the fire cleared it ({who}){sec}."
        if kind == "bombard":
            spot = f", spotted by {event['spotter']}" if event.get("spotter") else ""
            return (f"{side} artillery was called down on {event.get('target')} with "
                    f"{', '.join(event.get('markers', []))}{spot}{sec}.")
        if kind == "drift":
            marker = f"{side} marker {event.get('marker')} aimed at {event.get('target')}"
            roll = f" (drift die {event['roll']})" if event.get("roll") is not None else ""
            if event.get("lost"):
                return f"{marker} drifted off the map and was lost{roll}{sec}."
            if event.get("drift"):
                return f"{marker} drifted {event['drift']} hex(es) and landed in {event.get('final')}{roll}{sec}."
            return f"{marker} landed on target{roll}{sec}."
        if kind == "bombardment":
            head = (f"{side} bombardment of {event.get('hex')} ({', '.join(event.get('markers', []))}): strength "
                    f"{event.get('strength')} against defence {event.get('defense')}, odds {_odds(event.get('odds'))}")
            parts = []
            for r in event.get("results", []):
                unit = f"{self.side_name(r.get('side'))} unit {r['unit']}" if r.get("unit") else \
                    f"a {self.side_name(r.get('side'))} unit"
                fate = "was eliminated" if r.get("eliminated") else "survived"
                parts.append(f"{unit} {fate}, {_roll(r.get('roll'))}")
            return head + (". " + "; ".join(parts) if parts else ". Nobody was hit") + sec + "."
        if kind == "order-void":
            what = f" for {event['unit']}" if event.get("unit") else \
                f" against {event['target']}" if event.get("target") else ""
            return f"A {side} order{what} was void: {event.get('reason')}{sec}."
        if kind == "drawn":
            units = event.get("units")
            names = f": {', '.join(units)}" if isinstance(units, list) and units else ""
            return (f"The German side drew {event.get('count')} unit(s) from the holding container as "
                    f"{event.get('kind')} (rolled {event.get('rolled')}){names}{sec}.")
        if kind == "placed":
            units = event.get("units")
            if isinstance(units, list):
                where = ", ".join(f"{u['unit']} in {u['hex']}" for u in units)
            else:
                where = "units in " + _hexes(sorted(set(event.get("hexes", []))))
            return f"German {event.get('kind')} arrived: {where}{sec}."
        if kind == "reinforcements":
            dice = f" (dice {', '.join(map(str, event['dice']))})" if event.get("dice") else ""
            note = f"; {event['note']}" if event.get("note") else ""
            return f"German reinforcements: {event.get('count')} unit(s){dice}{note}{sec}."
        if kind == "breakthrough":
            name = str(event.get("kind", "")).replace("-", " ")
            if event.get("thwarted"):
                return f"The {name} came to nothing{sec}."
            dice = f" (dice {', '.join(map(str, event['dice']))})" if event.get("dice") else ""
            return f"The {name} brings {event.get('count')} German unit(s){dice}{sec}."
        if kind == "random-event":
            dice = "+".join(map(str, event.get("dice", [])))
            extra = "".join(f"; {k} {v}" for k, v in event.items()
                            if k not in ("type", "section", "dice", "roll", "event"))
            return (f"Random events: rolled {event.get('roll')} ({dice}), "
                    f"{str(event.get('event')).replace('-', ' ')}{extra}{sec}.")
        if kind == "turn":
            return f"Turn {event.get('turn')} began{sec}."
        if kind == "victory":
            winner = self.side_name(event.get("winner")) if event.get("winner") else "nobody"
            return f"The game is over, won by {winner}: {event.get('reason')}{sec}."
        if kind == "concede":
            return f"The {side} side conceded{sec}."
        if kind == "markers-drawn":
            return (f"The German side rolled {event.get('roll')} and drew bombardment markers "
                    f"{', '.join(event.get('markers', []))}{sec}.")
        if kind in ("us-setup", "german-setup"):
            who = "US" if kind == "us-setup" else "German"
            units = event.get("units") or []
            return f"The {who} side set up {len(units)} unit(s) on the map{sec}."
        return None

    def state_lines(self, view: View) -> list[str]:
        state = view["state"]
        units = state.get("units", {})
        active = sum(1 for u in units.values() if u.get("status") == "active")
        lost = sum(1 for u in units.values() if u.get("status") == "eliminated")
        enemy = state.get("enemy", {})
        seen = sum(int(s.get("count", 0)) for s in enemy.values())
        me = self.side_name(view["side"])
        other = self.side_name("german" if view["side"] == "us" else "us")
        lines = [f"Turn {state.get('turn')}, phase {state.get('phase')}.",
                 f"{me}: {active} unit(s) on the map, {lost} eliminated.",
                 f"{other}: {seen} unit(s) seen in {len(enemy)} stack(s), "
                 f"{len(state.get('carnage', {})) + sum((state.get('wrecks') or {}).values())} eliminated, "
                 f"{len(state.get('exited', []))} off the map; "
                 f"{state.get('container')} unit(s) in the German holding container."]
        effects = [k.replace("_", " ") for k, v in sorted((state.get("effects") or {}).items())
                   if v and k not in ("roll", "event")]
        if effects:
            lines.append("In effect: " + ", ".join(effects) + ".")
        markers = state.get("markers") or {}
        held = [f"{self.side_name(s)} {', '.join(m)}" for s, m in sorted(markers.items()) if m]
        if held:
            lines.append("Bombardment markers: " + "; ".join(held) + ".")
        return lines

