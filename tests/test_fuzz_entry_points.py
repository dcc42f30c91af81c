"""Every reader entry point fed hostile input: a clear error, never a traceback, bounded in work and memory.

`pbem submit`, `check`, `verify`, `verify-view`, `audit` and `decide` are called in-process through
`pbem.cli.main([...])`, and the mail judge through its intake (`message.parse` then
`MailIntake.handle`), on random bytes, truncated YAML, deep nesting, huge integers (2**64+1), text
that is not UTF-8, symlinks to /dev/zero, named pipes nobody writes to, and cut-short archives.
Files that need a signature to be read any further are signed with the right key (a player's, or
the referee's for views, requests and turns: a hostile referee), so the checks behind the
signature are fuzzed too.

Each call must end by returning (an exit code, with a message for a refusal) or by SystemExit from
argparse; any other exception fails the test with its traceback. Each call's work is counted, never
timed (`tests.test_work_meter`): no YAML parse may go past the node bound or be handed more than the
file size bound, no text may yield more armored blocks than their bound; and the call must grow the
process's peak memory by less than `MEGABYTES`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import resource
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.cli import main
from pbem.core import signing, yamlio
from pbem.core.archive import Archive, view_rel
from pbem.core.game import load_game
from pbem.mail.intake import MAX_ANSWER_BYTES, MailIntake, Served
from pbem.mail.message import parse
from tests.conftest import play_duel
from tests.test_cli_lifecycle import snapshot
from tests.test_mail_kit import ADDRESSES, World, make_world, plain_mail
from tests.test_work_meter import MOST_NODES, Meter, metered

MEGABYTES = 200
HUGE = 2**64 + 1
FUZZ = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                database=None)


# --- running one call within bounds ---------------------------------------------------------------------


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports kilobytes


@contextlib.contextmanager
def bounded(what: str) -> Iterator[Meter]:
    """The block's work must keep the readers' bounds and raise the peak memory by less than MEGABYTES."""
    before = _peak_mb()
    with metered() as work:
        yield work
    work.within_bounds(what)
    grown = _peak_mb() - before
    assert grown < MEGABYTES, f"{what}: peak memory grew by {grown:.0f} MB"


@dataclass(frozen=True)
class Call:
    rc: int
    out: str
    err: str
    work: Meter


def pbem(*args: str | os.PathLike[str]) -> Call:
    """`pbem ARGS...` in-process, bounded; an exception other than SystemExit propagates (a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    words = [str(a) for a in args]
    with bounded("pbem " + " ".join(words)[:300]) as work, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            rc = main(words)
        except SystemExit as exit_:  # argparse
            rc = exit_.code if isinstance(exit_.code, int) else 2
    call = Call(rc, out.getvalue(), err.getvalue(), work)
    assert "Traceback" not in call.err
    return call


def refused(*args: str | os.PathLike[str]) -> Call:
    """`pbem ARGS...` must fail (exit code not 0) and say something."""
    call = pbem(*args)
    assert call.rc != 0, f"pbem {' '.join(map(str, args))} was not refused:\n{call.out}{call.err}"
    assert (call.out + call.err).strip(), "refused without a word"
    assert len(call.out) + len(call.err) < 200_000, "the refusal is too long to read"
    return call


# --- hostile documents ------------------------------------------------------------------------------------


def hostile(valid: bytes) -> dict[str, bytes]:
    """Damaged and absurd variants of a valid YAML file (deterministic)."""
    noise = hashlib.shake_256(valid).digest(4000)
    cut = valid.index(b"\n", len(valid) // 3)
    numbers = re.compile(rb"(?m)(:[ ]|^[ ]*-[ ])(\d+)[ ]*$")
    return {
        "empty": b"",
        "random": noise,
        "random-lines": noise.replace(b"\x00", b"\n"),
        "truncated-half": valid[: len(valid) // 2],
        "truncated-mid-line": valid[: cut - 3],
        "deep-flow-lists": b"[" * 20_000 + b"]" * 20_000,
        "deep-flow-maps": b"{a: " * 10_000 + b"1" + b"}" * 10_000,
        "deep-block": b"".join(b"  " * depth + b"a:\n" for depth in range(500)) + b"  " * 500 + b"b: 1\n",
        "deep-in-envelope": valid + b"extra: " + b"[" * 100 + b"1" + b"]" * 100 + b"\n",
        "huge-ints": numbers.sub(rb"\g<1>" + str(HUGE).encode(), valid),
        "negative-huge-ints": numbers.sub(rb"\g<1>-" + str(HUGE).encode(), valid),
        "long-number": valid.replace(b"\n", b"\nlong: " + b"9" * 4000 + b"\n", 1),
        "too-long-number": valid.replace(b"\n", b"\nlong: " + b"9" * 100_000 + b"\n", 1),
        "not-utf8": valid.replace(b"\n", b"\n\xff\xfe", 1),
        "utf16": valid.decode("utf-8").encode("utf-16"),
        "nul-bytes": b"\x00" * 100,
        "bom-only": b"\xef\xbb\xbf",
        "two-documents": valid + b"---\n" + valid,
        "alias-bomb": b"a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                      b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n",
        "every-value-a-list": re.sub(rb"(?m)^(\w+):.*$", rb"\1: [[], {}]", valid),
        "every-value-null": re.sub(rb"(?m)^(\w+):.*$", rb"\1:", valid),
        "a-list": b"- 1\n- [2]\n- {a: 3}\n",
        "a-scalar": b"just words\n",
        "tags": valid.replace(b": ", b": !!python/object:os.system ", 1),
        "key-flood": valid + b"".join(b"k%d: 1\n" % i for i in range(50_000)),
        "long-line": valid.replace(b"\n", b"\nlong: " + b"x" * 3_000_000 + b"\n", 1),
    }


def node_flood() -> bytes:
    """The most values a file under the size limit can hold."""
    return b"- 1\n" * (yamlio.MAX_FILE_BYTES // 4)


HOSTILE_SIGNATURES = {
    "random": hashlib.shake_256(b"sig").digest(300),
    "not-utf8": b"-----BEGIN SSH SIGNATURE-----\n\xff\xfe\n-----END SSH SIGNATURE-----\n",
    "empty": b"",
    "truncated": b"-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVk\n",
    "bad-base64": b"-----BEGIN SSH SIGNATURE-----\n!!!!\n-----END SSH SIGNATURE-----\n",
    "huge-lengths": b"-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAf////8=\n-----END SSH SIGNATURE-----\n",
    "too-large": b"-----BEGIN SSH SIGNATURE-----\n" + b"A" * 200_000 + b"\n-----END SSH SIGNATURE-----\n",
}


def special_file(path: Path, kind: str) -> Path:
    """Make `path` a symlink to /dev/zero or a named pipe nobody writes to."""
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        os.mkfifo(path)
    return path


def sign_as(key: signing.SigningKey, data: bytes, game_id: str, party: str = "orders") -> str:
    return signing.sign(data, key, signing.namespace(party, game_id))  # type: ignore[arg-type]


# --- the games --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished duel (game/ and keys/), played once for this module; tests copy it before changing it."""
    work = tmp_path_factory.mktemp("fuzz-duel")
    play_duel(work)
    return work


def copy_of(finished: Path, into: Path) -> Path:
    target = into / "copy"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(finished, target, symlinks=True)
    return target


def key_of(work: Path, name: str) -> signing.SigningKey:
    return signing.load_signing_key(work / "keys" / name, passphrase=b"")


_WORLDS: dict[str, World] = {}


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], World]:
    """A fresh game awaiting seq 1 per name, made once per module (hypothesis reuses it across examples)."""

    def get(name: str) -> World:
        if name not in _WORLDS:
            _WORLDS[name] = make_world(tmp_path_factory.mktemp(f"fuzz-{name}"))
        return _WORLDS[name]

    return get


def valid_orders(world: World, side: str = "red") -> bytes:
    from pbem.core.players import orders_document, read_view

    view = read_view(world.root / view_rel(Archive(world.root).latest_seq(), side))
    doc = orders_document(view, [{"place": "hq", "cell": 2}])
    doc["pbem"] = load_game(world.root).doc["pbem"]
    return yamlio.dump(doc).encode("utf-8")


# --- pbem submit ------------------------------------------------------------------------------------------


def test_submit_hostile_orders(worlds: Callable[[str], World], tmp_path: Path) -> None:
    world = worlds("submit")
    before = snapshot(world.root)
    for name, data in hostile(valid_orders(world)).items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(data)
        # unsigned: read as a text that might carry armored blocks
        call = refused("submit", world.root, path)
        assert call.out.startswith("rejected: ") or call.err.startswith("pbem submit: "), (name, call.out, call.err)
        # signed by red: everything behind the signature is read
        path.with_name(path.name + ".sig").write_text(sign_as(world.keys["red"], data, world.game_id))
        call = refused("submit", world.root, path)
        assert str(path) in call.out or path.name in call.out, (name, call.out, call.err)
    assert {k: v for k, v in snapshot(world.root).items() if not k.startswith(".referee")} == \
        {k: v for k, v in before.items() if not k.startswith(".referee")}


def test_submit_node_flood(worlds: Callable[[str], World], tmp_path: Path) -> None:
    world = worlds("submit")
    path = tmp_path / "flood.yaml"
    data = node_flood()
    path.write_bytes(data)
    path.with_name("flood.yaml.sig").write_text(sign_as(world.keys["red"], data, world.game_id))
    call = refused("submit", world.root, path)
    assert "too many values" in call.out
    # the parse stopped at the first value over the bound, and nothing behind the parse ran
    assert call.work.most_nodes == MOST_NODES and call.work.most_nodes < len(data) // 4, call.work
    assert (call.work.item_schemas, call.work.orders_validated, call.work.schema_errors) == (0, 0, 0), call.work


def test_submit_hostile_signatures_and_special_files(worlds: Callable[[str], World], tmp_path: Path) -> None:
    world = worlds("submit")
    path = tmp_path / "orders.yaml"
    path.write_bytes(valid_orders(world))
    sig = tmp_path / "orders.yaml.sig"
    for name, data in HOSTILE_SIGNATURES.items():
        sig.write_bytes(data)
        call = refused("submit", world.root, path)
        assert "orders.yaml" in call.out, (name, call.out, call.err)
    for kind in ("zero", "fifo"):
        special_file(sig, kind)
        call = refused("submit", world.root, path)
        assert "orders.yaml.sig: not an SSH signature: not a regular file" in call.out, call.out
        special_file(sig, kind)
        call = refused("submit", world.root, path, sig)
        assert "not a regular file" in call.out, call.out
        sig.unlink()
        special_file(path, kind)  # the orders file itself: a device or a pipe
        call = refused("submit", world.root, path)
        assert "orders.yaml" in call.out + call.err
        path.unlink()
        path.write_bytes(valid_orders(world))


def submit_signed_by_red(world: World, name: str, data: bytes) -> None:
    """Hand in `data` with red's good signature beside it: only what lies behind the signature is fuzzed."""
    folder = world.workdir / "hypothesis"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    path.with_name(name + ".sig").write_text(sign_as(world.keys["red"], data, world.game_id))
    refused("submit", world.root, path)


@FUZZ
@given(data=st.binary(max_size=3000))
def test_submit_random_signed_bytes(worlds: Callable[[str], World], data: bytes) -> None:
    world = worlds("submit")
    submit_signed_by_red(world, "random.yaml", data)


@FUZZ
@given(cut=st.integers(min_value=0, max_value=10_000))
def test_submit_truncated_orders(worlds: Callable[[str], World], cut: int) -> None:
    world = worlds("submit")
    valid = valid_orders(world)
    data = valid[: cut % (len(valid) - 2)]  # never the whole file (nor all but its last newline)
    submit_signed_by_red(world, "cut.yaml", data)


@FUZZ
@given(body=st.binary(max_size=2000), name=st.text(max_size=30))
def test_submit_random_armored_blocks(worlds: Callable[[str], World], body: bytes, name: str) -> None:
    world = worlds("submit")
    begin, end = b"-----BEGIN PBEM SIGNED FILE-----\n", b"-----END PBEM SIGNED FILE-----\n"
    header = b"Name: " + name.encode("utf-8", "replace") + b"\n\n"
    carrier = b"hi\n" + begin + header + body + b"\n-----BEGIN SSH SIGNATURE-----\n" + body[:200] + b"\n" + end
    carrier += b"> " + begin + b"> \n> " + body[:100] + b"\n"
    folder = world.workdir / "hypothesis"
    folder.mkdir(exist_ok=True)
    path = folder / "mail.txt"
    path.write_bytes(carrier)
    refused("submit", world.root, path)


# --- pbem check and pbem orders ---------------------------------------------------------------------------


def test_check_hostile_orders_and_views(worlds: Callable[[str], World], tmp_path: Path) -> None:
    world = worlds("check")
    view = world.root / "views/0000/red.yaml"
    good_orders = tmp_path / "good.yaml"
    good_orders.write_bytes(valid_orders(world))
    assert pbem("check", view, good_orders).rc == 0
    for name, data in hostile(valid_orders(world)).items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(data)
        refused("check", view, path)
    held = tmp_path / "player"
    held.mkdir()
    for name, data in hostile(view.read_bytes()).items():
        # a forged view (no signature: caught with --game), then one the referee signed (a hostile referee)
        mine = held / f"{name}.yaml"
        mine.write_bytes(data)
        refused("check", mine, good_orders)
        refused("orders", mine)
        mine.with_name(mine.name + ".sig").write_text(sign_as(world.referee, data, world.game_id, "turn"))
        refused("check", mine, good_orders, "--game", world.root / "game.yaml")
        refused("orders", mine, "--game", world.root / "game.yaml")
    for kind in ("zero", "fifo"):
        special = special_file(tmp_path / f"{kind}.yaml", kind)
        refused("check", view, special)
        refused("check", special, good_orders)
        refused("check", special, good_orders, "--game", world.root / "game.yaml")
        refused("orders", special, "--game", world.root / "game.yaml")
        copied = held / "red.yaml"
        copied.write_bytes(view.read_bytes())
        special_file(held / "red.yaml.sig", kind)
        call = refused("check", copied, good_orders, "--game", world.root / "game.yaml")
        assert "red.yaml.sig: not an SSH signature: not a regular file" in call.err


@FUZZ
@given(data=st.binary(max_size=3000))
def test_check_random_views(worlds: Callable[[str], World], data: bytes) -> None:
    world = worlds("check")
    folder = world.workdir / "hypothesis"
    folder.mkdir(exist_ok=True)
    view, orders = folder / "view.yaml", folder / "orders.yaml"
    view.write_bytes(data)
    orders.write_bytes(valid_orders(world))
    refused("check", view, orders)
    view.with_name("view.yaml.sig").write_text(sign_as(world.referee, data, world.game_id, "turn"))
    refused("check", view, orders, "--game", world.root / "game.yaml")


# --- pbem verify ------------------------------------------------------------------------------------------


def test_verify_hostile_files_and_signatures(worlds: Callable[[str], World], tmp_path: Path) -> None:
    world = worlds("check")
    for name, data in hostile(valid_orders(world)).items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(data)
        path.with_name(path.name + ".sig").write_text(sign_as(world.keys["red"], data, world.game_id))
        pbem("verify", path, "--game", world.root)  # a good signature on absurd content is still a good signature
        path.with_name(path.name + ".sig").write_text(sign_as(world.keys["blue"], data, world.game_id))
        refused("verify", path, "--game", world.root)
    path = tmp_path / "orders.yaml"
    path.write_bytes(valid_orders(world))
    for name, data in HOSTILE_SIGNATURES.items():
        path.with_name("orders.yaml.sig").write_bytes(data)
        call = refused("verify", path, "--game", world.root)
        assert "orders.yaml" in call.err, (name, call.err)
    for kind in ("zero", "fifo"):
        special_file(path.with_name("orders.yaml.sig"), kind)
        assert "not a regular file" in refused("verify", path, "--game", world.root).err
        refused("verify", special_file(tmp_path / f"{kind}.yaml", kind), "--game", world.root)
    refused("verify", path, "--game", special_file(tmp_path / "game-zero", "zero"))


# --- pbem verify-view -------------------------------------------------------------------------------------


def test_verify_view_hostile_views(finished: Path, tmp_path: Path) -> None:
    work = copy_of(finished, tmp_path)
    game = load_game(work / "game")
    referee = key_of(work, "referee")
    held = tmp_path / "player"
    held.mkdir()
    source = (work / "game" / view_rel(3, "red")).read_bytes()
    for name, data in hostile(source).items():
        view = held / f"{name}.yaml"
        view.write_bytes(data)
        refused("verify-view", view, "--game", work / "game" / "game.yaml")  # no signature beside it
        view.with_name(view.name + ".sig").write_text(sign_as(referee, data, game.id, "turn"))
        refused("verify-view", view, "--game", work / "game" / "game.yaml")
    for kind in ("zero", "fifo"):
        refused("verify-view", special_file(held / f"{kind}.yaml", kind), "--game", work / "game" / "game.yaml")
        view = held / "red.yaml"
        view.write_bytes(source)
        special_file(held / "red.yaml.sig", kind)
        refused("verify-view", view, "--game", work / "game" / "game.yaml")


CHECKED_FIELDS = ["seq", "i", "n", "value"]  # a view alone proves these (chains, seeds, rolls)
STATE_FIELDS = ["turn", "cells", "strength", "last_turn"]  # the referee's word: only the audit can check them


@FUZZ
@given(number=st.sampled_from([0, -1, HUGE, -HUGE, 2**63, 10**4000]),
       field=st.sampled_from(CHECKED_FIELDS + STATE_FIELDS))
def test_verify_view_absurd_numbers_signed_by_the_referee(finished: Path, number: int, field: str) -> None:
    work = finished
    game = load_game(work / "game")
    referee = key_of(work, "referee")
    source = (work / "game" / view_rel(3, "red")).read_bytes()
    data = re.sub(rb"(?m)^(\s*-?\s*" + field.encode() + rb"): \d+$", rb"\1: " + str(number).encode(), source)
    folder = work / "hypothesis"
    folder.mkdir(exist_ok=True)
    view = folder / "red.yaml"
    view.write_bytes(data)
    view.with_name("red.yaml.sig").write_text(sign_as(referee, data, game.id, "turn"))
    call = pbem("verify-view", view, "--game", work / "game" / "game.yaml")
    if field in CHECKED_FIELDS and data != source:
        assert call.rc != 0, call


# --- pbem audit -------------------------------------------------------------------------------------------


def damage_cases(work: Path) -> dict[str, Callable[[Path], None]]:
    """Ways to damage a copied archive (each given the copy's game dir)."""
    referee = key_of(work, "referee")
    game_id = load_game(work / "game").id

    def resign(rel: str, data: bytes) -> Callable[[Path], None]:
        def apply(root: Path) -> None:
            (root / rel).write_bytes(data)
            (root / (rel + ".sig")).write_text(sign_as(referee, data, game_id, "turn"))
        return apply

    def special(rel: str, kind: str) -> Callable[[Path], None]:
        def apply(root: Path) -> None:
            special_file(root / rel, kind)
        return apply

    def truncate(rel: str) -> Callable[[Path], None]:
        return lambda root: (root / rel).write_bytes((root / rel).read_bytes()[:100])

    def write(rel: str, data: bytes) -> Callable[[Path], None]:
        return lambda root: (root / rel).write_bytes(data)

    def remove(rel: str) -> Callable[[Path], None]:
        return lambda root: shutil.rmtree(root / rel) if (root / rel).is_dir() else (root / rel).unlink()

    def cut_archive(root: Path) -> None:  # an archive cut short: the newest half of its turns is missing
        turns = sorted((root / "turns").iterdir())
        for folder in turns[len(turns) // 2 :]:
            shutil.rmtree(folder)
        (root / "turns" / turns[0].name / "turn.yaml").write_bytes(b"pbem: 2\nkind: tu")

    turn = "turns/0003/turn.yaml"
    cases: dict[str, Callable[[Path], None]] = {
        "scenario-zero": special("scenario.yaml", "zero"),
        "scenario-fifo": special("scenario.yaml", "fifo"),
        "turn-zero": special(turn, "zero"),
        "turn-fifo": special(turn, "fifo"),
        "turn-sig-zero": special(turn + ".sig", "zero"),
        "turn-sig-fifo": special(turn + ".sig", "fifo"),
        "game-zero": special("game.yaml", "zero"),
        "game-sig-fifo": special("game.yaml.sig", "fifo"),
        "turn-truncated": truncate(turn),
        "turn-sig-not-utf8": write(turn + ".sig", HOSTILE_SIGNATURES["not-utf8"]),
        "turn-sig-random": write(turn + ".sig", HOSTILE_SIGNATURES["random"]),
        "game-truncated": truncate("game.yaml"),
        "scenario-random": write("scenario.yaml", hashlib.sha512(b"x").digest() * 20),
        "view-truncated": truncate("turns/0002/red.yaml"),
        "turn-folder-missing": remove("turns/0002"),
        "turn-folder-a-file": lambda root: (remove("turns/0002")(root), write("turns/0002", b"x")(root)),
        "orders-folder-missing": remove("orders/0002"),
        "archive-cut-short": cut_archive,
        "game-yaml-a-folder": lambda root: (remove("game.yaml")(root), (root / "game.yaml").mkdir()),
    }
    source = (work / "game" / turn).read_bytes()
    for name, data in hostile(source).items():
        if name not in ("long-line", "key-flood"):  # the same paths as deep nesting, at greater cost per copy
            cases[f"turn-{name}-signed"] = resign(turn, data)
    scenario = (work / "game" / "scenario.yaml").read_bytes()
    for name in ("huge-ints", "negative-huge-ints", "every-value-a-list", "deep-block", "truncated-half"):
        cases[f"scenario-{name}"] = write("scenario.yaml", hostile(scenario)[name])
    return cases


def test_audit_of_damaged_archives(finished: Path, tmp_path: Path) -> None:
    assert pbem("audit", finished / "game").rc == 0
    failed = []
    for name, damage in damage_cases(finished).items():
        work = copy_of(finished, tmp_path)
        damage(work / "game")
        call = pbem("audit", work / "game")
        if call.rc == 0 or not (call.out + call.err).strip():
            failed.append(f"{name}: rc {call.rc}\n{call.out}{call.err}")
    assert not failed, "\n".join(failed)


def test_audit_of_a_truncated_export_and_of_what_is_no_archive(finished: Path, tmp_path: Path) -> None:
    exported = tmp_path / "game.tar.gz"
    assert pbem("export", finished / "game", exported).rc == 0
    data = exported.read_bytes()
    for size in (0, 10, len(data) // 2, len(data) - 1):
        cut = tmp_path / f"cut-{size}.tar.gz"
        cut.write_bytes(data[:size])
        refused("audit", cut)
    refused("audit", special_file(tmp_path / "zero", "zero"))
    refused("audit", special_file(tmp_path / "fifo", "fifo"))
    refused("audit", tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    refused("audit", tmp_path / "empty")


# --- pbem decide ------------------------------------------------------------------------------------------


def request_like(world: World) -> bytes:
    """A decision request's shape for red (the referee would write one like it)."""
    doc = {"pbem": load_game(world.root).doc["pbem"], "kind": "decision-request", "game": world.game_id, "seq": 2,
           "side": "red", "index": 0, "topic": "hit", "section": "F3", "question": {"cell": 2},
           "options": ["stand", "shift-left"], "master_previous": "sha256:" + "ab" * 32}
    if doc["pbem"] >= 2:
        doc["deadline"] = "2026-03-04T12:00:00Z"
    return yamlio.dump(doc).encode("utf-8")


def test_decide_hostile_requests(worlds: Callable[[str], World], tmp_path: Path) -> None:
    world = worlds("decide")
    key = world.workdir / "keys" / "red"
    for name, data in hostile(request_like(world)).items():
        folder = tmp_path / name
        folder.mkdir()
        request = folder / "request-000.yaml"
        request.write_bytes(data)
        call = pbem("decide", request, "--answer", "stand", "--key", key)
        if call.rc == 0:  # the shape survived the damage (absurd numbers): a reply, nothing worse
            assert len(list(folder.glob("reply-*.yaml"))) == 1  # reply-SEQ-INDEX.yaml
        request.with_name("request-000.yaml.sig").write_text(sign_as(world.referee, data, world.game_id, "turn"))
        pbem("decide", request, "--answer", "stand", "--key", key, "--game", world.root / "game.yaml")
        refused("decide", request, "--answer", "[[[[[[", "--key", key)
        if name in ("random", "empty", "a-list", "a-scalar", "not-utf8", "deep-flow-lists"):
            refused("decide", request, "--answer", "stand", "--key", key, "--game", world.root / "game.yaml")
    for kind in ("zero", "fifo"):
        refused("decide", special_file(tmp_path / f"{kind}.yaml", kind), "--answer", "stand", "--key", key)
        refused("decide", special_file(tmp_path / f"{kind}-k.yaml", kind), "--answer", "stand", "--key", key,
                "--game", world.root / "game.yaml")
        good = tmp_path / "request-000.yaml"
        good.write_bytes(request_like(world))
        call = refused("decide", good, "--answer", "stand", "--key", special_file(tmp_path / f"{kind}.key", kind))
        assert "not a key file: not a regular file" in call.err, call.err
    big = tmp_path / "big.key"
    big.write_bytes(b"-----BEGIN OPENSSH PRIVATE KEY-----\n" + b"A" * 1_000_000)
    assert "not a key file: over" in refused("decide", tmp_path / "request-000.yaml", "--answer", "stand",
                                             "--key", big).err


@FUZZ
@given(doc=st.dictionaries(st.sampled_from(["pbem", "kind", "game", "seq", "side", "index", "topic", "section",
                                            "question", "options", "master_previous", "extra"]),
                           st.one_of(st.none(), st.booleans(), st.integers(), st.just(HUGE), st.just(-HUGE),
                                     st.text(max_size=20), st.lists(st.integers(), max_size=3),
                                     st.just("decision-request"), st.just("duel-mail"), st.just("red"),
                                     st.just(["stand"])), max_size=12))
def test_decide_random_requests(worlds: Callable[[str], World], doc: dict[str, Any]) -> None:
    world = worlds("decide")
    folder = world.workdir / "hypothesis"
    folder.mkdir(exist_ok=True)
    request = folder / "request-000.yaml"
    data = yamlio.dump(doc).encode("utf-8")
    request.write_bytes(data)
    pbem("decide", request, "--answer", "stand", "--key", world.workdir / "keys" / "red")
    request.with_name("request-000.yaml.sig").write_text(sign_as(world.referee, data, world.game_id, "turn"))
    pbem("decide", request, "--answer", "stand", "--key", world.workdir / "keys" / "red",
         "--game", world.root / "game.yaml")


# --- the mail judge's intake ------------------------------------------------------------------------------


def intake_of(world: World) -> MailIntake:
    return MailIntake([Served(world.root, load_game(world.root))], world.root, 32)


def judge_reads(world: World, raw: bytes) -> None:
    """One mail through the judge's parser and intake: bounded, no exception, every answer within bounds."""
    with bounded("mail intake"):
        outcome = intake_of(world).handle(parse(raw))
    for answer in outcome.answers:
        assert len("\n\n".join(answer.lines).encode("utf-8")) < MAX_ANSWER_BYTES + 4096


def test_mail_intake_hostile_mails(worlds: Callable[[str], World]) -> None:
    world = worlds("mail")
    red = ADDRESSES["red"]
    valid = valid_orders(world)
    for name, data in hostile(valid).items():
        sig = sign_as(world.keys["red"], data, world.game_id).encode()
        judge_reads(world, plain_mail(red, "orders", "see attached", files={"o.yaml": data, "o.yaml.sig": sig}))
        text = data.decode("utf-8", "replace")
        body = ("-----BEGIN PBEM SIGNED FILE-----\nName: o.yaml\n\n" + text + "\n" + sig.decode()
                + "-----END PBEM SIGNED FILE-----\n")
        judge_reads(world, plain_mail(red, "orders", body))
        judge_reads(world, data)  # the bytes as a whole mail
    for name, sig in HOSTILE_SIGNATURES.items():
        judge_reads(world, plain_mail(red, "orders", "x", files={"o.yaml": valid, "o.yaml.sig": sig}))
    many = "\n".join("-----BEGIN PBEM SIGNED FILE-----\n\nx: 1\n" for _ in range(5000))
    judge_reads(world, plain_mail(red, "orders", many))
    nested = "".join(">" * depth + "-----BEGIN PBEM SIGNED FILE-----\n" + ">" * depth + "\n" for depth in range(2000))
    judge_reads(world, plain_mail(red, "orders", nested))


@FUZZ
@given(raw=st.binary(max_size=4000))
def test_mail_intake_random_mails(worlds: Callable[[str], World], raw: bytes) -> None:
    world = worlds("mail")
    judge_reads(world, raw)
    judge_reads(world, b"From: red@players.test\nSubject: x\n\n-----BEGIN PBEM SIGNED FILE-----\n\n" + raw)


def test_a_request_like_the_referees_is_answered(worlds: Callable[[str], World], tmp_path: Path) -> None:
    """The fuzzing above starts from a request `decide` does answer."""
    world = worlds("decide")
    request = tmp_path / "request-000.yaml"
    request.write_bytes(request_like(world))
    call = pbem("decide", request, "--answer", "stand", "--key", world.workdir / "keys" / "red")
    assert call.rc == 0, call
    assert (tmp_path / "reply-0002-000.yaml").is_file()  # the seq in the name
