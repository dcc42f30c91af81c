"""The newcomer's fourth run, toc's part: one list of every problem, examples that are legal, and a `legal:` each.

1. An order of the other phase's kind (5.2), a sequence named late (5.3) or a `next_phase` not last is
   told, and the other orders are still judged (docs/cli.md: every problem in one list).
2. Every example line of `pbem orders`' template passes `check` as written (its `...` left out) on every
   view of the recorded game (samples/toc/game) and on the phase after each, where the side owes orders.
3. The stacking (6.3), range (10.2) and sequence (5.3) problems say what is legal, from the side's view.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.core.cases import case_orders, situation
from pbem.core.errors import Problem
from pbem.core.players import ViewFile, check_orders, orders_template, read_view
from pbem.core.ruleset import Rules, State

REPO = Path(__file__).resolve().parent.parent.parent
GAME = REPO / "samples" / "toc" / "game"
BRITISH_FIRST = GAME / "turns" / "0001" / "british.yaml"  # turn 1, british-first, no sequence named yet


def written(view: ViewFile, orders: list[Any], folder: Path) -> Path:
    """An orders file made from the view's template (as `pbem orders` writes it) whose list is `orders`."""
    text = orders_template(view)
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#")) + "\n"
    assert body.endswith("orders: []\n"), body
    body = body[: -len("orders: []\n")] + "orders:\n" + "".join(f"- {json.dumps(order)}\n" for order in orders)
    path = folder / "orders.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def said(problems: list[Problem]) -> list[tuple[int | None, str]]:
    return [(problem.order, problem.message) for problem in problems]


# --- 1. one list of every problem ------------------------------------------------------------------------


def test_a_misplaced_order_does_not_hide_the_problem_of_an_order_before_it(tmp_path: Path) -> None:
    view = read_view(BRITISH_FIRST)
    problems = check_orders(view, written(view, [{"move": ["B-DC"], "path": ["1508"]},
                                                 {"bombard": "3001", "with": ["B-RHA3"]}], tmp_path))
    messages = [problem.message for problem in problems]
    assert any("B-DC is not a british unit" in m for m in messages), messages
    assert any("a bombard order is not allowed in british-first" in m for m in messages), messages
    assert len(problems) == 2, messages


def test_the_orders_after_a_misplaced_one_are_judged_at_their_own_place() -> None:
    """A move named in a fight-move first phase, then a bombardment by a unit that is not the side's: both
    told, each at its own order (the walk without the refused orders keeps the file's numbering)."""
    view = read_view(BRITISH_FIRST)
    problems = view.rules.validate(view.doc["state"], "british", [
        {"sequence": "fight-move"}, {"move": ["B-DC1"], "path": ["1708"]}, {"bombard": "2908", "with": ["B-XX"]}])
    found = {(problem.order, problem.section) for problem in problems}
    assert found == {(1, "5.2"), (2, "10.1")}, said(problems)


def test_a_sequence_named_late_does_not_hide_a_move_problem() -> None:
    view = read_view(BRITISH_FIRST)
    problems = view.rules.validate(view.doc["state"], "british", [
        {"move": ["B-DC1"], "path": ["1608"]}, {"sequence": "fight-move"}])
    assert [(p.order, p.section) for p in problems] == [(0, "9.13"), (1, "5.3")], said(problems)
    assert problems[1].legal is not None and "{sequence: fight-move} as the first order" in problems[1].legal


def test_carried_orders_go_on_after_a_misplaced_one() -> None:
    """british-second after move-fight is a combat phase: a carried move is refused (5.2), and the carried
    bombardment by an unknown unit is still told."""
    view = read_view(BRITISH_FIRST)
    problems = view.rules.validate(view.doc["state"], "british", [
        {"next_phase": [{"move": ["B-DC1"], "path": ["1708"]}, {"bombard": "2908", "with": ["B-XX"]}]}])
    assert [(p.path[:2], p.section) for p in problems] == [(("next_phase", 0), "5.2"),
                                                          (("next_phase", 1), "10.1")], said(problems)


# --- 2. the template's examples are legal ----------------------------------------------------------------


EXAMPLE = re.compile(r"^#(\s+)(\{.*?\})   ")


def examples(view: ViewFile) -> list[list[Any]]:
    """Each example line of the view's template as orders, written as the line shows them with `...` left out;
    those under "with fight-move or fight-fight" after the sequence they need."""
    found: list[list[Any]] = []
    needs: list[Any] = []
    for line in orders_template(view).splitlines():
        if line.startswith("#   with "):
            needs = [{"sequence": "fight-move"}] if "fight-move" in line.split(",")[0] else []
            continue
        match = EXAMPLE.match(line)
        if match is None:
            continue
        text = re.sub(r", \.\.\.\]", "]", match[2]).replace("[...]", "[]")
        order = yamlio.load_plain(text.encode("utf-8"))
        found.append((needs if len(match[1]) > 3 else []) + [order])
    return found


