"""`Ruleset.misplaced`: the core asks a ruleset for its words on an order of another phase's kind (`order_shapes`).

Only the answer's message, section and legal count: the core locates it at the order's key, as its own
words would be, and passes the side's view and whole orders list through. A ruleset without the hook
keeps the core's words (`tests/test_order_problems.py` and `tests/toc/test_toc_misplaced_kinds.py`
hold those of the shipped games).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.core import order_shapes, schemas, yamlio
from pbem.core.errors import Problem
from tests.rulesets.duel import Duel

TEXT = "orders:\n  - {fire: 2}\n"


class Told(Duel):
    """The duel, telling where a fire order goes, and keeping what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[Any, ...]] = []

    def misplaced(self, view: Mapping[str, Any] | None, orders: Sequence[Any], phase: str, tag: str,
                  within: str | None = None) -> Problem | None:
        self.asked.append((view, list(orders), phase, tag, within))
        if tag != "fire":
            return None
        return Problem("a fire order waits for the fire phase", file="elsewhere.yaml", line=99, column=9,
                       path=("nowhere",), order=7, section="D.3", legal="the fire phase's orders")


def shaped(ruleset: Duel, phase: str, view: Mapping[str, Any] | None) -> list[Problem]:
    doc = yamlio.load_bytes(TEXT.encode(), "o.yaml")
    schema = {"type": "object", "properties": {"orders": ruleset.order_schema(phase)}}
    return order_shapes.explained(doc, ruleset, phase, schemas.problems(doc, schema), view)


def test_the_rulesets_words_are_located_as_the_cores_would_be() -> None:
    [generic] = shaped(Duel(), "deploy", None)
    told = Told()
    [said] = shaped(told, "deploy", {"side": "red"})
    assert generic.message == "a fire order is not allowed in deploy", generic  # the default hook: the core's words
    assert (said.message, said.section, said.legal) == ("a fire order waits for the fire phase", "D.3",
                                                       "the fire phase's orders"), said
    where = ("o.yaml", 2, 6, ("orders", 0, "fire"), 0)  # the key `fire` of the first order
    assert (said.file, said.line, said.column, said.path, said.order) == where, said
    assert (generic.file, generic.line, generic.column, generic.path, generic.order) == where, generic
    assert told.asked == [({"side": "red"}, [{"fire": 2}], "deploy", "fire", None)]
