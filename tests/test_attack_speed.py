"""Attacks on this session's speed work (issue #17), commits after 03baa0f8.

Each test plays a dishonest referee or player, a hostile file or an unlucky crash against one
shortcut, and asserts what the tree at 03baa0f8 already guaranteed. A test marked xfail(strict)
is a defect still open (its reason names the commit); the others are attacks that failed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from pbem.core import chance, doccache, signing, yamlio
from pbem.core.archive import TMP_PREFIX, Archive
from pbem.core.errors import ArchiveError, PbemError, SignatureError
from pbem.core.game import load_game
from pbem.demo import DemoGame
from pbem.rulesets.kit import tables
from tests.attack_fixtures import decided_duel_copy

PBEM = [sys.executable, "-m", "pbem"]


# --- archive reads in a few system calls (cdd382be) -------------------------------------------------


@pytest.fixture()
def hostile_archive(tmp_path: Path) -> tuple[Archive, Path]:
    root = tmp_path / "game"
    (root / "orders" / "0001").mkdir(parents=True)
    (root / "orders" / "0001" / "red-0001.yaml").write_bytes(b"inside: 1\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_bytes(b"secret: 1\n")
    return Archive(root), outside


class Blocked(Exception):
    """Not an OSError (TimeoutError is one, and the reads under attack catch OSError)."""


@pytest.fixture()
def alarm() -> Iterator[None]:
    """A read that blocks (a FIFO opened without O_NONBLOCK) fails the test instead of hanging it."""
    def timeout(*_: Any) -> None:
        raise Blocked("the read blocked")

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(3)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture()
def decided_duel(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> DemoGame:
    """A finished duel that holds a decision reply whatever the dice (tests/attack_fixtures.py)."""
    return decided_duel_copy(lambda: tmp_path_factory.mktemp("decided-duel"), tmp_path / "copy")


def test_a_plain_file_inside_is_read(hostile_archive: tuple[Archive, Path]) -> None:
    archive, _ = hostile_archive
    assert archive.read("orders/0001/red-0001.yaml") == b"inside: 1\n"


def test_a_link_in_the_middle_to_outside_is_refused(hostile_archive: tuple[Archive, Path]) -> None:
    archive, outside = hostile_archive
    os.symlink(outside, archive.root / "orders" / "0002")
    with pytest.raises(ArchiveError):
        archive.read("orders/0002/secret.yaml")


def test_a_link_as_the_last_part_is_refused_even_to_a_file_inside(hostile_archive: tuple[Archive, Path]) -> None:
    archive, outside = hostile_archive
    folder = archive.root / "orders" / "0001"
    os.symlink(folder / "red-0001.yaml", folder / "red-0002.yaml")
    os.symlink(outside / "secret.yaml", folder / "red-0003.yaml")
    for rel in ("orders/0001/red-0002.yaml", "orders/0001/red-0003.yaml"):
        with pytest.raises(ArchiveError):
            archive.read(rel)


def test_dot_dot_and_absolute_names_do_not_leave_the_game(hostile_archive: tuple[Archive, Path]) -> None:
    archive, outside = hostile_archive
    for rel in ("../outside/secret.yaml", str(outside / "secret.yaml"), "orders/../../outside/secret.yaml"):
        with pytest.raises(ArchiveError):
            archive.read(rel)


def test_a_fifo_or_a_folder_is_refused_without_blocking(hostile_archive: tuple[Archive, Path], alarm: None) -> None:
    archive, _ = hostile_archive
    os.mkfifo(archive.root / "orders" / "0001" / "blue-0001.yaml")
    for rel in ("orders/0001/blue-0001.yaml", "orders/0001"):
        with pytest.raises(ArchiveError):
            archive.read(rel)


def test_a_file_over_the_limit_is_refused(hostile_archive: tuple[Archive, Path]) -> None:
    archive, _ = hostile_archive
    (archive.root / "orders" / "0001" / "red-0002.yaml").write_bytes(b"x" * 101)
    with pytest.raises(ArchiveError):
        archive.read("orders/0001/red-0002.yaml", max_bytes=100)
    assert archive.read("orders/0001/red-0002.yaml", max_bytes=101) == b"x" * 101


def test_a_temporary_in_the_seq_under_way_is_swept(tmp_path: Path) -> None:
    """976ca308 passes over committed seqs' orders and decisions: the seq under way is still swept."""
    root = tmp_path / "game"
    (root / "turns" / "0001").mkdir(parents=True)
    for folder in ("orders/0002", "decisions/0002", "views/0001"):
        (root / folder).mkdir(parents=True)
        (root / folder / (TMP_PREFIX + "left")).write_bytes(b"half")
    Archive(root).sweep_temporaries()
    assert sorted(p.name for p in root.rglob(TMP_PREFIX + "*")) == []


