"""Where a ruleset's own files live outside its package (docs/writing-a-ruleset.md), for the tests.

`tests/<id>/` holds the ruleset's case files plus `sections.yaml`, its list of rule sections;
`samples/<id>/` its sample scenario, seed file, recorded game and pictures; `docs/<id>.md` its
page. The generic tests (test_cases, test_sections_cited, test_samples) read every shipped
ruleset through these helpers, and tests/test_adding_a_ruleset.py points them at a new game laid
out the same way in a temporary folder.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pbem.core import yamlio

ROOT = Path(__file__).resolve().parent.parent
SECTIONS_FILE = "sections.yaml"  # the one YAML file in tests/<id>/ that is not a case file
SECTION_KEYS = {"section", "title", "chart", "example"}
NUMBER = re.compile(r"\d+(\.\d+)+")  # a rulebook's section: 10.3 (a chapter with text of its own: 12.0)
LABEL = re.compile(r"[A-Z]+\d+")  # a section of a text that numbers none, by a label of the project's: D1


def case_folder(root: Path, ruleset_id: str) -> Path:
    return root / "tests" / ruleset_id


def case_files(root: Path, ruleset_id: str) -> list[Path]:
    """The ruleset's case files: every tests/<id>/*.yaml but sections.yaml, in name order."""
    return sorted(p for p in case_folder(root, ruleset_id).glob("*.yaml") if p.name != SECTIONS_FILE)


def sections_file(root: Path, ruleset_id: str) -> Path:
    return case_folder(root, ruleset_id) / SECTIONS_FILE


def section_entries(root: Path, ruleset_id: str) -> list[dict[str, Any]]:
    """The entries of tests/<id>/sections.yaml, checked for shape: `{section, title, chart?, example?}`."""
    data = yamlio.load_file(sections_file(root, ruleset_id)).data
    assert data["ruleset"] == ruleset_id, f"{sections_file(root, ruleset_id)} names ruleset {data['ruleset']!r}"
    entries: list[dict[str, Any]] = list(data["sections"])
    odd = [entry for entry in entries if not set(entry) <= SECTION_KEYS or "section" not in entry]
    assert not odd, f"section entries with keys other than {sorted(SECTION_KEYS)}: {odd}"
    numbers = [str(entry["section"]) for entry in entries]
    odd_numbers = [n for n in numbers if not (NUMBER.fullmatch(n) or LABEL.fullmatch(n))]
    assert not odd_numbers, f"sections neither numbered like 10.3 nor labelled like D1: {odd_numbers}"
    assert len(numbers) == len(set(numbers)), "a section is listed twice"
    return entries


def sections(root: Path, ruleset_id: str) -> list[str]:
    """The section numbers tests/<id>/sections.yaml lists, in its order."""
    return [str(entry["section"]) for entry in section_entries(root, ruleset_id)]


def sample_folder(root: Path, ruleset_id: str) -> Path:
    return root / "samples" / ruleset_id


def doc_page(root: Path, ruleset_id: str) -> Path:
    return root / "docs" / f"{ruleset_id}.md"
