"""Deadlines and reminders (settings.deadline in game.yaml), with a clock the test moves."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from pbem.core.archive import Archive
from pbem.core.audit import audit
from pbem.core.errors import PbemError
from pbem.core.position import load_turn
from pbem.core.game import load_game
from pbem.mail.deadlines import parse_duration, schedule
from tests.test_mail_kit import (ADDRESSES, attachments, body_text, deliver, make_world, maildir_judge, parse_mail, plain_mail,
                                 recipients, signed_orders, take_outbox,
                                 welcome_then_mail_empty_orders)


def test_durations() -> None:
    assert parse_duration("72h") == datetime.timedelta(hours=72)
    assert parse_duration("2d12h") == datetime.timedelta(hours=60)
    assert parse_duration("1w") == datetime.timedelta(days=7)
    assert parse_duration("90m") == datetime.timedelta(minutes=90)
    for bad in ("", "3", "3 days", "-1h", "0h", "h"):
        with pytest.raises(PbemError):
            parse_duration(bad)
    plan = schedule({"deadline": "48h"})
    assert plan is not None and plan.reminder == datetime.timedelta(hours=12)
    plan = schedule({"deadline": "8d"})
    assert plan is not None and plan.reminder == datetime.timedelta(hours=24)
    assert schedule({}) is None
    with pytest.raises(PbemError):
        schedule({"deadline": "10h", "reminder": "12h"})


def test_reminder_then_adjudication_with_missing_orders(tmp_path: Path) -> None:
    world = make_world(tmp_path, settings={"deadline": "48h", "reminder": "12h"})
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    judge.run(once=True)
    welcome = take_outbox(maildir)
    assert "Deadline: 2026-03-03T12:00:00Z" in body_text(welcome[0])
    data, sig = signed_orders(world, "red", [{"place": "hq", "cell": 2}])
    deliver(maildir, plain_mail(ADDRESSES["red"], "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    world.clock.advance(hours=30)
    judge.run(once=True)
    assert [recipients(m) for m in take_outbox(maildir)] == [[ADDRESSES["red"]]]  # the receipt only
    world.clock.advance(hours=7)  # 37 h: past the reminder time (36 h)
    judge.run(once=True)
    [reminder] = take_outbox(maildir)
    assert recipients(reminder) == [ADDRESSES["blue"]]
    assert "Reminder" in body_text(reminder) and "2026-03-03T12:00:00Z" in body_text(reminder)
    judge.run(once=True)
    assert take_outbox(maildir) == []  # one reminder only
    world.clock.advance(hours=10, minutes=59)
    judge.run(once=True)
    assert take_outbox(maildir) == [] and Archive(world.root).latest_seq() == 0
    world.clock.advance(minutes=2)
    judge.run(once=True)
    results = take_outbox(maildir)
    assert sorted(r for m in results for r in recipients(m)) == sorted(ADDRESSES[s] for s in ("red", "blue"))
    assert all("deadline passed with no orders from blue" in body_text(m) for m in results)
    assert parse_mail(results[0])["Auto-Submitted"] == "auto-generated"
    game = load_game(world.root)
    turn, _ = load_turn(Archive(world.root), game, 1)
    assert [(o["side"], o["status"]) for o in turn["orders"]] == [("red", "submitted"), ("blue", "missing")]
    assert audit(world.root) == []
    # The clock of seq 2 starts now: 48 h from the results.
    assert "Deadline: 2026-03-05T12:01:00Z" in body_text(results[0])


def test_a_judge_started_late_holds_the_deadline_view_0_signed(tmp_path: Path) -> None:
    """`pbem new --deadline` signs the first deadline into view 0 and the core refuses orders after it:
    a judge started a day later announces and keeps that same deadline, not one of its own."""
    from pbem.core import yamlio

    world = make_world(tmp_path, settings={"deadline": "48h", "reminder": "12h"})
    signed = yamlio.load_file(world.root / "views/0000/red.yaml").data["next"]["deadline"]
    assert signed == "2026-03-03T12:00:00Z"  # 48 h after `pbem new`
    maildir = tmp_path / "Maildir"
    world.clock.advance(hours=24)
    judge = maildir_judge(world, maildir)
    judge.run(once=True)
    welcome = take_outbox(maildir)
    assert all(f"Deadline: {signed} (UTC)" in body_text(m) for m in welcome)
    world.clock.advance(hours=13)  # 37 h after `pbem new`: past the reminder time of the signed deadline
    judge.run(once=True)
    reminders = take_outbox(maildir)
    assert sorted(r for m in reminders for r in recipients(m)) == sorted([ADDRESSES["red"], ADDRESSES["blue"]])
    assert all(f"The deadline is {signed} (UTC)" in body_text(m) for m in reminders)
    world.clock.advance(hours=11, minutes=1)  # just past the signed deadline
    judge.run(once=True)
    turn, _ = load_turn(Archive(world.root), load_game(world.root), 1)
    assert [(o["side"], o["status"]) for o in turn["orders"]] == [("red", "missing"), ("blue", "missing")]


def test_bad_deadline_is_refused_at_start(tmp_path: Path) -> None:
    """game.yaml's schema refuses it when the game is made, before any judge runs."""
    with pytest.raises(PbemError, match="settings.deadline"):
        make_world(tmp_path, settings={"deadline": "soon"})