# --- the fast YAML reading of player files (9918858f, 588c147d, 61df34e6, 66e6f601) ----------------

HOSTILE_YAML = [
    b"", b"a: 1\n", b"%YAML 1.1\n---\na: 1\n", b"%TAG !e! tag:example.com,2000:\n---\na: 1\n", b"---\na: 1\n...\n",
    b"a: 1\n---\nb: 2\n", b"a: 1\na: 2\n", b"? a\n: 1\n", b"a: !!str 1\n", b"a: &x 1\nb: *x\n", b"a: 'x''y'\n",
    b"a: |\n  x\n  y\n", b"a: >-\n  x\n  y\n", b"a: 'x\ty'\n", b"a:\n", b"1: a\n", b"null: a\n", b"'': a\n",
    b"a: yes\n", b"a: 1.5\n", b"a: 0x10\n", b"a: 2001-01-01\n", b"a: {b: 1, 'b': 2}\n", b"a: {\"b\": 1, b: 2}\n",
    b"[1, 2]\n", b"x\n", b"a: 'multi\n  line'\n", b"a: \"multi\n  line\"\n", b"a: 1_000\n", b"a: +1\n", b"a: 01\n",
    b"a: -0\n", b"a: .inf\n", b"a: =\n", b"<<: {b: 1}\n", b"a: \xc2\x85x\n", b"a: 'x\xe2\x80\xa8y'\n",
    b"a: \"\xef\xbb\xbf\"\n", b"a: 1\r\nb: 2\r\n", b"a: !x 1\n", b"a: ! 1\n", b"a: {? b}\n", b"a: [b: c]\n",
    b"a: |+\n x\n\n", b"\ta: 1\n", b"a: 99999999999999999999999999\n", b"a: '\x7f'\n", b"a: \"\xed\xa0\x80\"\n",
    b"a: 'x'\n'a': y\n", b"a: True\n", b"a: NULL\n", b"a: ~\n", b"a: nULL\n", b"a: 0o17\n", b"a: 1e3\n",
    b"a: 12:30\n", b"a: 0b1\n", b"a: -.nan\n", b"a: 1a2b3c4d" + b"0" * 56 + b"\n", b"a: 1e" + b"0" * 62 + b"\n",
]


@pytest.mark.parametrize("data", HOSTILE_YAML, ids=range(len(HOSTILE_YAML)))
def test_the_plain_reader_gives_the_strict_loaders_data_or_steps_aside(data: bytes) -> None:
    try:
        quick = yamlio.load_plain(data)
    except yamlio.NotPlain:
        return
    strict = yamlio.load_bytes(data, "orders.yaml").data  # refused by the strict loader: refused by both
    assert repr(quick) == repr(strict) and quick == strict


# --- remembered signature checks (ead54267, b4c0182d) ----------------------------------------------


