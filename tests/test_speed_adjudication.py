"""Issue #17: the adjudication's quicker ways give exactly what the slower ones gave.

`canonical_copy` (the adjudicator's `plain_copy` before) copies exactly plain data in one pass
instead of through canonical JSON; the standing answers of the orders are merged into a canonical
state keeping it canonical, so the phases need no second canonical copy; fbsm's default entry hex
judges every hex empty of own units once; the archive reads a file in a few system calls and
tells seq folders by their names without a regex; the sweep for temporaries lists each folder
once and passes over the folders no interrupted write can have left one in. Each is compared
with the way it was done before, on the recorded fbsm game and on hand-made corners.
"""

from __future__ import annotations

import collections
import copy
import enum
import json
from pathlib import Path
from typing import Any

import pytest

from pbem.core import chance, yamlio
from pbem.core.adjudicator import AcceptedOrders, _with_standing
from pbem.core.errors import PbemError
from pbem.core.plaincopy import canonical_copy, copy_plain
from pbem.core.ruleset import STANDING_KEY

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "fbsm" / "game" / "turns"


def through_json(value: Any) -> Any:
    return json.loads(chance.canonical_json(value))


def same(a: Any, b: Any) -> bool:
    """Equal with the same key order and the same exact types all the way down."""
    return json.dumps(a) == json.dumps(b) and repr(a) == repr(b)


def recorded_turns() -> list[dict[str, Any]]:
    folders = sorted(SAMPLE.iterdir())[::9]
    return [yamlio.load_bytes((f / "turn.yaml").read_bytes(), "turn.yaml").data for f in folders]


def shuffled(value: Any) -> Any:
    """The same data with every map's keys in reverse order."""
    if type(value) is dict:
        return {key: shuffled(value[key]) for key in reversed(list(value))}
    if type(value) is list:
        return [shuffled(item) for item in value]
    return value


@pytest.mark.parametrize("turn", recorded_turns())
def test_canonical_copy_is_the_json_round_trip_on_recorded_turns(turn: dict[str, Any]) -> None:
    for value in (turn, turn["state"], turn["events"], shuffled(turn)):
        copied = canonical_copy(value)
        assert same(copied, through_json(value))
        assert copied is not value
        assert same(copy_plain(value), value)


class Color(enum.IntEnum):
    RED = 1


class Text(str):
    pass


@pytest.mark.parametrize("value", [
    {"b": True, "a": [1, None, "x"], "c": {"z": 0, "y": -5}},
    {"n": 10**40, "s": "Bodø ünïcode", "é": "key not ascii"},
    {"a": Color.RED, "b": collections.OrderedDict(y=1, x=2), "c": Text("t")},  # subclasses: accepted, made plain
    [], {}, "", 0, None, False,
])
def test_canonical_copy_matches_json_for_plain_and_subclassed_data(value: Any) -> None:
    assert same(canonical_copy(value), through_json(value))


