"""Hostile and broken inputs at the referee's intake: each refused with a clear message, nothing written.

Every case goes through `pbem submit` (in-process), checks the exit code and the message
(which file, which field or line:column, and why), and compares every file and folder of
the game directory, byte for byte, before and after.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem.core import chance, ruleset, signing, yamlio
from pbem.core.players import orders_document, read_view
from pbem.demo import DemoGame, setup_demo
from tests.conftest import DUEL_SCENARIO
from tests.rulesets.duel import Duel
from tests.test_cli_lifecycle import Run, assert_unchanged, predict_rolls, run, snapshot
from tests.test_work_meter import metered

GAME = "demo-duel"
ORDERS_NS = f"pbem-orders@{GAME}"


@dataclass
class Table:
    """A bot-free duel game: the referee's directory plus the players' keys and a mail folder."""

    game: DemoGame
    mail: Path

    @property
    def root(self) -> Path:
        return self.game.root

    @property
    def game_id(self) -> str:
        return str(yamlio.load_file(self.root / "game.yaml").data["game"])

    def key(self, who: str) -> signing.SigningKey:
        return self.game.referee if who == "referee" else self.game.players[who]

    def orders(self, who: str, orders: list[Any], **fields: Any) -> bytes:
        """An orders file made from the side's latest view, with some envelope fields overridden."""
        doc = orders_document(read_view(self.game.latest_view(who)), orders)
        doc.update(fields)
        return yamlio.dump(doc).encode("utf-8")

    def file(self, name: str, data: bytes, signer: str | None = None, namespace: str | None = None) -> Path:
        """Write a file into the mail folder, with a detached signature by `signer` if given."""
        path = self.mail / name
        path.write_bytes(data)
        if signer is not None:
            namespace = namespace or f"pbem-orders@{self.game_id}"
            path.with_name(name + ".sig").write_text(signing.sign(data, self.key(signer), namespace))
        return path

    def accept(self, who: str, name: str, data: bytes) -> Run:
        result = run("submit", self.root, self.file(name, data, who))
        assert result.rc == 0, result.text
        return result

    def adjudicate(self) -> Run:
        result = run("adjudicate", self.root, "--key", self.game.root.parent / "keys" / "referee")
        assert result.rc == 0, result.text
        return result

    def refused(self, path: Path, *needles: str, sig: Path | None = None, name: str | None = None) -> str:
        """Submit `path`; require a refusal naming the file and saying each needle; nothing may change.

        `name` is the file name the message must give, if not `path`'s own (an armored block's).
        """
        before = snapshot(self.root)
        result = run("submit", self.root, path, *([sig] if sig else []))
        assert result.rc == 1, result.text
        assert result.err == "", result.err  # the whole answer on stdout (docs/cli.md), then the count
        assert result.out.startswith("rejected: ") and result.out.endswith(" problem(s)\n"), result.out
        assert (name or path.name) in result.out, result.out
        for needle in needles:
            assert needle in result.out, f"{needle!r} not in:\n{result.out}"
        assert_unchanged(before, self.root)
        return result.out


def make_table(work: Path) -> Table:
    game = setup_demo("duel", DUEL_SCENARIO, work, say=lambda _: None)
    mail = work / "mail"
    mail.mkdir(exist_ok=True)
    return Table(game, mail)


@pytest.fixture()
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def deployed(table: Table, red: int = 3, blue: int = 2) -> Table:
    table.accept("red", "red-1.yaml", table.orders("red", [{"place": "hq", "cell": red}]))
    table.accept("blue", "blue-1.yaml", table.orders("blue", [{"place": "hq", "cell": blue}]))
    table.adjudicate()
    return table


@pytest.fixture()
def fire_table(table: Table) -> Table:
    """After adjudication 1: red's HQ in cell 3, blue's in cell 2; seq 2 awaits fire orders."""
    return deployed(table)


