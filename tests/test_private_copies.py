"""The intake's sealed canonical copies of players' own files (`pbem/core/private_copies.py`).

A hand-written orders file is no canonical text, so the intake keeps what it read as canonical
text in the referee's private store, and the adjudication reads that copy without PyYAML. A copy
may only ever save time: these tests check that the turn is the same byte for byte with or
without one, that a damaged, planted or foreign copy is passed over, that a canonical file gets
none, and that `pbem adjudicate` of a hand-written file does without PyYAML.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core import private_copies, signing
from pbem.core.adjudicator import adjudicate
from pbem.core.archive import SECRET_DIR, Archive
from pbem.core.game import load_game
from pbem.core.intake import submit
from pbem.core.players import bot_orders_file
from pbem.core.position import current_position

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from _common import setup_game  # type: ignore[import-not-found]  # noqa: E402

from .test_speed_oneshot import CHILD  # noqa: E402  (run `pbem ARGS`, list its modules)


@pytest.fixture(scope="module")
def awaiting(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An fbsm game three adjudications in, with the awaited side's orders as a player writes them
    (a comment on top, flow style), signed, in mail/hand.yaml; the referee's key in referee."""
    work = tmp_path_factory.mktemp("copies")
    game = setup_game("fbsm", work)
    for _ in range(3):
        game.round()
    signing.write_keypair("referee", work, game.referee.private)
    side = current_position(load_game(game.root)).awaiting()[0]
    (work / "mail").mkdir(exist_ok=True)
    bot = bot_orders_file(game.root, side, game.players[side], work / "mail" / "bot.yaml", None)
    text = bot.read_text(encoding="utf-8").replace("orders: []", "orders: [ ]")
    hand = work / "mail" / "hand.yaml"
    hand.write_text("# my orders\n" + text, encoding="utf-8")
    hand.with_name("hand.yaml.sig").write_text(
        signing.sign(hand.read_bytes(), game.players[side], load_game(game.root).orders_namespace()), encoding="utf-8")
    return work


def _copy_of(work: Path, tmp_path: Path, name: str = "hand.yaml") -> Path:
    """A fresh copy of the prepared game with `mail/NAME` submitted."""
    here = tmp_path / "work"
    shutil.copytree(work, here, symlinks=True)
    referee = signing.load_signing_key(here / "referee", passphrase=b"")
    result = submit(here / "game", here / "mail" / name, referee_key=referee)
    assert result.receipts and not result.errors, result.errors
    return here


def _turns_after_adjudication(here: Path) -> dict[str, bytes]:
    referee = signing.load_signing_key(here / "referee", passphrase=b"")
    adjudicate(here / "game", referee)
    return {str(p.relative_to(here / "game")): p.read_bytes() for p in sorted((here / "game" / "turns").rglob("*"))
            if p.is_file()}


def _copies(here: Path) -> list[Path]:
    folder = here / "game" / SECRET_DIR / private_copies.FOLDER
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_a_hand_written_file_gets_a_copy_that_reads_as_the_file(awaiting: Path, tmp_path: Path) -> None:
    here = _copy_of(awaiting, tmp_path)
    [copy] = _copies(here)
    data = (here / "mail" / "hand.yaml").read_bytes()
    assert copy.name == private_copies.copy_name(data).split("/")[1]
    assert private_copies.read(Archive(here / "game"), "demo-fbsm", data) is not None
    assert os.stat(copy).st_mode & 0o077 == 0  # private, as the secret beside it


def test_a_canonical_file_gets_no_copy(awaiting: Path, tmp_path: Path) -> None:
    here = _copy_of(awaiting, tmp_path, "bot.yaml")
    assert _copies(here) == []


