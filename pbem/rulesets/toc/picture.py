"""The toc picture adapter (`Ruleset.picture`): The Old Contemptibles views as pictures and sentences.

Own units carry their step strength in the view; their printed values come from the counter
mix at that strength. Enemy stacks show the count and the top unit at its step strength.
Markers: control (3.2; the view's `control` lists the German hexes, every other hex is British)
shades each German hex; an own unit that marched this player turn (9.20, `marched`) carries an
M. The overlay draws own moves (the enemy's show only as positions), and both sides'
bombardments and melees (witnessed by both, 6.6): lines from the guns or attacking hexes the
view knows, the defenders' fire back at the attackers, advances after a melee, spotters'
lines of sight, each labelled with factors or odds, the roll, its modified value and the result.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.render.adapters import Action, Adapter, Counter, Mark, Picture, View

from .context import Context, Entry
from .movement import OFF
from .sequence import owner

SIDE_NAMES = {"british": "British", "german": "German"}
PLACES = ("bavai", "conde")
ON_MAP = ("active", "map")  # a unit on the map ("map" in views of ruleset version 1)


def _values(ctx: Any, uid: str, steps: int) -> tuple[tuple[str, Any], ...]:
    c = ctx.counters.get(uid)
    if c is None:
        return ()
    first = ("bombard", c.bombard(steps)) if c.artillery else ("melee", c.melee(steps))
    return (first, ("range", c.range), ("move", c.move), ("steps", steps))


def _rolled(event: Mapping[str, Any]) -> str:
    """" r5→3": the roll and its modified value (nothing when no die was rolled)."""
    if event.get("roll") is None:
        return ""
    modified = event.get("modified")
    return f" r{event['roll']}" + (f"→{modified}" if modified is not None and modified != event["roll"] else "")


def _crosses(results: Any) -> str:
    """One cross per unit a combat eliminated."""
    n = sum(1 for r in results or [] if r.get("eliminated") or r.get("after") == 0)
    return " " + "✕" * n if n else ""


def _ordinal(number: str) -> str:
    n = int(number)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _group(entry: Entry) -> str:
    """"IV Corps 7th Division" or "IV Corps separate units" (2.12)."""
    part = f"{_ordinal(entry.division)} Division" if entry.division and entry.division.isdigit() else \
        f"{entry.division} Division" if entry.division else "separate units"
    return f"{entry.corps} Corps {part}"


def _through(entry: Entry) -> str:
    return " or ".join(entry.hexes)


def _to_come(entry: Entry, state: Mapping[str, Any]) -> bool:
    """Whether the entry's German movement phase (8.2) is still ahead."""
    turn = int(state.get("turn") or 0)
    return entry.turn > turn or (entry.turn == turn and state.get("phase") == "german-movement")


def _stack(hex_id: str, stack: Mapping[str, Any]) -> str:
    """"4106 G-IR20 (+1 beneath)": a stack as the other side sees it (6.6)."""
    top = (stack.get("top") or {}).get("unit") or "a unit"
    beneath = int(stack.get("count", 1)) - 1
    return f"{hex_id} {top}" + (f" (+{beneath} beneath)" if beneath > 0 else "")


