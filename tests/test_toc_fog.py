"""Fog of war (ToC 6.6): what one side may not know never reaches its view, byte for byte.

Situations come from bot games. At many points, for each side, the enemy units under the top
of a stack are changed (step strength, identity, order), the enemy's private records (march
mode, standing answers, movement events) are changed, and the side's view file must stay
identical. The converse: what a side may see (top units, stack heights, combats) does show.
Decision requests are checked too: a request names no enemy unit the side's own view of that
adjudication does not show.
"""

from __future__ import annotations

import copy
from typing import Any, Iterator

import pytest

from pbem.core import chance
from pbem.core.ruleset import DecisionNeeded, Decisions, Submission, rules_for, start
from pbem.rulesets.toc import Toc, selfplay
from pbem.rulesets.toc.context import Context
from pbem.testing import assert_no_leak, assert_visible, stacks_of, under_the_top

RULESET = Toc()
SIDES = ["german", "british"]
SCENARIO: dict[str, Any] = {"setup": {}}


def other(side: str) -> str:
    return "british" if side == "german" else "german"


def situations(games: int = 2, every: int = 5) -> Iterator[dict[str, Any]]:
    for number in range(games):
        for index, state in enumerate(selfplay.games_states(SCENARIO, b"fog" + bytes([number]))):
            if index % every == 2:
                yield state


SITUATIONS = list(situations())


def context(state: dict[str, Any]) -> Context:
    """The context the core binds to the state's setup."""
    found: Context = rules_for(RULESET, state).context
    return found


def stacks(state: dict[str, Any], side: str) -> dict[str, list[str]]:
    cfg = context(state)
    return stacks_of(state["units"], lambda uid: cfg.counters[uid].side == side, on_map="active")


def hidden(state: dict[str, Any], side: str) -> list[tuple[str, str]]:
    """(hex, unit) for every unit of `side` under the top of its stack."""
    return under_the_top(stacks(state, side))


def test_situations_have_hidden_units() -> None:
    assert sum(len(hidden(s, "german")) for s in SITUATIONS) > 10
    assert sum(len(hidden(s, "british")) for s in SITUATIONS) > 10


@pytest.mark.parametrize("viewer", SIDES)
def test_steps_under_the_top_are_invisible(viewer: str) -> None:
    enemy = other(viewer)
    checked = 0
    for state in SITUATIONS:
        cfg = context(state)
        for _, uid in hidden(state, enemy)[:4]:
            steps = state["units"][uid]["steps"]
            if cfg.counters[uid].steps == 1:
                continue

            def mutate(s: dict[str, Any], _: list[dict[str, Any]], uid: str = uid, steps: int = steps) -> None:
                s["units"][uid]["steps"] = 1 if steps > 1 else 2

            assert_no_leak(RULESET, state, viewer, SIDES, mutate)
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("viewer", SIDES)
def test_order_under_the_top_is_invisible(viewer: str) -> None:
    enemy = other(viewer)
    checked = 0
    for state in SITUATIONS:
        for units in stacks(state, enemy).values():
            if len(units) < 3:
                continue
            a, b = units[0], units[1]

            def mutate(s: dict[str, Any], _: list[dict[str, Any]], a: str = a, b: str = b) -> None:
                s["units"][a]["z"], s["units"][b]["z"] = s["units"][b]["z"], s["units"][a]["z"]

            assert_no_leak(RULESET, state, viewer, SIDES, mutate)
            checked += 1
    if viewer == "german":
        assert checked > 3


@pytest.mark.parametrize("viewer", SIDES)
def test_identity_under_the_top_is_invisible(viewer: str) -> None:
    """Two hidden enemy units in different stacks trade places: same heights, same tops."""
    enemy = other(viewer)
    checked = 0
    for state in SITUATIONS:
        found = hidden(state, enemy)
        for (h1, u1), (h2, u2) in zip(found, found[1:]):
            if h1 == h2:
                continue

            def mutate(s: dict[str, Any], _: list[dict[str, Any]], u1: str = u1, u2: str = u2) -> None:
                a, b = s["units"][u1], s["units"][u2]
                a["hex"], b["hex"] = b["hex"], a["hex"]
                a["z"], b["z"] = b["z"], a["z"]

            assert_no_leak(RULESET, state, viewer, SIDES, mutate)
            checked += 1
            break
    assert checked > 3


