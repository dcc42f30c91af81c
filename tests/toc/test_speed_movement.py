"""ToC movement walked once for its check and its resolution (issue #17): the same outcome either way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.core import ruleset as ruleset_module
from pbem.core import yamlio
from pbem.core.audit import audit
from pbem.core.game import initial_state, load_game
from pbem.rulesets.toc import fog, movement, phases
from pbem.rulesets.toc.board import Board
from pbem.rulesets.toc.context import Context, prepare
from pbem.rulesets.toc.movement import Walked, simulate

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "toc" / "game"


def recorded_states() -> Iterator[dict[str, Any]]:
    """The starting state of the sample game, then the state of each of its turns."""
    yield initial_state(load_game(SAMPLE))
    for turn in sorted((SAMPLE / "turns").iterdir()):
        yield yamlio.load_file(turn / "turn.yaml").data["state"]


def recorded_moves() -> Iterator[tuple[dict[str, Any], str, list[Any]]]:
    """(the state they were checked against, side, orders) of every orders file that moves units."""
    states = list(recorded_states())
    for folder in sorted((SAMPLE / "orders").iterdir()):
        for path in sorted(folder.glob("*.yaml")):
            if path.name.endswith(".receipt.yaml"):
                continue
            doc = yamlio.load_file(path).data
            if any("move" in order or "top" in order for order in doc["orders"]):
                yield states[doc["seq"] - 1], doc["side"], doc["orders"]


MOVES = list(recorded_moves())


def fresh(state: dict[str, Any]) -> Context:
    return prepare(state["setup"])


def test_the_sample_moves_units_often_enough_to_say_something() -> None:
    assert len(MOVES) >= 10
    assert {side for _, side, _ in MOVES} == {"german", "british"}
    assert any("sequence" in orders[0] for _, _, orders in MOVES)  # (5.3, below)


@pytest.mark.parametrize("state", list(recorded_states())[::3])
def test_a_sides_board_is_the_same_from_its_view_and_from_the_master_state(state: dict[str, Any]) -> None:
    ctx = fresh(state)
    for side in ("german", "british"):
        assert Board.from_view(ctx, fog.view(ctx, state, side)) == Board.from_state(ctx, state, side)


@pytest.mark.parametrize("index", range(len(MOVES)))
def test_a_walk_taken_from_the_memo_is_the_walk_itself(index: int) -> None:
    state, side, orders = MOVES[index]
    ctx0 = fresh(state)
    walked = Board.from_state(ctx0, state, side)
    problems, plan = simulate(walked, orders)  # (a context of its own: nothing remembered)

    ctx = fresh(state)
    simulate(Board.from_view(ctx, fog.view(ctx, state, side)), orders)  # the check, remembered
    board = Board.from_state(ctx, state, side)
    again, replayed = simulate(board, orders)

    assert len(ctx.cache["movement:walked"]) == 1  # the resolution met the check's walk
    assert (again, replayed) == (problems, plan)
    assert board.own == walked.own and board.own_stacks() == walked.own_stacks()
    board.move(next(iter(board.own)), None, "exited")  # the z the next arrival takes: the walk's too
    walked.move(next(iter(walked.own)), None, "exited")
    assert board.own == walked.own

    replayed.columns["0000"] = 9  # what a later use changes is not remembered
    replayed.steps.clear()
    assert simulate(Board.from_state(ctx, state, side), orders) == (problems, plan)


def test_any_change_to_the_board_or_the_orders_is_another_walk() -> None:
    state, side, orders = MOVES[0]
    board = Board.from_state(fresh(state), state, side)
    key = Walked.key(board, orders)
    uid = next(iter(board.own))
    changed = [
        Walked.key(board, orders[1:]),
        Walked.key(board, [dict(orders[0], march=not orders[0].get("march", False))] + orders[1:]),
    ]
    for field, value in [("turn", board.turn + 1), ("phase", "german-combat"), ("sequence", "x"),
                         ("enemy", {**board.enemy, "0101": 1}), ("marched", {uid})]:
        other = Board.from_state(board.ctx, state, side)
        setattr(other, field, value)
        changed.append(Walked.key(other, orders))
    for name in ("hex", "z", "steps", "status"):
        other = Board.from_state(board.ctx, state, side)
        other.own[uid][name] = "elsewhere" if name in ("hex", "status") else 99
        changed.append(Walked.key(other, orders))
    assert key is not None and key not in changed and len(set(changed)) == len(changed)


def test_orders_that_are_not_plain_data_are_walked_every_time() -> None:
    state, side, orders = MOVES[0]
    board = Board.from_state(fresh(state), state, side)
    assert Walked.key(board, orders + [{"move": {"a", "set"}}]) is None
    assert Walked.key(board, orders + [{"path": [float("nan")]}]) is None


NAMING = [(state, side, orders) for state, side, orders in MOVES if "sequence" in orders[0]]


@pytest.mark.parametrize("index", range(len(NAMING)))
def test_moves_after_the_sequence_is_named_are_judged_as_when_walked_with_it(index: int) -> None:
    """5.3: the British orders that name the sequence are walked without the naming order, and
    each problem still names the order it is about (here a move past the last legal one)."""
    state, side, orders = NAMING[index]
    view = fog.view(fresh(state), state, side)
    unit = next(uid for uid, held in view["units"].items() if held["status"] == "active")
    carried = [order for order in orders if "next_phase" in order]  # (the last order, if any)
    moves = [order for order in orders if "next_phase" not in order]
    wrong = moves + [{"move": [unit], "path": ["0101", "9999"]}] + carried
    walked, _ = simulate(Board.from_view(fresh(state), view), wrong)  # the naming order walked too
    assert walked and walked[-1].order == len(moves)
    assert phases.validate(fresh(state), view, side, wrong) == walked


@pytest.mark.parametrize("index", range(0, len(MOVES), 2))
def test_no_walk_reads_hex_control_or_the_enemy_top_units(index: int) -> None:
    """What the key leaves out: a board that differs only there walks the same orders the same way."""
    state, side, orders = MOVES[index]
    board = Board.from_state(fresh(state), state, side)
    other = Board.from_state(fresh(state), state, side)
    other.control = set() if board.control else set(board.ctx.hexes.terrain_of)
    other.enemy_top = {hex_id: {"unit": "X-0", "steps": 1} for hex_id in other.enemy}
    assert Walked.key(board, orders) == Walked.key(other, orders)
    assert simulate(board, orders) == simulate(other, orders)
    assert board.own == other.own


def test_an_audit_of_the_sample_walks_no_orders_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each movement phase's orders are walked for their check; their resolution (and that of a
    phase carried by `next_phase`) takes the walk kept then."""
    walked: list[tuple[str, int, str]] = []
    original = movement.simulate

    def recording(board: Board, orders: list[Any]) -> Any:
        key = Walked.key(board, orders) if orders else None
        if key is not None and key not in board.ctx.cache.get("movement:walked", {}):
            walked.append((board.phase, board.turn, json.dumps(orders, sort_keys=True)))
        return original(board, orders)

    monkeypatch.setattr(movement, "simulate", recording)
    ruleset_module._bound.cache_clear()  # a fresh context: walks kept by earlier tests would fill its
    # bounded store at another moment and drop a check's walk before its resolution (a miss, not an error)
    assert audit(SAMPLE) == []
    assert len(walked) >= 10
    assert len(set(walked)) == len(walked)
