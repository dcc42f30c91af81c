"""A `status` mail tells nobody which games the judge holds (docs/mail.md, step 3).

`status GAME-ID` answers anyone with that game's public status (what every side's view says). A bare
`status`, or one naming a game the judge does not hold, lists only the games in which the sender's
address is a side's: a stranger gets no game id, no status and no count, only how to ask.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.game import load_game
from pbem.core.status import status
from pbem.mail.intake import MailIntake, Served
from pbem.mail.message import parse
from tests import test_mail_kit
from tests.test_mail_kit import ADDRESSES, World, make_world, maildir_judge, plain_mail, take_outbox, body_text, \
    deliver, recipients

RED = ADDRESSES["red"]
CAROL = "carol@players.test"  # red in the third game only
STRANGER = "mallory@elsewhere.test"


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, World]:
    """Three games: red@ plays in duel-one and duel-two, carol@ (and not red@) in duel-six."""
    made = {game_id: make_world(tmp_path_factory.mktemp(game_id), game_id=game_id)
            for game_id in ("duel-one", "duel-two")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(test_mail_kit.ADDRESSES, "red", CAROL)
        made["duel-six"] = make_world(tmp_path_factory.mktemp("duel-six"), game_id="duel-six")
    return made


def asked(worlds: dict[str, World], sender: str, subject: str) -> str:
    """The judge's whole answer to one mail `subject` from `sender` (the intake of a judge holding every game)."""
    served = [Served(world.root, load_game(world.root)) for world in worlds.values()]
    intake = MailIntake(served, worlds["duel-one"].root, 32)
    outcome = intake.handle(parse(plain_mail(sender, subject, "")))
    assert outcome.handled and outcome.reason == "answered"
    [answer] = outcome.answers
    assert answer.to == sender
    return "\n\n".join(answer.lines)


def public(world: World) -> str:
    return status(world.root, public=True)


def test_a_strangers_bare_status_names_no_game(worlds: dict[str, World]) -> None:
    for subject in ("status", "Re: STATUS", "status duel-nine"):
        text = asked(worlds, STRANGER, subject)
        for game_id in worlds:
            assert game_id not in text, (subject, text)
        assert "owes orders" not in text and "phase" not in text
        assert "write 'status GAME-ID' as the subject" in text
    assert "this judge runs no game 'duel-nine'" in asked(worlds, STRANGER, "status duel-nine")


def test_a_players_bare_status_lists_its_own_games_only(worlds: dict[str, World]) -> None:
    text = asked(worlds, RED.upper(), "status")  # matched as the judge matches senders: case aside
    assert text == "\n\n".join([public(worlds["duel-one"]), public(worlds["duel-two"])])
    assert "duel-six" not in text
    assert asked(worlds, CAROL, "status") == public(worlds["duel-six"])
    # a game it does not hold: said, then the sender's own games
    text = asked(worlds, CAROL, "status duel-nine")
    assert text == "\n\n".join([f"this judge runs no game 'duel-nine' for {CAROL}", public(worlds["duel-six"])])


def test_status_of_a_named_game_answers_anyone(worlds: dict[str, World]) -> None:
    for sender in (STRANGER, RED, CAROL):
        assert asked(worlds, sender, "status duel-six") == public(worlds["duel-six"])
        assert asked(worlds, sender, "status duel-one") == public(worlds["duel-one"])


def test_a_one_game_judge_answers_a_stranger_the_same_way(tmp_path: Path) -> None:
    """End to end through a Maildir judge: the stranger's answer is mailed, and holds no game id."""
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    maildir_judge(world, maildir).run(once=True)
    take_outbox(maildir)
    deliver(maildir, plain_mail(STRANGER, "status", ""))
    deliver(maildir, plain_mail(RED, "status", ""))
    maildir_judge(world, maildir).run(once=True)
    answers = {address: body_text(raw) for raw in take_outbox(maildir) for address in recipients(raw)}
    assert sorted(answers) == sorted([STRANGER, RED])
    assert world.game_id not in answers[STRANGER] and "owes orders" not in answers[STRANGER]
    assert public(world) in answers[RED]
