"""Whole ToC games between the bots: invariants on every state, the end of every game, the audit.

- one game through real files (`pbem.demo`): every turn file's state passes the invariants, the
  game ends with a winner, and `pbem audit` finds nothing;
- 50 games with different seeds straight through `resolve` (`selfplay`): every state passes the
  invariants and every game reaches a result under 4.2 or 4.3;
- one game through files with `ask` for every decision: the requests go out by mail, the bots
  answer, and the audit replays the answers;
- mail exchanges per game turn, with the default standing answers and with `ask` everywhere.
Set PBEM_SLOW=1 to also play 20 audited games through real files.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pbem.core import ruleset, yamlio
from pbem.core.archive import Archive, turn_rel
from pbem.core.audit import audit
from pbem.demo import DemoGame, setup_demo
from pbem.rulesets.toc import Toc, invariants, selfplay

ruleset.register("toc", "pbem.rulesets.toc:Toc")

ROOT = Path(__file__).resolve().parent.parent
TOC = Toc()
SCENARIO = ROOT / "samples" / "toc" / "scenario.yaml"
ASK = {topic: "ask" for topic in ("defensive_fire", "fire_losses", "own_losses", "bombard_losses", "advance",
                                  "overstack")}


def scenario() -> dict[str, Any]:
    return yamlio.load_file(SCENARIO).data


def finish(game: DemoGame) -> int:
    rounds = 0
    while game.round():
        rounds += 1
        assert rounds < 500, "the game did not end"
    return rounds


def archived_states(root: Path) -> list[dict[str, Any]]:
    archive = Archive(root)
    return [yamlio.load_bytes(archive.read(turn_rel(seq)), turn_rel(seq)).data["state"]
            for seq in range(1, archive.latest_seq() + 1)]


def test_archived_game_ends_and_audits(tmp_path: Path) -> None:
    game = setup_demo("toc", SCENARIO, tmp_path, say=lambda _: None)
    finish(game)
    states = archived_states(game.root)
    broken = [f"seq {i + 1}: {p}" for i, state in enumerate(states)
              for p in invariants.problems(ruleset.rules_for(TOC, state).context, state)]
    assert broken == []
    assert states[-1]["result"]["winner"] in ("german", "british")
    assert audit(game.root) == []


@pytest.mark.parametrize("number", range(50))
def test_bot_games_end(number: int) -> None:
    last = None
    for state in selfplay.games_states(scenario(), number.to_bytes(4, "big")):
        ctx = ruleset.rules_for(TOC, state).context
        assert invariants.problems(ctx, state) == [], (state["turn"], state["phase"])
        last = state
    assert last is not None and last["result"]["winner"] in ("german", "british")
    assert last["result"]["section"] in ("4.2", "4.3")


def test_every_phase_resolves_in_turn() -> None:
    """5.1: german-movement, german-combat, british-first, british-second, then the next turn; a movement
    phase carrying the next phase's orders (`next_phase`, as the bots do) skips none of them."""
    from pbem.rulesets.toc.sequence import PHASES

    for number in range(5):
        before: tuple[int, int] | None = None
        for state in selfplay.games_states(scenario(), b"phases" + bytes([number])):
            now = (state["turn"], PHASES.index(state["phase"]))
            if before is not None and not state["result"]:
                turn, index = before
                assert now == ((turn, index + 1) if index < len(PHASES) - 1 else (turn + 1, 0)), (before, now)
            before = now


@pytest.mark.skipif(not os.environ.get("PBEM_SLOW"), reason="set PBEM_SLOW=1 for 20 audited games through files")
@pytest.mark.parametrize("number", range(20))
def test_many_archived_games(tmp_path: Path, number: int) -> None:
    game = setup_demo("toc", SCENARIO, tmp_path / f"g{number}", say=lambda _: None)
    finish(game)
    assert audit(game.root) == []


def test_decisions_by_mail_replay_in_the_audit(tmp_path: Path) -> None:
    plain = setup_demo("toc", SCENARIO, tmp_path, say=lambda _: None, seed=b"toc asking game")
    asked: list[str] = []
    # Players keep `ask` for every decision, so decisions go out by mail.
    game = DemoGame(plain.root, plain.referee, plain.players, asked.append,
                    standing={side: dict(ASK) for side in plain.players})
    finish(game)
    requests = [line for line in asked if "asked to decide" in line]
    assert len(requests) > 3
    assert audit(game.root) == []
    assert archived_states(game.root)[-1]["result"] is not None


def exchanges(standing: dict[str, dict[str, str]] | None, games: int = 3) -> tuple[int, int, int]:
    """(game turns, order exchanges, decision requests) over a few bot games."""
    turns = rounds = requests = 0
    for number in range(games):
        stats = selfplay.Stats()
        for _ in selfplay.games_states(scenario(), b"mail" + bytes([number]), standing=standing, stats=stats):
            pass
        turns += 14
        rounds += sum(stats.exchanges.values())
        requests += sum(stats.decisions.values())
    return turns, rounds, requests


def test_mail_exchanges_per_game_turn() -> None:
    turns, rounds, requests = exchanges(None)
    assert requests == 0, "the default standing answers never need a decision request"
    assert rounds <= 4 * turns
    turns_ask, rounds_ask, requests_ask = exchanges({"german": ASK, "british": ASK})
    assert requests_ask > 0
    print(f"default answers: {rounds / turns:.2f} order exchanges and {requests / turns:.2f} decision requests "
          f"per game turn; ask everywhere: {rounds_ask / turns_ask:.2f} and {requests_ask / turns_ask:.2f}")


def test_sample_map_is_the_packaged_map() -> None:
    packaged = ROOT / "pbem" / "rulesets" / "toc" / "data" / "map.yaml"
    assert (ROOT / "samples" / "toc" / "map.yaml").read_bytes() == packaged.read_bytes()