class TocAdapter(Adapter):
    ruleset_id = "toc"
    sides = ("british", "german")
    value_note = "counter: id, then melee (guns:\n  bombard)-range-move-steps"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def side_name(self, side: str | None) -> str:
        return SIDE_NAMES.get(str(side), str(side or "").capitalize())

    def picture(self, view: View) -> Picture:
        state = view["state"]
        ctx = self.ctx
        me = view["side"]
        other = "german" if me == "british" else "british"
        pic = Picture(map=ctx.map, title="")
        marched = set(state.get("marched") or [])
        for uid, unit in sorted(state.get("units", {}).items()):
            c = ctx.counters.get(uid)
            kind = c.kind if c else "unit"
            steps = int(unit.get("steps", 1))
            if unit.get("status") in ON_MAP:
                pic.own.append(Counter(uid, me, str(unit["hex"]), kind, _values(ctx, uid, steps), True, 1,
                                       int(unit.get("level", 0)), ("marched",) if uid in marched else ()))
            else:
                pic.off_map.append((uid, me, self._where(uid, unit, state)))
        for hex_id, stack in sorted(state.get("enemy", {}).items()):
            top = stack.get("top") or {}
            uid = str(top.get("unit", ""))
            c = ctx.counters.get(uid)
            face = ", ".join(f"{top[k]} {k}" for k in ("counter", "face") if top.get(k))
            pic.enemy.append(Counter(uid, other, str(hex_id), c.kind if c else "unit",
                                     _values(ctx, uid, int(top.get("steps", 1))), False, int(stack.get("count", 1)),
                                     note=face))
        for key, where in (("enemy_dead", "dead"), ("enemy_surrounded", "surrounded (4.5)"),
                           ("enemy_exited", "exited")):
            for uid in state.get(key, []):
                pic.off_map.append((uid, other, where))
        for name in PLACES:
            for h in ctx.map.sets.get(name, ())[:1]:
                pic.places.append((name.title(), h.id))
        self._edges(pic)
        for hex_id in state.get("control", []):  # 3.2: the German side controls these, the British the rest
            pic.marks.append(Mark("control", str(hex_id), side="german", detail=f"German control of {hex_id} (3.2)"))
        if state.get("sequence"):
            pic.notes.append(f"British sequence: {str(state['sequence']).replace('-', ' ')} (5.3)")
        total = (state.get("tally") or {}).get("total")
        if total is not None:  # (the legend's short note; the report's line gives the parts: `victory_points`)
            pic.notes.append(f"German victory points so far: {total} (4.3)")
        self._events(view, pic)
        return pic

    def _where(self, uid: str, unit: Mapping[str, Any], state: Mapping[str, Any]) -> str:
        """Where an own unit off the map is, in the legend's words (its group there)."""
        status = unit.get("status")
        if status == "eliminated":
            return "surrounded (4.5)" if unit.get("surrounded") else "dead"
        entry = self.ctx.entry_for(uid) if status == "container" and uid in self.ctx.counters else None
        if entry is None:
            return str(status)
        if _to_come(entry, state):
            return f"to enter on turn {entry.turn} at {_through(entry)} (8.2)"
        return f"held back, to enter at {_through(entry)} (8.3)"

    def _edges(self, pic: Picture) -> None:
        """The entry hexes (3.1, 8.2) and the exit hexes (4.4) printed on the map, for both sides."""
        for h in self.ctx.map.sets.get("entry", ()):
            groups = [f"{_group(e)} on turn {e.turn}" for e in self.ctx.entries if h.id in e.hexes]
            detail = f"German entry hex {h.id} (3.1, 8.2): " + ("; ".join(groups) or "no division is due here")
            pic.marks.append(Mark("entry", h.id, "E", "german", detail, style="outline"))
        for h in self.ctx.map.sets.get("exit", ()):
            pic.marks.append(Mark("exit", h.id, "X", "british", f"British exit hex {h.id}, from turn "
                                  f"{self.ctx.tables['exit_from_turn']} (4.4)", style="outline"))
        pic.keys.update({"entry": "German entry hex (3.1, 8.2)", "exit": "British exit hex (4.4)"})

    def _events(self, view: View, pic: Picture) -> None:
        """The overlay of the last adjudication, from the events the view holds."""
        state = view["state"]
        where = {uid: str(u["hex"]) for uid, u in (state.get("units") or {}).items() if u.get("status") in ON_MAP}
        where.update({str((s.get("top") or {}).get("unit")): str(h) for h, s in (state.get("enemy") or {}).items()})
        for event in view.get("events") or []:
            kind = event.get("type")
            side = str(event.get("side") or "")
            other = "german" if side == "british" else "british"
            detail = self.sentence(event, view) or ""
            if kind == "move" and event.get("path"):
                start = event.get("from") or event.get("entered")
                path = [str(start)] if start and start != event["path"][0] else []
                pic.actions.append(Action("move", side, tuple(path + [str(x) for x in event["path"]]), detail=detail,
                                          units=tuple(map(str, event.get("units") or []))))
            elif kind == "bombard" and event.get("target"):
                target = str(event["target"])
                guns = [str(u) for u in event.get("with") or []]
                for spotter in event.get("spotters") or []:
                    if str(spotter) in where:
                        pic.actions.append(Action("spot", side, (where[str(spotter)],), target, detail=detail,
                                                  units=(str(spotter),)))
                origins = tuple(sorted({str(h) for h in event.get("from") or []}
                                       or {where[u] for u in guns if u in where}))
                label = (f"{event.get('factors')}f{_rolled(event)}: "
                         f"{event.get('losses')} lost" + _crosses(event.get("results")))
                pic.actions.append(Action("bombard", side, origins, target, label, detail, tuple(guns)))
            elif kind == "melee" and event.get("target"):
                target = str(event["target"])
                attackers = event.get("attackers") or {}
                units = tuple(str(u.get("unit")) for items in attackers.values() for u in items)
                label = (f"{str(event.get('odds')).replace('-', ' ')}{_rolled(event)}: "
                         f"{event.get('result')} {event.get('outcome')}"
                         + _crosses(list(event.get("defender_results") or []) + list(event.get("attacker_results") or [])))
                for fire in event.get("defensive_fire") or []:  # 12.x: the defenders fire first
                    if fire.get("at"):
                        words = (f"{self.side_name(other)} defensive fire from {target} at {fire['at']}: "
                                 f"{fire.get('factors')} factor(s), rolled {fire.get('roll')}, modified "
                                 f"{fire.get('modified')}, {fire.get('losses')} step(s) lost")
                        pic.actions.append(Action(
                            "defensive-fire", other, (target,), str(fire["at"]),
                            f"{fire.get('factors')}f{_rolled(fire)}: "
                            f"{fire.get('losses')} lost" + _crosses(fire.get("results")),
                            words + f"{' (' + str(event['section']) + ')' if event.get('section') else ''}.",
                            tuple(map(str, fire.get("firers") or []))))
                pic.actions.append(Action("melee", side, tuple(sorted(map(str, attackers))), target, label, detail,
                                          units))
                for uid in event.get("advanced") or []:
                    origin = next((h for h, items in attackers.items()
                                   if any(u.get("unit") == uid for u in items)), None)
                    if origin:
                        pic.actions.append(Action("advance", side, (str(origin), target),
                                                  detail=f"{self.side_name(side)} {uid} advanced into {target}.",
                                                  units=(str(uid),)))

    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        words = SENTENCES.get(str(event.get("type")))
        if words is None:
            return None
        sec = f" ({event['section']})" if event.get("section") else ""
        return words(event, self.side_name(event.get("side")), sec)

    def seen(self, view: View) -> list[str]:
        """What the side saw of the enemy's phases that no event of its view says (6.6: enemy moves
        show only as positions): who was due to enter (8.2, public), and every enemy stack now seen."""
        state = view.get("state") or {}
        me = str(view.get("side"))
        enemy_phases = [str(p) for p in view.get("phases") or [] if owner(str(p)) != me]
        if me not in self.sides or not enemy_phases:
            return []
        other = "german" if me == "british" else "british"
        lines = []
        if "german-movement" in enemy_phases:  # resolved first in its adjudication: the turn events came after it
            turn = int(state.get("turn") or 0) - sum(1 for e in view.get("events") or [] if e.get("type") == "turn")
            due = [f"{_group(e)} through {_through(e)}" for e in self.ctx.entries if e.turn == turn]
            if due:
                lines.append(f"German units were due to enter on turn {turn} (8.2): {'; '.join(due)}.")
        enemy = state.get("enemy") or {}
        name = self.side_name(other)
        if enemy:
            count = sum(int(s.get("count", 1)) for s in enemy.values())
            lines.append(f"{name} units seen on the map after the {name} phases (6.6): {count} in {len(enemy)} "
                         f"stack(s): " + "; ".join(_stack(str(h), s) for h, s in sorted(enemy.items())) + ".")
        else:
            lines.append(f"No {name} unit is on the map after the {name} phases (6.6).")
        return lines

    def state_lines(self, view: View) -> list[str]:
        state = view["state"]
        units = state.get("units", {})
        on_map = sum(1 for u in units.values() if u.get("status") in ON_MAP)
        me, other = self.side_name(view["side"]), self.side_name("german" if view["side"] == "british" else "british")
        enemy = state.get("enemy", {})
        return [f"Turn {state.get('turn')}, phase {state.get('phase')}.",
                f"{me}: {on_map} unit(s) on the map, {len(units) - on_map} elsewhere.",
                f"{other}: {sum(int(s.get('count', 0)) for s in enemy.values())} unit(s) seen in {len(enemy)} "
                f"stack(s), {len(state.get('enemy_dead', []))} dead.",
                *([f"{score}."] if (score := self.victory_points(state)) is not None else []),
                *self._entry_lines(view)]

    def victory_points(self, state: Mapping[str, Any]) -> str | None:
        """4.3: the German side's victory points so far and their parts, from the tally the view carries (both
        sides' views carry the same public tally: nothing here is hidden from either), or None without one."""
        tally = state.get("tally") or {}
        if tally.get("total") is None:
            return None
        vp, tables = tally.get("vp") or {}, self.ctx.tables
        exited = len(tally.get("exited") or [])
        return (f"German victory points so far: {tally['total']} (Bavai {vp.get('bavai', 0)}, dead pile "
                f"{vp.get('dead_pile', 0)}, exits {vp.get('exits', 0)}; 4.3): the dead pile counts "
                f"{tally.get('dead_pile', 0)}, one VP per {tables['dead_pile_per_vp']}; {exited} British unit(s) "
                f"exited, the exits VP holds while {tables['exits_allowed']} or fewer have; "
                f"{tables['vp_to_win']} win at the end of turn {tables['last_turn']}")

    def _entry_lines(self, view: View) -> list[str]:
        """8.2, public (the rules print it): the German entries still to come; the German side also
        gets its waiting units by id, those held back by 8.3 among them."""
        state = view["state"]
        if view.get("side") == "german":
            waiting: dict[Entry, list[str]] = {}
            for uid, unit in sorted((state.get("units") or {}).items()):
                entry = self.ctx.entry_for(uid) if unit.get("status") == "container" and uid in self.ctx.counters \
                    else None
                if entry is not None:
                    waiting.setdefault(entry, []).append(uid)
            return [(f"To enter on turn {e.turn} through {_through(e)} (8.2): " if _to_come(e, state) else
                     f"Held back since turn {e.turn}, to enter through {_through(e)} when it can (8.3): ")
                    + f"{', '.join(ids)} ({_group(e)})." for e, ids in sorted(waiting.items(), key=lambda kv: (
                        kv[0].turn, kv[0].hexes, kv[0].corps, kv[0].division or ""))]
        turns = sorted({e.turn for e in self.ctx.entries if _to_come(e, state)})
        return [f"German entry on turn {turn} (8.2): "
                + "; ".join(f"{_group(e)} through {_through(e)}" for e in self.ctx.entries if e.turn == turn) + "."
                for turn in turns]



