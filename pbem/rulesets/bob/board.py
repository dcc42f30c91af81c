"""What one side knows, from its view: its units in full and where the enemy's pieces stand.

Orders are checked on this board (built from the side's own view, so a refusal can never say
what the view hides); resolution reads the master state. Bots read it too.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Mapping

from .context import Context, other


@dataclass
class Board:
    side: str
    turn: int
    own: dict[str, dict[str, Any]]
    enemy: list[dict[str, Any]]  # the other side's pieces: {hex, unit | marker, ...}
    foxholes: frozenset[str]
    cps: int
    enemy_can_use: int

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> "Board":
        return cls(side=str(view["side"]), turn=int(view["turn"]), own=copy.deepcopy(dict(view["units"])),
                   enemy=[dict(p) for p in view["enemy"]], foxholes=frozenset(view["foxholes"]),
                   cps=int(view["cps"][view["side"]]),
                   enemy_can_use=int(view["can_use"][other(str(view["side"]))]))

    def enemy_hexes(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for piece in self.enemy:
            found[piece["hex"]] = found.get(piece["hex"], 0) + 1
        return found

    def own_in(self, hex_id: str) -> list[str]:
        return sorted(uid for uid, u in self.own.items() if u["status"] == "active" and u["hex"] == hex_id)

    def due(self, ctx: Context, uid: str) -> bool:
        """18.0: a reinforcement whose turn has come."""
        enters = ctx.units[uid].enters
        return self.own[uid]["status"] == "waiting" and enters is not None and enters <= self.turn

    def available(self, ctx: Context, uid: str) -> bool:
        """4.0: may still be Used this operations phase."""
        unit = self.own[uid]
        return (unit["status"] == "active" or self.due(ctx, uid)) and not unit["used"] and not unit["opfire"]
