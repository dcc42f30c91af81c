"""Adding a game the way docs/writing-a-ruleset.md says, and nothing more, gives a working game.

The `duel` fixture (tests/rulesets/duel.py) is added as a new game `duet` in a temporary folder
laid out like this checkout: its package (what pbem/rulesets/<id>/ holds), tests/duet/ (case files
and sections.yaml), samples/duet/ (scenario, seed file, recorded game) and docs/duet.md. It is made
known without editing any file of pbem: by `PBEM_RULESETS=duet=duelpkg:Duel` (the package on
PYTHONPATH), by an installed entry point in the group `pbem.rulesets`, and, in this process, by
the one registry line (`BUILTIN`) that a game shipped inside pbem adds. Then the command line
gives its schemas, a bot game plays to the end and audits, the recording step of the doc gives a
sample that replays byte for byte, and the checks this suite runs on every shipped game (case
files, section lists and citations, samples) pass on it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from pbem.core import ruleset
from pbem.core.cases import run_case_file
from pbem.core.schemafiles import exported_schemas

from .layout import ROOT, case_files, doc_page, sample_folder, sections
from .test_cases import file_name_problems, worked_example_problems
from .test_samples import replay_problems, sample_problems
from .test_sections_cited import miscited_cases, uncited_sections

NEW_ID = "duet"  # not "duel": tests/conftest.py registers the fixture itself under that id in this process
PACKAGE = "duelpkg"
TARGET = f"{PACKAGE}:Duel"
FIXTURE = ROOT / "tests" / "rulesets" / "duel.py"

SECTIONS = """\
# Every rule of the duel fixture's own text (its module docstring), which numbers none: labels.
ruleset: duet
sections:
  - {section: "D1", title: deployment}
  - {section: "S1", title: scouting}
  - {section: "F1", title: fire}
  - {section: "F2", title: not at your own HQ}
  - {section: "F3", title: stand or shift when hit}
  - {section: "V1", title: victory}
"""

CASES = {
    "D1-deploy-off-the-board.yaml": """\
case: "D1: a headquarters is placed on one of the cells"
rule: "D1"
scenario: samples/duet/scenario.yaml
orders: {side: red, orders: [{place: hq, cell: 9}]}
expect:
  accepted: false
  errors: [{rule: "D1", side: red, order: 0, message: off the board}]
""",
    "F2-no-fire-at-own-hq.yaml": """\
case: "F2: a side may not fire at the cell its own headquarters holds"
rule: "F2"
scenario: samples/duet/scenario.yaml
state:
  phase: fire
  turn: 1
  last_turn: 6
  cells: 5
  hq: {red: {cell: 2, strength: 2}, blue: {cell: 4, strength: 2}}
  intel: {red: null, blue: null}
orders: {side: red, orders: [{fire: 2}]}
expect:
  accepted: false
  errors: [{rule: "F2", order: 0}]
  other_errors: false
""",
    "F3-a-hit-headquarters-stands.yaml": """\
case: "F3: a hit headquarters whose owner stands loses one strength"
rule: "F3"
scenario: samples/duet/scenario.yaml
state:
  phase: fire
  turn: 1
  last_turn: 6
  cells: 5
  hq: {red: {cell: 2, strength: 2}, blue: {cell: 4, strength: 2}}
  intel: {red: null, blue: null}
standing: {blue: {when_hit: stand}}
orders: {side: red, orders: [{fire: 4}]}
dice: [5]
expect:
  accepted: true
  state: {hq: {blue: {cell: 4, strength: 1}}, phase: scout, turn: 2}
  events: [{type: fire, side: red, hit: true}, {type: loss, side: blue, strength: 1}]
  rolls: 1
""",
}

SCENARIO = """\
pbem: 1
kind: scenario
ruleset: duet
title: Duet on five cells
setup:
  cells: 5
  turns: 6
"""

DOC = """\
# Duet

The duel fixture added as a game of its own, to prove the steps of docs/writing-a-ruleset.md.
Its text numbers no sections, so they are labelled: deployment (D1), scouting (S1), fire (F1),
no fire at one's own headquarters (F2), standing or shifting when hit (F3), victory (V1).
"""


def the_package(lib: Path) -> Path:
    """Step 1: the ruleset's package (in the checkout: pbem/rulesets/<id>/), its class in ruleset.py."""
    package = lib / PACKAGE
    package.mkdir(parents=True)
    source = FIXTURE.read_text(encoding="utf-8")
    source, count = re.subn(r'^    id = "duel"$', f'    id = "{NEW_ID}"', source, flags=re.M)
    assert count == 1, "tests/rulesets/duel.py no longer declares `id = \"duel\"`"
    (package / "ruleset.py").write_text(source, encoding="utf-8")
    (package / "__init__.py").write_text('"""Duet: the duel fixture as a game."""\n\nfrom .ruleset import Duel\n\n'
                                         '__all__ = ["Duel"]\n', encoding="utf-8")
    return package


