"""Decision requests whose deadline passes unanswered (the mail judge's grace period for decisions).

A side that never answers must not stall a game. When the referee (or the mail judge at the
deadline) adjudicates with missing answers allowed, every request still unanswered gets a
referee-signed lapse file: the request's first option applies, which every ruleset makes the
answer its rules give by default (the one a standing answer would have picked). The file is
written once and binds the adjudication, so a reply arriving later is refused; the audit checks
that a lapse names a real request and applies its first option.
"""

from __future__ import annotations

from typing import Any

from . import chance, clock, signing, yamlio
from .archive import Archive, seq_dir
from .errors import ArchiveError
from .game import Game


def lapse_rel(seq: int, index: int) -> str:
    return f"decisions/{seq_dir(seq)}/lapse-{index:03d}.yaml"


def lapse_document(game: Game, seq: int, request: dict[str, Any], request_bytes: bytes,
                   moment: str) -> dict[str, Any]:
    doc = {
        "pbem": game.protocol,
        "kind": "decision-lapse",
        "game": game.id,
        "seq": seq,
        "side": request["side"],
        "index": request["index"],
        "request": chance.file_hash(request_bytes),
        "answer": request["options"][0],
    }
    if game.protocol >= 2:
        doc["lapsed_at"] = moment
    return doc


def lapse_unanswered(archive: Archive, game: Game, seq: int, referee: signing.SigningKey, moment: str) -> list[str]:
    """Write a lapse for every request of `seq` with neither a reply nor a lapse whose deadline has passed.

    A request still within its deadline is left alone (version 2): lapsing it early would let the
    referee choose the answer, and the audit refuses such a lapse.
    """
    replied = {index for index, _, _ in archive.decision_replies(seq)}
    lapsed = {index for index, _ in archive.decision_lapses(seq)}
    written = []
    for index, rel in archive.decision_requests(seq):
        if index in replied or index in lapsed:
            continue
        data = archive.read(rel)
        request = yamlio.load_bytes(data, rel).data
        if not isinstance(request, dict) or not isinstance(request.get("options"), list) or not request["options"]:
            raise ArchiveError(f"{rel}: a request without options cannot lapse")
        deadline = request.get("deadline")
        if game.protocol >= 2 and (not isinstance(deadline, str) or not clock.later_than(moment, deadline)):
            continue
        lapse = yamlio.dump(lapse_document(game, seq, request, data, moment)).encode("utf-8")
        target = lapse_rel(seq, index)
        archive.write_signed_rel(target, lapse, signing.sign(lapse, referee, game.turn_namespace()))
        written.append(target)
    return written
