"""Each game's clicking rules: the module `desk` beside its ruleset (`pbem/rulesets/<id>/desk.py`).

The desk finds it through the registry, from the package the ruleset's class lives in, so a
game installed from elsewhere brings its own. A hook module offers three functions (and a
fourth, optional), each reading only the side's view (`ctx` is the ruleset's prepared context,
`view` the view's state, with `side` set to the side's name where the game's state does not hold
it):

    spec(ctx, view) -> {"kinds": [KIND, ...], "next_phase": None | {"phase", "section", "kinds"}}
        KIND: {"kind", "label", "section", "auto": bool, "fields": [FIELD, ...]}
        FIELD: {"name" (the order's key, in the file's key order; "a.b" is key b under key a), "type",
                "label", "optional", "keep_empty" (an empty list is written), "keep_false" (a flag not
                set is written `false`), "values" (enum: words or numbers), "value" (const), "clicks"
                (map clicks go to this field once the others are filled), "repeat" (a list whose
                words are appended at each click, so one may come more than once)}
        types: unit, units, hex, path, list, enum, flag, const; on a table point and points ([x, y] in
        whole table units, read off the picture's grid)
        "auto": the order is added once complete and the same kind starts again
    candidates(ctx, view, draft, field, ok) -> list[str] | None
        what may be picked for `field` (None: any hex of the map, or any point of a table; not asked
        for enum, flag and const fields); `draft` holds "kind", "order"
        (the fields picked so far), "orders" (this phase's orders before it), "next" (the next
        phase's orders, or None) and "target" ("main" or "next"); `ok(order)` is the ruleset's own
        `validate` on the orders before it plus `order`, true when it finds nothing wrong with it
    notes(ctx, view, draft) -> list[str]
        the numbers to weigh before adding the order (movement points left, odds, range, LOF)
    standing_keys(ctx, view, topic) -> list[str] | None   (optional)
        the keys the desk offers a row each for, of a standing answer that maps keys to words
        (bst's `opfire: {UNIT: TRIGGER}`: the side's own units on the table); only keys the view
        holds, never another side's hidden pieces; None or missing: no rows for that topic

A ruleset without such a module still opens in the desk: the map, the report and the template's
hints (`pbem orders`), with no order kinds to click.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any, Callable

from pbem.core.api import Rules

Ok = Callable[[dict[str, Any]], bool]


def hooks_for(rules: Rules) -> ModuleType | None:
    """The ruleset's desk module, or None when the game ships none."""
    module = sys.modules.get(type(rules.ruleset).__module__)
    package = getattr(module, "__package__", None) or type(rules.ruleset).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.desk")
    except ModuleNotFoundError as error:
        if error.name == f"{package}.desk":
            return None
        raise


def spec(rules: Rules, view: dict[str, Any]) -> dict[str, Any]:
    hooks = hooks_for(rules)
    if hooks is None:
        return {"kinds": [], "next_phase": None}
    found: dict[str, Any] = hooks.spec(rules.context, view)
    return found


def candidates(rules: Rules, view: dict[str, Any], draft: dict[str, Any], field: str, ok: Ok) -> list[str] | None:
    hooks = hooks_for(rules)
    if hooks is None:
        return None
    found: list[str] | None = hooks.candidates(rules.context, view, draft, field, ok)
    return found


def notes(rules: Rules, view: dict[str, Any], draft: dict[str, Any]) -> list[str]:
    hooks = hooks_for(rules)
    if hooks is None:
        return []
    found: list[str] = hooks.notes(rules.context, view, draft)
    return found


def standing_keys(rules: Rules, view: dict[str, Any], topic: str) -> list[str] | None:
    hooks = hooks_for(rules)
    keys = getattr(hooks, "standing_keys", None)
    if keys is None:
        return None
    found: list[str] | None = keys(rules.context, view, topic)
    return found
