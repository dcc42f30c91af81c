"""A duel game that always holds a decision reply, for the attack review (tests/test_attack_speed.py).

The session's `finished_duel` is played by bots with fresh keys and a fresh chain secret, so
whether any HQ is ever hit (and its owner asked the F3 question) is luck: in some runs its
archive holds no decision at all. This game is built so that one is certain, and byte for byte
the same on every run:

- keys and chain secrets derive from a fixed demo seed (`pbem.demo.setup_demo(seed=...)`);
- seq 1: red deploys its HQ in cell 3, blue in cell 2 (D1), with fixed entropy and salt;
- seq 2: red fires at cell 5, blue at cell 3; blue's entropy is the first of a fixed list for
  which the referee's dice (predicted from the chain secret, as `decision_table` does) give
  blue's F1 roll a hit, so red is asked F3's question and its bot replies;
- then the bots play the game to its end.

Anything that would make it hold no reply fails the fixture with the reason; nothing skips.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any, Callable

from pbem.core import signing, yamlio
from pbem.core.adjudicator import adjudicate
from pbem.core.audit import audit
from pbem.core.intake import submit
from pbem.core.players import orders_document, read_view
from pbem.demo import DemoGame, setup_demo
from tests.conftest import DUEL_SCENARIO, setup_keys_only
from tests.test_cli_lifecycle import predict_rolls

SEED = hashlib.sha256(b"pbem/tests/attack_fixtures/decided-duel").digest()
ENTROPY_TRIES = 64  # each try hits with probability 1/2: all 64 missing is a broken roll, not luck
RED_HQ, BLUE_HQ, RED_FIRES_AT = 3, 2, 5
FIRE_SEQ = 2
DECISION_SEQ_FOLDER = f"decisions/{FIRE_SEQ:04d}"


def _fixed(label: str) -> bytes:
    return hashlib.sha256(b"pbem/tests/attack_fixtures/" + label.encode("utf-8") + b"\0" + SEED).digest()


def _orders_bytes(game: DemoGame, side: str, orders: list[Any], entropy: bytes) -> bytes:
    doc = orders_document(read_view(game.latest_view(side)), orders, entropy=entropy,
                          salt=_fixed(f"salt/{side}/{len(orders)}/{entropy.hex()}"))
    return yamlio.dump(doc).encode("utf-8")


def _submit(game: DemoGame, side: str, name: str, data: bytes) -> None:
    path = game.mailbox(side) / name
    path.write_bytes(data)
    namespace = signing.namespace("orders", yamlio.load_bytes(data, name).data["game"])
    path.with_name(name + ".sig").write_text(signing.sign(data, game.players[side], namespace), encoding="utf-8")
    result = submit(game.root, path, referee_key=game.referee, now=game.clock)
    assert not result.errors, f"the fixture's {side} orders {name} were refused: {result.errors[0]}"


def _hitting_blue_fire(game: DemoGame, red: bytes) -> bytes:
    """Blue's fire orders at red's HQ with the first fixed entropy whose F1 roll hits (4+ on a d6)."""
    for attempt in range(ENTROPY_TRIES):
        blue = _orders_bytes(game, "blue", [{"fire": RED_HQ}], _fixed(f"entropy/blue/fire/{attempt}"))
        # the roll of the second side to fire (blue, after red) is uniform(6, 1): 0-based, so 3 is a 4
        if predict_rolls(game.root, FIRE_SEQ, {"red": red, "blue": blue}, 6, 2)[1] >= 3:
            return blue
    raise AssertionError(f"none of {ENTROPY_TRIES} fixed entropies gives blue a hit at seq {FIRE_SEQ}: "
                         "the dice no longer follow tests/test_cli_lifecycle.predict_rolls")


def _adjudicate_answering(game: DemoGame) -> int:
    """Adjudicate, the asked side's bot replying to every request; the number of requests."""
    asked = 0
    report = adjudicate(game.root, game.referee, now=game.clock)
    while not report.committed:
        side = yamlio.load_bytes((game.root / report.files[0]).read_bytes(), report.files[0]).data["side"]
        game.answer(side, report.files[0])
        asked += 1
        report = adjudicate(game.root, game.referee, now=game.clock)
    return asked


def play_decided_duel(workdir: Path) -> DemoGame:
    """The game described above, finished, in workdir/game (keys in workdir/keys, mail in workdir/mail)."""
    game = setup_demo("duel", DUEL_SCENARIO, workdir, say=lambda _: None, seed=SEED)
    for side, cell in (("red", RED_HQ), ("blue", BLUE_HQ)):
        _submit(game, side, "orders-0001.yaml",
                _orders_bytes(game, side, [{"place": "hq", "cell": cell}], _fixed(f"entropy/{side}/deploy")))
    assert _adjudicate_answering(game) == 0, "deploying asks nothing (D1)"
    red = _orders_bytes(game, "red", [{"fire": RED_FIRES_AT}], _fixed("entropy/red/fire"))
    blue = _hitting_blue_fire(game, red)
    _submit(game, "red", f"orders-{FIRE_SEQ:04d}.yaml", red)
    _submit(game, "blue", f"orders-{FIRE_SEQ:04d}.yaml", blue)
    assert _adjudicate_answering(game) >= 1, f"blue's hit at seq {FIRE_SEQ} asks red to decide (F3)"
    while game.round():
        pass
    assert_holds_a_decision_reply(game.root)
    found = audit(game.root)
    assert found == [], f"the untampered fixture game must pass the audit: {found}"
    return game


def decision_reply_receipts(root: Path) -> list[str]:
    """The receipts of decision replies in the archive (relative paths, sorted)."""
    return sorted(str(path.relative_to(root)) for path in (root / "decisions").rglob("*.receipt.yaml"))


def assert_holds_a_decision_reply(root: Path) -> None:
    receipts = decision_reply_receipts(root)
    assert receipts, f"{root} holds no decision reply receipt under decisions/"
    assert receipts[0].startswith(DECISION_SEQ_FOLDER + "/"), receipts
    assert b"\nrequest: " in (root / receipts[0]).read_bytes(), "a reply's receipt names its request"


_PLAYED: dict[str, Path] = {}


def decided_duel_copy(new_dir: Callable[[], Path], target: Path) -> DemoGame:
    """A fresh copy of the decided duel, in `target` (played once per session, in a `new_dir()`)."""
    if "done" not in _PLAYED:
        played_in = new_dir()
        play_decided_duel(played_in)
        _PLAYED["done"] = played_in
    shutil.copytree(_PLAYED["done"], target)
    game = setup_keys_only(target)
    assert_holds_a_decision_reply(game.root)
    return game
