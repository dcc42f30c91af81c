"""The judge over a Maildir: a whole game by mail, answers as a mail client sees them, crash safety."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.audit import audit
from pbem.core.game import load_game
from pbem.core.position import current_position
from tests.test_mail_kit import ADDRESSES, JUDGE, body_text, deliver, make_world, parse_mail, play_by_maildir


def test_whole_duel_game_by_maildir(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    players = {side: world.player(side) for side in world.sides}
    mails = play_by_maildir(world, maildir, players)
    position = current_position(load_game(world.root))
    assert position.over(), [p.log for p in players.values()]
    assert audit(world.root) == []
    for raw in mails:
        message = parse_mail(raw)
        assert message["Message-ID"] and message["Date"] and message["Auto-Submitted"]
        assert message["From"] == JUDGE
    assert not any((maildir / "new").iterdir())
    assert len(list((maildir / ".processed" / "cur").iterdir())) > 4


def test_one_judge_serves_two_games(tmp_path: Path) -> None:
    from pbem.core import signing
    from pbem.core.archive import Archive
    from pbem.mail.judge import Judge
    from pbem.mail.maildir import MaildirInbox, MaildirOutbox
    from tests.test_mail_kit import plain_mail, signed_orders, take_outbox

    first = make_world(tmp_path / "a", game_id="duel-one")
    second = make_world(tmp_path / "b", game_id="duel-two")
    maildir = tmp_path / "Maildir"

    def judge() -> Judge:
        keys = {first.root: first.referee, second.root: second.referee}
        return Judge([first.root, second.root], MaildirInbox(maildir), MaildirOutbox(maildir / "outbox"),
                     referee_key=lambda root: keys[root], address=JUDGE, now=first.clock, log=lambda _: None)

    judge().run(once=True)
    assert len(take_outbox(maildir)) == 4  # two welcomes per game
    a, a_sig = signed_orders(first, "red", [{"place": "hq", "cell": 1}])
    b, b_sig = signed_orders(second, "red", [{"place": "hq", "cell": 2}])
    body = (signing.armor(a, a_sig, name="one.yaml") + "\nand for the other game:\n\n"
            + signing.armor(b, b_sig, name="two.yaml") + "\n" + signing.armor(b, b_sig).replace(
                "game: duel-two", "game: duel-six") + "\n")
    deliver(maildir, plain_mail(ADDRESSES["red"], "orders for both", body))
    judge().run(once=True)
    texts = [body_text(raw) for raw in take_outbox(maildir)]
    assert len(texts) == 2  # one answer per game (the unknown game's block is explained in the first)
    joined = "\n".join(texts)
    assert "accepted orders of red for seq 1" in texts[0] and "accepted orders of red for seq 1" in texts[1]
    assert "names game 'duel-six'; this judge runs duel-one, duel-two" in joined
    assert [s for s, _, _ in Archive(first.root).orders_files(1)] == ["red"]
    assert [s for s, _, _ in Archive(second.root).orders_files(1)] == ["red"]


def test_a_second_judge_on_the_same_game_refuses_to_start(tmp_path: Path) -> None:

    from pbem.core.errors import PbemError
    from pbem.mail.state import judge_lock
    from tests.test_mail_kit import maildir_judge

    world = make_world(tmp_path)
    with judge_lock(world.root):
        with pytest.raises(PbemError, match="another judge is serving this game"):
            maildir_judge(world, tmp_path / "Maildir").run(once=True)
    maildir_judge(world, tmp_path / "Maildir").run(once=True)


def test_a_failed_round_is_retried_when_running(tmp_path: Path) -> None:
    from typing import Iterator


    from pbem.mail.judge import Judge
    from pbem.mail.maildir import MaildirInbox, MaildirOutbox
    from pbem.mail.transport import Incoming
    from tests.test_mail_kit import plain_mail, take_outbox

    class Flaky(MaildirInbox):
        failures = 1

        def pending(self) -> Iterator[Incoming]:
            if self.failures:
                self.failures -= 1
                raise OSError("connection reset by the server")
            return super().pending()

    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    deliver(maildir, plain_mail("x@players.test", "status", ""))
    logged: list[str] = []
    judge = Judge([world.root], Flaky(maildir, poll_seconds=0.01), MaildirOutbox(maildir / "outbox"),
                  referee_key=lambda _: world.referee, address=JUDGE, now=world.clock, log=logged.append,
                  poll_seconds=0.01)
    judge.run(max_rounds=2)
    assert any("round failed (connection reset by the server)" in line for line in logged)
    assert len(take_outbox(maildir)) == 3  # two welcomes and the status answer
    with pytest.raises(OSError):
        Judge([world.root], Flaky(maildir), MaildirOutbox(maildir / "outbox"), referee_key=lambda _: world.referee,
              address=JUDGE, now=world.clock, log=logged.append).run(once=True)


def test_results_carry_view_report_map_and_the_referee_copy(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.render
    from pbem.core import signing
    from tests.test_mail_kit import attachments, maildir_judge, plain_mail, recipients, signed_orders, take_outbox

    # The judge sends whatever pbem.render draws and says (the duel fixture itself has no pictures).
    monkeypatch.setattr(pbem.render, "has_map", lambda view: True)
    monkeypatch.setattr(pbem.render, "map_svg", lambda view: f"<svg><!-- {view['side']} --></svg>")
    monkeypatch.setattr(pbem.render, "report_text", lambda view: f"Report for {view['side']}, turn {view['seq']}")
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    maildir_judge(world, maildir, referee_copy="referee@pbem.test").run(once=True)
    take_outbox(maildir)
    for side, cell in (("red", 2), ("blue", 4)):
        data, sig = signed_orders(world, side, [{"place": "hq", "cell": cell}])
        deliver(maildir, plain_mail(ADDRESSES[side], "orders", "x", files={"o.yaml": data, "o.yaml.sig": sig.encode()}))
    maildir_judge(world, maildir, referee_copy="referee@pbem.test").run(once=True)
    mails = take_outbox(maildir)
    by_to = {recipients(raw)[0]: raw for raw in mails if "adjudication 1" in str(parse_mail(raw)["Subject"])
             or "master" in str(parse_mail(raw)["Subject"])}
    red = attachments(by_to[ADDRESSES["red"]])
    assert sorted(red) == ["duel-mail-0001-red-map.svg", "duel-mail-0001-red-report.txt", "duel-mail-0001-red.yaml",
                           "duel-mail-0001-red.yaml.sig"]
    assert red["duel-mail-0001-red-map.svg"] == b"<svg><!-- red --></svg>"
    assert red["duel-mail-0001-red-report.txt"].startswith(b"Report for red, turn 1")
    assert "Report for red, turn 1" in body_text(by_to[ADDRESSES["red"]])
    signing.verify(red["duel-mail-0001-red.yaml"], red["duel-mail-0001-red.yaml.sig"].decode(),
                   "pbem-turn@duel-mail", {"referee": world.referee.public_line})
    master = attachments(by_to["referee@pbem.test"])
    assert sorted(master) == ["duel-mail-0001-turn.yaml", "duel-mail-0001-turn.yaml.sig"]
    assert master["duel-mail-0001-turn.yaml"] == (world.root / "turns/0001/turn.yaml").read_bytes()
