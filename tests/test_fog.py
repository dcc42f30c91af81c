"""Fog of war as a security property, proven on the duel fixture with `pbem.testing`."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core import ruleset as registry
from pbem.core.ruleset import STANDING_KEY
from pbem.testing import assert_no_leak, assert_visible, view_bytes

SIDES = ["red", "blue"]


@pytest.fixture()
def duel() -> registry.Ruleset:
    return registry.get("duel")


def deployed_state() -> dict[str, Any]:
    return {
        "phase": "fire", "turn": 2, "last_turn": 6, "cells": 5,
        "hq": {"red": {"cell": 2, "strength": 2}, "blue": {"cell": 4, "strength": 2}},
        "intel": {"red": None, "blue": None},
        STANDING_KEY: {"red": {"when_hit": "stand"}, "blue": {"when_hit": "ask"}},
    }


def scouting(side: str, roll: int, found: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    event = {"type": "scouted", "side": side, "roll": roll, "found": found, "section": "S1"}
    roll_record = {"i": 0, "n": 6, "value": roll - 1, "for": f"S1 scouting by {side}", "seen_by": [side]}
    return event, roll_record


def test_enemy_hq_position_is_hidden(duel: registry.Ruleset) -> None:
    def move_blue(state: dict[str, Any], events: list[Any]) -> None:
        state["hq"]["blue"]["cell"] = 5

    assert_no_leak(duel, deployed_state(), "red", SIDES, move_blue)
    assert_visible(duel, deployed_state(), "blue", SIDES, move_blue)


def test_enemy_standing_answers_are_hidden(duel: registry.Ruleset) -> None:
    def change(state: dict[str, Any], events: list[Any]) -> None:
        state[STANDING_KEY]["blue"]["when_hit"] = "shift-left"

    assert_no_leak(duel, deployed_state(), "red", SIDES, change)
    assert_visible(duel, deployed_state(), "blue", SIDES, change)


def test_enemy_scouting_roll_and_result_are_hidden(duel: registry.Ruleset) -> None:
    event, roll = scouting("blue", 6, 2)

    def other_result(state: dict[str, Any], events: list[Any]) -> None:
        events[0].update(roll=3, found=None)

    state = deployed_state()
    assert_no_leak(duel, state, "red", SIDES, other_result, events=[event], rolls=[roll])
    shown = view_bytes(duel, state, "red", SIDES, [event], [roll]).decode()
    assert "scouting by blue" not in shown
    assert "scouting by blue" in view_bytes(duel, state, "blue", SIDES, [event], [roll]).decode()


def test_shift_destination_is_hidden_from_the_firer(duel: registry.Ruleset) -> None:
    shifted = {"type": "shifted", "side": "blue", "section": "F3", "to": 3}

    def elsewhere(state: dict[str, Any], events: list[Any]) -> None:
        events[0]["to"] = 5
        state["hq"]["blue"]["cell"] = 5

    assert_no_leak(duel, deployed_state(), "red", SIDES, elsewhere, events=[shifted])
    assert_visible(duel, deployed_state(), "blue", SIDES, elsewhere, events=[shifted])


def test_a_mutation_that_changes_nothing_proves_nothing(duel: registry.Ruleset) -> None:
    with pytest.raises(AssertionError, match="changed nothing"):
        assert_no_leak(duel, deployed_state(), "red", SIDES, lambda state, events: None)


def test_a_real_leak_is_reported(duel: registry.Ruleset) -> None:
    def move_red(state: dict[str, Any], events: list[Any]) -> None:
        state["hq"]["red"]["cell"] = 1

    with pytest.raises(AssertionError, match="view changed"):
        assert_no_leak(duel, deployed_state(), "red", SIDES, move_red)
