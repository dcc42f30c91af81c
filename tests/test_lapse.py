"""Decision requests whose deadline passes unanswered: the rules' default, in a signed lapse file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import chance, signing, yamlio
from pbem.core.archive import Archive
from pbem.core.audit import audit
from pbem.demo import setup_demo
from tests.test_cli_lifecycle import run
from tests.test_hostile_input import Table, TwoAsks, reply

REQUEST = "decisions/0001/request-000.yaml"
LAPSE = "decisions/0001/lapse-000.yaml"


def asking_table(tmp_path: Path) -> Table:
    """Adjudication 1 waits for blue's retreat (options left, right)."""
    scenario = tmp_path / "two.yaml"
    scenario.write_text("pbem: 1\nkind: scenario\nruleset: two-asks\ntitle: two asks\nsetup: {}\n")
    table = Table(setup_demo(TwoAsks.id, scenario, tmp_path / "work", say=lambda _: None), tmp_path / "mail")
    table.mail.mkdir()
    table.accept("red", "red.yaml", table.orders("red", []))
    table.accept("blue", "blue.yaml", table.orders("blue", []))
    assert "decision from blue" in table.adjudicate().out
    return table


AFTER_EVERY_DEADLINE = "2099-01-01T00:00:00Z"


def lapse(table: Table, when: str = AFTER_EVERY_DEADLINE) -> str:
    """`pbem adjudicate --lapse` at `when` (a request lapses only once its deadline has passed)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_NOW", when)
        result = run("adjudicate", table.root, "--lapse", "--key", table.root.parent / "keys" / "referee")
    assert result.rc == 0, result.text
    return result.out


def test_a_lapsed_request_takes_its_first_option_and_the_game_goes_on(tmp_path: Path) -> None:
    table = asking_table(tmp_path)
    out = lapse(table)
    assert "decision from red" in out  # blue's retreat lapsed to "left"; red is asked next
    doc = yamlio.load_file(table.root / LAPSE).data
    assert (doc["side"], doc["index"], doc["answer"]) == ("blue", 0, "left")
    assert doc["request"] == chance.file_hash((table.root / REQUEST).read_bytes())
    second = yamlio.load_file(table.root / "decisions/0001/request-001.yaml").data
    assert second["question"] == {"blue_went": "left"}
    assert not (table.root / "decisions/0001/lapse-001.yaml").exists()  # red's request is new: not lapsed
    red_request = chance.file_hash((table.root / "decisions/0001/request-001.yaml").read_bytes())
    table.accept("red", "stay.yaml", reply("red", red_request, "stay", seq=1, game=table.game_id))
    assert "adjudication 1 done" in table.adjudicate().out
    turn = yamlio.load_file(table.root / "turns/0001/turn.yaml").data
    assert [entry["reply"] for entry in turn["decisions"]] == [LAPSE, "decisions/0001/reply-001-0003.yaml"]
    assert turn["state"]["log"] == ["left", "stay"]
    assert audit(table.root) == []


def test_a_reply_after_the_lapse_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    table = asking_table(tmp_path)
    lapse(table)
    first = chance.file_hash((table.root / REQUEST).read_bytes())
    late = table.file("late.yaml", reply("blue", first, "right", seq=1, game=table.game_id), "blue")
    table.refused(late, "deadline for decision 0 passed", "'left'")


def test_the_audit_refuses_a_lapse_that_does_not_apply_the_first_option(tmp_path: Path) -> None:
    table = asking_table(tmp_path)
    lapse(table)
    red_request = chance.file_hash((table.root / "decisions/0001/request-001.yaml").read_bytes())
    table.accept("red", "stay.yaml", reply("red", red_request, "stay", seq=1, game=table.game_id))
    table.adjudicate()
    assert audit(table.root) == []
    forged = yamlio.load_file(table.root / LAPSE).data
    forged["answer"] = "right"  # the referee re-signs a lapse that picks another option
    data = yamlio.dump(forged).encode("utf-8")
    (table.root / LAPSE).write_bytes(data)
    (table.root / (LAPSE + ".sig")).write_text(signing.sign(data, table.game.referee, f"pbem-turn@{table.game_id}"))
    found = [str(item) for item in audit(table.root)]
    assert any("first option" in item and "lapse-000" in item for item in found), found


def test_lapse_leaves_answered_requests_alone(tmp_path: Path) -> None:
    table = asking_table(tmp_path)
    first = chance.file_hash((table.root / REQUEST).read_bytes())
    table.accept("blue", "right.yaml", reply("blue", first, "right", seq=1, game=table.game_id))
    assert "decision from red" in table.adjudicate().out
    lapse(table)  # red's request lapses; blue's answer stands
    archive = Archive(table.root)
    assert [index for index, _ in archive.decision_lapses(1)] == [1]
    turn = yamlio.load_file(table.root / "turns/0001/turn.yaml").data
    assert turn["state"]["log"] == ["right", "pursue-right"]
    assert audit(table.root) == []


def test_a_differently_spelled_copy_of_a_request_counts_for_nothing(tmp_path: Path) -> None:
    """request-0000.yaml is not request-000.yaml: a re-signed copy with other options cannot steer a lapse."""
    table = asking_table(tmp_path)
    forged = yamlio.load_file(table.root / REQUEST).data
    forged["options"] = ["right", "left"]
    data = yamlio.dump(forged).encode("utf-8")
    copy = table.root / "decisions/0001/request-0000.yaml"
    copy.write_bytes(data)
    copy.with_name(copy.name + ".sig").write_text(signing.sign(data, table.game.referee, f"pbem-turn@{table.game_id}"))
    assert [rel for _, rel in Archive(table.root).decision_requests(1)] == [REQUEST]
    lapse(table)
    assert yamlio.load_file(table.root / LAPSE).data["answer"] == "left"


def test_a_question_without_options_is_a_ruleset_bug_not_a_request() -> None:
    import pytest

    from pbem.core.errors import PbemError
    from pbem.core.ruleset import Decisions

    with pytest.raises(PbemError, match="no option to choose"):
        Decisions().ask("blue", "retreat", "X1", {}, [])


def test_the_audit_checks_a_pending_lapse_too(tmp_path: Path) -> None:
    """Before the adjudication ends, a lapse that applies another option is already a discrepancy."""
    table = asking_table(tmp_path)
    lapse(table)  # blue's request lapsed; red's request is out: seq 1 is still pending
    assert audit(table.root) == []
    forged = yamlio.load_file(table.root / LAPSE).data
    forged["answer"] = "right"
    data = yamlio.dump(forged).encode("utf-8")
    (table.root / LAPSE).write_bytes(data)
    (table.root / (LAPSE + ".sig")).write_text(signing.sign(data, table.game.referee, f"pbem-turn@{table.game_id}"))
    assert any("first option" in str(item) for item in audit(table.root))


def test_a_request_does_not_lapse_before_its_deadline(tmp_path: Path) -> None:
    table = asking_table(tmp_path)
    deadline = yamlio.load_file(table.root / REQUEST).data["deadline"]
    out = lapse(table, when=deadline)  # at the deadline itself the side may still answer
    assert not (table.root / LAPSE).exists()
    assert "decision from blue" in out
    assert "decision from red" in lapse(table)  # once past it, the request lapses


def test_the_audit_refuses_a_lapse_dated_before_the_deadline(tmp_path: Path) -> None:
    # A referee who lapses a request the moment it is sent picks the answer: the audit names it.
    table = asking_table(tmp_path)
    lapse(table)
    assert audit(table.root) == []
    forged = yamlio.load_file(table.root / LAPSE).data
    forged["lapsed_at"] = "2000-01-01T00:00:00Z"  # long before the request's deadline
    data = yamlio.dump(forged).encode("utf-8")
    (table.root / LAPSE).write_bytes(data)
    (table.root / (LAPSE + ".sig")).write_text(signing.sign(data, table.game.referee, f"pbem-turn@{table.game_id}"))
    found = [str(item) for item in audit(table.root)]
    assert any("before the request's deadline" in item for item in found), found
