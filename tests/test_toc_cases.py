"""Every ToC case file (tests/toc/*.yaml) must pass `pbem case run`; the rulebook's examples are all there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core import ruleset
from pbem.core.cases import load_case, run_case_file

ruleset.register("toc", "pbem.rulesets.toc:Toc")

CASES = sorted((Path(__file__).parent / "toc").glob("*.yaml"))
ROOT = Path(__file__).resolve().parent.parent


def test_there_are_cases() -> None:
    assert len(CASES) >= 100


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    outcome = run_case_file(path)
    assert outcome.passed, str(outcome)


def test_every_worked_example_is_there() -> None:
    examples = [p for p in CASES if load_case(p).data.get("source", "").startswith("rulebook example")]
    sections = {load_case(p).data["rule"] for p in examples}
    for section in ("4.3", "4.5", "7.2", "10.2", "10.4", "10.7", "10.8", "11.4", "12.3", "12.7", "12.8", "12.9",
                    "12.11"):
        assert section in sections, section


def test_every_case_names_a_rule_section() -> None:
    for path in CASES:
        section = load_case(path).data["rule"]
        major = int(section.split(".")[0])
        assert 2 <= major <= 13, path.name
        assert path.name.startswith(f"{major:02d}."), path.name


def test_pbem_case_run_cli() -> None:
    files = [str(p) for p in CASES if p.name.startswith(("07.02-", "10.04-"))]
    env = {"PBEM_RULESETS": "toc=pbem.rulesets.toc:Toc", "PATH": "/usr/bin:/bin"}
    import os

    env.update({k: v for k, v in os.environ.items() if k not in env})
    done = subprocess.run([sys.executable, "-m", "pbem", "case", "run", *files], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASS") == len(files)
