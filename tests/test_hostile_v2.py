"""Hostile input to the core, second round: each ends in a clear error, after bounded work and memory.

- a signed orders file of 300,000 empty items: refused by its count before any item is checked;
  schema and rule problems stop after a bounded number; the mail judge's answer is cut at 64 KiB;
- a `.sig` that is not UTF-8 (or is a device, a pipe, a huge file): a SignatureError naming it, from
  every command that reads one;
- `pbem decide` on a file that is not a decision request: a clear error, never a TypeError/KeyError;
- a text carrying several armored blocks, some broken: each block judged on its own, every broken
  one named with its carrier and the line where it began.

Work is counted, never timed (`tests.test_work_meter`): a refusal must come before the costly step it
guards (no item of a flood is checked, the schema stops after its problem bound, the armored scan
walks a bounded number of lines), and Python's peak memory for the file stays under a bound.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pbem.core import schemas, signing, yamlio
from pbem.core.archive import Archive, view_rel
from pbem.core.errors import SignatureError
from pbem.core.game import load_game
from pbem.core.orders import MAX_ORDERS
from pbem.core.players import orders_document, read_view
from pbem.mail import intake as mail_intake
from tests.test_cli_lifecycle import assert_unchanged, run, snapshot
from tests.test_mail_kit import (ADDRESSES, World, body_text, deliver, make_world, maildir_judge, plain_mail,
                                 recipients, take_outbox)
from tests.test_work_meter import Meter, metered

RED = ADDRESSES["red"]
FLOOD_MEMORY = 150 * 2**20
"""Python's peak allocation while one command reads a flood of a few hundred thousand values: the
YAML builder keeps about 250 bytes per value (the value, its path and its mark), and stops at
`yamlio.MAX_NODES` of them (about 100 MiB)."""


@pytest.fixture(autouse=True)
def ledger_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Player commands given --game keep a ledger: here, never in the home directory."""
    monkeypatch.setenv("PBEM_LEDGER", str(tmp_path / "ledger"))


@pytest.fixture()
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


def orders_bytes(world: World, side: str, orders: list[Any] | None = None, *, raw_orders: bytes | None = None,
                 **fields: Any) -> bytes:
    """An orders file of `side` from its latest view (pbem: the game's own version), with overrides.

    `raw_orders` replaces the whole `orders:` entry with hand-written YAML (for huge lists).
    """
    view = read_view(world.root / view_rel(Archive(world.root).latest_seq(), side))
    doc = orders_document(view, orders if orders is not None else [])
    doc["pbem"] = load_game(world.root).doc["pbem"]
    doc.update(fields)
    data = yamlio.dump(doc).encode("utf-8")
    if raw_orders is not None:
        data = data[: data.index(b"orders:")] + raw_orders
    return data


def signed_file(world: World, folder: Path, name: str, data: bytes, side: str = "red") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    path.with_name(name + ".sig").write_text(signing.sign(data, world.keys[side],
                                                          signing.namespace("orders", world.game_id)))
    return path


def armored(world: World, side: str, data: bytes, name: str) -> str:
    text = signing.canonical_text(data)
    return signing.armor(text, signing.sign(text, world.keys[side], signing.namespace("orders", world.game_id)),
                         name=name)


def metered_run(*args: str | os.PathLike[str]) -> tuple[Meter, Any]:
    """`pbem ARGS...` in-process, its work counted and its peak memory traced."""
    with metered(memory=True) as work:
        result = run(*args)
    work.within_bounds("pbem " + str(args[0]))
    return work, result


def no_item_checked(work: Meter) -> None:
    """The flood was refused by its count: no order was handed to the schema of its phase or to the rules."""
    assert (work.item_schemas, work.orders_validated, work.schema_errors) == (0, 0, 0), work
    assert work.peak_bytes is not None and work.peak_bytes < FLOOD_MEMORY, work.peak_bytes