def test_a_remembered_good_signature_answers_for_no_other_key(finished_duel: DemoGame) -> None:
    root = finished_duel.root
    game = load_game(root)
    data, signature = (root / "game.yaml").read_bytes(), (root / "game.yaml.sig").read_text()
    namespace = signing.namespace("turn", game.id)
    assert doccache.verified_signer(data, signature, namespace, {"referee": game.referee_key}, file="g") == "referee"
    impostor = {"referee": game.side_keys[game.sides[0]]}
    for allowed, space in ((impostor, namespace), ({"referee": game.referee_key}, signing.namespace("orders", game.id))):
        with pytest.raises(SignatureError):
            doccache.verified_signer(data, signature, space, allowed, file="g")
    # the same signature over other bytes is checked, not remembered
    with pytest.raises(PbemError):
        doccache.verified_signer(data + b"\n", signature, namespace, {"referee": game.referee_key}, file="g")


def test_a_bad_signature_is_refused_every_time(finished_duel: DemoGame) -> None:
    root = finished_duel.root
    game = load_game(root)
    data, signature = (root / "game.yaml").read_bytes() + b"# x\n", (root / "game.yaml.sig").read_text()
    for _ in range(2):
        with pytest.raises(SignatureError):
            doccache.verified_signer(data, signature, signing.namespace("turn", game.id),
                                     {"referee": game.referee_key}, file="g")


# --- sealed chain checkpoints (a910a3d7) ------------------------------------------------------------


def test_checkpoints_of_another_game_secret_or_length_are_not_taken() -> None:
    secret, other = b"s" * 32, b"t" * 32
    sealed = chance.sealed_checkpoints("g1", secret, 100)
    assert chance.open_checkpoints(sealed, "g1", secret, 100)
    assert not chance.open_checkpoints(sealed, "g2", secret, 100)
    assert not chance.open_checkpoints(sealed, "g1", other, 100)
    assert not chance.open_checkpoints(sealed, "g1", secret, 101)
    tampered = sealed[:-1] + bytes([sealed[-1] ^ 1])
    assert not chance.open_checkpoints(tampered, "g1", secret, 100)


def test_a_planted_checkpoint_file_changes_no_seed() -> None:
    """A damaged file is refused; a file sealed under another secret does not reach this chain."""
    secret = b"u" * 32
    fresh = [chance.chain_seed("g3", secret, 70, k) for k in range(1, 71)]
    forged = chance.sealed_checkpoints("g3", b"v" * 32, 70)
    assert not chance.open_checkpoints(forged, "g3", secret, 70)
    assert [chance.chain_seed("g3", secret, 70, k) for k in range(1, 71)] == fresh


# --- kept copies of packaged data (8699d28b, aad4c9a9) ---------------------------------------------


@pytest.mark.parametrize("value", [{1: "a"}, {"a": (1, 2)}, {"a": 1.0}, {"a": {"b": [1, (2,)]}}, {"a": "\udc80"},
                                   {"a": float("nan")}, {"a": {True: 1}}])
def test_data_json_would_not_give_back_exactly_is_never_kept(value: dict[str, Any]) -> None:
    body = tables._exact_json(value)
    assert body is None or value == {"a": 1.0}  # 1.0 comes back 1.0: kept, and the same type
    if body is not None:
        assert type(json.loads(body)["a"]) is float


def test_a_kept_copy_of_other_bytes_or_damaged_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    source = str(tmp_path / "pkg" / "map.yaml")
    os.makedirs(os.path.dirname(source))
    data = b"a: 1\n"
    tables.keep_copy(source, data, {"a": 1})
    assert tables.kept_copy(source, data) == {"a": 1}
    assert tables.kept_copy(source, b"a: 2\n") is None  # the file changed: its copy is not found
    path = tables.kept_copy_path(source, data)
    header, _, body = Path(path).read_bytes().partition(b"\n")
    Path(path).write_bytes(header + b"\n" + body.replace(b"1", b"2"))
    assert tables.kept_copy(source, data) is None


# --- lazy imports on the command line's error paths (16fbb534, 05c37fbe, b4c0182d) ------------------


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PBEM, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**{k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}, **(env or {})}, stdin=subprocess.DEVNULL)


