"""What one side knows of the map at one instant, and the unit values that depend on the turn.

Validation runs on a side's view and resolution on the master state; both build a `Board`, so
movement, stacking, range and LOF are judged by the same code either way. A board holds the
side's own units in full and, of the enemy, only which hexes hold how many units (6.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .tables import Config, config
from .state import State


@dataclass
class Board:
    cfg: Config
    side: str
    turn: int
    phase: str
    effects: dict[str, Any]
    own: dict[str, dict[str, Any]]  # id -> {hex, status, z}
    enemy: dict[str, int]  # hex -> number of active enemy units

    @classmethod
    def from_state(cls, state: State, side: str) -> "Board":
        cfg = config(state["setup"])
        own: dict[str, dict[str, Any]] = {}
        enemy: dict[str, int] = {}
        for uid, unit in state["units"].items():
            if cfg.counters[uid].side == side:
                own[uid] = {"hex": unit["hex"], "status": unit["status"], "z": unit["z"]}
            elif unit["status"] == "active":
                enemy[unit["hex"]] = enemy.get(unit["hex"], 0) + 1
        return cls(cfg, side, state["turn"], state["phase"], dict(state["effects"]), own, enemy)

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> "Board":
        cfg = config(view["setup"])
        own = {uid: {"hex": u["hex"], "status": u["status"], "z": u.get("level", -1)}
               for uid, u in view["units"].items()}
        enemy = {hex_id: int(info["count"]) for hex_id, info in view["enemy"].items()}
        return cls(cfg, view["side"], view["turn"], view["phase"], dict(view["effects"]), own, enemy)

    # --- own units ------------------------------------------------------------------------------
    def active(self, uid: str) -> bool:
        return uid in self.own and self.own[uid]["status"] == "active"

    def hex_of(self, uid: str) -> str:
        return str(self.own[uid]["hex"])

    def own_stack(self, hex_id: str) -> list[str]:
        """Own active units in the hex, bottom first."""
        index = self.__dict__.get("_stacks")
        if index is None:
            found: dict[str, list[tuple[int, str]]] = {}
            for uid, u in self.own.items():
                if u["status"] == "active":
                    found.setdefault(u["hex"], []).append((u["z"], uid))
            index = {h: [uid for _, uid in sorted(items)] for h, items in found.items()}
            self.__dict__["_stacks"] = index
        return list(index.get(hex_id, ()))

    def ff(self, hex_id: str, leaving: str | None = None) -> int:
        """6.1: printed infantry fire factors of own units in the hex (`leaving` not counted)."""
        return sum(self.cfg.counters[uid].fire for uid in self.own_stack(hex_id)
                   if uid != leaving and self.cfg.counters[uid].kind == "infantry")

    def has_hw(self, hex_id: str) -> bool:
        return any(self.cfg.counters[uid].kind == "hw" for uid in self.own_stack(hex_id))

    def enemy_at(self, hex_id: str) -> bool:
        return self.enemy.get(hex_id, 0) > 0

    def move(self, uid: str, hex_id: str) -> None:
        """Simulate an arrival (on top of the stack)."""
        top = max([u["z"] for u in self.own.values()] + [0])
        self.own[uid].update(hex=hex_id, status="active", z=top + 1)
        self.__dict__.pop("_stacks", None)

    def leave(self, uid: str, status: str) -> None:
        """Simulate a unit leaving the map (an exit)."""
        self.own[uid].update(hex=None, status=status)
        self.__dict__.pop("_stacks", None)

    # --- values that change with the turn (5.2, 7.x) ------------------------------------------------
    def fits(self, uid: str, hex_id: str) -> bool:
        """6.1: whether the unit may stand in the hex without breaking the stacking limits."""
        return fits(self.cfg, self, uid, hex_id)


def fits(cfg: Config, board: Board, uid: str, hex_id: str) -> bool:
    counter = cfg.counters[uid]
    present = [u for u in board.own_stack(hex_id) if u != uid]
    if counter.kind == "hw":
        return not present
    if board.has_hw(hex_id):
        return False
    return board.ff(hex_id, leaving=uid) + counter.fire <= int(cfg.tables["stacking_fire_factors"])


def move_allowance(cfg: Config, effects: Mapping[str, Any], uid: str) -> int:
    """9.1 in half-MP: printed MF, +1 under a rally of its side (7.6, 7.9), -1 under gas (7.4)."""
    counter = cfg.counters[uid]
    if counter.kind != "infantry":
        return 0
    half = 2 * counter.move
    if effects.get(f"{counter.side}_rally"):
        half += 2 * int(cfg.tables["rally_bonus"])
    if effects.get("gas"):
        half -= int(cfg.tables["gas_move_loss"])
    return max(half, 0)


def fire_factor(cfg: Config, effects: Mapping[str, Any], uid: str) -> int:
    """10.3 with 7.6 / 7.9: the US rally adds to infantry and emplacements, the German to infantry."""
    counter = cfg.counters[uid]
    value = counter.fire
    if counter.side == "us" and effects.get("us_rally"):
        value += int(cfg.tables["rally_bonus"])
    if counter.side == "german" and counter.kind == "infantry" and effects.get("german_rally"):
        value += int(cfg.tables["rally_bonus"])
    return value


def max_lof(cfg: Config, turn: int, effects: Mapping[str, Any]) -> int | None:
    """5.2: two hexes on the first turn; 7.4: four under gas; otherwise no limit."""
    limits = []
    if turn == 1:
        limits.append(int(cfg.tables["first_turn_max_lof"]))
    if effects.get("gas"):
        limits.append(int(cfg.tables["gas_max_lof"]))
    return min(limits) if limits else None


def lof_problem(cfg: Config, turn: int, effects: Mapping[str, Any], origin: str, target: str,
                reach: int) -> tuple[str, str] | None:
    """Why `origin` cannot see `target` within `reach` hexes: (section, message), or None."""
    distance = cfg.distance(origin, target)
    if distance < 1:
        return "10.2", f"{target} is the unit's own hex"
    if distance > reach:
        return "10.6", f"{target} is {distance} hexes from {origin}, beyond its range of {reach}"
    if distance == 1:
        return None  # 10.7: an adjacent hex can always be fired into
    limit = max_lof(cfg, turn, effects)
    if limit is not None and distance > limit:
        section = "5.2" if turn == 1 and limit == int(cfg.tables["first_turn_max_lof"]) else "7.4"
        return section, f"no LOF may be longer than {limit} hexes this turn ({origin} to {target} is {distance})"
    if not cfg.lof_clear(origin, target):
        if any(cfg.blocks(h) for h in cfg.line(origin, target).between):
            return "10.8", f"blocking terrain between {origin} and {target} blocks the LOF"
        return "10.9", f"the LOF from {origin} to {target} runs between two blocking hexes"
    return None
