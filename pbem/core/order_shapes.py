"""Orders that miss their phase's schema, said as rules: the wrong kind for the phase, a misspelt key.

Every game's order schema for a phase is a list whose items are `oneOf` the phase's order kinds,
each a mapping that requires a key no other kind requires: its tag (`move`, `fire`, `concede`).
Read from the schemas, so every ruleset gets the same words unless it says better:

- an order whose kind belongs to another phase: the ruleset's own words if it has some
  (`Ruleset.misplaced`, which may say where the order goes), else "a move order is not allowed in
  us-setup", citing the ruleset's `sequence_section` and naming the kinds allowed now; an order inside
  a list an order holds (toc's `next_phase`) whose kind that list does not take: the ruleset's words
  if it has some, else the schema's;
- an order with no kind at all: which key was probably meant (difflib);
- an order of an allowed kind checked against that kind alone, so a stray key reads
  `unknown key "hxe" in a setup order (did you mean "hex"?)` rather than a list of alternatives;
- such a problem that cites no rule cites the one the schema names: a kind's schema, or the schema of the
  key the problem is about, may open its `description` with its section (`"9.4: one unit id ..."`); the key's
  words follow the schema's message, and what is legal is the kind's line of `Ruleset.order_kinds`
  (`a move order like {move: G07, path: [...]}`), else its required keys.

These words only replace the generic schema problems of an item the schema rejected; whether a
file is accepted is still decided by the schema itself (`orders.rule_problems`).
"""

from __future__ import annotations

import copy
import re
from typing import Any, Mapping, Sequence

from . import schemas, yamlio
from .errors import Problem
from .ruleset import Ruleset

Kinds = dict[str, dict[str, Any]]  # tag -> the schema of that kind of order


def tagged(items: Any) -> Kinds | None:
    """The kinds of a `oneOf` of mappings each requiring a key of its own (or of one such mapping); else None."""
    if not isinstance(items, Mapping):
        return None
    found = schemas.tagged_union(items.get("oneOf", [items] if items.get("type") == "object" else None))
    return {tag: dict(branch) for tag, branch in found.items()} if found is not None else None


def phase_kinds(ruleset: Ruleset[Any], phase: str) -> Kinds | None:
    """The order kinds a phase takes ({} for a phase that takes no orders); None if not a tagged union."""
    schema = ruleset.order_schema(phase)
    if schema.get("maxItems") == 0 and "items" not in schema:
        return {}
    return tagged(schema.get("items"))


def _taking(ruleset: Ruleset[Any]) -> list[Kinds]:
    """The kinds of each phase that takes orders, in phase order."""
    found = [phase_kinds(ruleset, phase) for phase in ruleset.phase_names()]
    return [kinds for kinds in found if kinds]


def all_kinds(ruleset: Ruleset[Any]) -> list[str]:
    """Every order kind of every phase, in phase order."""
    return list(dict.fromkeys(tag for kinds in _taking(ruleset) for tag in kinds))


def _kind_of(order: Any, kinds: Kinds, every: list[str]) -> str | None:
    """The kind an order means: its first key that is a kind of the phase; in a phase of one kind, that
    kind for a mapping naming no other kind of the game; None otherwise."""
    if not isinstance(order, dict):
        return None
    found = next((key for key in order if key in kinds), None)
    if found is None and len(kinds) == 1 and not any(key in every for key in order):
        return next(iter(kinds))
    return found


def _by_kind(kinds: Kinds, meant: list[str | None]) -> dict[str, Any]:
    """One schema for the list: each order checked against the kind it means (none: a mapping)."""
    named = {tag: {**copy.deepcopy(branch), schemas.WHAT: f"{tag} order"} for tag, branch in kinds.items()}
    items = [named[tag] if tag is not None else {"type": "object"} for tag in meant]
    return {"type": "object", "properties": {"orders": {"type": "array", "prefixItems": items}}}


def _in_order(kinds: Kinds, ruleset: Ruleset[Any]) -> list[str]:
    """The phase's kinds as the schema lists them, those every phase takes (a concession) last."""
    taking = _taking(ruleset)
    common = [tag for tag in kinds if all(tag in other for other in taking)]
    return [tag for tag in kinds if tag not in common] + common