def the_entry_point(lib: Path) -> None:
    """What `pip install` of a separate distribution declaring `[project.entry-points."pbem.rulesets"]` leaves."""
    info = lib / f"{PACKAGE}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[pbem.rulesets]\n{NEW_ID} = {TARGET}\n", encoding="utf-8")


def the_tests(root: Path) -> None:
    """Step 2: tests/<id>/, its case files and its sections.yaml."""
    folder = root / "tests" / NEW_ID
    folder.mkdir(parents=True)
    (folder / "sections.yaml").write_text(SECTIONS, encoding="utf-8")
    for name, text in CASES.items():
        (folder / name).write_text(text, encoding="utf-8")


def the_sample_scenario(root: Path) -> None:
    """Step 3, first half: samples/<id>/scenario.yaml and seed.txt (the game is recorded later)."""
    folder = sample_folder(root, NEW_ID)
    folder.mkdir(parents=True)
    (folder / "scenario.yaml").write_text(SCENARIO, encoding="utf-8")
    (folder / "seed.txt").write_text("pbem sample game: duet\n", encoding="utf-8")


def the_page(root: Path) -> None:
    """Step 4: docs/<id>.md."""
    doc_page(root, NEW_ID).parent.mkdir(parents=True)
    doc_page(root, NEW_ID).write_text(DOC, encoding="utf-8")


