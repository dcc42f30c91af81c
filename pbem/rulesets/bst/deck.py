"""The deck (D3, A1, A2, L1): one card a unit, a second card for a platoon leader, one Joker.

pbem never shuffles: each card is drawn when it is needed, uniformly from the cards left,
with a public roll (`dice.draw`), which gives every order the odds of a shuffled deck and
leaves no undrawn order anywhere to leak (docs/bst.md, "The deck"). The deck in a state is
plain data, all of it public:

    {"cards": [every card, sorted], "left": [cards not drawn this turn, sorted],
     "drawn": [this turn's cards, in the order drawn], "turn": 1}

A card is a value and a suit, `AC` (ace of clubs) to `2S`, `T` for ten (D3); the Joker is
`JOKER`. Drawing the Joker ends the turn (A1): every card, the Joker too, goes back.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from pbem.core.chance import Dice

JOKER = "JOKER"
CARD = re.compile(r"^(A|K|Q|J|T|[2-9])(S|H|D|C)$")


def is_card(name: str) -> bool:
    """D3: a playing card of the deck, named value then suit (`AC`, `TH`, `9D`)."""
    return bool(CARD.fullmatch(name))


def new_deck(cards: Iterable[str]) -> dict[str, Any]:
    """D3: the units' cards and one Joker, all in the deck."""
    every = sorted(set(cards) | {JOKER})
    for card in every:
        if card != JOKER and not is_card(card):
            raise ValueError(f"D3: {card!r} is not a card (value A K Q J T 9-2, then suit S H D C: 'AC', 'TH')")
    return {"cards": every, "left": list(every), "drawn": [], "turn": 1}


def draw_card(deck: dict[str, Any], dice: Dice) -> str:
    """A1: one card from those left, drawn with a public roll. Drawing the Joker ends the
    turn: the cards all go back and the turn count goes up (the caller unmarks the units)."""
    card = dice.draw(deck["left"], f"A1 draw a card, turn {deck['turn']}")
    if card == JOKER:
        deck["left"] = list(deck["cards"])
        deck["drawn"] = []
        deck["turn"] += 1
    else:
        deck["left"].remove(card)
        deck["drawn"].append(card)
    return card


def take_out(deck: dict[str, Any], card: str) -> None:
    """A unit with no bases left no longer has a card in the deck (reading of A1)."""
    if card in deck["cards"]:
        deck["cards"].remove(card)
    if card in deck["left"]:
        deck["left"].remove(card)
