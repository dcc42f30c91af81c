"""Checks on an orders file that the referee (`submit`, `audit`) and the player (`check`) share.

Rule checks run against the side's own view state, never the master state, so a rejection
cannot tell a player anything its view does not already show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import schemas, yamlio
from .errors import Problem
from .ruleset import Rules
from .schemafiles import load_schema, orders_schema

MAX_ORDERS: int = 1000
"""Most orders one file may hold. Real phases need a few dozen; the bound is checked before any item
is, so a file of a million items costs one message, not a million."""

MAX_RULE_PROBLEMS: int = schemas.MAX_PROBLEMS
"""Most rule problems reported for one file; one more line says how many were left out."""


@dataclass(frozen=True)
class Expectation:
    """What the next orders file of one side must say in its envelope."""

    game: str
    seq: int
    side: str
    phase: str
    ack: str
    awaiting: tuple[str, ...]
    closed_reason: str | None = None  # set when orders for this seq are no longer taken


def envelope_problems(doc: yamlio.Document, expect: Expectation, signer: str | None = None) -> list[Problem]:
    """The game/seq/side/phase/ack checks of docs/protocol.md §4, each naming the field."""
    data = doc.data
    found: list[Problem] = []

    def wrong(field: str, message: str, legal: str | None = None) -> None:
        found.append(doc.problem(message, (field,), section="docs/protocol.md §4", legal=legal))

    if data["game"] != expect.game:
        wrong("game", f"these orders are for game {data['game']!r}, not {expect.game!r}", expect.game)
    if signer is not None and data["side"] != signer:
        wrong("side", f"the file says side {data['side']!r} but is signed with {signer}'s key", signer)
    elif data["side"] != expect.side:
        wrong("side", f"side {data['side']!r} is not {expect.side!r}", expect.side)
    if data["seq"] != expect.seq:
        age = "an old file (replayed?)" if data["seq"] < expect.seq else "ahead of the game"
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
    """Schema of the phase's orders, then every rule check the ruleset makes from the view.

    A side that gives no orders this phase may still send `orders: []` with a `standing:`
    block; only the schema applies to that. Too many orders are refused before any is checked.
    """
    too_many = size_problems(doc)
    if too_many:
        return too_many
    shape = schemas.problems(doc, orders_schema(rules.ruleset, phase))
    if shape or not awaited:
        return shape
    located = []
    for problem in rules.validate(view_state, side, list(doc.data["orders"])):
        path: tuple[str | int, ...] = ("orders",)
        if problem.order is not None:
            path += (problem.order,) + tuple(problem.path)
        mark = doc.mark(path)
        located.append(Problem(problem.message, file=doc.file, line=mark.line if mark else None,
                               column=mark.column if mark else None, path=path, order=problem.order,
                               section=problem.section, legal=problem.legal))
    return _bounded(located, MAX_RULE_PROBLEMS, doc.file)


def orders_problems(doc: yamlio.Document, rules: Rules, expect: Expectation, view_state: dict[str, Any],
                    signer: str | None = None) -> list[Problem]:
    """Everything wrong with an orders document, envelope first (no rule checks on a wrong envelope)."""
    shape = schemas.problems(doc, load_schema("orders"))
    if shape:
        return shape
    envelope = envelope_problems(doc, expect, signer) + size_problems(doc)
    if envelope:
        return envelope
    return rule_problems(doc, rules, view_state, expect.side, expect.phase,
                         awaited=expect.side in expect.awaiting)
