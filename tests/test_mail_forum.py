"""Forum play: the public post of a turn never says what any side's view hides; threads are ingested."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, Callable

import pytest

import pbem.render
from pbem.core import signing, yamlio
from pbem.core.archive import Archive
from pbem.core.game import load_game
from pbem.core.position import load_turn
from pbem.mail.forum import PublicTurn, picture, public_events, public_state, public_turn, render, write_post
from pbem.mail.markup import BBCode, Markdown
from pbem.mail.post import position_lines, runs, words
from pbem.mail.report import event_sentences
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
    assert "![The public map of demo-duel after adjudication 2](demo-duel-0002-public-map.svg)" in text
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


# --- posts of the shipped games: sentences, a short position, the map, markups a forum shows ----------

_GAMES: dict[str, Path] = {}


def shipped_game(ruleset_id: str, rounds: int, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bot game of a shipped ruleset, `rounds` adjudications in (played once per session)."""
    from pbem.demo import default_scenario, setup_demo

    key = f"{ruleset_id}-{rounds}"
    if key not in _GAMES:
        work = tmp_path_factory.mktemp(key)
        game = setup_demo(ruleset_id, default_scenario(ruleset_id), work, say=lambda _: None, seed=b"post")
        for _ in range(rounds):
            assert game.round()
        _GAMES[key] = game.root
    return _GAMES[key]


@pytest.fixture()
def fbsm_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shipped_game("fbsm", 3, tmp_path_factory)


@pytest.fixture()
def toc_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shipped_game("toc", 12, tmp_path_factory)


def test_a_post_says_each_event_as_the_report_does(fbsm_game: Path) -> None:
    turn = public_turn(fbsm_game, 2)
    assert [e["type"] for e in turn.events].count("bombardment") >= 1
    said = event_sentences(turn.spectator_doc())
    for fmt in ("markdown", "bbcode"):
        text = render(turn, fmt)
        for sentence in said:
            assert sentence.replace("_", "\\_") in text or sentence in text
        assert "(11.4)" in text
        for dump in ("results - ", "markers - ", "roll: ", "eliminated: ", "lost no", "```yaml"):
            assert dump not in text, dump
    assert all(re.search(r"\(\d+\.\d+\)\.$", sentence) for sentence in said), said  # each cites its section
    bombardment = next(s for s in said if s.startswith("German bombardment"))
    assert "odds" in bombardment and ("was eliminated" in bombardment or "Nobody was hit" in bombardment)


def test_the_public_position_is_short_and_has_no_internal_flags(toc_game: Path) -> None:
    for seq in range(0, 13):
        turn = public_turn(toc_game, seq)
        text = render(turn, "markdown")
        assert len(text.splitlines()) <= 40, (seq, text)
        lines = position_lines(turn.state, turn.ruleset)
        assert lines[0].startswith(f"Turn {turn.state['turn']}, phase ")
        assert not any(line.startswith(("toc:", "result:", "marched:", "sequence:")) for line in lines), lines
        control = [line for line in lines if line.startswith("control: ")]
        if turn.state.get("control"):
            # one line, consecutive hexes as runs, every hex still there
            [line] = control
            listed = line[len("control: "):].split(", ")
            assert len(listed) < len(turn.state["control"])
            expanded = [h for item in listed for h in (
                [f"{n:04d}" for n in range(int(item[:4]), int(item[5:]) + 1)] if "-" in item else [item])]
            assert expanded == list(turn.state["control"])


def test_runs_and_words() -> None:
    assert runs(["1802", "1803", "1804", "1806", "1807", "0099", "0100", "0101", "x"]) == \
        ["1802-1804", "1806", "1807", "0099-0101", "x"]
    assert runs(["9", "10", "11"]) == ["9", "10", "11"]  # not the same width: not one run
    assert words({"gas": False, "us_problems": True, "event": "x", "roll": 2, "no_drift": None}) == \
        "us problems, event x, roll 2"
    assert words({"german": None, "us": []}) is None
    assert words([{"a": 1, "b": 2}, {"a": 3}]) == "(a 1, b 2); a 3"
    assert position_lines({"turn": 3, "phase": "p", "fbsm": 1, "result": None, "once": {"x": True, "y": False}},
                          "fbsm") == ["Turn 3, phase p.", "once: x"]


