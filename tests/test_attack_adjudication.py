"""Attacks on this session's adjudication speed work (issue #17).

The commits attacked: 104bd3b6 and b42ece98 (a turn folder written through kept descriptors,
fsyncs on threads), 83a0f060 (scandir listings; the lock yields the last committed seq),
87df9639 and e99ce1c5 (schema nodes made once into judges), 46e77c71 (schema copies found by a
marshal name), a27b663b (orders signatures through `doccache.verified_signer`), 3166a6bb (fbsm
victory in one pass) and 44c8f2ce (adjudicate reads through its own Archive); then the fixes of
081db7c3 (the staging folder) and 3f776670 (sealed copies of players' own files).

Each test plays the unlucky crash, the hostile file, the dishonest player or referee against one
shortcut and asserts what must hold. A test marked xfail(strict) is a defect still open (its
reason names the commit); the others are attacks that failed.

Defects found and since fixed (each test below failed before the fix): a turns/ folder the first
commit created was not made durable in the game folder (104bd3b6, as before it); a staging folder
swapped for a link was written through, overwriting files of the turn's names in the folder linked
to, and the link became the turn (104bd3b6, as before it); a .tmp- link to a folder was never swept
(104bd3b6's `_remove_temporary`, as before it); a seq folder that is a link loop made its listing
raise a bare OSError (83a0f060, a regression from Path.is_dir). Fixed by 081db7c3.
"""

from __future__ import annotations

import errno
import functools
import os
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import pbem.core.archive as archive_module
from pbem.core import doccache, signing
from pbem.core.archive import TMP_PREFIX, commit_folder
from pbem.core.errors import ArchiveError, SignatureError

# --- commit_folder through kept descriptors (104bd3b6, b42ece98) -------------------------------------

FILES = {"turn.yaml": b"t" * 5000, "turn.yaml.sig": b"sig\n", "red.yaml": b"r\n", "blue.yaml": b""}
WRITE_POINTS = ("mkdir", "open", "write", "fsync", "rename")


def _open_fds() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/fd")}


class Injected(BaseException):
    """A crash at one system call (not an Exception: no `except Exception` may carry on after it)."""