def test_the_commands_error_paths_say_what_is_wrong(finished_duel: DemoGame, tmp_path: Path) -> None:
    work = finished_duel.root.parent
    orders = sorted((work / "mail" / "red").glob("orders-*.yaml"))[0]
    changed = tmp_path / "changed.yaml"
    changed.write_bytes(orders.read_bytes() + b"# changed\n")
    (tmp_path / "changed.yaml.sig").write_bytes(orders.with_name(orders.name + ".sig").read_bytes())
    bad_key = tmp_path / "bad-key"
    bad_key.write_text("garbage\n")
    locked = tmp_path / "locked-key"
    made = subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "pw", "-f", str(locked)], capture_output=True)
    cases: list[tuple[list[str], str]] = [
        (["verify", "--game", "game", str(tmp_path / "missing.yaml")], "missing.yaml"),
        (["verify", "--game", "game", str(changed)], "bad signature"),
        (["adjudicate", "--key", str(bad_key), "game"], "bad-key"),
        (["sign", "--key", str(bad_key), "--game", "game", str(changed)], "bad-key"),
        (["submit", "--key", "keys/referee", "game", str(changed)], "bad signature"),
        (["check", "--game", "game", str(tmp_path / "missing.yaml"), str(changed)], "missing.yaml"),
        (["audit", str(tmp_path / "no-game")], "no-game"),
    ]
    if made.returncode == 0:
        cases.append((["sign", "--key", str(locked), "--game", "game", str(changed)], "passphrase"))
    for args, named in cases:
        done = run(*args, cwd=work)
        said = done.stdout + done.stderr
        assert done.returncode != 0, args
        assert "Traceback" not in said and "Error:" not in said.split(":", 1)[0], (args, said)
        assert named in said, (args, said)


def test_an_empty_passphrase_is_refused_with_a_message(finished_duel: DemoGame, tmp_path: Path) -> None:
    locked = tmp_path / "locked-key"
    made = subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "pw", "-f", str(locked)], capture_output=True)
    if made.returncode != 0:
        pytest.skip("no ssh-keygen")
    target = tmp_path / "file.yaml"
    target.write_bytes(sorted((finished_duel.root.parent / "mail" / "red").glob("orders-*.yaml"))[0].read_bytes())
    done = run("sign", "--key", str(locked), "--game", "game", str(target), cwd=finished_duel.root.parent,
               env={"PBEM_PASSPHRASE": ""})
    assert done.returncode != 0 and "Traceback" not in done.stderr and "passphrase" in done.stderr, done.stderr


# --- the audit's quick receipts (7b3abcd2): byte-level tamperings by a referee who re-signs ----------


def _resign_bytes(game: DemoGame, rel: str, data: bytes) -> None:
    path = game.root / rel
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_text(
        signing.sign(data, game.referee, signing.namespace("turn", load_game(game.root).id)))


BYTE_TAMPERINGS: dict[str, Callable[[bytes], bytes]] = {
    "a blank line at the end": lambda data: data + b"\n",
    "a comment": lambda data: data + b"# nothing\n",
    "received twice": lambda data: data + re.findall(rb"\nreceived: [^\n]*\n", data)[0][1:],
    "received later": lambda data: re.sub(rb'received: "[0-9]{4}', b'received: "2999', data, count=1),
    "received unquoted": lambda data: re.sub(rb'received: "([^"]*)"', rb"received: \1", data, count=1),
    "CRLF": lambda data: data.replace(b"\n", b"\r\n"),
    "request left out": lambda data: re.sub(rb"\nrequest: [^\n]*", b"", data),
    "request of another": lambda data: re.sub(rb"(\nrequest: [^\n]*)[0-9a-f]", rb"\g<1>0", data),
    "byte-order mark": lambda data: b"\xef\xbb\xbf" + data,
}


def first_receipt(root: Path, folder: str) -> str:
    """The first receipt under orders/ or decisions/ (there: a reply's receipt, which names its request)."""
    receipts = sorted(str(path.relative_to(root)) for path in (root / folder).rglob("*.receipt.yaml"))
    assert receipts, f"the fixture game holds no receipt under {folder}/"
    return receipts[0]