# --- 1. a huge list of bad items ------------------------------------------------------------------------


def test_three_hundred_thousand_empty_orders_are_refused_by_count(world: World, tmp_path: Path) -> None:
    data = orders_bytes(world, "red", raw_orders=b"orders:\n" + b"- {}\n" * 300_000)
    assert len(data) > 1_500_000
    path = signed_file(world, tmp_path / "mail", "flood.yaml", data)
    before = snapshot(world.root)
    work, result = metered_run("submit", world.root, path)
    no_item_checked(work)
    assert result.rc == 1, result.text
    assert len(result.out) + len(result.err) < 100_000
    assert f"300000 orders in one file; at most {MAX_ORDERS} are taken" in result.out, result.out[:2000]
    assert "flood.yaml:" in result.out
    assert_unchanged(before, world.root)
    # the player's own pre-check says the same, as cheaply
    work, result = metered_run("check", world.root / "views/0000/red.yaml", path)
    no_item_checked(work)
    assert result.rc == 1 and len(result.out) + len(result.err) < 100_000
    assert "300000 orders in one file" in result.out


def test_flow_style_flood_is_refused_too(world: World, tmp_path: Path) -> None:
    data = orders_bytes(world, "red", raw_orders=b"orders: [" + b"{}, " * 300_000 + b"{}]\n")
    path = signed_file(world, tmp_path / "mail", "flow.yaml", data)
    work, result = metered_run("submit", world.root, path)
    no_item_checked(work)
    assert result.rc == 1
    assert "300001 orders in one file" in result.out and len(result.out) < 100_000


def test_many_bad_items_under_the_count_limit_stop_after_fifty_problems(world: World, tmp_path: Path) -> None:
    count = MAX_ORDERS  # allowed by count, every item wrong twice over
    data = orders_bytes(world, "red", raw_orders=b"orders:\n" + b"- {}\n" * count)
    path = signed_file(world, tmp_path / "mail", "bad.yaml", data)
    work, result = metered_run("submit", world.root, path)
    assert result.rc == 1
    # The schema stopped at its bound: jsonschema was asked for one item more than is reported (each
    # item's oneOf error and the alternative it meant: two errors), not for the other 949; the rules never ran.
    assert work.schema_errors == 2 * (schemas.MAX_PROBLEMS + 1) and work.orders_validated == 0, work
    *lines, count = [line for line in result.out.splitlines() if line.strip()]
    assert len(lines) == schemas.MAX_PROBLEMS + 1 and count == f"{len(lines)} problem(s)", result.out
    assert "missing required key" in lines[0]
    assert f"checking stopped after {schemas.MAX_PROBLEMS} problems, further problems were not checked" in lines[-1]


def test_standing_answers_with_a_flood_of_keys(world: World, tmp_path: Path) -> None:
    data = orders_bytes(world, "red", [{"place": "hq", "cell": 2}])
    data += b"standing:\n" + b"".join(b"  k%d: ask\n" % i for i in range(100_000))
    path = signed_file(world, tmp_path / "mail", "keys.yaml", data)
    work, result = metered_run("submit", world.root, path)
    assert work.problems_explained <= 2 * schemas.MAX_PROBLEMS, work  # not one per key
    assert result.rc == 1 and len(result.out) < 100_000
    assert work.peak_bytes is not None and work.peak_bytes < FLOOD_MEMORY, work.peak_bytes
    assert 'unknown key "k0"' in result.out and "further problems were not checked" in result.out


def test_schema_problems_are_bounded_directly() -> None:
    doc = yamlio.load_bytes(b"items:\n" + b"- 1\n" * 5000, "x.yaml")
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}}
    found = schemas.problems(doc, schema)
    assert len(found) == schemas.MAX_PROBLEMS + 1
    assert all("expected a string" in str(p) for p in found[:-1])
    assert "further problems were not checked" in found[-1].message
    assert len(schemas.problems(doc, schema, limit=3)) == 4
    with pytest.raises(schemas.SchemaError) as caught:
        schemas.validate(doc, schema)
    assert len(caught.value.problems) == schemas.MAX_PROBLEMS + 1


