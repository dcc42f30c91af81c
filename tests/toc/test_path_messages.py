"""9.1's message for the likeliest slip in a hand-written path: starting it at the stack's own hex.

A path lists the hexes a stack enters; a tired player writes the hex it stands in first. The
rejection says so and lists the hexes next to it, instead of saying a hex is not next to itself."""

from __future__ import annotations

from typing import Any

from pbem.rulesets.toc import fog, phases

from test_speed_movement import MOVES, fresh  # (tests/toc is on the path: pytest prepends it)


def first_walk() -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A recorded state, its side, and one of its recorded moves of two hexes or more by a stack
    already on the map (an entering unit's first hex is judged by 8.2 instead)."""
    for state, side, orders in MOVES:
        ctx = fresh(state)
        units = fog.view(ctx, state, side)["units"]
        for order in orders:
            if "move" not in order or len(order.get("path", [])) < 2 or "sequence" in orders[0]:
                continue
            here = units[order["move"][0]].get("hex")
            if order["path"][0] in ctx.hexes.neighbours_of.get(here, ()):
                return state, side, order
    raise AssertionError("the sample has no such move")


def test_a_path_that_starts_where_the_stack_stands_says_to_leave_that_hex_out() -> None:
    state, side, order = first_walk()
    ctx = fresh(state)
    view = fog.view(ctx, state, side)
    here = view["units"][order["move"][0]]["hex"]
    assert phases.validate(ctx, view, side, [order]) == []
    [problem] = phases.validate(ctx, view, side, [{**order, "path": [here, *order["path"]]}])
    assert problem.section == "9.1" and problem.path == ("path", 0)
    assert f"after {here}, where the stack stands: leave {here} out" in problem.message
    assert problem.legal is not None and order["path"][0] in problem.legal.split(", ")


def test_a_hex_not_next_to_the_last_lists_the_hexes_that_are() -> None:
    state, side, order = first_walk()
    ctx = fresh(state)
    view = fog.view(ctx, state, side)
    far = order["path"][-1]
    [problem] = phases.validate(ctx, view, side, [{**order, "path": [far]}])
    assert problem.section == "9.1" and "is not next to" in problem.message
    assert problem.legal is not None and order["path"][0] in problem.legal.split(", ")