def pbem(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`pbem ARGS` in a fresh process that knows the new game only through `env` (never conftest's registration)."""
    full = {k: v for k, v in os.environ.items() if k != "PBEM_RULESETS"}
    for key, value in (env or {}).items():
        full[key] = os.pathsep.join([value, os.environ["PYTHONPATH"]]) if key == "PYTHONPATH" and os.environ.get(
            "PYTHONPATH") else value
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, cwd=root, env=full,
                          timeout=300)


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The new game's files, laid out as the doc says (lib/ stands for where its package is importable)."""
    root = tmp_path_factory.mktemp("house")
    the_package(root / "lib")
    the_tests(root)
    the_sample_scenario(root)
    the_page(root)
    return root


def by_env(root: Path) -> dict[str, str]:
    return {"PYTHONPATH": str(root / "lib"), "PBEM_RULESETS": f"{NEW_ID}={TARGET}"}


@pytest.fixture(scope="module")
def recorded(house: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Step 3, second half: the sample game recorded with `pbem demo`, copied as the doc says."""
    folder = sample_folder(house, NEW_ID)
    new = tmp_path_factory.mktemp("recording") / "new"
    done = pbem(house, "demo", NEW_ID, "--scenario", str(folder / "scenario.yaml"), "--seed-file",
                str(folder / "seed.txt"), "--dir", str(new), env=by_env(house))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "audit: OK" in done.stdout, done.stdout
    shutil.copytree(new / "game", folder / "game", ignore=shutil.ignore_patterns(".referee"))
    shutil.copytree(new / "pictures", folder / "pictures")
    return house


@pytest.fixture()
def in_process(house: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """This process knows the new game by the registry line a shipped game adds (`BUILTIN`)."""
    monkeypatch.syspath_prepend(str(house / "lib"))
    monkeypatch.setitem(ruleset.BUILTIN, NEW_ID, TARGET)
    yield house
    ruleset._loaded.pop(NEW_ID, None)
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def test_the_doc_says_exactly_what_this_test_does() -> None:
    """The doc's list of places is these four folders and the registry line; its commands are the ones used here."""
    doc = (ROOT / "docs" / "writing-a-ruleset.md").read_text(encoding="utf-8")
    table = doc.split("## What adding a game touches", 1)[1].split("\n\n")[2]
    places = re.findall(r"^\| (.+?) \|", table, flags=re.M)[1:]  # below the heading row
    assert places == ["`pbem/rulesets/<id>/`", "`tests/<id>/`", "`samples/<id>/`", "`docs/<id>.md`",
                      "one line of `BUILTIN` in `pbem/core/ruleset.py`"]
    for command in ("pbem demo <id> --seed-file samples/<id>/seed.txt --dir /tmp/new",
                    "cp -r /tmp/new/game samples/<id>/game && rm -rf samples/<id>/game/.referee",
                    "cp -r /tmp/new/pictures samples/<id>/pictures", "pbem schema --export schemas",
                    "PBEM_RULESETS=<id>=", '[project.entry-points."pbem.rulesets"]', "`sections.yaml`",
                    "`data/tables.yaml`", "`picture.py`", "`events.py`"):
        assert command in doc, command


def test_nothing_of_it_is_in_the_checkout() -> None:
    assert NEW_ID not in ruleset.available()
    for path in (ROOT / "tests" / NEW_ID, sample_folder(ROOT, NEW_ID), doc_page(ROOT, NEW_ID),
                 ROOT / "pbem" / "rulesets" / NEW_ID):
        assert not path.exists(), path


def test_unknown_until_made_known(house: Path) -> None:
    done = pbem(house, "schema", "orders", "--ruleset", NEW_ID, env={"PYTHONPATH": str(house / "lib")})
    assert done.returncode != 0
    assert f"unknown ruleset {NEW_ID!r}" in done.stderr


def test_the_schemas_by_the_environment(house: Path) -> None:
    done = pbem(house, "schema", "orders", "--ruleset", NEW_ID, env=by_env(house))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["properties"]["phase"] == {"enum": ["deploy", "scout", "fire"]}
    done = pbem(house, "schema", "scenario", "--ruleset", NEW_ID, env=by_env(house))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["properties"]["ruleset"] == {"const": NEW_ID}


def test_the_schemas_by_an_entry_point(house: Path, tmp_path: Path) -> None:
    lib = tmp_path / "installed"
    shutil.copytree(house / "lib", lib)
    the_entry_point(lib)
    done = pbem(house, "schema", "orders", "--ruleset", NEW_ID, env={"PYTHONPATH": str(lib)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["properties"]["phase"] == {"enum": ["deploy", "scout", "fire"]}


def test_a_bot_game_plays_to_the_end_and_audits(house: Path, tmp_path: Path) -> None:
    scenario = sample_folder(house, NEW_ID) / "scenario.yaml"
    done = pbem(house, "demo", NEW_ID, "--scenario", str(scenario), "--dir", str(tmp_path / "demo"), env=by_env(house))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "game over after" in done.stdout and "audit: OK" in done.stdout, done.stdout
    assert (tmp_path / "demo" / "game" / "game.yaml").is_file()


def test_its_case_files_run_on_the_command_line(house: Path) -> None:
    files = [str(p) for p in case_files(house, NEW_ID)]
    assert len(files) == len(CASES), "sections.yaml is not a case file"
    done = pbem(house, "case", "run", *files, env=by_env(house))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASS") == len(CASES), done.stdout


def test_the_registry_lists_it(in_process: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert NEW_ID in ruleset.shipped() and NEW_ID in ruleset.available()
    assert ruleset.get(NEW_ID).title == "Duel (core test fixture)"
    monkeypatch.delitem(ruleset.BUILTIN, NEW_ID)
    ruleset._loaded.pop(NEW_ID, None)
    assert NEW_ID not in ruleset.available()
    monkeypatch.setenv("PBEM_RULESETS", f"{NEW_ID}={TARGET}")
    assert NEW_ID in ruleset.available() and NEW_ID not in ruleset.shipped()


def test_its_case_files_pass_the_core_case_runner(in_process: Path) -> None:
    outcomes = [run_case_file(path) for path in case_files(in_process, NEW_ID)]
    assert [str(o) for o in outcomes if not o.passed] == []
    assert len(outcomes) == len(CASES)


def test_the_checks_every_shipped_game_meets(in_process: Path) -> None:
    """What test_cases.py and test_sections_cited.py ask of each shipped game, asked of this one."""
    package = in_process / "lib" / PACKAGE
    assert sections(in_process, NEW_ID) == ["D1", "S1", "F1", "F2", "F3", "V1"]
    assert file_name_problems(case_files(in_process, NEW_ID)) == []
    assert worked_example_problems(in_process, NEW_ID) == []
    assert uncited_sections(NEW_ID, package, in_process) == []
    assert miscited_cases(NEW_ID, in_process) == []


def test_the_recorded_sample_audits_and_replays(recorded: Path, in_process: Path, tmp_path: Path) -> None:
    """What test_samples.py asks of each shipped game: the recording step of the doc gives exactly that."""
    assert sample_problems(recorded, NEW_ID) == []
    assert replay_problems(recorded, NEW_ID, tmp_path) == []
    assert sorted(p.suffix for p in (sample_folder(recorded, NEW_ID) / "pictures").iterdir()) == [".txt", ".txt"]


def test_a_shipped_game_adds_its_two_schemas_to_the_export(in_process: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one generated change outside the game's folders: `pbem schema --export schemas` writes these."""
    monkeypatch.setattr(ruleset, "BUILTIN", {NEW_ID: TARGET})  # the new game alone: the others are not at issue
    assert sorted(name for name in exported_schemas() if name.count(".") == 2) == [f"orders.{NEW_ID}.json",
                                                                                   f"scenario.{NEW_ID}.json"]
