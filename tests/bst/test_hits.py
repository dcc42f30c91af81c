"""Hit resolution (R1, H1, M1, F1) and recovery (R2, R3), with the text's examples."""

from __future__ import annotations

import pytest

from pbem.rulesets.bst import hits
from pbem.rulesets.bst.tables import Tables
from tests.bst.tabletop import faces

TABLES = Tables.load()


def test_to_hit_numbers_by_declared_action() -> None:
    """M1 4+, F1 5+, R2 5+, H1 6, C5 3+."""
    assert [TABLES.to_hit(a) for a in ("move", "fire", "recover", "hunker", "close_combat")] == [4, 5, 5, 6, 3]


def test_example_1_a_mover_is_suppressed_and_the_pin_is_ignored() -> None:
    """R1, rulebook example 1: 3 markers, moving; 2, 4, 6: two hits; rethrown 3 and 5: a pin
    and a suppress. Suppressed: it neither moves nor fires."""
    out = hits.resolve(TABLES, faces(2, 4, 6, 3, 5), "ok", 0, 3, TABLES.to_hit("move"), "b1")
    assert out.rolls == (2, 4, 6) and out.rethrows == (3, 5) and out.results == ("pin", "suppress")
    assert out.status == "suppressed" and out.hits == 2
    assert not hits.may_act("move", out) and not hits.may_act("fire", out)


def test_example_2_a_pin_stops_a_move_and_its_fire() -> None:
    """R1, rulebook example 2: only a pin still costs the move, and the fire on the move."""
    out = hits.resolve(TABLES, faces(5, 2), "ok", 0, 1, TABLES.to_hit("move"), "b1")
    assert out.status == "pinned"
    assert not hits.may_act("move", out) and not hits.may_act("move-fire", out)


def test_example_3_hunkering_down_needs_sixes() -> None:
    """R1, rulebook example 3 (H1): 4 markers, 1, 1, 2, 3 at 6: no hits, and the base keeps
    its hunker down."""
    out = hits.resolve(TABLES, faces(1, 1, 2, 3), "ok", 0, 4, TABLES.to_hit("hunker"), "b1")
    assert out.hits == 0 and out.rethrows == () and out.status == "ok"


def test_example_4_a_four_misses_a_firer() -> None:
    """R1, rulebook example 4: 1 marker, firing, a 4: no hit at 5+; it fires."""
    out = hits.resolve(TABLES, faces(4), "ok", 0, 1, TABLES.to_hit("fire"), "b1")
    assert out.hits == 0 and hits.may_act("fire", out)


def test_a_pinned_firer_still_fires() -> None:
    """R1 Table 3: a pinned base may fire but not move."""
    out = hits.resolve(TABLES, faces(6, 3), "ok", 0, 1, TABLES.to_hit("fire"), "b1")
    assert out.status == "pinned" and hits.may_act("fire", out)


@pytest.mark.parametrize("face, result", [(1, "miss"), (2, "pin"), (3, "pin"), (4, "suppress"), (5, "suppress"),
                                          (6, "kill")])
def test_table_3(face: int, result: str) -> None:
    """R1, Table 3: a hit rethrown as 1 is a miss after all."""
    out = hits.resolve(TABLES, faces(6, face), "ok", 0, 1, 4, "b1")
    assert out.results == (result,)
    assert out.hits == (0 if result == "miss" else 1)


def test_results_do_not_stack() -> None:
    """R1: two pins are a pin, two suppresses a suppress; a pin never lightens a suppress."""
    assert hits.apply(TABLES, "ok", 0, ["pin", "pin"]) == ("pinned", 0, False)
    assert hits.apply(TABLES, "ok", 0, ["suppress", "suppress"]) == ("suppressed", 0, False)
    assert hits.apply(TABLES, "suppressed", 0, ["pin"]) == ("suppressed", 0, False)
    assert hits.apply(TABLES, "pinned", 0, ["suppress"]) == ("suppressed", 0, False)


def test_a_kill_suppresses_and_a_second_removes() -> None:
    """R1: the first Kill marks and suppresses; a second Kill, later or on the same throw,
    removes the base."""
    assert hits.apply(TABLES, "ok", 0, ["kill"]) == ("suppressed", 1, False)
    assert hits.apply(TABLES, "ok", 1, ["kill"])[2] is True
    assert hits.apply(TABLES, "ok", 0, ["kill", "kill"])[2] is True


def test_recovery_examples_without_a_leader() -> None:
    """R2, rulebook examples: pinned, a pin and a suppress: suppressed, no recovery; suppressed
    with a pin: stays suppressed, no recovery; suppressed, all miss: it recovers (R3: 4
    markers replace the suppress)."""
    pinned = hits.recover(TABLES, faces(5, 6, 2, 4), "pinned", 0, 2, False, "b1")
    assert (pinned.recovered, pinned.status) == (False, "suppressed")
    stays = hits.recover(TABLES, faces(5, 3), "suppressed", 0, 1, False, "b1")
    assert (stays.recovered, stays.status) == (False, "suppressed")
    clean = hits.recover(TABLES, faces(1, 4), "suppressed", 0, 2, False, "b1")
    assert (clean.recovered, clean.status, clean.markers) == (True, "ok", 4)


def test_recovery_examples_with_a_leader() -> None:
    """R2, rulebook examples under platoon leader command: suppressed, the best hit a pin:
    pinned; pinned, a pin and a suppress: suppressed."""
    eased = hits.recover(TABLES, faces(6, 2), "suppressed", 0, 1, True, "b1")
    assert (eased.recovered, eased.status) == (False, "pinned")
    worse = hits.recover(TABLES, faces(5, 6, 3, 4), "pinned", 0, 2, True, "b1")
    assert (worse.recovered, worse.status) == (False, "suppressed")


def test_recovered_markers() -> None:
    """R3: a pin becomes 2 markers, a suppress 4; one less under platoon leader command."""
    assert hits.recover(TABLES, faces(), "pinned", 0, 0, False, "b").markers == 2
    assert hits.recover(TABLES, faces(), "pinned", 0, 0, True, "b").markers == 1
    assert hits.recover(TABLES, faces(), "suppressed", 0, 0, True, "b").markers == 3


def test_no_recovery_without_a_hit_marker() -> None:
    """R2: a base with no pin or suppress may not declare recover."""
    with pytest.raises(ValueError, match="R2"):
        hits.recover(TABLES, faces(), "ok", 0, 1, False, "b")
