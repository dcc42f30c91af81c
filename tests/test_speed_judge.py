"""The judge looks at a game only when something happened to it (issue #17): mail, a new file, a deadline.

A game whose last look found nothing to do is remembered as quiet, with the modification times of
the folders every change to it goes through and its next reminder or deadline; until one of
those changes or comes, a poll round costs it a few `stat` calls (bench/judge.py measures it).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from pbem.mail.judge import Judge, JudgedGame
from tests.test_mail_kit import (ADDRESSES, World, deliver, make_world, maildir_judge, plain_mail, signed_orders,
                                 take_outbox)


def settle(root: Path) -> None:
    """Date every folder of the game ten seconds back (as if nothing had been written for a while)."""
    past = time.time() - 10
    for folder, _, _ in os.walk(root):
        os.utime(folder, (past, past))


def counted(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    looked: list[str] = []
    original = judge._tick

    def tick(game: JudgedGame) -> Any:
        looked.append(game.id)
        return original(game)

    monkeypatch.setattr(judge, "_tick", tick)
    return looked


@pytest.fixture()
def quiet_world(tmp_path: Path) -> tuple[World, Path, Judge]:
    world = make_world(tmp_path, settings={"deadline": "48h", "reminder": "12h"})
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    judge.run(once=True)
    take_outbox(maildir)  # the welcomes
    settle(world.root)
    judge.round()  # a look that finds nothing to do
    assert judge.games[0].quiet is not None
    return world, maildir, judge


def test_a_quiet_game_is_not_looked_at_again(quiet_world: tuple[World, Path, Judge],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    world, maildir, judge = quiet_world
    looked = counted(judge, monkeypatch)
    for _ in range(3):
        judge.round()
    assert looked == []
    assert take_outbox(maildir) == []


def test_orders_by_mail_wake_the_game(quiet_world: tuple[World, Path, Judge], monkeypatch: pytest.MonkeyPatch) -> None:
    world, maildir, judge = quiet_world
    looked = counted(judge, monkeypatch)
    for side, cell in (("red", 2), ("blue", 4)):
        data, sig = signed_orders(world, side, [{"place": "hq", "cell": cell}])
        deliver(maildir, plain_mail(ADDRESSES[side], "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    report = judge.round()
    assert looked == [world.game_id]
    assert report.adjudicated and report.adjudicated[0].startswith("adjudication 1 done")


def test_a_file_written_by_another_command_wakes_the_game(quiet_world: tuple[World, Path, Judge],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    world, _, judge = quiet_world
    looked = counted(judge, monkeypatch)
    (world.root / "orders").mkdir(exist_ok=True)  # what `pbem submit` run by hand does first
    judge.round()
    assert looked == [world.game_id]


def test_the_reminder_time_wakes_the_game(quiet_world: tuple[World, Path, Judge],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    world, maildir, judge = quiet_world
    looked = counted(judge, monkeypatch)
    world.clock.advance(hours=35)
    judge.round()
    assert looked == []
    world.clock.advance(hours=2)  # past the reminder (36 h)
    judge.round()
    assert looked == [world.game_id]
    assert len(take_outbox(maildir)) == 2  # one reminder to each side


def test_a_recently_changed_game_is_always_looked_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = make_world(tmp_path, settings={"deadline": "48h"})
    judge = maildir_judge(world, tmp_path / "Maildir")
    judge.run(once=True)
    looked = counted(judge, monkeypatch)
    judge.round()
    judge.round()
    assert looked == [world.game_id] * 2  # its folders are younger than a coarse file-system clock's tick
