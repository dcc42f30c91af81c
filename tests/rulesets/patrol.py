"""`patrol`: a test-only miniatures ruleset that drives the table machinery end to end.

It is not a shipped game: it exists so the plane geometry, the table map, the positions
vocabulary and the table pictures are exercised through real games, views, `pbem check`
and audits before bst and wtj1916 build on them. Its rules, cited as sections below:

  T1  A turn: red moves, then blue moves, then both sides fire at once.
  M1  Each squad may move once per move phase with one positions clause (`to`, `path`,
      `toward` with `distance` or `max`, `face`); its bases keep formation. Allowance 150.
  M2  A move whose path enters an area that slows (`slows` property) costs 50 more.
  M3  A move stops at the first whole unit where a base comes within 30 (contact) of an
      enemy base; the mover learns which base stopped it.
  S1  A base sees an enemy base when the line between their centres crosses no feature
      that blocks sight (`blocks_sight`) and touches no other base.
  S2  A side's view holds the enemy bases one of its bases sees, and nothing else of them.
  F1  A squad may fire at one enemy base its side sees: every base of the squad that sees
      the target, within 300 edge to edge and with any of it in the base's front 180
      degrees, rolls a d6; a 5 or 6 hits. Fire is simultaneous; a hit base is removed.
  F2  Fire is public: both sides learn which squad fired, at what, its rolls and the result.
  V1  A side with no bases left loses; after the last turn the game is drawn.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Mapping

from pbem.core.chance import Dice
from pbem.core.errors import PbemError, Problem
from pbem.core.ruleset import Decisions, Resolution, Ruleset, State, Submission
from pbem.geometry import plane
from pbem.geometry.tablemap import TABLE_MAP_SCHEMA, TableMap, TableMapError
from pbem.rulesets.kit import positions

SIDES = ("red", "blue")
ALLOWANCE = 150
SLOW_COST = 50
CONTACT = 30
RANGE = 300
BASE = 30


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


def pick(seed: bytes, label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(seed + label.encode()).digest()[:8], "big") % n


@dataclass(frozen=True)
class Patrolling:
    """The prepared context: the table and which side each squad is on."""

    table: TableMap
    squads: Mapping[str, str]

    def base(self, entry: Mapping[str, Any]) -> plane.Base:
        return plane.Base((entry["at"][0], entry["at"][1]), entry["facing"], BASE, BASE)

    def sees(self, bases: Mapping[str, Mapping[str, Any]], eye: str, target: str) -> bool:
        """S1, from the bases given (the referee's state, or a side's view)."""
        a, b = bases[eye]["at"], bases[target]["at"]
        a, b = (a[0], a[1]), (b[0], b[1])
        for crossing in self.table.sight(a, b):
            if self.table.properties(crossing.key).get("blocks_sight"):
                return False
        others = [(uid, self.base(entry).shape) for uid, entry in sorted(bases.items()) if uid not in (eye, target)]
        return not plane.passes_near(a, b, others, 0)

    def seen_by(self, bases: Mapping[str, Mapping[str, Any]], side: str) -> list[str]:
        """S2: the enemy bases some base of `side` sees, in id order."""
        own = [uid for uid, entry in sorted(bases.items()) if self.squads[entry["squad"]] == side]
        return [uid for uid, entry in sorted(bases.items())
                if self.squads[entry["squad"]] != side and any(self.sees(bases, eye, uid) for eye in own)]


class Patrol(Ruleset[Patrolling]):
    id = "patrol"
    version = "1"
    title = "Patrol (table test fixture)"

    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        return list(SIDES)

    def scenario_schema(self) -> dict[str, Any]:
        point = positions.POINT_SCHEMA
        base = {"type": "object", "additionalProperties": False, "required": ["at", "facing"],
                "properties": {"at": point, "facing": {"type": "integer", "minimum": 0, "maximum": 359}}}
        squad = {"type": "object", "additionalProperties": False, "required": ["side", "bases"],
                 "properties": {"side": {"enum": list(SIDES)},
                                "bases": {"type": "object", "minProperties": 1, "maxProperties": 4,
                                          "propertyNames": {"pattern": "^[a-z][a-z0-9-]*$"},
                                          "additionalProperties": base}}}
        return {"type": "object", "additionalProperties": False, "required": ["turns", "table", "squads"],
                "properties": {"turns": {"type": "integer", "minimum": 1, "maximum": 20},
                               "table": {**TABLE_MAP_SCHEMA, "$id": "https://pbem.invalid/schemas/table-map.json"},
                               "squads": {"type": "object", "minProperties": 2, "maxProperties": 12,
                                          "propertyNames": {"pattern": "^[a-z][a-z0-9-]*$"},
                                          "additionalProperties": squad}}}

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        setup = scenario["setup"]
        try:
            table = TableMap.from_dict(setup["table"])
        except TableMapError as error:
            raise PbemError([Problem(f"the table: {error}", path=("setup", "table"))]) from error
        for sid, squad in setup["squads"].items():
            for bid, entry in squad["bases"].items():
                base = plane.Base((entry["at"][0], entry["at"][1]), entry["facing"], BASE, BASE)
                if not table.on_table(base.shape):
                    raise PbemError([Problem(f"base {bid} at {entry['at']} is not wholly on the table",
                                             path=("setup", "squads", sid, "bases", bid, "at"),
                                             legal=f"a centre {BASE // 2} or more inside every edge")])
        return {"table": setup["table"], "squads": {sid: squad["side"] for sid, squad in setup["squads"].items()}}

    def prepare(self, setup: Mapping[str, Any]) -> Patrolling:
        return Patrolling(TableMap.from_dict(setup["table"]), dict(setup["squads"]))

    def initial_state(self, context: Patrolling, scenario: Mapping[str, Any]) -> State:
        setup = scenario["setup"]
        bases = {bid: {"squad": sid, "at": list(entry["at"]), "facing": entry["facing"]}
                 for sid, squad in sorted(setup["squads"].items()) for bid, entry in sorted(squad["bases"].items())}
        return {"setup": self.setup(scenario), "phase": "red-move", "turn": 1, "last_turn": setup["turns"],
                "bases": bases, "lost": {}}

    def phase_names(self) -> list[str]:
        return ["red-move", "blue-move", "fire"]

    def phase(self, context: Patrolling, state: State) -> str:
        return str(state["phase"])

    def awaiting(self, context: Patrolling, state: State) -> list[str]:
        return {"red-move": ["red"], "blue-move": ["blue"]}.get(state["phase"], list(SIDES))

    def result(self, context: Patrolling, state: State) -> dict[str, Any] | None:
        for side in SIDES:
            if not any(context.squads[b["squad"]] == side for b in state["bases"].values()):
                return {"winner": other(side), "section": "V1", "reason": f"{side} has no bases left"}
        if state["turn"] > state["last_turn"]:
            return {"winner": None, "section": "V1", "reason": "last turn played"}
        return None

    def order_schema(self, phase: str) -> dict[str, Any]:
        squad = {"type": "string"}
        if phase.endswith("-move"):
            item = positions.move_schema(required=["squad"], extra={"squad": squad})
        else:
            item = {"type": "object", "additionalProperties": False, "required": ["squad", "fire"],
                    "properties": {"squad": squad, "fire": {"type": "string"}}}
        return {"type": "array", "items": item, "maxItems": 12}

    def order_kinds(self, phase: str) -> list[str]:
        if phase.endswith("-move"):
            return ["{squad: ID, to: [x, y]}  or path: [[x, y], ...], or toward: [x, y] with distance: N|max;"
                    " face: DEG|[x, y]  (M1, allowance 150)"]
        return ["{squad: ID, fire: BASE}  at an enemy base you see (F1)"]

    # --- orders ---------------------------------------------------------------------------------
    def validate(self, context: Patrolling, view: State, side: str, orders: list[Any]) -> list[Problem]:
        problems: list[Problem] = []
        own = sorted(s for s, owner in context.squads.items() if owner == side)
        used: set[str] = set()
        for index, order in enumerate(orders):
            squad = order["squad"]
            bases = {bid: context.base(entry) for bid, entry in sorted(view["bases"].items())
                     if entry["squad"] == squad}
            if squad not in own or not bases:
                problems.append(Problem(f"{squad} is not a {side} squad with bases on the table", order=index,
                                        path=("squad",), section="M1" if "fire" not in order else "F1",
                                        legal=", ".join(s for s in own if any(
                                            e["squad"] == s for e in view["bases"].values())) or "none"))
                continue
            if squad in used:
                problems.append(Problem(f"{squad} already has an order this phase", order=index, path=("squad",),
                                        section="M1" if "fire" not in order else "F1", legal="one order per squad"))
            used.add(squad)
            if "fire" in order:
                problems.extend(self._check_fire(context, view, bases, order, index))
            else:
                _, found = self._plan(context, bases, order, index)
                problems.extend(found)
        return problems

    def _plan(self, context: Patrolling, bases: dict[str, plane.Base], order: Mapping[str, Any], index: int,
              obstacles: list[tuple[str, plane.Shape]] | None = None) -> tuple[positions.Movement | None, list[Problem]]:
        table = context.table
        board = positions.Table(table.width, table.depth, table.unit, "M1")
        clause = {key: value for key, value in order.items() if key != "squad"}
        reference = sorted(bases)[0]
        return positions.plan_move(clause, bases, reference, ALLOWANCE, board, obstacles=obstacles or [],
                                   reach=CONTACT, penalty=lambda path: self._slowed(context, path), order=index)

    def _slowed(self, context: Patrolling, path: Any) -> int:
        """M2: the extra cost of a path that enters an area that slows."""
        for a, b in zip(path, path[1:]):
            for crossing in context.table.sight(a, b):
                if context.table.properties(crossing.key).get("slows") and crossing.enter < crossing.leave:
                    return SLOW_COST
        return 0

    def _firers(self, context: Patrolling, bases: Mapping[str, Mapping[str, Any]], squad: str,
                target: str) -> list[str]:
        """F1: the squad's bases that see the target, in range and with it in their front."""
        aim = context.base(bases[target]).shape
        out = []
        for bid, entry in sorted(bases.items()):
            if entry["squad"] != squad:
                continue
            base = context.base(entry)
            front = plane.Arc(base.centre, base.facing, 90)
            if (context.sees(bases, bid, target) and plane.within(base.shape, aim, RANGE) and front.touches(aim)):
                out.append(bid)
        return out

    def _check_fire(self, context: Patrolling, view: State, bases: dict[str, plane.Base], order: Mapping[str, Any],
                    index: int) -> list[Problem]:
        target = order["fire"]
        squad = order["squad"]
        seen = sorted(bid for bid, entry in view["bases"].items() if context.squads[entry["squad"]] != context.squads[squad])
        if target not in seen:
            return [Problem(f"{target} is not an enemy base you see", order=index, path=("fire",), section="F1",
                            legal=", ".join(seen) or "no enemy base is in sight")]
        if not self._firers(context, view["bases"], squad, target):
            able = [bid for bid in seen if self._firers(context, view["bases"], squad, bid)]
            return [Problem(f"no base of {squad} sees {target} within {RANGE} {context.table.unit} in its front",
                            order=index, path=("fire",), section="F1", legal=", ".join(able) or "no target")]
        return []

    # --- adjudication ---------------------------------------------------------------------------
    def resolve(self, context: Patrolling, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        events: list[dict[str, Any]] = []
        phase = state["phase"]
        if phase.endswith("-move"):
            side = phase.removesuffix("-move")
            sub = submissions.get(side)
            for order in sub.orders if sub else []:
                self._move(context, state, side, order, events)
            state["phase"] = "blue-move" if side == "red" else "fire"
        else:
            hits: set[str] = set()
            for side in SIDES:
                sub = submissions.get(side)
                for order in sub.orders if sub else []:
                    self._fire(context, state, side, order, dice, hits, events)
            for bid in sorted(hits):
                state["lost"][bid] = state["bases"].pop(bid)["squad"]
            state["turn"] += 1
            state["phase"] = "red-move"
        return Resolution(state, events)

    def _move(self, context: Patrolling, state: State, side: str, order: Mapping[str, Any],
              events: list[dict[str, Any]]) -> None:
        squad = order["squad"]
        bases = {bid: context.base(e) for bid, e in sorted(state["bases"].items()) if e["squad"] == squad}
        enemies = [(bid, context.base(e).shape) for bid, e in sorted(state["bases"].items())
                   if context.squads[e["squad"]] != side]
        movement, problems = self._plan(context, bases, order, 0, enemies)
        assert movement is not None and not problems, problems  # validated against the same own bases
        for bid, base in movement.bases.items():
            state["bases"][bid]["at"] = list(base.centre)
            state["bases"][bid]["facing"] = base.facing
        seen = {viewer: [bid for bid in sorted(movement.bases) if bid in context.seen_by(state["bases"], viewer)]
                for viewer in SIDES if viewer != side}
        event: dict[str, Any] = {"type": "moved", "side": side, "squad": squad, "section": "M1",
                                 "path": [list(p) for p in movement.path], "length": movement.length,
                                 "to": {bid: list(b.centre) for bid, b in movement.bases.items()}, "seen": seen}
        if movement.stop is not None:
            event["stopped_by"] = movement.stop.key
            event["section"] = "M3"
        events.append(event)

    def _fire(self, context: Patrolling, state: State, side: str, order: Mapping[str, Any], dice: Dice,
              hits: set[str], events: list[dict[str, Any]]) -> None:
        squad, target = order["squad"], order["fire"]
        # judged on the firing side's view, exactly as its order was validated: S1 on the whole
        # state would let a base the side cannot see decide who fires, and the public event
        # would then tell the side it is there (F2); fire is simultaneous, so the target stands
        seen = self.view(context, state, side)["bases"]
        firers = self._firers(context, seen, squad, target) if target in seen else []
        rolls = [dice.die(6, f"F1 {bid} fires at {target}") for bid in firers]
        hit = any(roll >= 5 for roll in rolls)
        if hit:
            hits.add(target)
        events.append({"type": "fire", "side": side, "squad": squad, "target": target, "firers": firers,
                       "rolls": rolls, "hit": hit, "section": "F1"})

    # --- fog of war -----------------------------------------------------------------------------
    def view(self, context: Patrolling, state: State, side: str) -> State:
        seen = set(context.seen_by(state["bases"], side))
        bases = {bid: {"squad": e["squad"], "at": list(e["at"]), "facing": e["facing"]}
                 for bid, e in sorted(state["bases"].items()) if context.squads[e["squad"]] == side or bid in seen}
        return {"setup": state["setup"], "phase": state["phase"], "turn": state["turn"], "last_turn": state["last_turn"], "bases": bases,
                "lost": dict(state["lost"])}

    def visible(self, context: Patrolling, event: dict[str, Any], side: str) -> dict[str, Any] | None:
        if event["type"] == "fire":
            return dict(event)
        if event["type"] == "moved":
            if event["side"] == side:
                return {key: value for key, value in event.items() if key != "seen"}
            seen = event["seen"].get(side, [])
            if not seen:
                return None
            return {"type": "moved", "side": event["side"], "squad": event["squad"], "section": "S2",
                    "to": {bid: event["to"][bid] for bid in seen}}
        return None

    # --- pictures --------------------------------------------------------------------------------
    def picture(self, context: Patrolling) -> Any:
        from tests.rulesets.patrol_picture import PatrolAdapter
        return PatrolAdapter(context.table, context.squads)

    # --- bots -----------------------------------------------------------------------------------
    def bot_orders(self, context: Patrolling, view: State, side: str, seed: bytes) -> list[Any]:
        own = sorted({e["squad"] for e in view["bases"].values() if context.squads[e["squad"]] == side})
        enemies = sorted(bid for bid, e in view["bases"].items() if context.squads[e["squad"]] != side)
        orders: list[Any] = []
        for squad in own:
            lead = sorted(bid for bid, e in view["bases"].items() if e["squad"] == squad)[0]
            at = view["bases"][lead]["at"]
            if view["phase"] == "fire":
                able = [bid for bid in enemies if self._firers(context, view["bases"], squad, bid)]
                if able:
                    orders.append({"squad": squad, "fire": able[pick(seed, squad, len(able))]})
                continue
            if enemies:
                goal = min(enemies, key=lambda bid: (plane.dist2(tuple(at), tuple(view["bases"][bid]["at"])), bid))
                point = view["bases"][goal]["at"]
            else:
                point = [context.table.width // 2, context.table.depth // 2]
            if list(point) == list(at):
                continue
            order = {"squad": squad, "toward": list(point), "distance": "max", "face": list(point)}
            bases = {bid: context.base(e) for bid, e in sorted(view["bases"].items()) if e["squad"] == squad}
            movement, problems = self._plan(context, bases, order, 0)
            if movement is not None and not problems and movement.length > 0:
                orders.append(order)
        return orders