def test_german_units_waiting_off_the_map_are_invisible() -> None:
    state = start(RULESET, SCENARIO)[1]

    def mutate(s: dict[str, Any], _: list[dict[str, Any]]) -> None:
        s["units"]["G-IR8"]["steps"] = 2
        s["units"]["G-HA2"]["status"] = "container"
        s["units"]["G-HA2"]["z"] = 99

    assert_no_leak(RULESET, state, "british", SIDES, mutate)


def test_enemy_private_records_are_invisible() -> None:
    for state in SITUATIONS[:6]:
        def mutate(s: dict[str, Any], events: list[dict[str, Any]]) -> None:
            s["marched"] = sorted(set(s["marched"]) | {"G-FA18"})
            s.setdefault("standing", {}).setdefault("german", {})["own_losses"] = "ask"
            events.append({"type": "move", "side": "german", "section": "9.1", "units": ["G-FA18"], "from": "3100",
                           "path": ["3101"], "march": True})
            events.append({"type": "entry-delayed", "side": "german", "section": "8.3", "unit": "G-HA4"})
            events.append({"type": "top", "side": "german", "section": "6.6", "unit": "G-FA18"})

        assert_no_leak(RULESET, state, "british", SIDES, mutate)


@pytest.mark.parametrize("viewer", SIDES)
def test_tops_heights_and_combats_show(viewer: str) -> None:
    enemy = other(viewer)
    state = next(s for s in SITUATIONS if stacks(s, enemy))
    hex_id, units = next(iter(stacks(state, enemy).items()))
    top = units[-1]

    def steps(s: dict[str, Any], _: list[dict[str, Any]]) -> None:
        s["units"][top]["steps"] = 1 if s["units"][top]["steps"] > 1 else 2

    def height(s: dict[str, Any], _: list[dict[str, Any]]) -> None:
        s["units"][top]["status"] = "eliminated"
        s["units"][top]["hex"] = None
        s["units"][top]["steps"] = 0

    def combat(s: dict[str, Any], events: list[dict[str, Any]]) -> None:
        events.append({"type": "bombard", "side": enemy, "section": "10.7", "target": hex_id, "with": [],
                       "losses": 0, "results": []})

    assert_visible(RULESET, state, viewer, SIDES, steps)
    assert_visible(RULESET, state, viewer, SIDES, height)
    assert_visible(RULESET, state, viewer, SIDES, combat)