def test_the_map_is_written_beside_the_post_and_shown_by_it(fbsm_game: Path, tmp_path: Path) -> None:
    for fmt, shown in (("markdown", "![The public map of demo-fbsm after adjudication 2](demo-fbsm-0002-public-map.svg)"),
                       ("bbcode", "[img]demo-fbsm-0002-public-map.svg[/img]")):
        out = tmp_path / fmt / "post.txt"
        out.parent.mkdir()
        text, written = write_post(fbsm_game, fmt, out, seq=2)
        svg = out.parent / "demo-fbsm-0002-public-map.svg"
        assert written == [out, svg]
        assert shown in text and out.read_text() == text
        assert "<svg" in svg.read_text()[:500]
    # without --out nothing is written and no picture is named
    text, written = write_post(fbsm_game, "markdown", None, seq=2)
    assert written == [] and ".svg" not in text


def test_the_public_map_shows_no_unit_a_side_keeps_hidden(toc_game: Path) -> None:
    from pbem.core.api import load_game, turn_record

    game = load_game(toc_game)
    for seq in (4, 8, 12):
        turn = public_turn(toc_game, seq)
        part = picture(turn)
        assert part is not None
        svg = part.data.decode()
        public = yamlio.dump(turn.spectator_doc())
        master, _ = turn_record(game, seq)
        for uid in master["state"]["units"]:
            if re.search(rf"\b{re.escape(uid)}\b", svg):
                assert uid in public, (seq, uid)


def test_a_failing_picture_is_an_error_not_a_post_without_a_map(fbsm_game: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(view: dict[str, object]) -> str:
        raise TypeError("the picture adapter broke")

    monkeypatch.setattr(pbem.render, "map_svg", broken)
    with pytest.raises(TypeError, match="adapter broke"):
        write_post(fbsm_game, "markdown", tmp_path / "post.md", seq=2)
    assert not (tmp_path / "post.md").exists()


PHPBB_DEFAULT_TAGS = {"b", "i", "u", "code", "list", "*", "url", "img", "quote"}


def test_bbcode_uses_only_the_tags_phpbb_shows_by_default(toc_game: Path, tmp_path: Path) -> None:
    text, _ = write_post(toc_game, "bbcode", tmp_path / "post.txt", seq=12)
    tags = set(re.findall(r"\[/?([a-z*]+)(?:=[^\]]*)?\]", text))
    assert tags and tags <= PHPBB_DEFAULT_TAGS, tags
    assert text.count("[code]") == text.count("[/code]") >= 1
    assert "**" not in text and "`" not in text


def test_markdown_renders_as_written(toc_game: Path) -> None:
    text = render(public_turn(toc_game, 12), "markdown")
    assert text.startswith("## demo-toc: adjudication 12")
    assert text.count("```") % 2 == 0 and "[b]" not in text
    master = public_turn(toc_game, 12).master_hash
    assert master and f"master turn file {master}" in text
    md = Markdown()
    assert md.text("heavy_mg *2* <b> [x] a|b") == "heavy\\_mg \\*2\\* \\<b\\> \\[x\\] a\\|b"
    assert md.text("# not a heading") == "\\# not a heading" and md.text("- no item") == "\\- no item"
    assert BBCode().block(["a", "b"]) == ["[code]a\nb[/code]"]


def test_a_turn_is_a_public_turn(fbsm_game: Path) -> None:
    turn = public_turn(fbsm_game)
    assert isinstance(turn, PublicTurn)
    doc = turn.spectator_doc()
    assert doc["ruleset"] == {"id": "fbsm", "version": turn.version} and doc["side"] == "spectators"
