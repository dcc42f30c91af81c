"""Probes from a newcomer's run of README.md on a fresh clone, and from an attacker's run on a played game.

The newcomer followed the README from its first line (the demo, the OpenSSH walkthrough, the
mail judge on a Maildir, the desk, `pbem report`, `pbem verify-view`); the attacker took the
archive of `pbem demo toc` and cheated as the referee (a rewound turn with a dropped
submission, a view edited and signed again, a new game.yaml with another chain) and as a
player (a replayed file, a file signed with the other side's key, a file of another game).
Every cheat was caught with a clear message, and the tests below keep it so. As a curious opponent
it looked for hidden facts one side's files give away (bob's set-up conceal markers did, until bob
version 4), and it checked the examples of the pages a newcomer copies from against what pbem does.

Each defect the run found was first pinned here as a strict xfail and is fixed now; a probe of a
new defect found this way is `xfail(strict=True)` with the defect and its place in `reason`, so it
turns red (XPASS) once the defect is fixed, and then the mark goes.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from pbem.core import chance, signing, yamlio
from pbem.core.adjudicator import adjudicate
from pbem.core.audit import audit_report
from pbem.core.cases import situation
from pbem.core.intake import submit
from pbem.core.options import lines, request_names
from pbem.core.players import orders_document, read_view
from pbem.core.ruleset import get as get_ruleset
from pbem.demo import DemoGame, setup_demo
from tests.test_cli_lifecycle import run
from tests.test_ledger import deployed
from tests.test_mail_kit import (ADDRESSES, body_text, deliver, maildir_judge, make_world, plain_mail, recipients,
                                 signed_orders, take_outbox)

REPO = Path(__file__).resolve().parent.parent
TOC_SAMPLE = REPO / "samples" / "toc" / "game"
TOC_SCENARIO = REPO / "samples" / "toc" / "scenario.yaml"
BOB_SCENARIO = REPO / "samples" / "bob" / "scenario.yaml"


# --- the newcomer: writing orders by hand -----------------------------------------------------------------------


def german_orders_with_path(tmp_path: Path, path: str) -> Path:
    """Orders of the German side for the sample toc game's first phase, moving one regiment along `path`."""
    ack = chance.file_hash((TOC_SAMPLE / "game.yaml").read_bytes())
    orders = tmp_path / "orders-0001.yaml"
    orders.write_text("pbem: 2\nkind: orders\ngame: demo-toc\nseq: 1\nside: german\nphase: german-movement\n"
                      f"ack: {ack}\nentropy: {'ab' * 32}\nsalt: {'cd' * 32}\n"
                      f"orders:\n- {{move: [G-IR12], path: {path}}}\n", encoding="utf-8")
    return orders


def test_the_hand_written_orders_of_the_readme_pass_the_check(tmp_path: Path) -> None:
    """The control for the probe below: with the hexes quoted, the README's order is legal."""
    result = run("check", TOC_SAMPLE / "views" / "0000" / "german.yaml",
                 german_orders_with_path(tmp_path, '["3100", "3001"]'))
    assert result.rc == 0, result.text


def test_an_unquoted_hex_in_a_path_is_told_to_be_quoted(tmp_path: Path) -> None:
    result = run("check", TOC_SAMPLE / "views" / "0000" / "german.yaml",
                 german_orders_with_path(tmp_path, '[3100, "3001"]'))
    assert result.rc == 1
    assert 'quote it: "3100"' in result.out, result.text


# --- the newcomer: what the audit and the mail judge say ---------------------------------------------------------


def test_the_audit_says_how_a_finished_game_ended_in_words() -> None:
    summary = audit_report(TOC_SAMPLE).summary
    assert "the game is over" in summary
    assert "{" not in summary and "..." not in summary, summary


