"""The player's check under protocol version 2 (`pbem verify-view`): keys, the hidden chain, receipts, archives.

Each referee manoeuvre of docs/protocol.md §4a is played on a real game: the referee side through
the library (intake, adjudicator, a step clock), the wronged player through `pbem ...` with its
own copies of what the referee sent it. Each test first shows the check passes on the honest files,
so the finding comes from the manoeuvre and nothing else.
"""

from __future__ import annotations

import datetime
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pbem.core import chance, clock, signing, yamlio
from pbem.core.adjudicator import AdjudicationReport, adjudicate
from pbem.core.archive import Archive, view_rel
from pbem.core.export import export
from pbem.core.game import load_game, new_game
from pbem.core.intake import Receipt, submit
from pbem.core.players import orders_document, read_view
from pbem.demo import DemoGame, setup_demo
from tests.conftest import DUEL_SCENARIO, play_duel
from tests.test_cli_lifecycle import Run, run
from tests.test_hostile_input import TwoAsks, reply

HOUR = datetime.timedelta(hours=1)


# --- the table: a referee driven through the library, players through their own files ------------------


@dataclass
class Play:
    """A game, its referee (library calls with a step clock), and each player's folder of received files."""

    game: DemoGame
    work: Path
    kept: dict[str, list[Path]] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.game.root

    @property
    def game_file(self) -> Path:
        return self.root / "game.yaml"

    def ledger(self, side: str) -> Path:
        return self.work / "ledgers" / side

    def folder(self, side: str) -> Path:
        path = self.work / "players" / side
        path.mkdir(parents=True, exist_ok=True)
        return path

    # the referee ----------------------------------------------------------------------------------
    def orders(self, side: str, orders: list[Any]) -> bytes:
        doc = orders_document(read_view(self.game.latest_view(side)), orders)
        return yamlio.dump(doc).encode("utf-8")

    def send(self, side: str, data: bytes, name: str | None = None) -> Receipt:
        """The side mails a signed file; the referee's intake takes it and answers with a receipt."""
        mail = self.work / "mail"
        mail.mkdir(exist_ok=True)
        path = mail / (name or f"{side}-{len(list(mail.iterdir())):03d}.yaml")
        path.write_bytes(data)
        sig = signing.sign(data, self.game.players[side], load_game(self.root).orders_namespace())
        path.with_name(path.name + ".sig").write_text(sig, encoding="utf-8")
        result = submit(self.root, path, referee_key=self.game.referee, now=self.game.clock)
        assert result.errors == [], result.errors
        (receipt,) = result.receipts
        assert receipt.signed is not None
        self.keep(side, receipt.signed)  # the receipt goes back to the sender
        return receipt

    def adjudicate(self, **options: Any) -> AdjudicationReport:
        report = adjudicate(self.root, self.game.referee, now=self.game.clock, **options)
        if report.committed:
            for side in self.game.players:
                self.keep(side, view_rel(report.seq, side))
        return report

    def delete(self, *rels: str) -> None:
        """The referee removes files (and their signatures) from its archive."""
        for rel in rels:
            for path in (self.root / rel, self.root / (rel + ".sig")):
                path.unlink()

    # the players ----------------------------------------------------------------------------------
    def keep(self, side: str, rel: str) -> Path:
        """A copy of what the referee sent `side` (with its .sig), as the player's mail holds it."""
        target = self.folder(side) / rel.replace("/", "-")
        shutil.copy(self.root / rel, target)
        shutil.copy(self.root / (rel + ".sig"), str(target) + ".sig")
        self.kept.setdefault(side, []).append(target)
        return target

    def views(self, side: str) -> list[Path]:
        return [path for path in self.kept.get(side, []) if ".receipt." not in path.name
                and yamlio.load_file(path).data["kind"] == "view"]

    def receipts(self, side: str) -> list[Path]:
        return [path for path in self.kept.get(side, []) if path.name.endswith(".receipt.yaml")]

    def verify(self, side: str, *extra: str | Path, views: list[Path] | None = None) -> Run:
        return run("verify-view", *(views if views is not None else self.views(side)), "--game", self.game_file,
                   "--ledger", self.ledger(side), *extra)


