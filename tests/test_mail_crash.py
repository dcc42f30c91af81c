"""A stop at any instant loses nothing and never answers one Message-ID twice.

A whole game is played by mail while one step of the judge is made to fail once (as a kill
would stop it there); the judge is then simply started again. The game must finish, pass the
audit, every mail a bot sent must have been answered, and no answer may have gone out twice,
except in the one window no mail system can close (after the server took a mail, before the
judge recorded it: the same Message-ID then goes again, and mail clients show it once).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest

from pbem.core.audit import audit
from pbem.core.game import load_game
from pbem.core.position import current_position
from pbem.mail import intake as mail_intake
from pbem.mail import judge as mail_judge
from pbem.mail.judge import Judge
from pbem.mail.maildir import MaildirInbox, MaildirOutbox
from pbem.mail.state import JudgeState, Queued
from tests.test_mail_kit import JUDGE, deliver, make_world, parse_mail, recipients, take_outbox


class Crash(BaseException):
    """A stop in the middle (BaseException, like KeyboardInterrupt: nothing may swallow it)."""


class CountingOutbox(MaildirOutbox):
    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.sent: Counter[str] = Counter()

    def send(self, item: Queued, envelope_from: str) -> str | None:
        self.sent[item.message_id] += 1
        return super().send(item, envelope_from)


def crash_once(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, at: int, after: bool) -> None:
    original: Callable[..., Any] = getattr(owner, name)
    calls = {"n": 0}

    def wrapper(*args: Any, **kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == at and not after:
            raise Crash(name)
        result = original(*args, **kw)
        if calls["n"] == at and after:
            raise Crash(name)
        return result

    monkeypatch.setattr(owner, name, wrapper)


POINTS = [
    (mail_intake, "submit", 3, True),  # the archive has the file, no answer queued yet
    (JudgeState, "queue", 4, True),  # an answer queued, the mail not yet recorded
    (JudgeState, "record", 5, True),  # recorded in memory, not saved
    (MaildirInbox, "file", 2, False),  # recorded and saved, still in the inbox
    (mail_judge, "adjudicate", 2, True),  # a turn committed, nothing announced
    (JudgeState, "announce", 3, True),  # results queued, not all recorded as announced
    (CountingOutbox, "send", 6, False),  # before the server took it
    (JudgeState, "mark_sent", 7, False),  # after the server took it: the one window
]


@pytest.mark.parametrize("owner, name, at, after", POINTS, ids=[f"{p[1]}-{p[2]}-{'after' if p[3] else 'before'}"
                                                               for p in POINTS])
def test_stop_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, at: int,
                       after: bool) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    outbox = CountingOutbox(maildir / "outbox")
    players = {side: world.player(side) for side in world.sides}
    by_address = {p.address: p for p in players.values()}
    crash_once(monkeypatch, owner, name, at, after)
    crashes = 0
    sent_by_bots: list[str] = []
    answered: Counter[str] = Counter()
    for _ in range(300):
        judge = Judge([world.root], MaildirInbox(maildir, poll_seconds=0.01), outbox,
                      referee_key=lambda _: world.referee, address=JUDGE, now=world.clock, log=lambda _: None)
        try:
            judge.run(once=True)
        except Crash:
            crashes += 1
        out = take_outbox(maildir)
        for raw in out:
            message = parse_mail(raw)
            if message["In-Reply-To"]:
                answered[str(message["In-Reply-To"])] += 1
            for address in recipients(raw):
                for reply in by_address[address].receive(raw):
                    sent_by_bots.append(str(parse_mail(reply)["Message-ID"]))
                    deliver(maildir, reply)
        if not out and not any((maildir / "new").iterdir()) and crashes and current_position(
                load_game(world.root)).over():
            break
    assert crashes == 1
    assert current_position(load_game(world.root)).over()
    assert audit(world.root) == []
    assert set(sent_by_bots) <= set(answered), "a mail was never answered"
    twice = {mid: n for mid, n in outbox.sent.items() if n > 1}
    if name == "mark_sent":
        assert len(twice) <= 1
    else:
        assert twice == {}
    assert not any((maildir / "new").iterdir()) and not any((maildir / "cur").iterdir())
