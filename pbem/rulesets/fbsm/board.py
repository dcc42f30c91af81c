"""What one side knows of the map at one instant, and the unit values that depend on the turn.

Validation runs on a side's view and resolution on the master state; both build a `Board`, so
movement, stacking, range and LOF are judged by the same code either way. A board is the kit's
`SideBoard` (the side's own units in full and, of the enemy, only which hexes hold how many
units, 6.5) plus the game's context, the turn, the phase and the turn's effects.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.ruleset import State
from pbem.rulesets.kit.board import SideBoard

from .context import Context


class Board(SideBoard):
    _compared = SideBoard._compared + ("cfg", "turn", "phase", "effects")

    def __init__(self, side: str, own: dict[str, dict[str, Any]], enemy: dict[str, int], cfg: Context,
                 turn: int, phase: str, effects: dict[str, Any]) -> None:
        super().__init__(side, own, enemy)
        self.cfg = cfg
        self.turn = turn
        self.phase = phase
        self.effects = effects

    @classmethod
    def from_state(cls, ctx: Context, state: State, side: str) -> "Board":
        own: dict[str, dict[str, Any]] = {}
        enemy: dict[str, int] = {}
        counters = ctx.counters
        for uid, unit in state["units"].items():
            if counters[uid].side == side:
                own[uid] = {"hex": unit["hex"], "status": unit["status"], "z": unit["z"]}
            elif unit["status"] == "active":
                enemy[unit["hex"]] = enemy.get(unit["hex"], 0) + 1
        return cls(side=side, own=own, enemy=enemy, cfg=ctx, turn=state["turn"], phase=state["phase"],
                   effects=dict(state["effects"]))

    @classmethod
    def from_view(cls, ctx: Context, view: Mapping[str, Any]) -> "Board":
        own = {uid: {"hex": u["hex"], "status": u["status"], "z": u.get("level", -1)}
               for uid, u in view["units"].items()}
        enemy = {hex_id: int(info["count"]) for hex_id, info in view["enemy"].items()}
        return cls(side=view["side"], own=own, enemy=enemy, cfg=ctx, turn=view["turn"], phase=view["phase"],
                   effects=dict(view["effects"]))

    # --- own units (the rest is SideBoard's: on_map, own_stack, enemy_at, move) --------------------
    def hex_of(self, uid: str) -> str:
        """The hex of an own unit on the map (callers ask only about units on the map)."""
        return str(self.own[uid]["hex"])

    def ff(self, hex_id: str, leaving: str | None = None) -> int:
        """6.1: printed infantry fire factors of own units in the hex (`leaving` not counted)."""
        counters = self.cfg.counters
        return sum(counters[uid].fire for uid in self.own_stack(hex_id)
                   if uid != leaving and counters[uid].kind == "infantry")

    def has_hw(self, hex_id: str) -> bool:
        return any(self.cfg.counters[uid].kind == "hw" for uid in self.own_stack(hex_id))

    # A unit leaving the map is `move(uid, None, status)`: SideBoard gives it a stacking number
    # too, which nothing reads (stacks hold units on the map only, and every later arrival still
    # goes above every unit), so a simulated exit judges the orders after it exactly as before.


# --- values that change with the turn (5.2, 7.x) ----------------------------------------------------

def fits(cfg: Context, board: Board, uid: str, hex_id: str) -> bool:
    """6.1: whether the unit may stand in the hex without breaking the stacking limits."""
    counter = cfg.counters[uid]
    present = [u for u in board.own_stack(hex_id) if u != uid]
    if counter.kind == "hw":
        return not present
    if board.has_hw(hex_id):
        return False
    return board.ff(hex_id, leaving=uid) + counter.fire <= int(cfg.tables["stacking_fire_factors"])


def move_allowance(cfg: Context, effects: Mapping[str, Any], uid: str) -> int:
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


def fire_factor(cfg: Context, effects: Mapping[str, Any], uid: str) -> int:
    """10.3 with 7.6 / 7.9: the US rally adds to infantry and emplacements, the German to infantry."""
    counter = cfg.counters[uid]
    value = counter.fire
    if counter.side == "us" and effects.get("us_rally"):
        value += int(cfg.tables["rally_bonus"])
    if counter.side == "german" and counter.kind == "infantry" and effects.get("german_rally"):
        value += int(cfg.tables["rally_bonus"])
    return value


def max_lof(cfg: Context, turn: int, effects: Mapping[str, Any]) -> int | None:
    """5.2: two hexes on the first turn; 7.4: four under gas; otherwise no limit."""
    limits = []
    if turn == 1:
        limits.append(int(cfg.tables["first_turn_max_lof"]))
    if effects.get("gas"):
        limits.append(int(cfg.tables["gas_max_lof"]))
    return min(limits) if limits else None


def lof_problem(cfg: Context, turn: int, effects: Mapping[str, Any], origin: str, target: str,
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
