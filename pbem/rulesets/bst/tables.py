"""The bst tables: the packaged `data/tables.yaml` with a scenario's overrides laid on it.

Every number a rule reads comes from here, so a scenario can change any of them (docs/bst.md,
"Tables"); the weapon values of F3 are all assumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.rulesets.kit.tables import TableFile, merge

TABLES = TableFile("pbem.rulesets.bst.data")


@dataclass(frozen=True)
class Weapon:
    """One row of Table 2 (F3): markers at short and long range, and the greatest range."""

    name: str
    short: int
    long: int
    range: int


@dataclass(frozen=True)
class Vehicle:
    """One vehicle type (part III; every number assumed): its base, move, the armour of each
    aspect (V2), its main gun against vehicles and its machine guns (V4)."""

    name: str
    width: int
    depth: int
    move: int
    armour: Mapping[str, int]
    gun_penetration: int
    gun_range: int
    hull_mg: bool
    pintle_mg: bool


@dataclass(frozen=True)
class Tables:
    """The plain values, read by name."""

    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None) -> Tables:
        """The packaged tables, with `overrides` merged over them key by key."""
        return cls(merge(TABLES.plain(), dict(overrides or {})))

    def number(self, name: str) -> int:
        value = self.values[name]
        if type(value) is not int:
            raise TypeError(f"table value {name} is {value!r}, not a whole number")
        return value

    def weapon(self, name: str) -> Weapon:
        row = self.values["weapons"].get(name)
        if row is None:
            raise KeyError(f"no weapon {name!r} in Table 2 (F3): {', '.join(sorted(self.values['weapons']))}")
        return Weapon(name, int(row["short"]), int(row["long"]), int(row["range"]))

    def vehicle(self, name: str) -> Vehicle:
        row = self.values["vehicles"].get(name)
        if row is None:
            raise KeyError(f"no vehicle type {name!r} (part III): {', '.join(self.vehicles())}")
        width, depth = (int(n) for n in row["size"])
        return Vehicle(name, width, depth, int(row["move"]),
                       {aspect: int(row[f"armour_{aspect}"]) for aspect in ("front", "flank", "side")},
                       int(row["gun_penetration"]), int(row["gun_range"]), bool(row["hull_mg"]),
                       bool(row["pintle_mg"]))

    def vehicles(self) -> list[str]:
        return sorted(self.values["vehicles"])

    def weapons(self) -> list[str]:
        return sorted(self.values["weapons"])

    def to_hit(self, action: str) -> int:
        return int(self.values["to_hit"][action])

    def hit_result(self, face: int) -> str:
        """Table 3 (R1): what the rethrow of a die that hit does."""
        return str(self.values["hit_table"][str(face)])

    def close_combat_markers(self, weapon: str) -> int:
        return int(self.values["close_combat_markers"][weapon])
