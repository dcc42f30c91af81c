"""Forum play: the public post of a turn never says what any side's view hides; threads are ingested."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable

import pytest

import pbem.render
from pbem.core import signing
from pbem.core.archive import Archive
from pbem.core.game import load_game
from pbem.core.position import load_turn
from pbem.mail.forum import public_events, public_state, public_turn, render, write_post
from tests.conftest import play_duel
from pbem.core.ruleset import bind
from tests.rulesets.duel import Duel
from tests.test_cli_lifecycle import run
from tests.test_mail_kit import make_world, signed_orders

SIDES = ["red", "blue"]


def duel_state() -> dict[str, Any]:
    return {"phase": "fire", "turn": 2, "last_turn": 6, "cells": 5,
            "hq": {"red": {"cell": 2, "strength": 2}, "blue": {"cell": 4, "strength": 1}},
            "intel": {"red": None, "blue": {"cell": 2, "turn": 1}}, "standing": {"red": {}, "blue": {}}}


def test_public_state_holds_only_what_every_view_states_alike() -> None:
    ruleset = Duel()
    state = duel_state()
    shown = public_state(bind(ruleset, {}), state, SIDES)
    assert shown == {"phase": "fire", "turn": 2, "last_turn": 6, "cells": 5}
    # Leak check: change anything hidden from either side; the public part does not move a byte.
    mutations: list[Callable[[dict[str, Any]], None]] = [
        lambda s: s["hq"]["red"].update(cell=5), lambda s: s["hq"]["blue"].update(cell=1),
        lambda s: s["intel"].update(red={"cell": 4, "turn": 2}), lambda s: s["standing"]["red"].update(x=1)]
    for mutate in mutations:
        changed: dict[str, Any] = copy.deepcopy(state)
        mutate(changed)
        assert public_state(bind(ruleset, {}), changed, SIDES) == shown


def test_a_key_that_means_something_else_in_each_view_is_never_posted() -> None:
    """Both HQs on cell 3 with strength 2: every view says `own: {cell: 3, strength: 2}`, yet it is no public fact."""
    state = duel_state()
    state["hq"] = {"red": {"cell": 3, "strength": 2}, "blue": {"cell": 3, "strength": 2}}
    state["intel"] = {"red": None, "blue": None}
    views = [bind(Duel(), {}).view(state, side) for side in SIDES]
    assert views[0]["own"] == views[1]["own"] and views[0]["intel"] == views[1]["intel"]
    shown = public_state(bind(Duel(), {}), state, SIDES)
    assert "own" not in shown and "intel" not in shown


def test_public_events() -> None:
    events = [
        {"type": "deployed", "side": "red", "cell": 2, "section": "D1"},
        {"type": "scouted", "side": "blue", "roll": 6, "found": 2, "section": "S1"},
        {"type": "fire", "side": "red", "cell": 4, "roll": 5, "hit": True, "section": "F1"},
        {"type": "shifted", "side": "blue", "section": "F3", "to": 5},
        {"type": "loss", "side": "blue", "strength": 0, "section": "F3"},
    ]
    assert [e["type"] for e in public_events(bind(Duel(), {}), events, SIDES)] == ["fire", "loss"]


def hidden_facts(root: Path, seq: int) -> list[str]:
    """Strings that name a hidden fact of turn `seq`: each HQ's cell as the master has it."""
    game = load_game(root)
    turn, _ = load_turn(Archive(root), game, seq)
    return [f"cell: {turn['state']['hq'][side]['cell']}" for side in SIDES]


def test_posts_of_a_whole_game(tmp_path: Path) -> None:
    game = play_duel(tmp_path)
    root = game.root
    latest = Archive(root).latest_seq()
    for seq in range(0, latest + 1):
        turn = public_turn(root, seq)
        for fmt in ("markdown", "bbcode"):
            text = render(turn, fmt)
            assert f"{turn.game}" in text
            assert "hq" not in text and "own:" not in text and "intel" not in text and "standing" not in text
            if fmt == "bbcode":
                assert "[b]" in text and "**" not in text
            else:
                assert "**" in text and "[b]" not in text
        if seq:
            assert turn.master_hash and turn.master_hash in render(turn, "markdown")
            for event in turn.events:
                assert event["type"] in ("fire", "loss")
    last = render(public_turn(root), "markdown")
    assert "Game over" in last


def test_post_names_the_map_picture_when_a_renderer_is_installed(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    game = play_duel(tmp_path, exchanges=2)
    seen: list[dict[str, object]] = []

    def map_svg(view: dict[str, object]) -> str:
        seen.append(view)
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"

    monkeypatch.setattr(pbem.render, "has_map", lambda view: True)  # the duel fixture itself has no pictures
    monkeypatch.setattr(pbem.render, "map_svg", map_svg)
    out = tmp_path / "post.md"
    text, written = write_post(game.root, "markdown", out)
    picture = tmp_path / "demo-duel-0002-public-map.svg"
    assert written == [out, picture] and picture.read_text().startswith("<svg")
    assert "![map of demo-duel, 2](demo-duel-0002-public-map.svg)" in text
    assert seen[0]["side"] == "spectators" and "hq" not in seen[0]["state"]  # type: ignore[operator]


def test_orders_posted_in_a_thread_are_ingested_by_submit(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    red, red_sig = signed_orders(world, "red", [{"place": "hq", "cell": 1}])
    blue, blue_sig = signed_orders(world, "blue", [{"place": "hq", "cell": 5}])
    red_block = signing.armor(red, red_sig, name="red-orders.yaml")
    blue_block = signing.armor(blue, blue_sig, name="blue-orders.yaml")
    quoted = "".join(f"> {line}\n" if line else ">\n" for line in red_block.splitlines())
    thread = (f"Post #1 by red_general:\nMy orders for turn 1.\n\n{red_block}\n"
              f"Post #2 by blue_marshal:\n{quoted}\nNice try. Here are mine:\n\n{blue_block}\n"
              "Post #3 by lurker:\nGood luck both!\n")
    path = tmp_path / "thread.txt"
    path.write_text(thread, encoding="utf-8")
    result = run("submit", world.root, path)
    assert result.rc == 0, result.text
    assert "accepted orders of red" in result.out and "accepted orders of blue" in result.out
    # The quoted copy of red's block in post 2 is the same file: one of the three is refused as a duplicate
    # or accepted as a resubmission; either way both sides are in.
    assert {side for side, _, _ in Archive(world.root).orders_files(1)} == {"red", "blue"}
