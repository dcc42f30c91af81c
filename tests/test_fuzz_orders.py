"""Fuzzing the intake with mutated, signed fbsm and toc orders files (issue 7, "Fuzzing").

A valid orders file is made by the bot from a real view, then mutated: on the data (delete a
key, change a value's type, insert a key, reorder keys) or on the bytes (flip, truncate, insert,
swap lines), and signed again (or not, or with a damaged signature). Each submission must end in
a clean `PbemError` rejection with the archive byte for byte unchanged, or an acceptance after
which the adjudication either commits a turn that passes the audit or stops with a `PbemError`.
Never any other exception.
"""

from __future__ import annotations

import copy
import os
from collections import Counter
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core import signing, yamlio
from pbem.core.adjudicator import adjudicate
from pbem.core.audit import audit
from pbem.core.errors import PbemError
from pbem.core.game import load_game
from pbem.core.intake import submit
from pbem.core.players import orders_document, read_view
from pbem.core.position import current_position
from tests.test_cli_lifecycle import assert_unchanged, snapshot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from _common import play_bot_game  # noqa: E402

# PBEM_FUZZ_SCALE=10 runs ten times the examples, with fresh random ones (bug hunting); unset, the
# runs are modest and the same every time.
SCALE = float(os.environ.get("PBEM_FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    return max(1, int(n * SCALE))


FUZZ = settings(max_examples=examples(80), deadline=None, derandomize="PBEM_FUZZ_SCALE" not in os.environ,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])

OUTCOMES: Counter[str] = Counter()  # what the fuzzing runs ended in (to see that both kinds happen)

VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.integers(10**18, 10**40),
                   st.text(max_size=12), st.floats(allow_nan=False, allow_infinity=False),
                   st.lists(st.integers(0, 9), max_size=3),
                   st.dictionaries(st.text(max_size=6), st.integers(0, 9), max_size=2))


