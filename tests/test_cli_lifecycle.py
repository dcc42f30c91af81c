"""The whole game lifecycle through the `pbem` command line, as a referee and two players use it.

Every step goes through `pbem.cli.main` (in-process) with real files in a temporary folder:
keygen, new, status, orders, check, sign, verify, submit, adjudicate, decide, audit,
verify-view and schema. The helpers at the top (`run`, `snapshot`, `predict_rolls`, ...) are
also used by the other user-facing test files.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from pbem.cli import main
from pbem.core import chance, yamlio
from pbem.core.archive import turn_rel
from pbem.core.game import hidden_chain_seed, load_game
from pbem.core.schemafiles import KINDS
from tests.conftest import DUEL_SCENARIO

GAME_ID = "duel-cli"
HEX64 = re.compile(r"[0-9a-f]{64}")


# --- helpers shared with the other user-facing test files ------------------------------------------


@dataclass(frozen=True)
class Run:
    """What one `pbem ...` invocation did."""

    rc: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def run(*args: str | os.PathLike[str]) -> Run:
    """`pbem ARGS...` in-process, capturing stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main([str(a) for a in args])
        except SystemExit as exit_:  # argparse errors
            rc = int(exit_.code or 0)
    return Run(rc, out.getvalue(), err.getvalue())


def ok(*args: str | os.PathLike[str]) -> Run:
    """`pbem ARGS...` that must succeed."""
    result = run(*args)
    assert result.rc == 0, f"pbem {' '.join(map(str, args))} failed ({result.rc}):\n{result.text}"
    return result


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under `root`, by relative path."""
    found: dict[str, bytes | None] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            found[os.path.relpath(os.path.join(folder, name), root) + "/"] = None
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, root)] = handle.read()
    return found


def assert_unchanged(before: dict[str, bytes | None], root: Path) -> None:
    after = snapshot(root)
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(name for name in set(before) & set(after) if before[name] != after[name])
    assert (added, removed, changed) == ([], [], []), "the archive changed"


def secret_of(root: Path) -> bytes:
    return bytes.fromhex((root / ".referee" / "chain-secret").read_text(encoding="ascii").strip())


def predict_rolls(root: Path, seq: int, files: dict[str, bytes | None], n: int, count: int, restricted: tuple[int, ...] = ()) -> list[int]:
    """The first `count` uniform(n, i) of adjudication `seq` if these orders (side -> bytes) are used.

    Only the referee can do this before the turn (it needs the chain secret); tests use it to
    steer the dice towards the situation they need by choosing the players' entropy.
    """
    game = load_game(root)
    seed = chance.chain_seed(game.id, secret_of(root), game.chain_length, seq)
    previous = game.hash if seq == 1 else chance.file_hash((root / turn_rel(seq - 1)).read_bytes())
    inputs = []
    for side in game.sides:
        data = files.get(side)
        if data is None:
            inputs.append(chance.SideInput(side))
        else:
            entropy = yamlio.load_bytes(data, side).data["entropy"]
            inputs.append(chance.SideInput(side, bytes.fromhex(entropy), chance.parse_hash(chance.file_hash(data))))
    phase_seed = chance.phase_seed(game.id, seq, seed, chance.parse_hash(previous), inputs)
    hidden = hidden_chain_seed(game, seq)
    assert hidden is not None or not restricted
    return [chance.hidden_uniform(phase_seed, chance.hidden_key(game.id, seq, hidden, i), n, i)
            if i in restricted and hidden is not None else chance.uniform(phase_seed, n, i) for i in range(count)]


def set_orders(path: Path, orders_yaml: str, extra: str = "") -> bytes:
    """Replace the `orders: []` line of a template with a block of orders (and extra top-level lines)."""
    text = path.read_text(encoding="utf-8")
    assert "\norders: []\n" in text, text
    text = text.replace("\norders: []\n", "\norders:\n" + orders_yaml.rstrip("\n") + "\n" + extra)
    path.write_text(text, encoding="utf-8")
    return text.encode("utf-8")


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yamlio.load_file(path).data
    return data


# --- a game made with the command line --------------------------------------------------------------


@dataclass
class CliGame:
    """A game made with `pbem keygen` and `pbem new`, with the current directory set to `work`."""

    work: Path

    @property
    def root(self) -> Path:
        return self.work / "g"

    def key(self, name: str) -> Path:
        return self.work / "keys" / name

    def latest_view(self, side: str) -> Path:
        seqs = sorted(p.name for p in (self.root / "turns").iterdir()) if (self.root / "turns").is_dir() else []
        seqs = [s for s in seqs if re.fullmatch(r"\d{4}", s)]
        return self.root / "turns" / seqs[-1] / f"{side}.yaml" if seqs else self.root / "views/0000" / f"{side}.yaml"

    def write_orders(self, side: str, orders_yaml: str, name: str | None = None, extra: str = "") -> Path:
        """`pbem orders` from the side's latest view, then the orders typed in."""
        view = self.latest_view(side)
        seq = load(view)["seq"] + 1
        out = self.work / (name or f"{side}-{seq:04d}.yaml")
        ok("orders", view, "--out", out)
        set_orders(out, orders_yaml, extra)
        return out

    def sign(self, side: str, path: Path) -> Path:
        ok("sign", path, "--key", self.key(side))
        return path.with_name(path.name + ".sig")

    def send(self, side: str, orders_yaml: str, extra: str = "") -> Path:
        """Write, check, sign and submit one side's orders; returns the orders file."""
        path = self.write_orders(side, orders_yaml, extra=extra)
        ok("check", self.latest_view(side), path)
        self.sign(side, path)
        ok("submit", self.root, path)
        return path

    def deploy(self, red: int = 3, blue: int = 2) -> None:
        self.send("red", f"- {{place: hq, cell: {red}}}")
        self.send("blue", f"- {{place: hq, cell: {blue}}}")
        ok("adjudicate", self.root)

    def steer(self, side: str, orders_yaml: str, others: dict[str, bytes | None], want: Callable[[list[int]], bool],
              n: int = 6, count: int = 2, extra: str = "") -> Path:
        """Write orders for `side` with fresh entropy until the predicted rolls satisfy `want`; sign, submit."""
        seq = load(self.latest_view(side))["seq"] + 1
        for _ in range(200):
            path = self.write_orders(side, orders_yaml, extra=extra)
            rolls = predict_rolls(self.root, seq, {**others, side: path.read_bytes()}, n, count)
            if want(rolls):
                self.sign(side, path)
                ok("submit", self.root, path)
                return path
        raise AssertionError("could not steer the dice")  # pragma: no cover


