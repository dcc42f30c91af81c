"""The repository stands alone, and its README says what a newcomer needs.

- no tracked file points to the shared folder beside the repository (the protocol lives in
  docs/protocol.md now), and every relative link in a tracked Markdown file leads to a file
  of the repository;
- the README opens with exactly the two command lines `.ci/run` runs;
- a skipped test says why (pytest's `-rs`), and the README names each test that needs a
  program besides Python, with the Debian package that brings it;
- every `pbem` command is in the README's command table.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.cli import build_parser

REPO = Path(__file__).resolve().parent.parent
OUTSIDE = ".." + "/shared"  # spelt in two pieces, so that this file does not name it itself


def tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (git ls-files failed)")
    return [REPO / name for name in listed.decode("utf-8").split("\0") if name]


def readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def test_no_tracked_file_points_outside_the_repository() -> None:
    found = []
    for path in tracked_files():
        if not path.is_file():
            continue  # deleted in the work tree, not yet committed
        data = path.read_bytes()
        if b"\0" in data[:8000]:
            continue  # binary
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
            if OUTSIDE in line:
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}")
    assert found == []


def test_generated_package_metadata_is_ignored() -> None:
    """`pip install -e .` writes pbem.egg-info (with an old README inside): git must not take it."""
    done = subprocess.run(["git", "check-ignore", "-q", "pbem.egg-info/PKG-INFO"], cwd=REPO, check=False)
    assert done.returncode == 0
    assert not [p for p in tracked_files() if ".egg-info" in str(p)]


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_relative_links_in_markdown_lead_to_files_of_the_repository() -> None:
    broken = []
    for path in tracked_files():
        if path.suffix != ".md" or not path.is_file():
            continue
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a URL, or a heading of the same file
            resolved = (path.parent / target.split("#")[0]).resolve()
            if not resolved.is_relative_to(REPO) or not resolved.exists():
                broken.append(f"{path.relative_to(REPO)}: {target}")
    assert broken == []


def test_readme_opens_with_the_two_lines_ci_runs() -> None:
    first = re.search(r"```sh\n(.*?)```", readme(), re.DOTALL)
    assert first is not None
    lines = [line for line in first.group(1).splitlines() if line.strip()]
    assert len(lines) == 2
    assert "pip install" in lines[0] and "pbem demo" in lines[0]
    assert "'.[test]'" in lines[1] and lines[1].endswith("-m pytest")
    assert "readme_line" in (REPO / ".ci" / "run").read_text()


def test_a_skipped_test_prints_its_reason(tmp_path: Path) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text("import pytest\n\n\n@pytest.mark.skipif(True, reason='needs the unobtainium tool')\n"
                     "def test_x() -> None:\n    pass\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"), "--rootdir",
                           str(tmp_path), "-p", "no:cacheprovider", str(probe)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SKIPPED" in done.stdout and "needs the unobtainium tool" in done.stdout, done.stdout


def test_the_readme_names_every_test_that_needs_a_program() -> None:
    """A test module that skips when `shutil.which` finds no program is listed in the README's table."""
    text = readme()
    section = text[text.index("## Tests that need more than Python"):]
    section = section[: section.index("\n## ", 1)]
    for package in ("openssh-client", "chromium", "dovecot-imapd"):
        assert f"`{package}`" in section
    needing = sorted(path.name for path in (REPO / "tests").glob("test_*.py")
                     if re.search(r"skipif\(", path.read_text()) and re.search(r"\bwhich\(", path.read_text()))
    assert needing  # the check itself finds the known ones
    missing = [name for name in needing if f"tests/{name}" not in section]
    assert missing == []


def commands() -> list[str]:
    parser = build_parser()
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += list(action.choices)
    return found


def test_every_pbem_command_is_in_the_readme_table() -> None:
    text = readme()
    table = text[text.index("## Commands"):]
    table = table[: table.index("\n## ", 1)]
    names = commands()
    assert {"bot", "ledger", "post", "judge", "render"} <= set(names)
    missing = [name for name in names if f"| `pbem {name}" not in table and f"/ `pbem {name}" not in table]
    assert missing == []
