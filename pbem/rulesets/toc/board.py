"""What one side knows at one instant: all of its own units, and which hexes the enemy holds.

Validation runs on a side's view and resolution on the master state; both build a `Board`, so
movement, stacking, ZOC, range, LoS and spotting are judged by the same code either way. Of the
enemy a board holds only what the view shows: per occupied hex the number of units and the top
unit (6.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .config import Config, config, other
from .state import State, normalize
from .zoc import in_zoc


@dataclass
class Board:
    cfg: Config
    side: str
    turn: int
    phase: str
    sequence: str | None
    own: dict[str, dict[str, Any]]  # id -> {hex, steps, status, z}
    enemy: dict[str, int]  # hex -> number of enemy units there
    enemy_top: dict[str, dict[str, Any]]  # hex -> {unit, steps} of the top enemy unit
    marched: set[str]
    control: set[str]
    _ezoc: dict[str, bool] = field(default_factory=dict)
    _stacks: dict[str, list[str]] | None = None
    _near: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State, side: str) -> "Board":
        state = normalize(state)
        cfg = config(state["setup"])
        own: dict[str, dict[str, Any]] = {}
        enemy: dict[str, int] = {}
        tops: dict[str, tuple[int, str]] = {}
        for uid, unit in state["units"].items():
            if cfg.counters[uid].side == side:
                own[uid] = {"hex": unit["hex"], "steps": unit["steps"], "status": unit["status"], "z": unit["z"]}
            elif unit["status"] == "active":
                enemy[unit["hex"]] = enemy.get(unit["hex"], 0) + 1
                if unit["hex"] not in tops or unit["z"] > tops[unit["hex"]][0]:
                    tops[unit["hex"]] = (unit["z"], uid)
        enemy_top = {h: {"unit": uid, "steps": state["units"][uid]["steps"]} for h, (_, uid) in tops.items()}
        marched = {uid for uid in state["marched"] if uid in own}
        return cls(cfg, side, state["turn"], state["phase"], state.get("sequence"), own, enemy, enemy_top, marched,
                   set(state["control"]))

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> "Board":
        cfg = config(view["setup"])
        own = {uid: {"hex": u["hex"], "steps": u["steps"], "status": u["status"], "z": u.get("level", 0)}
               for uid, u in view["units"].items()}
        enemy = {h: int(info["count"]) for h, info in view["enemy"].items()}
        enemy_top = {h: {"unit": info["top"]["unit"], "steps": info["top"]["steps"]}
                     for h, info in view["enemy"].items()}
        return cls(cfg, view["side"], view["turn"], view["phase"], view.get("sequence"), own, enemy, enemy_top,
                   set(view.get("marched") or []), set(view["control"]))

    @property
    def enemy_side(self) -> str:
        return other(self.side)

    # --- own units --------------------------------------------------------------------------------
    def on_map(self, uid: str) -> bool:
        return uid in self.own and self.own[uid]["status"] == "active"

    def hex_of(self, uid: str) -> str | None:
        found = self.own[uid]["hex"]
        return str(found) if found is not None else None

    def _index(self) -> dict[str, list[str]]:
        index = self._stacks
        if index is None:
            found: dict[str, list[tuple[int, str]]] = {}
            for uid, u in self.own.items():
                if u["status"] == "active":
                    found.setdefault(u["hex"], []).append((u["z"], uid))
            index = self._stacks = {h: [uid for _, uid in sorted(items)] for h, items in found.items()}
        return index

    def own_stack(self, hex_id: str) -> list[str]:
        return list(self._index().get(hex_id, ()))

    def own_hexes(self) -> set[str]:
        return {u["hex"] for u in self.own.values() if u["status"] == "active"}

    def stacking_points(self, hex_id: str, leaving: set[str] | frozenset[str] = frozenset()) -> int:
        units = self._index().get(hex_id)
        if not units:
            return 0
        return sum(self.cfg.counters[uid].stacking for uid in units if uid not in leaving)

    def corps_in(self, hex_id: str, leaving: set[str] | frozenset[str] = frozenset()) -> set[str]:
        units = self._index().get(hex_id)
        if not units:
            return set()
        return {str(self.cfg.counters[uid].corps) for uid in units if uid not in leaving}

    # --- the enemy ----------------------------------------------------------------------------------
    def enemy_at(self, hex_id: str) -> bool:
        return self.enemy.get(hex_id, 0) > 0

    def ezoc(self, hex_id: str) -> bool:
        """7.1-7.3: an enemy ZOC lies in the hex (enemy positions are all a side needs to know)."""
        found = self._ezoc.get(hex_id)
        if found is None:
            found = self._ezoc[hex_id] = in_zoc(self.cfg, hex_id, set(self.enemy))
        return found

    def next_to_enemy(self, hex_id: str) -> bool:
        """9.20: an enemy unit in an adjacent hex (ZOC or not)."""
        found = self._near.get(hex_id)
        if found is None:
            found = self._near[hex_id] = any(n in self.enemy for n in self.cfg.neighbours(hex_id))
        return found

    # --- simulation -----------------------------------------------------------------------------------
    def move(self, uid: str, hex_id: str | None, status: str = "active") -> None:
        top = max([u["z"] for u in self.own.values()] + [0])
        self.own[uid].update(hex=hex_id, status=status, z=top + 1)
        self._stacks = None