def _count_calls(monkeypatch: pytest.MonkeyPatch, final: Path) -> dict[str, int]:
    counts = dict.fromkeys(WRITE_POINTS, 0)
    for name in WRITE_POINTS:
        real = getattr(os, name)

        def counting(*args: Any, real: Any = real, name: str = name, **kwargs: Any) -> Any:
            counts[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(os, name, counting)
    commit_folder(final, FILES)
    monkeypatch.undo()
    return counts


def _write_point_cases() -> list[tuple[str, int, str]]:
    # how often commit_folder calls each: mkdir (staging) 1, open (folder, 4 files, parent) 6,
    # write 3 (small files: one each, none for the empty one), fsync 6 (4 files, the folder, the
    # parent), rename 1
    counts = {"mkdir": 1, "open": 6, "write": 3, "fsync": 6, "rename": 1}
    return [(name, n, how) for name, total in counts.items() for n in range(1, total + 1)
            for how in ("oserror", "crash")]


def test_the_write_points_counted_are_every_call_commit_folder_makes(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "turns").mkdir()
    assert _count_calls(monkeypatch, tmp_path / "turns" / "0001") == {
        "mkdir": 1, "open": 6, "write": 3, "fsync": 6, "rename": 1}


@pytest.mark.parametrize(("call", "n", "how"), _write_point_cases())
def test_a_failure_at_any_write_point_leaves_all_or_nothing_and_no_descriptor(
        call: str, n: int, how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An OSError or a crash at the N-th call of each kind: the caller hears of it, no descriptor
    stays open, the staging folder is gone, and the turn is either whole or absent."""
    turns = tmp_path / "turns"
    turns.mkdir()
    final = turns / "0001"
    real = getattr(os, call)
    seen = [0]
    lock = threading.Lock()

    def failing(*args: Any, **kwargs: Any) -> Any:
        with lock:
            seen[0] += 1
            hit = seen[0] == n
        if hit:
            if how == "crash":
                raise Injected()
            raise OSError(errno.EIO, f"injected at {call} #{n}")
        return real(*args, **kwargs)

    before = _open_fds()
    monkeypatch.setattr(os, call, failing)
    with pytest.raises(Injected if how == "crash" else OSError):
        commit_folder(final, FILES)
    monkeypatch.undo()
    # a worker may still be fsyncing when a crash unwinds the caller: give it a moment
    for _ in range(50):
        if _open_fds() <= before:
            break
        threading.Event().wait(0.01)
    assert _open_fds() <= before, "a descriptor was left open"
    names = sorted(p.name for p in turns.iterdir())
    assert not [name for name in names if name.startswith(TMP_PREFIX)], names
    if names:  # only a failure after the rename (the parent's fsync) leaves the turn, and whole
        assert names == ["0001"] and call in ("open", "fsync") and n == 6
        assert {p.name: p.read_bytes() for p in final.iterdir()} == FILES


def test_a_failed_fsync_on_a_worker_thread_reaches_the_caller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder's fsync runs on the calling thread; each file's on a worker: fail only a worker's."""
    caller = threading.get_ident()
    real = os.fsync
    failed_on: list[int] = []

    def failing(fd: int) -> None:
        if threading.get_ident() != caller and not failed_on:
            failed_on.append(threading.get_ident())
            raise OSError(errno.EIO, "worker fsync failed")
        real(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="worker fsync failed"):
        commit_folder(tmp_path / "0001", FILES)
    assert failed_on and not (tmp_path / "0001").exists()


def test_a_parent_folder_the_commit_creates_is_itself_made_durable(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "game"
    root.mkdir()
    from tests.test_speed_adjudication import record_fsyncs

    synced = record_fsyncs(monkeypatch)
    commit_folder(root / "turns" / "0001", FILES)
    monkeypatch.undo()
    for folder in (root / "turns", root):  # the new entry "0001" in turns/, the new entry "turns" in the game
        info = folder.stat()
        assert (info.st_dev, info.st_ino) in synced, f"{folder} not fsynced"


def test_a_staging_folder_swapped_for_a_link_writes_nothing_outside(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone who can write in turns/ swaps the fresh staging folder for a link to another folder
    (here another game's committed turn) before it is opened: nothing there may be overwritten,
    nothing written, nor a link become the turn."""
    turns = tmp_path / "turns"
    turns.mkdir()
    outside = tmp_path / "other-game" / "turns" / "0001"
    outside.mkdir(parents=True)
    (outside / "turn.yaml").write_bytes(b"another game's turn\n")
    real_mkdir = os.mkdir

    def swapping(path: Any, *args: Any, **kwargs: Any) -> None:
        real_mkdir(path, *args, **kwargs)
        if os.path.basename(os.fspath(path)).startswith(TMP_PREFIX):
            os.rmdir(path)
            os.symlink(outside, path)

    monkeypatch.setattr(os, "mkdir", swapping)
    try:
        commit_folder(turns / "0001", FILES)
    except OSError:
        pass
    monkeypatch.undo()
    assert (outside / "turn.yaml").read_bytes() == b"another game's turn\n", "another game's turn was overwritten"
    assert [p.name for p in outside.iterdir()] == ["turn.yaml"], "the turn's files were written through the link"
    assert not (turns / "0001").is_symlink()


def test_the_sweep_removes_a_temporary_name_that_is_a_link_to_a_folder(tmp_path: Path) -> None:
    root = tmp_path / "game"
    (root / "turns").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.yaml").write_bytes(b"mine\n")
    os.symlink(outside, root / "turns" / f"{TMP_PREFIX}linked")
    archive_module.Archive(root).sweep_temporaries(0)
    assert (outside / "keep.yaml").read_bytes() == b"mine\n"  # never followed
    assert not os.path.lexists(root / "turns" / f"{TMP_PREFIX}linked")


# --- verified_signer for orders (a27b663b) --------------------------------------------------------------


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, signing.SigningKey]:
    folder = tmp_path_factory.mktemp("keys")
    found = {}
    for name in ("red", "blue", "referee"):
        private, _ = signing.write_keypair(name, folder)
        found[name] = signing.load_signing_key(private, passphrase=b"")
    return found


@pytest.fixture()
def clean_cache() -> Iterator[None]:
    doccache.forget()
    yield
    doccache.forget()


ORDERS = b"game: game-one\nside: red\nseq: 1\norders: []\n"


def _allowed(keys: dict[str, signing.SigningKey], *names: str) -> dict[str, str]:
    return {name: keys[name].public_line for name in names}


def test_a_bad_signature_is_never_remembered_good(keys: dict[str, signing.SigningKey], clean_cache: None) -> None:
    namespace = signing.namespace("orders", "game-one")
    allowed = _allowed(keys, "red", "blue")
    good = signing.sign(ORDERS, keys["red"], namespace)
    assert doccache.verified_signer(ORDERS, good, namespace, allowed, file="o") == "red"
    changed = ORDERS.replace(b"orders: []", b"orders: [x]")
    for _ in range(2):  # asked again: refused again
        with pytest.raises(SignatureError):
            doccache.verified_signer(changed, good, namespace, allowed, file="o")
    wrong_key = signing.sign(ORDERS, keys["referee"], namespace)
    for _ in range(2):
        with pytest.raises(SignatureError):
            doccache.verified_signer(ORDERS, wrong_key, namespace, allowed, file="o")
    assert doccache.verified_signer(ORDERS, good, namespace, allowed, file="o") == "red"


def test_a_remembered_signature_is_not_taken_for_another_game_or_side(keys: dict[str, signing.SigningKey],
                                                                      clean_cache: None) -> None:
    namespace = signing.namespace("orders", "game-one")
    good = signing.sign(ORDERS, keys["red"], namespace)
    assert doccache.verified_signer(ORDERS, good, namespace, _allowed(keys, "red", "blue"), file="o") == "red"
    with pytest.raises(SignatureError):  # the same bytes and signature offered to game game-two
        doccache.verified_signer(ORDERS, good, signing.namespace("orders", "game-two"), _allowed(keys, "red", "blue"), file="o")
    with pytest.raises(SignatureError):  # as a turn of game-one
        doccache.verified_signer(ORDERS, good, signing.namespace("turn", "game-one"), _allowed(keys, "red", "blue"), file="o")
    with pytest.raises(SignatureError):  # red's key no longer allowed (only blue's)
        doccache.verified_signer(ORDERS, good, namespace, _allowed(keys, "blue"), file="o")
    # red's key now listed under blue's name: the answer names whose key it is now, not the kept "red"
    renamed = {"blue": keys["red"].public_line}
    assert doccache.verified_signer(ORDERS, good, namespace, renamed, file="o") == "blue"


def test_a_caller_changing_its_allowed_keys_afterwards_changes_nothing_kept(keys: dict[str, signing.SigningKey],
                                                                            clean_cache: None) -> None:
    namespace = signing.namespace("orders", "game-one")
    good = signing.sign(ORDERS, keys["red"], namespace)
    allowed = _allowed(keys, "red")
    assert doccache.verified_signer(ORDERS, good, namespace, allowed, file="o") == "red"
    allowed["red"] = keys["blue"].public_line  # the same dict object, now holding another key
    with pytest.raises(SignatureError):
        doccache.verified_signer(ORDERS, good, namespace, allowed, file="o")


# --- listings by scandir (83a0f060) ---------------------------------------------------------------------


def _hostile_seq_folder(base: Path, outside: Path) -> None:
    base.mkdir(parents=True)
    outside.mkdir()
    (outside / "target.yaml").write_bytes(b"x\n")

    def signed(name: str) -> None:
        (base / name).write_bytes(b"side: red\n")
        (base / (name + ".sig")).write_bytes(b"sig\n")

    signed("red-0001.yaml")
    signed("blue-0002.yaml")
    signed("red-\u0661\u0662\u0663\u0664.yaml")  # Arabic-Indic digits
    signed("red-\uff10\uff10\uff10\uff13.yaml")  # full-width digits
    signed("r\u0435d-0005.yaml")  # a Cyrillic e
    os.mkfifo(base / "red-0006.yaml")
    (base / "red-0006.yaml.sig").write_bytes(b"sig\n")
    (base / "red-0007.yaml").mkdir()  # a folder where a file should be
    (base / "red-0007.yaml.sig").write_bytes(b"sig\n")
    (base / "red-0008.yaml").write_bytes(b"x\n")
    (base / "red-0008.yaml.sig").mkdir()  # a folder where the signature should be
    os.symlink(base / "red-0009.yaml", base / "red-0009.yaml")  # a link to itself
    (base / "red-0009.yaml.sig").write_bytes(b"sig\n")
    os.symlink("red-0011.yaml", base / "red-0010.yaml")  # a loop of two links
    os.symlink("red-0010.yaml", base / "red-0011.yaml")
    (base / "red-0010.yaml.sig").write_bytes(b"sig\n")
    os.symlink(outside / "target.yaml", base / "red-0012.yaml")  # a link out of the archive
    (base / "red-0012.yaml.sig").write_bytes(b"sig\n")
    os.symlink(outside / "missing.yaml", base / "red-0013.yaml")  # a dangling link
    (base / "red-0013.yaml.sig").write_bytes(b"sig\n")
    signed("red-00014.yaml")  # not canonical
    signed("red-0015.yaml\n")  # a newline after the name


def test_hostile_names_and_entries_are_listed_as_the_path_way_listed_them(tmp_path: Path) -> None:
    root = tmp_path / "game"
    base = root / "orders" / "0001"
    _hostile_seq_folder(base, tmp_path / "outside")
    pattern = r"([a-z0-9][a-z0-9-]*)-([0-9]{4,})\.yaml"
    archive = archive_module.Archive(root)
    from tests.test_speed_adjudication import _old_signed_names  # the Path way, as it was before 83a0f060

    assert sorted(archive._signed_names("orders/0001", pattern)) == sorted(_old_signed_names(root, "orders/0001", pattern))
    assert [rel for _, _, rel in archive.orders_files(1)] == [
        "orders/0001/red-0001.yaml", "orders/0001/blue-0002.yaml", "orders/0001/red-0012.yaml"]


def test_a_seq_folder_that_is_a_file_or_a_fifo_lists_nothing(tmp_path: Path) -> None:
    root = tmp_path / "game"
    (root / "orders").mkdir(parents=True)
    (root / "orders" / "0001").write_bytes(b"not a folder\n")
    os.mkfifo(root / "orders" / "0002")
    os.symlink("missing", root / "orders" / "0003")
    archive = archive_module.Archive(root)
    for seq in (1, 2, 3, 4):
        assert archive.orders_files(seq) == []
        assert archive.orphan_receipts(seq) == []


def test_a_seq_folder_that_is_a_link_loop_lists_nothing(tmp_path: Path) -> None:
    root = tmp_path / "game"
    (root / "orders").mkdir(parents=True)
    os.symlink("0001", root / "orders" / "0001")
    (root / "decisions").mkdir()
    os.symlink("0002", root / "decisions" / "0002")
    archive = archive_module.Archive(root)
    for seq in (1, 2):
        assert archive.orders_files(seq) == []
        assert archive.orphan_receipts(seq) == []


def test_odd_digits_never_make_a_committed_turn(tmp_path: Path) -> None:
    root = tmp_path / "game"
    turns = root / "turns"
    turns.mkdir(parents=True)
    (turns / "0001").mkdir()
    for name in ("\u0660\u0660\u0660\u0669", "\uff10\uff10\uff10\uff19", "0009 ", "00009", "\u00b9\u00b2\u00b3\u2074"):
        (turns / name).mkdir()
    (turns / "0008").write_bytes(b"a file\n")
    assert archive_module.Archive(root).latest_seq() == 1


# --- the lock yields the last committed seq (83a0f060) ----------------------------------------------------


def test_the_seq_the_lock_yields_is_listed_after_the_wait(tmp_path: Path) -> None:
    """A second command waiting for the lock while the first commits a turn must see that turn:
    a seq listed before the wait would let it commit the same seq again (or skip one)."""
    root = tmp_path / "game"
    (root / "turns").mkdir(parents=True)
    first_holds = threading.Event()
    seen: list[int] = []

    def second() -> None:
        first_holds.wait()
        with archive_module.Archive(root).locked(wait_seconds=30) as latest:
            seen.append(latest)

    with archive_module.Archive(root).locked() as latest:
        assert latest == 0
        waiter = threading.Thread(target=second)
        waiter.start()
        first_holds.set()
        threading.Event().wait(0.3)  # the second command is now waiting for the lock
        assert seen == []
        commit_folder(root / "turns" / "0001", {"turn.yaml": b"t\n"})
    waiter.join(30)
    assert seen == [1]


# --- schema copies found by a marshal name (46e77c71) -----------------------------------------------------


class _Str(str):
    """A str subclass: marshal refuses it, so the name falls back to repr."""


@pytest.mark.parametrize(("one", "other"), [
    ({"const": 1}, {"const": True}),
    ({"const": 1}, {"const": 1.0}),
    ({"const": 0.0}, {"const": -0.0}),
    ({"enum": [1, 2]}, {"enum": (1, 2)}),
    ({"type": "object", "required": ["a", "b"]}, {"required": ["a", "b"], "type": "object"}),
    ({"properties": {"1": {"type": "string"}}}, {"properties": {1: {"type": "string"}}}),
    ({"const": "a"}, {"const": b"a"}),
    ({"const": _Str("a")}, {"const": "a"}),
])
def test_schemas_that_differ_in_type_or_order_never_share_a_name(one: dict[str, Any], other: dict[str, Any]) -> None:
    from pbem.core import schemas

    first, second = schemas._exact_name(one), schemas._exact_name(other)
    if isinstance(first, bytes) and isinstance(second, bytes):
        assert first != second
    else:  # the repr fallback (as before 46e77c71): a subclass is named as its plain value
        assert first != second or (first == repr(one) == repr(other))


@pytest.mark.parametrize(("schema", "twin", "instance"), [
    ({"const": 1}, {"const": True}, True),
    ({"const": True}, {"const": 1}, 1),
    ({"enum": [0]}, {"enum": [False]}, False),
    ({"type": "object", "properties": {"n": {"maximum": 1}}}, {"type": "object", "properties": {"n": {"maximum": True}}}, {"n": 1}),
])
def test_a_schema_checked_after_its_look_alike_gets_its_own_verdict(schema: dict[str, Any], twin: dict[str, Any],
                                                                    instance: Any) -> None:
    """A fresh copy of `twin` is checked first (and kept by its name); then `schema`'s verdict must be jsonschema's."""
    import copy

    from jsonschema import Draft202012Validator

    from pbem.core import schemas

    for _ in range(2):
        schemas.is_valid(instance, copy.deepcopy(twin))
        assert schemas.is_valid(instance, copy.deepcopy(schema)) == Draft202012Validator(schema).is_valid(instance)


# --- schema nodes made once into judges (87df9639, e99ce1c5) against jsonschema -------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["", "a", "b1", "ab", "1"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b", "x1", "1"]), inner, max_size=3)),
    max_leaves=8)
_NAMES = st.sampled_from(["a", "b", "x1", "1"])
_TYPES = st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null"])


def _keywords(inner: st.SearchStrategy[Any], refs: bool) -> dict[str, st.SearchStrategy[Any]]:
    bound = st.integers(-2, 2)
    made: dict[str, st.SearchStrategy[Any]] = {
        "type": st.one_of(_TYPES, st.lists(_TYPES, min_size=1, max_size=3, unique=True)),
        "enum": st.lists(_VALUES, min_size=1, max_size=3),
        "const": _VALUES,
        "properties": st.dictionaries(_NAMES, inner, max_size=2),
        "patternProperties": st.dictionaries(st.sampled_from(["^a", "1$", "[0-9]"]), inner, max_size=2),
        "additionalProperties": inner,
        "propertyNames": inner,
        "required": st.lists(_NAMES, max_size=2, unique=True),
        "minProperties": bound.map(abs), "maxProperties": bound.map(abs), "minItems": bound.map(abs),
        "maxItems": bound.map(abs), "minLength": bound.map(abs), "maxLength": bound.map(abs),
        "dependentRequired": st.dictionaries(_NAMES, st.lists(_NAMES, max_size=2, unique=True), max_size=2),
        "items": inner,
        "prefixItems": st.lists(inner, min_size=1, max_size=2),
        "uniqueItems": st.booleans(),
        "pattern": st.sampled_from(["^a", "1$", "[0-9]", "^$"]),
        "minimum": bound, "maximum": bound,
        "allOf": st.lists(inner, min_size=1, max_size=3),
        "anyOf": st.lists(inner, min_size=1, max_size=3),
        "oneOf": st.lists(inner, min_size=1, max_size=3),
        "not": inner, "if": inner, "then": inner, "else": inner,
    }
    if refs:  # only to $defs/d, which has none: a loop of refs is more than jsonschema itself survives
        made["$ref"] = st.just("#/$defs/d")
    return made


def _node(inner: st.SearchStrategy[Any], refs: bool = True) -> st.SearchStrategy[Any]:
    makers = _keywords(inner, refs)
    names = st.lists(st.sampled_from(sorted(makers)), min_size=1, max_size=4, unique=True)
    return names.flatmap(lambda chosen: st.fixed_dictionaries({name: makers[name] for name in chosen}))


# every schema also meets these: the edges of the bounds drawn above, true beside 1, nested repeats
_PROBES: list[Any] = [*range(-3, 4), True, False, None, "", "a", "ab", "1", "a1", [], [1], [1, 1], [1, True], [[1], [1]],
                      [{"a": 1}, {"a": True}], {}, {"a": 1}, {"a": True, "b": "a"}, {"1": [1]}, {"x1": {"a": None}}]
_LEAF: st.SearchStrategy[Any] = st.one_of(st.booleans(), st.fixed_dictionaries({}), _node(st.booleans()))
_DEF = _node(st.one_of(st.booleans(), _node(st.booleans(), refs=False)), refs=False)
_SCHEMAS = st.tuples(st.recursive(_LEAF, _node, max_leaves=8), _DEF).map(
    lambda pair: {**pair[0], "$defs": {"d": pair[1]}} if type(pair[0]) is dict else pair[0])


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(schema=_SCHEMAS, instances=st.lists(_VALUES, min_size=1, max_size=4))
def test_random_schemas_get_jsonschemas_verdict(schema: Any, instances: list[Any]) -> None:
    """Never valid where jsonschema says invalid (nor the other way), however nodes nest, repeat and
    refer to a definition, the same schema judged again and again through its kept judges."""
    from jsonschema import Draft202012Validator

    from pbem.core.quickschema import QuickSchema

    if type(schema) is not dict:
        schema = {"allOf": [schema]}
    quick = QuickSchema(schema)
    validator = Draft202012Validator(schema)
    for instance in instances + _PROBES + instances:
        expected = validator.is_valid(instance)
        verdict = quick.verdict(instance)
        assert verdict is None or verdict == expected, (schema, instance, verdict)


# --- a killed adjudication at every system call of the new commit (104bd3b6) ------------------------------

from tests.test_crash_safety import fixed_clock, finish_and_compare, relocate, subprocess_env, templates  # noqa: E402,F401

KILL_INSIDE_COMMIT = """
import os, sys
n, call = int(os.environ["CRASH_AT"]), os.environ["CRASH_CALL"]
inside, count = [False], [0]
real = getattr(os, call)
def dying(*args, **kwargs):
    if inside[0]:
        count[0] += 1
        if count[0] == n:
            os._exit(137)
    return real(*args, **kwargs)
setattr(os, call, dying)
import pbem.core.adjudicator as adjudicator
real_commit = adjudicator.commit_folder
def commit(final, files):
    inside[0] = True
    try:
        return real_commit(final, files)
    finally:
        inside[0] = False
adjudicator.commit_folder = commit
from pbem.core import ruleset
ruleset.register("duel", "tests.rulesets.duel:Duel")
from pbem.cli import main
sys.exit(main(sys.argv[1:]))
"""

# the first adjudication creates turns/ and commits six files (the turn, two views, a signature
# each): open 9 (the game folder for the new turns/, the staging folder, six files, turns/ after the
# rename), write 6, fsync 9 (on threads too)
KILL_POINTS = [("open", n) for n in (1, 2, 3, 8, 9)] + [("write", n) for n in (1, 6)] + [("fsync", n) for n in range(1, 10)]


@pytest.mark.parametrize(("call", "n"), KILL_POINTS)
def test_a_killed_adjudication_at_any_call_of_the_commit_passes_audit_and_is_finished(
        call: str, n: int, templates: dict[str, Any], tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys

    template, command, reference, _ = templates["adjudicate-turn"]
    work = tmp_path / "w"
    shutil.copytree(template, work)
    command = relocate(command, template, work)
    done = subprocess.run([sys.executable, "-c", KILL_INSIDE_COMMIT, *command],
                          env=subprocess_env(CRASH_AT=str(n), CRASH_CALL=call), capture_output=True, text=True, timeout=120)
    assert done.returncode == 137, done.stdout + done.stderr  # the call was reached: the count above holds
    finish_and_compare(work, command, reference)
    assert not [p for p in (work / "game" / "turns").iterdir() if p.name.startswith(TMP_PREFIX)]


# --- fbsm victory in one pass (3166a6bb), against the code it replaced ------------------------------------


@functools.lru_cache(maxsize=1)
def _victory_before_3166a6bb() -> Any:
    """fbsm's victory module as git holds it just before 3166a6bb (not a copy written for the test)."""
    import subprocess
    import types

    repo = Path(__file__).resolve().parent.parent
    source = subprocess.run(["git", "show", "3166a6bb^:pbem/rulesets/fbsm/victory.py"], cwd=repo,
                            capture_output=True, text=True, check=True).stdout
    module = types.ModuleType("pbem.rulesets.fbsm._victory_before")
    module.__package__ = "pbem.rulesets.fbsm"
    exec(compile(source, "victory_before.py", "exec"), module.__dict__)
    return module


@functools.lru_cache(maxsize=1)
def _recorded_fbsm_states() -> tuple[dict[str, Any], ...]:
    from tests.test_speed_adjudication import recorded_turns

    return tuple(turn["state"] for turn in recorded_turns())


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fbsm_victory_in_one_pass_gives_what_the_three_passes_gave(data: st.DataObject) -> None:
    import copy

    from pbem.core.ruleset import get, rules_for
    from pbem.rulesets.fbsm import victory

    states = _recorded_fbsm_states()
    cfg = rules_for(get("fbsm"), states[0]).context
    state = copy.deepcopy(data.draw(st.sampled_from(states)))
    state["result"] = data.draw(st.sampled_from([None, None, None, {"winner": "us", "section": "x", "reason": "y"}]))
    statuses = st.sampled_from(["active", "container", "drawn", "eliminated", "exited", "removed", "Active"])
    for uid, unit in state["units"].items():
        if data.draw(st.integers(0, 3)) == 0:
            unit["status"] = data.draw(statuses)
            unit.setdefault("hex", "0101")
    gone = data.draw(st.sampled_from([None, "us", "german"]))
    for uid, unit in state["units"].items():
        if cfg.counters[uid].side == gone:
            unit["status"] = data.draw(st.sampled_from(["eliminated", "eliminated", "container", "drawn", "exited"]))
            unit.setdefault("hex", "0101")
    before, after = copy.deepcopy(state), copy.deepcopy(state)
    assert victory.check(cfg, after) == _victory_before_3166a6bb().check(cfg, before)
    assert after == before



# --- determinism: a fresh process under any hash seed writes what a warm one wrote ------------------------

RUN_CLI = """
import sys
from pbem.core import ruleset
ruleset.register("duel", "tests.rulesets.duel:Duel")
from pbem.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("hash_seed", ["0", "1", "4242"])
def test_a_fresh_process_under_any_hash_seed_writes_the_warm_runs_bytes(hash_seed: str, templates: dict[str, Any],
                                                                        tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys

    from tests.test_cli_lifecycle import snapshot

    template, command, reference, _ = templates["adjudicate-turn"]
    work = tmp_path / "w"
    shutil.copytree(template, work)
    command = relocate(command, template, work)
    done = subprocess.run([sys.executable, "-c", RUN_CLI, *command], env=subprocess_env(PYTHONHASHSEED=hash_seed),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert snapshot(work / "game") == reference


def test_a_warm_process_writes_what_a_fresh_one_wrote(templates: dict[str, Any], tmp_path: Path) -> None:
    """The same adjudication run twice in one process (the second with every cache warm: kept
    documents, signatures, schema judges) writes the clean run's bytes both times."""
    import shutil

    from tests.test_cli_lifecycle import run, snapshot

    template, command, reference, _ = templates["adjudicate-turn"]
    for attempt in ("cold", "warm"):
        work = tmp_path / attempt
        shutil.copytree(template, work)
        again = relocate(command, template, work)
        assert run(*again).rc == 0
        assert snapshot(work / "game") == reference


# --- the real schemas, reached afresh each time (their marshal name, their judges), on hostile documents ---


def _swap(value: Any) -> Any:
    """A value JSON Schema tells apart from `value` though Python may not (true and 1, 1 and "1")."""
    kind = type(value)
    if kind is bool:
        return int(value)
    if kind is int:
        return value == 1 if value in (0, 1) else str(value)
    if kind is str:
        return int(value) if value.isascii() and value.isdigit() else [value]
    if value is None:
        return False
    if kind is list:
        return {"0": value[0]} if value else {}
    return list(value.values())


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if type(value) is dict:
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif type(value) is list:
        for index, item in enumerate(value):
            yield from _leaves(item, path + (index,))


@functools.lru_cache(maxsize=1)
def _real_documents() -> tuple[tuple[str, Any], ...]:
    from pbem.core import yamlio
    from tests.test_speed_quickschema import CASES

    found = []
    for _game, kind, path in CASES[::3]:
        if kind in ("game", "turn", "view", "receipt", "orders"):
            found.append((kind, yamlio.load_bytes(path.read_bytes(), path.name).data))
    return tuple(found)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_real_schemas_loaded_afresh_agree_with_jsonschema_on_swapped_values(data: st.DataObject) -> None:
    import copy

    from pbem.core import schemas
    from pbem.core.schemafiles import load_schema

    kind, document = data.draw(st.sampled_from(_real_documents()))
    document = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_leaves(document))[1:]))
        holder = document
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = _swap(holder[path[-1]])
    expected = schemas._compiled(load_schema(kind)).validator.is_valid(document)
    assert schemas.is_valid(document, load_schema(kind)) == expected
    assert schemas.is_valid(document, load_schema(kind)) == expected  # the second time by the kept name


@pytest.mark.parametrize("hash_seed", ["0", "99"])
@pytest.mark.parametrize("game", ["fbsm", "bob"])
def test_recorded_games_replay_to_their_bytes_in_a_fresh_process_under_any_hash_seed(hash_seed: str, game: str) -> None:
    """`pbem audit` replays every adjudication of a recorded game (fbsm's one-pass victory included)
    and compares the states, turns and views it makes with the recorded ones."""
    import subprocess
    import sys

    folder = Path(__file__).resolve().parent.parent / "samples" / game / "game"
    done = subprocess.run([sys.executable, "-m", "pbem", "audit", str(folder)], env=subprocess_env(PYTHONHASHSEED=hash_seed),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "adjudications verified" in done.stdout


# --- the fix of the staging folder (081db7c3) attacked in turn --------------------------------------------


def test_a_staging_folder_swapped_after_it_was_opened_is_not_renamed_into_place(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The swap comes later, while the files are being flushed: the real folder moved away, a link
    to another folder put in its name. The link must not become the turn."""
    turns = tmp_path / "turns"
    turns.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = tmp_path / "moved"
    real_fsync = os.fsync
    swapped: list[str] = []
    lock = threading.Lock()

    def swapping(fd: int) -> None:
        with lock:
            if not swapped:
                staging = next(p for p in turns.iterdir() if p.name.startswith(TMP_PREFIX))
                os.rename(staging, moved)
                os.symlink(elsewhere, staging)
                swapped.append(staging.name)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", swapping)
    with pytest.raises(ArchiveError, match="was replaced"):
        commit_folder(turns / "0001", FILES)
    monkeypatch.undo()
    assert swapped
    assert not os.path.lexists(turns / "0001")
    assert list(elsewhere.iterdir()) == []
    assert [p.name for p in turns.iterdir()] == []  # the link in the staging name removed too


def test_a_file_planted_in_the_staging_folder_is_never_written_through(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hard link to someone's file put in the fresh staging folder under a turn file's name: the
    commit must fail rather than truncate and overwrite that file."""
    turns = tmp_path / "turns"
    turns.mkdir()
    victim = tmp_path / "victim.yaml"
    victim.write_bytes(b"keep me\n")
    real_mkdir = os.mkdir

    def planting(path: Any, *args: Any, **kwargs: Any) -> None:
        real_mkdir(path, *args, **kwargs)
        if os.path.basename(os.fspath(path)).startswith(TMP_PREFIX):
            os.link(victim, os.path.join(path, "red.yaml"))

    monkeypatch.setattr(os, "mkdir", planting)
    with pytest.raises(OSError):
        commit_folder(turns / "0001", FILES)
    monkeypatch.undo()
    assert victim.read_bytes() == b"keep me\n"
    assert list(turns.iterdir()) == []


# --- what a kept canonical copy of a player's own file rests on: dump, then read back, is the file --------
# (the copies kept at the intake, in flight at 23:34 as pbem/core/private_copies.py, read a player's
# file through `read_canonical(yamlio.dump(what the strict loader read))`)

HAND_WRITTEN = [
    b"# my orders\nside: red   # me\norders: [{move: A1, to: '0101'}, {fire: B2}]\n",
    b"side: red\norders:\n  - {move: A1, to: 0101x}\n  - move: \"A\\u00e9\"\n    to: 'it''s'\n",
    b"side: red\nnote: |\n  two lines\n  and a tail  \nkeep: >-\n  folded\n  text\n",
    b"side: red\nwords: [yes, no, on, off, y, n, null, ~, true, 'true', .inf, 0o17, 0x1f, 1_000, 1e3, 12:30]\n",
    b"side: red\nbig: 123456789012345678901234567890\nneg: -0\nplus: +5\nzero: 007x\n",
    b"side: red\nanchor: &a {x: 1}\nagain: *a\n",
    b"side: red\nodd: \"tab\\there\\r\\n\\u2028end\"\nemoji: \"\\U0001F600\"\nnbsp: \"\\u00a0x\\u00a0\"\n",
    b"{side: red, orders: [], standing: {b: 1, a: 2}, \"quoted key\": x, '2': two, 3: three}\n",
    b"side: red\nempty: ''\nspaces: '  '\ndash: '-'\ncolon: 'a: b'\nhash: 'a #b'\nlead: ' x'\n",
    b"side: red\ndate: 2026-11-28\ntime: 2026-11-28T00:00:00Z\nver: 1.0\n",
]


@pytest.mark.parametrize("data", HAND_WRITTEN, ids=range(len(HAND_WRITTEN)))
def test_a_hand_written_file_dumped_and_read_back_canonically_is_what_the_strict_loader_read(data: bytes) -> None:
    from pbem.core import yamlio
    from pbem.core.canonical_read import read_canonical
    from pbem.core.errors import PbemError

    try:
        strict = yamlio.load_bytes(data, "orders.yaml").data
    except PbemError:
        return  # refused at the intake: never kept
    text = yamlio.dump(strict).encode("utf-8")
    back = read_canonical(text)
    if back is not None:  # None: not read canonically, so the file itself is read again (only slower)
        assert back == strict and repr(back) == repr(strict)  # types (true, 1, "1") and key order too


def test_a_kept_copy_serves_only_its_own_game_bytes_and_secret(tmp_path: Path) -> None:
    """3f776670's copies: a copy sealed for one game, file or secret is never read as another's."""
    from pbem.core import private_copies
    from pbem.core.archive import Archive

    data = HAND_WRITTEN[0]
    other = HAND_WRITTEN[1]
    doc = {"side": "red", "orders": [{"move": "A1", "to": "0101"}, {"fire": "B2"}]}
    (tmp_path / "game").mkdir()
    archive = Archive(tmp_path / "game")
    archive.write_secret("11" * 32)
    private_copies.keep(archive, "game-one", data, doc)
    assert private_copies.read(archive, "game-one", data) == doc
    assert private_copies.read(archive, "game-two", data) is None  # another game with the same secret
    sealed = archive.read_private(private_copies.copy_name(data), limit=1 << 20)
    assert sealed is not None
    archive.write_private(private_copies.copy_name(other), sealed)  # moved to another file's name
    assert private_copies.read(archive, "game-one", other) is None
    archive.write_secret("22" * 32)  # the same store under another secret
    assert private_copies.read(archive, "game-one", data) is None
