"""An order of another phase's kind, checked as the player checks it (`pbem check`), is told where it goes (5.2, 5.3).

The German phases' schemas refuse the other phase's kinds before the rules see them: the core asks
`Toc.misplaced` for its words (`order_shapes`), so a bombardment in the German movement phase, a move in
the German combat phase and a move carried in `next_phase` for the combat say what the phase takes
and where the order goes, as the British phases (whose schemas take every kind) always did through
`phases.validate`. The core's generic words stay for every other case and every other ruleset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.core.cases import situation
from pbem.rulesets.toc import Toc
from pbem.testing import view_bytes
from tests.test_cli_lifecycle import run

REPO = Path(__file__).resolve().parent.parent.parent
SIDES = ["german", "british"]
FRONT = {"B-FA27": {"hex": "3108"}, "B-RF": {"hex": "3107"}, "G-IR8": {"hex": "3106"}, "G-FA18": {"hex": "3105"}}


def view_file(tmp_path: Path, phase: str, side: str, sequence: str | None = None,
              units: dict[str, Any] | None = None) -> Path:
    """`side`'s view of turn 3 in `phase` with the units of `FRONT`, written as the referee writes it."""
    rules, state = situation({"scenario": "samples/toc/scenario.yaml",
                              "state": {"phase": phase, "turn": 3, "sequence": sequence, "units": units or FRONT}},
                             REPO)
    path = tmp_path / f"{side}-view.yaml"
    path.write_bytes(view_bytes(Toc(), state, side, SIDES))
    return path


def checked(tmp_path: Path, view: Path, orders: list[str]) -> tuple[list[str], str]:
    """`pbem check VIEW ORDERS` on an orders file (made by `pbem orders`) whose list is `orders`, one a line:
    the problem lines printed, and the file's text."""
    made = run("orders", view)
    assert made.rc == 0, made.err
    header = [line for line in made.out.splitlines() if not line.startswith("#") and not line.startswith("orders")]
    path = tmp_path / "orders.yaml"
    text = "\n".join(header + ["orders:"] + [f"  - {order}" for order in orders]) + "\n"
    path.write_text(text, encoding="utf-8")
    result = run("check", view, path)
    assert result.rc in (0, 1) and "Traceback" not in result.err, result.err
    return [line for line in result.out.splitlines() if line.startswith(str(path))], text


def at(text: str, order: int, key: str) -> str:
    """`line:column` of `key` in the order-th order's line (where the core's words locate a misplaced order)."""
    lines = text.splitlines()
    number = lines.index("orders:") + 2 + order
    return f"{number}:{lines[number - 1].index(key + ':') + 1}"


# phase, sequence, side, orders, (index, key, path) of the refused one, message, where it goes
GERMAN = [
    ("german-movement", None, ["{move: [G-IR8], path: [\"3006\"]}", "{bombard: \"3107\", with: [G-FA18]}"],
     (1, "bombard", "orders[1].bombard"), "a bombard order is not allowed in german-movement, a movement phase",
     "move, top, next_phase (last), concede; a bombard order goes in the last order, {next_phase: [...]}, for "
     "german-combat or in the orders of german-combat"),
    ("german-movement", None, ["{melee: \"3107\", with: [G-IR8]}"],
     (0, "melee", "orders[0].melee"), "a melee order is not allowed in german-movement, a movement phase",
     "move, top, next_phase (last), concede; a melee order goes in the last order, {next_phase: [...]}, for "
     "german-combat or in the orders of german-combat"),
    ("german-movement", None, ["{next_phase: [{melee: \"3107\", with: [G-IR8]}, {move: [G-IR8], path: [\"3006\"]}]}"],
     (0, "move", "orders[0].next_phase[1].move"),
     "german-combat, the next phase, is a combat phase: a move order is not allowed in it",
     "bombard, melee; move orders come in german-movement, before the combat (5.2)"),
    ("german-movement", None, ["{next_phase: [{top: G-IR8}]}"],
     (0, "top", "orders[0].next_phase[0].top"),
     "german-combat, the next phase, is a combat phase: a top order is not allowed in it",
     "bombard, melee; top orders come in german-movement, before the combat (5.2)"),
    ("german-combat", None, ["{move: [G-IR8], path: [\"3006\"]}"],
     (0, "move", "orders[0].move"), "a move order is not allowed in german-combat, a combat phase",
     "bombard, melee, concede; move orders come in german-movement, before the combat (5.2)"),
    ("german-combat", None, ["{melee: \"3107\", with: [G-IR8]}", "{top: G-IR8}"],
     (1, "top", "orders[1].top"), "a top order is not allowed in german-combat, a combat phase",
     "bombard, melee, concede; top orders come in german-movement, before the combat (5.2)"),
]


@pytest.mark.parametrize("phase, sequence, orders, where, message, legal", GERMAN,
                         ids=[f"{case[0]}-{case[3][1]}" + ("-carried" if "next_phase[" in case[3][2] else "")
                              for case in GERMAN])
