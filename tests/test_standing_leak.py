"""A standing answer is private: one side's standing answers never change a byte the other side sees.

Both sides see the `next` block of every view (the phase awaited and who owes orders for it), so
the sequence of phases, and who is awaited, may not depend on a standing answer. Until fbsm
version 3 the German `placement: auto` skipped the `german-placement` exchange, and the US view
announced `german-first-bombardment` instead: the US learnt the German's standing answer
(docs/fbsm.md, reading 26).

For fbsm and toc, states from bot games get every other value of the other side's standing
answers (and nothing else changed); the side's view must stay byte-identical. For fbsm whole
adjudications are also run from the US Second Bombardment Phase (random events, reinforcement
draws and placement follow) with different German standing answers: same phases, same US view.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import jsonschema
import pytest

from pbem.core import chance, yamlio
from pbem.core.game import next_block
from pbem.core.ruleset import STANDING_KEY, Decisions, Ruleset, State, Submission, rules_for
from pbem.rulesets.fbsm import Fbsm
from pbem.rulesets.fbsm import selfplay as fbsm_selfplay
from pbem.rulesets.toc import Toc
from pbem.rulesets.toc import selfplay as toc_selfplay
from pbem.testing import assert_no_leak, view_bytes

ROOT = Path(__file__).resolve().parent.parent
FBSM = Fbsm()
FBSM_SIDES = ["us", "german"]
FBSM_SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
TOC = Toc()
TOC_SIDES = ["german", "british"]


def other(sides: Sequence[str], side: str) -> str:
    return next(s for s in sides if s != side)


def variants(ruleset: Ruleset, extra: Sequence[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
    """Standing answers to try: none, each topic at each of its values, all topics at once, and `extra`."""
    found: list[dict[str, Any]] = [{}]
    topics = ruleset.standing_schema().get("properties", {})
    for topic, schema in topics.items():
        for value in schema.get("enum", []):
            found.append({topic: value})
    for index in range(3):
        found.append({topic: schema["enum"][index % len(schema["enum"])] for topic, schema in topics.items()})
    found += [dict(e) for e in extra]
    return found


def assert_standing_private(ruleset: Ruleset, state: State, viewer: str, sides: Sequence[str],
                            answers: Mapping[str, Any]) -> bool:
    """`viewer`'s view of `state` is the same whatever the other side's standing answers are `answers`.

    Returns False (nothing checked) when the state already holds exactly these answers."""
    enemy = other(sides, viewer)
    if state.get(STANDING_KEY, {}).get(enemy) == dict(answers):
        return False

    def mutate(s: State, _: list[dict[str, Any]]) -> None:
        s.setdefault(STANDING_KEY, {})[enemy] = dict(answers)

    changed = copy.deepcopy(state)
    mutate(changed, [])
    # the mutation touches the other side's standing answers and nothing else
    strip = [{k: v for k, v in s.items() if k != STANDING_KEY} for s in (state, changed)]
    assert strip[0] == strip[1]
    assert state.get(STANDING_KEY, {}).get(viewer) == changed[STANDING_KEY].get(viewer)
    assert next_block(rules_for(ruleset, state), state) == next_block(rules_for(ruleset, changed), changed)
    assert_no_leak(ruleset, state, viewer, sides, mutate)
    return True


# --- fbsm ------------------------------------------------------------------------------------------


def fbsm_states(games: int = 2) -> Iterator[State]:
    for number in range(games):
        yield from fbsm_selfplay.games_states(FBSM_SCENARIO, b"standing" + bytes([number]))


FBSM_STATES = list(fbsm_states())


def fbsm_situations() -> list[State]:
    """Every german-placement state, and a few of every other phase."""
    picked: list[State] = []
    seen: dict[str, int] = {}
    for state in FBSM_STATES:
        phase = state["phase"]
        seen[phase] = seen.get(phase, 0) + 1
        if phase == "german-placement" or seen[phase] <= 2:
            picked.append(state)
    return picked


FBSM_SITUATIONS = fbsm_situations()
OLD_GERMAN = [{"placement": "auto"}, {"placement": "auto", "advance": "all"}]  # ruleset version <= 2


def test_bot_games_reach_every_phase_and_placements() -> None:
    phases = {state["phase"] for state in FBSM_SITUATIONS}
    assert set(FBSM.phase_names()) <= phases
    placements = [s for s in FBSM_SITUATIONS if s["phase"] == "german-placement"]
    assert len(placements) >= 4
    assert {s["pending"]["kind"] for s in placements} >= {"reinforcement"}


@pytest.mark.parametrize("viewer", FBSM_SIDES)
def test_fbsm_views_ignore_the_other_sides_standing_answers(viewer: str) -> None:
    extra = OLD_GERMAN if viewer == "us" else []
    checked = 0
    for state in FBSM_SITUATIONS:
        for answers in variants(FBSM, extra):
            checked += assert_standing_private(FBSM, state, viewer, FBSM_SIDES, answers)
    assert checked > 100


def test_german_placement_always_awaits_the_german() -> None:
    """8.3, 7.5, 7.7: the German places what he drew; no standing answer skips the exchange."""
    state = {"phase": "german-placement", "units": {"G01": {"status": "drawn"}, "US01": {"hex": "2236"}},
             "pending": {"kind": "reinforcement", "units": ["G01"]}}
    for answers in variants(FBSM, OLD_GERMAN):
        state["standing"] = {"german": answers}
        assert rules_for(FBSM, state).awaiting(state) == ["german"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"placement": "auto"}, FBSM.standing_schema())
    jsonschema.validate({"placement": "orders"}, FBSM.standing_schema())


def adjudicate(ruleset: Ruleset, state: State, sides: Sequence[str], submissions: Mapping[str, Submission | None],
               seed: bytes) -> tuple[State, list[str], list[dict[str, Any]], list[dict[str, Any]]]:
    """Phases from `state` until one awaits orders or the game ends, as the core's adjudication runs them."""
    dice = chance.Dice(seed)
    phases: list[str] = []
    events: list[dict[str, Any]] = []
    current = dict(submissions)
    while rules_for(ruleset, state).result(state) is None:
        if phases and rules_for(ruleset, state).awaiting(state):
            break
        phase = rules_for(ruleset, state).phase(state)
        resolution = rules_for(ruleset, state).resolve(copy.deepcopy(state), current, dice, Decisions({}))
        phases.append(phase)
        events += resolution.events
        state = resolution.state
        current = {side: None for side in sides}
    return state, phases, events, [roll.record() for roll in dice.rolls]