def make_cli_game(work: Path, chain_length: int | None = None) -> CliGame:
    """keygen x3 and new, with relative paths as a user types them (the caller chdirs to `work`)."""
    assert Path.cwd().resolve() == work.resolve()
    for name in ("referee", "red", "blue"):
        ok("keygen", name, "--out", "keys")
    extra = ["--chain-length", str(chain_length)] if chain_length else []
    ok("new", DUEL_SCENARIO, "--game", GAME_ID, "--referee-key", "keys/referee",
       "--side", "red=keys/red.pub", "--side", "blue=keys/blue.pub", "--dir", "g", *extra)
    return CliGame(work)


@pytest.fixture()
def cli_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliGame:
    monkeypatch.chdir(tmp_path)
    return make_cli_game(tmp_path)


def decision_game(game: CliGame) -> tuple[bytes, bytes]:
    """Deploy (red 3, blue 2), then seq 2: red fires at 5, blue at red's cell 3 with a hit (roll >= 4).

    Returns the bytes of red's and blue's seq-2 orders. After this, `adjudicate` must stop on
    red's F3 decision (stand or shift).
    """
    game.deploy(red=3, blue=2)
    red = game.send("red", "- {fire: 5}").read_bytes()
    blue = game.steer("blue", "- {fire: 3}", {"red": red}, lambda rolls: rolls[1] >= 3).read_bytes()
    return red, blue


# --- the tests ----------------------------------------------------------------------------------------


def test_keygen_writes_three_openssh_key_pairs(cli_game: CliGame) -> None:
    for name in ("referee", "red", "blue"):
        private, public = cli_game.key(name), cli_game.work / "keys" / f"{name}.pub"
        assert private.read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----\n")
        assert stat.S_IMODE(private.stat().st_mode) == 0o600
        line = public.read_text()
        assert re.fullmatch(r"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5[A-Za-z0-9+/]+=* \S+\n", line), line
    lines = {(cli_game.work / "keys" / f"{n}.pub").read_text().split()[1] for n in ("referee", "red", "blue")}
    assert len(lines) == 3
    # keygen never overwrites a key
    again = run("keygen", "red", "--out", "keys")
    assert again.rc != 0 and "red" in again.err


