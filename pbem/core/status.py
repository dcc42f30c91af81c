"""`pbem status`: what the game awaits and what is already in. Public facts only."""

from __future__ import annotations

from pathlib import Path

from .adjudicator import decision_files
from .archive import Archive
from .game import load_game
from .position import current_position


def status(game_dir: Path | str, *, public: bool = False) -> str:
    """The referee's status report; `public` leaves out who is deciding and how often anyone resubmitted."""
    game = load_game(game_dir)
    archive = Archive(game_dir)
    position = current_position(game)
    lines = [f"game {game.id} ({game.doc['ruleset']['id']} {game.doc['ruleset']['version']}), "
             f"sides: {', '.join(game.sides)}", f"adjudications done: {position.seq}"]
    if position.over():
        lines.append(f"game over: {position.next()['result']}")
        return "\n".join(lines)
    seq = position.next_seq
    awaiting = position.awaiting()
    lines.append(f"next: seq {seq}, phase {position.ruleset.phase(position.state)!r}")
    submitted: dict[str, list[str]] = {}
    for side, _, rel in archive.orders_files(seq):
        submitted.setdefault(side, []).append(rel)
    for side in game.sides:
        if side in submitted:
            files = submitted[side]
            note = "orders in" if public else f"in: {files[-1]}" + (f" (newest of {len(files)})" if len(files) > 1 else "")
        elif side in awaiting:
            note = "owes orders"
        else:
            note = "no orders this phase"
        lines.append(f"  {side}: {note}")
    decisions = decision_files(archive, game, seq)
    if not public:
        for index, record in sorted(decisions.items()):
            if record.reply_rel is None:
                state = "awaiting the reply"
            elif "/lapse-" in record.reply_rel:
                state = f"lapsed (deadline passed; the rules' default {record.answer!r} applies): {record.reply_rel}"
            else:
                state = f"answered in {record.reply_rel}"
            lines.append(f"  decision {index} for {record.side}: {record.request_rel}, {state}")
    unanswered = sorted({record.side for record in decisions.values() if record.reply_rel is None})
    if unanswered:
        lines.append("not ready: waiting for a decision reply" + ("" if public else f" from {', '.join(unanswered)}"))
    elif decisions or all(side in submitted for side in awaiting):
        lines.append("ready to adjudicate")
    else:
        lines.append("not ready: orders outstanding")
    return "\n".join(lines)