def paths_of(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += paths_of(sub, path + (key,))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            found += paths_of(sub, path + (i,))
    return found


def at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


@st.composite
def mutated(draw: st.DrawFn, doc: dict[str, Any], data: bytes) -> bytes:
    """`doc` (whose canonical bytes are `data`) changed in one to three ways, as file bytes."""
    kind = draw(st.sampled_from(["data", "data", "bytes"]))
    if kind == "data":
        doc = copy.deepcopy(doc)
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(paths_of(doc)))
            op = draw(st.sampled_from(["delete", "retype", "insert", "reorder"]))
            if not path:
                op = "insert" if op in ("delete", "retype") else op
            if op == "delete":
                parent = at(doc, path[:-1])
                del parent[path[-1]]
            elif op == "retype":
                at(doc, path[:-1])[path[-1]] = draw(VALUES)
            else:
                target = at(doc, path)
                if op == "insert" and isinstance(target, dict):
                    target[draw(st.sampled_from(["orders", "side", "extra", "seq", "hex", "x", ""]))] = draw(VALUES)
                elif op == "insert" and isinstance(target, list):
                    target.insert(draw(st.integers(0, len(target))), draw(VALUES))
                elif op == "reorder" and isinstance(target, dict):
                    items = list(target.items())
                    target.clear()
                    target.update(reversed(items))
                elif op == "reorder" and isinstance(target, list):
                    target.reverse()
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True).encode("utf-8")
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["flip", "truncate", "insert", "swap-lines", "delete-line"]))
        if op == "flip" and out:
            i = draw(st.integers(0, len(out) - 1))
            out[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "truncate":
            del out[draw(st.integers(0, len(out))):]
        elif op == "insert":
            i = draw(st.integers(0, len(out)))
            out[i:i] = draw(st.sampled_from([b"\n", b": ", b"- ", b"  ", b"{", b"&a ", b"*a", b"!!str ", b"\xff",
                                             b"\x00", b"'", b'"', b"1.5", b"0x1F", b"<<: {}", b"\t"]))
        else:
            lines = bytes(out).split(b"\n")
            if len(lines) > 2:
                i = draw(st.integers(0, len(lines) - 2))
                if op == "swap-lines":
                    lines[i], lines[i + 1] = lines[i + 1], lines[i]
                else:
                    del lines[i]
                out = bytearray(b"\n".join(lines))
    return bytes(out)


def sign_somehow(draw: st.DrawFn, data: bytes, key: signing.SigningKey, namespace: str) -> str:
    how = draw(st.sampled_from(["good", "good", "good", "damaged", "none"]))
    if how == "none":
        return ""
    sig = signing.sign(data, key, namespace)
    if how == "damaged":
        i = draw(st.integers(0, len(sig) - 1))
        sig = sig[:i] + draw(st.sampled_from(["A", "", "\n", "=", "é"])) + sig[i + 1:]
    return sig


def try_submission(root: Path, pristine: Path, mail: Path, data: bytes, sig: str, referee: signing.SigningKey) -> str:
    """Submit; check the contract; put the archive back as it was. Returns what happened."""
    path = mail / "fuzz.yaml"
    path.write_bytes(data)
    sig_path = mail / "fuzz.yaml.sig"
    if sig:
        sig_path.write_text(sig, encoding="utf-8")
    elif sig_path.exists():
        sig_path.unlink()
    before = snapshot(root)
    result = submit(root, path, referee_key=referee)  # anything but a PbemError propagates and fails the test
    for error in result.errors:
        assert isinstance(error, PbemError)
        assert str(error)
    if not result.receipts:
        assert result.errors
        assert_unchanged(before, root)
        OUTCOMES["rejected"] += 1
        return "rejected"
    try:
        report = adjudicate(root, referee)
        if report.committed:
            assert audit(root) == [], "an accepted file led to an archive that does not audit"
        outcome = "accepted+adjudicated"
    except PbemError:
        outcome = "accepted, adjudication refused"
    shutil.rmtree(root)
    shutil.copytree(pristine, root)
    OUTCOMES[outcome] += 1
    return outcome


class Place:
    """A game at one point, with a valid unsubmitted orders file for the awaited side."""

    def __init__(self, ruleset_id: str, work: Path, rounds: int) -> None:
        self.game = play_bot_game(ruleset_id, work / "w", rounds=rounds)
        self.root = self.game.root
        self.pristine = work / "pristine"
        shutil.copytree(self.root, self.pristine)
        self.mail = work / "mail"
        self.mail.mkdir()
        game = load_game(self.root)
        self.side = current_position(game).awaiting()[0]
        self.namespace = game.orders_namespace()
        view = read_view(self.game.latest_view(self.side))
        orders = view.rules.bot_orders(view.doc["state"], self.side, b"fuzz" * 8)
        self.doc = orders_document(view, orders, entropy=b"e" * 32, salt=b"s" * 32)
        self.data = yamlio.dump(self.doc).encode("utf-8")


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Place]:
    # toc: the first German entry (8.x, march mode) and, 9 exchanges on, a British player turn (5.3)
    return {"fbsm-setup": Place("fbsm", tmp_path_factory.mktemp("setup"), 0),
            "fbsm-turn": Place("fbsm", tmp_path_factory.mktemp("turn"), 14),
            "toc-entry": Place("toc", tmp_path_factory.mktemp("toc-entry"), 0),
            "toc-turn": Place("toc", tmp_path_factory.mktemp("toc-turn"), 9)}


def test_the_unmutated_files_are_accepted(places: dict[str, Place]) -> None:
    for place in places.values():
        sig = signing.sign(place.data, place.game.players[place.side], place.namespace)
        assert try_submission(place.root, place.pristine, place.mail, place.data, sig,
                              place.game.referee) == "accepted+adjudicated"


@pytest.mark.parametrize("where", ["fbsm-setup", "fbsm-turn", "toc-entry", "toc-turn"])
@FUZZ
@given(data=st.data())
def test_mutated_orders_are_refused_cleanly_or_valid(places: dict[str, Place], where: str, data: st.DataObject) -> None:
    place = places[where]
    body = data.draw(mutated(place.doc, place.data))
    signer = data.draw(st.sampled_from([place.side, place.side, place.side, "referee", "other"]))
    key = (place.game.referee if signer == "referee" else
           place.game.players[next(s for s in place.game.players if s != place.side)] if signer == "other" else
           place.game.players[place.side])
    sig = sign_somehow(data.draw, body, key, place.namespace)
    try_submission(place.root, place.pristine, place.mail, body, sig, place.game.referee)
