"""The miniatures games ship their table twice: in samples/ for readers, in the package for scenarios.

A scenario reads no file outside the package, so each ruleset keeps its own copy as package data;
the two must say the same thing, or the sample folder would describe a table nobody plays on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import yamlio

ROOT = Path(__file__).resolve().parent.parent
COPIES = [
    (ROOT / "samples" / "bst" / "table.yaml", ROOT / "pbem" / "rulesets" / "bst" / "data" / "village.yaml"),
    (ROOT / "samples" / "wtj1916" / "table.yaml", ROOT / "pbem" / "rulesets" / "wtj1916" / "data" / "table.yaml"),
]


@pytest.mark.parametrize("sample,packaged", COPIES, ids=["bst", "wtj1916"])
def test_the_packaged_table_is_the_sample_table(sample: Path, packaged: Path) -> None:
    assert yamlio.load_file(sample).data == yamlio.load_file(packaged).data
