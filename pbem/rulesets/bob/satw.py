"""Special anti-tank weapons (V9): bazookas, panzerschrecks and panzerfausts. (Filled in below.)"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.errors import Problem
from pbem.core.ruleset import State

from .board import Board
from .context import Context


def problems(ctx: Context, board: Board, uid: str, origin: str, target: str, order: dict[str, Any],
             index: int) -> list[Problem]:
    return [Problem("special anti-tank weapons are not adjudicated yet", order=index, path=("satw",), section="V9")]


def fire(ctx: Context, state: State, dice: Dice, uid: str, order: dict[str, Any], events: list[dict[str, Any]]) -> None:
    raise NotImplementedError


def may_react(ctx: Context, state: State, uid: str, step: Any) -> bool:
    return False


def react(ctx: Context, state: State, dice: Dice, decisions: Any, uid: str, step: Any,
          events: list[dict[str, Any]]) -> None:
    raise NotImplementedError
