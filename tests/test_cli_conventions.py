"""The conventions every `pbem` command keeps (docs/cli.md).

One exit-code scheme (0 done, 1 problems found, 2 could not do it), help text on every option,
`--game` naming a game.yaml or its folder wherever it appears, a clear word for a folder that is
not a game, no Python reprs where a person reads, a closed stdout that is no error, and keys
checked against the file they sign.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.cli import EXIT_CODES, build_parser
from pbem.core.status import result_text, status
from pbem.demo import DemoGame, play_demo
from tests.conftest import DUEL_SCENARIO
from tests.test_cli_lifecycle import CliGame, make_cli_game, ok, run

REPO = Path(__file__).resolve().parent.parent
SAMPLE_VIEW = REPO / "samples" / "fbsm" / "game" / "turns" / "0005" / "us.yaml"


@pytest.fixture()
def cli_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliGame:
    monkeypatch.chdir(tmp_path)
    return make_cli_game(tmp_path)


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every command and sub-command parser, by its full name."""
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found[f"{prefix} {name}".strip()] = sub
                    walk(sub, f"{prefix} {name}")

    walk(build_parser(), "")
    return found


def test_every_option_and_argument_has_help() -> None:
    missing = [f"pbem {name} {action.dest}" for name, parser in commands().items() for action in parser._actions
               if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
               and action.help is None]
    assert missing == []
    assert len(commands()) > 20


def test_every_help_states_the_exit_codes() -> None:
    assert "1  problems found" in EXIT_CODES and "2  the command could not do what was asked" in EXIT_CODES
    assert build_parser().epilog == EXIT_CODES
    top = [name for name in commands() if " " not in name]
    assert all(commands()[name].epilog == EXIT_CODES for name in top)
    docs = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in top:
        assert f"`pbem {name}" in docs, f"docs/cli.md does not list pbem {name}"


@pytest.mark.parametrize("argv", [["adjudicate", "nowhere"], ["submit", "nowhere", "x.yaml"], ["audit", "nowhere"],
                                  ["export", "nowhere", "out.tar.gz"], ["status", "nowhere"],
                                  ["bot", "nowhere", "--side", "red", "--key", "k"], ["post", "nowhere"],
                                  ["judge", "nowhere", "--maildir", "mail", "--once"]])
