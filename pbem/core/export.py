"""`pbem export`: the archive as one file anyone may hold, without the referee's secrets.

The chain secret (`.referee/`) never leaves the referee's machine. The master turn files and
the orders of a phase not yet adjudicated hold what the rules hide from each side, so a game
still in play is exported only on purpose (for a neutral auditor). The tar.gz is the same bytes
for the same archive: sorted entries, no times, owners or local permissions in it.
"""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

from .archive import Archive, turn_rel, view_rel
from .errors import PbemError, Problem
from .game import load_game
from .position import current_position


def archive_files(archive: Archive, sides: list[str]) -> list[str]:
    """Every file of the archive's layout (core/archive.py), each with its signature, sorted.

    Built from the layout, not from whatever lies in the folder: a stray key, a backup or an
    editor's temporary file next to the game never travels with it.
    """
    signed = ["game.yaml"] + [f"views/0000/{side}.yaml" for side in sides]
    for seq in archive.turn_seqs():
        signed += [turn_rel(seq)] + [view_rel(seq, side) for side in sides]
    for seq in range(1, archive.latest_seq() + 2):
        signed += [rel for _, _, rel in archive.orders_files(seq)]
        signed += [rel for _, rel in archive.decision_requests(seq)]
        signed += [rel for _, _, rel in archive.decision_replies(seq)]
        signed += [rel for _, rel in archive.decision_lapses(seq)]
    signed += [receipt for rel in signed if (receipt := archive.receipt_of(rel)) is not None]
    names = ["scenario.yaml"] + signed + [rel + ".sig" for rel in signed]
    for name in names:
        if archive.path(name).is_symlink() or not archive.path(name).is_file():
            raise PbemError(Problem("missing, or a symbolic link: refusing to export", file=str(archive.path(name))))
    return sorted(names)


def export(game_dir: Path | str, out: Path | str, *, unfinished: bool = False) -> list[str]:
    """Write the archive to `out` (a .tar.gz); the files it holds."""
    root = Path(game_dir)
    archive = Archive(root)
    archive.require()
    if Path(out).resolve().is_relative_to(root.resolve()):
        raise PbemError(Problem("the export would land inside the game directory it exports", file=str(out),
                                legal="a path outside the game directory"))
    with archive.locked():
        game = load_game(root)
        position = current_position(game)
        if not position.over() and not unfinished:
            raise PbemError(Problem("the game is still in play: its master turn files and the orders not yet "
                                    "adjudicated hold what the rules hide from each side",
                                    file=str(root), legal="export once the game is over, or pass --unfinished "
                                                          "for a neutral auditor"))
        names = archive_files(archive, game.sides)
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
