"""Every case file of every shipped ruleset (tests/<id>/*.yaml but sections.yaml) passes `pbem case run`.

The rulesets come from the core's registry (`pbem.core.ruleset.shipped()`), so a new game's cases
run here as soon as it is registered; a shipped ruleset without case files fails. The worked
examples the rulebook prints are marked in tests/<id>/sections.yaml (`example: true`), and each
has its case file (`source: rulebook example <section>`).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core import ruleset
from pbem.core.cases import load_case, run_case_file

from .layout import NUMBER, ROOT, case_files, case_folder, section_entries

SHIPPED = ruleset.shipped()
CASES = [(ruleset_id, path) for ruleset_id in SHIPPED for path in case_files(ROOT, ruleset_id)]
EXAMPLE = re.compile(r"rulebook example ([A-Z]*\d+(?:\.\d+)*)")


def file_name_problems(paths: list[Path]) -> list[str]:
    """Case files whose name does not start with their section, two digits a part (`09.04-...`)."""
    wrong = []
    for path in paths:
        rule = str(load_case(path).data["rule"])
        prefix = ".".join(f"{int(part):02d}" for part in rule.split(".")) if NUMBER.fullmatch(rule) else rule
        if not path.name.startswith(prefix + "-"):
            wrong.append(f"{path.name}: rule {rule!r}, so the name starts {prefix}-")
    return wrong


def worked_example_problems(root: Path, ruleset_id: str) -> list[str]:
    """Sections marked `example: true` with no case marked as that example, and example cases of unmarked ones."""
    marked = {str(e["section"]) for e in section_entries(root, ruleset_id) if e.get("example")}
    found: dict[str, list[str]] = {}
    for path in case_files(root, ruleset_id):
        match = EXAMPLE.match(str(load_case(path).data.get("source", "")))
        if match:
            found.setdefault(match.group(1), []).append(path.name)
    problems = [f"{n}: marked `example: true` but no case says `source: rulebook example {n}`"
                for n in sorted(marked - set(found))]
    problems += [f"{n}: {', '.join(found[n])} say(s) `rulebook example {n}`, not marked `example: true`"
                 for n in sorted(set(found) - marked)]
    return problems


def test_the_registry_ships_rulesets() -> None:
    assert SHIPPED, "no shipped ruleset found"


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_shipped_ruleset_has_case_files(ruleset_id: str) -> None:
    assert case_folder(ROOT, ruleset_id).is_dir(), f"shipped ruleset {ruleset_id!r} has no tests/{ruleset_id}/"
    assert case_files(ROOT, ruleset_id), f"no case files in tests/{ruleset_id}/"


@pytest.mark.parametrize("path", [path for _, path in CASES], ids=[f"{r}/{p.stem}" for r, p in CASES])
def test_case(path: Path) -> None:
    outcome = run_case_file(path)
    assert outcome.passed, str(outcome)


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_case_files_are_named_by_their_section(ruleset_id: str) -> None:
    wrong = file_name_problems(case_files(ROOT, ruleset_id))
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_worked_example_is_there(ruleset_id: str) -> None:
    problems = worked_example_problems(ROOT, ruleset_id)
    assert not problems, f"tests/{ruleset_id}/:\n" + "\n".join(problems)


def test_pbem_case_run_cli() -> None:
    """The command line runs case files of every shipped game (the first and last of each), exit 0."""
    files = [str(p) for r in SHIPPED for p in {case_files(ROOT, r)[0], case_files(ROOT, r)[-1]}]
    done = subprocess.run([sys.executable, "-m", "pbem", "case", "run", *sorted(files)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASS") == len(files)
