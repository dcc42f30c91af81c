"""Fuzzing the intake with mutated, signed decision replies (issue 7, "Fuzzing").

The duel game of tests/test_hostile_input.py stopped on red's F3 decision; a valid reply to it
is mutated (data and bytes, see tests/test_fuzz_orders.py) and signed again (or not). Each
submission ends in a clean `PbemError` rejection with the archive unchanged, or an acceptance
after which the adjudication goes on (committing a turn that audits, or asking the next
decision) or stops with a `PbemError`. Never any other exception.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core import yamlio
from tests.test_fuzz_orders import FUZZ, examples, mutated, sign_somehow, try_submission
from tests.test_hostile_input import Table, deployed, make_table, predict_rolls, reply, request_hash

NAMESPACE = "pbem-orders@demo-duel"


@pytest.fixture(scope="module")
def waiting(tmp_path_factory: pytest.TempPathFactory) -> tuple[Table, Path]:
    """Adjudication 2 waits for red's F3 decision (as `decision_table` in test_hostile_input)."""
    work = tmp_path_factory.mktemp("duel")
    table = deployed(make_table(work))
    red = table.orders("red", [{"fire": 5}])
    table.accept("red", "red-2.yaml", red)
    for _ in range(200):
        blue = table.orders("blue", [{"fire": 3}])
        if predict_rolls(table.root, 2, {"red": red, "blue": blue}, 6, 2)[1] >= 3:
            break
    table.accept("blue", "blue-2.yaml", blue)
    assert "waits for a decision from red" in table.adjudicate().out
    pristine = work / "pristine"
    shutil.copytree(table.root, pristine)
    return table, pristine


def test_the_unmutated_reply_is_accepted(waiting: tuple[Table, Path]) -> None:
    table, pristine = waiting
    data = reply("red", request_hash(table), "stand")
    sig = sign_somehow(lambda _: "good", data, table.key("red"), NAMESPACE)
    assert try_submission(table.root, pristine, table.mail, data, sig, table.game.referee) == "accepted+adjudicated"


@settings(FUZZ, max_examples=examples(150))
@given(data=st.data())
def test_mutated_replies_are_refused_cleanly_or_valid(waiting: tuple[Table, Path], data: st.DataObject) -> None:
    table, pristine = waiting
    answer = data.draw(st.sampled_from(["stand", "shift-left", "shift-right"]))
    valid = reply("red", request_hash(table), answer)
    body = data.draw(mutated(yamlio.load_bytes(valid, "reply.yaml").data, valid))
    signer = data.draw(st.sampled_from(["red", "red", "red", "blue", "referee"]))
    sig = sign_somehow(data.draw, body, table.key(signer), NAMESPACE)
    try_submission(table.root, pristine, table.mail, body, sig, table.game.referee)
