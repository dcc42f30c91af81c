"""The desk's answers without a browser (pbem/desk/session.py): picks and notes from the game's own code,
the check `pbem check` makes, and the saved file equal to the bot's for the same orders.

`DeskGame` (used by tests/test_desk_browser.py too) plays a real game with the bots up to a phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from pbem.core.api import (SigningKey, adjudicate, bot_orders_file, current_position, load_game, new_game, read_view,
                           signing, submit, view_rel, yamlio)
from pbem.desk.session import DecisionDesk, OrdersDesk

ROOT = Path(__file__).resolve().parent.parent


SIDES = {"fbsm": ["us", "german"], "toc": ["german", "british"], "bob": ["american", "german"],
         "wtj1916": ["british", "german"], "bst": ["allies", "axis"]}


@dataclass
class DeskGame:
    """A game played by the bots until `side` owes the orders of `phase`."""

    root: Path
    game_dir: Path
    keys: dict[str, Path]

    def key(self, side: str) -> SigningKey:
        return signing.load_signing_key(self.keys[side])

    def view_path(self, side: str) -> Path:
        seq = current_position(load_game(self.game_dir)).seq
        return self.game_dir / view_rel(seq, side)

    def bot_file(self, side: str, out: Path) -> Path:
        return bot_orders_file(self.game_dir, side, self.key(side), out)

    def bot_orders(self, side: str) -> list[Any]:
        path = self.bot_file(side, self.root / f"bot-{side}.yaml")
        orders: list[Any] = yamlio.load_file(path).data["orders"]
        return orders


def play_to(root: Path, ruleset_id: str, phase: str, side: str, *, limit: int = 60,
            wanted: Callable[[list[Any]], bool] | None = None) -> DeskGame:
    """The game played by the bots until `side` owes the orders of `phase` (and, with `wanted`, until the
    orders its bot would give there pass `wanted`: the keys are new each time, so the bots' dice are too)."""
    keys_dir = root / "keys"
    sides = SIDES[ruleset_id]
    keys = {}
    for name in ["referee", *sides]:
        private, _ = signing.write_keypair(name, keys_dir)
        keys[name] = private
    game_dir = root / "game"
    new_game(ROOT / "samples" / ruleset_id / "scenario.yaml", f"desk-{ruleset_id}", signing.load_signing_key(keys["referee"]),
             {s: (keys_dir / f"{s}.pub").read_text(encoding="utf-8").strip() for s in sides}, game_dir,
             chain_length=128, referee_key_path=keys["referee"])
    game = DeskGame(root, game_dir, keys)
    referee = signing.load_signing_key(keys["referee"])
    for _ in range(limit):
        view = read_view(game.view_path(side))
        if view.doc["next"].get("phase") == phase and side in view.doc["next"]["awaiting"] and (
                wanted is None or wanted(game.bot_orders(side))):
            return game
        for awaited in view.doc["next"]["awaiting"]:
            path = game.bot_file(awaited, root / f"{awaited}-orders.yaml")
            assert submit(game_dir, path).errors == []
        adjudicate(game_dir, referee)
    raise AssertionError(f"{ruleset_id}: no {phase} for {side} in {limit} adjudications")


@pytest.fixture(scope="module")
def fbsm_setup(tmp_path_factory: pytest.TempPathFactory) -> DeskGame:
    return play_to(tmp_path_factory.mktemp("fbsm-setup"), "fbsm", "us-setup", "us")


@pytest.fixture(scope="module")
def toc_movement(tmp_path_factory: pytest.TempPathFactory) -> DeskGame:
    return play_to(tmp_path_factory.mktemp("toc-move"), "toc", "german-movement", "german")


def test_the_setup_hexes_offered_are_those_the_rules_accept(fbsm_setup: DeskGame, tmp_path: Path) -> None:
    desk = OrdersDesk(fbsm_setup.view_path("us"), out=tmp_path / "o.yaml")
    units = desk.draft({"kind": "setup", "order": {}, "orders": []})["candidates"]["setup"]
    held = desk.state["units"]
    assert units and all(held[u]["status"] == "container" for u in units)  # the US units still to set up
    first = units[0]
    hexes = desk.draft({"kind": "setup", "order": {"setup": first}, "orders": []})["candidates"]["hex"]
    assert hexes
    taken = desk.draft({"kind": "setup", "order": {"setup": units[1]}, "orders": [{"setup": first, "hex": hexes[0]}]})
    assert hexes[0] not in taken["candidates"]["hex"]  # one US unit per hex (3.2)
    assert desk.check({"orders": [{"setup": first, "hex": hexes[0]}]})["ok"]
    wrong = desk.check({"orders": [{"setup": first, "hex": "0101"}]})
    assert not wrong["ok"] and wrong["problems"][0]["order"] == 0 and wrong["problems"][0]["section"]


def test_saved_orders_equal_the_bots_file_and_problems_stop_the_save(fbsm_setup: DeskGame, tmp_path: Path) -> None:
    out = tmp_path / "us-orders.yaml"
    desk = OrdersDesk(fbsm_setup.view_path("us"), key=fbsm_setup.key("us"), out=out)
    refused = desk.save({"orders": [{"setup": "US01", "hex": "0101"}]})
    assert refused["saved"] is False and refused["problems"] and not out.exists()
    bot = fbsm_setup.bot_orders("us")
    answer = desk.save({"orders": bot})
    assert answer["saved"] and out.read_bytes() == (fbsm_setup.root / "bot-us.yaml").read_bytes()
    assert (tmp_path / "us-orders.yaml.sig").is_file()
    armored = desk.armor()["armor"]
    assert "BEGIN" in armored and "SSH SIGNATURE" in armored


def test_without_a_key_save_shows_the_ssh_keygen_line(fbsm_setup: DeskGame, tmp_path: Path) -> None:
    desk = OrdersDesk(fbsm_setup.view_path("us"), out=tmp_path / "x.yaml")
    answer = desk.save({"orders": []})
    assert answer["sign_command"] == f"ssh-keygen -Y sign -f KEY -n pbem-orders@desk-fbsm {tmp_path / 'x.yaml'}"
    assert desk.armor()["command"].startswith("pbem sign ")


def test_toc_path_steps_and_movement_points_come_from_the_walker(toc_movement: DeskGame, tmp_path: Path) -> None:
    desk = OrdersDesk(toc_movement.view_path("german"), out=tmp_path / "o.yaml")
    bot = toc_movement.bot_orders("german")
    move = next(o for o in bot if "move" in o)
    draft = {"kind": "move", "orders": [], "order": {"move": move["move"]}}
    steps = desk.draft(draft)["candidates"]["path"]
    assert move["path"][0] in steps
    with_march = {"move": move["move"], "path": move["path"][:1], **({"march": True} if move.get("march") else {})}
    notes = desk.draft({**draft, "order": with_march})["notes"]
    assert notes and "movement points left" in notes[0]
    later = bot[-1]["next_phase"]
    assert desk.check({"orders": bot[:-1], "next": later})["ok"]


def test_a_key_not_the_sides_is_refused(fbsm_setup: DeskGame) -> None:
    from pbem.core.api import UsageError

    with pytest.raises(UsageError, match="not us's"):
        OrdersDesk(fbsm_setup.view_path("us"), game=load_game(fbsm_setup.game_dir), key=fbsm_setup.key("german"))


def test_orders_that_are_not_mappings_are_refused(fbsm_setup: DeskGame) -> None:
    from pbem.core.api import UsageError

    desk = OrdersDesk(fbsm_setup.view_path("us"))
    with pytest.raises(UsageError):
        desk.check({"orders": ["rm -rf"]})


__all__ = ["DecisionDesk", "DeskGame", "play_to"]


def test_with_the_game_the_view_is_kept_and_a_rewound_turn_refused(tmp_path: Path) -> None:
    from pbem.core.api import PbemError

    game = play_to(tmp_path, "fbsm", "us-setup", "us")
    first = game.view_path("us")
    loaded = load_game(game.game_dir)
    OrdersDesk(first, game=loaded, ledger=str(tmp_path / "ledger"))
    for side in ("us",):
        assert submit(game.game_dir, game.bot_file(side, tmp_path / f"{side}.yaml")).errors == []
    adjudicate(game.game_dir, game.key("referee"))
    assert game.view_path("us") != first
    OrdersDesk(game.view_path("us"), game=loaded, ledger=str(tmp_path / "ledger"))
    with pytest.raises(PbemError, match="rewound"):
        OrdersDesk(first, game=loaded, ledger=str(tmp_path / "ledger"))


def test_standing_answers_from_the_games_schema_go_into_the_file(toc_movement: DeskGame, tmp_path: Path) -> None:
    out = tmp_path / "o.yaml"
    desk = OrdersDesk(toc_movement.view_path("german"), out=out)
    choices = {c["name"]: c["values"] for c in desk.describe()["standing"]}
    assert choices["advance"] == ["strongest", "all", "ask"] and "own_losses" in choices
    wrong = desk.check({"orders": [], "standing": {"advance": "everybody"}})
    assert not wrong["ok"] and "standing" in wrong["problems"][0]["text"]
    assert desk.save({"orders": [], "standing": {"advance": "all"}})["saved"]
    assert yamlio.load_file(out).data["standing"] == {"advance": "all"}


def test_units_offered_to_move_with_a_stack_are_those_that_may_go_with_it(toc_movement: DeskGame,
                                                                          tmp_path: Path) -> None:
    desk = OrdersDesk(toc_movement.view_path("german"), out=tmp_path / "o.yaml")
    units = desk.draft({"kind": "move", "order": {}, "orders": []})["candidates"]["move"]
    first = "G-IR12"  # enters by 3100 on turn 1 (8.2); G-IR20 enters by 3900
    offered = desk.draft({"kind": "move", "order": {"move": [first]}, "orders": []})["candidates"]["move"]
    assert first in offered and len(offered) < len(units) and "G-IR20" not in offered


def test_a_side_not_awaited_gets_no_kinds_and_saves_an_empty_list(tmp_path: Path) -> None:
    desk = OrdersDesk(ROOT / "samples" / "fbsm" / "game" / "turns" / "0005" / "us.yaml", out=tmp_path / "o.yaml")
    described = desk.describe()
    assert described["gives_orders"] is False and described["kinds"] == [] and described["awaiting"] == ["german"]
    assert desk.save({"orders": [], "standing": {"advance": "all"}})["saved"]
    assert yamlio.load_file(tmp_path / "o.yaml").data["orders"] == []


def test_bst_per_unit_standing_answers_saved_as_the_bots_file_and_accepted(tmp_path: Path) -> None:
    """bst's `opfire` and `close_combat` (O1, C2) set unit by unit on the desk: the file is the one the bot
    writes with that `standing:` block, byte for byte, `pbem submit` accepts it, and the side's next view
    shows the answers as current."""
    game = play_to(tmp_path, "bst", "activation", "allies")
    out = tmp_path / "allies-desk.yaml"
    desk = OrdersDesk(game.view_path("allies"), game=load_game(game.game_dir), key=game.key("allies"), out=out)
    rows = {row["name"]: row for row in desk.describe()["standing"]}
    assert {"opfire.us1", "close_combat.us1"} <= set(rows) and not any(".de" in name for name in rows)
    bot = game.bot_orders("allies")
    changed = {"opfire.us1": {"within": 300}, "close_combat.us1": "fire", "opfire.usp": "hold"}
    nested = {"close_combat": {"us1": "fire"}, "opfire": {"us1": {"within": 300}, "usp": "hold"}}
    assert desk.save({"orders": bot, "standing": changed})["saved"]
    by_bot = game.bot_file("allies", tmp_path / "by-bot.yaml")
    assert by_bot.read_bytes() != out.read_bytes()  # without the answers
    assert bot_orders_file(game.game_dir, "allies", game.key("allies"), by_bot, standing=nested).read_bytes() == \
        out.read_bytes()
    assert submit(game.game_dir, out).errors == []
    for side in ("axis",):
        if side in read_view(game.view_path(side)).doc["next"]["awaiting"]:
            assert submit(game.game_dir, game.bot_file(side, tmp_path / f"{side}.yaml")).errors == []
    adjudicate(game.game_dir, game.key("referee"))
    later = OrdersDesk(game.view_path("allies"), out=tmp_path / "later.yaml")
    now = {row["name"]: row["current"] for row in later.describe()["standing"]}
    assert later.view.doc["standing"] == nested
    shown = {"opfire.us1": {"within": 300}, "opfire.usp": "hold", "close_combat.us1": "fire", "opfire.us2": None}
    for name, value in shown.items():  # a unit whose bases all fell in the activation has no row
        assert now.get(name, value) == value, (name, now)


def test_after_the_orders_deadline_the_desk_says_so_and_saves_nothing(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """As `pbem check` does: orders made after the deadline the view announces would be refused as late."""
    from tests.test_newcomer4 import AFTER_DEADLINE, BEFORE_DEADLINE, DEADLINE, Game

    game = Game(tmp_path, "toc", monkeypatch, deadline="1h")
    out = tmp_path / "german-orders.yaml"
    desk = OrdersDesk(game.view("german"), out=out)
    monkeypatch.setenv("PBEM_NOW", BEFORE_DEADLINE)
    assert desk.check({"orders": []})["ok"]
    monkeypatch.setenv("PBEM_NOW", AFTER_DEADLINE)
    late = desk.check({"orders": []})
    assert not late["ok"] and f"the orders deadline {DEADLINE} for seq 1 has passed" in late["problems"][0]["message"]
    assert late["problems"][0]["section"] == "docs/protocol.md §4a", late["problems"][0]
    refused = desk.save({"orders": []})
    assert refused["saved"] is False and not out.exists()