def new_play(work: Path, ruleset_id: str = "duel", scenario: Path = DUEL_SCENARIO,
             settings: dict[str, Any] | None = None) -> Play:
    """Keys and a new game (like setup_demo, with game settings such as an orders deadline)."""
    keys = work / "keys"
    keys.mkdir(parents=True)
    names = ["referee", "red", "blue"]
    for name in names:
        signing.write_keypair(name, keys)
    opened = {name: signing.load_signing_key(keys / name, passphrase=b"") for name in names}
    start = clock.StepClock()
    new_game(scenario, f"demo-{ruleset_id}", opened["referee"], {s: opened[s].public_line for s in ("red", "blue")},
             work / "game", chain_length=64, settings=settings, now=start)
    game = DemoGame(work / "game", opened["referee"], {s: opened[s] for s in ("red", "blue")}, lambda _: None,
                    clock=start)
    play = Play(game, work)
    for side in ("red", "blue"):
        play.keep(side, view_rel(0, side))
    return play


def resign(path: Path, doc: dict[str, Any], referee: signing.SigningKey) -> None:
    """The referee rewrites a file and signs the new bytes (a forgery only the protocol can catch)."""
    data = yamlio.dump(doc).encode("utf-8")
    path.write_bytes(data)
    Path(str(path) + ".sig").write_text(signing.sign(data, referee, f"pbem-turn@{doc['game']}"), encoding="utf-8")


def findings(result: Run) -> list[str]:
    """The problems printed, without the count that follows them."""
    return [line for line in result.out.splitlines() if line.strip() and not line.endswith(" problem(s)")]


# --- an honest game verifies, under both versions ----------------------------------------------------------


def test_an_honest_finished_game_verifies_with_every_receipt_and_its_archive(tmp_path: Path) -> None:
    # A seeded game: a fresh one is sometimes short (10 receipts or fewer, no restricted roll).
    game = setup_demo("duel", DUEL_SCENARIO, tmp_path / "work", say=lambda _: None, seed=b"honest duel 0")
    while game.round():
        pass
    root = game.root
    archive = Archive(root)
    receipts = sorted(str(path) for path in root.glob("*/*/*.receipt.yaml"))
    assert len(receipts) > 10
    final = yamlio.load_file(root / view_rel(archive.latest_seq(), "red")).data
    assert "result" in final["next"] and "hidden_seed" in final["dice"]
    keyed = [roll for seq in range(1, archive.latest_seq() + 1)
             for roll in yamlio.load_file(root / view_rel(seq, "red")).data["dice"]["rolls"] if "key" in roll]
    assert keyed  # the scouting rolls are restricted: each checked by its key, then against t_K
    names = export(root, tmp_path / "export.tar.gz")
    assert set(receipts) <= {str(root / name) for name in names}
    for side in ("red", "blue"):
        views = [root / view_rel(seq, side) for seq in range(archive.latest_seq() + 1)]
        result = run("verify-view", *views, "--game", root / "game.yaml", "--ledger", tmp_path / "ledger",
                     "--receipts", *receipts, "--archive", tmp_path / "export.tar.gz")
        assert result.rc == 0, result.text
        assert result.out.strip() == f"OK: {len(views)} view(s) verified"
        assert "adjudications verified" in result.err  # the audit ran on the exported archive


def test_a_version_1_archive_still_verifies_without_keys(tmp_path: Path) -> None:
    root = Path(__file__).parent / "fixtures" / "v1-duel"
    seqs = Archive(root).latest_seq()
    for side in ("red", "blue"):
        views = [root / view_rel(seq, side) for seq in range(seqs + 1)]
        result = run("verify-view", *views, "--game", root / "game.yaml", "--ledger", tmp_path / "ledger")
        assert result.rc == 0, result.text


# --- restricted rolls and the hidden chain ----------------------------------------------------------------


@pytest.fixture()
def finished(tmp_path: Path) -> Play:
    game = play_duel(tmp_path / "work")
    play = Play(game, tmp_path)
    for seq in range(Archive(game.root).latest_seq() + 1):
        play.keep("red", view_rel(seq, "red"))
    return play