@pytest.fixture()
def decision_table(fire_table: Table) -> Table:
    """Adjudication 2 stopped on red's F3 decision (blue hit red's HQ); request-000 is out."""
    table = fire_table
    red = table.orders("red", [{"fire": 5}])
    table.accept("red", "red-2.yaml", red)
    for attempt in range(200):
        blue = table.orders("blue", [{"fire": 3}])
        if predict_rolls(table.root, 2, {"red": red, "blue": blue}, 6, 2)[1] >= 3:
            break
    table.accept("blue", "blue-2.yaml", blue)
    report = table.adjudicate()
    assert "waits for a decision from red" in report.out
    return table


def request_hash(table: Table) -> str:
    return chance.file_hash((table.root / "decisions/0002/request-000.yaml").read_bytes())


def reply(side: str, request: str, answer: Any, seq: int = 2, game: str = GAME) -> bytes:
    doc = {"pbem": 2, "kind": "decision-reply", "game": game, "seq": seq, "side": side, "request": request,
           "answer": answer}
    return yamlio.dump(doc).encode("utf-8")


def line_of(data: bytes, needle: bytes) -> int:
    return data[: data.index(needle)].count(b"\n") + 1


# --- broken YAML ----------------------------------------------------------------------------------------


def test_malformed_yaml(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}]).replace(b"seq: 1", b"seq: [1")
    path = table.file("malformed.yaml", data, "red")
    table.refused(path, "malformed.yaml:5:5:", "YAML syntax error", "line 4, column 6")


def test_duplicate_key(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}]).replace(b"seq: 1\n", b"seq: 1\nseq: 1\n")
    path = table.file("dup.yaml", data, "red")
    table.refused(path, "dup.yaml:5:1:", 'duplicate key "seq"', "first at line 4, column 1")


def test_alias_bomb_is_refused_quickly(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}])
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    data += b"bomb:\n" + "".join(f"  {line}\n" for line in lines).encode()
    path = table.file("bomb.yaml", data, "red")
    with metered(memory=True) as work:
        err = table.refused(path, "alias expansion too large", "write the data out instead")
    # read (up to the 4 MiB size bound); game.yaml is canonical text, read without a parse; the
    # canonical reader steps aside at the bomb's first flow list, and the strict loader parses to
    # the first alias past the expansion bound: the expansion (10**10 values) never happens
    assert work.parses == 1 and work.per_parse[0] < 100, work
    assert work.peak_bytes is not None and work.peak_bytes < 8 * 2**20, work
    assert f"bomb.yaml:{line_of(data, b'  a2:')}:" in err


def test_fifty_megabyte_file_is_refused_before_reading(table: Table) -> None:
    path = table.mail / "huge.yaml"
    path.write_bytes(b"")
    os.truncate(path, 50 * 1024 * 1024)  # sparse: no 50 MB written to disk
    path.with_name("huge.yaml.sig").write_text(signing.sign(b"x", table.key("red"), ORDERS_NS))
    table.refused(path, "file is 52428800 bytes; the limit is")
    path.with_name("huge.yaml.sig").unlink()  # as a mail text that might hold armored blocks
    table.refused(path, "file is 52428800 bytes; the limit is")
    # the player's own tools refuse it too
    for args in (("check", table.root / "views/0000/red.yaml", path), ("verify", path, "--game", table.root)):
        result = run(*args)
        assert result.rc == 2 and "huge.yaml: file too large: 52428800 bytes" in result.err, result.err


def test_unknown_top_level_key(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}]) + b"colour: red\n"
    path = table.file("extra.yaml", data, "red")
    table.refused(path, f"extra.yaml:{line_of(data, b'colour')}:1:", 'unknown key "colour"', "allowed keys: pbem")


def test_float_in_orders(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}]).replace(b"cell: 3", b"cell: 3.0")
    path = table.file("float.yaml", data, "red")
    table.refused(path, f"float.yaml:{line_of(data, b'  cell')}:9:", "at orders[0].cell", "no floats")


