"""Checks on an orders file that the referee (`submit`, `audit`) and the player (`check`) share.

Rule checks run against the side's own view state, never the master state, so a rejection
cannot tell a player anything its view does not already show. That holds for the one thing
added here to the rules' own words: a refused unit id is told with the ids it most likely
meant, taken from the rule's legal list or the side's own units in its view (`guesses`).
"""

from __future__ import annotations

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
    shape = order_shapes.explained(doc, rules.ruleset, phase, found, view_state)
    if shape:
        from . import guesses  # only a refusal needs a guess

        shape = [guesses.with_a_look_alike(problem, doc.data, view_state, side) for problem in shape]
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
            from . import guesses  # only a refusal needs a guess

            message = guesses.with_a_guess(message, guesses.value_at(orders[order], problem.path), problem.legal,
                                           view_state, side)
        located.append(Problem(message, file=doc.file, line=mark.line if mark else None,
                               column=mark.column if mark else None, path=path, order=order,
                               section=problem.section, legal=problem.legal))
    return sorted(shape + _bounded(located, MAX_RULE_PROBLEMS, doc.file), key=_position)


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