def test_new_writes_signed_genesis_with_the_given_keys(cli_game: CliGame) -> None:
    root = cli_game.root
    doc = load(root / "game.yaml")
    assert doc["game"] == GAME_ID and doc["kind"] == "game" and doc["pbem"] == 2
    assert [s["side"] for s in doc["sides"]] == ["red", "blue"]
    for entry in doc["sides"]:
        assert entry["key"].split()[:2] == (cli_game.work / "keys" / f"{entry['side']}.pub").read_text().split()[:2]
    assert doc["referee"]["key"].split()[:2] == (cli_game.work / "keys/referee.pub").read_text().split()[:2]
    assert HEX64.fullmatch(doc["seed_chain"]["anchor"])
    ok("verify", root / "game.yaml", "--game", root)
    for side in ("red", "blue"):
        ok("verify", root / "views/0000" / f"{side}.yaml", "--game", root)
    secret_file = root / ".referee" / "chain-secret"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    secret = secret_file.read_text().strip()
    for rel, data in snapshot(root).items():
        if data is not None and not rel.startswith(".referee"):
            assert secret.encode() not in data, f"the chain secret leaks into {rel}"
    # a second `new` into the same folder is refused
    again = run("new", DUEL_SCENARIO, "--game", GAME_ID, "--referee-key", "keys/referee",
                "--side", "red=keys/red.pub", "--side", "blue=keys/blue.pub", "--dir", "g")
    assert again.rc == 2 and "already holds a game" in again.err


def test_status_before_and_after(cli_game: CliGame) -> None:
    before = ok("status", cli_game.root).out
    assert "adjudications done: 0" in before
    assert "next: seq 1, phase 'deploy'" in before
    assert "red: owes orders" in before and "blue: owes orders" in before
    assert "not ready" in before
    red = cli_game.send("red", "- {place: hq, cell: 3}")
    middle = ok("status", cli_game.root).out
    assert "red: in: orders/0001/red-0001.yaml" in middle and "blue: owes orders" in middle
    assert "not ready" in middle
    cli_game.send("blue", "- {place: hq, cell: 2}")
    assert "ready to adjudicate" in ok("status", cli_game.root).out
    ok("adjudicate", cli_game.root)
    after = ok("status", cli_game.root).out
    assert "adjudications done: 1" in after
    assert "next: seq 2, phase 'fire'" in after
    assert "red: owes orders" in after and "blue: owes orders" in after
    # status is public: it never shows where an HQ stands
    assert "cell" not in after and red.exists()


def test_orders_template_fills_the_envelope(cli_game: CliGame) -> None:
    root = cli_game.root
    out = cli_game.work / "t.yaml"
    ok("orders", root / "views/0000/red.yaml", "--out", out)
    text = out.read_text()
    doc = load(out)
    assert doc["game"] == GAME_ID and doc["seq"] == 1 and doc["side"] == "red" and doc["phase"] == "deploy"
    assert doc["kind"] == "orders" and doc["orders"] == []
    assert doc["ack"] == chance.file_hash((root / "game.yaml").read_bytes())
    assert HEX64.fullmatch(doc["entropy"])
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert any("{place: hq, cell: N}" in line and "D1" in line for line in comments), comments
    assert any(f"pbem-orders@{GAME_ID}" in line for line in comments)
    # to stdout as well, with fresh entropy each time
    printed = ok("orders", root / "views/0000/red.yaml").out
    assert yamlio.load_bytes(printed.encode(), "stdout").data["entropy"] != doc["entropy"]
    # the fire phase lists its own kinds, and acks the side's own last view
    cli_game.deploy()
    ok("orders", root / "turns/0001/blue.yaml", "--out", out)
    fire = load(out)
    assert fire["seq"] == 2 and fire["phase"] == "fire" and fire["side"] == "blue"
    assert fire["ack"] == chance.file_hash((root / "turns/0001/blue.yaml").read_bytes())
    assert "{fire: N}" in out.read_text() and "F2" in out.read_text()


def test_check_ok_and_rule_violations_with_line_and_column(cli_game: CliGame) -> None:
    view = cli_game.root / "views/0000/red.yaml"
    path = cli_game.write_orders("red", "- {place: hq, cell: 9}")
    bad = run("check", view, path)
    assert bad.rc == 1
    line_no = path.read_text().splitlines().index("- {place: hq, cell: 9}") + 1
    assert f"{path.name}:{line_no}:" in bad.out, bad.out
    assert re.search(rf"{re.escape(path.name)}:{line_no}:\d+: order 1: at orders\[0\]\.cell: cell 9 is off the board "
                     r"\(rule D1\); legal: cells 1 to 5", bad.out), bad.out
    path = cli_game.write_orders("red", "- {place: hq, cell: 4}")
    good = run("check", view, path)
    assert good.rc == 0 and good.out.startswith("OK:")
    # F2: firing at one's own HQ, judged from the side's own view
    cli_game.deploy(red=3, blue=2)
    path = cli_game.write_orders("red", "- {fire: 3}")
    bad = run("check", cli_game.root / "turns/0001/red.yaml", path)
    assert bad.rc == 1
    assert "order 1: at orders[0].fire: cell 3 holds your own HQ (rule F2); legal: 1, 2, 4, 5" in bad.out, bad.out
    # a schema violation is reported with line:column too
    path = cli_game.write_orders("red", "- {fire: 2, at: 3}")
    bad = run("check", cli_game.root / "turns/0001/red.yaml", path)
    assert bad.rc != 0 and re.search(rf"{re.escape(path.name)}:\d+:\d+:", bad.text), bad.text