@pytest.mark.parametrize("tag", ["!!int", "!!python/object/apply:os.system", "!custom"])
def test_yaml_tag(table: Table, tag: str) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}]).replace(b"cell: 3", f"cell: {tag} 3".encode())
    path = table.file("tag.yaml", data, "red")
    table.refused(path, f"tag.yaml:{line_of(data, b'  cell')}:9:", "at orders[0].cell", "tags are not allowed",
                  tag)


# --- the envelope: game, seq, side, phase, ack ----------------------------------------------------------


@pytest.mark.parametrize("field, value, needles", [
    ("game", "other-game", ["at game:", "for game 'other-game', not 'demo-duel'", "legal: demo-duel"]),
    ("seq", 2, ["at seq:", "seq 2 is ahead of the game: the game awaits seq 1", "legal: 1"]),
    ("seq", 0, ["at seq:"]),
    ("phase", "fire", ["at phase:", "phase 'fire' is not the phase awaited", "legal: deploy"]),
    ("side", "blue", ["at side:", "wrong key: signed with red's key, but this file says side 'blue'",
                      "legal: blue's key (or side: red, if the file is red's)"]),
    ("ack", "sha256:" + "0" * 64, ["at ack:", "is not the hash of the last view this side was sent"]),
])
def test_wrong_envelope_field(table: Table, field: str, value: Any, needles: list[str]) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}], **{field: value})
    path = table.file(f"wrong-{field}.yaml", data, "red")
    err = table.refused(path, f"wrong-{field}.yaml:{line_of(data, field.encode() + b':')}:", *needles)
    assert "docs/protocol.md §" in err or field == "seq"


def test_ack_of_the_other_sides_view(fire_table: Table) -> None:
    """A side acks a view it never got (the opponent's): refused on `ack`."""
    blue_view = chance.file_hash((fire_table.root / "turns/0001/blue.yaml").read_bytes())
    data = fire_table.orders("red", [{"fire": 5}], ack=blue_view)
    path = fire_table.file("ack.yaml", data, "red")
    own = chance.file_hash((fire_table.root / "turns/0001/red.yaml").read_bytes())
    fire_table.refused(path, "at ack:", f"legal: {own}")


def test_old_signed_orders_replayed_into_a_later_seq(fire_table: Table) -> None:
    table = fire_table
    table.accept("red", "red-2.yaml", table.orders("red", [{"fire": 5}]))
    table.accept("blue", "blue-2.yaml", table.orders("blue", [{"fire": 1}]))
    table.adjudicate()
    # seq 3 awaits fire orders again: red's seq-2 file, validly signed, is sent once more
    for seq in (1, 2):
        stored = next((table.root / f"orders/{seq:04d}").glob("red-[0-9][0-9][0-9][0-9].yaml"))
        old = table.mail / f"old-{seq}.yaml"
        old.write_bytes(stored.read_bytes())
        old.with_name(old.name + ".sig").write_bytes(stored.with_name(stored.name + ".sig").read_bytes())
        table.refused(old, "at seq:", f"seq {seq} is an old file (replayed?): the game awaits seq 3")


# --- signatures -----------------------------------------------------------------------------------------


def test_signed_with_the_opponents_key(table: Table) -> None:
    path = table.file("opp.yaml", table.orders("red", [{"place": "hq", "cell": 3}]), "blue")
    table.refused(path, "at side:", "signed with blue's key, but this file says side 'red'", "legal: red's key")


def test_signed_with_the_referees_key(table: Table) -> None:
    path = table.file("ref.yaml", table.orders("red", [{"place": "hq", "cell": 3}]), "referee")
    table.refused(path, "wrong key: signed with the referee's key", "must be signed with red's or blue's key")


def test_signed_under_the_referees_namespace(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}])
    path = table.file("ns.yaml", data, "red", namespace=f"pbem-turn@{GAME}")
    table.refused(path, "wrong namespace", f"pbem-orders@{GAME}")


