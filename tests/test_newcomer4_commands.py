"""The referee's and player's commands around deadlines and the intake, as the newcomer's fourth run met them.

1. `pbem check` after the orders deadline: the one thing the referee's intake would answer first;
2. `pbem submit`: refusals on stdout with their count (docs/cli.md), the file named as given, a .sig given
   for the orders file;
3. `pbem adjudicate` and `pbem status` say only what is legal before and after the deadline;
4. `pbem verify-view game.yaml` and `pbem check game.yaml ORDERS`: the game file named by its `kind:`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_cli_lifecycle import run
from tests.test_newcomer4 import AFTER_DEADLINE, BEFORE_DEADLINE, DEADLINE, Game

GOOD = '- {move: [G-IR12], path: ["3100", "3001"]}\n'
UNKNOWN_UNIT = '- {move: [G-IR99], path: ["3100"]}\n'
LOCATED = re.compile(r"\.yaml:\d+:\d+: ")


# --- 1. check after the deadline -----------------------------------------------------------------------------


def test_check_after_the_deadline_tells_it_as_a_problem_at_the_orders_seq(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    monkeypatch.setenv("PBEM_NOW", AFTER_DEADLINE)
    result = game.check("german", GOOD)
    assert result.rc == 1, result.text
    problem, count = result.out.splitlines()
    orders = tmp_path / "orders.yaml"
    seq_line = 1 + orders.read_text().splitlines().index("seq: 1")
    assert problem.startswith(f"{orders}:{seq_line}:6: at seq: the orders deadline {DEADLINE} for seq 1 has passed "
                              f"(it is now {AFTER_DEADLINE})"), problem
    assert "refuses orders that arrive after it as late" in problem, problem
    assert "(see docs/protocol.md §4a); legal: no new orders for seq 1" in problem, problem
    assert count == "1 problem(s)"


def test_check_at_the_deadline_second_and_before_it_is_on_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    for moment in (BEFORE_DEADLINE, DEADLINE):  # docs/protocol.md §10: the deadline second itself is on time
        monkeypatch.setenv("PBEM_NOW", moment)
        result = game.check("german", GOOD)
        assert result.rc == 0 and "OK: " in result.out, (moment, result.text)


def test_check_after_the_deadline_still_tells_every_other_problem(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    monkeypatch.setenv("PBEM_NOW", AFTER_DEADLINE)
    result = game.check("german", UNKNOWN_UNIT)
    lines = result.out.splitlines()
    assert result.rc == 1 and lines[-1] == "2 problem(s)", result.text
    assert "has passed" in lines[0] and "G-IR99" in lines[1], result.text


def test_check_in_a_game_without_deadline_never_reads_it_as_late(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    monkeypatch.setenv("PBEM_NOW", "2030-01-01T00:00:00Z")
    assert game.check("german", GOOD).rc == 0


# --- 2. submit's answer ----------------------------------------------------------------------------------------


def test_submit_refusals_go_to_stdout_with_their_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    bad = game.signed("german", UNKNOWN_UNIT + '- {move: [G-IR98], path: ["3100"]}\n')
    result = run("submit", game.dir, bad)
    assert result.rc == 1 and result.err == "", result.text
    *problems, count = result.out.splitlines()
    assert count == "2 problem(s)", result.out
    assert len(problems) == 2 and all(line.startswith(f"rejected: {bad}:") for line in problems), result.out
    assert "G-IR99" in problems[0] and "G-IR98" in problems[1], result.out


def test_submit_of_a_good_file_prints_no_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    result = run("submit", game.dir, game.signed("german", GOOD))
    assert result.rc == 0 and "accepted orders of german" in result.out, result.text
    assert "problem(s)" not in result.out and "rejected" not in result.out, result.text


def test_submit_names_a_refused_file_by_the_relative_path_given(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    game.signed("german", UNKNOWN_UNIT, name="in/t4.yaml")
    monkeypatch.chdir(tmp_path)
    result = run("submit", game.dir, "in/t4.yaml")
    assert result.rc == 1, result.text
    assert re.search(r"^rejected: in/t4\.yaml:\d+:\d+: ", result.out, re.MULTILINE), result.out


def test_submit_given_the_signature_names_the_orders_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    good = game.signed("german", GOOD, name="in/orders-0007.yaml")
    result = run("submit", game.dir, f"{good}.sig")
    assert result.rc == 1, result.text
    assert ".sig.sig" not in result.text, result.text
    assert f"rejected: {good}.sig:1:1: this is a signature, not the file it signs: give the signed file itself " \
           f"({good}, with this signature beside it)" in result.out, result.out
    assert f"legal: pbem submit GAME_DIR {good}" in result.out, result.out
    assert not (game.dir / "orders" / "0001").is_dir() or not any((game.dir / "orders" / "0001").iterdir())


def test_submit_given_a_signature_under_another_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    good = game.signed("german", GOOD)
    other = tmp_path / "signature.txt"
    other.write_bytes(Path(f"{good}.sig").read_bytes())
    result = run("submit", game.dir, other)
    assert result.rc == 1 and "this is a signature, not the file it signs" in result.out, result.text
    assert "legal: pbem submit GAME_DIR FILE" in result.out and "signature.txt.sig" not in result.out, result.out


# --- 3. adjudicate and status around the deadline --------------------------------------------------------------


def test_adjudicate_before_the_deadline_offers_nothing_it_would_refuse(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    monkeypatch.setenv("PBEM_NOW", BEFORE_DEADLINE)
    waiting = run("adjudicate", game.dir)
    assert waiting.rc == 2, waiting.text
    assert f"the deadline {DEADLINE} has not passed" in waiting.err, waiting.err
    assert f"legal: wait for their orders, or until after {DEADLINE}; then --missing none resolves without them" \
        in waiting.err, waiting.err
    assert "wait, or run with --missing none" not in waiting.err, waiting.err
    refused = run("adjudicate", game.dir, "--missing", "none")
    assert refused.rc == 2 and "has not passed" in refused.err, refused.text
    assert "wait, or run with --missing none" not in refused.err, refused.err


def test_adjudicate_after_the_deadline_names_missing_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    monkeypatch.setenv("PBEM_NOW", AFTER_DEADLINE)
    waiting = run("adjudicate", game.dir)
    assert waiting.rc == 2, waiting.text
    assert f"the deadline {DEADLINE} for seq 1 has passed without orders from german" in waiting.err, waiting.err
    assert "legal: pbem adjudicate --missing none" in waiting.err and "wait" not in waiting.err, waiting.err
    assert run("adjudicate", game.dir, "--missing", "none").rc == 0  # what it names is what works


def test_adjudicate_without_deadline_keeps_its_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    waiting = run("adjudicate", game.dir)
    assert waiting.rc == 2 and "legal: wait, or run with --missing none to resolve without them" in waiting.err, \
        waiting.text


def test_status_says_the_deadline_passed_and_what_resolves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    monkeypatch.setenv("PBEM_NOW", BEFORE_DEADLINE)
    before = run("status", game.dir)
    assert before.rc == 0 and before.out.splitlines()[-1] == "not ready: orders outstanding", before.text
    public_before = run("status", game.dir, "--public").out
    monkeypatch.setenv("PBEM_NOW", AFTER_DEADLINE)
    after = run("status", game.dir)
    assert after.rc == 0 and "german: owes orders" in after.out, after.text
    said = after.out.splitlines()[-1]
    assert said == (f"not ready: orders outstanding from german, and the deadline {DEADLINE} has passed; "
                    "`pbem adjudicate --missing none` resolves without them"), after.out
    assert run("status", game.dir, "--public").out == public_before  # the public report never reads the clock


# --- 4. the game file where a view belongs -----------------------------------------------------------------------


def test_verify_view_given_the_game_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    result = run("verify-view", game.game_file, "--game", game.game_file)
    assert result.rc == 2, result.text
    [line] = result.err.splitlines()
    assert f"{game.game_file}:2:7: at kind: game.yaml is the game file, not a view" in line, line
    assert f"legal: pbem verify-view VIEW... --game {game.game_file}" in line and "hidden_chain" not in line, line
    assert run("verify-view", game.view("german"), "--game", game.game_file).rc == 0  # a view still verifies


def test_check_given_the_game_file_names_the_latest_view_in_the_ledger(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    game.skip(2)  # the German orders now go on view 2, which `pbem orders --game` keeps in the ledger
    orders = game.orders("german", GOOD)
    result = run("check", game.game_file, orders)
    assert result.rc == 2, result.text
    [line] = result.err.splitlines()
    assert "game.yaml is the game file; for your orders for seq 3 check against your latest view, " in line, line
    latest = re.search(r"your latest view, (\S+) \(your ledger's copy\)", line)
    assert latest and "views/0000" not in line, line
    checked = run("check", latest[1], orders, "--game", game.game_file)  # the view named is the one to use:
    assert checked.rc in (0, 1) and checked.err == "", checked.text  # (a rule may refuse this move by now)
    assert not re.search(r"at (seq|ack|phase):|latest view", checked.out), checked.out


def test_check_given_the_game_file_without_a_ledger_names_view_seq_minus_one(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    game.skip(2)
    orders = game.orders("german", GOOD)
    result = run("check", game.game_file, orders, "--ledger", tmp_path / "empty-ledger")
    assert result.rc == 2, result.text
    assert "for your orders for seq 3 check against view 2 of german (turns/0002/german.yaml as the referee sent " \
           "it)" in result.err, result.err
    assert f"legal: pbem check turns/0002/german.yaml {orders.name} --game game.yaml" in result.err, result.err


def test_check_given_the_game_file_for_first_orders_names_view_0(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    orders = game.orders("german", GOOD)
    result = run("check", game.game_file, orders, "--ledger", tmp_path / "empty-ledger")
    assert result.rc == 2, result.text
    assert "for your orders for seq 1 check against views/0000/german.yaml (the view 0 the referee sent you)" \
        in result.err, result.err


def test_submit_of_unsigned_orders_named_sig_asks_for_their_signature(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    orders = game.orders("german", GOOD, name="odd.sig")  # orders, not a signature, whatever their name
    result = run("submit", game.dir, orders)
    assert result.rc == 1 and "this is a signature" not in result.out, result.text
    assert f"rejected: {orders}: no signature: put odd.sig.sig beside it" in result.out, result.out