def test_rule_problems_are_bounded(world: World, tmp_path: Path) -> None:
    # Schema-valid items, each breaking a rule: the ruleset's problems are cut with a count of the rest.
    from pbem.core.orders import MAX_RULE_PROBLEMS, rule_problems

    data = orders_bytes(world, "red", [{"place": "hq", "cell": 99}] * 300)
    doc = yamlio.load_bytes(data, "rules.yaml")
    view = read_view(world.root / "views/0000/red.yaml")
    found = rule_problems(doc, view.rules, view.doc["state"], "red", "deploy")
    assert len(found) == MAX_RULE_PROBLEMS + 1
    assert "exactly one order, got 300" in found[0].message and "off the board" in found[1].message
    assert found[-1].message.startswith(f"... and {301 - MAX_RULE_PROBLEMS} more problems not shown")


def test_answer_text_is_cut_at_64_kib_but_receipts_stay() -> None:
    answer = mail_intake.Answer("x@y.test", None, None)
    for index in range(200):
        answer.add(f"block {index}: rejected:\n" + "    a problem line\n" * 40)
    answer.add("a receipt that must not be lost", always=True)
    text = "\n\n".join(answer.lines)
    assert len(text.encode()) < mail_intake.MAX_ANSWER_BYTES + 1024
    assert "this answer was cut at 64 KiB" in text
    assert answer.lines[-1] == "a receipt that must not be lost"
    assert "block 199" not in text


@pytest.fixture()
def started(world: World, tmp_path: Path) -> tuple[World, Path]:
    maildir = tmp_path / "Maildir"
    maildir_judge(world, maildir).run(once=True)
    take_outbox(maildir)
    return world, maildir


def test_the_judge_answers_a_flood_briefly(started: tuple[World, Path]) -> None:
    world, maildir = started
    data = orders_bytes(world, "red", raw_orders=b"orders:\n" + b"- {}\n" * 300_000)
    sig = signing.sign(data, world.keys["red"], signing.namespace("orders", world.game_id))
    deliver(maildir, plain_mail(RED, "orders", "x", files={"flood.yaml": data, "flood.yaml.sig": sig.encode()}))
    with metered() as work:
        maildir_judge(world, maildir).run(once=True)
    work.within_bounds("the judge")
    assert (work.item_schemas, work.orders_validated, work.schema_errors) == (0, 0, 0), work
    [mail] = [raw for raw in take_outbox(maildir) if RED in recipients(raw)]
    assert len(mail) < 20_000
    assert "300000 orders in one file" in body_text(mail)


def test_the_judge_cuts_an_answer_of_many_long_rejections(started: tuple[World, Path]) -> None:
    world, maildir = started
    bad = orders_bytes(world, "red", raw_orders=b"orders:\n" + b"- {}\n" * 900)
    blocks = "\n".join(armored(world, "red", bad, f"bad-{i}.yaml") for i in range(30))
    deliver(maildir, plain_mail(RED, "orders", blocks))
    maildir_judge(world, maildir).run(once=True)
    [mail] = [raw for raw in take_outbox(maildir) if RED in recipients(raw)]
    text = body_text(mail)
    assert len(text.encode()) < mail_intake.MAX_ANSWER_BYTES + 2048
    assert "this answer was cut at 64 KiB" in text
    assert "bad-0.yaml" in text


# --- 2. a .sig that is not UTF-8 ------------------------------------------------------------------------

NOT_UTF8 = b"-----BEGIN SSH SIGNATURE-----\n\xff\xfe\x80 not text\n-----END SSH SIGNATURE-----\n"


