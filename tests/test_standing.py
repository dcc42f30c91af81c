"""Standing answers: set by any orders file, even from a side with no orders this phase (DESIGN.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core import ruleset as registry, signing, yamlio
from pbem.core.adjudicator import adjudicate
from pbem.core.audit import audit
from pbem.core.intake import submit
from pbem.core.players import orders_document, read_view
from pbem.demo import DemoGame, setup_demo
from tests.conftest import DUEL_SCENARIO
from tests.rulesets.duel import Duel


class RedFires(Duel):
    """Duel in which only red fires: blue has nothing to order in the fire phase."""

    id = "duel-red-fires"

    def awaiting(self, context: Any, state: dict[str, Any]) -> list[str]:
        return {"deploy": ["red", "blue"], "fire": ["red"]}.get(state["phase"], [])


registry.register(RedFires.id, "tests.test_standing:RedFires")


def send(game: DemoGame, side: str, orders: list[Any], standing: dict[str, Any] | None = None) -> list[str]:
    view = read_view(game.latest_view(side))
    data = yamlio.dump(orders_document(view, orders, standing)).encode()
    path = game.root.parent / f"{side}-{view.doc['seq']}.yaml"
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_text(signing.sign(data, game.players[side],
                                                               signing.namespace("orders", view.doc["game"])))
    result = submit(game.root, path)
    return [str(error) for error in result.errors]


def test_side_without_orders_sets_a_standing_answer(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(DUEL_SCENARIO.read_text().replace("ruleset: duel", f"ruleset: {RedFires.id}")
                        .replace("turns: 6", "turns: 40"))  # 30 misses in a row: odds 2**-30
    game = setup_demo(RedFires.id, scenario, tmp_path / "w", say=lambda _: None)
    assert send(game, "red", [{"place": "hq", "cell": 1}]) == []
    assert send(game, "blue", [{"place": "hq", "cell": 3}]) == []
    assert adjudicate(game.root, game.referee).committed

    # Blue may not fire now, but may change how it answers a hit.
    refused = send(game, "blue", [{"fire": 1}])
    assert refused and "blue has no orders to give in phase 'fire'" in refused[0]
    assert send(game, "blue", [], {"when_hit": "stand"}) == []

    # Red fires at blue's HQ until a hit lands; blue's standing answer answers for it, no request.
    for _ in range(30):
        assert send(game, "red", [{"fire": 3}]) == []
        report = adjudicate(game.root, game.referee)
        assert report.committed, report.message
        turn = yamlio.load_bytes((game.root / report.files[0]).read_bytes(), "t").data
        if any(event["type"] == "loss" for event in turn["events"]):
            break
    else:
        raise AssertionError("red never hit in 30 turns")
    assert not list(game.root.glob("decisions/*/request-*.yaml"))
    assert turn["state"]["standing"]["blue"] == {"when_hit": "stand"}
    assert audit(game.root) == []


def test_demo_bots_send_standing_answers(tmp_path: Path) -> None:
    """With `when_hit: stand` on both sides, hits happen and no decision request is ever sent.

    Two HQs deployed to one cell can never hit each other (F2), so games are played until one
    has hits: five such games in a row have odds of 1 in 3125, and the seeds make the run repeatable.
    """
    scenario = tmp_path / "long.yaml"  # 40 turns, so a game with the HQs apart sees hits
    scenario.write_text(DUEL_SCENARIO.read_text().replace("turns: 6", "turns: 40"))
    losses = 0
    for attempt in range(5):
        quiet = setup_demo("duel", scenario, tmp_path / f"quiet{attempt}", say=lambda _: None,
                           seed=f"quiet {attempt}".encode())
        quiet.standing = {"red": {"when_hit": "stand"}, "blue": {"when_hit": "stand"}}
        while quiet.round():
            pass
        assert not list(quiet.root.glob("decisions/*/request-*.yaml"))
        assert audit(quiet.root) == []
        losses = sum(1 for t in quiet.root.glob("turns/*/turn.yaml")
                     for e in yamlio.load_bytes(t.read_bytes(), "t").data["events"] if e["type"] == "loss")
        if losses:
            break
    assert losses, "no hit in five whole games: the test proves nothing"