@pytest.mark.parametrize("damage", ["none", "missing", "text", "tag", "planted", "other secret", "other game", "link"])
def test_the_turn_is_the_same_with_a_good_copy_a_bad_one_or_none(awaiting: Path, tmp_path: Path, damage: str) -> None:
    reference = _copy_of(awaiting, tmp_path / "reference")
    shutil.rmtree(reference / "game" / SECRET_DIR / private_copies.FOLDER)
    expected = _turns_after_adjudication(reference)
    here = _copy_of(awaiting, tmp_path / "here")
    [copy] = _copies(here)
    data = (here / "mail" / "hand.yaml").read_bytes()
    sealed = copy.read_bytes()
    secret = bytes.fromhex(Archive(here / "game").read_secret())
    planted_doc = json.loads(json.dumps(private_copies.read(Archive(here / "game"), "demo-fbsm", data)))
    planted_doc["orders"] = []  # other orders than the file holds
    if damage == "missing":
        copy.unlink()
    elif damage == "text":
        copy.write_bytes(sealed.replace(b"orders:", b"ordres:", 1))
    elif damage == "tag":
        at = len(private_copies.COPY_MAGIC)
        copy.write_bytes(sealed[:at] + bytes([sealed[at] ^ 1]) + sealed[at + 1:])
    elif damage == "planted":  # canonical text of other orders, sealed without the secret
        copy.write_bytes(private_copies.sealed_copy(b"\0" * 32, "demo-fbsm", data, planted_doc))
    elif damage == "other secret":
        copy.write_bytes(private_copies.sealed_copy(bytes(32), "demo-fbsm", data, planted_doc))
    elif damage == "other game":
        copy.write_bytes(private_copies.sealed_copy(secret, "demo-other", data, planted_doc))
    elif damage == "link":
        elsewhere = tmp_path / "elsewhere.yaml"
        elsewhere.write_bytes(private_copies.sealed_copy(secret, "demo-fbsm", data, planted_doc))
        copy.unlink()
        copy.symlink_to(elsewhere)  # not followed, so not taken
    assert _turns_after_adjudication(here) == expected


def test_a_copy_sealed_right_is_what_the_adjudication_reads(awaiting: Path, tmp_path: Path) -> None:
    """The control of the test above: a copy that checks is read (here one holding other orders,
    sealed with the right secret, as only the referee could make it), so the tests of bad copies
    would see one taken."""
    reference = _copy_of(awaiting, tmp_path / "reference")
    expected = _turns_after_adjudication(reference)
    here = _copy_of(awaiting, tmp_path / "here")
    [copy] = _copies(here)
    data = (here / "mail" / "hand.yaml").read_bytes()
    doc = private_copies.read(Archive(here / "game"), "demo-fbsm", data)
    assert doc is not None and doc["orders"]
    doc["orders"] = []
    copy.write_bytes(private_copies.sealed_copy(bytes.fromhex(Archive(here / "game").read_secret()), "demo-fbsm",
                                                data, doc))
    assert _turns_after_adjudication(here) != expected


def test_no_secret_no_copy_and_the_intake_still_accepts(awaiting: Path, tmp_path: Path) -> None:
    here = tmp_path / "work"
    shutil.copytree(awaiting, here, symlinks=True)
    (here / "game" / SECRET_DIR / "chain-secret").unlink()
    referee = signing.load_signing_key(here / "referee", passphrase=b"")
    result = submit(here / "game", here / "mail" / "hand.yaml", referee_key=referee)
    assert result.receipts and not result.errors and _copies(here) == []


def test_adjudicating_a_hand_written_file_does_without_pyyaml(awaiting: Path, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"), PBEM_LEDGER=str(tmp_path / "ledger"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user runs it: byte-code, and so the tables' kept copies
    found = []
    for attempt in range(2):
        here = tmp_path / f"run-{attempt}"
        shutil.copytree(awaiting, here, symlinks=True)
        for command in (["submit", "--key", "referee", "game", "mail/hand.yaml"], ["adjudicate", "--key", "referee", "game"]):
            out = here / "modules.json"
            subprocess.run([sys.executable, "-c", CHILD, str(out), *command], cwd=here, env=env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found.append(json.loads(out.read_text()))
    assert found[1]["code"] in (0, None)
    assert "pbem.core.adjudicator" in found[1]["modules"]
    assert not any(name == "yaml" or name.startswith("yaml.") for name in found[1]["modules"])


def test_no_copy_is_kept_that_could_not_be_read_without_pyyaml(awaiting: Path, tmp_path: Path) -> None:
    here = tmp_path / "work"
    shutil.copytree(awaiting, here, symlinks=True)
    archive = Archive(here / "game")
    data = b"# a player's file\nnote: \"a\\tb\"\n"
    private_copies.keep(archive, "demo-fbsm", data, {"note": "a\tb"})  # its dump needs an escape
    assert _copies(here) == []
    private_copies.keep(archive, "demo-fbsm", data, {"note": "a b"})  # the control: this one is kept
    assert len(_copies(here)) == 1
