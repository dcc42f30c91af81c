"""Adjudicator test cases (`pbem case run`), in the style of the Diplomacy Adjudicator Test Cases.

A case file gives a situation (a full ruleset state), each side's orders, the forced random
numbers, any decision answers, and the expected result: rejections (side, order, rule
section), or the state, events, decision or game result after resolving one phase.

Forced numbers are what the rules see: for a die, the face shown (1..faces); for a draw or
any other uniform choice, the raw number (0..n-1), as PROTOCOL.md §4 defines them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from . import chance, schemas, yamlio
from .errors import PbemError, Problem
from .ruleset import STANDING_KEY, DecisionNeeded, Decisions, Ruleset, Submission, get as get_ruleset
from .schemafiles import load_schema, orders_schema


class CaseDice(chance.ForcedDice):
    """Forced numbers, with dice given as the faces shown."""

    def die(self, faces: int, purpose: str, seen_by: Iterable[str] | None = None) -> int:
        i = len(self.rolls)
        if i >= len(self._values):
            raise PbemError(f"the case forces {len(self._values)} numbers, but roll {i} (d{faces}, {purpose}) "
                            "was asked for")
        face = self._values[i]
        if not 1 <= face <= faces:
            raise PbemError(f"forced die {face} at roll {i} is not a face of a d{faces} ({purpose})")
        self.rolls.append(chance.Roll(i, faces, face - 1, purpose, tuple(seen_by) if seen_by is not None else None))
        return face


@dataclass
class CaseOutcome:
    file: str
    title: str
    section: str
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.file}: {self.section} {self.title}"
        return "\n".join([head] + [f"    {failure}" for failure in self.failures])


def subset_mismatches(expected: Any, found: Any, path: str = "") -> list[str]:
    """Where `found` fails to contain `expected` (maps: the keys given; lists and scalars: equal)."""
    if isinstance(expected, dict):
        if not isinstance(found, dict):
            return [f"{path or 'value'}: expected a map, found {found!r}"]
        out = []
        for key, value in expected.items():
            if key not in found:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(subset_mismatches(value, found[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        out = []
        for index, (a, b) in enumerate(zip(expected, found)):
            out.extend(subset_mismatches(a, b, f"{path}[{index}]"))
        return out
    return [] if expected == found else [f"{path or 'value'}: expected {expected!r}, found {found!r}"]


def run_case(case: Mapping[str, Any], file: str = "<case>") -> CaseOutcome:
    ruleset = get_ruleset(case["ruleset"])
    outcome = CaseOutcome(file, case["title"], case["section"])
    state = copy.deepcopy(dict(case["state"]))
    standing = state.setdefault(STANDING_KEY, {})
    for side, answers in (case.get("standing") or {}).items():
        standing.setdefault(side, {}).update(answers)
    orders = case.get("orders") or {}
    expect = case["expect"]
    rejected = _rejections(ruleset, state, orders, file)
    if "rejected" in expect:
        _compare_rejections(outcome, expect["rejected"], rejected)
        return outcome
    if rejected:
        outcome.failures += [f"orders rejected: {problem}" for problem in rejected]
        return outcome
    dice = CaseDice(case.get("dice") or [])
    decisions = Decisions(dict(enumerate(case.get("decisions") or [])))
    submissions = {side: Submission(side, list(orders[side])) if side in orders else None
                   for side in case.get("sides") or ruleset.sides({})}
    try:
        resolution = ruleset.resolve(copy.deepcopy(state), submissions, dice, decisions)
    except DecisionNeeded as need:
        _compare_decision(outcome, expect.get("decision"), need)
        return outcome
    if "decision" in expect:
        outcome.failures.append(f"expected a decision request {expect['decision']}, resolution finished instead")
    if "state" in expect:
        outcome.failures += subset_mismatches(expect["state"], resolution.state, "state")
    if "events" in expect:
        outcome.failures += subset_mismatches(expect["events"], resolution.events, "events")
    if "phase" in expect:
        outcome.failures += subset_mismatches(expect["phase"], ruleset.phase(resolution.state), "phase")
    if "result" in expect:
        outcome.failures += subset_mismatches(expect["result"], ruleset.result(resolution.state), "result")
    if "rolls" in expect and expect["rolls"] != len(dice.rolls):
        outcome.failures.append(f"rolls: expected {expect['rolls']} random numbers drawn, found {len(dice.rolls)}")
    if dice.unused:
        outcome.failures.append(f"dice: {dice.unused} forced numbers were never used")
    return outcome


def _rejections(ruleset: Ruleset, state: dict[str, Any], orders: Mapping[str, list[Any]], file: str) -> list[Problem]:
    found = []
    phase = ruleset.phase(state)
    for side, side_orders in orders.items():
        doc = yamlio.Document({"orders": side_orders}, file, {})
        schema = {"type": "object", "properties": {"orders": orders_schema(ruleset, phase)["properties"]["orders"]}}
        shape = schemas.problems(doc, schema)
        if shape:
            found += [Problem(problem.message, section="schema", file=side) for problem in shape]
            continue
        for problem in ruleset.validate(ruleset.view(state, side), side, list(side_orders)):
            found.append(Problem(problem.message, order=problem.order, section=problem.section, legal=problem.legal,
                                 file=side))
    return found


def _compare_rejections(outcome: CaseOutcome, expected: list[Mapping[str, Any]], found: list[Problem]) -> None:
    want = {(item["side"], item.get("order"), item["section"]) for item in expected}
    have = {(problem.file, problem.order, problem.section) for problem in found}
    for side, order, section in sorted(want - have, key=str):
        outcome.failures.append(f"expected a rejection of {side}'s order {order} under {section}; none came")
    for side, order, section in sorted(have - want, key=str):
        outcome.failures.append(f"unexpected rejection of {side}'s order {order} under {section}")
    for item in expected:
        if "message" in item and not any(item["message"] in p.message for p in found if p.file == item["side"]):
            outcome.failures.append(f"no rejection of {item['side']} says {item['message']!r}")


def _compare_decision(outcome: CaseOutcome, expected: Mapping[str, Any] | None, need: DecisionNeeded) -> None:
    request = need.request
    if expected is None:
        outcome.failures.append(f"resolution stopped on an unexpected decision: {request.side} {request.topic}")
        return
    found = {"side": request.side, "topic": request.topic, "section": request.section,
             "question": request.question, "options": request.options}
    outcome.failures += subset_mismatches(dict(expected), found, "decision")


def load_case(path: Path | str) -> yamlio.Document:
    doc = yamlio.load_file(path)
    schemas.validate(doc, load_schema("case"))
    return doc


def run_case_file(path: Path | str) -> CaseOutcome:
    doc = load_case(path)
    return run_case(doc.data, str(path))
