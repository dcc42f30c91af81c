"""`pbem status`: what the game awaits and what is already in.

Two reports. The referee's (`public=False`) says which files are in, how many times each side
sent orders and which side a decision request is waiting for. The public one (`public=True`,
also what the mail judge answers to `status`, whoever asks) says only what every side's latest
view already says: the game and its ruleset (game.yaml), how many adjudications are done, the
`next` block (the phase awaited and which sides owe orders for it) or the result. It never
reads the orders, decision or lapse files, so nothing a side sent (or did not send yet), nor
a decision under way, can change a byte of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from . import clock, options
from .adjudicator import decision_files
from .archive import Archive, view_rel
from .errors import citation
from .game import load_game
from .position import Position, current_position

PUBLIC_NOTE = ("(whether a side has sent its orders, and any decision under way, is not public: "
               "each side has its own receipts)")


def status(game_dir: Path | str, *, public: bool = False, now: clock.Clock = clock.system_clock) -> str:
    """The referee's status report, or with `public` only what every side's latest view states.

    `now` (pbem's clock, honouring PBEM_NOW) tells the referee whether the orders deadline has passed;
    the public report never reads it.
    """
    game = load_game(game_dir)
    position = current_position(game)
    lines = [f"game {game.id} ({game.doc['ruleset']['id']} {game.doc['ruleset']['version']}), "
             f"sides: {', '.join(game.sides)}", f"adjudications done: {position.seq}"]
    if position.over():
        result = position.next()["result"]
        lines.append(f"game over: {result_text(result)}")
        pointer = result_pointer(result, position.seq)
        return "\n".join(lines + ([f"  {pointer}"] if pointer else []))
    lines.append(f"next: seq {position.next_seq}, phase {position.rules.phase(position.state)!r}")
    if position.deadline is not None:  # every side's view states it, so the public report says it too
        lines.append(f"deadline for these orders: {position.deadline} (UTC)")
    if public:
        return "\n".join(lines + _public_sides(position))
    return "\n".join(lines + _referee_sides(position, Archive(game_dir), now))


def result_headline(result: Mapping[str, Any]) -> str:
    """Who won, why and by which rule, in words: `us wins: <reason> (rule 4.4)`; a ruleset's other fields left out."""
    winner = result.get("winner")
    text = f"{winner} wins" if winner else "no side wins"
    if result.get("reason"):
        text += f": {result['reason']}"
    if result.get("section"):
        text += f" ({citation(str(result['section']))})"
    return text


HEADLINE_FIELDS = ("winner", "reason", "section")


def result_text(result: Mapping[str, Any]) -> str:
    """A game's result in one short line: `result_headline`, then its flat fields as `key value`
    (a score, `vp {us: 3}`); a list or a nested tally is left out (`result_left_out`)."""
    others = [f"{key} {options.show(value)}" for key, value in result.items()
              if key not in HEADLINE_FIELDS and _flat(value)]
    return result_headline(result) + (f"; {', '.join(others)}" if others else "")


def result_left_out(result: Mapping[str, Any]) -> list[str]:
    """The fields of a result too long for `result_text` (toc's 4.3 tally names every dead British unit):
    whoever wants them reads the result in full where it is kept, the views' `next.result`."""
    return [key for key, value in result.items() if key not in HEADLINE_FIELDS and not _flat(value)]


def result_pointer(result: Mapping[str, Any], seq: int) -> str | None:
    """Where the fields `result_text` leaves out are, when it leaves any out: the views of adjudication `seq`."""
    left_out = result_left_out(result)
    if not left_out:
        return None
    return f"the result in full ({', '.join(left_out)}): next.result in every side's last view, {view_rel(seq, '<side>')}"


def _flat(value: Any) -> bool:
    """A single value, or a mapping of single values (a score per side): what reads well in one line."""
    def single(item: Any) -> bool:
        return not isinstance(item, (Mapping, list, tuple))
    return single(value) or isinstance(value, Mapping) and all(single(item) for item in value.values())


def _public_sides(position: Position) -> list[str]:
    """Who owes orders for the phase awaited (the views' `next.awaiting`), not who has sent them."""
    awaiting = position.awaiting()
    lines = [f"  {side}: " + ("owes orders this phase" if side in awaiting else "no orders this phase")
             for side in position.game.sides]
    if awaiting:
        lines.append(PUBLIC_NOTE)
    return lines


def _referee_sides(position: Position, archive: Archive, now: clock.Clock) -> list[str]:
    game = position.game
    seq = position.next_seq
    awaiting = position.awaiting()
    lines = []
    submitted: dict[str, list[str]] = {}
    for side, _, rel in archive.orders_files(seq):
        submitted.setdefault(side, []).append(rel)
    for side in game.sides:
        if side in submitted:
            files = submitted[side]
            note = f"in: {files[-1]}" + (f" (newest of {len(files)})" if len(files) > 1 else "")
        elif side in awaiting:
            note = "owes orders"
        else:
            note = "no orders this phase"
        lines.append(f"  {side}: {note}")
    decisions = decision_files(archive, game, seq)
    for index, record in sorted(decisions.items()):
        if record.reply_rel is None:
            state = "awaiting the reply"
        elif "/lapse-" in record.reply_rel:
            state = (f"lapsed (deadline passed; the rules' default {options.show(record.answer)} applies): "
                     f"{record.reply_rel}")
        else:
            state = f"answered in {record.reply_rel}"
        lines.append(f"  decision {index} for {record.side}: {record.request_rel}, {state}")
    unanswered = sorted({record.side for record in decisions.values() if record.reply_rel is None})
    if unanswered:
        lines.append(f"not ready: waiting for a decision reply from {', '.join(unanswered)}")
    elif decisions or all(side in submitted for side in awaiting):
        lines.append("ready to adjudicate")
    elif position.deadline is not None and clock.later_than(clock.utc_text(now()), position.deadline):
        # orders that arrive now are refused as late (docs/protocol.md §4a): waiting brings nothing
        missing = ", ".join(side for side in awaiting if side not in submitted)
        lines.append(f"not ready: orders outstanding from {missing}, and the deadline {position.deadline} has "
                     "passed; `pbem adjudicate --missing none` resolves without them")
    else:
        lines.append("not ready: orders outstanding")
    return lines
