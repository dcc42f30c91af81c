"""Whole wtj1916 games between the bots, the event catalogue, the documented assumed values.

- 10 bot games straight through `resolve` (`selfplay`): every state keeps the invariants, every
  game ends under F3, the same seed plays the same game;
- every event of a bot game and of the recorded sample matches the catalogue;
- one game through real files (`pbem.demo`) passes `pbem audit`; PBEM_SLOW=1 plays 20;
- every assumed table value is named in docs/wtj1916.md;
- two mail exchanges per game turn, each a hand-over the phase sequence forces.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pbem.core import ruleset, yamlio
from pbem.core.audit import audit
from pbem.core.chance import canonical_json
from pbem.demo import setup_demo
from pbem.rulesets.wtj1916 import Wtj1916
from pbem.rulesets.wtj1916.context import TABLES, Context
from pbem.rulesets.wtj1916.events import EVENTS
from pbem.selfplay import Stats, play_states
from pbem.testing import bot_game_events

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "wtj1916" / "scenario.yaml"
GAME = Wtj1916()


def scenario() -> dict[str, Any]:
    return dict(yamlio.load_file(SAMPLE).data)


def invariant_problems(ctx: Context, state: dict[str, Any]) -> list[str]:
    found: list[str] = []
    for bid, base in state["bases"].items():
        unit = state["units"][base["unit"]]
        if unit["status"] != "active":
            found.append(f"{bid} stands for a unit that is {unit['status']}")
        if not ctx.table.on_table((base["at"][0], base["at"][1])):
            found.append(f"{bid} is off the table at {base['at']}")
    for uid, unit in state["units"].items():
        kind = ctx.type_of(unit)
        left = [b for b in state["bases"].values() if b["unit"] == uid]
        if (unit["status"] == "active") != bool(left):
            found.append(f"{uid} is {unit['status']} with {len(left)} bases")
        if kind.infantry and sum(1 for b in left if b["damaged"]) > 1:
            found.append(f"{uid} has two damaged bases (3.3)")
    lost = len(state["lost"])
    if sum(state["score"].values()) != lost:
        found.append(f"score {state['score']} for {lost} bases lost")
    return found


@pytest.mark.parametrize("number", range(10))
def test_bot_games_keep_the_invariants_and_end(number: int) -> None:
    states = list(play_states(GAME, scenario(), f"wtj1916 game {number}".encode()))
    rules = ruleset.rules_for(GAME, states[-1])
    broken = [f"state {i}: {p}" for i, s in enumerate(states) for p in invariant_problems(rules.context, s)]
    assert broken == []
    result = rules.result(states[-1])
    assert result and result["section"] == "F3"


def test_the_same_seed_plays_the_same_game() -> None:
    def last() -> bytes:
        return canonical_json(list(play_states(GAME, scenario(), b"twice"))[-1])
    assert last() == last()


def test_every_event_matches_the_catalogue() -> None:
    kinds: set[str] = set()
    wrong: list[str] = []
    for rules, event in bot_game_events(GAME, scenario(), b"catalogue", max_phases=60):
        kinds.add(event["type"])
        wrong += EVENTS.problems(event)
        for side in ("british", "german"):
            shown = rules.visible(event, side)
            assert shown is None or ("seen_by" not in shown and "unseen_by" not in shown)
    assert wrong == []
    assert {"move", "fire", "artillery"} <= kinds


def test_the_recorded_sample_matches_the_catalogue() -> None:
    """The published turns are the sides' views: a side's own events are whole, the others' as fog shows them."""
    wrong = []
    seen = 0
    for path in sorted((ROOT / "samples" / "wtj1916" / "game" / "turns").rglob("*.yaml")):
        side = path.stem
        for event in yamlio.load_file(path).data.get("events") or []:
            assert EVENTS.get(event["type"]) is not None and event["section"] in EVENTS[event["type"]].sections
            if event.get("side") == side:
                seen += 1
                wrong += [f"{path.parent.name}/{path.name}: {p}" for p in EVENTS.problems(event)]
    assert wrong == [] and seen > 0


def test_a_game_through_files_passes_the_audit(tmp_path: Path) -> None:
    game = setup_demo("wtj1916", SAMPLE, tmp_path, say=lambda _: None, seed=b"wtj1916 audit")
    rounds = 0
    while game.round():
        rounds += 1
        assert rounds < 200
    assert audit(game.root) == []


@pytest.mark.skipif(not os.environ.get("PBEM_SLOW"), reason="slow: set PBEM_SLOW=1 for 20 audited games")
@pytest.mark.parametrize("number", range(20))
def test_twenty_audited_games(number: int, tmp_path: Path) -> None:
    game = setup_demo("wtj1916", SAMPLE, tmp_path, say=lambda _: None, seed=f"wtj1916 slow {number}".encode())
    while game.round():
        pass
    assert audit(game.root) == []


def test_every_assumed_value_is_named_in_the_docs() -> None:
    page = (ROOT / "docs" / "wtj1916.md").read_text(encoding="utf-8")
    missing = []
    for path, _, _ in TABLES.assumed():
        name = path.split(".")[1] if path.startswith("unit_types.") else path
        if name not in page:
            missing.append(path)
    assert missing == []


def test_two_exchanges_per_game_turn_each_a_hand_over() -> None:
    stats = Stats()
    states = list(play_states(GAME, scenario(), b"exchanges", stats=stats))
    turns = states[-1]["turn"] - 1
    assert sum(stats.exchanges.values()) == 2 * turns