# An orders receipt names no request, so the two request tamperings apply to decisions/ only.
RECEIPT_TAMPERINGS = [(folder, name) for folder in ("orders", "decisions") for name in sorted(BYTE_TAMPERINGS)
                      if folder == "decisions" or not name.startswith("request")]

# What the field-by-field audit finds in each tampered receipt of the decided duel: a quick check
# that let one of these through would find nothing, and one that refused a harmless layout (CRLF,
# a comment, ...) would find something. The fixture game has no deadline on orders, so an orders
# receipt received later is still in time; a decision reply's request has one.
FOUND_FIELDS: dict[tuple[str, str], list[str]] = {
    ("orders", "received twice"): ["content"],
    ("orders", "received unquoted"): ["content"],
    ("decisions", "received twice"): ["content"],
    ("decisions", "received unquoted"): ["content"],
    ("decisions", "received later"): ["received"],
    ("decisions", "request left out"): ["request"],
    ("decisions", "request of another"): ["request"],
}


def _tamper_first_receipt(game: DemoGame, folder: str, name: str) -> None:
    rel = first_receipt(game.root, folder)
    data = (game.root / rel).read_bytes()
    changed = BYTE_TAMPERINGS[name](data)
    assert changed != data, f"{name!r} changes nothing in {rel}"
    _resign_bytes(game, rel, changed)


def test_the_untampered_decided_duel_passes_both_audits(decided_duel: DemoGame) -> None:
    """The control of the next tests: what they find comes from their tampering, not from the game."""
    from tests.test_speed_audit import slow_audit

    from pbem.core.audit import audit

    assert audit(decided_duel.root) == [] == slow_audit(decided_duel.root)


@pytest.mark.parametrize(("folder", "name"), RECEIPT_TAMPERINGS)
def test_a_receipt_changed_in_its_bytes_is_judged_as_the_field_checks_judge_it(decided_duel: DemoGame,
                                                                                folder: str, name: str) -> None:
    from tests.test_speed_audit import slow_audit

    from pbem.core.audit import audit

    _tamper_first_receipt(decided_duel, folder, name)
    found = audit(decided_duel.root)
    assert found == slow_audit(decided_duel.root)
    assert [item.field for item in found] == FOUND_FIELDS.get((folder, name), []), found


