"""Every file kind has a valid draft 2020-12 schema, and the published `schemas/` folder is current.

`schemas/` holds the core kinds plus the orders and scenario schemas of every shipped ruleset (the
core's registry, `pbem.core.ruleset.shipped()`), all written by `pbem schema --export schemas`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.core import ruleset, schemas, yamlio
from pbem.core.errors import SchemaError
from pbem.core.schemafiles import KINDS, exported_schemas, load_schema, orders_schema, schema_for

PUBLISHED = Path(__file__).resolve().parent.parent / "schemas"


@pytest.mark.parametrize("kind", KINDS)
def test_core_schema_is_valid(kind: str) -> None:
    schemas.check_schema(load_schema(kind))


def test_published_schemas_match_the_package() -> None:
    expected = exported_schemas()
    found = {p.name: p.read_text(encoding="utf-8") for p in PUBLISHED.glob("*.json")}
    stale = sorted(name for name in found if name not in expected)
    missing = sorted(name for name in expected if name not in found)
    differ = sorted(name for name in expected if name in found and found[name] != expected[name])
    assert (stale, missing, differ) == ([], [], []), "run: pbem schema --export schemas"


def test_the_export_follows_the_registry(tmp_path: Path) -> None:
    """One orders and one scenario schema per shipped ruleset, no other; `--export` writes exactly those."""
    per_ruleset = sorted(name for name in exported_schemas() if name.count(".") == 2)
    assert per_ruleset == sorted(f"{kind}.{r}.json" for r in ruleset.shipped() for kind in ("orders", "scenario"))
    assert sorted(name for name in exported_schemas() if name.count(".") == 1) == sorted(f"{k}.json" for k in KINDS)
    assert main(["schema", "--export", str(tmp_path)]) == 0
    written = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()}
    assert written == exported_schemas()


def test_orders_schema_composes_ruleset_phase() -> None:
    duel = ruleset.get("duel")
    schemas.check_schema(orders_schema(duel))
    doc = yamlio.load_bytes(b"pbem: 1\nkind: orders\ngame: abc\nseq: 1\nside: red\nphase: fire\nack: sha256:"
                            + b"0" * 64 + b"\nentropy: '" + b"1" * 64 + b"'\nsalt: '" + b"2" * 64 + b"'\norders:\n- {place: hq, cell: 2}\n", "o.yaml")
    with pytest.raises(SchemaError) as caught:
        schemas.validate(doc, schema_for("orders", duel))
    assert "o.yaml:11:" in str(caught.value)
    assert "entropy" not in str(caught.value)


def test_schema_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "turn"]) == 0
    assert '"title": "pbem turn file' in capsys.readouterr().out
    assert main(["schema", "nonsense"]) == 2