def keyed_roll(play: Play) -> tuple[Path, dict[str, Any], int]:
    """Red's first view with a restricted roll: (the player's copy, its document, the roll's index)."""
    for path in play.views("red"):
        doc = yamlio.load_file(path).data
        for index, roll in enumerate(doc["dice"]["rolls"]):
            if "key" in roll and path != play.views("red")[-1]:
                return path, doc, index
    raise AssertionError("no restricted roll in red's views")  # pragma: no cover


def test_a_tampered_key_is_reported_at_once(finished: Play) -> None:
    assert finished.verify("red").rc == 0
    path, doc, index = keyed_roll(finished)
    roll = doc["dice"]["rolls"][index]
    phase_seed = bytes.fromhex(doc["dice"]["phase_seed"])
    # one hex digit changed, chosen so the value no longer follows (a d6 keeps it one time in six)
    roll["key"] = next(key for digit in "0123456789abcdef" if (key := digit + roll["key"][1:]) != roll["key"]
                       and chance.hidden_uniform(phase_seed, bytes.fromhex(key), roll["n"], roll["i"]) != roll["value"])
    resign(path, doc, finished.game.referee)
    result = finished.verify("red", views=[path])  # the view alone: its value no longer follows from its key
    assert result.rc == 1
    assert any(f"dice.rolls[{index}]" in line and "key or the value" in line and str(path) in line
               for line in findings(result)), result.text


def test_a_key_not_from_the_hidden_chain_is_reported_once_the_game_ends(finished: Play) -> None:
    path, doc, index = keyed_roll(finished)
    roll = doc["dice"]["rolls"][index]
    forged = chance.sha256(b"a key the referee picked")
    roll["key"] = forged.hex()
    roll["value"] = chance.hidden_uniform(bytes.fromhex(doc["dice"]["phase_seed"]), forged, roll["n"], roll["i"])
    resign(path, doc, finished.game.referee)
    alone = finished.verify("red", views=[path])
    assert alone.rc == 0, alone.text  # consistent on its own: only t_K can show the key was not committed
    result = finished.verify("red")
    assert result.rc == 1
    assert any(f"dice.rolls[{index}].key" in line and "hidden chain" in line and str(path) in line
               for line in findings(result)), result.text


def test_a_final_hidden_seed_off_the_chain_is_reported(finished: Play) -> None:
    final = finished.views("red")[-1]
    doc = yamlio.load_file(final).data
    doc["dice"]["hidden_seed"] = chance.sha256(b"not t_K").hex()
    resign(final, doc, finished.game.referee)
    result = finished.verify("red", views=[final])
    assert result.rc == 1
    assert any("dice.hidden_seed" in line and "hidden anchor" in line for line in findings(result)), result.text


def test_a_view_revealing_the_hidden_seed_before_the_end_is_reported(finished: Play) -> None:
    root = finished.root
    turn = yamlio.load_file(root / "turns/0002/turn.yaml").data
    other = root.parent / "blue-view-2.yaml"
    doc = yamlio.load_file(root / view_rel(2, "blue")).data
    doc["dice"]["hidden_seed"] = turn["dice"]["hidden_seed"]  # t_2 in a view of a game still running
    resign(other, doc, finished.game.referee)
    result = run("verify-view", other, "--game", root / "game.yaml", "--ledger", finished.ledger("blue"))
    assert result.rc == 1 and "dice.hidden_seed" in result.out and "while the game runs" in result.out, result.text


def test_the_final_view_must_carry_the_hidden_seed(finished: Play) -> None:
    final = finished.views("red")[-1]
    doc = yamlio.load_file(final).data
    del doc["dice"]["hidden_seed"]
    resign(final, doc, finished.game.referee)
    result = finished.verify("red", views=[final])
    assert result.rc == 1 and "must carry t_K" in result.out, result.text


