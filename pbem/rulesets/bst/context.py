"""The scenario's setup and bst's prepared `Context` (D2, D3, L4, P1).

A scenario gives its table (a whole table map document under `table`, or a packaged one by
name under `packaged_table`: `village`, the sample table), the number of turns, and its units: each with a side, a card (D3), a command type
(M2), a leader base (L4) and two to four bases, each with a place, a facing and a weapon.
`tables:` overrides any packaged value (docs/bst.md, "Tables").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from pbem.core.errors import PbemError, Problem
from pbem.geometry import plane
from pbem.geometry.tablemap import TABLE_MAP_SCHEMA, TableMap, TableMapError
from pbem.rulesets.kit.overrides import shape_schema
from pbem.rulesets.kit.positions import POINT_SCHEMA
from pbem.rulesets.kit.tables import packaged_yaml, setup_with_tables

from .deck import JOKER, is_card
from .stands import Stand, square
from .tables import TABLES, Tables
from .terrain import kinds

SIDES = ("allies", "axis")
DERIVED_WEAPONS = ("tank-mg", "crew-rifles")  # rows the rules use for a tank's guns (V4) and a crew's rifles (W1)
PACKAGED_TABLES = ("village",)
Schema = dict[str, Any]

BASE_SCHEMA: Schema = {
    "type": "object", "additionalProperties": False, "required": ["at"],
    "oneOf": [{"required": ["weapon"]}, {"required": ["vehicle"]}],
    "properties": {"at": POINT_SCHEMA, "facing": {"type": "integer", "minimum": 0, "maximum": 359},
                   "weapon": {"type": "string", "description": "a row of Table 2 (F3)"},
                   "vehicle": {"type": "string", "description": "part III: a vehicle type of the tables (a tank is a unit of one base)"},
                   "buttoned": {"type": "boolean", "description": "V1: a tank starts buttoned (default unbuttoned)"}},
}
UNIT_SCHEMA: Schema = {
    "type": "object", "additionalProperties": False, "required": ["side", "card", "bases"],
    "properties": {
        "side": {"enum": list(SIDES)},
        "card": {"type": "string", "pattern": "^(A|K|Q|J|T|[2-9])(S|H|D|C)$", "description": "D3: e.g. AC, TH"},
        "command": {"enum": ["A", "B", "C", "D"], "description": "M2: the command type (default B)"},
        "leader": {"type": "string", "description": "L4: the base with the unit leader (default: the first rifle base)"},
        "card2": {"type": "string", "pattern": "^(A|K|Q|J|T|[2-9])(S|H|D|C)$",
                  "description": "L1: a platoon leader's second card, for leading only"},
        "leads": {"type": "array", "items": {"type": "string"}, "maxItems": 8, "uniqueItems": True,
                  "description": "L1: the units this platoon leader commands (it is then a platoon leader: one base)"},
        "bases": {"type": "object", "minProperties": 1, "maxProperties": 4,
                  "propertyNames": {"pattern": "^[a-z][a-z0-9-]{0,15}$"}, "additionalProperties": BASE_SCHEMA},
    },
}
SCENARIO_SCHEMA: Schema = {
    "type": "object", "additionalProperties": False, "required": ["turns", "units"],
    "oneOf": [{"required": ["table"]}, {"required": ["packaged_table"]}],
    "properties": {
        "turns": {"type": "integer", "minimum": 1, "maximum": 30, "description": "P1: the game's length in turns"},
        "packaged_table": {"enum": list(PACKAGED_TABLES), "description": "a table shipped with pbem, by name"},
        "table": {**TABLE_MAP_SCHEMA, "$id": "https://pbem.invalid/schemas/bst-table-map.json",
                  "description": "a whole table map document"},
        "units": {"type": "object", "minProperties": 2, "maxProperties": 40,
                  "propertyNames": {"pattern": "^[a-z][a-z0-9-]{0,15}$"}, "additionalProperties": UNIT_SCHEMA},
    },
}


@dataclass(frozen=True)
class Unit:
    """A unit (D2): its side, card (D3), command type (M2) and leader base (L4); a platoon
    leader (L1) also has a second card and the units it leads; a tank (part III) is a unit of
    one base, of a vehicle type."""

    id: str
    side: str
    card: str
    command: str
    leader: str
    card2: str | None = None
    leads: tuple[str, ...] = ()
    vehicle: str | None = None


@dataclass(frozen=True)
class Context:
    """One game's fixed data: the table, the merged tables, the units and their cards."""

    table: TableMap
    tables: Tables
    units: Mapping[str, Unit]
    cards: Mapping[str, str]
    turns: int

    def side_of(self, unit: str) -> str:
        return self.units[unit].side

    def second(self, card: str) -> bool:
        """L1: whether the card is a platoon leader's second card."""
        return self.units[self.cards[card]].card2 == card

    def platoon_leader(self, unit: str) -> str | None:
        """L1: the platoon leader (or company commander, L2) that leads this unit, if any."""
        return next((u for u, meta in sorted(self.units.items()) if unit in meta.leads), None)

    def company(self, leader: str) -> set[str]:
        """L1, L2: the leader and every unit under it, through the leaders it leads."""
        found = {leader}
        frontier = [leader]
        while frontier:
            for led in self.units[frontier.pop()].leads:
                if led not in found:
                    found.add(led)
                    frontier.append(led)
        return found

    def stand(self, bid: str, entry: Mapping[str, Any]) -> Stand:
        """A base of a state or view as a `Stand`."""
        vehicle = entry.get("vehicle")
        return Stand(bid, self.units[entry["unit"]].side, entry["unit"], entry["weapon"],
                     self.footprint(entry["at"], entry["facing"], vehicle), entry.get("kills", 0), vehicle,
                     bool(entry.get("buttoned", False)))

    def footprint(self, at: Sequence[int], facing: int, vehicle: str | None) -> plane.Base:
        """D1: an infantry base is a base-width square; a vehicle's size is its type's."""
        if vehicle is None:
            return square(at, facing, self.tables.number("base_size"))
        kind = self.tables.vehicle(vehicle)
        return plane.Base((at[0], at[1]), facing, kind.width, kind.depth)

    def is_vehicle(self, unit: str) -> bool:
        return self.units[unit].vehicle is not None

    def stands(self, state: Mapping[str, Any]) -> list[Stand]:
        return [self.stand(bid, entry) for bid, entry in sorted(state["bases"].items())]