@pytest.mark.parametrize(("folder", "name"), sorted(key for key in FOUND_FIELDS if key[1] != "received later"))
def test_a_quick_check_blind_to_the_layout_would_miss_the_tampering(decided_duel: DemoGame, folder: str, name: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant the test above must catch: a quick path that takes any receipt with a received
    line, quoted or not, as the referee's own layout. ("received later" is caught after the quick
    path, by the deadline check, whatever it does.)"""
    from tests.test_speed_audit import slow_audit

    from pbem.core import audit as audit_module

    _tamper_first_receipt(decided_duel, folder, name)
    monkeypatch.setattr(audit_module, "canonical_bytes", lambda value, data: True)
    either_quoting = audit_module._RECEIVED_RE.pattern.replace(b'"', b'"?')
    monkeypatch.setattr(audit_module, "_RECEIVED_RE", re.compile(either_quoting))
    assert audit_module.audit(decided_duel.root) != slow_audit(decided_duel.root)


# --- toc's kept walks (fbf56c34, 0440dcbe, c4fc211b) -------------------------------------------------


def test_a_kept_walk_is_the_fresh_walk_down_to_the_order_of_its_parts() -> None:
    """The helpers' test compares with ==, blind to dict order; here the order too (a stacks map's
    order is the one thing that differs, and every reader of it sorts it or makes it a set)."""
    from tests.toc.test_speed_movement import MOVES, fresh

    from pbem.rulesets.toc import fog
    from pbem.rulesets.toc.board import Board
    from pbem.rulesets.toc.movement import simulate

    def exactly(board: Board, walked: tuple[Any, Any]) -> str:
        problems, plan = walked
        return repr((problems, plan.steps, list(plan.units.items()), list(plan.columns.items()),
                     list(board.own.items()), sorted(board.own_stacks().items())))

    for state, side, orders in MOVES:
        alone = Board.from_state(fresh(state), state, side)
        expected = exactly(alone, simulate(alone, orders))
        ctx = fresh(state)
        simulate(Board.from_view(ctx, fog.view(ctx, state, side)), orders)
        board = Board.from_state(ctx, state, side)
        assert exactly(board, simulate(board, orders)) == expected


# --- determinism across processes, kept copies on and off (8699d28b, 051a8fdb) -----------------------

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.mark.parametrize("ruleset", ["toc", "fbsm"])
def test_an_audit_says_the_same_in_fresh_and_warm_processes_under_any_hash_seed(ruleset: str, tmp_path: Path) -> None:
    """Byte-code off (no kept copies), then on twice (the first writes the copies, the second reads
    them), each under another PYTHONHASHSEED: the audit passes and prints the same bytes each time."""
    game = str(SAMPLES / ruleset / "game")
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    said = []
    for seed, byte_code in (("0", False), ("1", True), ("2", True)):
        env = dict(base, PYTHONHASHSEED=seed, PYTHONPYCACHEPREFIX=str(tmp_path / "pyc"))
        if not byte_code:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        done = subprocess.run([*PBEM, "audit", game], capture_output=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        said.append(done.stdout + done.stderr)
    assert list(tmp_path.rglob("*.json")), "the second run kept copies of the packaged data"
    assert said[0] == said[1] == said[2]


def test_a_remembered_turn_reads_back_as_the_strict_loader_reads_its_file() -> None:
    """ead54267: a remembered turn's state is its canonical JSON, not the YAML read back; the two
    must be the same data in the same key order, or a long-running referee and a fresh command
    would hand the rules different dicts."""
    for ruleset in ("toc", "fbsm"):
        for path in sorted((SAMPLES / ruleset / "game" / "turns").glob("*/turn.yaml"))[:4]:
            data = path.read_bytes()
            strict = yamlio.load_bytes(data, str(path)).data
            doccache.forget()
            doccache.remember("turn", data, strict, chance.canonical_json(strict["state"]))
            assert repr(doccache.load_checked(data, str(path), "turn")) == repr(strict)
    doccache.forget()


# --- plain scalars told to be strings without the refusal patterns (61df34e6, 66e6f601, 5d7e8b7b) ---

SCALARS = [
    "y", "n", "yes", "on", "true", "False", "null", "~", "0", "00", "017", "0o17", "0x1F", "0b101", "1_000", "1:20",
    "190:20:30", "1.5", ".5", "+.inf", "-.Inf", ".NaN", "1e3", "1E3", "1e+3", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5", "=", "-", "-1", "+1", "-0", "0.", "1.", "1e", "e1", "abc", "1a", "٣", "１", "12ab",
    "0xG", "-.5", "+12:30", "1__0", "_1", "1_", "0_1", "3e-4", "INF", "12e", "0o", "0b", "0x", ".", "..", "1..2",
    "1-2", "1x", "x1", "0e0", "1,000", "0001", "-0001", "+0x1", "-0b1", "1_2:3", "-1:30", "1:3.5", "1.2.3", "0.1.0",
    "..5", "1.2e3.4", "1:2.3.4", "1.5.", "-1.2.3", "2001-01-01.5.5", "+.inf.", "10.10 fire at 2:1", "1.0 x",
    "0x1.2.3", "1_0.2.3", "1.2.3Z", "0.1e5.", "1e5..", "1a2b3c4d" + "0" * 56, "1e" + "0" * 62, "0" * 64,
    "sha256:" + "0" * 64, "1:2:3.4", "1:2 ", "2001-1-1", "2001-01-01T1:00:00Z", "+.nan", "-1_0", "0o8", "0b2",
]


def _read(text: str) -> str:
    try:
        return repr(yamlio._resolve_plain(text))
    except yamlio._Refused as refused:
        return f"refused: {refused}"


def test_a_scalar_told_a_string_early_is_one_the_patterns_would_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    quick = [_read(text) for text in SCALARS]
    monkeypatch.setattr(yamlio, "_surely_string", lambda text: False)
    assert quick == [_read(text) for text in SCALARS]


# --- the temporaries' sweep passes over committed seqs (976ca308) ------------------------------------


def test_a_temporary_left_in_a_committed_seq_makes_no_discrepancy(decided_duel: DemoGame) -> None:
    """Were the sweep's reasoning ever wrong, what it leaves is only litter: the audit and the
    export go by the layout's names."""
    from pbem.core.audit import audit
    from pbem.core.export import archive_files

    root = decided_duel.root
    litter = [root / "orders" / "0001" / (TMP_PREFIX + "x"), root / "decisions" / "0002" / (TMP_PREFIX + "y")]
    before = archive_files(Archive(root), load_game(root).sides)
    for path in litter:
        path.write_bytes(b"half")  # both seqs are committed, with orders and a decision, in the decided duel
    assert audit(root) == []
    assert archive_files(Archive(root), load_game(root).sides) == before