# --- one sentence per event type (`events.EVENTS`), for the report -------------------------------
# Each takes the event, the acting side's name and the section in brackets (" (9.1)" or "").


def _move(event: Mapping[str, Any], side: str, sec: str) -> str:
    """"German G-IR12 entered the map at 3100 and marched to 2906 (8.4).", "British B-H moved from 1625
    to 1628 and left the map (4.4).", "British B-L left the map from 1628 (4.4)."."""
    units = ", ".join(event.get("units", []))
    steps = [str(x) for x in event.get("path", [])]
    on_map = [h for h in steps if h != OFF]
    how = "marched" if event.get("march") else "moved"
    if event.get("entered"):
        entered = str(event["entered"])
        went = on_map[1:] if on_map[:1] == [entered] else on_map
        said = f"{side} {units} entered the map at {entered}" + (" when due" if event.get("automatic") else "")
        said += f" and {how} to {went[-1]}" if went else ""
    elif on_map and on_map[-1] != event.get("from"):
        said = f"{side} {units} {how} from {event.get('from')} to {on_map[-1]}"
    else:
        said = f"{side} {units}"
    if event.get("exited") or steps[-1:] == [OFF]:
        said += " and left the map" if said != f"{side} {units}" else f" left the map from {event.get('from')}"
    if event.get("stopped"):
        said += ", where an enemy zone of control stopped it"
        sec = f" ({event['section']}, 7.3)" if event.get("section") else " (7.3)"
    return f"{said}{sec}."


