"""The set-up's conceal markers (15.0, 18.0): a marker's number tells the other side nothing.

The sample scenario (public: both sides hold it) puts the German decoy GD1 in 0603. The German
moves the concealed squad G1 in beside it, so 0603 holds two German markers. Which of the two
numbers the decoy takes must follow neither from the set-up orders (their listing, or leaving
the decoy out) nor from anything else the American knows: it comes from a shuffle whose rolls
only the German sees. The American's side of the set-up (its view, the events and rolls it is
shown) is compared byte for byte; no field is blanked before comparing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core import ruleset, yamlio
from pbem.core.chance import Dice, HiddenStream, canonical_json
from pbem.core.ruleset import Decisions, Rules, State, Submission, start

ruleset.register("bob", "pbem.rulesets.bob:Bob")

SCENARIO = Path(__file__).resolve().parent.parent.parent / "samples" / "bob" / "scenario.yaml"
G1_JOINS_THE_DECOY = [{"place": "G1", "hex": "0603", "concealed": True}]
# The American shows A7 face up, so no American hex holds two markers: the American's own shuffles,
# which it may see, would otherwise change with the hidden link too.
AMERICAN = [{"place": "A7", "hex": "0508", "concealed": False}]
PUBLIC_SEED = b"\x01" * 32


def game() -> tuple[Rules, State]:
    return start(ruleset.get("bob"), yamlio.load_file(SCENARIO).data)


def dice(hidden: int) -> Dice:
    """The set-up's dice: one public seed for every trial; `hidden` picks the hidden chain's link (its secret)."""
    return Dice(PUBLIC_SEED, HiddenStream("bob-markers", 1, bytes([hidden]) * 32, ("american", "german")))


def set_up(german: list[dict[str, Any]], hidden: int = 0) -> tuple[State, bytes]:
    """The state after the set-up, and all the American is shown of it: view, events and rolls."""
    rules, initial = game()
    rolled = dice(hidden)
    out = rules.resolve(initial, {"german": Submission("german", german), "american": Submission("american", AMERICAN)},
                        rolled, Decisions())
    events = [shown for shown in (rules.visible(event, "american") for event in out.events) if shown is not None]
    rolls = [roll.record() for roll in rolled.rolls if roll.seen_by is None or "american" in roll.seen_by]
    return out.state, canonical_json({"view": rules.view(out.state, "american"), "events": events, "rolls": rolls})


def marker_number(state: State, uid: str) -> int:
    return int(str(state["units"][uid]["marker"]).rsplit("-", 1)[1])


def test_the_decoy_and_the_squad_share_the_hex_under_two_markers() -> None:
    """The control: 0603 does hold two German markers, the decoy's and G1's, numbered one after the other."""
    state, _ = set_up(G1_JOINS_THE_DECOY)
    assert state["units"]["G1"]["hex"] == state["units"]["GD1"]["hex"] == "0603"
    assert sorted((marker_number(state, "G1"), marker_number(state, "GD1"))) in \
        [[n, n + 1] for n in range(1, 10)]


def test_the_markers_do_not_follow_how_the_orders_list_the_units() -> None:
    """Leaving the decoy out, or listing it before or after G1, gives the same state with the same dice."""
    stays: dict[str, Any] = {"place": "GD1", "hex": "0603"}
    states = {canonical_json(set_up(orders)[0]) for orders in
              (G1_JOINS_THE_DECOY, [stays, *G1_JOINS_THE_DECOY], [*G1_JOINS_THE_DECOY, stays])}
    assert len(states) == 1


def test_which_marker_is_the_decoy_changes_and_the_american_cannot_tell() -> None:
    """Hidden links that give the decoy either marker leave the American's side of the set-up byte-identical."""
    trials = [set_up(G1_JOINS_THE_DECOY, hidden) for hidden in range(8)]
    decoy_markers = {state["units"]["GD1"]["marker"] for state, _ in trials}
    assert len(decoy_markers) == 2  # the decoy did change markers between trials
    assert len({american for _, american in trials}) == 1
    rules, _ = game()
    in_0603 = [piece for piece in rules.view(trials[0][0], "american")["enemy"] if piece["hex"] == "0603"]
    assert sorted(piece["marker"] for piece in in_0603) == sorted(state["units"][uid]["marker"]
                                                                for state, _ in trials[:1] for uid in ("G1", "GD1"))


def test_the_owner_is_shown_the_shuffle_the_american_is_not() -> None:
    rules, initial = game()
    rolled = dice(0)
    rules.resolve(initial, {"german": Submission("german", G1_JOINS_THE_DECOY), "american": None}, rolled,
                  Decisions())
    shuffles = [roll for roll in rolled.rolls if "0603" in roll.purpose]
    assert len(shuffles) == 1 and shuffles[0].seen_by == ("german",) and shuffles[0].key is not None


def test_over_many_hidden_links_the_decoy_takes_the_higher_number_about_half_the_time() -> None:
    trials = 64
    higher = sum(marker_number(state, "GD1") > marker_number(state, "G1")
                 for state, _ in (set_up(G1_JOINS_THE_DECOY, hidden) for hidden in range(trials)))
    assert trials // 4 < higher < 3 * trials // 4, f"the decoy took the higher number {higher} times in {trials}"