def test_signed_for_another_game(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}])
    path = table.file("other.yaml", data, "red", namespace="pbem-orders@other-game")
    table.refused(path, "wrong namespace", "signed for game 'other-game', this is game 'demo-duel'")


def test_one_flipped_byte(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}])
    path = table.file("flip.yaml", data, "red")
    path.write_bytes(data.replace(b"cell: 3", b"cell: 4"))
    table.refused(path, "bad signature", "changed after it was signed")


def test_no_signature_at_all(table: Table) -> None:
    path = table.file("bare.yaml", table.orders("red", [{"place": "hq", "cell": 3}]))
    table.refused(path, "no signature", "ssh-keygen -Y sign")


def armored(table: Table, who: str, data: bytes, name: str) -> str:
    text = signing.canonical_text(data)
    return signing.armor(text, signing.sign(text, table.key(who), ORDERS_NS), name=name)


def test_armored_block_with_mangled_whitespace(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}])
    block = armored(table, "red", data, "red-orders.yaml")
    mangled = block.replace("place: hq", "place:  hq")  # inside a line: canonical text cannot undo it
    assert mangled != block
    path = table.mail / "mail.txt"
    path.write_text("Dear referee,\n\n" + mangled + "\nBest\n")
    table.refused(path, "armored red-orders.yaml", "bad signature",
                  "neither the text as received nor its canonical form verifies", name="red-orders.yaml")


def test_armored_refusal_names_the_mail_it_came_in(table: Table) -> None:
    block = armored(table, "red", table.orders("red", [{"place": "hq", "cell": 3}]), "red-orders.yaml")
    path = table.mail / "mail.txt"
    path.write_text("Dear referee,\n\n" + block.replace("place: hq", "place:  hq"))
    table.refused(path, "mail.txt:3:", "armored red-orders.yaml", "bad signature")


def test_armored_block_damaged_only_at_line_ends_is_accepted(table: Table) -> None:
    """The contrast: CRLF and trailing spaces added in transit are undone by canonical text."""
    data = table.orders("red", [{"place": "hq", "cell": 3}])
    block = armored(table, "red", data, "red-orders.yaml")
    damaged = block.replace("\n", "  \r\n")
    path = table.mail / "mail.txt"
    path.write_bytes(damaged.encode())
    result = run("submit", table.root, path)
    assert result.rc == 0, result.text
    assert (table.root / "orders/0001/red-0001.yaml").read_bytes() == signing.canonical_text(data)


# --- decisions ------------------------------------------------------------------------------------------


def test_reply_to_a_request_never_sent(table: Table) -> None:
    path = table.file("reply.yaml", reply("red", "sha256:" + "1" * 64, "stand", seq=1), "red")
    table.refused(path, "reply.yaml:6:", "at request:", "names a decision request that was never sent")


def test_reply_naming_an_unknown_request_while_one_is_pending(decision_table: Table) -> None:
    path = decision_table.file("reply.yaml", reply("red", "sha256:" + "1" * 64, "stand"), "red")
    decision_table.refused(path, "at request:", "never sent")


def test_reply_with_an_answer_not_offered(decision_table: Table) -> None:
    path = decision_table.file("reply.yaml", reply("red", request_hash(decision_table), "run-away"), "red")
    decision_table.refused(path, "reply.yaml:7:", "at answer:", "answer run-away is not one of the options",
                           "legal: 1: stand; 2: shift-left; 3: shift-right", "F3")


def test_reply_signed_by_the_wrong_side(decision_table: Table) -> None:
    table = decision_table
    path = table.file("forged.yaml", reply("red", request_hash(table), "stand"), "blue")
    table.refused(path, "at side:", "signed with blue's key, but this file says side 'red'", "legal: red's key")
    path = table.file("meddle.yaml", reply("blue", request_hash(table), "stand"), "blue")
    table.refused(path, "at request:", "that decision request was sent to another side")


