"""Close combat numbers (C3, C4, C5, C11) and mortar deviation (W7)."""

from __future__ import annotations

import pytest

from pbem.geometry import plane
from pbem.rulesets.bst import closecombat, mortar
from pbem.rulesets.bst.tables import Tables
from tests.bst.tabletop import stand

TABLES = Tables.load()


def test_allocation_example_base_1_with_four_markers() -> None:
    """C4, rulebook example (Illustration 8): base 1's four markers go to B (straight in
    front), then C, then A, and the fourth back to B."""
    one = stand("1", (500, 500), 0, side="allies")
    a, b, c = stand("a", (460, 520)), stand("b", (500, 540)), stand("c", (535, 535))
    assert [e.id for e in closecombat.front_order(one, [a, b, c])] == ["b", "c", "a"]
    assert closecombat.allocate(one, [a, b, c], 4) == {"b": 2, "c": 1, "a": 1}


def test_close_combat_example_a_starts_with_the_base_in_front() -> None:
    """C11, rulebook example: A (rifles, 3 markers) starts with X in front, then Z, then X."""
    a = stand("a", (500, 500), 180)
    x, z = stand("x", (500, 460), side="allies"), stand("z", (540, 470), side="allies")
    assert closecombat.allocate(a, [x, z], closecombat.markers(TABLES, a, suppressed=False)) == {"x": 2, "z": 1}


def test_table_4() -> None:
    """C3: SMG 4, rifles 3, belt LMG 5, a crew 2, a suppressed base 1; a Kill takes one."""
    assert closecombat.markers(TABLES, stand("s", (0, 0), weapon="smg"), False) == 4
    assert closecombat.markers(TABLES, stand("r", (0, 0)), False) == 3
    assert closecombat.markers(TABLES, stand("l", (0, 0), weapon="lmg-belt"), False) == 5
    assert closecombat.markers(TABLES, stand("h", (0, 0), weapon="hmg"), False, crew=True) == 2
    assert closecombat.markers(TABLES, stand("l", (0, 0), weapon="lmg-belt"), True) == 1
    assert closecombat.markers(TABLES, stand("r", (0, 0), kills=1), False) == 2


@pytest.mark.parametrize("status, results, expected", [
    ("ok", ["pin"] * 8, ("suppressed", 2, True)),              # 8 pins: 4 suppresses, 2 kills
    ("ok", ["pin", "pin", "suppress"], ("suppressed", 1, False)),  # 2 suppresses: a kill
    ("ok", ["pin"] * 3, ("suppressed", 0, False)),             # the odd pin is lost
    ("ok", ["pin", "pin", "kill"], ("suppressed", 1, False)),  # the kill's suppress is not added
    ("ok", ["pin", "pin", "suppress", "kill"], ("suppressed", 2, True)),
    ("pinned", ["pin"], ("suppressed", 0, False)),             # a pin from before counts
    ("suppressed", ["suppress"], ("suppressed", 1, False)),
])
def test_stacking_examples(status: str, results: list[str], expected: tuple[str, int, bool]) -> None:
    """C5, rulebook examples: in close combat results stack."""
    assert closecombat.stack(TABLES, status, 0, results) == expected


def test_deviation_example_4_then_3_and_6() -> None:
    """W7, rulebook example: a 4 (short left), then 3 and 6: the bomb lands 9 cm back and to
    the left of the aim."""
    gun, aim = (500, 100), (500, 600)
    assert mortar.deviation_bearing(TABLES, gun, aim, 4) == 240
    landed = mortar.landing(TABLES, gun, aim, 4, 3 + 6)
    assert landed[0] < aim[0] and landed[1] < aim[1]
    assert plane.leg_length(aim, landed) in (89, 90)
    assert plane.turn_between(plane.bearing(aim, landed), 240) <= 1


def test_deviation_directions() -> None:
    """W7: 2 is straight on away from the mortar, 5 straight back toward it."""
    gun, aim = (500, 100), (500, 600)
    assert mortar.landing(TABLES, gun, aim, 2, 5) == (500, 650)
    assert mortar.landing(TABLES, gun, aim, 5, 5) == (500, 550)
