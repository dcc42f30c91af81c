"""A player's check that a view or a decision request really comes from their game's referee.

Mail can be forged and forums can be edited; a signature cannot. Before a player writes orders
from a view, or answers a request, `pbem orders`, `pbem check` and `pbem decide` (given the
game's `game.yaml`) check the referee's signature beside the file, that the file is of the kind
expected, and that it belongs to that game.
"""

from __future__ import annotations

from pathlib import Path

from . import signing, yamlio
from .errors import Problem, SignatureError
from .game import Game, load_game

SIG_SUFFIX = ".sig"


def game_from_file(game_file: Path | str) -> Game:
    """The game whose genesis is `game_file` (game.yaml, with game.yaml.sig beside it) or a folder holding it."""
    path = Path(game_file)
    return load_game(path.parent if path.name == "game.yaml" else path)


def check_from_referee(path: Path | str, game: Game, kind: str) -> None:
    """Raise SignatureError unless `path` is a `kind` file of `game` signed by its referee."""
    name = str(path)
    sig_path = Path(name + SIG_SUFFIX)
    data = yamlio.read_file(path)
    if not sig_path.exists():
        raise SignatureError(Problem("the referee's signature is not beside this file, so it cannot be trusted",
                                     file=name, legal=f"{sig_path.name} as the referee sent it"))
    signature = signing.read_signature(sig_path)
    signing.verify(data, signature, game.turn_namespace(), {"referee": game.referee_key}, file=name)
    doc = yamlio.load_bytes(data, name).data
    found_kind = doc.get("kind") if isinstance(doc, dict) else None
    if found_kind != kind:
        raise SignatureError(Problem(f"signed by the referee, but a {found_kind!r} file, not a {kind}", file=name,
                                     legal=f"a {kind} file"))
    if doc.get("game") != game.id:
        raise SignatureError(Problem(f"a file of game {doc.get('game')!r}, not {game.id!r}", file=name,
                                     legal=game.id))
