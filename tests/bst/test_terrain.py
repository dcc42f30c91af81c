"""Lines of sight, cover and move costs on terrain (T1, T2, T3, M3, W10)."""

from __future__ import annotations

from pbem.geometry import plane
from pbem.rulesets.bst import movement
from pbem.rulesets.bst.cover import cover_from
from pbem.rulesets.bst.sight import sees
from pbem.rulesets.bst.tables import Tables
from tests.bst.tabletop import stand, table

TABLES = Tables.load()
# one wood made of two touching areas (T2: a large wood is several areas side by side)
WOOD = [{"id": "wood-a", "kind": "woods", "polygon": [[400, 400], [500, 400], [500, 500], [400, 500]]},
        {"id": "wood-b", "kind": "woods", "polygon": [[500, 400], [600, 400], [600, 500], [500, 500]]}]


def test_woods_are_seen_into_but_not_through() -> None:
    """T2, rulebook example (Illustration 1), as its rule: a base outside sees a base deep in
    the wood, across both areas; a base inside sees out; a line in and out again is blocked."""
    board = table(*WOOD)
    outside, deep = stand("out", (300, 450)).base, stand("deep", (580, 450)).base
    beyond = stand("beyond", (700, 450)).base
    assert sees(board, outside, deep) and sees(board, deep, outside)
    assert sees(board, deep, beyond)
    assert not sees(board, outside, beyond)


def test_hills_block_across_and_cover_behind_the_crest() -> None:
    """T3, rulebook example (Illustration 2): A below the hill sees B on its near slope in the
    open and C just over the crest in cover; D beyond the hill is out of sight; B and C see A
    in the open."""
    board = table({"id": "hill", "kind": "hill", "polygon": [[300, 400], [700, 400], [700, 700], [300, 700]],
                   "crest": [[300, 550], [700, 550]]})
    a, b = stand("a", (500, 200)).base, stand("b", (500, 450)).base
    c, d = stand("c", (500, 600)).base, stand("d", (500, 900)).base
    assert sees(board, a, b) and cover_from(board, a.centre, b) is None
    assert sees(board, a, c) and cover_from(board, a.centre, c) == "hill"
    assert not sees(board, a, d)
    assert cover_from(board, b.centre, a) is None and cover_from(board, c.centre, a) is None


def test_high_linear_blocks_unless_a_base_is_against_it() -> None:
    """T1: a high wall blocks sight, except for a base touching it."""
    board = table({"id": "wall", "kind": "wall", "line": [[300, 500], [700, 500]]})
    far, other = stand("far", (500, 300)).base, stand("other", (500, 800)).base
    against = stand("against", (500, 515)).base
    assert not sees(board, far, other)
    assert sees(board, far, against) and sees(board, against, far)


def test_smoke_blocks_any_line_that_meets_it() -> None:
    """W10: a line between centres that meets a smoke base is blocked."""
    smoke = [("smoke-1", stand("s", (500, 500)).shape)]
    assert not sees(table(), stand("a", (500, 300)).base, stand("b", (500, 800)).base, smoke)
    assert sees(table(), stand("a", (600, 300)).base, stand("b", (600, 800)).base, smoke)


def test_area_cover_needs_the_whole_base_inside() -> None:
    """T1: half in the wood is not in cover."""
    board = table(*WOOD)
    firer = (500, 100)
    assert cover_from(board, firer, stand("in", (450, 450)).base) == "wood-a"
    assert cover_from(board, firer, stand("half", (450, 400)).base) is None


def test_linear_cover_only_across_the_line() -> None:
    """T1: touching a low wall covers from the far side only."""
    board = table({"id": "low", "kind": "low-wall", "line": [[300, 485], [700, 485]]})
    target = stand("t", (500, 500)).base
    assert cover_from(board, (500, 100), target) == "low"
    assert cover_from(board, (500, 900), target) is None


def test_move_allowances() -> None:
    """M3: 15 cm moving, 10 cm moving and firing; a flame-thrower 6 cm (W11)."""
    assert movement.allowance(TABLES, "move") == 150
    assert movement.allowance(TABLES, "move-fire") == 100
    assert movement.allowance(TABLES, "move-fire", "flamer") == 60


def test_move_costs_for_high_linear_and_cover() -> None:
    """M3: 5 cm for each high linear crossing; 5 cm once for entering or moving in cover;
    nothing for a low wall."""
    board = table({"id": "wall", "kind": "wall", "line": [[0, 300], [1200, 300]]},
                  {"id": "low", "kind": "low-wall", "line": [[0, 200], [1200, 200]]}, *WOOD)
    path: list[plane.Point] = [(450, 150), (450, 250)]
    assert movement.penalty(board, path) == 0
    assert movement.penalty(board, [(450, 250), (450, 350)]) == 50
    assert movement.penalty(board, [(450, 350), (450, 450)]) == 50       # into the wood
    assert movement.penalty(board, [(450, 250), (450, 450)]) == 100      # both
    assert movement.penalty(board, [(420, 450), (580, 450)]) == 50       # inside, across two areas: once
    assert movement.penalty(board, [(450, 250), (450, 300), (450, 350)]) == 50  # a corner on the wall: once