def item_problems(doc: yamlio.Document, ruleset: Ruleset[Any], phase: str,
                  view: Mapping[str, Any] | None = None) -> dict[int, list[Problem]] | None:
    """The problems of each order, said as rules; None when the phase's schema is not a tagged union.

    `view` is the side's own view state, handed to `Ruleset.misplaced` (None: the caller has none).
    """
    kinds = phase_kinds(ruleset, phase)
    orders = doc.data.get("orders") if isinstance(doc.data, dict) else None
    if kinds is None or not isinstance(orders, list):
        return None
    every = all_kinds(ruleset)
    meant = [_kind_of(order, kinds, every) for order in orders]
    found: dict[int, list[Problem]] = {}
    for problem in schemas.problems(doc, _by_kind(kinds, meant)):
        index = problem.path[1] if len(problem.path) >= 2 else None
        if isinstance(index, int):
            found.setdefault(index, []).append(problem.replaced(order=index))
    allowed = ", ".join(_in_order(kinds, ruleset)) or "no orders"
    for index, order in enumerate(orders):
        tag = meant[index]
        if isinstance(order, dict) and tag is None:
            found[index] = [_kind_problem(doc, ruleset, view, phase, index, order, list(kinds), every, allowed)]
        elif tag is not None and index in found:
            carried = _carried(doc, ruleset, view, phase, index, kinds[tag], every, found[index])
            form = _form(ruleset, phase, tag, kinds[tag])
            found[index] = [_cited(problem, kinds[tag], form) for problem in carried]
    return found


_SECTION = re.compile(r"([A-Z]?[0-9][0-9.]*(?:(?:-|/|, )[A-Z]?[0-9][0-9.]*)*): (.+)", re.DOTALL)
"""A schema `description` that opens with the rule section it is about: `9.4: one unit id`, `V2, V4: ...`."""


_TYPED = "expected "
"""How the schema's refusal of a value of the wrong type opens (`expected a string, got a list`): the key's own
words follow it; a refusal of its form says the form already."""


def _section_of(schema: Any) -> tuple[str, str] | None:
    """(section, words) of a schema whose `description` opens with its section; else None."""
    described = schema.get("description") if isinstance(schema, Mapping) else None
    found = _SECTION.fullmatch(described) if isinstance(described, str) else None
    return (found.group(1), found.group(2)) if found else None


def _form(ruleset: Ruleset[Any], phase: str, tag: str, branch: Mapping[str, Any]) -> str:
    """What a `tag` order looks like: its line of `order_kinds` up to the comment, else its required keys."""
    line = next((hint for hint in ruleset.order_kinds(phase) if hint.startswith("{" + tag + ":")), None)
    if line is not None:
        return f"a {tag} order like {line.split('   ')[0].strip()}"
    return f"a {tag} order with the keys {', '.join(str(key) for key in branch.get('required', [tag]))}"


def _cited(problem: Problem, branch: Mapping[str, Any], form: str) -> Problem:
    """`problem` (of an order of the kind `branch` describes) citing the section its key's or its kind's schema
    names, with the key's words and the kind's form as what is legal; as it is when it cites a rule already or
    neither schema names one."""
    if problem.section is not None:
        return problem
    key = problem.path[2] if len(problem.path) >= 3 else None
    inner = branch.get("properties", {}).get(key) if isinstance(key, str) else None
    own = _section_of(inner)
    said = own or _section_of(branch)
    if said is None:
        return problem
    typed = own is not None and len(problem.path) == 3 and problem.message.startswith(_TYPED)
    message = f"{problem.message}: {said[1]}" if typed and said[1] not in problem.message else problem.message
    return problem.replaced(message=message, section=said[0], legal=problem.legal or form)


def _ruleset_words(doc: yamlio.Document, ruleset: Ruleset[Any], view: Mapping[str, Any] | None, phase: str,
                   index: int, path: tuple[str | int, ...], within: str | None) -> Problem | None:
    """The ruleset's words for the misplaced order of order `index` whose kind is the last key of `path`, located
    at that key as the core's own words would be; None when the ruleset has none."""
    said = ruleset.misplaced(view, doc.data["orders"], phase, str(path[-1]), within)
    if said is None:
        return None
    return doc.problem(said.message, path, at_key=True, order=index, section=said.section, legal=said.legal)


