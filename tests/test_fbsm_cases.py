"""Every FBSM case file (tests/fbsm/*.yaml) must pass `pbem case run`."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.cases import load_case, run_case_file

CASES = sorted((Path(__file__).parent / "fbsm").glob("*.yaml"))


def test_there_are_cases() -> None:
    assert len(CASES) >= 100


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    outcome = run_case_file(path)
    assert outcome.passed, str(outcome)


def test_every_worked_example_is_marked() -> None:
    examples = [p for p in CASES if load_case(p).data.get("source", "").startswith("rulebook example")]
    sections = {load_case(p).data["rule"] for p in examples}
    for section in ("2.2", "3.6", "10.3", "10.6", "10.8", "10.9", "10.10", "11.3"):
        assert section in sections, section


def test_pbem_case_run_cli() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    files = [str(p) for p in CASES if p.name.startswith(("10.03-", "11.03-german-drift"))]
    done = subprocess.run([sys.executable, "-m", "pbem", "case", "run", *files], capture_output=True, text=True,
                          cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASS") == len(files)
