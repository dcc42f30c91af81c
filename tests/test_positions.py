"""The positions vocabulary (`pbem.rulesets.kit.positions`): what a player writes to move bases
on a table, the refusals it gets, and where a move really ends."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from pbem.geometry.plane import Base, dist2, path_length
from pbem.rulesets.kit.positions import Table, move_schema, plan_move

TABLE = Table(1800, 1200, "mm", "M1")


def squad(*centres: tuple[int, int], facing: int = 0) -> dict[str, Base]:
    return {f"b{i}": Base(c, facing, 30, 30) for i, c in enumerate(centres)}


def valid(clause: dict[str, Any]) -> bool:
    return jsonschema.Draft202012Validator(move_schema()).is_valid(clause)


@pytest.mark.parametrize("clause, ok", [
    ({"to": [10, 20]}, True),
    ({"path": [[10, 20], [30, 40]]}, True),
    ({"toward": [10, 20]}, True),
    ({"toward": [10, 20], "distance": 40}, True),
    ({"toward": [10, 20], "distance": "max"}, True),
    ({"face": 90}, True),
    ({"face": [5, 5]}, True),
    ({"to": [10, 20], "face": 45}, True),
    ({}, False),                                        # says nothing
    ({"to": [10, 20], "toward": [1, 1]}, False),        # two destinations
    ({"to": [10, 20], "path": [[1, 1]]}, False),
    ({"distance": 40, "to": [10, 20]}, False),          # distance only with toward
    ({"to": [10.5, 20]}, False),                        # whole units only
    ({"to": [10, 20, 30]}, False),
    ({"face": 360}, False),
    ({"toward": [1, 1], "distance": 0}, False),
    ({"to": [1, 1], "speed": 3}, False),                # unknown word
    ({"to": [10 ** 30, 1]}, False),                     # no number beyond any table (no huge arithmetic)
    ({"toward": [-10 ** 30, 1]}, False),
])
def test_schema_accepts_exactly_the_vocabulary(clause: dict[str, Any], ok: bool) -> None:
    assert valid(clause) is ok


def test_to_within_allowance_moves_the_formation_together() -> None:
    bases = squad((100, 100), (130, 100), (100, 130))
    movement, problems = plan_move({"to": [200, 160]}, bases, "b0", 150, TABLE)
    assert not problems and movement is not None
    assert movement.bases["b0"].centre == (200, 160)
    assert movement.bases["b1"].centre == (230, 160)   # offsets kept
    assert movement.bases["b2"].centre == (200, 190)
    assert movement.length == 117                        # ceil(sqrt(100^2 + 60^2)) = ceil(116.6)
    assert movement.stop is None and not movement.clamped


def test_to_beyond_allowance_is_refused_with_length_allowance_and_furthest_point() -> None:
    movement, problems = plan_move({"to": [300, 100]}, squad((100, 100)), "b0", 150, TABLE, order=2)
    assert movement is None
    [problem] = problems
    assert problem.path == ("to",) and problem.order == 2 and problem.section == "M1"
    assert "200 mm long" in problem.message and "150 mm" in problem.message
    assert problem.legal is not None and "[250, 100]" in problem.legal


def test_path_is_counted_leg_by_leg_and_refused_at_the_sum() -> None:
    bases = squad((100, 100))
    ok, problems = plan_move({"path": [[100, 180], [170, 180]]}, bases, "b0", 150, TABLE)
    assert not problems and ok is not None and ok.length == 150 and ok.end == (170, 180)
    refused, problems = plan_move({"path": [[100, 180], [171, 180]]}, bases, "b0", 150, TABLE)
    assert refused is None and "151 mm long" in problems[0].message
    assert problems[0].legal is not None and "[170, 180]" in problems[0].legal


def test_toward_max_is_cut_to_the_allowance() -> None:
    movement, problems = plan_move({"toward": [1000, 400]}, squad((100, 100)), "b0", 150, TABLE)
    assert not problems and movement is not None and movement.clamped
    end = movement.end
    assert dist2((100, 100), end) <= 150 * 150          # never beyond the allowance
    assert dist2((100, 100), end) >= 148 * 148          # and not far short of it
    assert 3 * (end[0] - 100) == 9 * (end[1] - 100) or abs(3 * (end[1] - 100) - (end[0] - 100)) <= 3  # on the ray


def test_toward_with_a_distance_beyond_the_allowance_is_cut_not_refused() -> None:
    movement, problems = plan_move({"toward": [100, 900], "distance": 400}, squad((100, 100)), "b0", 150, TABLE)
    assert not problems and movement is not None
    assert movement.end == (100, 250) and movement.clamped


def test_toward_stops_at_the_table_edge() -> None:
    movement, problems = plan_move({"toward": [100, -500]}, squad((100, 100)), "b0", 150, TABLE)
    assert not problems and movement is not None
    assert movement.end == (100, 15)                     # the 30 mm base's back edge on the edge


def test_a_route_off_the_table_is_refused_with_the_last_point_on_it() -> None:
    movement, problems = plan_move({"path": [[100, 200], [5, 200]]}, squad((100, 100)), "b0", 500, TABLE)
    assert movement is None
    assert problems[0].path == ("path",) and "[5, 200]" in problems[0].message
    assert problems[0].legal is not None and "[15, 200]" in problems[0].legal


def test_toward_the_spot_already_held_is_refused() -> None:
    movement, problems = plan_move({"toward": [100, 100]}, squad((100, 100)), "b0", 150, TABLE)
    assert movement is None and problems[0].path == ("toward",)


def test_contact_with_an_obstacle_stops_the_move_and_names_it() -> None:
    enemy = Base((260, 100), 180, 30, 30)
    movement, problems = plan_move({"to": [250, 100]}, squad((100, 100), (130, 100)), "b0", 150, TABLE,
                                   obstacles=[("e1", enemy.shape)], reach=30)
    assert not problems and movement is not None
    assert movement.stop is not None and movement.stop.key == "e1"
    # b1's front at 145 + 70 = 215, the enemy's edge at 245: exactly 30 apart, in contact
    assert movement.bases["b1"].centre == (200, 100) and movement.end == (170, 100)
    assert movement.length == 70


def test_an_obstacle_already_in_contact_does_not_hold_the_base_back() -> None:
    enemy = Base((150, 100), 0, 30, 30)                  # 20 mm gap: already in contact
    movement, _ = plan_move({"to": [100, 0 + 20]}, squad((100, 100)), "b0", 150, TABLE,
                            obstacles=[("e1", enemy.shape)], reach=30)
    assert movement is not None and movement.stop is None and movement.end == (100, 20)


def test_a_penalty_shortens_the_allowance_and_the_refusal_says_so() -> None:
    def cover(path: Any) -> int:
        return 50 if any(p[1] >= 200 for p in path) else 0
    movement, problems = plan_move({"to": [100, 220]}, squad((100, 100)), "b0", 150, TABLE, penalty=cover)
    assert movement is None
    assert "costs 50 mm more for terrain" in problems[0].message
    assert "[100, 200]" in (problems[0].legal or "")
    ok, _ = plan_move({"toward": [100, 900]}, squad((100, 100)), "b0", 150, TABLE, penalty=cover)
    assert ok is not None and ok.end == (100, 200)       # 100 mm plus 50 for the cover it reaches
    def far_cover(path: Any) -> int:
        return 50 if any(p[1] >= 240 for p in path) else 0
    short, _ = plan_move({"toward": [100, 900]}, squad((100, 100)), "b0", 150, TABLE, penalty=far_cover)
    assert short is not None and short.end == (100, 239)  # further than paying for the cover would reach


def test_face_alone_turns_in_place_and_face_a_point_turns_each_base_toward_it() -> None:
    bases = squad((100, 100), (200, 100))
    turned, _ = plan_move({"face": 45}, bases, "b0", 150, TABLE)
    assert turned is not None and turned.length == 0
    assert {b.centre for b in turned.bases.values()} == {(100, 100), (200, 100)}
    assert {b.facing for b in turned.bases.values()} == {45}
    aimed, _ = plan_move({"face": [150, 200]}, bases, "b0", 150, TABLE)
    assert aimed is not None
    assert aimed.bases["b0"].facing == 27 and aimed.bases["b1"].facing == 333   # atan(50/100) = 26.57


def test_the_length_reported_is_the_length_travelled() -> None:
    movement, _ = plan_move({"path": [[100, 130], [140, 160]]}, squad((100, 100)), "b0", 150, TABLE)
    assert movement is not None and movement.length == path_length(list(movement.path)) == 80


@pytest.mark.parametrize("clause", [
    {"to": [300, 100]},                      # too far
    {"to": [100, -200]},                     # too far and off the table: the suggestion is on it
    {"path": [[100, 180], [171, 180]]},      # too far along two legs
    {"path": [[100, 200], [5, 200]]},        # off the table
    {"to": [100, 230]},                      # into the cover the penalty charges for
])
def test_the_suggested_furthest_point_is_accepted_when_sent(clause: dict[str, Any]) -> None:
    import re

    def cover(path: Any) -> int:
        return 50 if any(p[1] >= 200 for p in path) else 0
    bases = squad((100, 100))
    refused, problems = plan_move(clause, bases, "b0", 150, TABLE, penalty=cover)
    assert refused is None and problems
    found = re.search(r"furthest (?:legal )?point (?:on it )?is \[(-?\d+), (-?\d+)\]", problems[0].legal or "")
    assert found, problems[0].legal
    point = [int(found.group(1)), int(found.group(2))]
    accepted, again = plan_move({"to": point}, bases, "b0", 150, TABLE, penalty=cover)
    assert accepted is not None and not again, (point, again)


def test_turning_a_base_partly_off_the_table_is_refused() -> None:
    movement, problems = plan_move({"face": 45}, squad((15, 100)), "b0", 150, TABLE)
    assert movement is None and problems[0].path == ("face",) and "off the table" in problems[0].message
    turned, _ = plan_move({"face": 90}, squad((15, 100)), "b0", 150, TABLE)   # a square turned square fits
    assert turned is not None


def test_a_stop_at_a_waypoint_does_not_repeat_it() -> None:
    enemy = Base((100, 230), 180, 30, 30)
    movement, _ = plan_move({"path": [[100, 170], [100, 250]]}, squad((100, 100)), "b0", 150, TABLE,
                            obstacles=[("e1", enemy.shape)], reach=30)
    assert movement is not None and movement.stop is not None
    assert movement.path == ((100, 100), (100, 170))
