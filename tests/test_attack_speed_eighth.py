"""Attacks on the eighth part of issue #17's speed work (commits 5a4352aa..4c0cdd27).

1. `pbem.cli.run`: one-shot commands run with the cyclic garbage collector off;
2. `archive.fsync_fds`: the fsync workers are raw `_thread` threads fed by `_queue.SimpleQueue`;
3. `hexboard.map_index`: a packaged map's index kept beside the byte-code, read back with `marshal`,
   its `HexMap` loaded on first `.map`;
4. `yamlio._lend_printable_pattern`: PyYAML's reader is lent a compiled pattern through `re._cache`.

Each test plays a hostile file, a dishonest player or referee, a crash or a tired maintainer against
one of them. Seven of these attacks first succeeded (a thread limit, a map changed under a kept
index, an index kept by older field or record code, twice, a copy under umask 0, a planted body of
other types); all are fixed, and every test now pins a defence, able to fail if it goes.
"""

from __future__ import annotations

import ast
import errno
import fcntl
import hashlib
import marshal
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from pbem.core import archive as archive_module, yamlio
from pbem.core.archive import Archive
from pbem.core.errors import PbemError
from pbem.geometry import fields as fields_module
from pbem.rulesets.kit import hexboard, tables
from pbem.rulesets.kit.hexboard import load_map, map_index
from tests.test_speed_kit import HOLED

REPO = Path(__file__).resolve().parent.parent
GUARD = 300  # seconds: a hung child fails the test instead of hanging the run (never asserted on)


def _python(code: str, *args: str, env: dict[str, str] | None = None,
            cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=GUARD)