def test_read_signature_refuses_what_cannot_be_a_signature(tmp_path: Path) -> None:
    bad = tmp_path / "a.yaml.sig"
    bad.write_bytes(NOT_UTF8)
    with pytest.raises(SignatureError) as caught:
        signing.read_signature(bad)
    assert str(caught.value).startswith(f"{bad}: not an SSH signature: not UTF-8 text")
    big = tmp_path / "big.sig"
    big.write_bytes(b"x" * (signing.MAX_SIGNATURE_BYTES + 1))
    with pytest.raises(SignatureError, match="not an SSH signature: 65537 bytes"):
        signing.read_signature(big)
    zero = tmp_path / "zero.sig"
    zero.symlink_to("/dev/zero")
    with pytest.raises(SignatureError, match="not an SSH signature: not a regular file"):
        signing.read_signature(zero)
    fifo = tmp_path / "fifo.sig"
    os.mkfifo(fifo)
    with pytest.raises(SignatureError, match="not a regular file"):
        signing.read_signature(fifo)  # refused without opening it: nothing waits for a writer
    with pytest.raises(FileNotFoundError):
        signing.read_signature(tmp_path / "missing.sig")


def test_verify_with_a_sig_that_is_not_utf8(world: World, tmp_path: Path) -> None:
    path = signed_file(world, tmp_path / "mail", "o.yaml", orders_bytes(world, "red", [{"place": "hq", "cell": 2}]))
    path.with_name("o.yaml.sig").write_bytes(NOT_UTF8)
    result = run("verify", path, "--game", world.root)
    assert result.rc == 2, result.text
    assert f"{path}.sig: not an SSH signature: not UTF-8 text" in result.err


def test_submit_with_a_sig_that_is_not_utf8(world: World, tmp_path: Path) -> None:
    path = signed_file(world, tmp_path / "mail", "o.yaml", orders_bytes(world, "red", [{"place": "hq", "cell": 2}]))
    path.with_name("o.yaml.sig").write_bytes(NOT_UTF8)
    before = snapshot(world.root)
    result = run("submit", world.root, path)
    assert result.rc == 1 and f"{path}.sig: not an SSH signature: not UTF-8 text" in result.out, result.text
    assert_unchanged(before, world.root)


@pytest.mark.parametrize("command", ["check", "orders"])
def test_player_commands_with_a_view_sig_that_is_not_utf8(world: World, tmp_path: Path, command: str) -> None:
    mine = tmp_path / "player"
    mine.mkdir()
    view = mine / "red.yaml"
    view.write_bytes((world.root / "views/0000/red.yaml").read_bytes())
    view.with_name("red.yaml.sig").write_bytes(NOT_UTF8)
    orders = signed_file(world, mine, "o.yaml", orders_bytes(world, "red", [{"place": "hq", "cell": 2}]))
    args = [command, view] + ([orders] if command == "check" else []) + ["--game", world.root / "game.yaml"]
    result = run(*args)
    assert result.rc == 2, result.text
    assert f"{view}.sig: not an SSH signature: not UTF-8 text" in result.err


def test_decide_with_a_request_sig_that_is_not_utf8(world: World, tmp_path: Path) -> None:
    request = tmp_path / "request-000.yaml"
    request.write_text("pbem: 1\nkind: decision-request\n")
    request.with_name("request-000.yaml.sig").write_bytes(NOT_UTF8)
    result = run("decide", request, "--answer", "stand", "--key", world.root.parent / "keys" / "red",
                 "--game", world.root / "game.yaml")
    assert result.rc == 2, result.text
    assert f"{request}.sig: not an SSH signature: not UTF-8 text" in result.err


# --- 3. decide on a file that is not a decision request ------------------------------------------------


