"""The toc adapter: The Old Contemptibles views as pictures and sentences.

Own units carry their step strength in the view; their printed values come from the counter
mix at that strength. Enemy stacks show the count and the top unit at its step strength.
Control (the German-controlled hexes of the view) is drawn as small markers.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.rulesets.toc.config import config

from .adapters import Adapter, Counter, Picture, View, register

SIDE_NAMES = {"british": "British", "german": "German"}
PLACES = ("bavai", "conde")


def _values(cfg: Any, uid: str, steps: int) -> tuple[tuple[str, Any], ...]:
    c = cfg.counters.get(uid)
    if c is None:
        return ()
    first = ("bombard", c.bombard(steps)) if c.artillery else ("melee", c.melee(steps))
    return (first, ("range", c.range), ("move", c.move), ("steps", steps))


class TocAdapter(Adapter):
    ruleset_id = "toc"
    sides = ("british", "german")

    def side_name(self, side: str | None) -> str:
        return SIDE_NAMES.get(str(side), str(side or "").capitalize())

    def picture(self, view: View) -> Picture:
        state = view["state"]
        cfg = config(state["setup"])
        me = view["side"]
        other = "german" if me == "british" else "british"
        pic = Picture(map=cfg.map, title="")
        for uid, unit in sorted(state.get("units", {}).items()):
            c = cfg.counters.get(uid)
            kind = c.kind if c else "unit"
            steps = int(unit.get("steps", 1))
            if unit.get("status") == "map":
                pic.own.append(Counter(uid, me, str(unit["hex"]), kind, _values(cfg, uid, steps), True, 1,
                                       int(unit.get("level", 0))))
            else:
                pic.off_map.append((uid, me, str(unit.get("status"))))
        for hex_id, stack in sorted(state.get("enemy", {}).items()):
            top = stack.get("top") or {}
            uid = str(top.get("unit", ""))
            c = cfg.counters.get(uid)
            pic.enemy.append(Counter(uid, other, str(hex_id), c.kind if c else "unit",
                                     _values(cfg, uid, int(top.get("steps", 1))), False, int(stack.get("count", 1))))
        for key, where in (("enemy_dead", "dead"), ("enemy_surrounded", "surrounded"), ("enemy_exited", "exited")):
            for uid in state.get(key, []):
                pic.off_map.append((uid, other, where))
        for name in PLACES:
            for h in cfg.map.sets.get(name, ())[:1]:
                pic.places.append((name.title(), h.id))
        for hex_id in state.get("control", []):
            pic.markers.append(("control", str(hex_id)))
        for event in view.get("events") or []:
            kind = event.get("type")
            if kind == "move" and event.get("path"):
                start = event.get("from") or event.get("entered")
                path = [str(start)] if start and start != event["path"][0] else []
                pic.moves.append((str(event.get("side")), path + [str(x) for x in event["path"]]))
            elif kind == "bombard":
                pic.fire.append((str(event.get("side")), [], str(event["target"]),
                                 f"{event.get('factors')}f {event.get('roll')}"))
            elif kind == "melee":
                origins = sorted((event.get("attackers") or {}).keys())
                pic.fire.append((str(event.get("side")), [str(o) for o in origins], str(event.get("target", "")),
                                 f"{event.get('attack')}:{event.get('defence')}"))
        pic.fire = [f for f in pic.fire if f[2]]
        return pic

    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        kind = event.get("type")
        side = self.side_name(event.get("side"))
        sec = f" ({event['section']})" if event.get("section") else ""
        if kind == "move":
            units = ", ".join(event.get("units", []))
            path = [str(x) for x in event.get("path", [])]
            start = event.get("from") or f"the map edge at {event.get('entered')}"
            how = "marched" if event.get("march") else "moved"
            return f"{side} {units} {how} from {start} to {path[-1] if path else start}{sec}."
        if kind == "bombard":
            losses = event.get("losses")
            return (f"{side} artillery ({', '.join(event.get('with', []))}) bombarded {event.get('target')} with "
                    f"{event.get('factors')} factor(s): rolled {event.get('roll')}, modified {event.get('modified')}, "
                    f"{losses} step(s) lost{sec}.")
        if kind == "melee":
            lost = [r["unit"] for r in event.get("defender_results", []) + event.get("attacker_results", [])
                    if r.get("eliminated")]
            tail = f"; eliminated: {', '.join(lost)}" if lost else ""
            return (f"{side} melee on {event.get('target')}: attack {event.get('attack')} against defence "
                    f"{event.get('defence')}{tail}{sec}.")
        if kind == "melee-void":
            return f"A {side} melee on {event.get('target')} did not happen: {event.get('why')}{sec}."
        if kind == "order-void":
            return f"A {side} order was void: {event.get('reason') or event.get('why')}{sec}."
        if kind == "entry-delayed":
            return f"{side} {event.get('unit')} could not enter this turn{sec}."
        if kind == "sequence":
            return f"The {side} side chose the {str(event.get('sequence')).replace('-', ' ')} sequence{sec}."
        if kind == "turn":
            return f"Turn {event.get('turn')} began{sec}."
        if kind == "victory":
            return f"The game is over: {event.get('reason')}{sec}."
        if kind == "concede":
            return f"The {side} side conceded{sec}."
        if kind == "overstack":
            return f"Overstacked units were removed{sec}."
        return None

    def state_lines(self, view: View) -> list[str]:
        state = view["state"]
        units = state.get("units", {})
        on_map = sum(1 for u in units.values() if u.get("status") == "map")
        me, other = self.side_name(view["side"]), self.side_name("german" if view["side"] == "british" else "british")
        enemy = state.get("enemy", {})
        return [f"Turn {state.get('turn')}, phase {state.get('phase')}.",
                f"{me}: {on_map} unit(s) on the map, {len(units) - on_map} elsewhere.",
                f"{other}: {sum(int(s.get('count', 0)) for s in enemy.values())} unit(s) seen in {len(enemy)} "
                f"stack(s), {len(state.get('enemy_dead', []))} dead.",
                f"Victory points so far: {(state.get('tally') or {}).get('total')}."]


@register("toc")
def _factory() -> Adapter:
    return TocAdapter()