def test_fbsm_adjudications_show_the_us_the_same_whatever_the_german_standing() -> None:
    """From the US Second Bombardment Phase: random events, draws, placement; the US sees the same."""
    german = [{}, {"placement": "orders"}, {"advance": "all"}, *OLD_GERMAN]
    starts = [s for s in FBSM_STATES if s["phase"] == "us-second-bombardment" and s["turn"] >= 1][:8]
    assert len(starts) >= 4
    drew = 0
    for number, start in enumerate(starts):
        rules = rules_for(FBSM, start)
        view = rules.view(start, "us")
        orders = rules.bot_orders(view, "us", chance.sha256(b"us orders" + bytes([number])))
        assert rules.validate(view, "us", orders) == []
        seed = chance.sha256(b"adjudication" + bytes([number]))
        seen = set()
        for answers in german:
            state = copy.deepcopy(start)
            state[STANDING_KEY] = {"german": dict(answers)}
            after, phases, events, rolls = adjudicate(FBSM, state, FBSM_SIDES,
                                                      {"us": Submission("us", orders), "german": None}, seed)
            shown = (tuple(phases), yamlio.dump(next_block(rules_for(FBSM, after), after)),
                     view_bytes(FBSM, after, "us", FBSM_SIDES, events, rolls))
            seen.add(shown)
            if after["phase"] == "german-placement":
                assert rules_for(FBSM, after).awaiting(after) == ["german"]
                drew += answers == {}
        assert len(seen) == 1, f"the US saw the German standing answers from {start['turn']=}"
    assert drew >= 2  # the draws and placement really were on the way


# --- toc -------------------------------------------------------------------------------------------


def toc_situations(games: int = 2, every: int = 3) -> list[State]:
    picked: list[State] = []
    for number in range(games):
        for index, state in enumerate(toc_selfplay.games_states({"setup": {}}, b"standing" + bytes([number]))):
            if index % every == 1:
                picked.append(state)
    return picked


TOC_SITUATIONS = toc_situations()


@pytest.mark.parametrize("viewer", TOC_SIDES)
def test_toc_views_ignore_the_other_sides_standing_answers(viewer: str) -> None:
    assert {state["phase"] for state in TOC_SITUATIONS} >= {"german-movement", "german-combat", "british-first",
                                                            "british-second"}
    checked = 0
    for state in TOC_SITUATIONS:
        for answers in variants(TOC):
            checked += assert_standing_private(TOC, state, viewer, TOC_SIDES, answers)
    assert checked > 100