def _env(**changes: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --- 1. the cyclic collector off for one-shot commands (pbem.cli.run) -----------------------------------

_GARBAGE_PROBE = """
    import contextlib, gc, io, sys
    from pbem.cli import main
    gc.disable()
    found = []
    for args in ([a.split() for a in sys.argv[1:]]):
        for _ in range(2):  # the first run pays the lazy imports' garbage; the second is the command's own
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(args) == 0, args
            found.append(gc.collect())
    print(*found[1::2])
"""


def test_an_audit_without_the_collector_leaves_no_garbage_per_adjudication() -> None:
    """A long game's audit (fbsm: 92 adjudications) leaves no more cyclic garbage than a short one's
    (toc: 25): with the collector off, cycles made per turn would pile up for the whole run."""
    long_game, short_game = "samples/fbsm/game", "samples/toc/game"
    adjudications = [len(list((REPO / game / "turns").iterdir())) for game in (long_game, short_game)]
    assert adjudications[0] - adjudications[1] > 50
    shown = _python(_GARBAGE_PROBE, f"audit {long_game}", f"audit {short_game}")
    assert shown.returncode == 0, shown.stderr
    long_garbage, short_garbage = map(int, shown.stdout.split())
    assert long_garbage - short_garbage < adjudications[0] - adjudications[1], shown.stdout
    assert long_garbage < 1000, shown.stdout  # argparse's few cycles, not the documents'


_HOSTILE_ORDERS = {
    "many orders": lambda head: head + "orders:\n" + "".join(
        f"- {{place: U{i}, hex: '{1 + i % 30:02d}{1 + i % 40:02d}'}}\n" for i in range(20000)),
    "aliases": lambda head: head + "x-junk: &j [" + ",".join(["[1,2,3,4,5,6,7,8,9]"] * 100) + "]\n"
    + "".join(f"y{i}: *j\n" for i in range(1000)) + "orders: []\n",
    "syntax error at the end": lambda head: head + "orders:\n" + "".join(
        f"- {{move: U{i}, to: '0101'}}   # a note\n" for i in range(20000)) + "- [\n",
}


@pytest.mark.parametrize("kind", sorted(_HOSTILE_ORDERS))
def test_a_hostile_orders_file_read_again_and_again_leaves_no_cycles(kind: str, tmp_path: Path) -> None:
    """A hand-written file (PyYAML's parser, the strict builder, the problems raised) makes no cycle:
    a one-shot command reading many of them (an audit of players' orders) stays flat without the collector."""
    head = "pbem: 2\nkind: orders\ngame: g\nseq: 1\nside: us\nphase: us-setup\n"
    path = tmp_path / "orders.yaml"
    path.write_text(_HOSTILE_ORDERS[kind](head), encoding="utf-8")
    shown = _python("""
        import gc, sys
        from pbem.core import yamlio
        gc.disable()
        data = open(sys.argv[1], "rb").read()
        found = []
        for _ in range(4):
            try:
                yamlio.load_bytes(data, "orders.yaml")
            except yamlio.YamlError:
                pass
            found.append(gc.collect())
        print(*found[1:])
    """, str(path))
    assert shown.returncode == 0, shown.stderr
    assert [int(n) for n in shown.stdout.split()] == [0, 0, 0]


def _fd_probe(folder: Path) -> str:
    return f"""
        import contextlib, gc, io, os
        from pbem.cli import main
        gc.disable()
        before = sorted(os.listdir("/proc/self/fd"))
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["demo", "toc", "--seed-file", "samples/toc/seed.txt", "--dir", {str(folder)!r}]) == 0
        after = sorted(os.listdir("/proc/self/fd"))
        print([os.readlink("/proc/self/fd/" + fd) for fd in after if fd not in before])
        print(gc.collect())
    """


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux's /proc/self/fd")
def test_a_whole_demo_without_the_collector_leaves_no_descriptor_open(tmp_path: Path) -> None:
    """Nothing pbem opens (the referee's lock, turn folders, keys) waits for the collector to be closed:
    a demo plays every adjudication in one process, and would run out of descriptors or deadlock on its
    own lock if one did."""
    shown = _python(_fd_probe(tmp_path / "game"))
    assert shown.returncode == 0, shown.stderr
    left_open, garbage = shown.stdout.splitlines()
    assert left_open == "[]"
    assert int(garbage) < 5000


def test_the_referee_lock_is_released_by_its_command_not_by_the_collector(tmp_path: Path) -> None:
    """A command that fails inside the lock, its traceback kept in a cycle (as a caught error often is),
    has let the lock go once `locked` is left, with the collector off."""
    import gc

    game = Archive(tmp_path / "game")
    kept: list[Any] = []
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        try:
            with game.locked():
                raise ValueError("a command failed while holding the lock")
        except ValueError as error:
            kept.extend([error, kept])  # a cycle holding the traceback and every frame in it
        fd = os.open(tmp_path / "game" / ".referee" / "lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another open file: conflicts if still held
        finally:
            os.close(fd)
    finally:
        kept.clear()
        if was_enabled:
            gc.enable()


def test_no_module_of_pbem_frees_a_resource_from_the_collector() -> None:
    """No `__del__`, weakref callback or `weakref.finalize` in pbem: with the collector off, whatever
    they released (a lock, a temporary file) would stay held while a command runs."""
    found = []
    for path in sorted((REPO / "pbem").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "__del__":
                found.append(f"{path.relative_to(REPO)}:{node.lineno} __del__")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] + [getattr(node, "module", None) or ""]
                if any(name.split(".")[0] == "weakref" for name in names):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} weakref")
    assert found == []


def test_the_collector_on_or_off_plays_the_same_game_byte_for_byte(tmp_path: Path) -> None:
    """Determinism: the demo played from one seed file through `python -m pbem` (collector off) and
    through `main` in a process collecting at every few allocations gives the same files."""
    off, on = tmp_path / "off", tmp_path / "on"
    played = subprocess.run([sys.executable, "-m", "pbem", "demo", "toc", "--seed-file", "samples/toc/seed.txt",
                             "--dir", str(off)], capture_output=True, text=True, cwd=REPO, timeout=GUARD)
    assert played.returncode == 0, played.stderr
    collecting = _python("""
        import gc, sys
        from pbem.cli import main
        gc.enable()
        gc.set_threshold(50, 2, 2)
        sys.exit(main(["demo", "toc", "--seed-file", "samples/toc/seed.txt", "--dir", sys.argv[1]]))
    """, str(on))
    assert collecting.returncode == 0, collecting.stderr
    first, second = _tree(off), _tree(on)
    assert sorted(first) == sorted(second) and len(first) > 50
    assert [name for name in first if first[name] != second[name]] == []


# --- 2. fsync workers on raw threads (archive.fsync_fds) ----------------------------------------------


def _files(folder: Path, count: int) -> list[int]:
    return [os.open(folder / f"f{i}", os.O_CREAT | os.O_WRONLY, 0o600) for i in range(count)]


def test_a_forked_child_fsyncs_on_threads_of_its_own(tmp_path: Path) -> None:
    """The parent's workers do not exist in a forked child: the child starts its own, and its fsyncs
    come back (instead of waiting forever on a queue nobody reads)."""
    shown = _python("""
        import os, sys
        from pbem.core import archive
        folder = sys.argv[1]
        fds = [os.open(os.path.join(folder, f"f{i}"), os.O_CREAT | os.O_WRONLY, 0o600) for i in range(5)]
        archive.fsync_fds(fds)  # the parent's workers started
        parent_queue = archive._fsync_jobs[1]
        pid = os.fork()
        if pid == 0:
            try:
                archive.fsync_fds(fds)
                os._exit(0 if archive._fsync_jobs[1] is not parent_queue else 3)
            except BaseException:
                os._exit(4)
        _, status = os.waitpid(pid, 0)
        archive.fsync_fds(fds)  # and the parent's still work
        print(os.waitstatus_to_exitcode(status))
    """, str(tmp_path))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "0"


def test_the_interpreter_exits_while_a_worker_is_blocked_in_fsync(tmp_path: Path) -> None:
    """A worker stuck in fsync (a dying disk) does not hold up the process's exit: the command that
    was interrupted ends, like a daemon thread's process."""
    shown = _python("""
        import os, signal, sys, threading, time  # threading: its exit joins its own threads, not these
        from pbem.core import archive
        real = os.fsync
        def stuck(fd):
            if fd == blocked:
                time.sleep(3600)
            real(fd)
        os.fsync = stuck
        fds = [os.open(os.path.join(sys.argv[1], f"f{i}"), os.O_CREAT | os.O_WRONLY, 0o600) for i in range(3)]
        blocked = fds[0]
        signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
        signal.alarm(1)
        try:
            archive.fsync_fds(fds)
        except KeyboardInterrupt:
            print("interrupted")
        sys.exit(0)
    """, str(tmp_path))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "interrupted"


@pytest.fixture()
def fresh_fsync_threads() -> Iterator[None]:
    """This process's fsync pool forgotten for the test and put back after it."""
    saved = archive_module._fsync_jobs
    archive_module._fsync_jobs = None
    try:
        yield
    finally:
        archive_module._fsync_jobs = saved


def test_an_adjudication_is_durable_when_no_thread_can_be_started(tmp_path: Path, fresh_fsync_threads: None,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import _thread

    real_start = _thread.start_new_thread
    started: list[int] = []

    def limited(function: Any, args: tuple[Any, ...]) -> int:
        if len(started) >= 2:
            raise RuntimeError("can't start new thread")
        started.append(1)
        return real_start(function, args)

    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(_thread, "start_new_thread", limited)

    def recording(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording)
    fds = _files(tmp_path, 4)
    try:
        archive_module.fsync_fds(fds)
    finally:
        for fd in fds:
            os.close(fd)
    assert sorted(synced) == sorted(fds)


def test_a_failed_fsync_among_many_is_raised_once_every_other_is_done(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """EIO on two workers and the caller: the first failure is raised, and only after every fsync asked
    for came back (the caller closes the descriptors next; a worker still on one would fsync another file)."""
    fds = _files(tmp_path, 9)
    failing = {fds[1], fds[4], fds[-1]}
    finished: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if fd in failing:
            finished.append(fd)
            raise OSError(errno.EIO, f"fsync of {fd} failed")
        real_fsync(fd)
        finished.append(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    try:
        with pytest.raises(OSError, match="failed") as raised:
            archive_module.fsync_fds(fds)
        assert sorted(finished) == sorted(fds)
        assert raised.value.errno == errno.EIO
    finally:
        for fd in fds:
            os.close(fd)


_WORKER_KILLER = """
import _thread, os, sys
main_thread, n, count = _thread.get_ident(), int(os.environ["CRASH_AT"]), [0]
lock, real_fsync = _thread.allocate_lock(), os.fsync
def fsync(fd):
    if _thread.get_ident() != main_thread:  # only on an fsync worker
        with lock:
            count[0] += 1
            mine = count[0]
        if mine == n:
            os._exit(137)
    real_fsync(fd)
os.fsync = fsync
from pbem.core import ruleset
ruleset.register("duel", "tests.rulesets.duel:Duel")
from pbem.cli import run
sys.argv = ["pbem", *sys.argv[1:]]
sys.exit(run())
"""


@pytest.mark.parametrize("n", [1, 3, 6])
def test_killed_on_an_fsync_worker_through_the_program_s_entry(n: int, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The crash tests call `main` (collector on) and die at renames; here the process goes through `run`
    (collector off) and dies on a worker thread in the middle of a turn's fsyncs: the archive still passes
    audit, and the command run again writes exactly what a run without the crash writes."""
    import shutil

    from tests.test_cli_lifecycle import run, snapshot
    from tests.test_crash_safety import _adjudicate_first, build_fresh, finish_and_compare, relocate, subprocess_env

    monkeypatch.setenv("PBEM_NOW", "2026-11-24T12:00:00Z")  # receipts: the same bytes in every run
    work, clean = tmp_path / "w", tmp_path / "clean"
    build_fresh(work)
    command = _adjudicate_first(work)
    shutil.copytree(work, clean)
    assert run(*relocate(command, work, clean)).rc == 0
    reference = snapshot(clean / "game")
    killed = subprocess.run([sys.executable, "-c", _WORKER_KILLER, *command], cwd=REPO, capture_output=True,
                            text=True, timeout=GUARD, env=subprocess_env(CRASH_AT=str(n)))
    assert killed.returncode == 137, killed.stdout + killed.stderr
    assert not (work / "game" / "turns" / "0001").exists()  # killed before the rename: nothing committed
    finish_and_compare(work, command, reference)


# --- 3. kept map indexes (hexboard.map_index) -----------------------------------------------------------

OTHER = {**HOLED, "hexes": {"0101": {"terrain": "clear"}, "0302": {"features": ["town"]}},
         "sets": {"edge": ["0103"]}}


@pytest.fixture()
def byte_code_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Python writing byte-code under a scratch PYTHONPYCACHEPREFIX, so kept copies go there."""
    folder = tmp_path / "pycache"
    monkeypatch.setattr(sys, "pycache_prefix", str(folder))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    tables.packaged_yaml.cache_clear()
    yield folder
    tables.packaged_yaml.cache_clear()


@pytest.fixture()
def map_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package of our own holding map.yaml (HOLED), importable as `attack_eighth_maps`."""
    folder = tmp_path / "src" / "attack_eighth_maps"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "map.yaml").write_text(yaml.safe_dump(HOLED), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.delitem(sys.modules, "attack_eighth_maps", raising=False)
    return folder


PACKAGED = {"m": "map.yaml"}


def _kept(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.index"))


def _a_new_process() -> None:
    """What a new process has not yet read (the in-process memo of packaged files)."""
    tables.packaged_yaml.cache_clear()


def test_a_kept_index_of_other_bytes_under_the_same_name_is_not_used(byte_code_cache: Path,
                                                                     map_package: Path) -> None:
    """The map file replaced (an upgrade, another map under the same name): its own index is used,
    never the one kept for the old bytes, though that one is still there."""
    first = map_index("m", "attack_eighth_maps", PACKAGED)
    assert first.terrain("0101") == "woods" and len(_kept(byte_code_cache)) == 1
    (map_package / "map.yaml").write_text(yaml.safe_dump(OTHER), encoding="utf-8")
    _a_new_process()
    again = map_index("m", "attack_eighth_maps", PACKAGED)
    assert again.terrain("0101") == "clear" and again.features("0302") == ("town",) and again.sets["edge"] == ("0103",)
    assert len(_kept(byte_code_cache)) == 2
    _a_new_process()
    kept = map_index("m", "attack_eighth_maps", PACKAGED)
    assert kept._map is None and kept.terrain("0101") == "clear"


def test_the_map_behind_a_kept_index_is_the_map_it_was_kept_for(byte_code_cache: Path, map_package: Path) -> None:
    map_index("m", "attack_eighth_maps", PACKAGED)
    _a_new_process()
    index = map_index("m", "attack_eighth_maps", PACKAGED)
    assert index._map is None and index.terrain("0101") == "woods"
    (map_package / "map.yaml").write_text(yaml.safe_dump(OTHER), encoding="utf-8")
    assert index.map.terrain("0101") == index.terrain("0101")


def _changed_copy(module: Any, folder: Path, new_source: bytes | None = None) -> Path:
    other = folder / f"changed_{module.__name__.rsplit('.', 1)[-1]}.py"
    other.write_bytes(new_source if new_source is not None else Path(module.__file__).read_bytes() + b"\n# changed\n")
    return other


@pytest.fixture()
def fresh_keys() -> Iterator[None]:
    hexboard._index_key.cache_clear()
    tables._reader_key.cache_clear()
    yield
    hexboard._index_key.cache_clear()
    tables._reader_key.cache_clear()


@pytest.mark.parametrize("module", ["fields", "records"])
def test_an_index_kept_before_a_change_to_the_map_reading_code_is_not_used(
        byte_code_cache: Path, tmp_path: Path, module: str, fresh_keys: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.core import records

    owner = {"fields": fields_module, "records": records}[module]
    map_index("m", "pbem.rulesets.toc.data", {"m": "map.yaml"})
    monkeypatch.setattr(owner, "__file__", str(_changed_copy(owner, tmp_path)))
    hexboard._index_key.cache_clear()
    tables._reader_key.cache_clear()
    _a_new_process()
    assert map_index("m", "pbem.rulesets.toc.data", {"m": "map.yaml"})._map is not None  # indexed again


def test_a_map_the_new_code_refuses_is_not_let_through_by_its_kept_index(
        byte_code_cache: Path, tmp_path: Path, fresh_keys: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    package, packaged = "pbem.rulesets.toc.data", {"m": "map.yaml"}
    map_index("m", package, packaged)
    stricter = "^[a-z]$"  # one letter: every terrain of the toc map is refused
    source = Path(fields_module.__file__ or "").read_bytes().replace(
        b'NAME_PATTERN = "^[a-z][a-z0-9_-]*$"', f'NAME_PATTERN = "{stricter}"'.encode())
    monkeypatch.setattr(fields_module, "__file__", str(_changed_copy(fields_module, tmp_path, source)))
    monkeypatch.setattr(fields_module, "NAME_RE", re.compile(stricter[1:-1]))  # the new code, loaded
    hexboard._index_key.cache_clear()
    tables._reader_key.cache_clear()
    _a_new_process()
    with pytest.raises(PbemError):
        load_map("m", package, packaged)  # what the new code says of the map
    with pytest.raises(PbemError):
        map_index("m", package, packaged)


@pytest.fixture()
def no_umask() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_a_kept_index_is_no_more_writable_than_the_byte_code_beside_it(byte_code_cache: Path, map_package: Path,
                                                                      no_umask: None) -> None:
    import py_compile

    os.chmod(map_package / "map.yaml", 0o644)
    os.chmod(map_package / "__init__.py", 0o644)
    compiled = py_compile.compile(str(map_package / "__init__.py"), doraise=True)
    assert compiled is not None
    byte_code = Path(compiled)
    assert byte_code.stat().st_mode & 0o777 == 0o644  # what Python itself writes under umask 0
    map_index("m", "attack_eighth_maps", PACKAGED)
    (kept,) = _kept(byte_code_cache)
    assert kept.parent == byte_code.parent
    assert kept.stat().st_mode & 0o022 == 0, oct(kept.stat().st_mode)


def _plant(package: str, name: str, body: bytes) -> None:
    """A copy with a valid header (as only someone who can write byte-code can plant one)."""
    path = yamlio.packaged_file(package, name)
    assert path is not None
    tables.keep_bytes(path, yamlio.read_packaged(package, name), "index", hexboard._index_key(), body)


def test_a_kept_body_of_the_right_length_but_other_types_is_passed_over(byte_code_cache: Path) -> None:
    from pbem.rulesets.bob import context as bob

    package, name = bob.PACKAGE, bob.PACKAGED_MAPS[bob.DEFAULT_MAP]
    map_index("m", package, {"m": name})
    _plant(package, name, marshal.dumps(("odd-low", [], [], [], [], [], [])))
    _a_new_process()
    index = map_index("m", package, {"m": name})
    assert type(index.terrain_of) is dict and index._map is not None  # passed over and indexed again


def test_an_unwritable_cache_folder_keeps_nothing_and_changes_nothing(tmp_path: Path, map_package: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Byte-code cannot be written (the prefix is under a file: every mkdir fails, even as root): the map
    is indexed every time, correctly, and no temporary is left anywhere."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_bytes(b"")
    monkeypatch.setattr(sys, "pycache_prefix", str(blocker / "pycache"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    _a_new_process()
    for _ in range(2):
        index = map_index("m", "attack_eighth_maps", PACKAGED)
        assert index._map is not None and index.terrain("0101") == "woods"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.suffix in (".tmp", ".index")) == []
    _a_new_process()


_KEEPER = """
    import os, sys, time
    sys.pycache_prefix = sys.argv[1]
    sys.dont_write_bytecode = False
    from pbem.rulesets.kit.hexboard import map_index
    while not os.path.exists(sys.argv[2]):
        time.sleep(0.001)
    index = map_index("m", "pbem.rulesets.fbsm.data", {"m": "map.yaml"})
    print(index._map is None)
"""


def test_processes_keeping_the_same_index_at_once_leave_one_good_copy(tmp_path: Path) -> None:
    cache, start = tmp_path / "pycache", tmp_path / "start"
    children = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(_KEEPER), str(cache), str(start)],
                                 cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(6)]
    start.write_bytes(b"")
    outputs = [child.communicate(timeout=GUARD) for child in children]
    assert [child.returncode for child in children] == [0] * 6, outputs
    assert len(_kept(cache)) == 1
    assert [p for p in cache.rglob("*.tmp")] == []
    shown = _python(_KEEPER, str(cache), str(start))
    assert shown.stdout.strip() == "True", shown.stderr  # the copy left is whole: read back, not rebuilt


_FIELDS_PROBE = """
    import hashlib, sys
    sys.pycache_prefix = sys.argv[1]
    sys.dont_write_bytecode = False
    from pbem.rulesets.kit.hexboard import HexIndex, load_map, map_index
    for package, name in (("pbem.rulesets.fbsm.data", "map.yaml"), ("pbem.rulesets.toc.data", "map.yaml"),
                          ("pbem.rulesets.bob.data", "board1.yaml")):
        index = map_index("m", package, {"m": name})
        fresh = HexIndex.of(load_map("m", package, {"m": name}))
        print(index._map is None, hashlib.sha256(repr(index.fields()).encode()).hexdigest(),
              hashlib.sha256(repr(fresh.fields()).encode()).hexdigest())
"""


def test_a_kept_index_is_the_fresh_one_down_to_its_order_under_any_hash_seed(tmp_path: Path) -> None:
    """Kept under one hash seed and read under another: every dict and tuple in the same order as an
    index built fresh (rules iterate them, so an order kept from one process must be every process's)."""
    cache = tmp_path / "pycache"
    runs = [_python(_FIELDS_PROBE, str(cache), env=_env(PYTHONHASHSEED=seed)) for seed in ("0", "1", "2")]
    assert [run.returncode for run in runs] == [0, 0, 0], [run.stderr for run in runs]
    lines = [[line.split() for line in run.stdout.splitlines()] for run in runs]
    assert [[kept for kept, _, _ in run] for run in lines] == [["False"] * 3, ["True"] * 3, ["True"] * 3]
    assert len({digest for run in lines for _, a, b in run for digest in (a, b)}) == 3  # one per map


@pytest.mark.parametrize("game", ["fbsm", "toc", "bob"])
def test_an_audit_replays_alike_with_kept_indexes_on_and_off_under_two_hash_seeds(game: str, tmp_path: Path) -> None:
    shown = {}
    for seed in ("0", "1"):
        cache = tmp_path / f"pycache-{seed}"
        for keeping in ("off", "first", "kept"):
            env = _env(PYTHONHASHSEED=seed, PYTHONPYCACHEPREFIX=str(cache),
                       PYTHONDONTWRITEBYTECODE="1" if keeping == "off" else None)
            run = subprocess.run([sys.executable, "-m", "pbem", "audit", f"samples/{game}/game"], cwd=REPO,
                                 capture_output=True, text=True, env=env, timeout=GUARD)
            assert run.returncode == 0, run.stdout + run.stderr
            shown[seed, keeping] = run.stdout
            assert bool(_kept(cache)) == (keeping != "off")
    assert len(set(shown.values())) == 1, shown


def test_a_context_with_a_kept_index_copies_and_loads_its_map(byte_code_cache: Path) -> None:
    """Nothing pickles a context, but `copy.deepcopy` of one (its lazy map loader shared) must still work
    and give a map equal to the packaged one."""
    import copy

    from pbem.rulesets.toc import context as toc

    toc.prepare({})
    _a_new_process()
    ctx = toc.prepare({})
    assert ctx.hexes._map is None
    twin = copy.deepcopy(ctx)
    assert twin.hexes.map == load_map(toc.DEFAULT_MAP, toc.PACKAGE, toc.PACKAGED_MAPS)
    assert ctx.hexes._map is None  # the copy's loading left the original untouched


# --- 4. PyYAML's reader lent its pattern (yamlio._lend_printable_pattern) --------------------------------

_READER_PROBE = """
    import hashlib, re, sys
    mode = sys.argv[1]
    if mode == "plain":
        import yaml
    else:
        from pbem.core import yamlio
        if mode == "purged":
            yamlio._lend_printable_pattern()
            re.purge()  # cleared between the loan and PyYAML's import
            import yaml
        elif mode == "full":
            for i in range(re._MAXCACHE + 10):
                re.compile(f"filler{i}")
        elif mode == "already":
            import yaml
        elif mode == "another pyyaml":  # a PyYAML whose reader writes its class otherwise: the loan is not taken
            yamlio._PYYAML_NON_PRINTABLE = yamlio._PYYAML_NON_PRINTABLE.replace(chr(9), chr(92) + "t")
        if mode == "evicted":  # lent, then pushed out of the cache before PyYAML's import compiles
            yamlio._lend_printable_pattern()
            for i in range(re._MAXCACHE + 10):
                re.compile(f"filler{i}")
            import yaml
        yaml = yamlio._pyyaml()
    pattern = yaml.reader.Reader.NON_PRINTABLE
    taken = mode != "plain" and pattern.pattern == yamlio._NON_PRINTABLE
    assert taken == (mode in ("lent", "full")), (mode, pattern.pattern)  # the attack reached what it meant to
    every = "".join(map(chr, range(0x110000)))
    refused = [m.start() for m in pattern.finditer(every)]
    print(hashlib.sha256(repr(refused).encode()).hexdigest(), len(refused))
    answers = []
    for code in (0x08, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x7E, 0x7F, 0x84, 0x85, 0x86, 0x9F, 0xA0, 0xD7FF, 0xD800,
                 0xDFFF, 0xE000, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF):
        try:
            yaml.load("a: 'x" + chr(code) + "y'\\n", Loader=yaml.SafeLoader)  # the pure reader, not libyaml
            answers.append("ok")
        except yaml.YAMLError as error:
            answers.append(type(error).__name__)
    print(" ".join(answers))
"""


def test_pyyaml_s_reader_accepts_and_refuses_the_same_characters_however_the_loan_went() -> None:
    """Lent and taken, lent then purged from `re`'s cache, lent into a full cache, lent then evicted, not
    lent (PyYAML imported first), lent under another PyYAML's text, or PyYAML alone: the pure reader
    refuses exactly the same code points."""
    modes = ("plain", "lent", "purged", "full", "evicted", "already", "another pyyaml")
    shown = {mode: _python(_READER_PROBE, mode) for mode in modes}
    assert {mode: run.returncode for mode, run in shown.items()} == dict.fromkeys(shown, 0), \
        {mode: run.stderr for mode, run in shown.items()}
    outputs = {run.stdout for run in shown.values()}
    assert len(outputs) == 1, shown
    (output,) = outputs
    assert "ReaderError" in output and output.split()[1] != "0"


def test_the_loan_is_taken_only_under_pyyaml_s_own_pattern_text() -> None:
    """The lent entry answers one key of `re`'s cache, PyYAML's exact text with no flags: a compile of that
    text with a flag, or of any other text, gets its own pattern."""
    shown = _python("""
        import re
        from pbem.core import yamlio
        yamlio._pyyaml()
        lent = re.compile(yamlio._PYYAML_NON_PRINTABLE)
        flagged = re.compile(yamlio._PYYAML_NON_PRINTABLE, re.IGNORECASE)
        other = re.compile(yamlio._PYYAML_NON_PRINTABLE + "x")
        print(lent.pattern == yamlio._NON_PRINTABLE, flagged.pattern == yamlio._PYYAML_NON_PRINTABLE,
              other.pattern == yamlio._PYYAML_NON_PRINTABLE + "x")
    """)
    assert shown.stdout.split() == ["True", "True", "True"], shown.stderr


def test_the_hash_of_every_packaged_map_index_is_not_that_of_its_yaml(byte_code_cache: Path) -> None:
    """The kept index's name carries the source's SHA-256 and its kind: a JSON copy of the same map and
    its index never stand for each other."""
    package, name = "pbem.rulesets.fbsm.data", "map.yaml"
    map_index("m", package, {"m": name})
    tables.packaged_yaml(package, name)
    (index,) = _kept(byte_code_cache)
    digest = hashlib.sha256(yamlio.read_packaged(package, name)).hexdigest()
    json_copies = sorted(byte_code_cache.rglob(f"*.{digest}.json"))
    assert index.name.endswith(f".{digest}.index") and len(json_copies) == 1
    assert tables.kept_bytes(yamlio.packaged_file(package, name) or "", yamlio.read_packaged(package, name),
                             "json", hexboard._index_key()) is None