def table_document(setup: Mapping[str, Any]) -> Any:
    """The table map document a scenario gives, or the packaged one it names."""
    if "packaged_table" in setup:
        return packaged_yaml("pbem.rulesets.bst.data", f"{setup['packaged_table']}.yaml")
    return setup["table"]


def tables_schema() -> Schema:
    return shape_schema(TABLES.plain(), complete=False,
                        description="values replacing the packaged ones, key by key (docs/bst.md, Tables)",
                        extensible={"vehicles": "a vehicle type of the scenario's own (part III), every value given"},
                        refine={"vehicles.*.size": {"type": "array", "minItems": 2, "maxItems": 2,
                                                    "items": {"type": "integer", "minimum": 10, "maximum": 300},
                                                    "description": "width along the front, then depth, in mm"}})


scenario_setup = setup_with_tables


def checked_setup(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The plain setup, after the checks a schema cannot make (PbemError naming each)."""
    setup = scenario_setup(scenario)
    context = prepare(setup)
    problems: list[Problem] = []
    for uid, unit in sorted(setup["units"].items()):
        for bid, entry in sorted(unit["bases"].items()):
            where = ("setup", "units", uid, "bases", bid)
            if "buttoned" in entry and "vehicle" not in entry:
                problems.append(Problem(f"base {bid} is buttoned but is no vehicle", path=(*where, "buttoned"),
                                        section="V1", legal="buttoned: on a base with a vehicle"))
            if "vehicle" in entry and "weapon" in entry:
                problems.append(Problem(f"base {bid} names both a vehicle and a weapon", path=(*where, "weapon"),
                                        section="V1", legal="vehicle: for a tank (its guns come with it), or weapon:"))
                continue
            if "vehicle" in entry:
                if entry["vehicle"] not in context.tables.vehicles():
                    problems.append(Problem(f"base {bid}: unknown vehicle type {entry['vehicle']!r}",
                                            path=(*where, "vehicle"), section="V1",
                                            legal=", ".join(context.tables.vehicles())))
                    continue
            elif entry["weapon"] == "extra" and not any(e.get("weapon") == "hmg" for e in unit["bases"].values()):
                problems.append(Problem(f"base {bid} is an extra base in a unit with no HMG", path=(*where, "weapon"),
                                        section="W5", legal="an extra base in an HMG's unit"))
                continue
            elif entry["weapon"] in DERIVED_WEAPONS:
                problems.append(Problem(f"base {bid}: {entry['weapon']} is no base's weapon", path=(*where, "weapon"),
                                        section="F3", legal="a weapon a base carries; a tank is `vehicle:`"))
                continue
            elif entry["weapon"] not in context.tables.weapons():
                problems.append(Problem(f"base {bid}: unknown weapon {entry['weapon']!r}", path=(*where, "weapon"),
                                        section="F3", legal=", ".join(context.tables.weapons())))
                continue
            stand = context.footprint(entry["at"], entry.get("facing", 0), entry.get("vehicle"))
            if not context.table.on_table(stand.shape):
                problems.append(Problem(f"base {bid} at {entry['at']} is not wholly on the table", path=(*where, "at"),
                                        section="D1", legal="a centre half a base or more inside every edge"))
    if problems:
        raise PbemError(problems)
    return setup


def prepare(setup: Mapping[str, Any]) -> Context:
    """The context; PbemError for a table that does not load, a card given twice, a leader
    that is not one of the unit's bases, or a base id used twice."""
    problems: list[Problem] = []
    try:
        table = TableMap.from_dict(table_document(setup), kinds())
    except TableMapError as error:
        raise PbemError([Problem(f"the table: {error}", path=("setup", "table"))]) from error
    tables = Tables.load(setup.get("tables"))
    units: dict[str, Unit] = {}
    cards: dict[str, str] = {}
    seen_bases: dict[str, str] = {}
    for uid, entry in sorted(setup["units"].items()):
        own_cards = [entry["card"]] + ([entry["card2"]] if entry.get("card2") else [])
        for card in own_cards:
            if not is_card(card) or card in cards or card == JOKER:
                problems.append(Problem(f"unit {uid}: card {card} is not a card, or another unit has it",
                                        path=("setup", "units", uid, "card"), section="D3", legal="one card per unit"))
            cards[card] = uid
        for bid in entry["bases"]:
            if bid in seen_bases:
                problems.append(Problem(f"base {bid} is in units {seen_bases[bid]} and {uid}",
                                        path=("setup", "units", uid, "bases", bid), section="D2",
                                        legal="one id per base"))
            seen_bases[bid] = uid
        leads = tuple(entry.get("leads") or ())
        vehicles = sorted({str(e["vehicle"]) for e in entry["bases"].values() if "vehicle" in e})
        if vehicles and (len(entry["bases"]) != 1 or leads):
            problems.append(Problem(f"unit {uid} has a vehicle among {len(entry['bases'])} bases",
                                    path=("setup", "units", uid, "bases"), section="V3",
                                    legal="one tank is one unit: a vehicle alone, leading no one"))
        elif len(entry["bases"]) < (1 if leads or vehicles else 2):
            problems.append(Problem(f"unit {uid} has one base", path=("setup", "units", uid, "bases"), section="D2",
                                    legal="2 to 4 bases; a platoon leader (with `leads`) is one base"))
        if entry.get("card2") and not leads:
            problems.append(Problem(f"unit {uid} has a second card but leads no unit", path=("setup", "units", uid),
                                    section="L1", legal="a second card only for a platoon leader, with `leads`"))
        rifles = [b for b, e in sorted(entry["bases"].items()) if e.get("weapon") in ("rifles", "smg", "auto-rifle", "bar")]
        leader = entry.get("leader") or (rifles or sorted(entry["bases"]))[0]
        if leader not in entry["bases"]:
            problems.append(Problem(f"unit {uid}: leader {leader} is not one of its bases",
                                    path=("setup", "units", uid, "leader"), section="L4",
                                    legal=", ".join(sorted(entry["bases"]))))
        units[uid] = Unit(uid, entry["side"], entry["card"], entry.get("command", "B"), leader,
                          entry.get("card2"), leads, vehicles[0] if vehicles else None)
    led_by: dict[str, str] = {}
    for uid, unit in sorted(units.items()):
        for led in unit.leads:
            if led not in units or units[led].side != unit.side or led == uid or led in led_by:
                problems.append(Problem(f"{uid} leads {led}: not a unit of its side led by no one else",
                                        path=("setup", "units", uid, "leads"), section="L1",
                                        legal=", ".join(u for u, m in sorted(units.items())
                                                        if m.side == unit.side and u != uid)))
            led_by.setdefault(led, uid)
    for uid in sorted(units):
        seen, up = {uid}, led_by.get(uid)
        while up is not None and up not in seen:
            seen.add(up)
            up = led_by.get(up)
        if up is not None:
            problems.append(Problem(f"{uid} is led in a circle", path=("setup", "units", uid, "leads"),
                                    section="L2", legal="a company commander over platoon leaders over sections"))
    if problems:
        raise PbemError(problems)
    return Context(table, tables, units, dict(sorted(cards.items())), int(setup["turns"]))