def test_reply_for_the_wrong_seq_or_game(decision_table: Table) -> None:
    table = decision_table
    path = table.file("seq.yaml", reply("red", request_hash(table), "stand", seq=1), "red")
    table.refused(path, "at seq:", "seq 1 is not the adjudication under way (2)")
    path = table.file("game.yaml", reply("red", request_hash(table), "stand", game="other-game"), "red")
    table.refused(path, "at game:", "this reply is for game 'other-game'")


def test_reply_signed_by_the_referee(decision_table: Table) -> None:
    path = decision_table.file("ref.yaml", reply("red", request_hash(decision_table), "stand"), "referee")
    decision_table.refused(path, "wrong key: signed with the referee's key")


def test_orders_while_the_adjudication_waits_for_a_decision(decision_table: Table) -> None:
    table = decision_table
    for who in ("red", "blue"):
        path = table.file(f"late-{who}.yaml", table.orders(who, [{"fire": 4}]), who)
        table.refused(path, "at seq:", "adjudication 2 is under way (waiting for a decision)",
                      "can no longer change")


def test_request_file_submitted_back_is_refused(decision_table: Table) -> None:
    """A referee-signed request is not something a player can submit."""
    table = decision_table
    request = table.root / "decisions/0002/request-000.yaml"
    path = table.file("bounce.yaml", request.read_bytes())
    path.with_name("bounce.yaml.sig").write_bytes(request.with_name(request.name + ".sig").read_bytes())
    table.refused(path, "wrong key")


# --- phases with nothing to give ------------------------------------------------------------------------


class SoloFire(Duel):
    """A duel variant in which only red fires: blue has no orders to give in the fire phase."""

    id = "duel-solo-fire"

    def awaiting(self, context: Any, state: dict[str, Any]) -> list[str]:
        if state["phase"] == "fire":
            return ["red"]
        return super().awaiting(context, state)


ruleset.register(SoloFire.id, f"{__name__}:SoloFire")


def test_orders_from_a_side_with_nothing_to_give(tmp_path: Path) -> None:
    scenario = tmp_path / "solo.yaml"
    scenario.write_text(DUEL_SCENARIO.read_text().replace("ruleset: duel", f"ruleset: {SoloFire.id}"))
    game = setup_demo(SoloFire.id, scenario, tmp_path / "work", say=lambda _: None)
    mail = tmp_path / "mail"
    mail.mkdir()
    table = Table(game, mail)
    deployed(table)
    path = table.file("blue-fire.yaml", table.orders("blue", [{"fire": 3}]), "blue")
    table.refused(path, "at side:", "blue has no orders to give in phase 'fire' (awaiting: red)")


def test_orders_after_the_game_is_over(table: Table) -> None:
    while table.game.round():
        pass
    view = read_view(table.game.latest_view("red"))
    assert "result" in view.doc["next"]
    doc = {"pbem": 2, "kind": "orders", "game": GAME, "seq": view.doc["seq"] + 1, "side": "red", "phase": "fire",
           "ack": chance.file_hash(view.data), "entropy": "ab" * 32, "salt": "cd" * 32, "orders": [{"fire": 2}]}
    path = table.file("after.yaml", yamlio.dump(doc).encode(), "red")
    table.refused(path, "the game is over")


# --- several blocks in one mail: each judged alone -------------------------------------------------------


def test_a_bad_block_does_not_sink_a_good_one(table: Table) -> None:
    good = armored(table, "red", table.orders("red", [{"place": "hq", "cell": 3}]), "red.yaml")
    bad = armored(table, "blue", table.orders("blue", [{"place": "hq", "cell": 3}], seq=7), "blue.yaml")
    path = table.mail / "mail.txt"
    path.write_text(good + "\n" + bad)
    result = run("submit", table.root, path)
    assert result.rc == 1
    assert "accepted orders of red for seq 1" in result.out
    assert "rejected: " in result.out and "blue.yaml" in result.out and "seq 7 is ahead of the game" in result.out
    assert sorted(p.name for p in (table.root / "orders/0001").iterdir()) == [
        "red-0001.receipt.yaml", "red-0001.receipt.yaml.sig", "red-0001.yaml", "red-0001.yaml.sig"]