def test_deadlines_in_views_must_be_real_times_and_the_announced_one(tmp_path: Path) -> None:
    play = new_play(tmp_path, settings={"deadline": "1h"})
    view0 = play.views("red")[0]
    doc = yamlio.load_file(view0).data
    assert doc["next"]["deadline"] == "2026-01-01T01:00:00Z"
    assert play.verify("red").rc == 0
    doc["next"]["deadline"] = "2026-02-30T01:00:00Z"  # the schema's pattern, but no such day
    resign(view0, doc, play.game.referee)
    result = play.verify("red")
    assert result.rc == 1 and "next.deadline" in result.out and "not a real date" in result.out, result.text


# --- §4a: the referee's manoeuvres, each caught by the wronged player's receipts ---------------------------


def test_a_dropped_newer_orders_file_is_caught_by_its_receipt(tmp_path: Path) -> None:
    """(a) Red resends; the referee deletes the newer file and its receipt, so the older one is used."""
    play = new_play(tmp_path)
    first = play.send("red", play.orders("red", [{"place": "hq", "cell": 1}]))
    newer = play.send("red", play.orders("red", [{"place": "hq", "cell": 4}]))
    assert newer.replaces == first.rel
    play.send("blue", play.orders("blue", [{"place": "hq", "cell": 2}]))
    play.delete(newer.rel, str(newer.signed))
    assert play.adjudicate().committed
    used = {entry["side"]: entry for entry in yamlio.load_file(play.root / "turns/0001/red.yaml").data["dice"]["inputs"]}
    assert used["red"]["order_hash"] == first.hash  # the referee's pick
    red_first, red_newer = play.receipts("red")
    honest = run("verify-view", *play.views("red"), "--game", play.game_file, "--ledger", tmp_path / "l0",
                 "--receipts", red_first)
    assert honest.rc == 0, honest.text  # the first receipt alone is consistent with the view
    result = play.verify("red", "--receipts", red_first, red_newer)
    assert result.rc == 1, result.text
    (line,) = findings(result)
    assert str(red_newer) in line and "turns-0001-red.yaml" in line and "signed proof" in line
    assert "receipt number 1" in line and newer.hash in line


def test_a_side_called_missing_despite_its_receipt_is_caught(tmp_path: Path) -> None:
    """(b) The referee deletes blue's only orders file and adjudicates with --missing none after the deadline."""
    play = new_play(tmp_path, settings={"deadline": "1h"})
    play.send("red", play.orders("red", [{"place": "hq", "cell": 3}]))
    blue = play.send("blue", play.orders("blue", [{"place": "hq", "cell": 2}]))
    play.delete(blue.rel, str(blue.signed))
    play.game.clock.advance(2 * HOUR)
    assert play.adjudicate(missing_none=True).committed
    inputs = yamlio.load_file(play.root / "turns/0001/blue.yaml").data["dice"]["inputs"]
    assert {"side": "blue", "deadline": "2026-01-01T01:00:00Z"} in inputs  # called missing past the deadline
    assert play.verify("blue").rc == 0  # without the receipt the views alone are consistent
    result = play.verify("blue", "--receipts", *play.receipts("blue"))
    assert result.rc == 1, result.text
    (line,) = findings(result)
    assert "calls blue missing for seq 1" in line and str(play.receipts("blue")[0]) in line
    assert "turns-0001-blue.yaml" in line and "signed proof" in line and "deadline 2026-01-01T01:00:00Z" in line
    # red holds no such receipt and has nothing to report about its own orders
    assert play.verify("red", "--receipts", *play.receipts("red")).rc == 0


def test_a_receipt_after_the_deadline_does_not_count(tmp_path: Path) -> None:
    """A receipt stamped after the deadline view k-1 announced proves nothing against a missing side."""
    play = new_play(tmp_path, settings={"deadline": "1h"})
    play.send("red", play.orders("red", [{"place": "hq", "cell": 3}]))
    blue = play.send("blue", play.orders("blue", [{"place": "hq", "cell": 2}]))
    play.delete(blue.rel, str(blue.signed))
    play.game.clock.advance(2 * HOUR)
    play.adjudicate(missing_none=True)
    receipt = play.receipts("blue")[0]
    doc = yamlio.load_file(receipt).data
    doc["received"] = "2026-01-01T01:00:01Z"  # a second late
    resign(receipt, doc, play.game.referee)
    assert play.verify("blue", "--receipts", receipt).rc == 0


