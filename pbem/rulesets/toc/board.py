"""What one side knows at one instant: all of its own units, and which hexes the enemy holds.

Validation runs on a side's view and resolution on the master state; both build a `Board`, so
movement, stacking, ZOC, range, LoS and spotting are judged by the same code either way. The two
boards of one side at one instant are equal: an own unit's `z` is its level in its stack, as
the view shows it (0 at the bottom; 0 off the map). Of the
enemy a board holds only what the view shows: per occupied hex the number of units and the top
unit (6.6). The own units, their stacks and simulated moves are the kit's `SideBoard`.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.ruleset import State
from pbem.rulesets.kit.board import SideBoard

from .context import Context, other
from .state import levels, normalize
from .zoc import in_zoc


class Board(SideBoard):
    # `_ezoc` and `_near` were compared fields of the dataclass this was: kept so, equality unchanged.
    _compared = SideBoard._compared + ("ctx", "turn", "phase", "sequence", "enemy_top", "marched", "control",
                                       "_ezoc", "_near")

    def __init__(self, side: str, own: dict[str, dict[str, Any]], enemy: dict[str, int], ctx: Context, turn: int,
                 phase: str, sequence: str | None, enemy_top: dict[str, dict[str, Any]], marched: set[str],
                 control: set[str], _ezoc: dict[str, bool] | None = None,
                 _near: dict[str, bool] | None = None) -> None:
        super().__init__(side, own, enemy)
        self.ctx = ctx
        self.turn = turn
        self.phase = phase
        self.sequence = sequence
        self.enemy_top = enemy_top  # hex -> {unit, steps} of the top enemy unit
        self.marched = marched
        self.control = control
        self._ezoc: dict[str, bool] = {} if _ezoc is None else _ezoc
        self._near: dict[str, bool] = {} if _near is None else _near
        self._top: int | None = None  # the highest own z, once known

    @classmethod
    def from_state(cls, ctx: Context, state: State, side: str) -> "Board":
        state = normalize(ctx, state)
        own: dict[str, dict[str, Any]] = {}
        enemy: dict[str, int] = {}
        tops: dict[str, tuple[int, str]] = {}
        for uid, unit in state["units"].items():
            if ctx.counters[uid].side == side:
                own[uid] = {"hex": unit["hex"], "steps": unit["steps"], "status": unit["status"], "z": 0}
            elif unit["status"] == "active":
                enemy[unit["hex"]] = enemy.get(unit["hex"], 0) + 1
                if unit["hex"] not in tops or unit["z"] > tops[unit["hex"]][0]:
                    tops[unit["hex"]] = (unit["z"], uid)
        for uid, level in levels(state["units"], own).items():  # z as the side's view gives it
            own[uid]["z"] = level
        enemy_top = {h: {"unit": uid, "steps": state["units"][uid]["steps"]} for h, (_, uid) in tops.items()}
        marched = {uid for uid in state["marched"] if uid in own}
        return cls(side=side, own=own, enemy=enemy, ctx=ctx, turn=state["turn"], phase=state["phase"],
                   sequence=state.get("sequence"), enemy_top=enemy_top, marched=marched,
                   control=set(state["control"]))

    @classmethod
    def from_view(cls, ctx: Context, view: Mapping[str, Any]) -> "Board":
        own = {uid: {"hex": u["hex"], "steps": u["steps"], "status": u["status"], "z": u.get("level", 0)}
               for uid, u in view["units"].items()}
        enemy = {h: int(info["count"]) for h, info in view["enemy"].items()}
        enemy_top = {h: {"unit": info["top"]["unit"], "steps": info["top"]["steps"]}
                     for h, info in view["enemy"].items()}
        return cls(side=view["side"], own=own, enemy=enemy, ctx=ctx, turn=view["turn"], phase=view["phase"],
                   sequence=view.get("sequence"), enemy_top=enemy_top, marched=set(view.get("marched") or []),
                   control=set(view["control"]))

    @property
    def enemy_side(self) -> str:
        return other(self.side)

    # --- own units --------------------------------------------------------------------------------
    def move(self, uid: str, hex_id: str | None, status: str = "active") -> None:
        """`SideBoard.move`, with the stacks and the highest z kept up to date instead of found
        again from every unit (own units change only through here, as for the kit's board).

        The arrival gets a z above every own unit, so it goes last in its hex's list, which
        `own_stacks` sorts by (z, id): the lists stay exactly what a rebuild would give.
        """
        stacks = self._stacks
        unit = self.own[uid]
        if stacks is not None and unit["status"] == "active":
            left = stacks[unit["hex"]]
            left.remove(uid)
            if not left:
                del stacks[unit["hex"]]
        top = self._top
        if top is None:
            top = max([held["z"] for held in self.own.values()] + [0])
        unit.update(hex=hex_id, status=status, z=top + 1)
        self._top = top + 1
        if stacks is not None and status == "active":
            stacks.setdefault(hex_id, []).append(uid)  # type: ignore[arg-type]

    def units_now(self) -> tuple[dict[str, dict[str, Any]], int | None]:
        """A copy of the own units as they stand, and the highest z (for `put_back`)."""
        return {uid: dict(unit) for uid, unit in self.own.items()}, self._top

    def put_back(self, units: tuple[dict[str, dict[str, Any]], int | None]) -> None:
        """Stand the own units as `units_now` found them (on a board of the same units)."""
        own, self._top = units
        for uid, unit in own.items():
            self.own[uid].update(unit)
        self._stacks = None

    def stacking_points(self, hex_id: str, leaving: set[str] | frozenset[str] = frozenset()) -> int:
        units = self.own_stacks().get(hex_id)
        if not units:
            return 0
        return sum(self.ctx.counters[uid].stacking for uid in units if uid not in leaving)

    def corps_in(self, hex_id: str, leaving: set[str] | frozenset[str] = frozenset()) -> set[str]:
        units = self.own_stacks().get(hex_id)
        if not units:
            return set()
        return {str(self.ctx.counters[uid].corps) for uid in units if uid not in leaving}

    # --- the enemy ----------------------------------------------------------------------------------
    def ezoc(self, hex_id: str) -> bool:
        """7.1-7.3: an enemy ZOC lies in the hex (enemy positions are all a side needs to know)."""
        found = self._ezoc.get(hex_id)
        if found is None:
            found = self._ezoc[hex_id] = in_zoc(self.ctx, hex_id, set(self.enemy))
        return found

    def next_to_enemy(self, hex_id: str) -> bool:
        """9.20: an enemy unit in an adjacent hex (ZOC or not)."""
        found = self._near.get(hex_id)
        if found is None:
            found = self._near[hex_id] = any(n in self.enemy for n in self.ctx.hexes.neighbours(hex_id))
        return found
