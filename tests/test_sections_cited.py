"""Every numbered section of a shipped game's rulebook is cited somewhere: in its ruleset's code or
data (pbem/rulesets/<id>/) or in its page (docs/<id>.md). A section with nothing to adjudicate is
cited too, by a doc line saying so, and one not adjudicated yet by a line saying that.

The sections are listed in tests/<id>/sections.yaml, taken from the rulebook by hand (the one
YAML file there that is not a case file). Case files (tests/<id>/*.yaml) may cite only those
numbers, or one of the project's non-numbered tags.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core import ruleset, yamlio

from .layout import ROOT, case_files, doc_page, sections, sections_file

# Problems the core raises outside any rule section carry these instead of a number
# (pbem/core: section="scenario", "schema", and the protocol's "docs/protocol.md §4").
TAGS = ("scenario", "schema")
SEARCHED = (".py", ".yaml", ".json", ".md")  # the ruleset's code and packaged data


def cites(number: str) -> re.Pattern[str]:
    """The number as a whole token: 9.4 is not cited by 9.40, 19.4, 9.4.1 or 1.9.4; "9.4." ends a sentence.

    A label (D1) likewise: not cited by D10, AD1 or D1.2."""
    before = r"(?<![\w.])" if number[:1].isalpha() else r"(?<![\d.])"
    return re.compile(rf"{before}{re.escape(number)}(?!\d|\.\d)")


def citing_text(ruleset_id: str, package: Path, root: Path = ROOT) -> str:
    """The ruleset package's code and data, and its page docs/<id>.md, as one text."""
    files = sorted(p for p in package.rglob("*") if p.is_file() and p.suffix in SEARCHED)
    files.append(doc_page(root, ruleset_id))
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def case_citations(data: dict[str, Any]) -> list[str]:
    """The sections a case file names: its `rule` and the `rule` of every expected error."""
    found = [data.get("rule")]
    expect = data.get("expect") or {}
    found += [error.get("rule") for error in expect.get("errors") or []]
    return [str(r) for r in found if r is not None]


def is_tag(citation: str) -> bool:
    return citation in TAGS or citation.startswith("docs/")


def uncited_sections(ruleset_id: str, package: Path, root: Path = ROOT) -> list[str]:
    text = citing_text(ruleset_id, package, root)
    return [n for n in sections(root, ruleset_id) if not cites(n).search(text)]


def miscited_cases(ruleset_id: str, root: Path = ROOT) -> list[str]:
    known = set(sections(root, ruleset_id))
    wrong = []
    for path in case_files(root, ruleset_id):
        for citation in case_citations(yamlio.load_file(path).data):
            if citation not in known and not is_tag(citation):
                wrong.append(f"{path.name}: {citation!r}")
    return wrong


def test_the_citation_pattern() -> None:
    pattern = cites("9.4")
    assert pattern.search("see 9.4, then") and pattern.search("(9.4)") and pattern.search("ends 9.4.")
    assert pattern.search("`9.4`") and pattern.search("9.4-9.6") and pattern.search('rule: "9.4"')
    for other in ("9.40", "19.4", "9.41", "9.4.1", "1.9.4", "29.4"):
        assert not pattern.search(other), other
    label = cites("D1")
    assert label.search("(D1)") and label.search("see D1, then") and label.search('rule: "D1"')
    for other in ("D10", "AD1", "D1.2", "xD1"):
        assert not label.search(other), other


def test_every_shipped_ruleset_lists_its_sections() -> None:
    shipped = ruleset.shipped()
    assert shipped, "no shipped ruleset found"
    missing = [r for r in shipped if not sections_file(ROOT, r).is_file()]
    assert not missing, f"shipped rulesets without tests/<id>/sections.yaml: {missing}"
    unknown = sorted(p.parent.name for p in (ROOT / "tests").glob("*/sections.yaml") if p.parent.name not in shipped)
    assert not unknown, f"section lists for rulesets that are not shipped: {unknown}"


@pytest.mark.parametrize("ruleset_id", ruleset.shipped())
def test_shipped_rulesets_live_in_their_folder(ruleset_id: str) -> None:
    """The registry line names a class of pbem/rulesets/<id>/, where the citations are looked for."""
    module = ruleset.BUILTIN[ruleset_id].partition(":")[0]
    assert module == f"pbem.rulesets.{ruleset_id}" or module.startswith(f"pbem.rulesets.{ruleset_id}."), module


@pytest.mark.parametrize("ruleset_id", ruleset.shipped())
def test_every_section_is_cited(ruleset_id: str) -> None:
    uncited = uncited_sections(ruleset_id, ROOT / "pbem" / "rulesets" / ruleset_id)
    assert not uncited, (f"{ruleset_id}: {len(uncited)} section(s) cited nowhere in pbem/rulesets/{ruleset_id}/ "
                         f"or docs/{ruleset_id}.md: {', '.join(uncited)}")


@pytest.mark.parametrize("ruleset_id", ruleset.shipped())
def test_case_files_cite_existing_sections(ruleset_id: str) -> None:
    assert case_files(ROOT, ruleset_id), f"no case files in tests/{ruleset_id}/"
    wrong = miscited_cases(ruleset_id)
    assert not wrong, f"{ruleset_id}: case files citing no section of the rulebook:\n" + "\n".join(wrong)
