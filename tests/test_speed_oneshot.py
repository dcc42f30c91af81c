"""One-shot commands (issue #17): a command imports only what it uses, and parses as it did.

Not timed (bench/oneshot.py measures): what a fresh `pbem check` imports is what decides its
start-up, so the modules it must not load are listed here, and the same check with `--game`
(which verifies the referee's signature) shows the list can catch one. The parser built for one
command must say exactly what the parser of every command says about it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem import cli

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "samples" / "fbsm" / "game"
VIEW = GAME / "turns" / "0001" / "german.yaml"
ORDERS = GAME / "orders" / "0002" / "german-0001.yaml"  # accepted for seq 2, built on VIEW

# Run `pbem ARGS` in this interpreter's child as `python -m pbem` would, then list its modules.
CHILD = """
import json, runpy, sys
out, sys.argv = sys.argv[1], ["pbem", *sys.argv[2:]]
try:
    runpy.run_module("pbem", run_name="__main__", alter_sys=True)
except SystemExit as done:
    code = done.code
with open(out, "w") as handle:
    json.dump({"code": code, "modules": sorted(sys.modules)}, handle)
"""

# What a check of orders against a view never needs: signatures (unless --game), schemas' full
# validator (the quick verdict says "valid"), bots, fog, pictures, mail, the desk, adjudication.
NOT_FOR_A_CHECK = (
    "cryptography", "jsonschema", "shutil", "bz2", "lzma", "zipfile", "importlib.resources", "fractions",
    "secrets", "pbem.rulesets.fbsm.bots", "pbem.rulesets.fbsm.fog", "pbem.rulesets.kit.events", "pbem.mail",
    "pbem.render", "pbem.desk", "pbem.core.adjudicator", "pbem.core.audit", "pbem.core.intake",
)


def _run(tmp_path: Path, *args: str) -> tuple[int, set[str]]:
    out = tmp_path / "modules.json"
    # a ledger of its own: a later sample view another test kept would make this one "not the latest"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PBEM_LEDGER=str(tmp_path / "ledger"))
    subprocess.run([sys.executable, "-c", CHILD, str(out), *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found = json.loads(out.read_text())
    return found["code"], set(found["modules"])


def _loaded(modules: set[str], name: str) -> bool:
    return any(module == name or module.startswith(name + ".") for module in modules)


def test_a_check_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    code, modules = _run(tmp_path, "check", str(VIEW), str(ORDERS))
    assert code in (0, None)
    assert "pbem.rulesets.fbsm.phases" in modules  # it did check the orders against the rules
    assert [name for name in NOT_FOR_A_CHECK if _loaded(modules, name)] == []


def test_a_check_of_canonical_files_does_without_pyyaml_once_kept_copies_are_written(tmp_path: Path) -> None:
    # As a user runs it: byte-code written, so the packaged tables' kept copies are too (the first run).
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"), PBEM_LEDGER=str(tmp_path / "ledger"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    found = []
    for attempt in range(2):
        out = tmp_path / f"modules-{attempt}.json"
        subprocess.run([sys.executable, "-c", CHILD, str(out), "check", str(VIEW), str(ORDERS)], cwd=ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found.append(json.loads(out.read_text()))
    assert found[1]["code"] in (0, None)
    assert "pbem.rulesets.fbsm.phases" in found[1]["modules"]
    assert not _loaded(set(found[1]["modules"]), "yaml")  # the view and the orders are canonical text


def test_a_check_of_a_hand_written_file_reads_it_with_pyyaml(tmp_path: Path) -> None:
    orders = tmp_path / "orders.yaml"
    orders.write_bytes(b"# my orders\n" + ORDERS.read_bytes())  # a comment: no longer canonical text
    code, modules = _run(tmp_path, "check", str(VIEW), str(orders))
    assert code in (0, None)
    assert _loaded(modules, "yaml")


def test_a_check_with_the_game_verifies_the_signature_and_so_loads_cryptography(tmp_path: Path) -> None:
    code, modules = _run(tmp_path, "check", str(VIEW), str(ORDERS), "--game", str(GAME / "game.yaml"))
    assert code in (0, None)
    assert _loaded(modules, "cryptography")


def _help(parser: argparse.ArgumentParser, command: str) -> str:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return str(action.choices[command].format_help())


@pytest.mark.parametrize("columns", ["60", "100", "200"])
def test_the_parser_of_one_command_says_what_the_parser_of_all_says(columns: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    everything = cli.build_parser()
    assert cli.build_parser([]).format_help() == everything.format_help()
    for command in cli._COMMANDS:
        alone = cli.build_parser([command, "--help"])
        action = next(a for a in alone._actions if isinstance(a, argparse._SubParsersAction))
        assert list(action.choices) == [command]
        assert _help(alone, command) == _help(everything, command)


@pytest.mark.parametrize("columns", ["60", "100", "200"])
def test_help_is_laid_out_as_argparse_s_own_formatter_lays_it_out(columns: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    ours = cli.build_parser()
    monkeypatch.setattr(cli, "_Formatter", argparse.RawDescriptionHelpFormatter)
    stock = cli.build_parser()
    assert ours.format_help() == stock.format_help()
    assert ours.format_usage() == stock.format_usage()
    for command in cli._COMMANDS:
        assert _help(ours, command) == _help(stock, command)


# What the referee's commands on a game (submit, adjudicate) import without using: `tempfile` and
# `shutil` (with `random`, `bz2`, `lzma`) for temporaries and removals, `secrets` for a new game's
# secrets, fbsm's event catalogue for a view of the state, `difflib` (a misspelt word's likely
# meaning, only for a rejection).
NOT_FOR_A_GAME_COMMAND = ("tempfile", "shutil", "random", "secrets", "bz2", "lzma", "pbem.rulesets.kit.events",
                          "pbem.rulesets.fbsm.events", "difflib")


def test_the_modules_of_submit_and_adjudicate_import_nothing_they_do_not_use() -> None:
    modules = ("pbem.cli", "pbem.core.archive", "pbem.core.game", "pbem.core.intake", "pbem.core.adjudicator",
               "pbem.rulesets.fbsm.ruleset", "pbem.rulesets.fbsm.fog")
    code = f"import sys\nimport {', '.join(modules)}\nprint(' '.join(sorted(sys.modules)))"
    found = set(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True,
                               text=True).stdout.split())
    assert set(modules) <= found
    assert [name for name in NOT_FOR_A_GAME_COMMAND if _loaded(found, name)] == []


def test_a_problem_replaced_changes_the_named_field_only() -> None:
    # `Problem.replaced` stands in for `dataclasses.replace`: it must know every field and change
    # only the named ones.
    from pbem.core.errors import Problem

    problem = Problem("m", file="f.yaml", line=3, column=4, path=("orders", 1), order=1, section="6.1", legal="x")
    changes: dict[str, Any] = {"message": "n", "file": "g.yaml", "line": 5, "column": 6, "path": ("orders", 2),
                               "order": 2, "section": "6.2", "legal": "y"}
    assert list(Problem.__slots__) == list(changes)
    for name, value in changes.items():
        changed = problem.replaced(**{name: value})
        assert changed != problem and getattr(changed, name) == value
        assert [getattr(changed, other) for other in changes if other != name] == \
            [getattr(problem, other) for other in changes if other != name]
    assert Problem("m") == Problem("m", None, None, None, (), None, None, None) and hash(Problem("m")) == hash(Problem("m"))
    with pytest.raises(TypeError):
        problem.replaced(colour="red")
    with pytest.raises(AttributeError):
        problem.message = "changed"  # type: ignore[misc]


def test_a_hexmap_replaced_changes_the_named_field_only() -> None:
    from pbem.geometry import hexmap as hexmaps

    assert list(hexmaps.HexMap.__slots__) == list(hexmaps._HEXMAP_FIELDS)
    board = hexmaps.HexMap.from_dict({"bounds": {"columns": [1, 3], "rows": [1, 2]}, "default_terrain": "clear",
                                      "assumed": True, "source": "made up for this test"})
    tried: tuple[tuple[str, Any], ...] = (("north", 1), ("default_terrain", "woods"), ("assumed", not board.assumed))
    for name, value in tried:
        changed = board.replaced(**{name: value})
        assert changed != board and getattr(changed, name) == value
        assert changed.replaced(**{name: getattr(board, name)}) == board


def test_no_dataclass_is_left_on_the_referee_s_path() -> None:
    # Each dataclass costs about 0.7 ms at import, and any one brings `dataclasses` with `inspect`,
    # `ast`, `dis` and `tokenize` (about 6 ms): the referee's one-shot commands import none.
    modules = ("pbem.cli", "pbem.core.archive", "pbem.core.game", "pbem.core.intake", "pbem.core.adjudicator",
               "pbem.rulesets.fbsm.ruleset", "pbem.rulesets.fbsm.fog", "pbem.rulesets.fbsm.board",
               "pbem.rulesets.kit.events")
    code = (f"import sys\nimport {', '.join(modules)}\n"
            "print(' '.join(sorted(f'{name}.{key}' for name, module in list(sys.modules.items())\n"
            "      if name.startswith('pbem') for key, value in vars(module).items()\n"
            "      if isinstance(value, type) and value.__module__ == name and '__dataclass_fields__' in vars(value))))\n"
            "print('dataclasses' in sys.modules, 'inspect' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True,
                           text=True).stdout.splitlines()
    assert found == ["", "False False"]
