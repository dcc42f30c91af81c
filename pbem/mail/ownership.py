"""One judge per game, without an open file per game held.

A judge serving a game is recorded in `.referee/mail-judge.owner`: its process id, host, the
kernel's start time of that process and a token of its own. A second judge reads the record and
refuses the game while the process it names still runs; a judge that was killed leaves its
record behind, and the next one takes the game over once that process is gone (the start time
tells a reused process id apart). The record is read and written under a brief `flock` of
`.referee/mail-judge.lock`, so two judges starting at once cannot both claim the game; nothing
stays open while the judge serves it, so one judge can hold as many games as it has memory for
(a lock held per game would take one file descriptor each: 10,000 games are past the usual limit
of 1,024).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import secrets
import socket
from pathlib import Path
from typing import Any, Iterator

from ..core.api import PbemError, referee_folder

LOCK_FILE = "mail-judge.lock"
OWNER_FILE = "mail-judge.owner"


def process_start(pid: int) -> str | None:
    """The kernel's start time of process `pid` (field 22 of /proc/PID/stat), None where unknown."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = text.rsplit(")", 1)[-1].split()  # after the command name, which may hold spaces
    return fields[19] if len(fields) > 19 else None


def _running(owner: dict[str, Any]) -> bool:
    """Whether the judge a record names may still run (True when it cannot be told: another host)."""
    if owner.get("host") != socket.gethostname():
        return True
    pid = owner.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # a process of another user: it exists
    started = process_start(pid)
    return started is None or owner.get("started") in (None, started)


def _read_owner(path: Path) -> dict[str, Any] | None:
    """The record, or None if there is none (or only the remains of a write a kill cut short)."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return None
    return found if isinstance(found, dict) else None


@contextlib.contextmanager
def _briefly_locked(folder: Path, game_dir: Path | str, *, wait: bool) -> Iterator[None]:
    """The lock around reading and writing the record: taken at once, or refused (`wait`: waited for).

    Another judge holds it only for the few file operations of its own claim or release, or (a
    judge of an older version) for its whole life: a claim that finds it held refuses the game.
    """
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            raise PbemError(f"{game_dir}: another judge is serving this game, or starting to "
                            f"(it holds {folder / LOCK_FILE})") from None
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def judge_lock(game_dir: Path | str) -> Iterator[None]:
    """Serve `game_dir` as its only judge while the block runs; PbemError if another judge serves it."""
    folder = referee_folder(game_dir)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / OWNER_FILE
    me = {"pid": os.getpid(), "host": socket.gethostname(), "started": process_start(os.getpid()),
          "token": secrets.token_hex(8)}
    with _briefly_locked(folder, game_dir, wait=False):
        owner = _read_owner(path)
        if owner is not None and _running(owner):
            raise PbemError(f"{game_dir}: another judge is serving this game (process {owner.get('pid')} on "
                            f"{owner.get('host')}, recorded in {path}; delete that file only once no judge runs)")
        # Not fsync'd: after a crash of the machine no judge runs, and a lost record names none.
        path.write_text(json.dumps(me, sort_keys=True) + "\n", encoding="utf-8")
    try:
        yield
    finally:
        with _briefly_locked(folder, game_dir, wait=True):
            owner = _read_owner(path)
            if owner is not None and owner.get("token") == me["token"]:
                path.unlink()