def test_sign_detached_and_armored_then_verify(cli_game: CliGame) -> None:
    root = cli_game.root
    path = cli_game.write_orders("red", "- {place: hq, cell: 3}")
    signed = ok("sign", path, "--key", cli_game.key("red"))
    assert f"pbem-orders@{GAME_ID}" in signed.out
    sig = path.with_name(path.name + ".sig")
    assert sig.read_text().startswith("-----BEGIN SSH SIGNATURE-----\n")
    verified = ok("verify", path, "--game", root)
    assert "signed by red" in verified.out
    armored = cli_game.work / "red.asc"
    ok("sign", path, "--key", cli_game.key("red"), "--armor", "--out", armored)
    text = armored.read_text()
    assert text.startswith("-----BEGIN PBEM SIGNED FILE-----\nName: ") and text.endswith(
        "-----END PBEM SIGNED FILE-----\n")
    # armored to stdout
    assert ok("sign", path, "--key", cli_game.key("red"), "--armor").out == text
    # one flipped byte: verify says the signature does not match
    data = bytearray(path.read_bytes())
    data[data.index(b"cell: 3")+6] = ord("4")
    path.write_bytes(bytes(data))
    bad = run("verify", path, "--game", root)
    assert bad.rc == 1 and path.name in bad.err  # a check that found a problem
    # the wrong key for the side
    path.write_bytes(bytes(data).replace(b"cell: 4", b"cell: 3"))
    assert run("verify", path, "--game", root).rc == 0
    # signed under the turn namespace (as the referee signs) is refused by namespace
    from pbem.core import signing

    referee_sig = signing.sign(path.read_bytes(), signing.load_signing_key(cli_game.key("red"), b""),
                               f"pbem-turn@{GAME_ID}")
    path.with_name(path.name + ".sig").write_text(referee_sig)
    bad = run("verify", path, "--game", root)
    assert bad.rc == 1 and "namespace" in bad.err, bad.err


def test_verify_refuses_orders_signed_by_the_other_side(cli_game: CliGame) -> None:
    path = cli_game.write_orders("red", "- {place: hq, cell: 3}")
    ok("sign", path, "--key", cli_game.key("blue"))
    bad = run("verify", path, "--game", cli_game.root)
    assert bad.rc != 0 and "red" in bad.err and "blue" in bad.err, bad.text


def test_verify_names_the_referee_key(cli_game: CliGame) -> None:
    path = cli_game.write_orders("red", "- {place: hq, cell: 3}")
    ok("sign", path, "--key", cli_game.key("referee"))
    bad = run("verify", path, "--game", cli_game.root)
    assert bad.rc == 1 and "signed with the referee's key" in bad.err, bad.err