def test_a_folder_that_is_no_game_is_named(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(*argv)
    assert result.rc == 2 and "nowhere is not a game directory (no game.yaml)" in result.err, result.text
    assert not (tmp_path / "mail").exists()


def test_exit_codes_one_scheme(cli_game: CliGame) -> None:
    path = cli_game.write_orders("red", "- {place: hq, cell: 99}")
    checked = run("check", cli_game.latest_view("red"), path)
    assert checked.rc == 1 and "cell 99 is off the board" in checked.out  # problems found
    usage = run("check", cli_game.latest_view("red"))
    assert usage.rc == 2  # argparse: a missing argument
    missing = run("check", cli_game.latest_view("red"), cli_game.work / "none.yaml")
    assert missing.rc == 2 and "none.yaml" in missing.err  # unreadable input
    assert run("schema").rc == 2 and run("demo").rc == 2


def test_game_names_a_game_yaml_or_its_folder_everywhere(cli_game: CliGame) -> None:
    path = cli_game.write_orders("red", "- {place: hq, cell: 3}")
    ok("sign", path, "--key", cli_game.key("red"), "--game", cli_game.root / "game.yaml")
    for game in (cli_game.root, cli_game.root / "game.yaml"):
        assert "signed by red" in ok("verify", path, "--game", game).out
        ok("check", cli_game.latest_view("red"), path, "--game", game)
        ok("verify-view", cli_game.root / "views/0000/red.yaml", "--game", game)


def test_new_takes_the_game_id_as_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("referee", "red", "blue"):
        ok("keygen", name, "--out", "keys")
    sides = ["--side", "red=keys/red.pub", "--side", "blue=keys/blue.pub", "--referee-key", "keys/referee"]
    ok("new", DUEL_SCENARIO, "--id", "by-id", *sides, "--dir", "a")
    old = ok("new", DUEL_SCENARIO, "--game", "by-game", *sides, "--dir", "b")  # the former spelling still works
    assert "is now `pbem new --id ID`" in old.err
    assert run("new", DUEL_SCENARIO, *sides, "--dir", "c").rc == 2
    assert "game: by-id\n" in (tmp_path / "a" / "game.yaml").read_text()


def test_sign_refuses_a_key_the_file_does_not_take(cli_game: CliGame) -> None:
    path = cli_game.write_orders("red", "- {place: hq, cell: 3}")
    game = cli_game.root / "game.yaml"
    other = run("sign", path, "--key", cli_game.key("blue"), "--game", game)
    assert other.rc == 2 and "this orders file is red's, and the key given is blue's" in other.err, other.text
    referee = run("sign", path, "--key", cli_game.key("referee"), "--game", game)
    assert referee.rc == 2 and "the key given is the referee's" in referee.err
    view = cli_game.work / "view.yaml"
    view.write_bytes((cli_game.root / "views/0000/red.yaml").read_bytes())
    player = run("sign", view, "--key", cli_game.key("red"), "--game", game)
    assert player.rc == 2 and "a view file is the referee's to sign, and the key given is red's" in player.err
    assert not path.with_name(path.name + ".sig").exists() and not view.with_name("view.yaml.sig").exists()
    ok("sign", path, "--key", cli_game.key("red"), "--game", game)


def test_render_refuses_an_area_off_the_map(tmp_path: Path) -> None:
    off = run("render", SAMPLE_VIEW, "--area", "9000-9999", "--out", tmp_path / "m.svg")
    assert off.rc == 2 and "9000 is outside the map" in off.err and not (tmp_path / "m.svg").exists()
    assert run("render", SAMPLE_VIEW, "--area", "3000-3530", "--out", tmp_path / "m.svg").rc == 0


def test_status_of_a_closed_stdout_is_quiet(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before pbem writes a byte (`pbem status | head -1`, at its worst)
    done = subprocess.run([sys.executable, "-m", "pbem", "status", str(REPO / "samples" / "fbsm" / "game")],
                          stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    os.close(write)
    assert done.returncode == 0 and done.stderr == "", done.stderr


# --- no Python reprs where people read --------------------------------------------------------------------


def test_a_result_reads_as_words() -> None:
    text = result_text({"winner": "us", "section": "4.4", "reason": "no German unit is on the map"})
    assert text == "us wins: no German unit is on the map (rule 4.4)"
    assert result_text({"winner": None, "reason": "time ran out", "vp": {"us": 3}}) == \
        "no side wins: time ran out; vp {us: 3}"


def test_status_and_the_public_status_say_the_result_in_words(finished_duel: DemoGame) -> None:
    for public in (False, True):  # the public one is also the mail judge's answer to `status`
        text = status(finished_duel.root, public=public)
        over = [line for line in text.splitlines() if line.startswith("game over: ")]
        assert over and " wins: " in over[0] and "(rule " in over[0], text
        assert "{'" not in text and "'}" not in text
    sample = ok("status", REPO / "samples" / "fbsm" / "game").out
    assert "game over: us wins: no German unit is on the map and the holding container is empty (rule 4.4)" in sample


def test_the_demo_ends_with_the_result_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert play_demo("duel", DUEL_SCENARIO, tmp_path / "demo", chain_length=64) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if line.startswith("game over after ")]
    assert " wins: " in line and "{" not in line, line


@pytest.mark.parametrize("command,collecting", [("status", False), ("adjudicate", False), ("audit", False),
                                                ("judge", True), ("desk", True), ("render", True)])
def test_only_a_one_shot_command_runs_without_the_cycle_collector(command: str, collecting: bool,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`pbem.cli.run`, the program's entry: this module's commands end with their process, so the
    cyclic collector is off for them; the judge and the desk run long and keep it. `main` never touches it."""
    import gc

    import pbem.cli as cli

    seen: list[bool] = []
    monkeypatch.setattr(cli, "main", lambda arguments: seen.append(gc.isenabled()) or 0)
    monkeypatch.setattr(sys, "argv", ["pbem", command, "--help"])
    assert gc.isenabled()
    try:
        assert cli.run() == 0
    finally:
        gc.enable()
    assert seen == [collecting]


def test_the_program_s_entry_points_are_run() -> None:
    """The console script and `python -m pbem` both go through `run` (not straight to `main`)."""
    import tomllib

    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"pbem": "pbem.cli:run"}
    assert "from .cli import run" in (REPO / "pbem" / "__main__.py").read_text(encoding="utf-8")
    probe = "import gc, runpy, sys; sys.argv = ['pbem', 'status', '--help']; import pbem.cli as c; " \
            "c.main = lambda a: print(gc.isenabled()) or 0; runpy.run_module('pbem', run_name='__main__')"
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert shown.stdout.strip() == "False", shown.stderr