def two_asks_play(tmp_path: Path) -> tuple[Play, Path]:
    scenario = tmp_path / "two.yaml"
    scenario.write_text(f"pbem: 1\nkind: scenario\nruleset: {TwoAsks.id}\ntitle: two asks\nsetup: {{}}\n")
    play = new_play(tmp_path / "t", TwoAsks.id, scenario)
    play.send("red", play.orders("red", []))
    play.send("blue", play.orders("blue", []))
    report = play.adjudicate()
    assert not report.committed and report.files == ("decisions/0001/request-000.yaml",)
    return play, play.keep("blue", report.files[0])


def test_a_reply_deleted_and_its_request_lapsed_is_caught(tmp_path: Path) -> None:
    """(d) Blue answers in time; the referee deletes the reply and its receipt and lapses the request."""
    play, request = two_asks_play(tmp_path)
    decided = run("decide", request, "--answer", "right", "--key", play.work / "keys" / "blue", "--game",
                  play.game_file, "--ledger", play.ledger("blue"), "--out", play.folder("blue") / "reply.yaml")
    assert decided.rc == 0, decided.text  # the request is in blue's ledger now
    answer = play.send("blue", (play.folder("blue") / "reply.yaml").read_bytes())
    play.delete(answer.rel, str(answer.signed))
    play.game.clock.advance(73 * HOUR)  # past the request's deadline (72 h by default)
    report = play.adjudicate(lapse=True)
    assert not report.committed and (play.root / "decisions/0001/lapse-000.yaml").is_file()
    red_request = chance.file_hash((play.root / report.files[0]).read_bytes())
    play.send("red", reply("red", red_request, "stay", seq=1, game="demo-two-asks"))
    assert play.adjudicate().committed
    entries = yamlio.load_file(play.root / "turns/0001/blue.yaml").data["decisions"]
    assert [entry["lapsed"] for entry in entries] == [True]
    assert play.verify("blue").rc == 0  # the views alone cannot tell
    result = play.verify("blue", "--receipts", *play.receipts("blue"))
    assert result.rc == 1, result.text
    (line,) = findings(result)
    assert "lapsed unanswered" in line and "reply-000" in line and "signed proof" in line
    assert "turns-0001-blue.yaml" in line
    assert play.verify("red", "--receipts", *play.receipts("red")).rc == 0  # red's reply was used


def test_a_reply_replaced_by_an_older_one_is_caught(tmp_path: Path) -> None:
    """Blue answers twice; the referee deletes the newer reply, so the older answer is used."""
    play, request = two_asks_play(tmp_path)
    request_hash = chance.file_hash(request.read_bytes())
    play.send("blue", reply("blue", request_hash, "left", seq=1, game="demo-two-asks"))
    newer = play.send("blue", reply("blue", request_hash, "right", seq=1, game="demo-two-asks"))
    play.delete(newer.rel, str(newer.signed))
    report = play.adjudicate()
    play.send("red", reply("red", chance.file_hash((play.root / report.files[0]).read_bytes()), "stay", seq=1,
                           game="demo-two-asks"))
    assert play.adjudicate().committed
    result = play.verify("blue", "--receipts", *play.receipts("blue"))
    assert result.rc == 1, result.text
    (line,) = findings(result)
    assert "used another answer" in line and newer.hash in line and "signed proof" in line


# --- (e) an exported archive against the player's ledger -------------------------------------------------


def exported(play: Play, name: str, change: Any = None, unfinished: bool = False) -> Path:
    """The referee's copy of the game, changed by `change(root)`, exported as a .tar.gz."""
    copy = play.work / f"referee-{name}"
    shutil.copytree(play.root, copy)
    if change is not None:
        change(copy)
    out = play.work / f"{name}.tar.gz"
    export(copy, out, unfinished=unfinished)
    return out