def views() -> list[tuple[str, Path, dict[str, Any] | None]]:
    """Each recorded view whose side owes orders, and the same positions in the phase after it (the
    combat phase a German movement is followed by; the British second phase after each sequence)."""
    found: list[tuple[str, Path, dict[str, Any] | None]] = []
    for path in sorted(GAME.glob("views/0000/*.yaml")) + sorted(GAME.glob("turns/*/*.yaml")):
        if path.name == "turn.yaml":
            continue
        doc = read_view(path).doc
        if "result" in doc["next"] or doc["side"] not in doc["next"]["awaiting"]:
            continue
        name = f"{path.parent.name}/{path.name}"
        found.append((name, path, None))
        if doc["next"]["phase"] == "german-movement":
            found.append((f"{name} then german-combat", path, {"phase": "german-combat"}))
        if doc["next"]["phase"] == "british-first":
            for chosen in ("move-fight", "fight-move"):
                found.append((f"{name} then british-second ({chosen})", path,
                              {"phase": "british-second", "sequence": chosen}))
    return found


def view_in(path: Path, changes: dict[str, Any] | None, tmp_path: Path) -> ViewFile:
    """The recorded view, or the same positions in a later phase of that player turn (a view written here)."""
    if changes is None:
        return read_view(path)
    doc = yamlio.load_plain(path.read_bytes())
    doc["state"].update(changes)
    doc["next"]["phase"] = changes["phase"]
    made = tmp_path / f"{changes['phase']}-{path.name}"
    made.write_text(yamlio.dump(doc), encoding="utf-8")
    return read_view(made)


@pytest.mark.parametrize("name,path,changes", views(), ids=[name for name, _, _ in views()])
def test_every_example_of_the_template_passes_check(name: str, path: Path, changes: dict[str, Any] | None,
                                                    tmp_path: Path) -> None:
    view = view_in(path, changes, tmp_path)
    orders_of = examples(view)
    assert orders_of, orders_template(view)
    for orders in orders_of:
        problems = check_orders(view, written(view, orders, tmp_path))
        assert not problems, (name, orders, [str(problem) for problem in problems])


def test_the_examples_walked_include_every_kind_of_order() -> None:
    """(So the walk above is not empty of the kinds that could go wrong.)"""
    kinds: set[str] = set()
    entering = False
    for name, path, changes in views():
        doc = yamlio.load_plain(path.read_bytes())
        if changes is not None:
            continue
        for orders in examples(read_view(path)):
            kinds.update(key for key in orders[-1] if key in ("sequence", "move", "top", "bombard", "melee",
                                                              "next_phase", "concede"))
            order = orders[-1]
            entering = entering or ("move" in order and doc["state"]["units"][order["move"][0]]["hex"] is None)
    assert kinds == {"sequence", "move", "top", "bombard", "melee", "next_phase", "concede"}, kinds
    assert entering


def test_the_british_first_step_is_not_across_the_canal() -> None:
    """Turn 1's B-DC1 at 1609: 1608 lies across the unbridged canal (9.13), the first neighbour in hex order."""
    orders_of = examples(read_view(BRITISH_FIRST))
    moves = [orders[-1] for orders in orders_of if "move" in orders[-1] and orders[-1]["move"] == ["B-DC1"]]
    assert moves and moves[0]["path"] != ["1608"], moves
    assert "march" not in moves[0], moves  # 9.20: the British never march


# --- 3. what is legal ----------------------------------------------------------------------------------------


def start() -> tuple[Rules, State]:
    return situation({"scenario": "samples/toc/scenario.yaml"}, REPO)


def test_stacking_says_how_many_points_may_still_enter() -> None:
    rules, state = start()
    problems = rules.validate(rules.view(state, "german"), "german", [
        {"move": ["G-IR12"], "path": ["3100"]}, {"move": ["G-IR8"], "path": ["3100"]}])
    assert [(p.order, p.section) for p in problems] == [(1, "6.3")], said(problems)
    # G-IR12, a regiment, holds 4 of the 5 points (6.3): one more point may enter, by the entry hex only
    assert problems[0].legal == "3100 holds 4 of your stacking points already: units of at most 1 stacking point " \
                                "may enter it", problems[0].legal


def test_stacking_on_the_map_offers_other_hexes() -> None:
    units = {uid: {"hex": "1404"} for uid in ("B-N", "B-S", "B-M", "B-DR", "B-B")} | {"B-RF": {"hex": "1403"}}
    rules, state = situation({"scenario": "samples/toc/scenario.yaml",
                              "state": {"phase": "british-first", "turn": 3, "units": units}}, REPO)
    problems = rules.validate(rules.view(state, "british"), "british", [{"move": ["B-RF"], "path": ["1404"]}])
    assert [p.section for p in problems] == ["6.3"], said(problems)
    assert problems[0].legal == "1404 holds 5 of your stacking points already: no unit may enter it; or a path " \
                                "through other hexes", problems[0].legal


