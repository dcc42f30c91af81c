"""Every numbered section of a shipped game's rulebook is cited somewhere: in its ruleset's code or
data (pbem/rulesets/<id>/) or in its page (docs/<id>.md). A section with nothing to adjudicate is
cited too, by a doc line saying so, and one not adjudicated yet by a line saying that.

The sections are listed in tests/sections/<id>.yaml, taken from the rulebook by hand. Case files
(tests/<id>/*.yaml) may cite only those numbers, or one of the project's non-numbered tags.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core import ruleset, yamlio

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ROOT / "tests" / "sections"
NUMBER = re.compile(r"\d+\.\d+")
# Problems the core raises outside any rule section carry these instead of a number
# (pbem/core: section="scenario", "schema", and the protocol's "docs/protocol.md §4").
TAGS = ("scenario", "schema")
SEARCHED = (".py", ".yaml", ".json", ".md")  # the ruleset's code and packaged data


def sections(ruleset_id: str) -> list[str]:
    data = yamlio.load_file(SECTIONS / f"{ruleset_id}.yaml").data
    assert data["ruleset"] == ruleset_id
    numbers = [str(entry["section"]) for entry in data["sections"]]
    assert all(NUMBER.fullmatch(n) for n in numbers), [n for n in numbers if not NUMBER.fullmatch(n)]
    assert len(numbers) == len(set(numbers)), "a section is listed twice"
    return numbers


def cites(number: str) -> re.Pattern[str]:
    """The number as a whole token: 9.4 is not cited by 9.40, 19.4, 9.4.1 or 1.9.4; "9.4." ends a sentence."""
    return re.compile(rf"(?<![\d.]){re.escape(number)}(?!\d|\.\d)")


def citing_text(ruleset_id: str) -> str:
    package = ROOT / "pbem" / "rulesets" / ruleset_id
    files = sorted(p for p in package.rglob("*") if p.is_file() and p.suffix in SEARCHED)
    files.append(ROOT / "docs" / f"{ruleset_id}.md")
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def case_citations(data: dict[str, Any]) -> list[str]:
    """The sections a case file names: its `rule` and the `rule` of every expected error."""
    found = [data.get("rule")]
    expect = data.get("expect") or {}
    found += [error.get("rule") for error in expect.get("errors") or []]
    return [str(r) for r in found if r is not None]


def is_tag(citation: str) -> bool:
    return citation in TAGS or citation.startswith("docs/")


def test_the_citation_pattern() -> None:
    pattern = cites("9.4")
    assert pattern.search("see 9.4, then") and pattern.search("(9.4)") and pattern.search("ends 9.4.")
    assert pattern.search("`9.4`") and pattern.search("9.4-9.6") and pattern.search('rule: "9.4"')
    for other in ("9.40", "19.4", "9.41", "9.4.1", "1.9.4", "29.4"):
        assert not pattern.search(other), other


def test_every_shipped_ruleset_lists_its_sections() -> None:
    shipped = ruleset.shipped()
    assert shipped, "no shipped ruleset found"
    missing = [r for r in shipped if not (SECTIONS / f"{r}.yaml").is_file()]
    assert not missing, f"shipped rulesets without tests/sections/<id>.yaml: {missing}"
    unknown = sorted(p.stem for p in SECTIONS.glob("*.yaml") if p.stem not in shipped)
    assert not unknown, f"section lists for rulesets that are not shipped: {unknown}"


@pytest.mark.parametrize("ruleset_id", ruleset.shipped())
def test_every_section_is_cited(ruleset_id: str) -> None:
    text = citing_text(ruleset_id)
    uncited = [n for n in sections(ruleset_id) if not cites(n).search(text)]
    assert not uncited, (f"{ruleset_id}: {len(uncited)} section(s) cited nowhere in pbem/rulesets/{ruleset_id}/ "
                         f"or docs/{ruleset_id}.md: {', '.join(uncited)}")


@pytest.mark.parametrize("ruleset_id", ruleset.shipped())
def test_case_files_cite_existing_sections(ruleset_id: str) -> None:
    known = set(sections(ruleset_id))
    cases = sorted((ROOT / "tests" / ruleset_id).glob("*.yaml"))
    assert cases, f"no case files in tests/{ruleset_id}/"
    wrong = []
    for path in cases:
        for citation in case_citations(yamlio.load_file(path).data):
            if citation not in known and not is_tag(citation):
                wrong.append(f"{path.name}: {citation!r}")
    assert not wrong, f"{ruleset_id}: case files citing no section of the rulebook:\n" + "\n".join(wrong)