def _carried(doc: yamlio.Document, ruleset: Ruleset[Any], view: Mapping[str, Any] | None, phase: str, index: int,
             branch: Mapping[str, Any], every: list[str], problems: list[Problem]) -> list[Problem]:
    """`problems` of order `index` (of the kind `branch` describes) with those of each order inside one of its
    lists of orders whose kind that list does not take replaced by the ruleset's words, where it has some."""
    order = doc.data["orders"][index]
    out = list(problems)
    for key, value in order.items():
        inner = branch.get("properties", {}).get(key)
        kinds = tagged(inner.get("items")) if isinstance(inner, Mapping) and isinstance(value, list) else None
        if kinds is None:
            continue
        for position, item in enumerate(value):
            tag = _foreign(item, kinds, every)
            where: tuple[str | int, ...] = ("orders", index, key, position)
            mine = [at for at, problem in enumerate(out) if problem.path[:4] == where]
            said = _ruleset_words(doc, ruleset, view, phase, index, where + (tag,), key) if tag and mine else None
            if said is not None:
                out = out[:mine[0]] + [said] + [p for p in out[mine[0]:] if p.path[:4] != where]
    return out


def _foreign(item: Any, kinds: Kinds, every: Sequence[str]) -> str | None:
    """The kind of the game `item` names when it names none of `kinds`, else None."""
    if not isinstance(item, dict) or any(key in kinds for key in item):
        return None
    return next((key for key in item if key in every), None)


def _kind_problem(doc: yamlio.Document, ruleset: Ruleset[Any], view: Mapping[str, Any] | None, phase: str,
                  index: int, order: dict[str, Any], kinds: list[str], every: list[str], allowed: str) -> Problem:
    section = ruleset.sequence_section
    elsewhere = [key for key in order if key in every]
    if elsewhere:
        path = ("orders", index, elsewhere[0])
        said = _ruleset_words(doc, ruleset, view, phase, index, path, None)
        if said is not None:
            return said
        return doc.problem(f"a {elsewhere[0]} order is not allowed in {phase}", path, at_key=True, order=index,
                           section=section, legal=allowed)
    for key in order:
        near = schemas.closest(key, kinds) or schemas.closest(key, every)
        if near is not None:
            note = "" if near in kinds else f" (a {near} order is not allowed in {phase} either)"
            return doc.problem(f'"{key}" is no kind of order: did you mean "{near}"?{note}', ("orders", index, key),
                               at_key=True, order=index, section=section, legal=allowed)
    keys = ", ".join(f'"{key}"' for key in order) or "none"
    return doc.problem(f"this order names no kind of order (its keys: {keys})", ("orders", index), order=index,
                       section=section, legal=allowed)


def explained(doc: yamlio.Document, ruleset: Ruleset[Any], phase: str, found: list[Problem],
              view: Mapping[str, Any] | None = None) -> list[Problem]:
    """`found` (the schema's problems) with those of each rejected order replaced by the words above.

    `view`: the side's own view state, for `Ruleset.misplaced` (None: the caller has none).
    """
    better = item_problems(doc, ruleset, phase, view) if found else None
    if not better:
        return found
    out: list[Problem] = []
    done: set[int] = set()
    for problem in found:
        index = problem.path[1] if len(problem.path) >= 2 and problem.path[0] == "orders" else None
        if not isinstance(index, int) or not better.get(index):
            out.append(problem)
        elif index not in done:
            done.add(index)
            out += better[index]
    if len(out) > schemas.MAX_PROBLEMS + 1:  # bounded as the schema's own answer is
        out = out[:schemas.MAX_PROBLEMS] + [schemas.stopped_problem(schemas.MAX_PROBLEMS, doc.file)]
    return out


def rejected_orders(found: list[Problem]) -> set[int]:
    """The indexes of the orders these schema problems are about."""
    return {p.path[1] for p in found if len(p.path) >= 2 and p.path[0] == "orders" and isinstance(p.path[1], int)}
