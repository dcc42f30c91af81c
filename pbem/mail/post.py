"""The words of a public post: what every side saw, the public position, what comes next, what to check.

Everything here reads only a `forum.PublicTurn` (facts every side's view states alike), so no
choice of words can say more than the views do. Events are said as `pbem report` says them
(the ruleset's sentences, citing the rule sections); the public position is the public part
of the state in a few lines, a list of numbers written as runs ("1802-1808").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..core.api import STANDING_KEY
from .markup import Markup, markup
from .report import event_sentences, side_names

if TYPE_CHECKING:  # forum.py writes posts with `render`: only the type goes this way
    from .forum import PublicTurn

# Keys the post says elsewhere (turn, phase and the result) or that only number the state's format.
_SAID_ELSEWHERE = ("turn", "phase", "result", STANDING_KEY)


def _label(key: object) -> str:
    return str(key).replace("_", " ")


def runs(items: Sequence[str]) -> list[str]:
    """Three or more consecutive numbers of the same width as one run: 1802, 1803, 1804 -> 1802-1804."""
    out: list[str] = []
    start = 0
    while start < len(items):
        end = start
        while (end + 1 < len(items) and items[end].isdigit() and items[end + 1].isdigit()
               and len(items[end + 1]) == len(items[start]) and int(items[end + 1]) == int(items[end]) + 1):
            end += 1
        if end - start >= 2:
            out.append(f"{items[start]}-{items[end]}")
        else:
            out += items[start:end + 1]
        start = end + 1
    return out


def words(value: Any) -> str | None:
    """A state value in a few words; None when there is nothing to say (empty, no, none)."""
    if value is None or value is False or value == [] or value == {}:
        return None
    if value is True:
        return "yes"
    if isinstance(value, list):
        said = [w for w in (words(item) for item in value) if w]
        if all(isinstance(item, (str, int)) and not isinstance(item, bool) for item in value):
            return ", ".join(runs([str(item) for item in value])) or None
        return "; ".join(f"({w})" if "," in w else w for w in said) or None
    if isinstance(value, Mapping):
        parts = []
        for key, item in value.items():
            if item is True:
                parts.append(_label(key))
                continue
            said_item = words(item)
            if said_item:
                parts.append(f"{_label(key)} " + (f"({said_item})" if isinstance(item, Mapping) else said_item))
        return ", ".join(parts) or None
    return str(value)


def position_lines(state: Mapping[str, Any], ruleset_id: str) -> list[str]:
    """The public position: turn and phase, then one line per other public part of the state that says something."""
    lines = []
    if "turn" in state or "phase" in state:
        when = ", ".join(f"{key} {state[key]}" for key in ("turn", "phase") if key in state)
        lines.append(when[:1].upper() + when[1:] + ".")
    for key in sorted(state):
        if key in _SAID_ELSEWHERE or key == ruleset_id:  # `fbsm: 1`: the state format's number
            continue
        said = words(state[key])
        if said:
            lines.append(f"{_label(key)}: {said}")
    return lines


def _side(names: Mapping[str, str], side: object) -> str:
    return names.get(str(side), str(side))


def next_words(next_: Mapping[str, Any], names: Mapping[str, str], deadline: str | None) -> str:
    """What comes next: the phase and who owes orders by when, or how the game ended."""
    result = next_.get("result")
    if isinstance(result, Mapping):
        winner = f"won by {_side(names, result['winner'])}" if result.get("winner") else "no winner"
        why = f": {result['reason']}" if result.get("reason") else ""
        section = f" ({result['section']})" if result.get("section") else ""
        return f"Game over, {winner}{why}{section}."
    awaiting = [_side(names, side) for side in next_.get("awaiting", [])]
    who = ", ".join(awaiting) if awaiting else "nobody"
    due = f", by {deadline} (UTC)" if deadline else ""
    return f"Next: the {next_.get('phase')} phase; orders are awaited from {who}{due}."


def render(turn: PublicTurn, fmt: str, picture_name: str | None = None) -> str:
    """The post of a public turn in `fmt` (markdown or bbcode); `picture_name`: the map written beside it."""
    m: Markup = markup(fmt)
    doc = turn.spectator_doc()
    names = side_names(doc, turn.sides)
    phases = f" ({', '.join(turn.phases)})" if turn.phases else ""
    title = f"{turn.game}: " + (f"adjudication {turn.seq}{phases}" if turn.seq else "the starting position")
    lines = [m.heading(title), "",
             m.text(f"Game {turn.game}, {turn.title} ({turn.ruleset} {turn.version}). What every side may see; "
                    "each side's own view tells it more.")]
    if picture_name:
        lines += ["", m.image(picture_name, f"The public map of {turn.game} after adjudication {turn.seq}")]
    if turn.seq:
        said = event_sentences(doc)
        lines += ["", m.bold("What every side saw")]
        lines += m.bullets([m.text(s) for s in said]) if said else [m.text("Nothing that every side may see.")]
    position = position_lines(turn.state, turn.ruleset)
    if position:
        lines += ["", m.bold("The public position")] + m.bullets([m.text(line) for line in position])
    lines += ["", m.bold(m.text(next_words(turn.next, names, turn.deadline)))]
    if turn.master_hash:
        lines += ["", m.bold("To check") + " " + m.text("(the same in every side's view of this adjudication)")]
        lines += m.block(check_lines(turn))
    if "result" not in turn.next:
        lines += ["", m.text("Post your orders in this thread as an armored block: ")
                  + m.code("pbem sign orders.yaml --key YOUR_KEY --armor")
                  + m.text(". Only the signature counts; quoting a block in a reply does no harm.")]
    return "\n".join(lines) + "\n"


def check_lines(turn: PublicTurn) -> list[str]:
    """The hashes and seeds a player compares with its own view, and the public rolls."""
    lines = [f"master turn file {turn.master_hash}", f"seed             {turn.seed}",
             f"phase seed       {turn.phase_seed}"]
    for entry in turn.orders:
        lines.append(f"orders of {entry['side']}: " + (entry["hash"] if "hash" in entry
                                                           else str(entry["status"]).replace("-", " ")))
    if turn.rolls:
        sizes = {roll["n"] for roll in turn.rolls}
        each = f" (each 1-{sizes.pop()})" if len(sizes) == 1 else ""
        rolled = ", ".join(f"#{roll['i']} {roll['value'] + 1}" + ("" if each else f" of 1-{roll['n']}")
                           for roll in turn.rolls)
        lines.append(f"public rolls{each}: {rolled}")
    return lines
