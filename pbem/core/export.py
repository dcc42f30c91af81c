"""`pbem export`: the archive as one file anyone may hold, without the referee's secrets.

The chain secret (`.referee/`) never leaves the referee's machine. The master turn files and
the orders of a phase not yet adjudicated hold what the rules hide from each side, so a game
still in play is exported only on purpose (for a neutral auditor). The tar.gz is the same bytes
for the same archive: sorted entries, no times, owners or local permissions in it.
"""

from __future__ import annotations

import gzip
import io
import os
import tarfile
from pathlib import Path

from .archive import TMP_PREFIX, Archive
from .errors import PbemError, Problem
from .game import load_game
from .position import current_position


def archive_files(root: Path) -> list[str]:
    """Every file of the archive by relative path, sorted: no hidden folder, no temporary."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.startswith(TMP_PREFIX))
        for name in files:
            if name.startswith(".") or name.startswith(TMP_PREFIX):
                continue
            path = Path(folder) / name
            if path.is_symlink():
                raise PbemError(Problem("a symbolic link in the archive; refusing to follow it", file=str(path)))
            found.append(path.relative_to(root).as_posix())
    return sorted(found)


def export(game_dir: Path | str, out: Path | str, *, unfinished: bool = False) -> list[str]:
    """Write the archive to `out` (a .tar.gz); the files it holds."""
    root = Path(game_dir)
    archive = Archive(root)
    archive.require()
    with archive.locked():
        position = current_position(load_game(root))
        if not position.over() and not unfinished:
            raise PbemError(Problem("the game is still in play: its master turn files and the orders not yet "
                                    "adjudicated hold what the rules hide from each side",
                                    file=str(root), legal="export once the game is over, or pass --unfinished "
                                                          "for a neutral auditor"))
        names = archive_files(root)
        data = _tar_gz(root, names, Path(out).name.removesuffix(".tar.gz") or "game")
    Path(out).write_bytes(data)
    return names


def _tar_gz(root: Path, names: list[str], top: str) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        folders: set[str] = set()
        for name in names:
            parts = name.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                folder = "/".join(parts[:depth])
                if folder not in folders:
                    folders.add(folder)
                    tar.addfile(_info(f"{top}/{folder}", tarfile.DIRTYPE, 0o755, 0))
            content = (root / name).read_bytes()
            tar.addfile(_info(f"{top}/{name}", tarfile.REGTYPE, 0o644, len(content)), io.BytesIO(content))
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0) as gz:
        gz.write(raw.getvalue())
    return packed.getvalue()


def _info(name: str, kind: bytes, mode: int, size: int) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.size, info.mtime = kind, mode, size, 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info