def test_view_is_built_from_an_allow_list() -> None:
    state = SITUATIONS[len(SITUATIONS) // 2]
    for side in SIDES:
        view = rules_for(RULESET, state).view(state, side)
        assert set(view) == {"toc", "side", "setup", "turn", "phase", "sequence", "control", "result", "units",
                             "marched", "enemy", "enemy_dead", "enemy_surrounded", "enemy_exited", "tally"}
        cfg = context(state)
        assert all(cfg.counters[uid].side == side for uid in view["units"])
        for info in view["enemy"].values():
            assert set(info) == {"count", "top"}
            assert set(info["top"]) == {"unit", "steps", "counter", "face"}
        assert "standing" not in view


# --- decision requests ----------------------------------------------------------------------------


def _enemy_ids(value: Any, enemy_units: set[str]) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and item in enemy_units:
            found.add(item)
    return found


def test_decision_requests_show_nothing_the_view_does_not() -> None:
    """In a game with `ask` everywhere, every enemy unit a request names shows in that side's view of
    the same adjudication (the combat events that examined it) or is on top of a stack."""
    ask = {key: "ask" for key in ("defensive_fire", "fire_losses", "own_losses", "bombard_losses", "advance",
                                  "overstack")}
    ruleset = Toc()
    state = start(ruleset, SCENARIO)[1]
    state["standing"] = {side: dict(ask) for side in SIDES}
    cfg = context(state)
    requests = 0
    for number in range(200):
        if rules_for(ruleset, state).result(state) is not None:
            break
        submissions: dict[str, Submission | None] = {side: None for side in SIDES}
        for side in rules_for(ruleset, state).awaiting(state):
            view = rules_for(ruleset, state).view(state, side)
            submissions[side] = Submission(side, rules_for(ruleset, view).bot_orders(view, side, bytes([number % 256])))
        seed = chance.sha256(b"ask" + number.to_bytes(4, "big"))
        answers: dict[int, Any] = {}
        asked: list[Any] = []
        while True:
            try:
                resolution = rules_for(ruleset, state).resolve(copy.deepcopy(state), submissions, chance.Dice(seed), Decisions(answers))
                break
            except DecisionNeeded as need:
                asked.append(need.request)
                answers[need.request.index] = need.request.options[0]
        state = resolution.state
        for request in asked:
            enemy_units = {uid for uid, c in cfg.counters.items() if c.side != request.side}
            named = _enemy_ids({"q": request.question, "o": request.options}, enemy_units)
            shown_events = [rules_for(ruleset, {}).visible(e, request.side) for e in resolution.events]
            view = rules_for(ruleset, state).view(state, request.side)
            visible = _enemy_ids([e for e in shown_events if e is not None], enemy_units)
            visible |= {info["top"]["unit"] for info in view["enemy"].values()}
            visible |= set(view["enemy_dead"]) | set(view["enemy_surrounded"]) | set(view["enemy_exited"])
            assert named <= visible, (request.topic, sorted(named - visible))
            requests += 1
    assert requests > 10


def test_public_combat_check_covers_every_real_combat() -> None:
    """`awaiting` uses the public bound; it must never skip a combat phase a side could fight in."""
    from pbem.rulesets.toc.combat import possible, possible_public

    checked = 0
    for state in SITUATIONS:
        ctx = context(state)
        for side in SIDES:
            if possible(ctx, state, side):
                assert possible_public(ctx, state, side), (state["turn"], state["phase"], side)
                checked += 1
    assert checked > 5


def test_a_bombardment_does_not_name_the_firers_hidden_spotters() -> None:
    """6.6: G-CAV3, under G-FA18 next to the target, spots; the British learn only that someone did."""
    from pbem.core.cases import CaseDice
    from pbem.core.ruleset import Submission
    from pbem.core import yamlio
    from pbem.rulesets.toc.fog import visible
    from pbem.rulesets.toc.state import normalize

    def bombard(hidden: str) -> list[dict[str, Any]]:
        state = normalize(context({}), {
            "phase": "german-combat", "turn": 3,
            "units": {"G-HA2": {"hex": "3119"}, hidden: {"hex": "3121"}, "G-FA18": {"hex": "3121"},
                      "B-WK": {"hex": "3122"}}})
        orders = {"german": Submission("german", [{"bombard": "3122", "with": ["G-HA2"]}]), "british": None}
        return rules_for(RULESET, state).resolve(state, orders, CaseDice([1]), Decisions()).events

    events = bombard("G-CAV3")
    assert events[0]["spotters"] == ["G-CAV3", "G-FA18"]  # the bombarding side knows its own
    seen = [visible(context({}), event, "british") for event in events]
    assert "G-CAV3" not in yamlio.dump(seen) and "spotters" not in seen[0]
    assert seen[0]["modifiers"] == {"cover": -2}  # spotted: no -1 (10.11), plain to both sides
    assert seen == [visible(context({}), event, "british") for event in bombard("G-IR12")]  # another hidden unit: same


def test_a_bombardment_shows_the_other_side_where_the_guns_are_not_which_they_are() -> None:
    """6.6: G-HA2 under G-FA18 in 3119 fires; the British see the hex and the factors, not the guns."""
    from pbem.core.cases import CaseDice
    from pbem.core.ruleset import Submission
    from pbem.core import yamlio
    from pbem.rulesets.toc.fog import visible
    from pbem.rulesets.toc.state import normalize

    state = normalize(context({}), {
        "phase": "german-combat", "turn": 3,
        "units": {"G-HA2": {"hex": "3119"}, "G-FA18": {"hex": "3119"}, "G-IR12": {"hex": "3121"},
                  "B-WK": {"hex": "3122"}}})
    orders = {"german": Submission("german", [{"bombard": "3122", "with": ["G-HA2"]}]), "british": None}
    events = rules_for(RULESET, state).resolve(state, orders, CaseDice([1]), Decisions()).events
    seen = visible(context(state), events[0], "british")
    assert seen is not None and seen["from"] == ["3119"] and "G-HA2" not in yamlio.dump(seen)


def test_a_melee_that_never_happened_names_no_attacker_to_the_defender() -> None:
    from pbem.rulesets.toc.fog import visible

    event = {"type": "melee-void", "side": "german", "section": "12.1", "target": "3122",
             "with": ["G-IR12", "G-IR8"], "why": "the hex is empty"}
    seen = visible(context({}), event, "british")
    assert seen is not None and seen["with"] == 2 and visible(context({}), event, "german") == event
