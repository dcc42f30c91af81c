"""The audit's quick check of receipts (issue #17) finds exactly what the field-by-field check finds."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from pbem.core import signing
from pbem.core.archive import receipt_rel
from pbem.core.audit import Auditor, Discrepancy, audit
from pbem.demo import DemoGame
from tests.test_audit import resign


def slow_audit(root: Path) -> list[Discrepancy]:
    """The audit with every receipt parsed and checked field by field (as before the quick check)."""
    auditor = Auditor(root)
    auditor.quick_receipt = lambda *args: None  # type: ignore[method-assign]
    return auditor.run()


def first_receipt(root: Path) -> str:
    found = sorted(str(path.relative_to(root)) for path in (root / "orders").rglob("*.receipt.yaml"))
    assert found, "the duel game keeps receipts (protocol version 2)"
    return found[0]


def test_every_sound_receipt_is_taken_the_quick_way(finished_duel: DemoGame, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    original = Auditor.parse

    def counting(self: Auditor, rel: str, data: bytes, kind: str) -> Any:
        parsed.append(rel)
        return original(self, rel, data, kind)

    monkeypatch.setattr(Auditor, "parse", counting)
    assert audit(finished_duel.root) == []
    assert [rel for rel in parsed if rel.endswith(".receipt.yaml")] == []


TAMPERINGS: dict[str, Callable[[dict[str, Any]], None]] = {
    "received not a time": lambda r: r.__setitem__("received", "soon"),
    "number": lambda r: r.__setitem__("number", r["number"] + 1),
    "hash": lambda r: r.__setitem__("hash", "sha256:" + "0" * 64),
    "replaces": lambda r: r.__setitem__("replaces", "sha256:" + "1" * 64),
    "side": lambda r: r.__setitem__("side", "blue" if r["side"] != "blue" else "red"),
    "file": lambda r: r.__setitem__("file", r["file"].replace(".yaml", "-x.yaml")),
    "request": lambda r: r.__setitem__("request", "sha256:" + "2" * 64),
    "extra key": lambda r: r.__setitem__("note", "hello"),
    "missing key": lambda r: r.pop("replaces"),
    "protocol": lambda r: r.__setitem__("pbem", 1),
}


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_a_tampered_receipt_gets_exactly_the_field_checks_findings(finished_duel: DemoGame, name: str) -> None:
    root = finished_duel.root
    rel = receipt_rel(first_receipt(root).removesuffix(".receipt.yaml") + ".yaml")
    resign(finished_duel, rel, TAMPERINGS[name])
    found = audit(root)
    assert any(item.file == rel for item in found), f"{name}: not caught"
    assert found == slow_audit(root)


def test_a_receipt_in_another_layout_is_read_the_strict_way(finished_duel: DemoGame) -> None:
    """The same fields in another order, signed by the referee: not the bytes the referee writes, so
    parsed and checked field by field (where its layout alone is no discrepancy)."""
    root = finished_duel.root
    rel = first_receipt(root)
    path = root / rel
    lines = path.read_bytes().splitlines(keepends=True)
    data = b"".join(reversed(lines))  # a flat mapping: one key a line
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_text(
        signing.sign(data, finished_duel.referee, signing.namespace("turn", "demo-duel")))
    parsed: list[str] = []
    auditor = Auditor(root)
    original = auditor.parse

    def counting(file: str, data: bytes, kind: str) -> dict[str, Any] | None:
        parsed.append(file)
        return original(file, data, kind)

    auditor.parse = counting  # type: ignore[method-assign,assignment]
    assert auditor.run() == slow_audit(root) == []
    assert parsed.count(rel) == 1
