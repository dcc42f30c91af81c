"""Firing (F2-F9): the text's worked examples first, then each rule's limits."""

from __future__ import annotations

from pbem.rulesets.bst import fire
from pbem.rulesets.bst.tables import Tables
from tests.bst.tabletop import stand, table

TABLES = Tables.load()


def test_chain_example_bases_1_2_x_3_4() -> None:
    """F4, rulebook example (Illustration 4): 1 is closest, 2 touches 1, X (another unit)
    touches 2; 3 touches 1 but a building hides it from the firer; 4 touches only 3. The
    markers go 1, 2, X, then 1 again: 3 and 4 get none."""
    board = table({"id": "barn", "kind": "building", "polygon": [[460, 300], [490, 300], [490, 330], [460, 330]]})
    firer = stand("f", (500, 100), side="allies", unit="g1")
    bases = [stand("1", (500, 400)), stand("2", (545, 410)), stand("x", (590, 420), unit="u2"),
             stand("3", (455, 440)), stand("4", (410, 470))]
    first = fire.first_target([firer], [b for b in bases if b.unit == "u1"])
    assert first.id == "1"
    spread = fire.distribute(board, TABLES, [firer], first, [firer, *bases], 7)
    assert spread.chain == ("1", "2", "x")
    assert spread.dealt == {"1": 3, "2": 2, "x": 2}
    assert spread.markers == spread.dealt  # nobody in cover


def test_chain_restarts_at_the_closest_base_for_the_next_attack() -> None:
    """F4: a second attack starts again at the base closest to its firer."""
    board = table()
    bases = [stand("1", (500, 400)), stand("2", (545, 400))]
    for _ in range(2):
        spread = fire.distribute(board, TABLES, [stand("f", (500, 100), side="allies")], bases[0], bases, 1)
        assert spread.markers == {"1": 1, "2": 0}


def test_fewer_markers_than_bases_reach_only_the_start_of_the_chain() -> None:
    """F4: a base in contact only with a base that got no marker gets none."""
    bases = [stand("1", (500, 400)), stand("2", (545, 400)), stand("3", (590, 400))]
    spread = fire.distribute(table(), TABLES, [stand("f", (500, 100), side="allies")], bases[0], bases, 2)
    assert spread.markers == {"1": 1, "2": 1, "3": 0}


def test_friendly_bases_in_the_chain_take_markers_too() -> None:
    """F4: a base of the firer's own side in contact with the chain is in it."""
    bases = [stand("1", (500, 400)), stand("own", (545, 400), side="allies", unit="g2")]
    spread = fire.distribute(table(), TABLES, [stand("f", (500, 100), side="allies")], bases[0], bases, 2)
    assert spread.markers == {"1": 1, "own": 1}


WALL = {"id": "wall", "kind": "low-wall", "line": [[450, 385], [650, 385]]}
ABC = [stand("a", (500, 400)), stand("b", (545, 400)), stand("c", (590, 400))]


def test_cover_example_x_and_z() -> None:
    """F5, rulebook example (Illustration 5): X and Z place 10 markers each, dealt A-B-C:
    4, 3, 3. A, B and C touch a wall between them and X, so from X they keep 3, 2, 2; from
    Z, whose line of fire does not cross the wall, all 10."""
    board = table(WALL)
    x = stand("x", (450, 100), side="allies", unit="g1")
    z = stand("z", (450, 700), 180, side="allies", unit="g2")
    from_x = fire.distribute(board, TABLES, [x], fire.first_target([x], ABC), [x, *ABC], 10)
    from_z = fire.distribute(board, TABLES, [z], fire.first_target([z], ABC), [z, *ABC], 10)
    assert from_x.chain == from_z.chain == ("a", "b", "c")
    assert from_x.dealt == {"a": 4, "b": 3, "c": 3}
    assert from_x.markers == {"a": 3, "b": 2, "c": 2}
    assert from_z.markers == {"a": 4, "b": 3, "c": 3}


def test_cover_never_takes_the_last_marker() -> None:
    """F5, the example's second part: X with 2 markers gives A and B one each; C none."""
    board = table(WALL)
    x = stand("x", (450, 100), side="allies")
    spread = fire.distribute(board, TABLES, [x], ABC[0], [x, *ABC], 2)
    assert spread.markers == {"a": 1, "b": 1, "c": 0}


def test_cover_in_woods_counts_from_every_direction() -> None:
    """F5: in woods A, B and C discard against both X and Z."""
    board = table({"id": "wood", "kind": "woods", "polygon": [[470, 370], [620, 370], [620, 430], [470, 430]]})
    x = stand("x", (450, 100), side="allies")
    z = stand("z", (450, 700), 180, side="allies")
    for firer in (x, z):
        spread = fire.distribute(board, TABLES, [firer], ABC[0], [firer, *ABC], 10)
        assert spread.markers == {"a": 3, "b": 2, "c": 2}


def test_short_range_in_the_open_resolves_at_once() -> None:
    """F7: in the open at short range the markers resolve at the end of the activation;
    behind the wall, or beyond 30 cm, they wait."""
    near = stand("x", (500, 200), side="allies")
    far = stand("far", (500, 0), side="allies")
    target = stand("t", (500, 400))
    assert fire.distribute(table(), TABLES, [near], target, [target], 2).immediate == ("t",)
    assert fire.distribute(table(WALL), TABLES, [near], target, [target], 2).immediate == ()
    assert fire.distribute(table(), TABLES, [far], target, [target], 2).immediate == ()