def test_submit_detached_armored_and_mail_with_two_blocks(cli_game: CliGame) -> None:
    root = cli_game.root
    # detached pair, the .sig found beside the file
    red = cli_game.write_orders("red", "- {place: hq, cell: 3}")
    cli_game.sign("red", red)
    answer = ok("submit", root, red)
    receipt = answer.out
    assert re.search(r"accepted orders of red for seq 1: orders/0001/red-0001\.yaml sha256:[0-9a-f]{64}; "
                     r"signed receipt orders/0001/red-0001\.receipt\.yaml$", receipt.strip()), receipt
    assert "blue" not in receipt and "note: still awaited: blue" in answer.err  # the answer tells nothing of blue
    assert chance.file_hash(red.read_bytes()) in receipt
    # detached pair with the .sig named explicitly: the same file again gives the same receipt
    moved = cli_game.work / "elsewhere.sig"
    shutil.copy(red.with_name(red.name + ".sig"), moved)
    assert "orders/0001/red-0001.yaml" in ok("submit", root, red, moved).out
    # an armored file
    blue = cli_game.write_orders("blue", "- {place: hq, cell: 2}")
    armored = cli_game.work / "blue.asc"
    ok("sign", blue, "--key", cli_game.key("blue"), "--armor", "--out", armored)
    answer = ok("submit", root, armored)
    assert "accepted orders of blue for seq 1" in answer.out and "nobody: ready to adjudicate" in answer.err
    stored = sorted(p.name for p in (root / "orders/0001").iterdir())
    assert stored == ["blue-0002.receipt.yaml", "blue-0002.receipt.yaml.sig", "blue-0002.yaml", "blue-0002.yaml.sig",
                      "red-0001.receipt.yaml", "red-0001.receipt.yaml.sig", "red-0001.yaml", "red-0001.yaml.sig"]
    # the archive stores the bytes that verified (canonical text for the armored one)
    assert (root / "orders/0001/blue-0002.yaml").read_bytes() == blue.read_bytes()
    ok("adjudicate", root)
    # a mail body: chatter, then one armored block from each side (one quoted, CRLF line ends)
    red = cli_game.write_orders("red", "- {fire: 5}")
    blue = cli_game.write_orders("blue", "- {fire: 1}")
    red_block = ok("sign", red, "--key", cli_game.key("red"), "--armor").out
    blue_block = ok("sign", blue, "--key", cli_game.key("blue"), "--armor").out
    quoted = "".join("> " + line + "\r\n" for line in blue_block.splitlines())
    mail = cli_game.work / "mail.txt"
    mail.write_text(f"Hi ref,\n\nhere are ours:\n\n{red_block}\nand blue's, forwarded:\n\n{quoted}\n-- \nsig\n",
                    encoding="utf-8", newline="")
    result = ok("submit", root, mail)
    assert "accepted orders of red for seq 2" in result.out and "accepted orders of blue for seq 2" in result.out
    assert (root / "orders/0002/red-0001.yaml").read_bytes() == red.read_bytes()
    assert (root / "orders/0002/blue-0002.yaml").read_bytes() == blue.read_bytes()
    assert "ready to adjudicate" in ok("status", root).out
    ok("adjudicate", root)
    assert run("audit", root).rc == 0


def test_full_exchange_audit_and_verify_view(cli_game: CliGame) -> None:
    root = cli_game.root
    cli_game.deploy(red=3, blue=2)
    assert sorted(p.name for p in (root / "turns/0001").iterdir()) == [
        "blue.yaml", "blue.yaml.sig", "red.yaml", "red.yaml.sig", "turn.yaml", "turn.yaml.sig"]
    turn = load(root / "turns/0001/turn.yaml")
    assert turn["phases"] == ["deploy", "scout"]
    assert turn["previous"] == chance.file_hash((root / "game.yaml").read_bytes())
    assert turn["state"]["hq"]["red"]["cell"] == 3 and turn["state"]["hq"]["blue"]["cell"] == 2
    red_view = load(root / "turns/0001/red.yaml")
    assert red_view["state"]["own"]["cell"] == 3 and "cell" not in red_view["state"]["enemy"]
    assert red_view["previous_view"] == chance.file_hash((root / "views/0000/red.yaml").read_bytes())
    assert all(roll["for"] != "S1 scouting by blue" for roll in red_view["dice"]["rolls"])
    ok("verify", root / "turns/0001/turn.yaml", "--game", root)
    cli_game.send("red", "- {fire: 5}")
    cli_game.send("blue", "- {fire: 1}")
    ok("adjudicate", root)
    audited = ok("audit", root)
    assert audited.out.strip() == (f"OK: {root}: 2 adjudications verified; the game is in play: adjudication 3 "
                                   "awaits phase 'fire' from red, blue")
    for side in ("red", "blue"):
        views = [root / "views/0000" / f"{side}.yaml", root / "turns/0001" / f"{side}.yaml",
                 root / "turns/0002" / f"{side}.yaml"]
        result = ok("verify-view", *views, "--game", root / "game.yaml")
        assert result.out.strip() == "OK: 3 view(s) verified"
    # verify-view notices a view of the other side's chain spliced in
    spliced = run("verify-view", root / "views/0000/red.yaml", root / "turns/0001/blue.yaml", "--game",
                  root / "game.yaml")
    assert spliced.rc == 1 and "previous_view" in spliced.out


def test_adjudicate_with_nothing_in_says_who_is_missing(cli_game: CliGame) -> None:
    before = snapshot(cli_game.root)
    result = run("adjudicate", cli_game.root)
    assert result.rc == 2 and "waiting for orders from red, blue for seq 1" in result.err
    assert "--missing none" in result.err
    assert_unchanged(before, cli_game.root)


