"""The bob picture adapter (`Ruleset.picture`): Band of Brothers views as pictures and sentences.

Everything drawn or said comes from the view (`fog.view`): own units in full; the enemy's pieces
exactly as the view lists them (a unit face up with its type and markers, a conceal marker as its
name with its Used and Op Fire markers only); the foxholes, the objectives and who holds them.
The board is the printed map with the scenario's special terrain (14.0): orchard hexes drawn as
orchards, dike road hexes with the map's `dike` feature.

Markers are tokens beside the counters, each naming its unit in its tooltip and `data-unit`:
suppression (S1 yellow, S2 red: 7.0), Used (U) and Op Fire (OF) (4.0), a CP spent (CP, 3.0); an
own concealed unit is drawn as itself with a token bearing its conceal marker's name (15.0),
the one name the other side knows it by. The overlay draws the last adjudication from the
view's events: moves and routs along their hexes, each fire from the firer's hex to the target
hex labelled with firepower, roll and results, melees (M) and markers taken off (R) on their hex.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.geometry.hexgrid import Hex
from pbem.geometry.hexmap import HexMap
from pbem.render.adapters import Action, Adapter, Counter, Mark, Picture, View

from .context import SIDES, Context, other

SIDE_NAMES = {"american": "American", "german": "German"}
SYMBOLS = {"squad": "infantry", "wt": "hw", "gun": "artillery", "vehicle": "armour"}  # by unit kind (2.0, V2, V3;
# the scenario's vehicles, a Sherman and a StuG, are tracked); a decoy gets none
DIKE = "dike"  # the hex feature a map marks dike road hexes with (14.0)
ROUT = "move"  # the overlay kind a rout is drawn as (the drawing has no kind of its own for it)
PHASE_NAMES = {"setup": "Set-up", "preturn": "Pre-turn", "operations": "Operations", "rout": "Rout",
               "melee": "Melee", "recovery": "Recovery"}

# kind -> (label, words for the legend); the section is in the words
TOKENS = {
    "supp-1": ("S1", "yellow suppression marker (7.0)"),
    "supp-2": ("S2", "red suppression marker (7.0)"),
    "used": ("U", "Used marker (4.0)"),
    "opfire": ("OF", "Op Fire marker (4.0)"),
    "cp": ("CP", "a command point spent on the unit this turn (3.0)"),
    "conceal": ("", "own unit under a conceal marker: the marker's name (15.0)"),
    "foxhole": ("F", "foxhole (14.0)"),
    "melee": ("M", "melee in the last adjudication (12.0)"),
    "reveal": ("R", "conceal marker taken off in the last adjudication (15.0)"),
}
WEIGHTS = {"supp-1": "light", "supp-2": "heavy"}  # the drawing's lighter and darker token inks
MARKERS = {"used": "Used", "opfire": "Op Fire", "cp": "CP"}


def side_name(side: Any) -> str:
    return SIDE_NAMES.get(str(side), str(side or "").capitalize())


def short_name(type_name: str) -> str:
    """"us-para-squad" -> "para squad", "de-mg-team" -> "MG team" (the counter's type in words)."""
    words = type_name.split("-")
    if words[0] in ("us", "de"):
        words = words[1:]
    return " ".join("MG" if w == "mg" else w for w in words)


def display_map(ctx: Context) -> HexMap:
    """The printed map with the scenario's orchards as terrain and its dike road hexes as `dike` (14.0),
    built once per context (the drawing keeps a map's static layers while the same map object comes back)."""
    found = ctx.cache.get("picture-map")
    if isinstance(found, HexMap):
        return found
    printed = ctx.map
    terrain = dict(printed.hex_terrain)
    features = dict(printed.hex_features)
    for hex_id in ctx.orchards:
        terrain[Hex.parse(hex_id)] = "orchard"
    for hex_id in ctx.dikes:
        h = Hex.parse(hex_id)
        if DIKE not in features.get(h, ()):
            features[h] = (*features.get(h, ()), DIKE)
    changed = terrain != printed.hex_terrain or features != printed.hex_features
    shown = printed.replaced(hex_terrain=terrain, hex_features=features) if changed else printed
    ctx.cache["picture-map"] = shown
    return shown


class BobAdapter(Adapter):
    ruleset_id = "bob"
    sides = SIDES
    value_note = "counter: id, then firepower-range-proficiency (a Reduced unit: its reduced values)"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def side_name(self, side: str | None) -> str:
        return side_name(side)

    # --- the picture ------------------------------------------------------------------------------
    def picture(self, view: View) -> Picture:
        state = view["state"]
        me = str(view["side"])
        pic = Picture(map=display_map(self.ctx), title="")
        self._board(state, me, pic)
        own = state.get("units") or {}
        levels: dict[str, int] = {}
        for uid, unit in sorted(own.items()):
            if unit.get("status") != "active":
                pic.off_map.append((uid, me, self._where(uid, unit)))
                continue
            hex_id = str(unit["hex"])
            level = levels[hex_id] = levels.get(hex_id, -1) + 1
            pic.own.append(self._counter(uid, unit, me, hex_id, True, level))
            self._tokens(pic, uid, unit, me, hex_id)
            if unit.get("concealed") and unit.get("marker"):
                pic.marks.append(Mark("conceal", hex_id, str(unit["marker"]), me,
                                      f"{uid} is under conceal marker {unit['marker']}: the other side sees only "
                                      f"the marker (15.0)", (("unit", uid),)))
        them = other(me)
        levels = {}
        for piece in state.get("enemy") or []:
            hex_id = str(piece["hex"])
            level = levels[hex_id] = levels.get(hex_id, -1) + 1
            name = str(piece.get("unit") or piece.get("marker") or "")
            if piece.get("unit"):
                pic.enemy.append(self._counter(name, piece, them, hex_id, False, level))
            else:
                flags = tuple(k for k in ("used", "opfire") if piece.get(k))
                pic.enemy.append(Counter(name, them, hex_id, "conceal", (), False, 1, level, ("concealed", *flags),
                                         "a conceal marker: a unit or a decoy (15.0)"))
            self._tokens(pic, name, piece, them, hex_id)
        for uid in state.get("enemy_eliminated") or []:
            pic.off_map.append((str(uid), them, "eliminated"))
        decoys = int(state.get("enemy_decoys_removed") or 0)
        if decoys:
            pic.notes.append(f"{side_name(them)} conceal markers found to be decoys and removed: {decoys} (15.0)")
        pic.keys.update({kind: words for kind, (_, words) in TOKENS.items()})
        self._events(view, pic)
        return pic

    def _board(self, state: Mapping[str, Any], me: str, pic: Picture) -> None:
        """Objectives with who holds them and their VP (18.0), foxholes (14.0), the set-up areas while
        the sides set up (18.0), and the own entry hexes while own units wait to enter (18.0)."""
        for hex_id, holder in sorted((state.get("held") or {}).items()):
            vp = self.ctx.card.objectives.get(str(hex_id), (0, ""))[0]
            pic.marks.append(Mark(f"objective-{holder}", str(hex_id), str(vp), str(holder),
                                  f"objective {hex_id}: {vp} VP, held by the {side_name(holder)} side (18.0)",
                                  style="outline"))
            pic.keys[f"objective-{holder}"] = f"objective held by the {side_name(holder)} side, its VP by the " \
                                              "corner (18.0)"
        for hex_id in state.get("foxholes") or []:
            pic.marks.append(Mark("foxhole", str(hex_id), TOKENS["foxhole"][0], detail=f"a foxhole in {hex_id} (14.0)"))
        if state.get("phase") == "setup":
            for side in SIDES:
                for hex_id in self.ctx.setup_area(side):
                    pic.marks.append(Mark(f"setup-{side}", hex_id, side=side, style="hatch",
                                          detail=f"{hex_id}: in the {side_name(side)} set-up area (18.0)"))
                pic.keys[f"setup-{side}"] = f"{side_name(side)} set-up area (18.0)"
        if any(u.get("status") == "waiting" and self.ctx.units[uid].enters is not None
               for uid, u in (state.get("units") or {}).items() if uid in self.ctx.units):
            for hex_id in self.ctx.entry_hexes(me):
                pic.marks.append(Mark("entry", hex_id, "E", me, f"{side_name(me)} entry hex {hex_id} (18.0)",
                                      style="outline"))
            pic.keys["entry"] = f"{side_name(me)} entry hex for reinforcements (18.0)"

    def _counter(self, uid: str, piece: Mapping[str, Any], side: str, hex_id: str, own: bool, level: int) -> Counter:
        kind = self.ctx.types.get(str(piece.get("type")))
        reduced = bool(piece.get("reduced"))
        values: tuple[tuple[str, Any], ...] = ()
        if kind is not None and kind.kind != "decoy":
            face = kind.face(reduced)
            values = (("firepower", face.firepower), ("range", face.range), ("prof", face.prof))
        flags = tuple(f for f in ("reduced", "used", "opfire", "cp", "concealed") if piece.get(f))
        if int(piece.get("supp") or 0):
            flags += (f"supp-{int(piece['supp'])}",)
        note = short_name(str(piece.get("type"))) + (", Reduced" if reduced else "")
        if kind is not None and kind.heavy and "facing" in piece:
            note += f", {'vehicle' if kind.vehicle else 'gun'} facing {piece['facing']} (V4)"
            note += ", Move marker (V3)" if piece.get("moved") else ""
        if own and piece.get("concealed") and piece.get("marker"):
            note += f", under conceal marker {piece['marker']}"
        symbol = SYMBOLS.get(kind.kind if kind else "", "decoy")
        return Counter(uid, side, hex_id, symbol, values, own, 1, level, flags, note)

    def _tokens(self, pic: Picture, name: str, piece: Mapping[str, Any], side: str, hex_id: str) -> None:
        """The unit's (or conceal marker's) markers as tokens beside it."""
        supp = int(piece.get("supp") or 0)
        kinds = ([f"supp-{supp}"] if supp else []) + [k for k in MARKERS if piece.get(k)]
        for kind in kinds:
            data: tuple[tuple[str, str], ...] = (("unit", name),)
            if kind in WEIGHTS:
                data += (("weight", WEIGHTS[kind]),)
            pic.marks.append(Mark(kind, hex_id, TOKENS[kind][0], side, f"{name}: {TOKENS[kind][1]}", data))

    def _where(self, uid: str, unit: Mapping[str, Any]) -> str:
        status = unit.get("status")
        scenario = self.ctx.units.get(uid)
        if status == "waiting":
            if scenario is not None and scenario.enters is not None:
                return f"to enter on turn {scenario.enters} (18.0)"
            return "to set up (18.0)"
        if status == "removed":
            return "decoys removed (15.0)"
        return str(status)

    def _events(self, view: View, pic: Picture) -> None:
        """The overlay of the last adjudication, from the events the view holds."""
        for event in view.get("events") or []:
            event = _own_names(event, view)
            kind = event.get("type")
            side = str(event.get("side") or "")
            detail = self.sentence(event, view) or ""
            if kind == "move":
                path = [str(h) for h in [event.get("from"), *(event.get("path") or []), event.get("back_to")] if h]
                if len(path) >= 2:
                    pic.actions.append(Action("move", side, tuple(path), detail=detail, units=(_name(event),)))
            elif kind == "rout" and event.get("to"):
                pic.actions.append(Action(ROUT, side, (str(event.get("from")), str(event["to"])), detail=detail,
                                          units=(_name(event),)))
            elif kind == "fire":
                pic.actions.append(Action("fire", side, (str(event.get("from")),), str(event.get("target")),
                                          _fire_label(event), detail, (str(event.get("firer")),)))
            elif kind == "melee" and event.get("hex"):
                pic.marks.append(Mark("melee", str(event["hex"]), TOKENS["melee"][0], detail=detail))
            elif kind == "reveal" and event.get("hex"):
                pic.marks.append(Mark("reveal", str(event["hex"]), TOKENS["reveal"][0], side, detail,
                                      (("marker", str(event.get("marker"))),)))

    # --- words ------------------------------------------------------------------------------------
    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        words = SENTENCES.get(str(event.get("type")))
        if words is None:
            return None
        sec = f" ({event['section']})" if event.get("section") else ""
        return words(_own_names(event, view), side_name(event.get("side")), sec)

    def state_lines(self, view: View) -> list[str]:
        state = view["state"]
        me = str(view.get("side"))
        them = other(me)
        phase = str(state.get("phase"))
        lines = [f"Turn {state.get('turn')} of {self.ctx.card.turns}, {PHASE_NAMES.get(phase, phase)} Phase"
                 + (f", the {side_name(state.get('active'))} impulse (impulse {state.get('impulse')}, 4.0)."
                    if phase in ("preturn", "operations") else ".")]
        cps = state.get("cps") or {}
        lines.append("Command points left this turn (3.0): "
                     + ", ".join(f"{side_name(s)} {cps.get(s, 0)}" for s in SIDES) + ".")
        held = state.get("held") or {}
        if held:
            lines.append("Objectives (18.0): " + "; ".join(
                f"{h} ({self.ctx.card.objectives.get(str(h), (0, ''))[0]} VP) held by {side_name(s)}"
                for h, s in sorted(held.items())) + ".")
        units = state.get("units") or {}
        counts = {status: sum(1 for u in units.values() if u.get("status") == status)
                  for status in ("active", "waiting", "eliminated", "removed")}
        lines.append(f"{side_name(me)}: {counts['active']} on the map, {counts['waiting']} to enter, "
                     f"{counts['eliminated']} eliminated, {counts['removed']} decoy(s) removed.")
        enemy = state.get("enemy") or []
        markers = sum(1 for p in enemy if not p.get("unit"))
        lost = list(state.get("enemy_eliminated") or [])
        lines.append(f"{side_name(them)}: {len(enemy)} piece(s) seen, {markers} of them conceal markers; "
                     f"eliminated: {', '.join(lost) or 'none'}; decoys found: "
                     f"{int(state.get('enemy_decoys_removed') or 0)} (15.0).")
        if state.get("result"):
            result = state["result"]
            lines.append(_victory(result, "", f" ({result['section']})" if result.get("section") else ""))
        return lines


def _own_names(event: Mapping[str, Any], view: View) -> Mapping[str, Any]:
    """The event with the side's own units named where the other side's fire names only their marker
    (fog masks the result for the firer's opponent, who knows what is under its own markers)."""
    if event.get("type") != "fire" or all(r.get("unit") for r in event.get("results") or []):
        return event
    under = {str(u["marker"]): uid for uid, u in ((view.get("state") or {}).get("units") or {}).items()
             if u.get("concealed") and u.get("marker")}
    results = [{**r, "unit": under[str(r.get("as"))]} if not r.get("unit") and str(r.get("as")) in under else r
               for r in event.get("results") or []]
    return {**event, "results": results}


def _name(event: Mapping[str, Any]) -> str:
    """How an event names its unit: itself, "A3 (under US-3)" to its owner, "marker US-3" to the other side."""
    unit, shown = event.get("unit"), event.get("as") or event.get("marker")
    if unit and shown and unit != shown:
        return f"{unit} (under {shown})"
    if unit:
        return str(unit)
    return f"marker {shown or '?'}"


def _result_name(result: Mapping[str, Any]) -> str:
    unit, shown = result.get("unit"), result.get("as")
    if unit and shown and unit != shown:
        return f"{shown} ({unit})"
    return str(unit or shown or "?")


def _fire_label(event: Mapping[str, Any]) -> str:
    """"6f r4: G2 S, DE-2 –": firepower, the roll, each target's result (S, R, ✕, decoy ✕, – none)."""
    short = {"none": "–", "suppressed": "S", "reduced": "R", "eliminated": "✕", "removed": "decoy ✕"}
    results = ", ".join(f"{_result_name(r)} {short.get(str(r.get('result')), r.get('result'))}"
                        for r in event.get("results") or [])
    return f"{event.get('firepower')}f r{event.get('roll')}: {results or 'nobody there'}"


# --- one sentence per event type (`events.EVENTS`), for the report -------------------------------
# Each takes the event, the acting side's name and the section in brackets (" (6.0)" or "").

RESULTS = {"none": "no effect", "suppressed": "suppressed", "reduced": "reduced and fully suppressed",
           "eliminated": "eliminated", "removed": "a decoy, removed",
           "revealed": "a vehicle, its marker off and nothing else (V1, V5)"}
FIRES = {"fire": "fired at", "assault": "assault fired at", "op": "fired Op Fire at a mover in",
         "final": "fired Final Op Fire at a mover in"}
ENDED = {"entered an enemy's hex": "where it entered an enemy's hex and stopped",
         "failed its check under fire": "where it failed its check under fire and stopped",
         "stopped": "where it stopped", "eliminated": "where it was eliminated",
         "removed": "where it was found to be a decoy and removed"}


def _modifiers(mods: Any) -> str:
    """" +1 woods -1 adjacent": each modifier of a fire result with its name."""
    if not isinstance(mods, Mapping):
        return ""
    return "".join(f" {int(v):+d} {str(k).replace('_', ' ').replace('-', ' ')}" for k, v in mods.items())


def _fire(event: Mapping[str, Any], side: str, sec: str) -> str:
    """"American A3 fired at 0507 (6.0): roll 4, +1 woods = 5 against firepower 6: G2 suppressed."."""
    how = FIRES.get(str(event.get("fire")), "fired at")
    ways = [w for w, on in (("at long range, half firepower", event.get("long")),
                            ("by directed fire", event.get("directed"))) if on]
    head = f"{side} {event.get('firer')} {how} {event.get('target')}" + (f" {', '.join(ways)}" if ways else "")
    roll = event.get("roll")
    if roll == 10:
        return f"{head}{sec}: roll 10, which never has an effect."
    clauses = []
    for result in event.get("results") or []:
        mods = _modifiers(result.get("modifiers"))
        total = f",{mods} = {result.get('modified')}" if mods else ""
        clauses.append(f"roll {roll}{total} against firepower {event.get('firepower')}: {_result_name(result)} "
                       f"{RESULTS.get(str(result.get('result')), result.get('result'))}")
    return f"{head}{sec}: " + ("; ".join(clauses) or f"roll {roll}, nobody there") + "."


def _check(event: Mapping[str, Any], side: str, sec: str) -> str:
    """"German G5 passed its Morale Check to move: rolled 4 against morale 8 (5.0)." (a masked check
    has neither rolls nor morale: "German marker DE-2 passed its Morale Check to move (5.0).")."""
    test = {"morale": "Morale Check", "prof": "Prof Check"}.get(str(event.get("kind")), "check")
    purpose = str(event.get("purpose") or "")
    said = f"{side} {_name(event)} {'passed' if event.get('passed') else 'failed'} its {test}"
    said += " against rout" if purpose == "rout" else f" to {purpose}" if purpose else ""
    if event.get("why"):
        said += f" ({event['why']})"
    rolls, morale = event.get("rolls"), event.get("morale")
    if isinstance(rolls, list) and morale is not None:
        added = int(event.get("added") or 0)
        told = [f"{r} {added:+d} = {int(r) + added}" if added else str(r) for r in rolls]
        if not told:
            said += f" without a roll: no roll could {'fail' if event.get('passed') else 'pass'} against morale {morale}"
        else:
            said += f": rolled {told[0]} against morale {morale}" + (
                f", then {told[1]} on a command point's re-roll (3.0)" if len(told) > 1 else "")
    if event.get("result"):
        said += f"; it is {event['result']}"
    return f"{said}{sec}."


def _move(event: Mapping[str, Any], side: str, sec: str) -> str:
    """"American A9 entered the map at 0101 and moved to 0502 (5.0, 18.0)."."""
    path = [str(h) for h in event.get("path") or []]
    start = event.get("from")
    verb = "retreated" if event.get("retreat") else "moved"
    sections = [sec.strip(" ()")] if sec else []
    sections += ["5.1"] if event.get("retreat") else []
    who = f"{side} {_name(event)}"
    if not path:
        said = f"{who} did not move" + (f" from {start}" if start else " onto the map")
        said += f": it {event['ended']}" if event.get("ended") else ""
    else:
        if start is None:
            sections.append("18.0")
            said = f"{who} entered the map at {path[0]}" + (f" and {verb} to {path[-1]}" if len(path) > 1 else "")
            between = path[1:-1]
        else:
            said = f"{who} {verb} from {start} to {path[-1]}"
            between = path[:-1]
        said += f" by {', '.join(between)}" if between else ""
        if event.get("ended"):
            said += ", " + ENDED.get(str(event["ended"]), str(event["ended"]))
        if event.get("back_to"):
            said += f", then went back to {event['back_to']} rather than overstack"
    return said + (f" ({', '.join(sections)})" if sections else "") + "."


def _reveal(event: Mapping[str, Any], side: str, sec: str) -> str:
    where = f" in {event['hex']}" if event.get("hex") else ""
    said = f"{side} conceal marker {event.get('marker')}{where} came off ({event.get('why')})"
    if event.get("decoy"):
        return f"{said}: it was a decoy, {event.get('unit')}, and is removed{sec}."
    return f"{said}: under it was {event.get('unit')}{sec}."


def _artillery(event: Mapping[str, Any], side: str, sec: str) -> str:
    said = (f"The {side} side called {event.get('support')} on {event.get('at')}: Prof Check roll "
            f"{event.get('prof_roll')}" + (f" +{event['op_fire']} for Op Fire" if event.get("op_fire") else "") +
            f" against {event.get('prof')}")
    if "accuracy_roll" in event:
        said += f", accuracy roll {event.get('accuracy_roll')} against {event.get('accuracy')}"
    drift = event.get("drift")
    if isinstance(drift, Mapping):
        said += f", drifting {drift.get('hexes')} hex(es) toward hexside {drift.get('direction')} (d6 {drift.get('d6')})"
    where = f"the Fire Mission lands on {event['landed']}" if event.get("landed") else str(event.get("why"))
    return f"{said}; {where}{sec}."


def _bombard(event: Mapping[str, Any], side: str, sec: str) -> str:
    results = [f"{_result_name(r)}{_modifiers(r.get('modifiers'))} = {r.get('modified')}: "
               f"{RESULTS.get(str(r.get('result')), r.get('result'))}" for r in event.get("results") or []]
    return (f"{side} {event.get('support')}'s Fire Mission in {event.get('hex')}{sec}: roll {event.get('roll')} "
            f"against firepower {event.get('firepower')}" + (f"; {'; '.join(results)}" if results else
                                                             ", nobody there") + ".")


def _concealed(event: Mapping[str, Any], side: str, sec: str) -> str:
    if event.get("unit"):
        return (f"{side} {event['unit']} in {event.get('hex')} went under conceal marker {event.get('marker')}, "
                f"out of every enemy unit's sight{sec}.")
    article = "An" if side[:1] in ("A", "E", "I", "O", "U") else "A"
    return f"{article} {side} unit in {event.get('hex')} went under a new conceal marker, {event.get('marker')}{sec}."


def _rout(event: Mapping[str, Any], side: str, sec: str) -> str:
    who = f"{side} {_name(event)}"
    if event.get("eliminated") or not event.get("to"):
        return f"{who} routed from {event.get('from')} with nowhere to go and is eliminated{sec}."
    return f"{who} routed from {event.get('from')} to {event['to']}{sec}."


def _melee(event: Mapping[str, Any], side: str, sec: str) -> str:
    """"Melee in 0603 (12.0): A2 rolled 8, 10; G3 rolled 10, 9; the American side takes 0 hits, ..."."""
    rolls = event.get("rolls") or {}
    said = "; ".join(f"{uid} rolled {', '.join(str(d) for d in dice)}" for uid, dice in sorted(rolls.items()))
    hits = event.get("hits") or {}
    said += ("; " if said else "") + ", ".join(f"the {side_name(s)} side takes {n} hit(s)"
                                                for s, n in sorted(hits.items()))
    losses = [f"{loss.get('unit')} {loss.get('result')}" for loss in event.get("losses") or []]
    return f"Melee in {event.get('hex')}{sec}: {said}" + (f"; {', '.join(losses)}" if losses else "") + "."


def _setup(event: Mapping[str, Any], side: str, sec: str) -> str:
    units = event.get("units") or {}
    where = ", ".join(f"{uid} in {hex_id}" for uid, hex_id in sorted(units.items()))
    return f"The {side} side set up {len(units)} unit(s){sec}: {where or 'none'}."


def _victory(event: Mapping[str, Any], side: str, sec: str) -> str:
    winner = event.get("winner")
    scores = event.get("scores") or {}
    said = f"The game is over ({event.get('reason')}): " + (f"the {side_name(winner)} side wins" if winner else "a draw")
    if scores:
        said += ", " + " to ".join(f"{side_name(s)} {n} VP" for s, n in sorted(scores.items()))
    return f"{said}{sec}."


SENTENCES: dict[str, Callable[[Mapping[str, Any], str, str], str]] = {
    "setup": _setup,
    "turn": lambda event, side, sec: f"Turn {event.get('turn')} began{sec}.",
    "phase": lambda event, side, sec: (f"The Operations Phase of turn {event.get('turn')} is over; the "
                                       f"{PHASE_NAMES.get(str(event.get('phase')), event.get('phase'))} Phase "
                                       f"follows{sec}."),
    "check": _check,
    "move": _move,
    "fire": _fire,
    "mark": lambda event, side, sec: (f"{side} {_name(event)} was marked "
                                      f"{MARKERS.get(str(event.get('mark')), event.get('mark'))}{sec}."),
    "cp": lambda event, side, sec: f"The {side} side spent a command point on {_name(event)}: {event.get('why')}{sec}.",
    "reveal": _reveal,
    "turn-facing": lambda event, side, sec: (f"{side} {_name(event)} turned within {event.get('hex')} from facing "
                                             f"{event.get('from')} to {event.get('to')}{sec}."),
    "close-assault": lambda event, side, sec: (f"{side} {_name(event)} close assaulted {event.get('vehicle')} in "
                                               f"{event.get('hex')}: rolled {event.get('roll')}"
                                               f"{' +' + str(event['modifier']) if event.get('modifier') else ''} "
                                               f"against melee firepower {event.get('strength')}, "
                                               f"{'destroyed it' if event.get('result') == 'destroyed' else 'no effect'}, "
                                               f"and went back to the hex it came from{sec}."),
    "artillery": _artillery,
    "bombard": _bombard,
    "concealed": _concealed,
    "rout": _rout,
    "melee": _melee,
    "order-void": lambda event, side, sec: f"{side} {event.get('unit')}'s order was void: {event.get('why')}{sec}.",
    "concede": lambda event, side, sec: f"The {side} side conceded{sec}.",
    "victory": _victory,
}