def test_range_names_the_artillery_in_range_and_the_hexes_in_reach_of_the_view() -> None:
    rules, state = situation({"scenario": "samples/toc/scenario.yaml", "state": {
        "phase": "german-combat", "turn": 3, "units": {
            "G-FA18": {"hex": "3105"}, "G-FA54": {"hex": "3104"}, "G-IR8": {"hex": "3106"},
            "B-RF": {"hex": "3107"}, "B-FA27": {"hex": "3108"}, "B-SF": {"hex": "3111"}}}}, REPO)
    view = rules.view(state, "german")
    problems = rules.validate(view, "german", [{"bombard": "3111", "with": ["G-FA18"]}])
    assert [p.section for p in problems] == ["10.2"], said(problems)
    reach = sorted(hex_id for hex_id in view["enemy"] if hex_id in ("3107", "3108"))
    assert problems[0].legal == (f"artillery with 3111 in range: none of yours; enemy hexes within 3 of G-FA18 at "
                                 f"3105: {', '.join(reach)}"), problems[0].legal


def test_range_legal_never_names_what_the_view_hides() -> None:
    """Fog: the hexes named are the enemy hexes of the German view; a British unit the view does not show is
    not in the list, nor any unit id of the other side."""
    rules, state = situation({"scenario": "samples/toc/scenario.yaml", "state": {
        "phase": "german-combat", "turn": 3, "units": {
            "G-FA18": {"hex": "3105"}, "G-IR8": {"hex": "3106"},
            "B-RF": {"hex": "3107"}, "B-FA27": {"hex": "3107"}, "B-SF": {"hex": "3111"}}}}, REPO)
    view = rules.view(state, "german")
    problems = rules.validate(view, "german", [{"bombard": "3111", "with": ["G-FA18"]}])
    legal = problems[0].legal or ""
    assert "B-" not in legal, legal
    named = set(re.findall(r"\b\d{4}\b", legal.split("enemy hexes within")[1].split(":", 1)[1]))
    assert named <= set(view["enemy"]), (named, sorted(view["enemy"]))


def test_a_sequence_in_the_second_phase_says_the_named_one_stands() -> None:
    rules, state = situation({"scenario": "samples/toc/scenario.yaml", "state": {
        "phase": "british-second", "turn": 3, "sequence": "fight-move", "units": {"B-RF": {"hex": "1403"}}}}, REPO)
    problems = rules.validate(rules.view(state, "british"), "british", [{"sequence": "move-fight"}])
    assert [(p.section, p.legal) for p in problems] == [
        ("5.3", "leave it out: fight-move was named for this player turn and stands")], said(problems)


def rule_cases() -> list[Path]:
    return sorted(path for path in (REPO / "tests" / "toc").glob("*.yaml") if path.name != "sections.yaml")


def test_every_problem_of_the_rule_cases_says_what_is_legal_and_names_no_enemy_unit() -> None:
    """Each rule case's orders (tests/toc/*.yaml), checked from the side's own view: every problem has its
    section and a `legal:`, and no `legal:` names a unit of the other side (fog: the view shows only the top
    unit of an enemy stack, and the rules' words stay on what the side knows)."""
    told = 0
    for path in rule_cases():
        case = yamlio.load_plain(path.read_bytes())
        rules, state = situation(case, path.parent)
        for side, orders in case_orders(case).items():
            for problem in rules.validate(rules.view(state, side), side, orders):
                told += 1
                assert problem.section and problem.legal, (path.name, problem.message)
                enemy = r"\bB-[A-Z0-9]+\b" if side == "german" else r"\bG-[A-Z0-9]+\b"
                assert not re.search(enemy, problem.legal), (path.name, problem.message, problem.legal)
    assert told >= 80, told  # (the cases that refuse orders were walked)


@pytest.mark.parametrize("units,legal", [
    (["G-IR8", "G-IR26"], "the units of one of [G-IR8] or [G-IR26]"),
    (["G-IR8", "G-IR20", "G-CAV3"], "the units of one of [G-IR8] or [G-IR20] or [G-CAV3] (a unit of no division "
                                    "may join one division of its corps)"),
])
def test_a_german_melee_of_two_organisations_offers_each_alone(units: list[str], legal: str) -> None:
    """12.14: a hex is attacked once a phase (12.1), so the alternative is one of the forces, not one order each."""
    rules, state = situation({"scenario": "samples/toc/scenario.yaml", "state": {
        "phase": "german-combat", "turn": 3, "units": {uid: {"hex": "3105"} for uid in units[:2]}
        | {uid: {"hex": "3206"} for uid in units[2:]} | {"B-RF": {"hex": "3106"}}}}, REPO)
    problems = rules.validate(rules.view(state, "german"), "german", [{"melee": "3106", "with": units}])
    assert [(p.section, p.legal) for p in problems] == [("12.14", legal)], said(problems)