def test_missing_none_records_the_missing_side(cli_game: CliGame) -> None:
    root = cli_game.root
    cli_game.send("red", "- {place: hq, cell: 4}")
    refused = run("adjudicate", root)
    assert refused.rc == 2 and "waiting for orders from blue" in refused.err
    ok("adjudicate", root, "--missing", "none")
    turn = load(root / "turns/0001/turn.yaml")
    orders = {entry["side"]: entry for entry in turn["orders"]}
    assert orders["blue"] == {"side": "blue", "status": "missing"}
    assert orders["red"]["status"] == "submitted" and orders["red"]["file"] == "orders/0001/red-0001.yaml"
    assert turn["state"]["hq"]["blue"]["cell"] == 1  # D1: a missing deployment stands in cell 1
    # the blue view's dice inputs show blue with no entropy or order hash
    inputs = load(root / "turns/0001/blue.yaml")["dice"]["inputs"]
    assert {"side": "blue"} in inputs
    ok("audit", root)
    ok("verify-view", root / "views/0000/blue.yaml", root / "turns/0001/blue.yaml", "--game", root / "game.yaml")


def test_resubmission_newest_wins_and_both_are_stored(cli_game: CliGame) -> None:
    root = cli_game.root
    first = cli_game.send("red", "- {place: hq, cell: 1}")
    first_bytes = first.read_bytes()
    second = cli_game.send("red", "- {place: hq, cell: 4}")
    cli_game.send("blue", "- {place: hq, cell: 2}")
    status = ok("status", root).out
    assert "red: in: orders/0001/red-0002.yaml (newest of 2)" in status
    assert (root / "orders/0001/red-0001.yaml").read_bytes() == first_bytes
    assert (root / "orders/0001/red-0002.yaml").read_bytes() == second.read_bytes()
    ok("adjudicate", root)
    turn = load(root / "turns/0001/turn.yaml")
    red = next(entry for entry in turn["orders"] if entry["side"] == "red")
    assert red["file"] == "orders/0001/red-0002.yaml"
    assert red["hash"] == chance.file_hash(second.read_bytes())
    assert turn["state"]["hq"]["red"]["cell"] == 4
    assert (root / "orders/0001/red-0001.yaml").is_file()  # never deleted
    ok("audit", root)


def test_decision_cycle_stop_decide_resume_and_replay(cli_game: CliGame, tmp_path: Path) -> None:
    root = cli_game.root
    red_orders, blue_orders = decision_game(cli_game)
    predicted = predict_rolls(root, 2, {"red": red_orders, "blue": blue_orders}, 6, 4, restricted=(2, 3))

    stopped = ok("adjudicate", root)
    assert "waits for a decision from red" in stopped.out and "F3" in stopped.out
    request_rel = "decisions/0002/request-000.yaml"
    assert request_rel in stopped.out
    request_path = root / request_rel
    assert request_path.is_file() and (root / (request_rel + ".sig")).is_file()
    assert not (root / "turns/0002").exists()
    request = load(request_path)
    assert request["kind"] == "decision-request" and request["side"] == "red" and request["seq"] == 2
    assert request["options"] == ["stand", "shift-left", "shift-right"]
    assert request["section"] == "F3"
    ok("verify", request_path, "--game", root)
    status = ok("status", root).out
    assert f"decision 0 for red: {request_rel}, awaiting the reply" in status
    # running adjudicate again asks the same question again, without writing anything new
    before = snapshot(root)
    again = ok("adjudicate", root)
    assert "waits for a decision from red" in again.out
    assert_unchanged(before, root)

    # the same archive answered differently, to compare the rolls
    other = tmp_path / "other"
    shutil.copytree(root, other)

    reply = cli_game.work / "reply.yaml"
    decided = ok("decide", request_path, "--answer", "stand", "--key", cli_game.key("red"), "--out", reply)
    assert "reply.yaml" in decided.out
    reply_doc = load(reply)
    assert reply_doc == {"pbem": 2, "kind": "decision-reply", "game": GAME_ID, "seq": 2, "side": "red",
                         "request": chance.file_hash(request_path.read_bytes()), "answer": "stand"}
    ok("verify", reply, "--game", root)
    receipt = ok("submit", root, reply).out
    assert "accepted decision-reply of red for seq 2" in receipt
    assert "answered in decisions/0002/reply-000-" in ok("status", root).out

    done = ok("adjudicate", root)
    assert "adjudication 2 done" in done.out
    turn = load(root / "turns/0002/turn.yaml")
    assert [roll["value"] for roll in turn["dice"]["rolls"]] == predicted[: len(turn["dice"]["rolls"])]
    assert turn["dice"]["rolls"][1]["value"] >= 3
    assert len(turn["decisions"]) == 1
    used = turn["decisions"][0]
    assert used["side"] == "red" and used["request"] == request_rel
    assert used["request_hash"] == reply_doc["request"]
    assert used["reply_hash"] == chance.file_hash((root / used["reply"]).read_bytes())
    assert turn["state"]["hq"]["red"] == {"cell": 3, "strength": 1}
    assert {"type": "loss", "side": "red", "strength": 1, "section": "F3"} in turn["events"]
    ok("audit", root)
    views = [root / "views/0000/red.yaml", root / "turns/0001/red.yaml", root / "turns/0002/red.yaml"]
    ok("verify-view", *views, "--game", root / "game.yaml")

    # replay: the other copy answers shift-left; the same seed gives the same rolls
    other_reply = tmp_path / "other-reply.yaml"
    ok("decide", other / request_rel, "--answer", "shift-left", "--key", cli_game.key("red"), "--out", other_reply)
    ok("submit", other, other_reply)
    ok("adjudicate", other)
    other_turn = load(other / "turns/0002/turn.yaml")
    assert other_turn["dice"]["seed"] == turn["dice"]["seed"]
    assert other_turn["dice"]["phase_seed"] == turn["dice"]["phase_seed"]
    assert other_turn["dice"]["rolls"] == turn["dice"]["rolls"]
    assert other_turn["state"]["hq"]["red"] == {"cell": 2, "strength": 2}
    ok("audit", other)


