"""Every order the bots give, in every kind of phase of fbsm and toc, can be built from the picks the
desk offers, in the page's own way (its flags first, then each field in turn), and comes out the
same mapping with the same key order: the clicking rules (pbem/rulesets/*/desk.py) never hide a
legal choice the bot makes. The browser tests do the same by clicks for three phases; this one
covers the others without a browser.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from pbem.core import yamlio
from pbem.core.ruleset import Ruleset, rules_for
from pbem.desk.session import OrdersDesk
from pbem.rulesets.bob import Bob
from pbem.rulesets.bst import Bst
from pbem.rulesets.fbsm import Fbsm, selfplay as fbsm_selfplay
from pbem.rulesets.toc import Toc, selfplay as toc_selfplay
from pbem.rulesets.wtj1916 import Wtj1916
from pbem.selfplay import play_states
from pbem.testing import view_bytes

ROOT = Path(__file__).resolve().parent.parent
MANY = ("units", "path", "list", "points")


def put(order: dict[str, Any], name: str, value: Any) -> None:
    """desk.js put: a field named "a.b" is key b of the mapping under key a."""
    head, dot, rest = name.partition(".")
    if dot:
        put(order.setdefault(head, {}), rest, value)
    else:
        order[head] = value


def get(order: dict[str, Any], name: str) -> Any:
    head, dot, rest = name.partition(".")
    inner = order.get(head)
    return get(inner, rest) if dot and isinstance(inner, dict) else None if dot else inner


def matches(spec: dict[str, Any], order: dict[str, Any]) -> bool:
    """Whether `order` is of this kind: its first key given, and every constant of the kind as the kind has it
    (bst's kinds all start with `unit` and differ by `act`)."""
    return get(order, spec["fields"][0]["name"]) is not None and all(
        get(order, f["name"]) == f["value"] for f in spec["fields"] if f["type"] == "const")


def order_of(spec: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The order the page makes of its picks (desk.js orderOf)."""
    order: dict[str, Any] = {}
    for field in spec["fields"]:
        value = values.get(field["name"])
        if field["type"] == "const":
            put(order, field["name"], field["value"])
        elif field["type"] == "flag":
            if value:
                put(order, field["name"], True)
            elif field.get("keep_false"):
                put(order, field["name"], False)
        elif field["type"] in MANY:
            if value:
                put(order, field["name"], list(value))
            elif field.get("keep_empty"):
                put(order, field["name"], [])
        elif value is not None:
            put(order, field["name"], value)
    return order


def build(desk: OrdersDesk, orders: list[Any]) -> list[Any]:
    """Pick each order of `orders` from the desk's offers; the orders built."""
    described = desk.describe()
    main: list[Any] = []
    later: list[Any] | None = None
    for order in orders:
        if "next_phase" in order:
            later = []
            for inner in order["next_phase"]:
                later.append(build_one(desk, described["next_phase"]["kinds"], inner, main, later, "next"))
            main.append({"next_phase": later})
            continue
        main.append(build_one(desk, described["kinds"], order, main, later, "main"))
    return main


def build_one(desk: OrdersDesk, kinds: list[dict[str, Any]], order: dict[str, Any], main: list[Any],
              later: list[Any] | None, target: str) -> dict[str, Any]:
    spec = next(k for k in kinds if matches(k, order))
    values: dict[str, Any] = {}
    for field in sorted(spec["fields"], key=lambda f: f["type"] != "flag"):
        value = get(order, field["name"])
        if field["type"] == "const" or value is None:
            continue
        if field["type"] == "flag":
            values[field["name"]] = value
            continue
        for item in (value if isinstance(value, list) and field["type"] != "point" else [value]):
            offered = field.get("values") if field["type"] == "enum" else desk.draft(
                {"kind": spec["kind"], "order": order_of(spec, values), "orders": main, "next": later,
                 "target": target})["candidates"][field["name"]]
            assert offered is None or item in offered, (spec["kind"], field["name"], item, offered, order)
            if field["type"] in ("units", "list") and not field.get("repeat"):  # desk.js pick: a second click takes it back
                assert item not in values.get(field["name"], []), (spec["kind"], field["name"], item, "twice", order)
            if field["type"] in MANY:
                values.setdefault(field["name"], []).append(item)
            else:
                values[field["name"]] = item
    built = order_of(spec, values)
    assert list(built.items()) == list(order.items())
    if spec["kind"] in ("move", "fire", "bombard"):  # movement points left; odds, range, LOF or sight
        notes = desk.draft({"kind": spec["kind"], "order": built, "orders": main, "next": later,
                            "target": target})["notes"]
        assert notes and any(word in " ".join(notes) for word in ("movement points", "odds", "range", "allowed")), notes
    return built


def phases(ruleset: Ruleset[Any], states: Iterator[dict[str, Any]], per_phase: int,
           last_turn: int = 2) -> list[tuple[str, dict[str, Any]]]:
    """(side, state) for the first states of each phase of turns 1 to `last_turn` in which a side gives orders."""
    seen: dict[str, int] = {}
    found = []
    for state in states:
        if state["turn"] > last_turn:  # every kind of phase has come by then; the rest would only cost time
            break
        rules = rules_for(ruleset, state)
        if rules.result(state) is not None:
            continue
        for side in rules.awaiting(state):
            key = f"{side} {state['phase']} {state.get('sequence')}"
            if seen.get(key, 0) < per_phase:
                seen[key] = seen.get(key, 0) + 1
                found.append((side, copy.deepcopy(state)))  # a game may go on changing the state it yielded
    return found


def cases() -> list[Any]:
    fbsm_scenario = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
    toc_scenario = yamlio.load_file(ROOT / "samples" / "toc" / "scenario.yaml").data
    bob_scenario = yamlio.load_file(ROOT / "samples" / "bob" / "scenario.yaml").data
    wtj_scenario = yamlio.load_file(ROOT / "samples" / "wtj1916" / "scenario.yaml").data
    bst_scenario = yamlio.load_file(ROOT / "samples" / "bst" / "scenario.yaml").data
    found = []
    games: list[tuple[str, Ruleset[Any], Callable[[], Iterator[dict[str, Any]]], list[str], int, int]] = [
        ("fbsm", Fbsm(), lambda: fbsm_selfplay.games_states(fbsm_scenario, b"desk-picks"), ["us", "german"], 1, 2),
        ("toc", Toc(), lambda: toc_selfplay.games_states(toc_scenario, b"desk-picks"), ["german", "british"], 1, 2),
        # bob: several impulses of each side, for moves, fires, vehicles, guns and artillery calls alike
        ("bob", Bob(), lambda: play_states(Bob(), bob_scenario, b"desk-picks"), ["american", "german"], 8, 2),
        # wtj1916: the lines close by turn 4; its fire phases from then on bring fire, flame and unjam orders
        ("wtj1916", Wtj1916(), lambda: play_states(Wtj1916(), wtj_scenario, b"desk-picks"), ["british", "german"], 6, 6),
        ("bst", Bst(), lambda: play_states(Bst(), bst_scenario, b"desk-picks"), ["allies", "axis"], 12, 2)]
    for name, ruleset, states, sides, per_phase, last_turn in games:
        for side, state in phases(ruleset, states(), per_phase, last_turn):
            found.append(pytest.param(ruleset, state, side, sides,
                                      id=f"{name}-{side}-{state['phase']}-{state['turn']}-"
                                         f"{state.get('impulse', state.get('card', 0))}"))
    return found


@pytest.mark.parametrize(("ruleset", "state", "side", "sides"), cases())
def test_the_bots_orders_are_built_from_the_desks_picks(ruleset: Ruleset[Any], state: dict[str, Any], side: str,
                                                         sides: list[str], tmp_path: Path) -> None:
    path = tmp_path / f"{side}.yaml"
    path.write_bytes(view_bytes(ruleset, state, side, sides))
    desk = OrdersDesk(path, out=tmp_path / "o.yaml")
    view_state = desk.state
    orders = rules_for(ruleset, view_state).bot_orders(view_state, side, b"desk-picks")
    assert build(desk, orders) == orders
    assert desk.check({"orders": [o for o in orders if "next_phase" not in o],
                       "next": next((o["next_phase"] for o in orders if "next_phase" in o), None)})["ok"]
