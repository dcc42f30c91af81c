"""Fog of war as the curious opponent tries it (docs/bst.md, "Fog of war").

Each test changes one fact the other side may not know, resolves the same adjudication with
the same dice, and compares the whole bytes of the side's view (state, events, roll records
with their labels and count), never a field blanked first.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.chance import Dice, canonical_json
from pbem.core.ruleset import STANDING_KEY, Decisions, Resolution, Submission, start
from pbem.rulesets.bst import Bst
from pbem.testing import view_bytes

from .test_game import ROOT

BST = Bst()
SIDES = ["allies", "axis"]
MOVE = [{"unit": "g1", "act": "move", "toward": [600, 600], "distance": 150}]


def passing_by() -> tuple[Any, dict[str, Any]]:
    """The case board with allied f3 (unit g1) about to move 15 cm north toward axis b1 (unit
    t1), which faces it: the closest the move comes is 170 mm edge to edge, at short range in
    the open (O1)."""
    board = dict(yamlio.load_file(ROOT / "tests" / "bst" / "board" / "scenario.yaml").data)
    rules, state = start(BST, board)
    state["bases"] = {bid: entry for bid, entry in state["bases"].items() if bid in ("f3", "a1", "b1")}
    state["bases"]["f3"]["at"], state["bases"]["b1"]["at"] = [600, 350], [600, 700]
    state["bases"]["b1"]["facing"] = 180
    state.update(card="AD", awaiting="allies")
    state["deck"]["left"].remove("AD")
    return rules, state


def resolved(rules: Any, state: dict[str, Any], trigger: Any, answers: dict[int, Any] | None = None,
             orders: list[dict[str, Any]] | None = None) -> Resolution:
    state = copy.deepcopy(state)
    state[STANDING_KEY] = {"axis": {"opfire": {"t1": trigger}}}
    out: Resolution = rules.resolve(state, {"allies": Submission("allies", orders or MOVE), "axis": None},
                                    Dice(b"\x05" * 32), Decisions(answers))
    return out


def mover_sees(rules: Any, state: dict[str, Any], trigger: Any, answers: dict[int, Any] | None = None,
               dice: Dice | None = None) -> bytes:
    state = copy.deepcopy(state)
    state[STANDING_KEY] = {"axis": {"opfire": {"t1": trigger}}}
    dice = dice or Dice(b"\x05" * 32)
    out = rules.resolve(state, {"allies": Submission("allies", MOVE), "axis": None}, dice, Decisions(answers))
    return view_bytes(BST, out.state, "allies", SIDES, out.events, [r.record() for r in dice.rolls])


def test_a_trigger_that_does_not_fire_looks_like_hold_to_the_mover() -> None:
    """O1: the mover's view (events, rolls and their labels, state) is the same byte for byte
    whether the enemy it passes holds, waits for a range it never reaches, or was asked and
    answered hold; a trigger is known only once it fires."""
    rules, state = passing_by()
    assert rules.validate(rules.view(state, "allies"), "allies", MOVE) == []
    fired = resolved(rules, state, {"within": 200})
    assert any(e["type"] == "opportunity" for e in fired.events)  # the geometry matters: 170 mm is in reach
    quiet = [mover_sees(rules, state, "hold"), mover_sees(rules, state, {"within": 160}),
             mover_sees(rules, state, "ask", {0: "hold"})]
    assert quiet[0] == quiet[1] == quiet[2]
    assert mover_sees(rules, state, {"within": 200}) != quiet[0]


def test_the_close_combat_answer_hides_nothing_until_contact() -> None:
    """C2: a reacting unit's close combat answer is not read before contact: the mover's view
    is the same whatever it is when the move stops short of contact (opportunity fire off)."""
    rules, state = passing_by()
    views = []
    for answer in ("hunker", "fire", "ask"):
        changed = copy.deepcopy(state)
        changed[STANDING_KEY] = {"axis": {"opfire": {"t1": "hold"}, "close_combat": {"t1": answer}}}
        dice = Dice(b"\x05" * 32)
        out = rules.resolve(changed, {"allies": Submission("allies", MOVE), "axis": None}, dice, Decisions())
        views.append(view_bytes(BST, out.state, "allies", SIDES, out.events, [r.record() for r in dice.rolls]))
    assert views[0] == views[1] == views[2]


def test_a_decision_request_shows_nothing_hidden() -> None:
    """O1 `ask`: the request to the reacting side is the same byte for byte whatever the
    mover's side queued for later cards (hidden from it)."""
    from pbem.core.ruleset import DecisionNeeded

    rules, state = passing_by()
    state[STANDING_KEY] = {"axis": {"opfire": {"t1": "ask"}}}
    requests = []
    for queued in ([], [{"unit": "g2", "act": "hunker"}]):
        assert rules.validate(rules.view(state, "allies"), "allies", MOVE + queued) == []
        with pytest.raises(DecisionNeeded) as need:
            rules.resolve(copy.deepcopy(state), {"allies": Submission("allies", MOVE + queued), "axis": None},
                          Dice(b"\x05" * 32), Decisions())
        request = need.value.request
        requests.append(canonical_json({"side": request.side, "topic": request.topic,
                                        "question": request.question, "options": request.options}))
    assert requests[0] == requests[1]
    assert b"g2" not in requests[0]