def game_waiting_for_the_british(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The mails of a judged toc game's round that adjudicates the German's first phase."""
    monkeypatch.setitem(ADDRESSES, "british", "british@players.test")  # the mail kit knows no British player
    world = make_world(tmp_path, ruleset_scenario=TOC_SCENARIO, game_id="mons-mail", sides=("german", "british"))
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    judge.run(once=True)
    take_outbox(maildir)  # the welcome mails
    data, sig = signed_orders(world, "german", [])
    deliver(maildir, plain_mail(ADDRESSES["german"], "orders", "x",
                                files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    judge.run(once=True)
    return take_outbox(maildir)


def test_the_view_mail_of_a_side_not_awaited_does_not_ask_for_orders(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    mails = game_waiting_for_the_british(tmp_path, monkeypatch)
    [german] = [m for m in mails if recipients(m) == [ADDRESSES["german"]] and "adjudication 1" in body_text(m)]
    [british] = [m for m in mails if recipients(m) == [ADDRESSES["british"]] and "adjudication 1" in body_text(m)]
    assert "To give orders" in body_text(british)  # the control: the awaited side is told how
    assert "pbem check" in body_text(british) and "--game game.yaml" in body_text(british)  # and to check them
    assert "You give no orders in the next phase" in body_text(german)
    assert "To give orders" not in body_text(german)


# --- the attacker: a rewound turn --------------------------------------------------------------------------------


def test_a_rewound_turn_is_reported_in_one_clear_line(tmp_path: Path) -> None:
    play = deployed(tmp_path)
    base = play.ledger("red")
    old_view = play.views("red")[-1]
    assert run("ledger", "add", old_view, "--game", play.game_file, "--ledger", base).rc == 0
    shutil.rmtree(play.root / "turns" / "0001")
    for path in (play.root / "orders" / "0001").glob("blue-*"):
        path.unlink()
    play.send("blue", play.orders("blue", [{"place": "hq", "cell": 5}]))
    assert play.adjudicate().committed
    new_view = play.folder("red") / "turns-0001-red.yaml"
    result = run("verify-view", new_view, "--game", play.game_file, "--ledger", base)
    assert result.rc == 1
    [line] = [line for line in result.out.splitlines() if "equivocation" in line]
    assert "signed proof" in line  # the defence holds: the two signed views of seq 1 are named
    assert "equivocation: equivocation" not in line, line


# --- the newcomer: a picture to mail ---------------------------------------------------------------------------


def test_a_png_refused_for_want_of_cairosvg_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as on a machine without the render extra
    out = tmp_path / "map.png"
    result = run("render", TOC_SAMPLE / "views" / "0000" / "german.yaml", "--png", "--out", out)
    assert result.rc == 2 and "cairosvg" in result.err
    assert sorted(tmp_path.iterdir()) == [], "a refused render left files behind"


# --- the attacker: a side called missing in a game without a deadline ---------------------------------------------
#
# In a game without settings.deadline the referee may call a side missing at any moment, before it has sent
# anything: knowing the seed and the other sides' entropy, it can work out that outcome first and choose it over
# waiting. That is by design (docs/protocol.md §10 "Missing sides"; pbem does it, see
# tests/test_cli_lifecycle.py::test_missing_none_records_the_missing_side); the pages a player reads must say so.


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_missing_side_without_a_deadline_is_a_limit_both_readme_and_protocol_state() -> None:
    readme = flat((REPO / "README.md").read_text(encoding="utf-8"))
    protocol = flat((REPO / "docs" / "protocol.md").read_text(encoding="utf-8"))
    assert "Call a side missing at any moment in a game without a deadline" in readme
    assert "--deadline" in readme.split("Call a side missing at any moment", 1)[1][:600]  # and the remedy
    assert "when none was, the moment the referee declared the side missing" in protocol


# --- the attacker on a real game: what holds, with the messages a player reads -----------------------------------
#
# A toc game played three exchanges by the demo's bots (German, British, German). The German player keeps in
# its ledger every view and receipt the referee sent it; the referee holds the referee key and the chain secret.


@pytest.fixture()
def mons(tmp_path: Path) -> DemoGame:
    game = setup_demo("toc", TOC_SCENARIO, tmp_path, say=lambda _: None, seed=b"newcomer probes")
    for _ in range(3):
        assert game.round()
    return game


def german_ledger(game: DemoGame) -> Path:
    """The German player's ledger, holding every view and receipt it was sent."""
    base = game.root.parent / "german-ledger"
    held = [game.root / "views" / "0000" / "german.yaml", *sorted(game.root.glob("turns/*/german.yaml")),
            *sorted(game.root.glob("orders/*/german-*.receipt.yaml"))]
    added = run("ledger", "add", *held, "--game", game.root / "game.yaml", "--ledger", base)
    assert added.rc == 0, added.text
    return base


def referee_edits_a_view(game: DemoGame) -> Path:
    """The German view of seq 2, its turn number changed and signed again with the referee key."""
    view = game.root / "turns" / "0002" / "german.yaml"
    text = view.read_text(encoding="utf-8")
    assert "turn: 1" in text
    view.write_text(text.replace("turn: 1", "turn: 9", 1), encoding="utf-8")
    Path(str(view) + ".sig").unlink()
    assert run("sign", view, "--key", game.root.parent / "keys" / "referee").rc == 0
    return view


def test_a_rewound_turn_with_the_germans_file_dropped_is_proved_by_the_german_ledger(mons: DemoGame) -> None:
    base = german_ledger(mons)
    # the referee rewinds seq 3, drops the German file and calls the German side missing
    shutil.rmtree(mons.root / "turns" / "0003")
    for path in (mons.root / "orders" / "0003").glob("german-*"):
        path.unlink()
    assert run("adjudicate", mons.root, "--missing", "none").rc == 0
    assert run("audit", mons.root).rc == 0  # the archive alone is consistent: only the player can tell
    result = run("verify-view", mons.root / "turns" / "0003" / "german.yaml", "--game", mons.root / "game.yaml",
                 "--ledger", base)
    assert result.rc == 1
    [clash] = [line for line in result.out.splitlines() if "two different referee-signed files" in line]
    assert "view 3 of german" in clash and clash.count("view-0003-german-") >= 2 and "signed proof" in clash
    [dropped] = [line for line in result.out.splitlines() if "calls german missing" in line]
    assert dropped.split(":")[0].endswith(".yaml") and "receipt-0003-german-" in dropped  # the receipt it holds
    assert "acknowledges german's orders orders/0003/" in dropped and "signed proof of misconduct" in dropped


def test_a_view_edited_and_signed_again_is_caught_by_the_audit_and_by_the_next_view(mons: DemoGame) -> None:
    view = referee_edits_a_view(mons)
    audited = run("audit", mons.root)
    assert audited.rc == 1 and "turns/0002/german.yaml" in audited.out and "not the filter of" in audited.out
    views = [mons.root / "views" / "0000" / "german.yaml", *sorted(mons.root.glob("turns/*/german.yaml"))]
    checked = run("verify-view", *views, "--game", mons.root / "game.yaml",
                  "--ledger", mons.root.parent / "fresh-ledger")
    assert checked.rc == 1 and "turns/0003/german.yaml: previous_view" in checked.out


def test_a_second_game_yaml_with_another_chain_is_an_equivocation(mons: DemoGame, tmp_path: Path) -> None:
    base = german_ledger(mons)
    keys = tmp_path / "keys"
    again = run("new", TOC_SCENARIO, "--id", "demo-toc", "--referee-key", keys / "referee",
                "--side", f"german={keys / 'german.pub'}", "--side", f"british={keys / 'british.pub'}",
                "--dir", tmp_path / "again")
    assert again.rc == 0, again.text
    fresh_view = tmp_path / "again" / "views" / "0000" / "german.yaml"
    result = run("verify-view", fresh_view, "--game", mons.root / "game.yaml", "--ledger", base)
    assert result.rc == 1
    assert "view 0 is not bound to this game.yaml" in result.out
    assert "view 0 of german" in result.out and "signed proof" in result.out


def test_a_dishonest_player_is_refused_with_what_would_be_legal(mons: DemoGame, tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    old = tmp_path / "mail" / "german" / "orders-0001.yaml"
    replayed = run("submit", mons.root, old)
    assert replayed.rc == 1 and "seq 1 is an old file (replayed?)" in replayed.out and "legal: 4" in replayed.out
    # the British player signs orders that say they are the German side's
    forged = tmp_path / "forged.yaml"
    assert run("bot", mons.root, "--side", "german", "--key", keys / "german", "--out", forged).rc == 0
    Path(str(forged) + ".sig").unlink()
    refused = run("sign", forged, "--key", keys / "british", "--game", mons.root / "game.yaml")
    assert refused.rc == 2 and "legal: german's key" in refused.err
    assert run("sign", forged, "--key", keys / "british").rc == 0  # without --game nothing stops the signing
    taken = run("submit", mons.root, forged)
    assert taken.rc == 1 and "signed with british's key" in taken.out and "legal: german's key" in taken.out
    # a file signed for another game
    other = tmp_path / "other"
    assert run("new", TOC_SCENARIO, "--id", "mons-other", "--referee-key", keys / "referee",
               "--side", f"german={keys / 'german.pub'}", "--side", f"british={keys / 'british.pub'}",
               "--dir", other).rc == 0
    assert run("bot", other, "--side", "german", "--key", keys / "german", "--out", tmp_path / "o.yaml").rc == 0
    wrong_game = run("submit", mons.root, tmp_path / "o.yaml")
    assert wrong_game.rc == 1 and "signed for game 'mons-other', this is game 'demo-toc'" in wrong_game.out
    assert not list((mons.root / "orders").glob("0004/*"))  # nothing of it was kept


# --- the newcomer: starting a game -------------------------------------------------------------------------------


def test_a_private_key_given_for_a_side_is_refused_naming_the_file_and_the_pub(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    for name in ("referee", "german", "british"):
        assert run("keygen", name, "--out", keys).rc == 0
    result = run("new", TOC_SCENARIO, "--id", "mons-keys", "--referee-key", keys / "referee",
                 "--side", f"german={keys / 'german'}", "--side", f"british={keys / 'british.pub'}",
                 "--dir", tmp_path / "game")
    assert result.rc == 2 and not (tmp_path / "game").exists()
    assert "german" in result.err and str(keys / "german.pub") in result.err, result.err


# --- the docs a newcomer copies from ------------------------------------------------------------------------------


@pytest.mark.parametrize("page, ruleset_id, topic", [("fbsm.md", "fbsm", "advance"),
                                                     ("toc.md", "toc", "defensive_fire"),
                                                     ("cli.md", "toc", "defensive_fire")])
def test_the_decision_options_in_the_docs_are_shown_as_pbem_decide_shows_them(page: str, ruleset_id: str,
                                                                              topic: str) -> None:
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    block = re.search(r"```yaml\noptions:\n(.*?)```", text, re.DOTALL)
    assert block is not None, f"docs/{page} has no options example"
    shown = [line.strip() for line in block.group(1).splitlines() if line.strip()]
    listed = yaml.safe_load("\n".join(line.split("  #")[0] for line in shown))
    options = [listed[number] for number in sorted(listed)]
    named = request_names({"topic": topic, "options": options}, get_ruleset(ruleset_id).option_name)
    assert shown == lines(options, named)


def test_every_order_of_the_toc_page_is_an_order_of_some_phase() -> None:
    """docs/toc.md's orders example, read as pbem reads an orders file: each order and the standing answers fit."""
    text = (REPO / "docs" / "toc.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(orders:\n.*?)```", text, re.DOTALL)
    assert block is not None
    example = yamlio.load_bytes(block.group(1).encode("utf-8"), "docs/toc.md").data
    toc = get_ruleset("toc")
    phases = ("german-movement", "german-combat", "british-first", "british-second")
    for order in example["orders"]:
        fits = [phase for phase in phases if jsonschema.Draft202012Validator(toc.order_schema(phase)).is_valid([order])]
        assert fits, f"docs/toc.md: {order} is no phase's order"
    assert jsonschema.Draft202012Validator(toc.standing_schema()).is_valid(example["standing"])


def test_the_first_german_template_shows_how_to_write_an_entry(tmp_path: Path) -> None:
    out = tmp_path / "orders.yaml"
    made = run("orders", TOC_SAMPLE / "views" / "0000" / "german.yaml", "--out", out)
    assert made.rc == 0, made.text
    hints = [line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    assert any("may enter now" in line for line in hints)  # the control: entries are listed
    assert any("{move: [" in line for line in hints), "\n".join(hints)


@pytest.mark.parametrize("ruleset_id", ["fbsm", "toc", "bob", "bst", "wtj1916"])
def test_the_reason_a_sample_game_ended_is_in_words(ruleset_id: str) -> None:
    game = REPO / "samples" / ruleset_id / "game"
    last = sorted((game / "turns").iterdir())[-1]
    turn = yamlio.load_bytes((last / "turn.yaml").read_bytes(), "turn").data
    reason = turn["next"]["result"]["reason"]
    assert reason and not any(mark in reason for mark in "{}[]'"), reason


# --- the curious opponent: bob's conceal markers -----------------------------------------------------------------


def bob_markers_after_setup(work: Path, trial: int) -> dict[str, str]:
    """The German markers after a set-up that moves G1 (concealed) into 0603, where the decoy GD1 stands and stays.

    Each trial differs only in the German file's entropy and salt: what the American cannot know.
    """
    game = setup_demo("bob", BOB_SCENARIO, work, say=lambda _: None, seed=b"bob markers")
    view = read_view(game.root / "views" / "0000" / "german.yaml")
    doc = orders_document(view, [{"place": "G1", "hex": "0603", "concealed": True}],
                          entropy=bytes([trial]) * 32, salt=bytes([trial + 100]) * 32)
    data = yamlio.dump(doc).encode("utf-8")
    orders = work / "german-setup.yaml"
    orders.write_bytes(data)
    Path(str(orders) + ".sig").write_text(signing.sign(data, game.players["german"], signing.namespace(
        "orders", "demo-bob")), encoding="utf-8")
    assert not submit(game.root, orders, referee_key=game.referee, now=game.clock).errors
    game.play_orders("american")
    assert adjudicate(game.root, game.referee, now=game.clock).committed
    turn = yamlio.load_bytes((game.root / "turns" / "0001" / "turn.yaml").read_bytes(), "turn").data
    return {uid: unit["marker"] for uid, unit in turn["state"]["units"].items() if uid in ("G1", "GD1")}


def test_a_markers_number_does_not_tell_the_decoy_from_the_unit_moved_in(tmp_path: Path) -> None:
    decoy_higher = set()
    for trial in range(8):
        markers = bob_markers_after_setup(tmp_path / f"trial-{trial}", trial)
        number = {uid: int(marker.rsplit("-", 1)[1]) for uid, marker in markers.items()}
        decoy_higher.add(number["GD1"] > number["G1"])
    assert decoy_higher == {True, False}, "the decoy's marker number follows from the set-up, not from chance"


CITED_TEST = re.compile(r"\btests/[A-Za-z0-9_/.-]+\.py(?:::[A-Za-z0-9_]+)?")
PAGES = sorted({*(REPO / "docs").glob("*.md"), REPO / "README.md", REPO / "bench" / "README.md",
                REPO / "samples" / "README.md"})


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_test_a_page_cites_exists(page: Path) -> None:
    missing = []
    for cited in sorted(set(CITED_TEST.findall(page.read_text(encoding="utf-8")))):
        path, _, name = cited.partition("::")
        if not (REPO / path).is_file():
            missing.append(cited)
        elif name and not re.search(rf"^\s*def {name}\(", (REPO / path).read_text(encoding="utf-8"), re.MULTILINE):
            missing.append(cited)
    assert missing == [], f"{page.relative_to(REPO)} cites what is not there"


# --- messages that do not yet say enough -------------------------------------------------------------------------


def test_a_broken_view_chain_names_the_view_it_should_follow(mons: DemoGame) -> None:
    views = [referee_edits_a_view(mons), mons.root / "turns" / "0003" / "german.yaml"]
    checked = run("verify-view", *views, "--game", mons.root / "game.yaml", "--ledger", mons.root.parent / "ledger")
    [line] = [line for line in checked.out.splitlines() if "previous_view" in line]
    assert str(views[0]) in line and chance.file_hash(views[0].read_bytes()) in line, line


def test_an_unknown_unit_in_a_toc_move_is_answered_with_the_units_that_may_move(tmp_path: Path) -> None:
    orders = german_orders_with_path(tmp_path, '["3100", "3001"]')
    orders.write_text(orders.read_text(encoding="utf-8").replace("G-IR12", "G-IR99"), encoding="utf-8")
    result = run("check", TOC_SAMPLE / "views" / "0000" / "german.yaml", orders)
    assert result.rc == 1 and "G-IR99 is not a german unit" in result.out
    assert "legal:" in result.out and "G-IR12" in result.out, result.out


def test_a_file_the_ledger_does_not_keep_is_named_once(mons: DemoGame, tmp_path: Path) -> None:
    orders = tmp_path / "mail" / "german" / "orders-0001.yaml"
    result = run("ledger", "add", orders, "--game", mons.root / "game.yaml", "--ledger", tmp_path / "ledger")
    assert result.rc == 1
    [line] = [line for line in result.err.splitlines() if line.startswith("not kept")]
    assert line.count(str(orders)) == 1, line
    assert "a ledger keeps only files this game's referee signed" in result.err and "legal: game, view" in result.err


def test_a_signature_given_to_the_ledger_is_answered_with_the_file_it_signs(mons: DemoGame, tmp_path: Path) -> None:
    signature = mons.root / "turns" / "0001" / "german.yaml.sig"
    result = run("ledger", "add", signature, "--game", mons.root / "game.yaml", "--ledger", tmp_path / "ledger")
    assert result.rc == 1 and f"legal: {mons.root / 'turns' / '0001' / 'german.yaml'}" in result.err, result.err
    held = sorted(path.name for path in (tmp_path / "ledger" / "demo-toc").iterdir())
    assert all(name.startswith("game-") for name in held), held  # only the game.yaml every ledger starts from


@pytest.mark.parametrize("order, section, could", [({"bombard": "3106", "with": ["G-FA99"]}, "10.1", "G-FA18"),
                                                   ({"melee": "3106", "with": ["G-IR99"]}, "12.1", "G-IR8")])
def test_an_unknown_unit_in_a_toc_attack_is_answered_with_the_units_that_could(order: dict[str, Any], section: str,
                                                                              could: str) -> None:
    """The German artillery G-FA18 two hexes from the British B-RF, the infantry G-IR8 next to it (toc 10.1, 12.1)."""
    rules, state = situation({"scenario": "samples/toc/scenario.yaml",
                              "state": {"phase": "german-combat", "turn": 3,
                                        "units": {"G-FA18": {"hex": "3104"}, "G-IR8": {"hex": "3105"},
                                                  "B-RF": {"hex": "3106"}}}}, REPO)
    [problem] = rules.validate(rules.view(state, "german"), "german", [order])
    assert problem.section == section and "is not a german unit on the map" in problem.message
    assert problem.legal == could, problem
