"""The integer line walk and `SightLines` give exactly what the exact rational walk gives.

`HexGrid._line_exact` (Fractions with a symbolic epsilon) is the reference; `HexGrid.line`
(integer walk, shapes shared per offset) and `SightLines.clear` (integer walk, no `Line`
objects) must agree with it on every pair, hexside-running and corner-touching lines included.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.geometry import hexgrid
from pbem.geometry.hexgrid import CUBE_DIRECTIONS, STAGGERS, Cube, Hex, HexGrid, Hexside, SightLines

GRIDS = {stagger: HexGrid(stagger) for stagger in STAGGERS}

coords = st.integers(min_value=-3, max_value=30)
hexes = st.builds(Hex, coords, coords)
staggers = st.sampled_from(STAGGERS)
# Hexside-running lines follow the six "diagonal" directions (cube offsets like (1, 1, -2));
# corner-touching ones have a primitive direction with all coordinates equal modulo 3.
DIAGONALS = [Cube(1, 1, -2), Cube(2, -1, -1), Cube(1, -2, 1), Cube(-1, -1, 2), Cube(-2, 1, 1), Cube(-1, 2, -1),
             Cube(5, -1, -4), Cube(4, -5, 1), Cube(-1, 4, -3), Cube(2, 2, -4)]


@st.composite
def diagonal_pairs(draw: st.DrawFn) -> tuple[str, Hex, Hex]:
    stagger = draw(staggers)
    grid = GRIDS[stagger]
    a = draw(hexes)
    step = draw(st.sampled_from(DIAGONALS)).scaled(draw(st.integers(min_value=1, max_value=6)))
    return stagger, a, grid.from_cube(grid.to_cube(a) + step)


@settings(max_examples=2000, deadline=None)
@given(staggers, hexes, hexes)
def test_line_is_the_exact_line(stagger: str, a: Hex, b: Hex) -> None:
    grid = GRIDS[stagger]
    assert grid.line(a, b) == grid._line_exact(a, b)


@settings(max_examples=1000, deadline=None)
@given(diagonal_pairs())
def test_line_is_the_exact_line_along_hexsides_and_through_corners(case: tuple[str, Hex, Hex]) -> None:
    stagger, a, b = case
    grid = GRIDS[stagger]
    exact = grid._line_exact(a, b)
    assert grid.line(a, b) == exact
    assert grid.line(b, a) == grid._line_exact(b, a)


def test_every_offset_up_to_range_14_from_both_column_parities() -> None:
    for stagger, grid in GRIDS.items():
        for start in (Hex(20, 20), Hex(21, 20)):
            for b in grid.hexes_within(start, 14):
                assert grid.line(start, b) == grid._line_exact(start, b), (stagger, start, b)


def test_the_integer_walk_is_the_fraction_walk() -> None:
    origin = Cube(0, 0, 0)
    for q in range(-16, 17):
        for r in range(-16, 17):
            d = (q, r, -q - r)
            walks = []
            for side in (1, -1):
                expected = [(c.q, c.r) for c in hexgrid._walk(origin, Cube(*d), side)]
                got = [hexgrid._unpack(p) for p in hexgrid._walk_int(d, side)]
                assert got == expected, (d, side)
                walks.append(got)
            # The nudged walks differ exactly when the line meets a corner.
            assert (walks[0] != walks[1]) == hexgrid._may_tie(q, r), d


def test_far_hexes_take_the_general_path() -> None:
    grid = HexGrid()
    a, b = Hex(2**29 + 1, -(2**30)), Hex(2**29 + 4, -(2**30) + 7)
    assert grid.line(a, b) == grid._line_exact(a, b)
    for blocker in grid.line(a, b).hexes[1:-1] + (Hex(0, 0),):
        sight = SightLines(grid, [blocker], at_split="both")
        expected = not grid._line_exact(a, b).blocked(lambda h: h == blocker, at_split="both")
        assert sight.clear(a, b) == expected


def test_line_accepts_ids_and_shares_immutable_hexes() -> None:
    grid = HexGrid()
    assert grid.line("3714", "3911") == grid._line_exact("3714", "3911")
    assert grid.line("3714", "3911").hexes[1] is grid.line("3714", "3911").hexes[1]


@st.composite
def sight_cases(draw: st.DrawFn) -> tuple[HexGrid, set[Hex], set[Hexside], str, bool]:
    grid = GRIDS[draw(staggers)]
    seed = draw(st.integers(min_value=0, max_value=2**32))
    rng = random.Random(seed)
    density = draw(st.sampled_from([0.0, 0.05, 0.2, 0.5]))
    side_density = draw(st.sampled_from([0.0, 0.0, 0.1, 0.4]))
    blocking = {Hex(c, r) for c in range(-2, 33) for r in range(-2, 33) if rng.random() < density}
    sides = set()
    if side_density:
        for c in range(-2, 33):
            for r in range(-2, 33):
                for n in grid.neighbours(Hex(c, r))[:3]:
                    if rng.random() < side_density:
                        sides.add(Hexside.of(Hex(c, r), n))
    return grid, blocking, sides, draw(st.sampled_from(["both", "either"])), draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(sight_cases(), st.data())
def test_sight_lines_match_line_blocked(case: tuple[HexGrid, set[Hex], set[Hexside], str, bool],
                                       data: st.DataObject) -> None:
    grid, blocking, sides, at_split, cache = case
    sight = SightLines(grid, blocking, at_split=at_split, blocking_sides=sides, cache=cache)  # type: ignore[arg-type]
    small = st.integers(min_value=0, max_value=30)
    for _ in range(25):
        a = Hex(data.draw(small), data.draw(small))
        if data.draw(st.booleans()):
            step = data.draw(st.sampled_from(DIAGONALS + list(CUBE_DIRECTIONS))).scaled(data.draw(st.integers(1, 8)))
            b = grid.from_cube(grid.to_cube(a) + step)
        else:
            b = Hex(data.draw(small), data.draw(small))
        expected = not grid._line_exact(a, b).blocked(
            lambda h: h in blocking, at_split=at_split,  # type: ignore[arg-type]
            side_blocks=(lambda s: s in sides) if sides else None)
        assert sight.clear(a, b) == expected, (a, b)
        assert sight.clear(a.id if a.has_id else a, b) == expected


def test_sight_lines_on_the_fbsm_map_match_the_ruleset() -> None:
    from pbem.core import yamlio
    from pbem.demo import default_scenario
    from pbem.rulesets.fbsm.context import prepare as config, setup_of as scenario_setup

    cfg = config(scenario_setup(yamlio.load_file(default_scenario("fbsm")).data))
    ids = [h.id for h in cfg.map.hexes()]
    blocking = [h for h in cfg.map.hexes() if cfg.blocks(h)]
    cached = SightLines(cfg.grid, blocking, at_split="both")
    scratch = SightLines(cfg.grid, blocking, at_split="both", cache=False)
    rng = random.Random(3)
    for _ in range(1000):
        a, b = rng.choice(ids), rng.choice(ids)
        expected = not cfg.grid._line_exact(a, b).blocked(cfg.blocks, at_split="both")
        assert cached.clear(a, b) == expected
        assert scratch.clear(a, b) == expected
        assert cfg.lof_clear(a, b) == expected


def test_sight_lines_refuse_an_unknown_split_rule() -> None:
    with pytest.raises(ValueError):
        SightLines(HexGrid(), [], at_split="some")  # type: ignore[arg-type]