def test_a_queued_order_that_no_longer_checks_looks_like_no_queue() -> None:
    """A1: allied f3 (g1) moves into the line from a1 (g2) to b1, so g2's queued fire would
    now go through f3 (F2) and is dropped when KD comes up; the axis view is then the same
    byte for byte as with no queue at all. A queued hunker, which still checks, is used."""
    rules, state = passing_by()
    state["bases"]["f3"]["at"], state["bases"]["a1"]["at"] = [700, 300], [600, 100]
    state[STANDING_KEY] = {"axis": {"opfire": {"t1": "hold"}}}
    state["deck"]["left"] = ["JOKER", "KD"]
    move = [{"unit": "g1", "act": "move", "to": [600, 400]}]
    fire = [{"unit": "g2", "act": "fire", "target": "t1"}]
    assert rules.validate(rules.view(state, "allies"), "allies", move + fire) == []

    def axis_sees(queue: list[dict[str, Any]]) -> tuple[bytes, list[str]]:
        dice = Dice(b"\x05" * 32)
        out = rules.resolve(copy.deepcopy(state), {"allies": Submission("allies", move + queue), "axis": None},
                            dice, Decisions())
        kinds = [e["type"] for e in out.events]
        return view_bytes(BST, out.state, "axis", SIDES, out.events, [r.record() for r in dice.rolls]), kinds

    plain, dropped = axis_sees([]), axis_sees(fire)
    assert plain[1][-1] == "drawn" and b"card: KD" in plain[0]  # these dice draw KD first
    assert "queued" not in dropped[1] and plain[0] == dropped[0]
    used = axis_sees([{"unit": "g2", "act": "hunker"}])
    assert "queued" in used[1] and used[0] != plain[0]


def test_a_mortar_fire_order_is_the_callers_notes() -> None:
    """W6: the leader notes the target, the kind and number of bombs; the other side sees
    that an order was given (the call event's unit and mortar), not what it says."""
    from pbem.testing import assert_no_leak

    board = dict(yamlio.load_file(ROOT / "tests" / "bst" / "board" / "mortar.yaml").data)
    rules, state = start(BST, board)
    state["mortars"] = {"m1a": {"aim": [700, 600], "rounds": ["smoke", "he"]}}
    called = [{"type": "mortar-called", "section": "W6", "unit": "p1", "mortar": "m1a", "aim": [700, 600],
               "rounds": ["smoke", "he"]}]

    def mutate(changed: dict[str, Any], events: list[dict[str, Any]]) -> None:
        changed["mortars"]["m1a"] = {"aim": "b3", "rounds": ["he", "he", "he"]}
        events[0].update(aim="b3", rounds=["he", "he", "he"])

    assert_no_leak(BST, state, "axis", SIDES, mutate, called)
    own = view_bytes(BST, state, "allies", SIDES, called)
    assert b"700" in own and b"smoke" in own  # the caller keeps its own notes
