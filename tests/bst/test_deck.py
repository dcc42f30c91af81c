"""The deck (D3, A1): drawn on demand from the cards left, with public rolls."""

from __future__ import annotations

import pytest

from pbem.core.chance import Dice
from pbem.rulesets.bst import deck
from tests.bst.tabletop import faces

GERMANS = ["AC", "KC", "QC", "JC", "TC", "9C"]
AMERICANS = ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"]


def test_example_a_fifteen_card_pack() -> None:
    """D3, rulebook example: 6 German and 8 US units and a Joker make 15 cards."""
    pack = deck.new_deck(GERMANS + AMERICANS)
    assert len(pack["cards"]) == 15 and deck.JOKER in pack["cards"]
    assert pack["left"] == sorted(pack["left"]) and pack["drawn"] == []


def test_a_draw_takes_the_card_at_the_roll_among_the_cards_left_in_order() -> None:
    """A1: the draw is `dice.draw` over the sorted cards left: raw number 0 is the first."""
    pack = deck.new_deck(["AC", "AD"])  # sorted: AC, AD, JOKER
    card = deck.draw_card(pack, faces(2))  # raw 1
    assert card == "AD" and pack["left"] == ["AC", "JOKER"] and pack["drawn"] == ["AD"]
    assert deck.draw_card(pack, faces(1)) == "AC" and pack["left"] == ["JOKER"]


def test_the_joker_ends_the_turn_and_every_card_goes_back() -> None:
    """A1: drawing the Joker reshuffles: all cards left again, the next turn begins."""
    pack = deck.new_deck(["AC", "AD"])
    deck.draw_card(pack, faces(1))
    assert deck.draw_card(pack, faces(2)) == deck.JOKER
    assert pack["left"] == ["AC", "AD", "JOKER"] and pack["drawn"] == [] and pack["turn"] == 2


def test_every_card_comes_once_before_the_joker_and_the_rolls_are_public() -> None:
    """A1: without a Joker each card is drawn once; each draw is one public roll (no
    `seen_by`), checkable by both sides at once."""
    pack = deck.new_deck(GERMANS)
    dice = Dice(b"\x07" * 32)
    seen = []
    while True:
        card = deck.draw_card(pack, dice)
        if card == deck.JOKER:
            break
        seen.append(card)
    assert len(seen) == len(set(seen)) and set(seen) <= set(GERMANS)
    assert all(roll.record().get("seen_by") is None for roll in dice.rolls)


def test_a_card_must_be_a_card() -> None:
    """D3: value then suit."""
    with pytest.raises(ValueError, match="D3"):
        deck.new_deck(["1C"])


def test_a_unit_with_no_bases_leaves_the_deck() -> None:
    pack = deck.new_deck(["AC", "AD"])
    deck.take_out(pack, "AC")
    assert pack["cards"] == ["AD", "JOKER"] and pack["left"] == ["AD", "JOKER"]