def _bombard(event: Mapping[str, Any], side: str, sec: str) -> str:
    losses = event.get("losses")
    guns = ", ".join(event.get("with") or []) or "from " + ", ".join(event.get("from") or ["?"])
    return (f"{side} artillery ({guns}) bombarded {event.get('target')} with "
            f"{event.get('factors')} factor(s): rolled {event.get('roll')}, modified {event.get('modified')}, "
            f"{losses} step(s) lost{sec}.")


def _melee(event: Mapping[str, Any], side: str, sec: str) -> str:
    lost = [r["unit"] for r in event.get("defender_results", []) + event.get("attacker_results", [])
            if r.get("eliminated")]
    tail = f"; eliminated: {', '.join(lost)}" if lost else ""
    return (f"{side} melee on {event.get('target')}: attack {event.get('attack')} against defence "
            f"{event.get('defence')}{tail}{sec}.")


SENTENCES: dict[str, Callable[[Mapping[str, Any], str, str], str]] = {
    "move": _move,
    "bombard": _bombard,
    "melee": _melee,
    "melee-void": lambda event, side, sec: f"A {side} melee on {event.get('target')} did not happen: "
                                           f"{event.get('why')}{sec}.",
    "order-void": lambda event, side, sec: f"A {side} order was void: {event.get('reason') or event.get('why')}{sec}.",
    "entry-delayed": lambda event, side, sec: f"{side} {event.get('unit')} could not enter this turn{sec}.",
    "sequence": lambda event, side, sec: f"The {side} side chose the "
                                         f"{str(event.get('sequence')).replace('-', ' ')} sequence{sec}.",
    "turn": lambda event, side, sec: f"Turn {event.get('turn')} began{sec}.",
    "victory": lambda event, side, sec: f"The game is over: {event.get('reason')}{sec}.",
    "concede": lambda event, side, sec: f"The {side} side conceded{sec}.",
    "overstack": lambda event, side, sec: f"Overstacked units were removed{sec}.",
}
SILENT = frozenset({"top"})  # event types the report leaves out (a restacking shows in the picture)