def test_an_archive_cut_short_or_with_another_view_is_reported(finished: Play) -> None:
    play = finished
    last = Archive(play.root).latest_seq()
    assert play.verify("red").rc == 0  # the ledger now holds every view of red
    honest = run("verify-view", play.views("red")[0], "--game", play.game_file, "--ledger", play.ledger("red"),
                 "--archive", exported(play, "honest"))
    assert honest.rc == 0, honest.text

    def cut(root: Path) -> None:
        shutil.rmtree(root / f"turns/{last:04d}")

    short = exported(play, "short", cut, unfinished=True)
    result = run("verify-view", play.views("red")[0], "--game", play.game_file, "--ledger", play.ledger("red"),
                 "--archive", short)
    assert result.rc == 1
    lines = findings(result)
    assert any(f"ends at adjudication {last - 1}" in line and f"view {last}" in line for line in lines), result.text
    assert any(f"turns/{last:04d}/red.yaml" in line and "missing from the archive" in line for line in lines)

    def swap(root: Path) -> None:
        rel = view_rel(3, "red")
        doc = yamlio.load_file(root / rel).data
        doc["events"] = []
        resign(root / rel, doc, play.game.referee)

    other = exported(play, "other", swap)
    result = run("verify-view", play.views("red")[0], "--game", play.game_file, "--ledger", play.ledger("red"),
                 "--archive", other)
    assert result.rc == 1
    assert any("turns/0003/red.yaml" in line and "differs from" in line and "signed proof" in line
               for line in findings(result)), result.text


def test_an_archive_missing_a_receipt_the_player_holds_is_reported(tmp_path: Path) -> None:
    play = new_play(tmp_path)
    play.send("red", play.orders("red", [{"place": "hq", "cell": 1}]))
    newer = play.send("red", play.orders("red", [{"place": "hq", "cell": 4}]))
    play.send("blue", play.orders("blue", [{"place": "hq", "cell": 2}]))
    play.adjudicate()
    assert play.verify("red", "--receipts", *play.receipts("red"), "--archive", play.root).rc == 0
    play.delete(newer.rel, str(newer.signed))
    result = play.verify("red", "--archive", play.root)  # the receipts are in red's ledger by now
    assert result.rc == 1
    lines = findings(result)
    assert any(str(newer.signed) in line and "missing from the archive" in line for line in lines), result.text
    assert any(newer.rel in line and "acknowledges" in line for line in lines), result.text


def test_a_hostile_archive_is_refused_without_writing_outside(tmp_path: Path) -> None:
    import io
    import tarfile

    play = new_play(tmp_path)
    bad = tmp_path / "bad.tar.gz"
    with tarfile.open(bad, "w:gz") as tar:
        info = tarfile.TarInfo("../escape.txt")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"bad"))
    result = play.verify("red", "--archive", bad)
    assert result.rc == 2 and "not a plain relative name" in result.err, result.text
    assert not (tmp_path / "escape.txt").exists()
    link = tmp_path / "link.tar.gz"
    with tarfile.open(link, "w:gz") as tar:
        info = tarfile.TarInfo("g/game.yaml")
        info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(info)
    result = play.verify("red", "--archive", link)
    assert result.rc == 2 and "not a regular file" in result.err, result.text


# --- a real game with restricted draws (fbsm), through the command line -----------------------------------


def test_every_fbsm_view_verifies_with_its_receipts_and_archive(tmp_path: Path) -> None:
    work = tmp_path / "fbsm"
    seed = Path(__file__).resolve().parent.parent / "samples" / "fbsm" / "seed.txt"
    done = run("demo", "fbsm", "--dir", work, "--seed-file", seed)
    assert done.rc == 0, done.text[-3000:]
    root = work / "game"
    last = Archive(root).latest_seq()
    keyed = [roll for seq in range(1, last + 1)
             for roll in yamlio.load_file(root / view_rel(seq, "german")).data["dice"]["rolls"] if "key" in roll]
    assert keyed  # the German draws are restricted rolls
    receipts = sorted(root.glob("*/*/*.receipt.yaml"))
    for side in load_game(root).sides:
        views = [root / view_rel(seq, side) for seq in range(last + 1)]
        result = run("verify-view", *views, "--game", root / "game.yaml", "--ledger", tmp_path / "ledger",
                     "--receipts", *receipts, "--archive", root)
        assert result.rc == 0, result.text[:3000]
