"""Checks on an orders file that the referee (`submit`, `audit`) and the player (`check`) share.

Rule checks run against the side's own view state, never the master state, so a rejection
cannot tell a player anything its view does not already show. That holds for the one thing
added here to the rules' own words: a refused unit id is told with the ids it most likely
meant, taken from the rule's legal list or the side's own units in its view.
"""

from __future__ import annotations

import re
from typing import Any, Collection, NamedTuple

from . import order_shapes, schemas, yamlio
from .errors import Problem
from .ruleset import Rules
from .schemafiles import load_schema, orders_schema

MAX_ORDERS: int = 1000
"""Most orders one file may hold. Real phases need a few dozen; the bound is checked before any item
is, so a file of a million items costs one message, not a million."""

MAX_RULE_PROBLEMS: int = schemas.MAX_PROBLEMS
"""Most rule problems reported for one file; one more line says how many were left out."""


class Expectation(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    """What the next orders file of one side must say in its envelope."""

    game: str
    seq: int
    side: str
    phase: str
    ack: str
    awaiting: tuple[str, ...]
    closed_reason: str | None = None  # set when orders for this seq are no longer taken


def wrong_key(doc: yamlio.Document, claimed: object, signer: str, sides: Collection[str] | None = None) -> Problem:
    """A file whose `side:` is not the side whose key signed it, told as `pbem verify` tells it.

    `sides` are the game's sides when known: a claimed side that is none of them is a slip in
    `side:`, not a key to find.
    """
    if sides is not None and claimed not in sides:
        return doc.problem(f"the file says side {claimed!r}, which is no side of this game; it is signed with "
                           f"{signer}'s key", ("side",), section="docs/protocol.md §4", legal=f"side: {signer}")
    return doc.problem(f"wrong key: signed with {signer}'s key, but this file says side {claimed!r} and must be "
                       f"signed with {claimed}'s key", ("side",), section="docs/protocol.md §4",
                       legal=f"{claimed}'s key (or side: {signer}, if the file is {signer}'s)")


def envelope_problems(doc: yamlio.Document, expect: Expectation, signer: str | None = None,
                      sides: Collection[str] | None = None) -> list[Problem]:
    """The game/seq/side/phase/ack checks of docs/protocol.md §4, each naming the field.

    A file signed with another side's key is judged on that alone, and so is a player's check of
    orders against another side's view: the seq, phase and ack checks would compare the file with
    the wrong side's expectation and say nothing useful.
    """
    data = doc.data
    found: list[Problem] = []

    def wrong(field: str, message: str, legal: str | None = None) -> None:
        found.append(doc.problem(message, (field,), section="docs/protocol.md §4", legal=legal))

    if signer is not None and data["side"] != signer:
        found.append(wrong_key(doc, data["side"], signer, sides))
    elif signer is None and data["side"] != expect.side:
        wrong("side", f"these orders are for side {data['side']!r} but the view is {expect.side}'s: check them "
                      f"against {data['side']}'s view (or write side: {expect.side}, if they are {expect.side}'s)",
              f"{data['side']}'s view")
    wrong_side = bool(found)
    if data["game"] != expect.game:
        wrong("game", f"these orders are for game {data['game']!r}, not {expect.game!r}", expect.game)
    if wrong_side:
        return found
    if data["seq"] != expect.seq:
        age = "for an adjudication already done" if data["seq"] < expect.seq else "ahead of the game"
        wrong("seq", f"seq {data['seq']} is {age}: the game awaits seq {expect.seq}", str(expect.seq))
    elif expect.closed_reason:
        wrong("seq", expect.closed_reason)
    elif expect.side not in expect.awaiting and data["orders"]:
        awaited = ", ".join(expect.awaiting) or "nobody"
        wrong("side", f"{expect.side} has no orders to give in phase {expect.phase!r} (awaiting: {awaited})",
              "orders: [] with a standing: block, to change standing answers only")
    if data["phase"] != expect.phase:
        wrong("phase", f"phase {data['phase']!r} is not the phase awaited", expect.phase)
    if data["ack"] != expect.ack:
        wrong("ack", f"ack {data['ack']} is not the hash of the last view this side was sent "
                     f"(seq {expect.seq - 1})", expect.ack)
    return found


def size_problems(doc: yamlio.Document) -> list[Problem]:
    """The orders list's length against `MAX_ORDERS`, before any item of it is looked at."""
    orders = doc.data.get("orders") if isinstance(doc.data, dict) else None
    if isinstance(orders, list) and len(orders) > MAX_ORDERS:
        return [doc.problem(f"{len(orders)} orders in one file; at most {MAX_ORDERS} are taken (no item was "
                            "checked)", ("orders",), legal=f"at most {MAX_ORDERS} orders")]
    return []


def _bounded(found: list[Problem], limit: int, file: str) -> list[Problem]:
    """The first `limit` problems, and one line saying how many more there were."""
    if len(found) <= limit:
        return found
    more = len(found) - limit
    return found[:limit] + [Problem(f"... and {more} more problem{'s' if more != 1 else ''} not shown "
                                    "(fix these and check again)", file=file)]


def rule_problems(doc: yamlio.Document, rules: Rules, view_state: dict[str, Any], side: str,
                  phase: str, *, awaited: bool = True) -> list[Problem]:
    """Schema of the phase's orders and every rule check the ruleset makes from the view, in one list.

    An order the schema rejects is reported in rule words (`order_shapes`); the orders it accepts
    are still checked against the rules (without the rejected ones), so one answer says all that
    is wrong. Rule problems about the list as a whole wait until every order reads: without the
    rejected orders they could be wrong. A side that gives no orders this phase may still send `orders: []` with a
    `standing:` block; only the schema applies to that. Too many orders are refused before any
    is checked.
    """
    too_many = size_problems(doc)
    if too_many:
        return too_many
    found = schemas.problems(doc, orders_schema(rules.ruleset, phase))
    shape = [_with_a_look_alike(problem, doc.data, view_state, side)
             for problem in order_shapes.explained(doc, rules.ruleset, phase, found)]
    orders = doc.data.get("orders") if isinstance(doc.data, dict) else None
    if not awaited or not isinstance(orders, list) or len(found) > schemas.MAX_PROBLEMS:
        return shape  # (more than MAX_PROBLEMS: the schema stopped looking, so which orders are sound is unknown)
    rejected = order_shapes.rejected_orders(shape)
    kept = [index for index in range(len(orders)) if index not in rejected]
    located = []
    for problem in rules.validate(view_state, side, [orders[index] for index in kept]):
        order = kept[problem.order] if problem.order is not None and 0 <= problem.order < len(kept) else None
        if order is None and rejected:
            continue  # about the list as a whole (how many orders, say): judged once every order reads
        path: tuple[str | int, ...] = ("orders",)
        if order is not None:
            path += (order,) + tuple(problem.path)
        mark = doc.mark(path)
        message = problem.message
        if order is not None:
            message = _with_a_guess(message, _value_at(orders[order], problem.path), problem.legal, view_state, side)
        located.append(Problem(message, file=doc.file, line=mark.line if mark else None,
                               column=mark.column if mark else None, path=path, order=order,
                               section=problem.section, legal=problem.legal))
    return sorted(shape + _bounded(located, MAX_RULE_PROBLEMS, doc.file), key=_position)


# --- "did you mean": the ids a mistyped unit id most likely meant ---------------------------------------

_UNKNOWN_UNIT = re.compile(r" is not (?:a|an|one of)\b.*\b(?:units?|bases?|Artillery Supports?)\b")


def _value_at(order: Any, path: tuple[str | int, ...]) -> Any:
    """What an order holds at a problem's path inside it (None where the path leads nowhere)."""
    value = order
    for part in path:
        if isinstance(part, int) and isinstance(value, list) and 0 <= part < len(value):
            value = value[part]
        elif isinstance(part, str) and isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def _strings(value: Any) -> list[str]:
    """The names a value at a problem's path gives: itself, or the names of a list (`bases: [...]`)."""
    if isinstance(value, str):
        return [value]
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _known_names(legal: str | None, view_state: dict[str, Any], side: str) -> list[str]:
    """The names a refused id may have meant: the legal list's ids, else (no legal given) the side's own units."""
    if legal is not None:
        return [item for item in legal.split(", ") if item and " " not in item and item != "none"]
    units = view_state.get("units")
    if not isinstance(units, dict):
        return []
    return [str(uid) for uid, unit in units.items()
            if not (isinstance(unit, dict) and "side" in unit and unit["side"] != side)]


_LOOK_ALIKE = str.maketrans({"o": "0", "i": "1", "l": "1"})


def _folded(name: str) -> str:
    """A name as a slip of the eye or of the shift key reads it: G01 and GO1, g-ir12 and G-IR12 are one."""
    return name.lower().translate(_LOOK_ALIKE)


def close_names(word: str, names: list[str], most: int = 3) -> list[str]:
    """The names `word` most likely misspells, likeliest first (difflib on look-alike-folded names)."""
    import difflib  # the error path only: a good file never loads it

    by_fold: dict[str, list[str]] = {}
    for name in names:
        if name != word:
            by_fold.setdefault(_folded(name), []).append(name)
    if _folded(word) in by_fold:  # a look-alike slip: that name, and no weaker guesses beside it
        return by_fold[_folded(word)][:most]
    near = difflib.get_close_matches(_folded(word), list(by_fold), n=most, cutoff=0.6)
    return [name for fold in near for name in by_fold[fold]][:most]


def _with_a_look_alike(problem: Problem, data: Any, view_state: dict[str, Any], side: str) -> Problem:
    """A schema problem of a string that is one of the side's unit ids but for case or a look-alike (g01 for
    G01): that id, named. Nothing else is guessed here, where nothing says the string names a unit."""
    if len(problem.path) < 3 or problem.path[0] != "orders" or "did you mean" in problem.message:
        return problem  # (an envelope field is no unit, and the envelope's problems are matched by their words)
    value = _value_at(data, problem.path)
    if not isinstance(value, str):
        return problem
    meant = [name for name in _known_names(None, view_state, side) if name != value and _folded(name) == _folded(value)]
    return problem.replaced(message=f"{problem.message}: did you mean {' or '.join(meant)}?") if meant else problem


def _with_a_guess(message: str, value: Any, legal: str | None, view_state: dict[str, Any], side: str) -> str:
    """A refusal of a unit id the view does not know, with the closest ids the player may have meant.

    Only a rule's own "X is not a ... unit" refusal gets one (X the id at the problem's path, or one
    of the ids listed there): the names offered come from its legal list or the side's own view,
    so a guess tells nothing the player could not read there.
    """
    named = next((word for word in _strings(value) if message.startswith(word)
                  and _UNKNOWN_UNIT.match(message, len(word))), None)
    if named is None:
        return message
    names = _known_names(legal, view_state, side)
    if named in names:
        return message
    guesses = close_names(named, names)
    return f"{message}: did you mean {' or '.join(guesses)}?" if guesses else message


def _position(problem: Problem) -> tuple[int, int]:
    """Where a problem is in its file; those with no line (the "... and more" lines) last."""
    return (problem.line if problem.line is not None else 1 << 30, problem.column or 0)


_ENVELOPE = {"game": str, "seq": int, "side": str, "phase": str, "ack": str, "orders": list}


def _readable(doc: yamlio.Document) -> bool:
    """Whether the envelope's fields the checks read are there with their types (whatever else is wrong)."""
    data = doc.data
    return isinstance(data, dict) and all(isinstance(data.get(key), kind) and not isinstance(data.get(key), bool)
                                          for key, kind in _ENVELOPE.items())


def orders_problems(doc: yamlio.Document, rules: Rules, expect: Expectation, view_state: dict[str, Any],
                    signer: str | None = None, sides: Collection[str] | None = None) -> list[Problem]:
    """Everything wrong with an orders document that can be told, in one list.

    The envelope's schema problems do not stop the checks while its fields can be read; a wrong
    game, side, seq or phase does (the orders would be judged against the wrong moment), a stale
    ack does not.
    """
    shape = schemas.problems(doc, load_schema("orders"))
    if shape and not _readable(doc):
        return shape
    envelope = envelope_problems(doc, expect, signer, sides) + size_problems(doc)
    if any(problem.path != ("ack",) for problem in envelope):
        return shape + envelope
    said = {(p.line, p.column, p.path, p.message) for p in shape}  # the phase's schema holds the envelope's too
    rules_said = [p for p in rule_problems(doc, rules, view_state, expect.side, expect.phase,
                                           awaited=expect.side in expect.awaiting)
                  if (p.line, p.column, p.path, p.message) not in said]
    return shape + envelope + rules_said
