"""`pbem audit` catches every kind of tampering, naming the file and the field (issue 2, Done when).

Referee-side tampering is re-signed with the referee's key before the audit runs: a
dishonest referee can always sign, so the audit must catch the lie by replay, not by
signature alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from pbem.core import chance, signing, yamlio
from pbem.core.archive import turn_rel, view_rel
from pbem.core.audit import Discrepancy, audit
from pbem.demo import DemoGame

ARCHIVED_KINDS = ("game.yaml", "scenario.yaml", "views/", "orders/", "decisions/", "turns/")


def archive_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.is_file() and not str(p.relative_to(root)).startswith(".referee"))


def resign(game: DemoGame, rel: str, edit: Callable[[dict[str, Any]], None]) -> None:
    """Edit a referee file's YAML and sign it again with the referee's own key."""
    path = game.root / rel
    doc = yamlio.load_bytes(path.read_bytes(), rel).data
    edit(doc)
    data = yamlio.dump(doc).encode()
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_text(signing.sign(data, game.referee, signing.namespace("turn", doc["game"])))


def fields(found: list[Discrepancy], file: str) -> list[str]:
    return [item.field for item in found if item.file == file]


def test_bot_game_passes_audit(finished_duel: DemoGame) -> None:
    assert audit(finished_duel.root) == []
    assert len(list((finished_duel.root / "turns").iterdir())) >= 2


def test_every_flipped_byte_is_caught(finished_duel: DemoGame) -> None:
    root = finished_duel.root
    files = archive_files(root)
    assert len(files) > 20
    for rel in files:
        path = root / rel
        original = path.read_bytes()
        for position in (0, len(original) // 2, len(original) - 2):
            flipped = bytearray(original)
            flipped[position] ^= 0x01
            path.write_bytes(bytes(flipped))
            found = audit(root)
            path.write_bytes(original)
            assert found, f"flipping byte {position} of {rel} went unnoticed"
            named = rel[:-4] if rel.endswith(".sig") else rel
            assert any(named in item.file or named in item.message for item in found), (rel, found[:3])
    assert audit(root) == []


def test_orders_swapped_for_another_validly_signed_file(finished_duel: DemoGame) -> None:
    root = finished_duel.root
    first = root / "orders/0002/red-0001.yaml"
    other = root / "orders/0003/red-0001.yaml"
    for suffix in ("", ".sig"):
        Path(str(first) + suffix).write_bytes(Path(str(other) + suffix).read_bytes())
    found = audit(root)
    assert "orders[0].hash" in fields(found, turn_rel(2))


def test_replaced_seed_is_caught(finished_duel: DemoGame) -> None:
    resign(finished_duel, turn_rel(2), lambda t: t["dice"].__setitem__("seed", "ab" * 32))
    found = audit(finished_duel.root)
    assert "dice.seed" in fields(found, turn_rel(2))


def test_edited_roll_value_is_caught(finished_duel: DemoGame) -> None:
    def edit(turn: dict[str, Any]) -> None:
        roll = turn["dice"]["rolls"][0]
        roll["value"] = (roll["value"] + 1) % roll["n"]

    resign(finished_duel, turn_rel(2), edit)
    found = audit(finished_duel.root)
    assert "dice.rolls[0].value" in fields(found, turn_rel(2))


def test_edited_state_value_is_caught(finished_duel: DemoGame) -> None:
    def edit(turn: dict[str, Any]) -> None:
        turn["state"]["hq"]["blue"]["strength"] += 5
        turn["state_sha256"] = chance.state_hash(turn["state"])  # a careful liar fixes the hash too

    resign(finished_duel, turn_rel(2), edit)
    found = audit(finished_duel.root)
    assert any(f.startswith("state.hq.blue.strength") for f in fields(found, turn_rel(2))), found


def test_state_hash_mismatch_is_caught(finished_duel: DemoGame) -> None:
    resign(finished_duel, turn_rel(1), lambda t: t.__setitem__("state_sha256", "sha256:" + "0" * 64))
    assert "state_sha256" in fields(audit(finished_duel.root), turn_rel(1))


def test_two_turn_files_swapped(finished_duel: DemoGame) -> None:
    root = finished_duel.root
    for suffix in ("", ".sig"):
        a, b = root / (turn_rel(2) + suffix), root / (turn_rel(3) + suffix)
        data_a, data_b = a.read_bytes(), b.read_bytes()
        a.write_bytes(data_b)
        b.write_bytes(data_a)
    found = audit(root)
    assert {"seq", "previous"} <= set(fields(found, turn_rel(2))), found


def test_view_showing_hidden_unit_is_caught(finished_duel: DemoGame) -> None:
    root = finished_duel.root
    master = yamlio.load_bytes((root / turn_rel(1)).read_bytes(), "t").data
    red_cell = master["state"]["hq"]["red"]["cell"]
    resign(finished_duel, view_rel(1, "blue"), lambda v: v["state"]["enemy"].__setitem__("cell", red_cell))
    found = audit(root)
    assert fields(found, view_rel(1, "blue")), found
    assert all("not the filter" in d.message for d in found if d.file == view_rel(1, "blue"))


def test_referee_dropping_submitted_orders_is_caught(finished_duel: DemoGame) -> None:
    def drop(turn: dict[str, Any]) -> None:
        turn["orders"][1] = {"side": "blue", "status": "missing"}

    resign(finished_duel, turn_rel(2), drop)
    found = audit(finished_duel.root)
    assert any("treats it as missing" in d.message for d in found), found


def test_forged_orders_by_referee_are_caught(finished_duel: DemoGame) -> None:
    """The referee cannot write orders for a side: it does not hold that side's key."""
    root = finished_duel.root
    path = root / "orders/0002/blue-0002.yaml"
    doc = yamlio.load_bytes(path.read_bytes(), "o").data
    doc["orders"] = [{"fire": 1}]
    data = yamlio.dump(doc).encode()
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_text(signing.sign(data, finished_duel.referee,
                                                               signing.namespace("orders", doc["game"])))
    found = audit(root)
    assert "signature" in fields(found, "orders/0002/blue-0002.yaml")


@pytest.mark.parametrize("seq", [1, 2])
def test_views_rebuild_byte_for_byte(finished_duel: DemoGame, seq: int) -> None:
    """The audit's view check is real: a re-signed but reformatted view is still flagged."""
    rel = view_rel(seq, "red")
    resign(finished_duel, rel, lambda v: v["events"].append({"type": "note"}))
    assert fields(audit(finished_duel.root), rel)


def test_a_version_1_archive_still_audits_under_version_1() -> None:
    # Recorded before protocol version 2 (restricted rolls from the phase seed, no receipts,
    # no deadlines): it must keep auditing by the rules it was played under.
    import tests.conftest  # noqa: F401  (the duel fixture ruleset)
    from pbem.core.audit import audit_report

    fixture = Path(__file__).resolve().parent / "fixtures" / "v1-duel"
    report = audit_report(fixture)
    assert report.found == []
    assert report.summary.startswith("7 adjudications verified; the game is over")

