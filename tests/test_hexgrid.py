"""Hex geometry against every adjacency, range and line the rule texts state.

FBSM = First Blood: Second Marne (seed 000); ToC = The Old Contemptibles (seed 002).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.geometry.hexgrid import (
    COMPASS,
    CUBE_DIRECTIONS,
    Cube,
    Hex,
    HexGrid,
    Hexside,
    Line,
    as_hex,
    opposite,
    toward,
)

GRID = HexGrid()
EVEN = HexGrid("even-low")
FBSM_NORTH = 3  # FBSM 4.3/11.3: row numbers grow northwards on that map


def ids(hexes: tuple[Hex, ...]) -> list[str]:
    return [h.id for h in hexes]


# --- ids and coordinates -------------------------------------------------------


def test_parse_and_print_ids() -> None:
    assert Hex.parse("3506") == Hex(35, 6)
    assert Hex.parse("0507").id == "0507"
    assert str(Hex(-1, 3)) == "(-1,3)"
    for bad in ("350", "35066", "35a6", " 3506", "", "3506\n"):
        with pytest.raises(ValueError):
            Hex.parse(bad)
    with pytest.raises(ValueError):
        Hex(1, 100).id
    with pytest.raises(ValueError):
        Hex(True, 3)


def test_cube_must_sum_to_zero() -> None:
    with pytest.raises(ValueError):
        Cube(1, 1, 1)


def test_direction_numbering_is_clockwise_from_up() -> None:
    # Even column 34: the columns either side (odd) sit half a hex lower.
    assert ids(GRID.neighbours("3406")) == ["3405", "3505", "3506", "3407", "3306", "3305"]
    # Odd column 35 sits lower than 34 and 36.
    assert ids(GRID.neighbours("3506")) == ["3505", "3606", "3607", "3507", "3407", "3406"]
    assert [opposite(d) for d in range(6)] == [3, 4, 5, 0, 1, 2]
    assert [GRID.direction("3506", n) for n in GRID.neighbours("3506")] == list(range(6))


def test_compass_relative_to_map_north() -> None:
    assert [toward(c) for c in COMPASS] == [0, 1, 2, 3, 4, 5]
    assert [toward(c, FBSM_NORTH) for c in COMPASS] == [3, 4, 5, 0, 1, 2]
    with pytest.raises(ValueError):
        toward("E")
    with pytest.raises(ValueError):
        toward("N", 6)


def test_non_adjacent_hexes_have_no_direction_or_hexside() -> None:
    with pytest.raises(ValueError, match="3506.*3508"):
        GRID.direction("3506", "3508")
    with pytest.raises(ValueError, match="not adjacent"):
        GRID.hexside("3506", "3506")


def test_bad_stagger_rejected() -> None:
    with pytest.raises(ValueError, match="stagger"):
        HexGrid("odd-high")  # type: ignore[arg-type]


# --- The Old Contemptibles -----------------------------------------------------


def test_toc_7_2_zoc_examples_are_neighbours() -> None:
    # 7.2: a unit in 2707 projects ZOC into 2607, 2706, 2807 (its non-built-up neighbours).
    assert {"2607", "2706", "2807"} <= set(ids(GRID.neighbours("2707")))
    # 7.2: a unit in 3506 projects ZOC into 3407, 3505, 3606, 3607.
    assert {"3407", "3505", "3606", "3607"} <= set(ids(GRID.neighbours("3506")))
    assert set(ids(GRID.neighbours("3506"))) == {"3505", "3507", "3406", "3407", "3606", "3607"}


def test_toc_7_2_rules_out_the_even_low_stagger() -> None:
    assert not EVEN.adjacent("3506", "3407")
    assert not EVEN.adjacent("3506", "3607")


def test_toc_10_2_range_example() -> None:
    # 10.2: 2524 bombarding 2823 is a range of three.
    assert GRID.distance("2524", "2823") == 3


def test_toc_10_4_los_along_hexside_3614_3615() -> None:
    # 10.4 first example: 3514 to 3714 runs along the hexside of 3614 and 3615.
    line = GRID.line("3514", "3714")
    assert ids(line.hexes) == ["3514", "3714"]
    (split,) = line.splits
    assert split.kind == "hexside"
    assert split.hexside == Hexside.of(Hex.parse("3614"), Hex.parse("3615"))
    assert ids(split.left) == ["3614"] and ids(split.right) == ["3615"]
    forest = {Hex.parse("3615")}
    # ToC 10.3: one blocking hex beside the hexside is enough.
    assert line.blocked(lambda h: h in forest, at_split="either")
    assert not line.blocked(lambda h: h in forest, at_split="both")


def test_toc_10_4_los_through_3813() -> None:
    # 10.4 second example: 3714 to 3911 is blocked by 3813, which it passes through.
    line = GRID.line("3714", "3911")
    assert Hex.parse("3813") in line.between
    assert line.blocked(lambda h: h.id == "3813", at_split="either")
    assert line.blocked(lambda h: h.id == "3813", at_split="both")
    # It is a hexside-running diagonal: two split stretches around 3813.
    assert [(ids(s.left), ids(s.right)) for s in line.splits] == [(["3713"], ["3814"]), (["3812"], ["3912"])]


def test_toc_10_4_adjacent_targets_cannot_be_blocked() -> None:
    # 10.4 third example: 4308 bombards 4208 or 4209 whatever their terrain.
    for target in ("4208", "4209"):
        assert GRID.distance("4308", target) == 1
        line = GRID.line("4308", target)
        assert line.between == () and line.splits == ()
        assert not line.blocked(lambda h: True, at_split="either")


def test_toc_4_5_surrounded_3122() -> None:
    # 4.5: German units in 3023 and 3222 surround a British unit in 3122: both are
    # adjacent, and they and their ZOC cover all six neighbours of 3122.
    units = ["3023", "3222"]
    assert all(GRID.adjacent("3122", u) for u in units)
    covered = {as_hex(u) for u in units} | {n for u in units for n in GRID.neighbours(u)}
    assert set(GRID.neighbours("3122")) <= covered


def test_toc_12_3_multi_hex_melee_neighbours() -> None:
    # 12.3: a unit in 1824 is adjacent to both 1923 and 1924.
    assert GRID.adjacent("1824", "1923")
    assert GRID.adjacent("1824", "1924")


# --- First Blood: Second Marne -------------------------------------------------

FBSM_RIVERBANK_GIVEN = ["4232", "4131", "4032", "3931"]
FBSM_RIVERBANK_LAST = "2342"  # the 30th hex


def test_fbsm_3_6_riverbank_sequence_is_contiguous() -> None:
    # 3.6: the first four riverbank hexes, one unit each, working along the bank.
    for a, b in zip(FBSM_RIVERBANK_GIVEN, FBSM_RIVERBANK_GIVEN[1:]):
        assert GRID.adjacent(a, b), (a, b)
    # Moving "eastward" one column at a time: FBSM's east is decreasing column.
    cols = [as_hex(h).col for h in FBSM_RIVERBANK_GIVEN]
    assert cols == [42, 41, 40, 39]
    # The 30th hex, 2342, is reachable by a 30-hex chain from the 4th (3931).
    assert GRID.distance(FBSM_RIVERBANK_GIVEN[-1], FBSM_RIVERBANK_LAST) <= 30 - 4
    assert GRID.distance(FBSM_RIVERBANK_GIVEN[0], FBSM_RIVERBANK_LAST) <= 30 - 1


def test_fbsm_10_6_range_examples() -> None:
    assert GRID.distance("2236", "2232") == 4
    assert GRID.distance("2236", "2034") == 3


def test_fbsm_10_8_blocking_examples() -> None:
    # 10.8: 2717 next to 2718 and to 2618; 2518 is two away with 2618 between.
    assert GRID.adjacent("2717", "2718")
    assert GRID.adjacent("2717", "2618")
    line = GRID.line("2717", "2518")
    assert ids(line.hexes) == ["2717", "2618", "2518"] and line.splits == ()
    wooded = {Hex.parse("2618")}
    assert line.blocked(lambda h: h in wooded, at_split="both")
    assert not GRID.line("2717", "2618").blocked(lambda h: h in wooded, at_split="both")
    # ...and the same the other way round.
    assert ids(GRID.line("2518", "2717").hexes) == ["2518", "2618", "2717"]


def test_fbsm_11_3_drift_south_is_decreasing_row() -> None:
    south = toward("S", FBSM_NORTH)
    assert GRID.step("2136", south) == Hex.parse("2135")
    assert GRID.step("2136", south, 2) == Hex.parse("2134")
    # US bombardments drift north.
    assert GRID.step("2136", toward("N", FBSM_NORTH)) == Hex.parse("2137")


def test_fbsm_4_3_south_edge_is_row_00() -> None:
    # 4.3: German units exit off the south edge via 1900-3300; one more step south leaves row 00.
    south = toward("S", FBSM_NORTH)
    assert all(GRID.step(Hex(c, 0), south).row == -1 for c in range(19, 34))


def test_fbsm_10_9_example_is_a_known_slip() -> None:
    # The printed example (2821 to 3124) is not a hexside-running line on any
    # stagger, nor does it pass 3125; README "Known slips". On the map's grid it
    # is 5 hexes long and passes through 3024 outright.
    for grid in (GRID, EVEN):
        line = grid.line("2821", "3124")
        assert line.splits == ()
        assert Hex.parse("3125") not in line.hexes
    assert GRID.distance("2821", "3124") == 5
    assert Hex.parse("3024") in GRID.line("2821", "3124").between


def test_fbsm_10_9_half_blocked_hexside_line() -> None:
    # 10.9's rule on a line that really runs along hexsides: 2010 to 2610 passes
    # the centres of 2210 and 2410 and runs between 2109|2110, 2309|2310, 2509|2510.
    line = GRID.line("2010", "2610")
    assert ids(line.hexes) == ["2010", "2210", "2410", "2610"]
    assert [(ids(s.left), ids(s.right)) for s in line.splits] == [
        (["2109"], ["2110"]),
        (["2309"], ["2310"]),
        (["2509"], ["2510"]),
    ]
    assert all(s.kind == "hexside" for s in line.splits)
    one_side = {Hex.parse("2309")}
    both_sides = {Hex.parse("2309"), Hex.parse("2310")}
    assert not line.blocked(lambda h: h in one_side, at_split="both")
    assert line.blocked(lambda h: h in both_sides, at_split="both")
    assert line.blocked(lambda h: h in one_side, at_split="either")
    # Half-blocked on different stretches is still not blocked under 10.9.
    staggered = {Hex.parse("2109"), Hex.parse("2310")}
    assert not line.blocked(lambda h: h in staggered, at_split="both")


def test_hexside_line_crossings_per_variant() -> None:
    line = GRID.line("3514", "3714")
    (split,) = line.splits
    assert line.hexsides == ()
    assert [str(s) for s in split.left_hexsides] == ["3514-3614", "3614-3714"]
    assert [str(s) for s in split.right_hexsides] == ["3514-3615", "3615-3714"]
    # A river along 3614|3615 is run along, never crossed.
    assert split.hexside not in split.left_hexsides + split.right_hexsides
    river = {Hexside.of(Hex.parse("3514"), Hex.parse("3615"))}
    assert line.blocked(lambda h: False, at_split="either", side_blocks=lambda s: s in river)
    assert not line.blocked(lambda h: False, at_split="both", side_blocks=lambda s: s in river)


def test_line_through_a_corner_is_a_vertex_split() -> None:
    # Offset (5,-1,-4) in cube coordinates passes exactly through two hex corners.
    a = GRID.to_cube("2010")
    b = GRID.from_cube(a + Cube(5, -1, -4))
    line = GRID.line(Hex.parse("2010"), b)
    kinds = [s.kind for s in line.splits]
    assert kinds == ["vertex", "vertex"]
    for s in line.splits:
        assert len(s.candidates) == 1
        touched = s.candidates[0]
        # A touched corner: blocking only under the "either" reading.
        assert line.blocked(lambda h: h == touched, at_split="either")
        assert not line.blocked(lambda h: h == touched, at_split="both")


def test_line_finds_slivers_that_sampling_skips() -> None:
    # Cube offset (7,-6,-1): the line clips hex (4,-4,0) for 2.5% of its length;
    # sampling at distance + 1 points (Red Blob) misses it. Check the claim
    # independently at t = 61/100, which lies inside that hex's cell.
    start = GRID.to_cube("2020")
    end = start + Cube(7, -6, -1)
    sliver = start + Cube(4, -4, 0)
    point = [Fraction(x) + Fraction(61, 100) * (y - x) for x, y in zip(start.coords(), end.coords())]
    rel = [p - h for p, h in zip(point, sliver.coords())]
    assert all(abs(rel[i] - rel[j]) < 1 for i, j in ((0, 1), (1, 2), (2, 0)))
    line = GRID.line(GRID.from_cube(start), GRID.from_cube(end))
    assert GRID.from_cube(sliver) in line.hexes
    assert len(line.hexes) > GRID.distance(line.start, line.end) + 1


def test_ring_and_within() -> None:
    assert GRID.ring("3506", 0) == (Hex.parse("3506"),)
    assert ids(GRID.ring("3506", 1)) == ids(GRID.neighbours("3506"))
    assert ids(GRID.ring("3506", 2))[:3] == ["3504", "3605", "3705"]
    assert len(GRID.hexes_within("3506", 3)) == 37
    with pytest.raises(ValueError):
        GRID.ring("3506", -1)


def test_even_low_example() -> None:
    # On an even-low grid odd columns sit higher: 3506 touches 3405/3406 and 3605/3606.
    assert set(ids(EVEN.neighbours("3506"))) == {"3505", "3507", "3405", "3406", "3605", "3606"}


# --- properties ----------------------------------------------------------------

coord = st.integers(min_value=-20, max_value=80)
hexes = st.builds(Hex, coord, coord)
grids = st.sampled_from([GRID, EVEN])
near = st.tuples(st.integers(-9, 9), st.integers(-9, 9))


@given(grids, hexes)
def test_cube_round_trip(grid: HexGrid, h: Hex) -> None:
    assert grid.from_cube(grid.to_cube(h)) == h


@given(grids, hexes, hexes, hexes)
def test_distance_is_a_metric(grid: HexGrid, a: Hex, b: Hex, c: Hex) -> None:
    assert (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, b) == grid.distance(b, a)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@given(grids, hexes)
def test_neighbours_symmetric_and_at_distance_one(grid: HexGrid, h: Hex) -> None:
    ns = grid.neighbours(h)
    assert len(set(ns)) == 6
    for d, n in enumerate(ns):
        assert grid.distance(h, n) == 1
        assert grid.neighbours(n)[opposite(d)] == h
        assert grid.hexside(h, n) == grid.hexside(n, h)
    assert len(set(grid.hexsides(h))) == 6


@given(hexes)
def test_stagger_flip_is_a_one_column_shift(h: Hex) -> None:
    shifted = Hex(h.col + 1, h.row)
    assert [Hex(n.col - 1, n.row) for n in GRID.neighbours(shifted)] == list(EVEN.neighbours(h))


@given(grids, hexes, st.integers(0, 5))
def test_ring_sizes(grid: HexGrid, h: Hex, radius: int) -> None:
    ring = grid.ring(h, radius)
    assert len(set(ring)) == max(1, 6 * radius)
    assert all(grid.distance(h, x) == radius for x in ring)
    within = grid.hexes_within(h, radius)
    assert len(set(within)) == len(within) == 3 * radius * (radius + 1) + 1


def _contiguous(grid: HexGrid, path: tuple[Hex, ...]) -> bool:
    return all(grid.adjacent(p, q) for p, q in zip(path, path[1:]))


@settings(max_examples=300)
@given(grids, hexes, near)
def test_line_properties(grid: HexGrid, a: Hex, offset: tuple[int, int]) -> None:
    b = Hex(a.col + offset[0], a.row + offset[1])
    line = grid.line(a, b)
    n = grid.distance(a, b)
    for path in (line.left, line.right):
        assert path[0] == a and path[-1] == b
        assert _contiguous(grid, path)
        assert len(set(path)) == len(path) >= n + 1
    assert line.hexes[0] == a and line.hexes[-1] == b
    assert set(line.hexes) == set(line.left) & set(line.right)
    back = grid.line(b, a)
    assert back.hexes == line.hexes[::-1]
    assert back.left == line.right[::-1] and back.right == line.left[::-1]
    if not line.splits:
        assert line.left == line.right == line.hexes
        assert _contiguous(grid, line.hexes)
    for split in line.splits:
        assert split.kind in ("hexside", "vertex")
        if split.kind == "hexside":
            assert grid.adjacent(split.left[0], split.right[0])


def _cell(p: list[Fraction]) -> Cube | None:
    """The hex whose cell holds p strictly inside, or None on a boundary."""
    rounded = [round(x) for x in p]
    worst = max(range(3), key=lambda i: abs(rounded[i] - p[i]))
    rounded[worst] = -sum(rounded[i] for i in range(3) if i != worst)
    rel = [x - r for x, r in zip(p, rounded)]
    if any(abs(rel[i] - rel[j]) >= 1 for i, j in ((0, 1), (1, 2), (2, 0))):
        return None
    return Cube(*rounded)


@settings(max_examples=150)
@given(hexes, near)
def test_line_contains_every_hex_the_segment_enters(a: Hex, offset: tuple[int, int]) -> None:
    # Independent oracle: sample the exact segment densely; every hex holding a
    # sample strictly inside must be on the line (on both sides when not on a split).
    b = Hex(a.col + offset[0], a.row + offset[1])
    start, end = GRID.to_cube(a).coords(), GRID.to_cube(b).coords()
    steps = 24 * max(1, GRID.distance(a, b))
    line = GRID.line(a, b)
    split_hexes = {h for s in line.splits for h in s.candidates}
    for k in range(steps + 1):
        t = Fraction(k, steps)
        cube = _cell([x + t * (y - x) for x, y in zip(start, end)])
        if cube is None:
            continue
        h = GRID.from_cube(cube)
        assert h in line.hexes or h in split_hexes


def test_line_of_one_hex() -> None:
    line = GRID.line("3506", "3506")
    assert line == Line((Hex(35, 6),), (Hex(35, 6),), (Hex(35, 6),), (), ())


def test_cube_directions_are_unit_steps() -> None:
    assert all(d.length() == 1 for d in CUBE_DIRECTIONS)
    assert len(set(CUBE_DIRECTIONS)) == 6
