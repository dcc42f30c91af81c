"""Tank aspects (V2), with the text's example of three Shermans."""

from __future__ import annotations

from pbem.geometry import plane
from pbem.rulesets.bst.vehicles import aspect

TANK = plane.Base((500, 500), 0, 30, 60)  # facing north; its front edge runs along y = 530


def sherman(x: int, y: int, facing: int = 0) -> plane.Shape:
    return plane.Base((x, y), facing, 30, 60).shape


def test_example_a_front_b_flank_c_just_side() -> None:
    """V2, rulebook example (Illustration 13): A ahead is in the front arc; B ahead but wide
    of 45 degrees in the flank; C, wholly behind the line of the front edge, in the side."""
    assert aspect(TANK, sherman(520, 900)) == "front"
    assert aspect(TANK, sherman(900, 750, 270)) == "flank"
    assert aspect(TANK, sherman(800, 490, 270)) == "side"


def test_the_observer_must_be_wholly_out_of_an_arc_to_claim_the_next() -> None:
    """V2: a base partly in front of the front edge's line is still in the flank, and one
    partly in the 45-degree cone is still in the front."""
    assert aspect(TANK, sherman(800, 520, 270)) == "flank"
    assert aspect(TANK, plane.Base((820, 840), 0, 30, 30).shape) == "front"  # a corner on the 45-degree ray
