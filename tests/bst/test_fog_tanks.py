"""Fog of war with tanks in play (docs/bst.md, "Fog of war", "Tanks"): a tank's queued orders
(a hatch change among them) and its standing trigger stay unknown to the other side, byte for
byte, until they act. The hatch state itself is public: it is on the table."""

from __future__ import annotations

import copy
from typing import Any

from pbem.core import yamlio
from pbem.core.chance import Dice
from pbem.core.ruleset import STANDING_KEY, Decisions, Submission, start
from pbem.rulesets.bst import Bst
from pbem.testing import view_bytes

from .test_game import ROOT

BST = Bst()
SIDES = ["allies", "axis"]


def tank_board(keep: tuple[str, ...]) -> tuple[Any, dict[str, Any]]:
    board = dict(yamlio.load_file(ROOT / "tests" / "bst" / "board" / "tanks.yaml").data)
    rules, state = start(BST, board)
    state["bases"] = {bid: entry for bid, entry in state["bases"].items() if bid in keep}
    return rules, state


def seen_by(rules: Any, state: dict[str, Any], side: str, sender: str, orders: list[dict[str, Any]]) -> bytes:
    dice = Dice(b"\x07" * 32)
    out = rules.resolve(copy.deepcopy(state), {sender: Submission(sender, orders),
                                               ("axis" if sender == "allies" else "allies"): None},
                        dice, Decisions())
    return view_bytes(BST, out.state, side, SIDES, out.events, [r.record() for r in dice.rolls])


def test_a_dropped_queued_hatch_change_is_never_seen() -> None:
    """A1, V1: allies queue t3's hatches closed for its next card; the axis card comes first,
    the queue is dropped, and the axis view is the one with no queue at all."""
    rules, state = tank_board(("m1", "m3", "p1", "e1"))
    state.update(card="2S", awaiting="allies")
    state["deck"]["left"] = ["2C"]
    now = [{"unit": "t1", "act": "hunker"}]
    queue = [{"unit": "t3", "act": "hunker", "buttoned": True}]
    assert rules.validate(rules.view(state, "allies"), "allies", now + queue) == []
    assert seen_by(rules, state, "axis", "allies", now) == seen_by(rules, state, "axis", "allies", now + queue)
    used = copy.deepcopy(state)
    used["deck"]["left"] = ["2C", "4S"]  # t3's own card comes first: the queued order is used, and seen
    assert seen_by(rules, used, "axis", "allies", now) != seen_by(rules, used, "axis", "allies", now + queue)


def views_by_trigger(card: str, move: list[dict[str, Any]], placed: dict[str, dict[str, Any]]
                     ) -> dict[str, bytes]:
    """The allied mover's view after `move` on card `card` (its bases and p1 `placed`), for
    each standing trigger of the axis tank x1."""
    rules, state = tank_board(tuple(placed))
    for bid, where in placed.items():
        state["bases"][bid].update(where)
    state.update(card=card, awaiting="allies")
    state["deck"]["left"].remove(card)
    assert rules.validate(rules.view(state, "allies"), "allies", move) == []
    seen = {}
    for trigger in ("hold", {"within": 100}, "open-short", "any"):
        changed = copy.deepcopy(state)
        changed[STANDING_KEY] = {"axis": {"opfire": {"x1": trigger}}}
        seen[str(trigger)] = seen_by(rules, changed, "allies", "allies", move)
    return seen


def test_a_tank_trigger_that_does_not_fire_looks_like_hold() -> None:
    """O1 with a tank: allied rifles walk past an unbuttoned axis tank; the mover's view is the
    same whether the tank holds or waits for a range the move never reaches, and differs when
    the trigger fires (so the geometry is in reach)."""
    seen = views_by_trigger("AD", [{"unit": "g1", "act": "move", "toward": [650, 450], "distance": 150}],
                            {"f1": {"at": [500, 300], "facing": 0},
                             "p1": {"at": [900, 600], "facing": 270, "buttoned": False}})
    assert seen[str({"within": 100})] == seen["hold"]
    assert seen["any"] != seen["hold"]


def test_an_unfired_main_gun_trigger_looks_like_hold() -> None:
    """O1, V2 with a main gun: an allied tank drives head on toward an unbuttoned axis tank;
    the mover's view is the same whether the axis tank holds or waits for a range the move
    never reaches, and differs when its trigger fires (its gun is in range and arc)."""
    seen = views_by_trigger("4S", [{"unit": "t3", "act": "move", "toward": [900, 600], "distance": 200}],
                            {"m3": {"at": [400, 600], "facing": 90},
                             "p1": {"at": [1100, 600], "facing": 270, "buttoned": False}})
    assert seen[str({"within": 100})] == seen["hold"]
    assert seen["open-short"] == seen["hold"]  # 440 mm apart at the end: never within short range
    assert seen["any"] != seen["hold"]


def test_the_hatches_are_public() -> None:
    """V1: both sides see whether a tank is buttoned (the hatches are on the table)."""
    rules, state = tank_board(("m1", "p1"))
    for side in SIDES:
        view = rules.view(state, side)
        assert view["bases"]["p1"]["buttoned"] is True and view["bases"]["m1"]["buttoned"] is False
