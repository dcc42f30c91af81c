"""The bots' entry points: orders from a side's view, answers to decision requests."""

from __future__ import annotations

from typing import Any, Mapping

from . import bot_british, bot_german, sequence
from .board import Board
from .context import Context
from .movement import Walker, after_phase
from .orders import NEXT_OF


def orders(ctx: Context, view: Mapping[str, Any], side: str, seed: bytes) -> list[Any]:
    if view.get("result") or sequence.owner(str(view["phase"])) != side:
        return []
    board = Board.from_view(ctx, view)
    phase = str(view["phase"])
    first: list[Any] = []
    chosen = view.get("sequence")
    if phase == "british-first":
        chosen = bot_british.choose_sequence(board)
        first = [{"sequence": chosen}]
    kind = sequence.kind(phase, chosen)
    if kind == "combat":
        return first + _combat(side, board)
    walker = Walker(board)
    found = first + _movement(side, board, walker)
    following = NEXT_OF.get(phase)
    if following is None:
        return found
    # the next phase of this player turn follows a movement: its orders can travel with these
    after = after_phase(walker.board, walker.plan, following)
    if sequence.kind(following, chosen) == "combat":
        later = _combat(side, after)
    else:
        later = _movement(side, after, Walker(after))
    return found + [{"next_phase": later}]


def _movement(side: str, board: Board, walker: Walker) -> list[Any]:
    if side == "german":
        return bot_german.movement_orders(board, walker)
    return bot_british.movement_orders(board, walker)


def _combat(side: str, board: Board) -> list[Any]:
    if side == "german":
        return bot_german.combat_orders(board)
    return bot_british.combat_orders(board)


def answer(request: Mapping[str, Any], seed: bytes) -> Any:
    """Every request lists the option the default standing answer would take first: take it."""
    return request["options"][0]