@pytest.mark.parametrize(
    "content, needle",
    [
        (None, "not a decision request: this is a 'orders' file"),  # an orders file
        (b"- a\n- b\n", "not a decision request: this is a list"),
        (b"42\n", "not a decision request: this is a single value"),
        (b"just words\n", "not a decision request: this is a single value"),
        (b"null\n", "not a decision request: this is empty"),
        (b"", "no YAML document in the file"),
        (b"game: x\n", "not a decision request: this is a mapping with no `kind`"),
        (b"kind: [1]\n", "not a decision request: this is a [1] file"),
        (b"pbem: 1\nkind: decision-request\nside: red\n", 'missing required key "game"'),
        (b"kind: \xc3\x28\n", "not UTF-8 (byte 0xc3"),
    ],
)
def test_decide_refuses_what_is_not_a_request(world: World, tmp_path: Path, content: bytes | None,
                                              needle: str) -> None:
    path = tmp_path / "request-000.yaml"
    path.write_bytes(content if content is not None else orders_bytes(world, "red", [{"place": "hq", "cell": 2}]))
    result = run("decide", path, "--answer", "stand", "--key", world.root.parent / "keys" / "red")
    assert result.rc == 2, result.text
    assert needle in result.err, result.err
    assert "Traceback" not in result.err
    assert not list(tmp_path.glob("reply-*"))


def test_decide_refuses_a_view(world: World) -> None:
    result = run("decide", world.root / "views/0000/red.yaml", "--answer", "stand",
                 "--key", world.root.parent / "keys" / "red")
    assert result.rc == 2 and "not a decision request: this is a 'view' file" in result.err, result.text


# --- 4. several armored blocks, some broken -------------------------------------------------------------


def broken_carrier(world: World) -> tuple[str, dict[str, int]]:
    """A mail text: a good red block, a truncated block (no END line), a block whose signature block is
    broken, then a good blue block. Returns the text and the line where each block begins."""
    red = armored(world, "red", orders_bytes(world, "red", [{"place": "hq", "cell": 2}]), "red.yaml")
    blue = armored(world, "blue", orders_bytes(world, "blue", [{"place": "hq", "cell": 4}]), "blue.yaml")
    spare = armored(world, "red", orders_bytes(world, "red", [{"place": "hq", "cell": 3}]), "cut.yaml")
    truncated = spare[: spare.index("-----BEGIN SSH SIGNATURE-----")]  # cut in its text
    broken_sig = spare.replace("cut.yaml", "broken.yaml").replace("-----END SSH SIGNATURE-----\n", "")
    parts = ["Dear judge,\n\n", red, "\nand the one I cut:\n", truncated, "\nagain:\n", broken_sig, "\n", blue,
             "\nbye\n"]
    text = "".join(parts)
    lines = {}
    for name in ("red.yaml", "cut.yaml", "broken.yaml", "blue.yaml"):
        at = text.index(f"Name: {name}")
        lines[name] = text[:at].count("\n")  # the BEGIN line is the one above its Name: header
    return text, lines


def test_read_armored_judges_each_block_on_its_own(world: World) -> None:
    text, lines = broken_carrier(world)
    blocks = signing.read_armored(text.encode(), file="post.txt")
    assert [(b.name, b.line, b.problem is None) for b in blocks] == [
        ("red.yaml", lines["red.yaml"], True), ("cut.yaml", lines["cut.yaml"], False),
        ("broken.yaml", lines["broken.yaml"], False), ("blue.yaml", lines["blue.yaml"], True)]
    assert "has no END line" in (blocks[1].problem or "")
    assert "not closed by -----END SSH SIGNATURE-----" in (blocks[2].problem or "")
    game = load_game(world.root)
    with pytest.raises(SignatureError) as caught:
        signing.verify_armored(blocks[1], game.orders_namespace(), game.side_keys, file="post.txt")
    assert str(caught.value).startswith(f"post.txt:{lines['cut.yaml']}: armored cut.yaml: this armored block "
                                        "cannot be read")
    # the strict reader still stops at the first broken block
    with pytest.raises(SignatureError, match="has no END line"):
        signing.find_armored(text.encode(), file="post.txt")