def test_a_german_order_the_schema_refuses_is_told_where_it_goes(
        tmp_path: Path, phase: str, sequence: str | None, orders: list[str], where: tuple[int, str, str],
        message: str, legal: str) -> None:
    found, text = checked(tmp_path, view_file(tmp_path, phase, "german", sequence), orders)
    index, key, path = where
    assert found == [f"{tmp_path / 'orders.yaml'}:{at(text, index, key)}: order {index + 1}: at {path}: {message} "
                     f"(rule 5.2); legal: {legal}"], found


# The British phases' schemas take every kind; the rules refuse them (`phases.validate`), with the same words.
BRITISH = [
    ("british-first", None, ["{bombard: \"3106\", with: [B-FA27]}"], "bombard",
     "a bombard order is not allowed in british-first, a movement phase (sequence move-fight)",
     "a bombard order goes in the last order, {next_phase: [...]}, for british-second, or name {sequence: fight-move} "
     "or {sequence: fight-fight} as the first order to make this a combat phase (5.3)"),
    ("british-first", None, ["{sequence: fight-move}", "{move: [B-RF], path: [\"3007\"]}"], "move",
     "a move order is not allowed in british-first, a combat phase (sequence fight-move)",
     "a move order goes in the orders of british-second, after this phase, or name {sequence: move-fight} or "
     "{sequence: move-move} as the first order to make this a movement phase (5.3)"),
    ("british-second", "move-fight", ["{top: B-RF}"], "top",
     "a top order is not allowed in british-second, a combat phase (sequence move-fight)",
     "the British sequence named for this player turn stands to its end (5.3): no movement phase is left"),
    ("british-second", "move-move", ["{melee: \"3106\", with: [B-RF]}"], "melee",
     "a melee order is not allowed in british-second, a movement phase (sequence move-move)",
     "the British sequence named for this player turn stands to its end (5.3): no combat phase is left"),
]


@pytest.mark.parametrize("phase, sequence, orders, tag, message, goes", BRITISH,
                         ids=[f"{case[0]}-{case[1] or 'unnamed'}-{case[3]}" for case in BRITISH])
def test_a_british_order_of_the_other_kind_is_told_where_it_goes(
        tmp_path: Path, phase: str, sequence: str | None, orders: list[str], tag: str, message: str,
        goes: str) -> None:
    units = {**FRONT, "G-IR8": {"hex": "3106"}}
    found, text = checked(tmp_path, view_file(tmp_path, phase, "british", sequence, units), orders)
    [line] = found
    index = len(orders) - 1
    where = at(text, index, tag).split(":")[0]  # the rules' problems are located at the order's value, on its line
    assert line.startswith(f"{tmp_path / 'orders.yaml'}:{where}:"), line
    assert f": order {index + 1}: at orders[{index}].{tag}: {message} (rule 5.2); legal: " in line, line
    assert line.endswith(goes), line


def test_the_carried_orders_of_the_german_movement_are_judged_once_the_kind_is_right(tmp_path: Path) -> None:
    """The control of the carried cases: the same file with a melee where the move was passes the schema."""
    view = view_file(tmp_path, "german-movement", "german")
    found, _ = checked(tmp_path, view, ["{next_phase: [{melee: \"3107\", with: [G-IR8]}]}"])
    assert not any("is not allowed" in line for line in found), found


def test_other_words_of_the_core_are_unchanged(tmp_path: Path) -> None:
    """A kind no phase of toc's sequence places (a sequence order in german-movement) and another ruleset (fbsm)
    keep the core's generic words, citing the sequence section."""
    found, text = checked(tmp_path, view_file(tmp_path, "german-movement", "german"), ["{sequence: fight-move}"])
    assert found == [f"{tmp_path / 'orders.yaml'}:{at(text, 0, 'sequence')}: order 1: at orders[0].sequence: a "
                     "sequence order is not allowed in german-movement (rule 5.2); legal: move, top, next_phase, "
                     "concede"], found
    us_setup = REPO / "samples" / "fbsm" / "game" / "views" / "0000" / "us.yaml"
    found, text = checked(tmp_path, us_setup, ["{move: US01, path: [\"2717\"]}"])
    assert found == [f"{tmp_path / 'orders.yaml'}:{at(text, 0, 'move')}: order 1: at orders[0].move: a move order is "
                     "not allowed in us-setup (rule 5.1); legal: setup, concede"], found


def test_the_answer_is_the_owners_alone_and_from_its_own_view(tmp_path: Path) -> None:
    """Fog (6.6, 5.3): the words depend on the phase and the British sequence only, which both views show (the
    sequence event is public); a side's orders for the other side's phase get the core's words, never the owner's."""
    from pbem.core import yamlio

    ruleset = Toc()
    german = dict(yamlio.load_bytes(view_file(tmp_path, "british-second", "german", "fight-fight").read_bytes(),
                                    "v.yaml").data)["state"]
    british = dict(yamlio.load_bytes(view_file(tmp_path, "british-second", "british", "fight-fight").read_bytes(),
                                     "v.yaml").data)["state"]
    assert german["sequence"] == british["sequence"] == "fight-fight"  # public: naming it tells the German nothing
    assert ruleset.misplaced(german, [], "british-second", "move") is None
    said = ruleset.misplaced(british, [], "british-second", "move")
    assert said is not None and said.section == "5.2" and "(sequence fight-fight)" in said.message, said
    assert ruleset.misplaced(None, [], "british-second", "move") is None  # no view: the sequence is unknown