def test_decide_refuses_an_answer_not_offered(cli_game: CliGame) -> None:
    decision_game(cli_game)
    ok("adjudicate", cli_game.root)
    request = cli_game.root / "decisions/0002/request-000.yaml"
    result = run("decide", request, "--answer", "run-away", "--key", cli_game.key("red"),
                 "--out", cli_game.work / "r.yaml")
    assert result.rc == 2
    assert "answer run-away is not one of the options" in result.err and "1: stand; 2: shift-left" in result.err
    assert not (cli_game.work / "r.yaml").exists()


def test_standing_answer_spares_the_decision_mail(cli_game: CliGame) -> None:
    root = cli_game.root
    cli_game.deploy(red=3, blue=2)
    red = cli_game.send("red", "- {fire: 5}", extra="standing:\n  when_hit: shift-right\n").read_bytes()
    cli_game.steer("blue", "- {fire: 3}", {"red": red}, lambda rolls: rolls[1] >= 3)
    done = ok("adjudicate", root)
    assert "adjudication 2 done" in done.out
    assert not (root / "decisions").exists()
    turn = load(root / "turns/0002/turn.yaml")
    assert turn["state"]["hq"]["red"] == {"cell": 4, "strength": 2}
    assert turn["state"]["standing"]["red"] == {"when_hit": "shift-right"}
    assert load(root / "turns/0002/red.yaml")["standing"] == {"when_hit": "shift-right"}
    assert load(root / "turns/0002/blue.yaml")["standing"] == {}
    ok("audit", root)


