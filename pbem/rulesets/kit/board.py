"""What one side knows at one instant: its own units in full, and how many enemy units stand where.

Validation runs on a side's view and resolution on the master state; a ruleset builds the same
board from either, so every rule is judged by the same code both ways. A game subclasses
`SideBoard` with what its rules add (turn, effects, enemy top units, ...).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.core.records import ComparedByFields


class SideBoard(ComparedByFields):
    """A plain class, not a dataclass (every one-shot command imports it; see `pbem.core.records`).

    Compared and shown by the fields named in `_compared`, as the mutable dataclass it was (so never
    hashed); a subclass calls this `__init__` and adds its own fields to `_compared`.
    """

    _compared: ClassVar[tuple[str, ...]] = ("side", "own", "enemy")
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __init__(self, side: str, own: dict[str, dict[str, Any]], enemy: dict[str, int]) -> None:
        self.side = side
        self.own = own  # id -> {hex, status, z, ...}
        self.enemy = enemy  # hex -> number of enemy units there
        self._stacks: dict[str, list[str]] | None = None

    def _field_names(self) -> tuple[str, ...]:
        return self._compared

    def on_map(self, uid: str) -> bool:
        return uid in self.own and self.own[uid]["status"] == "active"

    def hex_of(self, uid: str) -> str | None:
        found = self.own[uid]["hex"]
        return str(found) if found is not None else None

    def own_stacks(self) -> dict[str, list[str]]:
        """hex -> own units on the map there, bottom first (built once per change)."""
        if self._stacks is None:
            found: dict[str, list[tuple[int, str]]] = {}
            for uid, unit in self.own.items():
                if unit["status"] == "active":
                    found.setdefault(unit["hex"], []).append((unit["z"], uid))
            self._stacks = {hex_id: [uid for _, uid in sorted(items)] for hex_id, items in found.items()}
        return self._stacks

    def own_stack(self, hex_id: str) -> list[str]:
        return list(self.own_stacks().get(hex_id, ()))

    def own_hexes(self) -> set[str]:
        return set(self.own_stacks())

    def enemy_at(self, hex_id: str) -> bool:
        return self.enemy.get(hex_id, 0) > 0

    def move(self, uid: str, hex_id: str | None, status: str = "active") -> None:
        """Simulate an arrival on top of the hex's stack (or a unit leaving the map, with its status)."""
        top = max([unit["z"] for unit in self.own.values()] + [0])
        self.own[uid].update(hex=hex_id, status=status, z=top + 1)
        self._stacks = None
