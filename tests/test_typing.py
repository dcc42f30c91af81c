"""mypy stays clean: the whole package type-checks in strict mode with the settings of pyproject.toml
([tool.mypy]). mypy is in the `test` extra, so this test always runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    # No file arguments: `files` in the config says what to check. The cache lives in pytest's
    # tmp, so runs never share (or race on) a cache in the checkout.
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "pyproject.toml",
                           "--cache-dir", str(tmp_path / "mypy-cache")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        pytest.fail(f"mypy exited {done.returncode}:\n{output}", pytrace=False)
    checked = re.search(r"no issues found in (\d+) source files?", output)
    assert checked, output
    modules = len(list((ROOT / "pbem").rglob("*.py")))
    assert int(checked.group(1)) == modules, f"mypy checked {checked.group(1)} files, pbem has {modules}:\n{output}"