@pytest.mark.parametrize("kind", KINDS)
def test_schema_for_each_kind(kind: str) -> None:
    import json

    plain = json.loads(ok("schema", kind).out)
    assert plain["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    with_ruleset = json.loads(ok("schema", kind, "--ruleset", "duel").out)
    assert with_ruleset["$schema"] == plain["$schema"]
    if kind == "orders":
        text = json.dumps(with_ruleset)
        for needle in ('"place"', '"fire"', '"deploy"', '"when_hit"'):
            assert needle in text, needle
        branches = {b["if"]["properties"]["phase"]["const"]: b["then"]["properties"]["orders"]
                    for b in with_ruleset["allOf"]}
        assert branches["deploy"]["items"]["required"] == ["place", "cell"]
        assert branches["fire"]["items"]["required"] == ["fire"]
        assert branches["scout"] == {"type": "array", "maxItems": 0}
    if kind == "scenario":
        assert "cells" in json.dumps(with_ruleset["properties"]["setup"])


def test_schema_of_an_unknown_kind_or_ruleset_is_refused() -> None:
    bad = run("schema", "letters")
    assert bad.rc == 2 and "no schema for 'letters'" in bad.err and "orders" in bad.err
    bad = run("schema", "orders", "--ruleset", "chess")
    assert bad.rc == 2 and "unknown ruleset 'chess'" in bad.err and "duel" in bad.err


def test_game_to_the_end_then_nothing_more(cli_game: CliGame) -> None:
    """Bots are not used: both sides fire blindly each turn until the last turn ends the game."""
    root = cli_game.root
    cli_game.deploy(red=1, blue=5)
    for _ in range(10):
        if "game over" in ok("status", root).out:
            break
        cli_game.send("red", "- {fire: 2}", extra="standing:\n  when_hit: stand\n")
        cli_game.send("blue", "- {fire: 4}", extra="standing:\n  when_hit: stand\n")
        ok("adjudicate", root)
    status = ok("status", root).out
    assert "game over" in status and "last turn played" in status
    before = snapshot(root)
    result = run("adjudicate", root)
    assert result.rc == 2 and "the game is over" in result.err
    orders = run("orders", cli_game.latest_view("red"))
    assert orders.rc == 2 and "the game is over" in orders.err
    assert_unchanged(before, root)
    ok("audit", root)


def test_status_while_a_decision_is_outstanding(cli_game: CliGame) -> None:
    decision_game(cli_game)
    ok("adjudicate", cli_game.root)
    status = ok("status", cli_game.root).out
    assert "awaiting the reply" in status
    assert "ready to adjudicate" not in status, status


def test_the_seed_chain_running_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = make_cli_game(tmp_path, chain_length=3)
    game.deploy()
    assert "warning" not in run("status", game.root).err
    for seq, warned in ((2, False), (3, True)):
        game.send("red", "- {fire: 5}", extra="standing:\n  when_hit: stand\n")
        game.send("blue", "- {fire: 1}", extra="standing:\n  when_hit: stand\n")
        result = ok("adjudicate", game.root)
        assert f"adjudication {seq} done" in result.out
        assert ("seed chain 3 of 3 used" in result.err) is warned, result.err
    before = snapshot(game.root)
    late = game.write_orders("red", "- {fire: 5}")
    game.sign("red", late)
    refused = run("submit", game.root, late)
    assert refused.rc == 1 and "seed chain's 3 links are all used" in refused.out, refused.text
    result = run("adjudicate", game.root)
    assert result.rc == 2 and "the seed chain has 3 links and all are used" in result.err
    assert_unchanged(before, game.root)
    ok("audit", game.root)


def forged_view(game: CliGame, side: str, seq: int) -> Path:
    """The referee's view `seq` re-made with a seed that is not on the committed chain.

    Phase seed and visible rolls are recomputed to fit the false seed, and the file is signed
    with the referee's key: only the seed chain can give the forgery away.
    """
    from pbem.core import signing
    from pbem.core.views import recompute_phase_seed

    path = game.root / f"turns/{seq:04d}/{side}.yaml"
    view = load(path)
    view["dice"]["seed"] = chance.sha256(b"not the committed seed").hex()
    phase_seed = recompute_phase_seed(view, GAME_ID)
    view["dice"]["phase_seed"] = phase_seed.hex()
    for roll in view["dice"]["rolls"]:
        roll["value"] = chance.uniform(phase_seed, roll["n"], roll["i"])
    data = yamlio.dump(view).encode()
    out = game.work / f"forged-{side}-{seq}.yaml"
    out.write_bytes(data)
    referee = signing.load_signing_key(game.key("referee"), b"")
    out.with_name(out.name + ".sig").write_text(signing.sign(data, referee, f"pbem-turn@{GAME_ID}"))
    return out


def test_verify_view_catches_a_seed_off_the_chain(cli_game: CliGame) -> None:
    cli_game.deploy()
    cli_game.send("red", "- {fire: 5}")
    cli_game.send("blue", "- {fire: 1}")
    ok("adjudicate", cli_game.root)
    forged = forged_view(cli_game, "red", 2)
    result = run("verify-view", cli_game.root / "turns/0001/red.yaml", forged, "--game", cli_game.root / "game.yaml")
    assert result.rc == 1 and "dice.seed" in result.out, result.text
    # view 1 of seq 1 is checked against the anchor itself
    forged = forged_view(cli_game, "red", 1)
    result = run("verify-view", forged, "--game", cli_game.root / "game.yaml")
    assert result.rc == 1 and "dice.seed" in result.out, result.text


def test_verify_view_checks_a_lone_view_against_the_anchor(cli_game: CliGame) -> None:
    cli_game.deploy()
    cli_game.send("red", "- {fire: 5}")
    cli_game.send("blue", "- {fire: 1}")
    ok("adjudicate", cli_game.root)
    forged = forged_view(cli_game, "red", 2)
    result = run("verify-view", forged, "--game", cli_game.root / "game.yaml")
    assert result.rc == 1 and "dice.seed" in result.out, result.text
