"""What a newcomer's fourth fresh-clone run found, each pinned as the player or referee meets it.

Each test was first a strict xfail, failing on the defect it pins; all are fixed now.

1. toc: an order of the wrong kind for the phase hides every rule problem of the other orders;
2. `pbem check` says OK for orders whose deadline has passed;
3. `pbem adjudicate` before the deadline offers `--missing none`, which it then refuses;
   `pbem status` after the deadline still says only "orders outstanding";
4. `pbem submit` prints its rejections on stderr without a count, where docs/cli.md says stdout;
   it names the file by its base name; given the `.sig` it asks for `FILE.sig.sig`;
5. toc's orders template suggests a first hex that the canal makes illegal; docs/fbsm.md's
   set-up example is a hex outside both US set-up zones;
6. problems that name no rule section or no "legal:" alternative;
7. fbsm: a path that starts with the unit's own hex is "not adjacent to" itself;
8. `pbem check`: an unquoted leading-zero hex hides every other problem (exit 2, not the list).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.test_cli_lifecycle import Run, run

ROOT = Path(__file__).resolve().parents[1]
CREATED = "2026-12-01T00:00:00Z"  # PBEM_NOW for `pbem new`: a deadline of 1h falls at 01:00
BEFORE_DEADLINE = "2026-12-01T00:30:00Z"
AFTER_DEADLINE = "2026-12-01T02:00:00Z"
DEADLINE = "2026-12-01T01:00:00Z"
SIDES = {"toc": ("german", "british"), "fbsm": ("us", "german")}


class Game:
    """A sample game of one ruleset played through the real commands, with every key at hand."""

    def __init__(self, root: Path, ruleset: str, monkeypatch: pytest.MonkeyPatch, deadline: str | None = None):
        self.root, self.ruleset = root, ruleset
        self.dir, self.keys = root / "game", root / "keys"
        monkeypatch.setenv("PBEM_LEDGER", str(root / "ledger"))
        monkeypatch.setenv("PBEM_NOW", CREATED)
        for name in ("referee", *SIDES[ruleset]):
            assert run("keygen", name, "--out", self.keys).rc == 0
        args: list[str | os.PathLike[str]] = ["new", ROOT / "samples" / ruleset / "scenario.yaml", "--id", f"nc4-{ruleset}",
                "--referee-key", self.keys / "referee", "--dir", self.dir]
        for side in SIDES[ruleset]:
            args += ["--side", f"{side}={self.keys / side}.pub"]
        if deadline:
            args += ["--deadline", deadline]
        made = run(*args)
        assert made.rc == 0, made.text

    @property
    def game_file(self) -> Path:
        return self.dir / "game.yaml"

    def view(self, side: str) -> Path:
        turns = sorted((self.dir / "turns").glob("[0-9]*")) if (self.dir / "turns").is_dir() else []
        return (turns[-1] if turns else self.dir / "views" / "0000") / f"{side}.yaml"

    def skip(self, count: int) -> None:
        """`count` adjudications in which nobody sends anything."""
        for _ in range(count):
            done = run("adjudicate", self.dir, "--missing", "none")
            assert done.rc == 0, done.text

    def template(self, side: str) -> str:
        out = self.root / f"template-{side}.yaml"
        made = run("orders", self.view(side), "--game", self.game_file, "--out", out)
        assert made.rc == 0, made.text
        return out.read_text()

    def orders(self, side: str, orders: str, name: str = "orders.yaml") -> Path:
        text = self.template(side)
        assert text.endswith("orders: []\n"), text
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text[: -len("orders: []\n")] + "orders:\n" + orders)
        return path

    def check(self, side: str, orders: str) -> Run:
        return run("check", self.view(side), self.orders(side, orders), "--game", self.game_file)

    def signed(self, side: str, orders: str, name: str = "orders.yaml") -> Path:
        path = self.orders(side, orders, name)
        assert run("sign", path, "--key", self.keys / side, "--game", self.game_file).rc == 0
        return path


def problems(result: Run) -> list[str]:
    return [line for line in result.text.splitlines() if re.search(r"\.yaml:\d+:\d+: ", line)]


# --- 1. a misplaced order hides the rest (toc) ---------------------------------------------------------------


def test_toc_a_misplaced_order_does_not_hide_an_unknown_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    game.skip(1)  # the British first phase: a movement phase (move-fight)
    typo_only = game.check("british", '- {move: [B-DC], path: ["1508"]}\n')
    assert "B-DC is not a british unit" in typo_only.out, typo_only.text  # the typo alone is found
    both = game.check("british", '- {move: [B-DC], path: ["1508"]}\n- {bombard: "3001", with: [B-RHA3]}\n')
    assert "a bombard order is not allowed in british-first" in both.out, both.text
    assert "B-DC is not a british unit" in both.out, both.text


# --- 2. and 3. deadlines ---------------------------------------------------------------------------------------


def test_check_tells_that_the_orders_deadline_has_passed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    orders = '- {move: [G-IR12], path: ["3100", "3001"]}\n'
    monkeypatch.setenv("PBEM_NOW", BEFORE_DEADLINE)
    assert game.check("german", orders).rc == 0
    monkeypatch.setenv("PBEM_NOW", AFTER_DEADLINE)
    late_check = game.check("german", orders)
    late_submit = run("submit", game.dir, game.signed("german", orders))
    assert late_submit.rc == 1 and "late" in late_submit.text, late_submit.text  # what the referee says
    assert DEADLINE in late_check.text and "passed" in late_check.text, late_check.text


def test_adjudicate_before_the_deadline_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    monkeypatch.setenv("PBEM_NOW", BEFORE_DEADLINE)
    refused = run("adjudicate", game.dir, "--missing", "none")
    assert refused.rc == 2 and "has not passed" in refused.err, refused.text
    waiting = run("adjudicate", game.dir)
    assert waiting.rc == 2, waiting.text
    assert DEADLINE in waiting.err, waiting.text


def test_status_after_the_deadline_says_it_passed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    monkeypatch.setenv("PBEM_NOW", AFTER_DEADLINE)
    status = run("status", game.dir)
    assert status.rc == 0 and "owes orders" in status.out, status.text
    assert "passed" in status.out, status.text


# --- 4. submit's answers ---------------------------------------------------------------------------------------


def _cli_md_says_submit_problems_go_to_stdout() -> bool:
    row = next(line for line in (ROOT / "docs" / "cli.md").read_text().splitlines() if line.startswith("| 1 |"))
    return "`submit`" in row and "standard output" in row


def test_submit_rejections_where_docs_cli_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    bad = game.signed("german", '- {move: [G-IR99], path: ["3100"]}\n')
    result = run("submit", game.dir, bad)
    assert result.rc == 1 and "G-IR99" in result.text, result.text
    if _cli_md_says_submit_problems_go_to_stdout():
        assert "G-IR99" in result.out and "1 problem(s)" in result.out, result.text


def test_submit_names_the_refused_file_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    bad = game.signed("german", '- {move: [G-IR99], path: ["3100"]}\n', name="in/mail-3/orders.yaml")
    result = run("submit", game.dir, bad)
    assert result.rc == 1 and "G-IR99" in result.text, result.text
    assert f"{bad}:" in result.text, result.text


def test_submit_given_the_signature_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    good = game.signed("german", '- {move: [G-IR12], path: ["3100", "3001"]}\n')
    result = run("submit", game.dir, f"{good}.sig")
    assert result.rc == 1, result.text
    assert ".sig.sig" not in result.text, result.text


# --- 5. examples that are illegal -----------------------------------------------------------------------------


def test_toc_template_move_example_is_a_legal_first_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "toc", monkeypatch)
    game.skip(1)
    example = re.search(r'\{move: \[([A-Z0-9-]+)\], path: \["([0-9]{4})", \.\.\.\]', game.template("british"))
    assert example, game.template("british")
    result = game.check("british", f'- {{move: [{example[1]}], path: ["{example[2]}"]}}\n')
    assert result.rc == 0, result.text


def test_fbsm_doc_setup_example_is_legal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "fbsm", monkeypatch)
    example = re.search(r"\{setup: [A-Z0-9]+, hex: \"[0-9]{4}\"\}", (ROOT / "docs" / "fbsm.md").read_text())
    assert example, "docs/fbsm.md has no set-up example"
    result = game.check("us", f"- {example[0]}\n")
    assert result.rc == 0, result.text


# --- 6. problems without a rule section or a legal alternative -------------------------------------------------


def _toc_stacking(game: Game) -> Run:
    return game.check("german", '- {move: [G-IR12], path: ["3100"]}\n- {move: [G-IR8], path: ["3100"]}\n'
                                '- {move: [G-IR48], path: ["3100"]}\n')


def _toc_range(game: Game) -> Run:
    return game.check("german", '- {move: [G-FA18], path: ["3100"]}\n'
                                '- {next_phase: [{bombard: "2908", with: [G-FA18]}]}\n')


def _toc_sequence_second(game: Game) -> Run:
    game.skip(1)
    return game.check("british", '- {move: [B-DG], path: ["1611"]}\n- {sequence: fight-move}\n')


def _fbsm_spotter_typo(game: Game) -> Run:
    game.skip(1)
    _, target = _first_unit(game, "us")  # a hex that holds a US unit
    return game.check("german", f'- {{bombard: "{target}", markers: [heavy-1], spotter: G7}}\n')


def _fbsm_no_spotter(game: Game) -> Run:
    game.skip(1)
    return game.check("german", '- {bombard: "2617", markers: [heavy-1]}\n')


def _fbsm_move_as_list(game: Game) -> Run:
    game.skip(3)  # us-setup, the two first bombardments: german-movement
    return game.check("german", '- {move: [G02], path: ["3136"]}\n')


def _fbsm_us_exit(game: Game) -> Run:
    game.skip(6)  # ... german-movement, us-first-fire, german-first-fire: us-movement
    unit, hex_ = _first_unit(game, "us")
    return game.check("us", f'- {{move: {unit}, path: ["{_neighbour(game, "us", unit, hex_)}"], exit: true}}\n')


def _first_unit(game: Game, side: str) -> tuple[str, str]:
    import yaml
    units = yaml.safe_load(game.view(side).read_text())["state"]["units"]
    return next((u, v["hex"]) for u, v in sorted(units.items()) if v.get("status") == "active" and u.startswith(("US", "G")))


def _neighbour(game: Game, side: str, unit: str, hex_: str) -> str:
    """A hex the unit may enter, from what check says when the path starts with its own hex."""
    said = game.check(side, f'- {{move: {unit}, path: ["{hex_}"]}}\n')
    legal = re.search(r"legal: ([0-9]{4})", said.text)
    assert legal, said.text
    return legal[1]


CASES = {
    "toc stacking (6.3)": ("toc", _toc_stacking, "stacking points"),
    "toc bombard range (10.2)": ("toc", _toc_range, "its range is"),
    "toc sequence not first (5.3)": ("toc", _toc_sequence_second, "sequence is named first"),
    "fbsm spotter typo (11.2)": ("fbsm", _fbsm_spotter_typo, "G7 is not one of your units"),
    "fbsm bombard without spotter (11.2)": ("fbsm", _fbsm_no_spotter, "spotter"),
    "fbsm move order with a list (9.4)": ("fbsm", _fbsm_move_as_list, "got a list"),
    "fbsm US unit exits (4.3)": ("fbsm", _fbsm_us_exit, "off the map"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_problem_names_its_rule_and_what_is_legal(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset, make, words = CASES[case]
    result = make(Game(tmp_path, ruleset, monkeypatch))
    said = [line for line in problems(result) if words in line]
    assert result.rc == 1 and said, result.text
    for line in said:
        assert re.search(r"\(rule [0-9]", line) and "legal: " in line, line


# --- 7. fbsm: the start hex in the path --------------------------------------------------------------------------


def test_fbsm_path_starting_at_the_units_own_hex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "fbsm", monkeypatch)
    game.skip(6)
    unit, hex_ = _first_unit(game, "us")
    result = game.check("us", f'- {{move: {unit}, path: ["{hex_}"]}}\n')
    assert result.rc == 1, result.text
    assert f"leave {hex_} out" in result.out, result.text


# --- 8. leading zero ---------------------------------------------------------------------------------------------


def test_leading_zero_hex_is_one_problem_among_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(tmp_path, "fbsm", monkeypatch)
    result = game.check("us", '- {setup: US02, hex: 0933}\n- {setup: US3, hex: "2617"}\n')
    assert "leading zero" in result.text, result.text
    assert result.rc == 1 and "did you mean US03" in result.out, result.text