# --- re-answering a decision the referee already acted on ------------------------------------------------


class TwoAsks(ruleset.Ruleset[Any]):
    """Two decisions in one adjudication, the second depending on the first answer.

    Blue retreats left or right (X1); red is then asked whether to pursue in that direction (X2).
    """

    id = "two-asks"
    version = "1"
    title = "two decisions in a row (test fixture)"

    def sides(self, scenario: Any) -> list[str]:
        return ["red", "blue"]

    def initial_state(self, context: Any, scenario: Any) -> dict[str, Any]:
        return {"phase": "go", "log": []}

    def phase(self, context: Any, state: dict[str, Any]) -> str:
        return str(state["phase"])

    def phase_names(self) -> list[str]:
        return ["go", "end"]

    def awaiting(self, context: Any, state: dict[str, Any]) -> list[str]:
        return ["red", "blue"] if state["phase"] == "go" else []

    def result(self, context: Any, state: dict[str, Any]) -> dict[str, Any] | None:
        return {"winner": None, "reason": "done", "section": "X3"} if state["phase"] == "end" else None

    def order_schema(self, phase: str) -> dict[str, Any]:
        return {"type": "array", "maxItems": 0}

    def validate(self, context: Any, view: Any, side: str, orders: list[Any]) -> list[Any]:
        return []

    def resolve(self, context: Any, state: Any, submissions: Any, dice: Any, decisions: Any) -> Any:
        first = decisions.ask("blue", "retreat", "X1", {}, ["left", "right"])
        second = decisions.ask("red", "pursue", "X2", {"blue_went": first}, [f"pursue-{first}", "stay"])
        state["log"] = [first, second]
        state["phase"] = "end"
        return ruleset.Resolution(state, [{"type": "done", "log": [first, second]}])

    def view(self, context: Any, state: Any, side: str) -> Any:
        return {key: value for key, value in state.items() if key != ruleset.STANDING_KEY}

    def visible(self, context: Any, event: Any, side: str) -> Any:
        return dict(event)


ruleset.register(TwoAsks.id, f"{__name__}:TwoAsks")


def test_re_answering_a_decision_already_acted_on(tmp_path: Path) -> None:
    scenario = tmp_path / "two.yaml"
    scenario.write_text("pbem: 1\nkind: scenario\nruleset: two-asks\ntitle: two asks\nsetup: {}\n")
    table = Table(setup_demo(TwoAsks.id, scenario, tmp_path / "work", say=lambda _: None), tmp_path / "mail")
    table.mail.mkdir()
    game = table.game_id
    table.accept("red", "red.yaml", table.orders("red", []))
    table.accept("blue", "blue.yaml", table.orders("blue", []))
    assert "decision from blue" in table.adjudicate().out
    first = chance.file_hash((table.root / "decisions/0001/request-000.yaml").read_bytes())
    table.accept("blue", "left.yaml", reply("blue", first, "left", seq=1, game=game))
    assert "decision from red" in table.adjudicate().out
    # blue changes its mind after red was asked on the strength of "left"
    second_try = table.file("right.yaml", reply("blue", first, "right", seq=1, game=game), "blue")
    table.refused(second_try)  # a clear refusal, whatever its wording; nothing stored
    second = chance.file_hash((table.root / "decisions/0001/request-001.yaml").read_bytes())
    table.accept("red", "pursue.yaml", reply("red", second, "pursue-left", seq=1, game=game))
    assert "adjudication 1 done" in table.adjudicate().out
    assert run("audit", table.root).rc == 0