def test_submit_takes_the_good_blocks_and_names_each_bad_one(world: World, tmp_path: Path) -> None:
    text, lines = broken_carrier(world)
    path = tmp_path / "post.txt"
    path.write_text(text)
    result = run("submit", world.root, path)
    assert result.rc == 1
    assert "accepted orders of red for seq 1" in result.out, result.text
    assert "accepted orders of blue for seq 1" in result.out, result.text
    errors = [line for line in result.out.splitlines() if line.startswith("rejected: ")]
    assert len(errors) == 2 and result.out.endswith("\n2 problem(s)\n"), result.out
    assert errors[0].startswith(f"rejected: {path}:{lines['cut.yaml']}: armored cut.yaml: this armored block "
                                "cannot be read:")
    assert "has no END line" in errors[0]
    assert errors[1].startswith(f"rejected: {path}:{lines['broken.yaml']}: armored broken.yaml:")
    assert "not closed by -----END SSH SIGNATURE-----" in errors[1]


def test_a_good_block_quoted_inside_a_broken_one_is_found(world: World) -> None:
    key = world.keys["red"]
    text = b"pbem: 1\nkind: note\n"
    good = signing.armor(text, signing.sign(text, key, "pbem-orders@some-game"), name="inner.yaml")
    carrier = ("-----BEGIN PBEM SIGNED FILE-----\n\nhalf a file\n"
               + "".join("> " + line for line in good.splitlines(keepends=True))).encode()
    blocks = signing.read_armored(carrier)
    assert [(b.name, b.line, b.problem is None) for b in blocks] == [(None, 1, False), ("inner.yaml", 4, True)]
    assert blocks[1].text == text


def test_read_armored_is_bounded() -> None:
    # Many BEGIN lines, each a broken block: at most MAX_ARMORED_BLOCKS, then one stand-in says the rest was not read.
    carrier = b"-----BEGIN PBEM SIGNED FILE-----\nnot a header\n" * 5000
    with metered() as work:
        blocks = signing.read_armored(carrier, file="m")
    assert len(blocks) == signing.MAX_ARMORED_BLOCKS + 1
    assert "more than 64 armored blocks" in (blocks[-1].problem or "")
    assert work.armored_lines == signing.MAX_ARMORED_BLOCKS  # each broken block read one line past its BEGIN
    # nested quoting: each broken block could walk the rest of the carrier; the walk is bounded
    nested = b"".join(b">" * depth + b"-----BEGIN PBEM SIGNED FILE-----\n" + b">" * depth + b"\n"
                      for depth in range(3000))
    nested += (b">" * 3000 + b"x\n") * 1000
    lines = nested.count(b"\n")
    with metered() as work:
        signing.read_armored(nested, file="m")
    # the scan's budget (4 lines walked per line of the carrier, and 1,000), overshot by one block at most
    assert work.armored_lines <= 4 * lines + 1000 + lines, (work.armored_lines, lines)


def test_the_judge_takes_the_good_blocks_of_a_mail_with_broken_ones(started: tuple[World, Path]) -> None:
    world, maildir = started
    text, lines = broken_carrier(world)
    deliver(maildir, plain_mail(RED, "orders", text))
    maildir_judge(world, maildir).run(once=True)
    mails = take_outbox(maildir)
    to_red = "\n".join(body_text(raw) for raw in mails if RED in recipients(raw))
    to_blue = "\n".join(body_text(raw) for raw in mails if ADDRESSES["blue"] in recipients(raw))
    assert "accepted orders of red for seq 1" in to_red, to_red
    assert "accepted orders of blue for seq 1" in to_blue, to_blue
    assert f"the mail body:{lines['cut.yaml']}: " in to_red and "has no END line" in to_red
    assert f"the mail body:{lines['broken.yaml']}: " in to_red
    assert "armored block 2 of the mail body (cut.yaml): cannot be read" in to_red