@pytest.mark.parametrize("value, message", [
    ({"a": {"b": [1, 2.5]}}, "state.a.b[1]: floats are not allowed"),
    ({"a": (1, 2)}, "state.a: tuple is not plain data"),
    ({"a": {1: "x"}}, "state.a: key 1 is not a string"),
    ({"a": {"x", "y"}}, "state.a: set is not plain data"),
])
def test_canonical_copy_refuses_what_it_refused(value: Any, message: str) -> None:
    before = copy.deepcopy(value)
    with pytest.raises(PbemError, match=message.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        canonical_copy(value)
    assert value == before


def test_a_lone_surrogate_fails_as_in_canonical_json() -> None:
    for value in ({"a": "x\ud800"}, {"\udfff": 1}):
        with pytest.raises(UnicodeEncodeError):
            chance.canonical_json(value)
        with pytest.raises(UnicodeEncodeError):
            canonical_copy(value)


def merged_the_old_way(state: dict[str, Any], accepted: dict[str, Any]) -> dict[str, Any]:
    """How resolution merged standing answers before: into a canonical copy, then a canonical copy again."""
    state = canonical_copy(state)
    standing = state.setdefault(STANDING_KEY, {})
    for side, orders in accepted.items():
        standing.setdefault(side, {}).update(orders.standing)
    result: dict[str, Any] = canonical_copy(state)
    return result


def orders_with(side: str, standing: dict[str, Any]) -> AcceptedOrders:
    return AcceptedOrders(side, f"orders/0001/{side}-0001.yaml", b"", "00" * 32, [], standing)


@pytest.mark.parametrize("turn", recorded_turns())
def test_standing_merge_keeps_the_state_canonical(turn: dict[str, Any]) -> None:
    without_block = {key: value for key, value in turn["state"].items() if key != STANDING_KEY}
    for state in (turn["state"], shuffled(turn["state"]), without_block, {}):
        for accepted in ({}, {"us": orders_with("us", {})},
                         {"german": orders_with("german", {"zz": [1, {"b": 2, "a": None}], "a": "x"}),
                          "us": orders_with("us", {"retreat": "ask"})}):
            expected = merged_the_old_way(state, accepted)
            assert same(_with_standing(canonical_copy(state), accepted), expected)


def test_standing_merge_refuses_a_float_as_the_phase_copy_did() -> None:
    with pytest.raises(PbemError, match=r"state\.standing\.us\.x: floats are not allowed"):
        _with_standing(canonical_copy({"units": {}}), {"us": orders_with("us", {"x": 0.5})})


def test_default_entry_hex_matches_judging_every_hex() -> None:
    from pbem.rulesets.fbsm import reinforcements
    from pbem.rulesets.fbsm.board import Board, fits
    from pbem.rulesets.fbsm.ruleset import Fbsm
    from pbem.core.ruleset import bind

    def every_hex(cfg: Any, board: Board, kind: str, uid: str) -> str | None:
        best = None
        for rank, hex_id in enumerate(reinforcements.open_entries(cfg, board, kind)):
            if fits(cfg, board, uid, hex_id):
                key = (board.ff(hex_id), rank)
                if best is None or key < best[0]:
                    best = (key, hex_id)
        return best[1] if best else None

    checked = 0
    for turn in recorded_turns():
        state = turn["state"]
        rules = bind(Fbsm(), state.get("setup"))
        cfg = rules.context
        board = Board.from_state(cfg, state, "german")
        waiting = [uid for uid, unit in state["units"].items()
                   if cfg.counters[uid].side == "german" and unit["status"] != "active"]
        for kind in reinforcements.KIND_SECTION:
            for uid in waiting:
                assert reinforcements.default_hex(cfg, board, kind, uid) == every_hex(cfg, board, kind, uid)
                checked += 1
    assert checked > 50


def test_sweep_removes_what_os_walk_found_and_nothing_else(tmp_path: Path) -> None:
    from pbem.core.archive import TMP_PREFIX, Archive

    root = tmp_path / "game"
    outside = tmp_path / "outside"
    (outside / f"{TMP_PREFIX}kept").mkdir(parents=True)
    keep = [root / "game.yaml", root / "orders" / "0003" / "us-0001.yaml", root / "turns" / "0002" / f"{TMP_PREFIX}x",
            root / "decisions" / "0004" / "request-1.yaml"]
    gone = [root / f"{TMP_PREFIX}a", root / "orders" / "0003" / f"{TMP_PREFIX}b", root / "turns" / f"{TMP_PREFIX}c" / "turn.yaml",
            root / "decisions" / "0004" / f"{TMP_PREFIX}d" / "deep" / "e"]
    for path in keep + gone:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    (root / "linked").symlink_to(outside, target_is_directory=True)  # not entered
    Archive(root).sweep_temporaries()
    assert all(path.exists() for path in keep)  # a committed turn folder is not looked into
    assert not any(path.exists() for path in gone)
    assert not (root / "turns" / f"{TMP_PREFIX}c").exists() and not (root / "decisions" / "0004" / f"{TMP_PREFIX}d").exists()
    assert (outside / f"{TMP_PREFIX}kept").is_dir()


@pytest.mark.parametrize("name", ["0000", "0001", "0042", "1234", "9999", "10000", "01234", "00001", "123", "12345678",
                                  "0x12", "12a4", "１２３４", "١٢٣٤", "²³⁴⁵", " 1234", "1234\n", "", "-123", "+1234"])
def test_seq_names_are_the_regex_and_canonical_rule(name: str) -> None:
    from pbem.core.archive import _COMMITTED_TURN, _canonical, _is_seq_name

    assert _is_seq_name(name) == bool(_COMMITTED_TURN.fullmatch(name) and _canonical(name, 4))


def test_quick_read_gives_the_checked_reads_answer(tmp_path: Path) -> None:
    """Every file the quick read passes over is read (or refused) by the step-by-step read, word for word."""
    import os

    from pbem.core.archive import Archive, _read_inside
    from pbem.core.errors import ArchiveError

    root = tmp_path / "game"
    outside = tmp_path / "outside"
    (root / "turns" / "0001").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.yaml").write_bytes(b"secret")
    (root / "turns" / "0001" / "turn.yaml").write_bytes(b"turn")
    (root / "big.yaml").write_bytes(b"x" * 100)
    (root / "link.yaml").symlink_to(outside / "secret.yaml")
    (root / "inner-link.yaml").symlink_to(root / "big.yaml")
    (root / "out").symlink_to(outside, target_is_directory=True)
    (root / "in").symlink_to(root / "turns", target_is_directory=True)
    os.mkfifo(root / "pipe.yaml")
    (tmp_path / "beside.yaml").write_bytes(b"beside")

    def answer(read: Any, rel: str, limit: int) -> Any:
        try:
            return read(rel, limit)
        except ArchiveError as error:
            return str(error)

    archive = Archive(root)
    cases = ["turns/0001/turn.yaml", "big.yaml", "link.yaml", "inner-link.yaml", "out/secret.yaml", "in/0001/turn.yaml",
             "pipe.yaml", "turns", "missing.yaml", "../beside.yaml", "turns/../big.yaml", str(tmp_path / "beside.yaml")]
    quick_hits = 0
    for rel in cases:
        for limit in (10, 1000):
            quick = _read_inside(os.path.join(root, rel), str(root.resolve()), limit)
            checked = answer(Archive(root)._read_checked, rel, limit)
            assert answer(archive.read, rel, limit) == checked
            if quick is not None:
                quick_hits += 1
                assert quick == checked
    assert quick_hits == 6  # turn.yaml and in/0001/turn.yaml at both limits, big.yaml and turns/../big.yaml at 1000


def test_sweep_leaves_the_folders_of_committed_seqs_alone(tmp_path: Path) -> None:
    """Only the last command can have left a temporary, and it wrote only into the seq under way."""
    from pbem.core.archive import TMP_PREFIX, Archive

    root = tmp_path / "game"
    (root / "turns" / "0003").mkdir(parents=True)
    (root / "game.yaml").write_bytes(b"x")
    closed = [root / "orders" / "0002" / f"{TMP_PREFIX}a", root / "decisions" / "0003" / f"{TMP_PREFIX}b" / "c"]
    open_ = [root / "orders" / "0004" / f"{TMP_PREFIX}d", root / "decisions" / "0004" / f"{TMP_PREFIX}e" / "f",
             root / "orders" / f"{TMP_PREFIX}g", root / "orders" / "odd" / f"{TMP_PREFIX}h", root / f"{TMP_PREFIX}i"]
    for path in closed + open_:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    archive = Archive(root)
    assert archive.latest_seq() == 3
    archive.sweep_temporaries()
    assert all(path.exists() for path in closed)
    assert not any(path.exists() for path in open_)
    assert not (root / "decisions" / "0004" / f"{TMP_PREFIX}e").exists()
    Archive(root).sweep_temporaries(latest=1)  # as the command that wrote into seq 2 and 3 would have swept
    assert not (root / "orders" / "0002" / f"{TMP_PREFIX}a").exists()
    assert not (root / "decisions" / "0003" / f"{TMP_PREFIX}b").exists()


# --- commit_folder through kept descriptors, fsyncs on threads and the calling one (#17) ----------


def record_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Every file or folder `os.fsync` is called on from now, as (device, inode), in order (fsyncs still made)."""
    import os

    synced: list[tuple[int, int]] = []
    real_fsync = os.fsync

    def recording(fd: int) -> None:
        info = os.fstat(fd)
        synced.append((info.st_dev, info.st_ino))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording)
    return synced


def test_commit_folder_writes_what_open_wb_wrote_and_fsyncs_each_once(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import stat

    from pbem.core import archive

    files = {"turn.yaml": b"t" * 70_000, "turn.yaml.sig": b"sig\n", "us.yaml": b"", "german.yaml": "é\n".encode()}
    synced = record_fsyncs(monkeypatch)
    archive.commit_folder(tmp_path / "turns" / "0001", files)
    final = tmp_path / "turns" / "0001"
    assert sorted(p.name for p in final.iterdir()) == sorted(files)
    (tmp_path / "reference").write_bytes(b"")  # the mode `open(name, "wb")` gives under this umask
    reference_mode = stat.S_IMODE((tmp_path / "reference").stat().st_mode)
    for name, data in files.items():
        assert (final / name).read_bytes() == data
        assert stat.S_IMODE((final / name).stat().st_mode) == reference_mode
    # every file, the folder and its parent, and the game folder (turns/ was made here): each exactly once
    inodes = {(p.stat().st_dev, p.stat().st_ino) for p in [*final.iterdir(), final, final.parent, tmp_path]}
    assert sorted(synced) == sorted(inodes)
    assert [p.name for p in final.parent.iterdir()] == ["0001"]  # no staging folder left


def test_a_failed_fsync_commits_nothing_and_waits_for_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from pbem.core import archive

    files = {f"f{i}.yaml": b"x" * (i + 1) for i in range(6)}
    (tmp_path / "turns").mkdir()  # as after the first turn (the first also flushes turns/ in the game folder)
    asked: list[int] = []
    real_fsync = os.fsync

    def failing(fd: int) -> None:
        asked.append(fd)
        if os.fstat(fd).st_size == 4:  # f3.yaml
            raise OSError(5, "I/O error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="I/O error"):
        archive.commit_folder(tmp_path / "turns" / "0001", files)
    assert len(asked) == len(files) + 1  # every file and the folder was still asked for
    assert list((tmp_path / "turns").iterdir()) == []  # neither the turn nor its staging folder


@pytest.mark.parametrize("text", ["ab12\n", "ab12", "  ab12 \r\n", "ab\r12\r", "ab\r\n12", "\n", ""])
def test_read_secret_reads_as_read_text_did(tmp_path: Path, text: str) -> None:
    import os

    from pbem.core.archive import SECRET_DIR, SECRET_FILE, Archive

    (tmp_path / SECRET_DIR).mkdir()
    path = tmp_path / SECRET_DIR / SECRET_FILE
    path.write_bytes(text.encode("ascii"))
    os.chmod(path, 0o600)
    assert Archive(tmp_path).read_secret() == path.read_text(encoding="ascii").strip()


def _old_signed_names(root: Path, folder: str, pattern: str) -> list[tuple[tuple[str, ...], str]]:
    """`Archive._signed_names` as it was: one `Path` and two stats per entry."""
    import re

    base = root / folder
    if not base.is_dir():
        return []
    found = []
    for entry in base.iterdir():
        match = re.fullmatch(pattern, entry.name)
        if match and entry.is_file() and entry.with_name(entry.name + ".sig").is_file():
            found.append((match.groups(), f"{folder}/{entry.name}"))
    return found


def _old_orphan_receipts(root: Path, seq: int) -> list[str]:
    found = []
    for folder in (f"orders/{seq:04d}", f"decisions/{seq:04d}"):
        base = root / folder
        if not base.is_dir():
            continue
        for entry in sorted(base.iterdir()):
            if entry.name.endswith(".receipt.yaml"):
                acknowledged = entry.with_name(entry.name[: -len(".receipt.yaml")] + ".yaml")
                if not (acknowledged.is_file() and acknowledged.with_name(acknowledged.name + ".sig").is_file()):
                    found.append(f"{folder}/{entry.name}")
    return found


def test_listings_by_scandir_give_what_the_path_listings_gave(tmp_path: Path) -> None:
    from pbem.core.archive import Archive

    root = tmp_path / "game"
    orders, decisions = root / "orders" / "0002", root / "decisions" / "0002"
    orders.mkdir(parents=True)
    decisions.mkdir(parents=True)
    (root / "orders" / "0003").write_bytes(b"not a folder")
    for name in ["us-0001.yaml", "us-0001.yaml.sig", "german-0002.yaml", "us-0003.yaml.sig", "us-01.yaml",
                 "us-01.yaml.sig", "us-0004.receipt.yaml", "us-0004.receipt.yaml.sig", "us-0001.receipt.yaml",
                 "german-0005.yaml.sig", "Us-0006.yaml", "Us-0006.yaml.sig"]:
        (orders / name).write_bytes(b"x")
    (orders / "german-0002.yaml.sig").mkdir()  # a folder where the signature should be
    (orders / "us-0007.yaml").symlink_to(orders / "us-0001.yaml")  # a link to a file counts as a file
    (orders / "us-0007.yaml.sig").symlink_to(orders / "missing")  # a dangling one does not
    (orders / "us-0008.yaml").symlink_to(orders / "us-0008.yaml")  # a loop neither
    (orders / "us-0008.yaml.sig").write_bytes(b"x")
    (orders / "german-0005.yaml").symlink_to(orders / "us-0001.yaml")
    for name in ["request-001.yaml", "request-001.yaml.sig", "request-0002.yaml", "request-0002.yaml.sig",
                 "reply-001-0003.yaml", "reply-001-0003.yaml.sig", "reply-001-0003.receipt.yaml",
                 "reply-002-0004.receipt.yaml", "lapse-001.yaml", "lapse-001.yaml.sig"]:
        (decisions / name).write_bytes(b"x")
    archive = Archive(root)
    patterns = [r"([a-z0-9][a-z0-9-]*)-([0-9]{4,})\.yaml", r"request-([0-9]{3,})\.yaml",
                r"reply-([0-9]{3,})-([0-9]{4,})\.yaml", r"lapse-([0-9]{3,})\.yaml"]
    for folder in ["orders/0002", "decisions/0002", "orders/0003", "orders/0009", "orders"]:
        for pattern in patterns:
            assert sorted(archive._signed_names(folder, pattern)) == sorted(_old_signed_names(root, folder, pattern))
    assert sorted(rel for _, rel in archive._signed_names("orders/0002", patterns[0])) == [
        "orders/0002/german-0005.yaml", "orders/0002/us-0001.yaml"]  # a link to a file is a file; a loop is none
    for seq in (1, 2, 3):
        assert archive.orphan_receipts(seq) == _old_orphan_receipts(root, seq)
    assert archive.orphan_receipts(2) == ["orders/0002/us-0004.receipt.yaml", "decisions/0002/reply-002-0004.receipt.yaml"]


def _old_victory_check(cfg: Any, state: dict[str, Any]) -> dict[str, Any] | None:
    """fbsm's `victory.check` as it was: three passes over the units."""
    from pbem.rulesets.kit.stacks import on_map

    if state.get("result"):
        return dict(state["result"])
    units = state["units"]
    if any(u["status"] == "exited" and cfg.counters[uid].side == "german" for uid, u in units.items()):
        state["result"] = {"winner": "german", "section": "4.3",
                           "reason": "a German unit moved off the south edge of the map"}
        return dict(state["result"])
    if not on_map(state, cfg.side_of, "us"):
        state["result"] = {"winner": "german", "section": "4.3",
                           "reason": "no US infantry or heavy weapons unit is left on the map"}
        return dict(state["result"])
    german_left = any(u["status"] in ("active", "container", "drawn") and cfg.counters[uid].side == "german"
                      for uid, u in units.items())
    if not german_left:
        state["result"] = {"winner": "us", "section": "4.4",
                           "reason": "no German unit is on the map and the holding container is empty"}
        return dict(state["result"])
    return None


def test_fbsm_victory_in_one_pass_is_the_three_pass_check() -> None:
    import random

    from pbem.core.ruleset import get, rules_for
    from pbem.rulesets.fbsm import victory

    states = [turn["state"] for turn in recorded_turns()]
    cfg = rules_for(get("fbsm"), states[0]).context
    rng = random.Random(17)
    statuses = ["active", "container", "drawn", "eliminated", "exited"]
    cases = []
    for state in states:
        cases.append(copy.deepcopy(state))
        for _ in range(40):
            mutated = copy.deepcopy(state)
            mutated["result"] = None
            side = rng.choice(["us", "german", None])  # one side's units all gone, now and then
            for uid, unit in mutated["units"].items():
                if cfg.counters[uid].side == side:
                    unit["status"] = "eliminated"
                elif rng.random() < 0.3:
                    unit["status"] = rng.choice(statuses[:-1] if rng.random() < 0.9 else statuses)
            cases.append(mutated)
    outcomes: collections.Counter[str] = collections.Counter()
    for case in cases:
        old, new = copy.deepcopy(case), copy.deepcopy(case)
        assert victory.check(cfg, new) == _old_victory_check(cfg, old)
        assert new == old
        outcomes[(new.get("result") or {}).get("reason", "none")] += 1
    assert len(outcomes) == 4, outcomes  # every condition met somewhere, and none