def test_safety_zone_example() -> None:
    """F9, rulebook example (Illustration 7): A and B, close to the line of fire and within
    short range, stop the shot; C is over a base width from the line; D is near the line but
    beyond short range."""
    firer = stand("f", (500, 100), side="allies", unit="g1")
    target = stand("t", (500, 700))
    friends = [stand("a", (520, 200), side="allies", unit="g2"), stand("b", (480, 300), side="allies", unit="g2"),
               stand("c", (560, 250), side="allies", unit="g2"), stand("d", (530, 500), side="allies", unit="g2")]
    assert fire.friendlies_in_danger(TABLES, firer, target, [firer, target, *friends]) == ["a", "b"]
    refused = fire.refusal(table(), TABLES, firer, target, [firer, target, *friends])
    assert refused is not None and refused.section == "F9" and "a" in refused.message


def test_safety_zone_at_the_illustrations_15_cm() -> None:
    """F9 erratum: a scenario may take the illustration's 15 cm; then B no longer counts."""
    tables = Tables.load({"safety_zone_range": 150})
    firer = stand("f", (500, 100), side="allies")
    friends = [stand("a", (520, 200), side="allies"), stand("b", (480, 300), side="allies")]
    assert fire.friendlies_in_danger(tables, firer, stand("t", (500, 700)), [firer, *friends]) == ["a"]


def test_bases_in_contact_with_the_firer_are_not_in_its_safety_zone() -> None:
    """F9 reading: the firer's neighbour in contact is beside it, not in its line of fire."""
    firer = stand("f", (500, 100), side="allies")
    neighbour = stand("n", (540, 100), side="allies")
    assert fire.friendlies_in_danger(TABLES, firer, stand("t", (500, 700)), [firer, neighbour]) == []


def test_no_firing_through_a_base() -> None:
    """F2: the base in the way is the one to shoot at."""
    firer = stand("f", (500, 100), side="allies")
    blocker, target = stand("near", (500, 300)), stand("t", (500, 500))
    refused = fire.refusal(table(), TABLES, firer, target, [firer, blocker, target])
    assert refused is not None and refused.section == "F2" and refused.legal == "fire at near"
    assert fire.refusal(table(), TABLES, firer, blocker, [firer, blocker, target]) is None


def test_fire_arcs_and_the_pivot() -> None:
    """F2: the forward 180 degrees (an HMG 45 either side); a pivot of 45 degrees is free."""
    rifle = stand("f", (500, 500), side="allies")
    behind, aside = stand("behind", (500, 200)), stand("aside", (700, 800))
    assert fire.refusal(table(), TABLES, rifle, behind, [rifle, behind]).section == "F2"  # type: ignore[union-attr]
    assert fire.refusal(table(), TABLES, rifle, aside, [rifle, aside]) is None
    hmg = stand("h", (500, 500), side="allies", weapon="hmg")
    assert fire.refusal(table(), TABLES, hmg, aside, [hmg, aside]) is None  # within 45 degrees of ahead
    wide = stand("wide", (800, 550))
    assert fire.refusal(table(), TABLES, hmg, wide, [hmg, wide]).section == "F2"  # type: ignore[union-attr]
    assert fire.pivoted(TABLES, rifle, 45) is not None and fire.pivoted(TABLES, rifle, 46) is None


def test_markers_by_range_kill_and_move() -> None:
    """F3 (Table 2; rifles 3 short and 2 long as the C11 example has them), F6: short and long
    columns, one less with a Kill marker, the long column within 15 cm on the move; beyond
    range, none."""
    target = stand("t", (500, 500)).base
    assert fire.markers_of(TABLES, stand("r", (500, 230)), target) == 3   # 240 mm apart: short
    assert fire.markers_of(TABLES, stand("r", (500, 100)), target) == 2   # 370 mm: long
    assert fire.markers_of(TABLES, stand("r", (500, 230), kills=1), target) == 2
    assert fire.markers_of(TABLES, stand("r", (500, 360)), target, on_move=True) == 2  # 110 mm
    assert fire.markers_of(TABLES, stand("r", (500, 300)), target, on_move=True) is None  # 170 mm
    assert fire.markers_of(TABLES, stand("r", (500, 1200 - 1200)), stand("t", (500, 1000)).base) is None  # 970 > 900


def test_firing_on_the_move_keeps_to_45_degrees_of_the_heading() -> None:
    """F6: ahead of the move, within 15 cm; not an HMG."""
    mover = stand("m", (500, 500), side="allies")
    ahead, wide = stand("ahead", (500, 620)), stand("wide", (640, 560))
    assert fire.refusal(table(), TABLES, mover, ahead, [mover, ahead], heading=0) is None
    refused = fire.refusal(table(), TABLES, mover, wide, [mover, wide], heading=0)
    assert refused is not None and refused.section == "F6"
    hmg = stand("h", (500, 500), side="allies", weapon="hmg")
    assert fire.refusal(table(), TABLES, hmg, ahead, [hmg, ahead], heading=0).section == "F6"  # type: ignore[union-attr]


def test_pooled_fire_chains_further_than_two_small_attacks() -> None:
    """F8, rulebook example: two bases in contact with 2 markers each place 4 in one go, so
    the third reaches X; two attacks of 2 would give 1 and 2 two each."""
    board = table()
    firers = [stand("f1", (485, 100), side="allies"), stand("f2", (515, 100), side="allies")]
    bases = [stand("1", (500, 400)), stand("2", (545, 410)), stand("x", (590, 420), unit="u2")]
    pooled = fire.distribute(board, TABLES, firers, fire.first_target(firers, bases), [*firers, *bases], 4)
    assert pooled.markers == {"1": 2, "2": 1, "x": 1}
    single = fire.distribute(board, TABLES, firers[:1], bases[0], [*firers, *bases], 2)
    assert single.markers == {"1": 1, "2": 1, "x": 0}
