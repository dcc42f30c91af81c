"""Facing, firing arcs and front armour (V3, V4, V6) against independent geometry.

`facing.py` decides by integer cross products; these tests check it against the exact line walk of
`pbem.geometry.hexgrid` (the hexside by which each nudged thread enters the target) and against
counting: a 60-degree arc holds r + 1 hexes of the ring at range r.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import yamlio
from pbem.rulesets.bob.context import Context, prepare, scenario_setup
from pbem.rulesets.bob.facing import facings_for, front_armour, front_hexes, in_arc, turn_to

SCENARIO = Path(__file__).parent / "board" / "scenario.yaml"
TARGET = "0604"  # a hex far enough from every edge for rings up to 3


@pytest.fixture(scope="module")
def ctx() -> Context:
    return prepare(scenario_setup(yamlio.load_file(SCENARIO).data))


def _ring(ctx: Context, centre: str, radius: int) -> list[str]:
    return [h.id for h in ctx.hexes.grid.ring(centre, radius)]


@pytest.mark.parametrize("facing", range(6))
def test_the_front_hexes_are_in_the_arc_and_the_others_are_not(ctx: Context, facing: int) -> None:
    front = set(front_hexes(ctx, TARGET, facing))
    assert {n for n in ctx.hexes.neighbours(TARGET) if in_arc(ctx, TARGET, facing, n)} == front


@pytest.mark.parametrize("radius", [1, 2, 3])
def test_an_arc_holds_r_plus_one_hexes_of_each_ring_and_the_six_cover_it(ctx: Context, radius: int) -> None:
    ring = _ring(ctx, TARGET, radius)
    for facing in range(6):
        assert sum(in_arc(ctx, TARGET, facing, h) for h in ring) == radius + 1
    for h in ring:
        assert 1 <= len(facings_for(ctx, TARGET, h)) <= 2  # two where it lies on an edge row


def _front_by_the_thread(ctx: Context, firer: str, target: str, facing: int) -> bool:
    """Front when either nudged thread enters the target through hexside `facing` or `facing + 1`."""
    grid = ctx.hexes.grid
    line = grid.line(firer, target)
    entered = {grid.direction(target, path[-2]) for path in (line.left, line.right)}
    return bool(entered & {facing % 6, (facing + 1) % 6})


@pytest.mark.parametrize("facing", range(6))
def test_front_armour_agrees_with_the_exact_line_walk(ctx: Context, facing: int) -> None:
    firers = [h for r in (1, 2, 3) for h in _ring(ctx, TARGET, r) if ctx.hexes.on_map(h)]
    assert len(firers) == 36
    for firer in firers:
        assert front_armour(ctx, firer, TARGET, facing) == _front_by_the_thread(ctx, firer, TARGET, facing), firer


def test_the_rear_is_never_front_and_straight_ahead_always_is(ctx: Context) -> None:
    for facing in range(6):
        ahead = front_hexes(ctx, TARGET, facing)
        behind = [ctx.hexes.neighbours(TARGET)[(facing + 3) % 6], ctx.hexes.neighbours(TARGET)[(facing + 4) % 6]]
        assert all(front_armour(ctx, h, TARGET, facing) for h in ahead)
        assert not any(front_armour(ctx, h, TARGET, facing) for h in behind)


def test_turning_takes_the_nearer_facing(ctx: Context) -> None:
    above = ctx.hexes.neighbours(TARGET)[0]  # across hexside 0: in the arcs of facings 5 and 0
    assert facings_for(ctx, TARGET, above) == (0, 5)
    assert turn_to(ctx, TARGET, 1, above) == 0
    assert turn_to(ctx, TARGET, 4, above) == 5
    assert turn_to(ctx, TARGET, 5, above) == 5
