"""The game directory: where every file of a game lives, written append-only and atomically.

Layout (seq k as four digits, NNNN):

    game.yaml, game.yaml.sig          genesis, referee-signed
    scenario.yaml                     the scenario, hashed in game.yaml
    .referee/chain-secret             s_L (mode 0600, never copied anywhere)
    .referee/hidden-secret            t_L of the hidden chain (version 2; mode 0600)
    .referee/chain-secret.marks       checkpoints of each chain, sealed with its secret (saves time only)
    .referee/hidden-secret.marks
    .referee/lock                     serialises referee commands
    views/0000/<side>.yaml(.sig)      the starting view of each side
    orders/NNNN/<side>-<n>.yaml(.sig) every accepted orders file, n counting arrivals
    orders/NNNN/<side>-<n>.receipt.yaml(.sig)   the referee's receipt for it (version 2)
    decisions/NNNN/request-<j>.yaml(.sig)      requests, j the decision index
    decisions/NNNN/reply-<j>-<n>.yaml(.sig)    replies, n counting arrivals
    decisions/NNNN/reply-<j>-<n>.receipt.yaml(.sig)   the referee's receipt for it (version 2)
    decisions/NNNN/lapse-<j>.yaml(.sig)        the referee's record that request j went
                                               unanswered past its deadline
    turns/NNNN/turn.yaml(.sig)        the master record of adjudication k
    turns/NNNN/<side>.yaml(.sig)      that side's view k

A signed pair is written signature first, so a file never stands without its signature; an
orphaned `.sig` left by a crash is ignored and later overwritten. A turn (master plus every
view) is written into a temporary folder and renamed into place in one step, so either all of
it exists or none of it does.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, NamedTuple

from .errors import ArchiveError

SECRET_DIR = ".referee"
SECRET_FILE = "chain-secret"
HIDDEN_SECRET_FILE = "hidden-secret"
RECEIPT_SUFFIX = ".receipt.yaml"
LOCK_FILE = "lock"
TMP_PREFIX = ".tmp-"
LOCK_WAIT_SECONDS = 60
MAX_ARCHIVED_BYTES = 16 * 1024 * 1024  # a turn file of a long game stays far below this
MAX_SIGNATURE_BYTES = 64 * 1024


_COMMITTED_TURN = re.compile(r"[0-9]{4,}")  # a seq folder's name (turns/, orders/, decisions/)


def seq_dir(seq: int) -> str:
    return f"{seq:04d}"


def turn_rel(seq: int) -> str:
    return f"turns/{seq_dir(seq)}/turn.yaml"


def view_rel(seq: int, side: str) -> str:
    """Where view `seq` of a side lives; view 0 is written with the game file."""
    if seq == 0:
        return f"views/0000/{side}.yaml"
    return f"turns/{seq_dir(seq)}/{side}.yaml"


def receipt_rel(rel: str) -> str:
    """The receipt beside an accepted file: orders/0003/german-0007.yaml -> ....receipt.yaml."""
    if not rel.endswith(".yaml"):
        raise ValueError(f"{rel}: receipts are for .yaml files")
    return rel[: -len(".yaml")] + RECEIPT_SUFFIX


def _is_seq_name(name: str) -> bool:
    """A seq folder's name as pbem writes it: ASCII digits, zero-padded to four, no further leading zeros.

    The same as `_COMMITTED_TURN.fullmatch(name) and _canonical(name, 4)`, without a regex or a
    number formatted per folder (a long game lists a hundred of them per command).
    """
    return name.isdigit() and name.isascii() and (len(name) == 4 or (len(name) > 4 and name[0] != "0"))


def _canonical(digits: str, width: int) -> bool:
    """`digits` is how pbem writes its number: zero-padded to `width`, no further leading zeros."""
    return digits == f"{int(digits):0{width}d}"


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (or a file's content) to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


_FSYNC_THREADS = 8
_fsync_jobs: tuple[int, Any] | None = None  # (the process they belong to, the queue its fsync threads wait on)


def fsync_fds(fds: list[int]) -> None:
    """Flush every one of the open files or folders `fds` to disk, returning once all are.

    The fsyncs run at the same time (on `_FSYNC_THREADS` threads kept for the process, the last one
    on the calling thread): the file system can then write them in one journal commit instead of
    one commit (and one disk cache flush) after another. Each descriptor still gets its own fsync,
    so what is durable when this returns is exactly what it was one by one. The threads and queues
    are the C ones under `threading` and `queue` (`_thread`, `_queue`): importing those two modules
    and starting `threading.Thread`s cost a one-shot `pbem adjudicate` 2.3 ms of CPU more, and
    `concurrent.futures` (with `logging`) more still.
    """
    if len(fds) < 2:
        for fd in fds:
            os.fsync(fd)
        return
    from _queue import SimpleQueue

    jobs = _fsync_queue()
    if jobs is None:  # no thread could be started: one after another, on this one
        for fd in fds:
            os.fsync(fd)
        return
    done: Any = SimpleQueue()  # each worker puts None or its failure, once per fd handed over
    for fd in fds[:-1]:
        jobs.put((fd, done))
    failures: list[BaseException] = []
    try:
        os.fsync(fds[-1])
    except OSError as error:
        failures.append(error)
    for _ in fds[:-1]:  # every fsync asked for is waited for, whatever failed
        failure = done.get()
        if failure is not None:
            failures.append(failure)
    if failures:
        raise failures[0]


def _fsync_queue() -> Any:
    """The queue of this process's fsync threads (started on first use; a forked child starts its own).

    None when not one thread could be started (a limit on the process's threads): the caller then
    does its fsyncs itself. The threads that did start are kept, however few.
    """
    global _fsync_jobs
    if _fsync_jobs is None or _fsync_jobs[0] != os.getpid():
        import _thread
        from _queue import SimpleQueue

        jobs: Any = SimpleQueue()
        started = 0
        for _ in range(_FSYNC_THREADS):  # like daemon threads: they never hold up the interpreter's exit
            try:
                _thread.start_new_thread(_fsync_worker, (jobs,))
            except RuntimeError:  # "can't start new thread"
                break
            started += 1
        if not started:
            return None
        _fsync_jobs = (os.getpid(), jobs)
    return _fsync_jobs[1]


def _fsync_worker(jobs: Any) -> None:
    while True:
        fd, done = jobs.get()
        try:
            os.fsync(fd)
        except BaseException as error:  # handed to the caller, which waits for every fd
            done.put(error)
        else:
            done.put(None)


def _temporary(folder: Path, make: Callable[[str], object]) -> str:
    """A new TMP_PREFIX name in `folder`, made by `make(path)` (which fails if the name exists).

    What `tempfile.mkstemp`/`mkdtemp` do, without importing `tempfile` (with `shutil`, `random`,
    `bz2` and `lzma`, some 3 ms of every command's start-up).
    """
    while True:
        candidate = os.path.join(folder, TMP_PREFIX + os.urandom(6).hex())
        try:
            make(candidate)
            return candidate
        except FileExistsError:
            continue


def _remove_tree(path: str | Path) -> None:
    """Remove a temporary folder; a link in its place is removed itself, never followed."""
    if os.path.islink(path):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    import shutil  # only when a temporary is left over or a commit failed

    shutil.rmtree(path, ignore_errors=True)


def _make_durable_folders(folder: Path) -> None:
    """Create `folder` and any missing folder above it, each new entry flushed in its parent."""
    missing = []
    while not folder.is_dir():
        missing.append(folder)
        folder = folder.parent
    for new in reversed(missing):
        new.mkdir(exist_ok=True)
        fsync_dir(new.parent)


def atomic_write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write to a temporary file beside `path`, flush it to disk, rename it over `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    opened: list[int] = []
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    tmp = _temporary(path.parent, lambda name: opened.append(os.open(name, flags, 0o600)))
    fd = opened[0]
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def write_signed(path: Path, data: bytes, signature: str) -> None:
    """A file and its detached signature: the signature lands first."""
    atomic_write(path.with_name(path.name + ".sig"), signature.encode("utf-8"))
    atomic_write(path, data)


def commit_folder(final: Path, files: Mapping[str, bytes]) -> None:
    """Create `final` with exactly these files, all at once, or not at all.

    The files are written into a staging folder beside `final` through descriptors kept open
    (created relative to the folder's own descriptor), each of them and the folder flushed to
    disk, then the folder is renamed into place and its parent flushed.
    """
    if final.exists():
        raise ArchiveError(f"{final} already exists; the archive only grows")
    if not final.parent.is_dir():
        _make_durable_folders(final.parent)  # turns/ at the first turn: its entry in the game folder too
    staging = _temporary(final.parent, lambda name: os.mkdir(name, 0o700))
    fds: list[int] = []
    try:
        # Not through a link put in the staging folder's place, and only into files it creates.
        fds.append(os.open(staging, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC))
        folder = fds[0]
        for name, data in files.items():
            fds.append(os.open(name, _NEW_FILE, 0o666, dir_fd=folder))  # the mode `open(name, "wb")` gives
            _write_all(fds[-1], data)
        fsync_fds(fds[1:] + fds[:1])
        if not _same_file(os.lstat(staging), os.fstat(folder)):  # swapped since: rename nothing of another
            raise ArchiveError(f"{staging} was replaced while the turn was written into it")
        os.rename(staging, final)
    except BaseException:
        _remove_tree(staging)
        raise
    finally:
        for fd in fds:
            os.close(fd)
    fsync_dir(final.parent)


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_inside(path: str, root: str, max_bytes: int) -> bytes | None:
    """The bytes of `path` if it is plainly a file of the archive rooted at the resolved `root`, else None.

    The same test as `Archive._read_checked` (a regular file, no link as its last part, inside
    the game dir once every link above it is followed, at most `max_bytes`) in a few system
    calls: the file opened without following a link is the file looked at (same device and
    inode), and where it really is comes from the open descriptor itself (Linux's
    /proc/self/fd), so no folder can be swapped between the test and the read. None for
    anything else, including no /proc: the caller then asks step by step, which says what is wrong.
    """
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        opened = os.fstat(fd)
        if opened.st_ino != info.st_ino or opened.st_dev != info.st_dev:
            return None
        real = os.readlink(f"/proc/self/fd/{fd}")
        if not real.startswith(root.rstrip("/") + "/"):
            return None
        parts = [os.read(fd, opened.st_size + 1)]
        size = len(parts[0])
        while parts[-1]:  # to the end, as `Path.read_bytes` reads: the file may have grown
            if size > max_bytes:
                return None
            parts.append(os.read(fd, 1 << 16))
            size += len(parts[-1])
        return b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


class StoredFile(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    """One signed file in the archive, with its path relative to the game dir."""

    rel: str
    data: bytes
    signature: str


def _remove_temporary(entry: os.DirEntry[str]) -> None:
    """What an interrupted write left: a folder (not followed if a link) or a file."""
    try:
        is_dir = entry.is_dir(follow_symlinks=False)  # a link is removed itself (rmtree refuses one)
    except OSError:
        is_dir = False
    if is_dir:
        _remove_tree(entry.path)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(entry.path)


def _listing(folder: str) -> dict[str, os.DirEntry[str]]:
    """A folder's entries by name; none if it is missing or no folder (as `Path.is_dir` would say)."""
    try:
        with os.scandir(folder) as entries:
            return {entry.name: entry for entry in entries}
    except OSError as error:
        if error.errno in _NOT_THERE:  # missing, no folder, a link loop: `Path.is_dir` says False
            return {}
        raise


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _name_pattern(pattern: str) -> re.Pattern[str]:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(pattern)
    return compiled


_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # what `Path.is_file` takes for "no file"


def _is_file_entry(entry: os.DirEntry[str] | None) -> bool:
    """`Path.is_file()` of a listed entry (a link followed); False for None (not listed)."""
    if entry is None:
        return False
    try:
        return entry.is_file()
    except OSError as error:
        if error.errno in _NOT_THERE:
            return False
        raise


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return False


class Archive:
    """Read and append the files of one game directory."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._resolved_root: Path | None = None  # resolved on the first read, once per command

    # --- paths ----------------------------------------------------------------------------------
    def path(self, rel: str) -> Path:
        return self.root / rel

    @property
    def game_file(self) -> Path:
        return self.root / "game.yaml"

    def exists(self) -> bool:
        return self.game_file.is_file()

    def require(self) -> None:
        if not self.exists():
            raise ArchiveError(f"{self.root} is not a game directory (no game.yaml)")

    # --- reading --------------------------------------------------------------------------------
    def read(self, rel: str, max_bytes: int = MAX_ARCHIVED_BYTES) -> bytes:
        """A file of the archive: a regular file inside the game dir, of bounded size."""
        if self._resolved_root is None:
            self._resolved_root = self.root.resolve()
        data = _read_inside(os.path.join(self.root, rel), os.fspath(self._resolved_root), max_bytes)
        return data if data is not None else self._read_checked(rel, max_bytes)

    def _read_checked(self, rel: str, max_bytes: int) -> bytes:
        """`read` step by step, saying what is wrong (a file `_read_inside` passed over)."""
        path = self.path(rel)
        if self._resolved_root is None:
            self._resolved_root = self.root.resolve()
        root = self._resolved_root
        if not path.resolve().is_relative_to(root) or path.is_symlink():
            raise ArchiveError(f"{rel}: not a file of this archive")
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise ArchiveError(f"{rel}: not a regular file")
            if info.st_size > max_bytes:
                raise ArchiveError(f"{rel}: {info.st_size} bytes, over the limit of {max_bytes}")
            return path.read_bytes()
        except FileNotFoundError:
            raise ArchiveError(f"{rel}: missing from {self.root}") from None

    def read_signed(self, rel: str) -> StoredFile:
        data = self.read(rel)
        try:
            signature = self.read(rel + ".sig", MAX_SIGNATURE_BYTES).decode("utf-8")
        except UnicodeDecodeError:
            raise ArchiveError(f"{rel}.sig: not text") from None
        return StoredFile(rel, data, signature)

    def turn_seqs(self) -> list[int]:
        """Committed adjudications, in order."""
        return sorted(self._numbered_dirs("turns"))

    def latest_seq(self) -> int:
        return max(self._numbered_dirs("turns"), default=0)

    def _numbered_dirs(self, top: str) -> list[int]:
        """The seq folders under `top`, in the order the folder lists them."""
        base = os.path.join(self.root, top)
        try:
            with os.scandir(base) as entries:
                return [int(entry.name) for entry in entries if _is_seq_name(entry.name) and entry.is_dir()]
        except (FileNotFoundError, NotADirectoryError):
            return []

    def _signed_names(self, folder: str, pattern: str) -> list[tuple[tuple[str, ...], str]]:
        """(match groups, rel path) of files under `folder` matching `pattern` that have a signature."""
        entries = _listing(os.path.join(self.root, folder))
        matcher = _name_pattern(pattern)
        found = []
        for name, entry in entries.items():
            match = matcher.fullmatch(name)
            if match and _is_file_entry(entry) and _is_file_entry(entries.get(name + ".sig")):
                found.append((match.groups(), f"{folder}/{name}"))
        return found

    # Only the names pbem writes count (request-007, not request-0007 or request-07): one file per
    # number, so no second, differently spelled copy can stand in for the one the audit replays.
    def orders_files(self, seq: int) -> list[tuple[str, int, str]]:
        """(side, arrival number, rel path) of every accepted orders file for seq, in arrival order."""
        rows = self._signed_names(f"orders/{seq_dir(seq)}", r"([a-z0-9][a-z0-9-]*)-([0-9]{4,})\.yaml")
        return sorted(((side, int(number), rel) for (side, number), rel in rows if _canonical(number, 4)),
                      key=lambda r: (r[1], r[0]))

    def decision_requests(self, seq: int) -> list[tuple[int, str]]:
        rows = self._signed_names(f"decisions/{seq_dir(seq)}", r"request-([0-9]{3,})\.yaml")
        return sorted((int(index), rel) for (index,), rel in rows if _canonical(index, 3))

    def decision_replies(self, seq: int) -> list[tuple[int, int, str]]:
        """(decision index, arrival number, rel path) of every stored reply for seq, in arrival order."""
        rows = self._signed_names(f"decisions/{seq_dir(seq)}", r"reply-([0-9]{3,})-([0-9]{4,})\.yaml")
        return sorted(((int(index), int(number), rel) for (index, number), rel in rows
                       if _canonical(index, 3) and _canonical(number, 4)), key=lambda r: (r[1], r[0]))

    def decision_lapses(self, seq: int) -> list[tuple[int, str]]:
        """(decision index, rel path) of every request of seq whose deadline passed unanswered."""
        rows = self._signed_names(f"decisions/{seq_dir(seq)}", r"lapse-([0-9]{3,})\.yaml")
        return sorted((int(index), rel) for (index,), rel in rows if _canonical(index, 3))

    def receipt_of(self, rel: str) -> str | None:
        """Where the receipt for an accepted file is, if one was written."""
        target = receipt_rel(rel)
        return target if self.path(target).is_file() and self.path(target + ".sig").is_file() else None

    def orphan_receipts(self, seq: int) -> list[str]:
        """Receipts of seq whose acknowledged file is not here (only a crash mid-intake leaves one)."""
        found = []
        for folder in (f"orders/{seq_dir(seq)}", f"decisions/{seq_dir(seq)}"):
            entries = _listing(os.path.join(self.root, folder))
            for name in sorted(entries):
                if name.endswith(RECEIPT_SUFFIX):
                    acknowledged = name[: -len(RECEIPT_SUFFIX)] + ".yaml"
                    if not (_is_file_entry(entries.get(acknowledged))
                            and _is_file_entry(entries.get(acknowledged + ".sig"))):
                        found.append(f"{folder}/{name}")
        return found

    def sweep_orphan_receipts(self, latest: int | None = None) -> None:
        """Remove what an intake cut short left: a receipt whose file never landed, in the seq under way.

        `latest`: the last committed seq, if the caller has just listed it.
        """
        for rel in self.orphan_receipts((self.latest_seq() if latest is None else latest) + 1):
            for name in (rel + ".sig", rel):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path(name))

    def next_arrival(self, seq: int) -> int:
        """The arrival number for the next orders file or reply of this seq."""
        numbers = [n for _, n, _ in self.orders_files(seq)] + [n for _, n, _ in self.decision_replies(seq)]
        return max(numbers, default=0) + 1

    # --- writing --------------------------------------------------------------------------------
    def atomic_write_plain(self, rel: str, data: bytes) -> None:
        atomic_write(self.path(rel), data)

    def write_signed_rel(self, rel: str, data: bytes, signature: str) -> None:
        write_signed(self.path(rel), data, signature)

    # --- the secret -----------------------------------------------------------------------------
    def write_secret(self, secret_hex: str, name: str = SECRET_FILE) -> None:
        folder = self.root / SECRET_DIR
        folder.mkdir(mode=0o700, exist_ok=True)
        os.chmod(folder, 0o700)
        atomic_write(folder / name, (secret_hex + "\n").encode("ascii"), mode=0o600)

    def read_secret(self, name: str = SECRET_FILE) -> str:
        path = os.path.join(self.root, SECRET_DIR, name)
        try:
            if os.stat(path).st_mode & 0o077:
                raise ArchiveError(f"{path}: readable by others; run chmod 600 on it")
            with open(path, "rb") as handle:
                raw = handle.read()
            # what `Path.read_text(encoding="ascii")` gives: strict ASCII, universal newlines
            return raw.decode("ascii").replace("\r\n", "\n").replace("\r", "\n").strip()
        except FileNotFoundError:
            raise ArchiveError(f"{path}: a chain secret is missing; only the referee's copy of "
                               "the game can adjudicate") from None

    def write_secret_note(self, name: str, text: str) -> None:
        """A private note for the referee's tools (such as where the referee key lives)."""
        atomic_write(self.root / SECRET_DIR / name, (text + "\n").encode("utf-8"), mode=0o600)

    def read_secret_note(self, name: str) -> str | None:
        path = self.root / SECRET_DIR / name
        return path.read_text(encoding="utf-8").strip() if path.is_file() else None

    def write_private(self, name: str, data: bytes) -> None:
        """A file of the referee's private store (0600) that only saves time, such as chain checkpoints."""
        atomic_write(self.root / SECRET_DIR / name, data, mode=0o600)

    def read_private(self, name: str, limit: int = 1 << 20) -> bytes | None:
        """What `write_private` wrote, or None when it is not a regular file of at most `limit`
        bytes that can be read (the caller does without it). A FIFO, a device or a link in its
        place is not waited on or followed."""
        try:
            fd = os.open(self.root / SECRET_DIR / name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            found = os.fstat(fd)
            if not stat.S_ISREG(found.st_mode) or found.st_size > limit:
                return None
            with os.fdopen(fd, "rb", closefd=False) as handle:
                data = handle.read(limit + 1)
            return data if len(data) <= limit else None
        except OSError:
            return None
        finally:
            os.close(fd)

    # --- clean-up and locking -------------------------------------------------------------------
    def sweep_temporaries(self, latest: int | None = None) -> None:
        """Remove what an interrupted write left behind (temporary files and folders).

        A committed turn folder is not looked into: it came into being whole, by one rename of a
        staging folder (`commit_folder`), and nothing writes into it afterwards. Nor is the
        orders or decisions folder of an adjudication already committed (seq up to `latest`, the
        last committed seq; listed here if not given): every command that writes holds the lock
        and sweeps first, so only the last command can have left a temporary, and a command
        writes orders, receipts, replies, requests and lapses only into the folders of the seq
        under way, which it cannot commit once killed. So the temporary is found in a folder of
        seq latest + 1 or outside the seq folders (the reasoning `sweep_orphan_receipts` rests on).
        """
        if latest is None:
            latest = self.latest_seq()
        # `os.walk`'s rules (a link to a folder counts as a folder but is not entered; a folder
        # that cannot be listed is passed over) with one `scandir` per folder and no name lists;
        # a name is looked at before its entry's type, as most entries are committed seqs
        turns = os.path.join(self.root, "turns")
        closed_seqs = (os.path.join(self.root, "orders"), os.path.join(self.root, "decisions"))
        folders = [os.fspath(self.root)]
        while folders:
            folder = folders.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            in_turns = folder == turns
            in_seqs = folder in closed_seqs
            for entry in entries:
                name = entry.name
                if name.startswith(TMP_PREFIX):
                    _remove_temporary(entry)
                    continue
                if (in_turns or in_seqs) and name.isdigit() and name.isascii() and len(name) >= 4:
                    # a committed seq's folder (`_COMMITTED_TURN`), or a file of that name: nothing to enter
                    if in_turns or int(name) <= latest:
                        continue
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if is_dir and not _is_link(entry):
                    folders.append(entry.path)

    @contextlib.contextmanager
    def locked(self, wait_seconds: float = LOCK_WAIT_SECONDS) -> Iterator[int]:
        """Hold the game's referee lock; wait for another command to finish, then give up.

        Gives the last committed seq, listed once the lock was taken: no other referee command
        can commit a turn while it is held.
        """
        folder = self.root / SECRET_DIR
        lock = os.path.join(folder, LOCK_FILE)
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except (FileNotFoundError, NotADirectoryError):  # no private folder yet (or no folder: mkdir says so)
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + wait_seconds
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EACCES):
                        raise
                    if time.monotonic() >= deadline:
                        raise ArchiveError(f"{self.root}: another pbem command holds the game; try again "
                                           "when it has finished") from None
                    time.sleep(0.05)
            latest = self.latest_seq()
            self.sweep_temporaries(latest)
            self.sweep_orphan_receipts(latest)
            yield latest
        finally:
            os.close(fd)
