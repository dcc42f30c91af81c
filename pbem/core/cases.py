"""Adjudicator test cases (`pbem case run`), in the style of the Diplomacy Adjudicator Test Cases.

The format (issue #3; schema `pbem schema case`):

```yaml
case: "10.3: ten fire factors into a Surmelin River hex fire at 3:1"   # the title
rule: "10.3"                                # the rule section it tests
scenario: samples/fbsm/scenario.yaml        # map, unit types, options; the ruleset is its `ruleset`
state: {turn: 2, phase: german-first-fire, units: {G85: {hex: "3003"}, US01: {hex: "3305"}}}
orders: {side: german, orders: [{fire: "3305", with: [G85]}]}
dice: [3]                                   # forced, in order; too few is an error
expect:
  accepted: true                            # false: also `errors: [{rule: "10.6"}]`
  units: {US01: {status: eliminated}}       # subset match on each listed unit
  rolls: 1                                  # how many random numbers were drawn
```

`scenario` is found relative to the case file's folder, then each folder above it in turn. The
scenario's `setup` (its map, unit types and options, as the ruleset's `initial_state` builds it)
goes into `state`, which overrides it (`state.setup` keys win); without `state` the case starts
from the scenario's initial state. `state` is otherwise the ruleset's state, usually its compact
form (only the listed units exist).

Extensions: `orders` may be a list of `{side, orders}` (several sides in one phase); each entry of
`expect.errors` may also give `side`, `order` (index; null: a rejection of no single order) and
`message` (a substring), and `other_errors: false` says no rejection beyond those listed may
come; `expect.state` (a subset match on the other state keys), `expect.events` (a subset match
on the event list), `expect.decision` (the decision request resolution stops on), `expect.phase`
and `expect.result`; `standing` (standing answers per side), `decisions` (answers, in order),
`sides`, `source`, `erratum`. With `accepted: true` the phase is resolved when the case forces
numbers or answers or expects anything of the resolution; otherwise the case checks acceptance
only.

Forced numbers are what the rules see: for a die, the face shown (1..faces); for a draw or
any other uniform choice, the raw number (0..n-1), as docs/protocol.md §4 defines them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from . import chance, schemas, yamlio
from .errors import PbemError, Problem
from .ruleset import (STANDING_KEY, DecisionNeeded, Decisions, Rules, Ruleset, State, Submission,
                      get as get_ruleset, rules_for, start)
from .schemafiles import load_schema, orders_schema

RESOLUTION_KEYS = ("units", "state", "events", "decision", "phase", "result", "rolls")


class CaseDice(chance.ForcedDice):
    """Forced numbers, with dice given as the faces shown; too few, or one out of range, is an error."""

    def _number(self, n: int, key: bytes | None = None) -> int:
        try:
            return super()._number(n, key)
        except ValueError as error:
            raise PbemError(str(error)) from None

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
    rule: str
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.file}: {self.rule} {self.title}"
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


# --- the situation --------------------------------------------------------------------------------

_SCENARIOS: dict[tuple[Path, int, int], tuple[str, State]] = {}


def find_scenario(name: str, folder: Path | str) -> Path:
    """The scenario file `name`: relative to `folder`, else to each folder above it (or absolute)."""
    given = Path(name)
    if given.is_absolute():
        candidates = [given]
    else:
        start = Path(folder).resolve()
        candidates = [base / given for base in (start, *start.parents)]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise PbemError(f"scenario {name!r}: no such file in {Path(folder)} or any folder above it")


def scenario_start(path: Path) -> tuple[Ruleset[Any], State]:
    """The ruleset a scenario names and its initial state (cached per file version)."""
    from .game import load_scenario

    stat = path.stat()
    key = (path.resolve(), stat.st_mtime_ns, stat.st_size)
    if key not in _SCENARIOS:
        doc, ruleset = load_scenario(path)
        _SCENARIOS[key] = (ruleset.id, start(ruleset, doc.data)[1])
    ruleset_id, state = _SCENARIOS[key]
    return get_ruleset(ruleset_id), copy.deepcopy(state)


def situation(case: Mapping[str, Any], folder: Path | str) -> tuple[Rules, State]:
    """The rules and the state a case starts from: its `state` over its scenario's."""
    ruleset, start = scenario_start(find_scenario(case["scenario"], folder))
    if case.get("state") is None:
        state = start
    else:
        state = copy.deepcopy(dict(case["state"]))
        if isinstance(start.get("setup"), dict):
            setup = copy.deepcopy(start["setup"])
            setup.update(state.get("setup") or {})
            state["setup"] = setup
    standing = state.setdefault(STANDING_KEY, {})
    for side, answers in (case.get("standing") or {}).items():
        standing.setdefault(side, {}).update(answers)
    return rules_for(ruleset, state), state