def test_a_decision_request_has_a_deadline_then_takes_the_rules_default(tmp_path: Path) -> None:
    from pbem.core import chance, signing, yamlio
    from tests.test_hostile_input import TwoAsks, reply

    scenario = tmp_path / "two.yaml"
    scenario.write_text(f"pbem: 1\nkind: scenario\nruleset: {TwoAsks.id}\ntitle: two asks\nsetup: {{}}\n")
    world = make_world(tmp_path, ruleset_scenario=scenario, game_id="two-mail",
                       settings={"deadline": "48h", "reminder": "12h"})
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    welcome_then_mail_empty_orders(world, maildir, judge)
    world.clock.advance(hours=1)
    judge.run(once=True)
    asked = [m for m in take_outbox(maildir) if "your decision is needed" in parse_mail(m)["Subject"]]
    assert [recipients(m) for m in asked] == [[ADDRESSES["blue"]]]
    assert "Deadline: 2026-03-03T13:00:00Z" in body_text(asked[0])  # 48 h from the request, not from seq 1
    assert "the first option, left, applies" in body_text(asked[0])
    # the options as the player gives them (number, option as YAML), never as Python writes them
    assert "    options:\n      1: left" in body_text(asked[0]) and "['" not in body_text(asked[0])
    assert "pbem decide two-mail-0001-request-000.yaml --answer NUMBER" in body_text(asked[0])
    world.clock.advance(hours=37)  # past the reminder (36 h after the request)
    judge.run(once=True)
    [reminder] = take_outbox(maildir)
    assert recipients(reminder) == [ADDRESSES["blue"]] and "decision request 0" in body_text(reminder)
    assert "first option applies" in body_text(reminder)
    # the reminder carries the request again, under the name it went out with, not the referee's path
    name = "two-mail-0001-request-000.yaml"
    assert "decisions/" not in body_text(reminder) and f"pbem decide {name} " in body_text(reminder)
    files = attachments(reminder)
    assert sorted(files) == [name, name + ".sig"]
    assert files[name] == (world.root / "decisions/0001/request-000.yaml").read_bytes()
    signing.verify(files[name], files[name + ".sig"].decode(), "pbem-turn@two-mail",
                   {"referee": world.referee.public_line})
    world.clock.advance(hours=11, minutes=1)  # past the deadline: blue's retreat lapses to "left"
    judge.run(once=True)
    lapse = yamlio.load_file(world.root / "decisions/0001/lapse-000.yaml").data
    assert lapse["answer"] == "left"
    asked = [m for m in take_outbox(maildir) if "your decision is needed" in parse_mail(m)["Subject"]]
    assert [recipients(m) for m in asked] == [[ADDRESSES["red"]]]  # red's own question, with its own clock
    request = chance.file_hash((world.root / "decisions/0001/request-001.yaml").read_bytes())
    answer = reply("red", request, "stay", seq=1, game="two-mail")
    sig = signing.sign(answer, world.keys["red"], signing.namespace("orders", "two-mail"))
    deliver(maildir, plain_mail(ADDRESSES["red"], "reply", "x", files={"r.yaml": answer, "r.yaml.sig": sig.encode()}))
    judge.run(once=True)
    turn, _ = load_turn(Archive(world.root), load_game(world.root), 1)
    assert turn["state"]["log"] == ["left", "stay"]
    assert audit(world.root) == []


def test_a_judge_taking_over_with_a_request_out_starts_its_clock(tmp_path: Path) -> None:
    """The referee ran seq 1 by hand up to blue's decision request, then handed the game to the judge."""
    from pbem.core import signing, yamlio
    from pbem.core.adjudicator import adjudicate
    from pbem.core.intake import submit
    from pbem.core.players import orders_document, read_view
    from tests.test_hostile_input import TwoAsks

    scenario = tmp_path / "two.yaml"
    scenario.write_text(f"pbem: 1\nkind: scenario\nruleset: {TwoAsks.id}\ntitle: two asks\nsetup: {{}}\n")
    world = make_world(tmp_path, ruleset_scenario=scenario, game_id="two-mail",
                       settings={"deadline": "48h", "reminder": "12h"})
    for side in ("red", "blue"):
        data = yamlio.dump(orders_document(read_view(world.root / f"views/0000/{side}.yaml"), [])).encode()
        path = tmp_path / f"{side}.yaml"
        path.write_bytes(data)
        path.with_name(path.name + ".sig").write_text(signing.sign(data, world.keys[side], "pbem-orders@two-mail"))
        assert submit(world.root, path, now=world.clock).receipts
    assert "waits for a decision from blue" in adjudicate(world.root, world.referee, now=world.clock).message
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    judge.run(once=True)
    take_outbox(maildir)
    world.clock.advance(hours=37)
    judge.run(once=True)
    assert [recipients(m) for m in take_outbox(maildir)] == [[ADDRESSES["blue"]]]  # the reminder
    world.clock.advance(hours=12)
    judge.run(once=True)
    assert [index for index, _ in Archive(world.root).decision_lapses(1)] == [0]