# --- the referee's sealed checkpoints read back (a910a3d7) -------------------------------------------


def test_a_fifo_in_place_of_the_checkpoints_costs_time_only(finished_duel: DemoGame, alarm: None) -> None:
    """a910a3d7 read the marks with open(): a FIFO there blocked every adjudication (fixed in cd534ecc)."""
    from pbem.core.game import chain_secret, marks_file
    from pbem.core.archive import SECRET_DIR, SECRET_FILE

    game = load_game(finished_duel.root)
    chance._CHECKPOINTS.clear()
    expected = chain_secret(game)
    marks = finished_duel.root / SECRET_DIR / marks_file(SECRET_FILE)
    marks.unlink()
    os.mkfifo(marks)
    chance._CHECKPOINTS.clear()
    assert chain_secret(game) == expected


# --- a referee who swaps a player's signed files (7b3abcd2: hashes the audit already holds) -----------


@pytest.mark.parametrize("swap", ["orders of another seq", "receipt of another seq", "orders and receipt"])
def test_a_swapped_file_is_named_as_the_field_checks_name_it(decided_duel: DemoGame, swap: str) -> None:
    from tests.test_speed_audit import slow_audit

    from pbem.core.audit import audit

    root = decided_duel.root
    first, second = sorted((root / "orders").iterdir())[:2]
    here = sorted(p.name for p in first.glob("*.yaml") if not p.name.endswith(".receipt.yaml"))[0]
    stem = here.removesuffix(".yaml")
    names = {"orders of another seq": [here, here + ".sig"],
             "receipt of another seq": [stem + ".receipt.yaml", stem + ".receipt.yaml.sig"],
             "orders and receipt": [here, here + ".sig", stem + ".receipt.yaml", stem + ".receipt.yaml.sig"]}[swap]
    assert all((second / name).is_file() for name in names), f"the decided duel's {second.name} lacks one of {names}"
    for name in names:
        (first / name).write_bytes((second / name).read_bytes())
    found = audit(root)
    assert found and found == slow_audit(root)


def test_seq_folders_are_told_by_name_as_the_pattern_told_them() -> None:
    """cdd382be: `_is_seq_name` instead of the pattern; a folder "٠٠٠٩" (Arabic-Indic digits, which
    int() reads as 9) or "00010" must stay no seq, as before."""
    from pbem.core import archive

    names = ["0000", "0001", "0010", "9999", "10000", "00010", "012345", "١٢٣٤", "٠٠٠٩", "０００１", "001", "1",
             "", "0001 ", " 0001", "000a", "0x01", "+001", "-001", "1_00", "0001\n", "²³⁴⁵", "12345678901234567890"]
    for name in names:
        old = archive._COMMITTED_TURN.fullmatch(name) is not None and archive._canonical(name, 4)
        assert archive._is_seq_name(name) == old, name