def case_orders(case: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Side -> orders, from `orders: {side, orders}` or a list of them."""
    given = case.get("orders")
    entries = [] if given is None else [given] if isinstance(given, dict) else list(given)
    out: dict[str, list[Any]] = {}
    for entry in entries:
        if entry["side"] in out:
            raise PbemError(f"orders: {entry['side']} gives orders twice")
        out[entry["side"]] = list(entry["orders"])
    return out


# --- running a case -------------------------------------------------------------------------------

def run_case(case: Mapping[str, Any], file: str = "<case>", folder: Path | str | None = None) -> CaseOutcome:
    """Run one case (already checked against the schema); `folder` is where `scenario` is looked for
    first (default: the folder of `file`, else the working directory)."""
    outcome = CaseOutcome(file, str(case.get("case", "")), str(case.get("rule", "")))
    if folder is None:
        folder = Path(file).parent if Path(file).is_file() else Path.cwd()
    try:
        _run(case, folder, outcome)
    except PbemError as error:
        outcome.failures.append(f"error: {error}")
    return outcome


def _run(case: Mapping[str, Any], folder: Path | str, outcome: CaseOutcome) -> None:
    rules, state = situation(case, folder)
    orders = case_orders(case)
    expect = case["expect"]
    rejected = _rejections(rules, state, orders, outcome.file)
    if not expect["accepted"]:
        _compare_rejections(outcome, expect, rejected)
        return
    if rejected:
        outcome.failures += [f"orders rejected: {problem}" for problem in rejected]
        return
    if not (case.get("dice") or case.get("decisions") or any(key in expect for key in RESOLUTION_KEYS)):
        return  # an acceptance case: nothing is expected of the resolution
    dice = CaseDice(case.get("dice") or [])
    decisions = Decisions(dict(enumerate(case.get("decisions") or [])))
    submissions = {side: Submission(side, list(orders[side])) if side in orders else None
                   for side in case.get("sides") or rules.ruleset.sides({})}
    try:
        resolution = rules.resolve(copy.deepcopy(state), submissions, dice, decisions)
    except DecisionNeeded as need:
        _compare_decision(outcome, expect.get("decision"), need)
        return
    if "decision" in expect:
        outcome.failures.append(f"expected a decision request {expect['decision']}, resolution finished instead")
    if "units" in expect:
        outcome.failures += subset_mismatches(expect["units"], resolution.state.get("units"), "units")
    if "state" in expect:
        outcome.failures += subset_mismatches(expect["state"], resolution.state, "state")
    if "events" in expect:
        outcome.failures += subset_mismatches(expect["events"], resolution.events, "events")
    if "phase" in expect:
        outcome.failures += subset_mismatches(expect["phase"], rules.phase(resolution.state), "phase")
    if "result" in expect:
        outcome.failures += subset_mismatches(expect["result"], rules.result(resolution.state), "result")
    if "rolls" in expect and expect["rolls"] != len(dice.rolls):
        outcome.failures.append(f"rolls: expected {expect['rolls']} random numbers drawn, found {len(dice.rolls)}")
    if dice.unused:
        outcome.failures.append(f"dice: {dice.unused} forced numbers were never used")


def _rejections(rules: Rules, state: State, orders: Mapping[str, list[Any]], file: str) -> list[Problem]:
    found = []
    phase = rules.phase(state)
    for side, side_orders in orders.items():
        doc = yamlio.Document({"orders": side_orders}, file, {})
        schema = {"type": "object", "properties": {"orders": orders_schema(rules.ruleset, phase)["properties"]["orders"]}}
        shape = schemas.problems(doc, schema)
        if shape:
            found += [Problem(problem.message, section="schema", file=side) for problem in shape]
            continue
        for problem in rules.validate(rules.view(state, side), side, list(side_orders)):
            found.append(Problem(problem.message, order=problem.order, section=problem.section, legal=problem.legal,
                                 file=side))
    return found


def _matches(item: Mapping[str, Any], problem: Problem) -> bool:
    return (problem.section == item["rule"]
            and ("side" not in item or problem.file == item["side"])
            and ("order" not in item or problem.order == item["order"])
            and ("message" not in item or item["message"] in problem.message))


def _describe(item: Mapping[str, Any]) -> str:
    parts = [f"under {item['rule']}"]
    if "side" in item:
        parts.append(f"of {item['side']}'s orders")
    if "order" in item:
        parts.append("of no single order" if item["order"] is None else f"of order {item['order']}")
    if "message" in item:
        parts.append(f"saying {item['message']!r}")
    return "a rejection " + " ".join(parts)


def _compare_rejections(outcome: CaseOutcome, expect: Mapping[str, Any], found: list[Problem]) -> None:
    if not found:
        outcome.failures.append("expected the orders to be rejected; they were accepted")
        return
    wanted = list(expect.get("errors") or [])
    for item in wanted:
        if not any(_matches(item, problem) for problem in found):
            outcome.failures.append(f"expected {_describe(item)}; none came (rejections: "
                                    + "; ".join(_show(problem) for problem in found) + ")")
    if expect.get("other_errors", True) is False:
        for problem in found:
            if not any(_matches(item, problem) for item in wanted):
                outcome.failures.append(f"unexpected rejection: {_show(problem)}")


def _show(problem: Problem) -> str:
    order = "" if problem.order is None else f" order {problem.order}"
    return f"{problem.file}{order} under {problem.section}: {problem.message}"


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
    """Run one case file; a file that does not load or fit the schema is a failure, not a crash."""
    try:
        doc = load_case(path)
    except PbemError as error:
        return CaseOutcome(str(path), "", "", [f"error: {error}"])
    return run_case(doc.data, str(path), Path(path).parent)
