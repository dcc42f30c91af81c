"""The messages a newcomer's run from a fresh clone found wanting, each as a player reads it.

1. orders signed with another side's key, at `pbem submit`: told as `pbem verify` tells it, the
   key to sign with and the key it was signed with, never a bare side name as what to write;
2. a section of our own pages is cited as a page to see, a rulebook's as a rule;
3. `pbem check` against the other side's view: one cause, and the view to use;
4. a unit id with a typo: the ids it most likely meant, with the legal list kept;
5. toc 9.13: a move across the canal where no bridge spans it says where it may go.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core.cases import situation
from pbem.core.errors import Problem
from tests.test_cli_lifecycle import run
from tests.test_hostile_input import Table, make_table

REPO = Path(__file__).resolve().parent.parent
TOC_GAME = REPO / "samples" / "toc" / "game"


@pytest.fixture()
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


# --- 1. the wrong key at the referee's intake -------------------------------------------------------------------


def test_orders_signed_with_the_opponents_key_name_both_keys(table: Table) -> None:
    path = table.file("forged.yaml", table.orders("red", [{"place": "hq", "cell": 3}]), "blue")
    err = table.refused(path, "at side:", "wrong key: signed with blue's key, but this file says side 'red' and must "
                                          "be signed with red's key", "legal: red's key")
    assert "legal: blue;" not in err and not err.rstrip().endswith("legal: blue"), err
    assert err.count("rejected: ") == 1 and err.strip().splitlines()[1:] == ["1 problem(s)"], err  # that one cause only


def test_a_side_that_is_no_side_of_the_game_is_told_to_be_the_signers(table: Table) -> None:
    path = table.file("typo.yaml", table.orders("red", [{"place": "hq", "cell": 3}], side="rde"), "red")
    table.refused(path, "at side:", "the file says side 'rde', which is no side of this game; it is signed with "
                                    "red's key", "legal: side: red")


# --- 2. how a section is cited --------------------------------------------------------------------------------


def test_a_page_of_ours_is_a_page_to_see_and_a_rulebook_section_a_rule() -> None:
    page = Problem("stale ack", file="o.yaml", line=7, column=6, section="docs/protocol.md §4", legal="sha256:ab")
    assert str(page) == "o.yaml:7:6: stale ack (see docs/protocol.md §4); legal: sha256:ab"
    rule = Problem("no bridge", file="o.yaml", line=9, column=3, order=0, section="9.13", legal="2008")
    assert str(rule) == "o.yaml:9:3: order 1: no bridge (rule 9.13); legal: 2008"


def test_the_intake_cites_the_protocol_as_a_page(table: Table) -> None:
    path = table.file("game.yaml", table.orders("red", [{"place": "hq", "cell": 3}], game="other-game"), "red")
    err = table.refused(path, "(see docs/protocol.md §4)")
    assert "(rule docs/" not in err, err


# --- 3. checking orders against the other side's view --------------------------------------------------------


def test_orders_checked_against_the_other_sides_view_get_one_cause_and_the_view_to_use() -> None:
    orders = TOC_GAME / "orders" / "0003" / "german-0001.yaml"
    assert run("check", TOC_GAME / "turns" / "0002" / "german.yaml", orders).rc == 0  # the control
    result = run("check", TOC_GAME / "turns" / "0002" / "british.yaml", orders)
    assert result.rc == 1
    line, count = result.out.splitlines()  # side, phase, awaited and ack were three errors of one cause
    assert count == "1 problem(s)"
    assert "these orders are for side 'german' but the view is british's: check them against german's view" in line
    assert f"legal: german's view, {TOC_GAME / 'turns' / '0002' / 'german.yaml'}" in line, line


def test_the_other_sides_view_is_named_only_where_it_is(tmp_path: Path) -> None:
    view = tmp_path / "british.yaml"
    view.write_bytes((TOC_GAME / "turns" / "0002" / "british.yaml").read_bytes())
    result = run("check", view, TOC_GAME / "orders" / "0003" / "german-0001.yaml")
    assert result.rc == 1 and result.out.splitlines()[0].endswith("legal: german's view"), result.out


# --- 4. a mistyped unit id ----------------------------------------------------------------------------------


def typo_in_sample_orders(tmp_path: Path, game: str, orders: str, right: str, wrong: str) -> Path:
    """A recorded orders file of a sample game with one id mistyped (`right` written as `wrong`)."""
    text = (REPO / "samples" / game / "game" / "orders" / orders).read_text(encoding="utf-8")
    assert right in text
    path = tmp_path / f"{game}-typo.yaml"
    path.write_text(text.replace(right, wrong, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("game, orders, view, right, wrong, guess, legal", [  # legal: whether the rule gives one
    ("toc", "0003/german-0001.yaml", "0002/german.yaml", "- G-IR12\n", "- G-IR121\n", "G-IR12", True),
    ("fbsm", "0002/german-0001.yaml", "0001/german.yaml", "spotter: G01", "spotter: GO1", "G01", False),
    ("bob", "0002/american-0001.yaml", "0001/american.yaml", "fire: A8\n", "fire: A88\n", "A8", True),
    ("wtj1916", "0002/british-0001.yaml", "0001/british.yaml", "unit: gun1", "unit: gunn1", "gun1", True),
    ("bst", "0002/axis-0001.yaml", "0001/axis.yaml", "unit: de1\n", "unit: de11\n", "de1", True),
    ("bst", "0002/axis-0001.yaml", "0001/axis.yaml", "  - de1b\n", "  - de1bb\n", "de1b", True),
])
def test_a_mistyped_unit_id_is_answered_with_the_id_it_likely_meant(tmp_path: Path, game: str, orders: str,
                                                                     view: str, right: str, wrong: str, guess: str,
                                                                     legal: bool) -> None:
    view_path = REPO / "samples" / game / "game" / "turns" / view
    assert run("check", view_path, REPO / "samples" / game / "game" / "orders" / orders).rc == 0  # the control
    result = run("check", view_path, typo_in_sample_orders(tmp_path, game, orders, right, wrong))
    assert result.rc == 1
    typo = wrong.split(":")[-1].strip(" -\n")
    [line] = [line for line in result.out.splitlines() if f"{typo} is not" in line]
    assert re.search(rf": did you mean (\S+ or )*{re.escape(guess)}( or \S+)*\? \(rule ", line), line
    if legal:  # kept, and the guess is one of its ids
        assert guess in line.split("; legal: ")[1].split(", "), line


def test_a_look_alike_slip_is_answered_with_that_one_id() -> None:
    from pbem.core.guesses import close_names

    assert close_names("GO1", ["G01", "G91", "G90", "G10"]) == ["G01"]
    assert close_names("g-ir12", ["G-IR12", "G-IR120"]) == ["G-IR12"]
    assert close_names("XYZ", ["G01", "G91"]) == []


def test_a_hex_not_next_to_the_stack_gets_no_guess_at_a_unit(tmp_path: Path) -> None:
    path = typo_in_sample_orders(tmp_path, "toc", "0003/german-0001.yaml", '- "2907"\n', '- "2917"\n')
    result = run("check", TOC_GAME / "turns" / "0002" / "german.yaml", path)
    assert result.rc == 1 and "2917" in result.out and "did you mean" not in result.out, result.out


# --- 5. toc 9.13: no crossing of the canal but by a bridge ----------------------------------------------------


def test_a_move_across_the_canal_without_a_bridge_says_where_the_stack_may_go() -> None:
    """G-IR8 at 2107 on the canal's south bank, ordered north into 2108 where no bridge spans it (toc 9.13)."""
    rules, state = situation({"scenario": "samples/toc/scenario.yaml",
                              "state": {"phase": "german-movement", "turn": 3,
                                        "units": {"G-IR8": {"hex": "2107"}, "B-WK": {"hex": "3122"}}}}, REPO)
    [problem] = rules.validate(rules.view(state, "german"), "german", [{"move": ["G-IR8"], "path": ["2108"]}])
    assert problem.section == "9.13" and "the canal between 2107 and 2108 has no bridge" in problem.message
    assert problem.legal is not None, problem
    bank, bridges = problem.legal.split("; ")
    assert bank == "a hex next to 2107 on this bank: 2007, 2008, 2106, 2207, 2208"  # 2108 is across it
    crossings = bridges.removeprefix("the canal's bridges: ").split(", ")
    assert crossings[0] == "2008-2009" and "3307-3308" in crossings and len(crossings) == 7  # the nearest first
    around = [{"move": ["G-IR8"], "path": ["2008", "2009"]}]  # the legal way: over the bridge from 2008
    assert rules.validate(rules.view(state, "german"), "german", around) == []


def test_an_id_in_the_wrong_case_is_named_with_the_id_it_is(tmp_path: Path) -> None:
    """fbsm's unit ids are upper case by schema: g01 is refused by the schema, which now names G01."""
    path = typo_in_sample_orders(tmp_path, "fbsm", "0002/german-0001.yaml", "spotter: G01", "spotter: g01")
    result = run("check", REPO / "samples" / "fbsm" / "game" / "turns" / "0001" / "german.yaml", path)
    assert result.rc == 1
    [line] = [line for line in result.out.splitlines() if '"g01"' in line]
    assert "at orders[0].spotter:" in line and ': did you mean G01? It should be a unit id like ' in line, line
    hexes = typo_in_sample_orders(tmp_path, "fbsm", "0002/german-0001.yaml", 'bombard: "4030"', 'bombard: "4O30"')
    result = run("check", REPO / "samples" / "fbsm" / "game" / "turns" / "0001" / "german.yaml", hexes)
    assert result.rc == 1 and '"4O30"' in result.out and "did you mean" not in result.out, result.out
