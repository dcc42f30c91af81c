"""A player's check from its own files: its views, against game.yaml (docs/protocol.md §4, §5)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from . import chance, schemas, signing, yamlio
from .errors import PbemError
from .game import Game, load_game
from .schemafiles import load_schema
from .views import recompute_phase_seed

if TYPE_CHECKING:
    from .audit import Discrepancy


def _discrepancy(file: str, field: str, message: str) -> Discrepancy:
    from .audit import Discrepancy  # audit re-exports verify_views: import it late, not at load time
    return Discrepancy(file, field, message)


def verify_views(paths: Sequence[Path | str], game_file: Path | str) -> list[Discrepancy]:
    """Signatures, the view chain, the seed chain, phase seeds and every visible roll."""
    found: list[Discrepancy] = []
    game_path = Path(game_file)
    game = load_game(game_path.parent) if game_path.name == "game.yaml" else load_game(game_path)
    views = []
    for path in paths:
        data = Path(path).read_bytes()
        sig = Path(str(path) + ".sig")
        try:
            signing.verify(data, sig.read_text(encoding="utf-8"), game.turn_namespace(),
                           {"referee": game.referee_key}, file=str(path))
            doc = yamlio.load_bytes(data, str(path))
            schemas.validate(doc, load_schema("view"))
        except (PbemError, OSError) as error:
            found.append(_discrepancy(str(path), "signature", str(error)))
            continue
        views.append((doc.data["seq"], str(path), data, doc.data))
    views.sort(key=lambda item: item[0])
    sides = sorted({view["side"] for _, _, _, view in views})
    if len(sides) > 1:
        found.append(_discrepancy(", ".join(name for _, name, _, _ in views), "side",
                                  f"views of several sides ({', '.join(sides)}): check one side's views at a time"))
    seqs = [seq for seq, _, _, _ in views]
    for seq in sorted({seq for seq in seqs if seqs.count(seq) > 1}):
        found.append(_discrepancy(", ".join(name for s, name, _, _ in views if s == seq), "seq",
                                  f"more than one view {seq} given"))
    previous: tuple[int, bytes, dict[str, Any]] | None = None
    for seq, name, data, view in views:
        found.extend(_check_one_view(game, name, view, previous))
        previous = (seq, data, view)
    return found


def _check_one_view(game: Game, name: str, view: Mapping[str, Any],
                    previous: tuple[int, bytes, Mapping[str, Any]] | None) -> Iterator[Discrepancy]:
    if view["game"] != game.id:
        yield _discrepancy(name, "game", f"view of game {view['game']!r}, not {game.id!r}")
    seq = view["seq"]
    follows = previous is not None and previous[0] == seq - 1
    if previous is not None and not follows:
        yield _discrepancy(name, "seq", f"view {seq} given after view {previous[0]}: the views in between are "
                                        "missing, so the chain between them is not checked")
    if follows and previous is not None and view["previous_view"] != chance.file_hash(previous[1]):
        yield _discrepancy(name, "previous_view", "does not match the hash of the previous view")
    if seq == 0:
        if view["master"] != game.hash:
            yield _discrepancy(name, "master", "view 0 is not bound to this game.yaml")
        return
    dice = view["dice"]
    if dice["seed"] is None or dice["previous"] is None or dice["phase_seed"] is None:
        yield _discrepancy(name, "dice", f"view {seq} lacks its seed, previous hash or phase seed")
        return
    if seq == 1 and dice["previous"] != game.hash:
        yield _discrepancy(name, "dice.previous", "the first adjudication must build on game.yaml's hash")
    if follows and previous is not None and seq > 1 and dice["previous"] != previous[2]["master"]:
        yield _discrepancy(name, "dice.previous", "is not the master turn file of the previous view")
    if [entry["side"] for entry in dice["inputs"]] != game.sides:
        yield _discrepancy(name, "dice.inputs", f"must list every side in game.yaml order ({', '.join(game.sides)})")
    seed = bytes.fromhex(dice["seed"])
    if not _on_chain(game, seq, seed):
        yield _discrepancy(name, "dice.seed", f"s_{seq} does not hash down to game.yaml's anchor in {seq} steps: "
                                              "not the committed seed")
    phase_seed = recompute_phase_seed(view, game.id)
    if phase_seed.hex() != view["dice"]["phase_seed"]:
        yield _discrepancy(name, "dice.phase_seed", "does not follow from the seed, previous hash and the inputs")
    for index, roll in enumerate(view["dice"]["rolls"]):
        if chance.uniform(phase_seed, roll["n"], roll["i"]) != roll["value"]:
            yield _discrepancy(name, f"dice.rolls[{index}]", f"roll {roll['i']} is not what the phase seed gives")


def _on_chain(game: Game, seq: int, seed: bytes) -> bool:
    """Whether `seed` is link `seq` of the chain game.yaml committed to (hash it down to s_0)."""
    if not 1 <= seq <= game.chain_length:
        return False
    for _ in range(seq):
        seed = chance.chain_step(game.id, seed)
    return seed == game.anchor
