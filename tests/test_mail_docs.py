"""What docs/mail.md tells a referee, tried: the `sendmail -t` cron job and the Maildir poll."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pbem.mail import maildir as maildir_module
from pbem.mail.state import JudgeState
from tests.test_mail_cli import pbem
from tests.test_mail_kit import JUDGE, deliver, make_world, maildir_judge, plain_mail

DOC = Path(__file__).resolve().parent.parent / "docs" / "mail.md"


def cron_script() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Sending the outbox with `sendmail -t`"):]
    found = re.search(r"```sh\n(#!/bin/sh\n.*?)```", section, re.DOTALL)
    assert found is not None, "docs/mail.md: the cron job's script is missing"
    return found.group(1)


@pytest.mark.skipif(shutil.which("flock") is None, reason="the documented script uses flock (util-linux)")
def test_the_documented_cron_job_sends_each_answer_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = make_world(tmp_path)
    home = tmp_path / "home"
    maildir = home / "Maildir"
    sent_log = tmp_path / "sent"
    fake = tmp_path / "sendmail"
    # a sendmail that records what it was given (one line per mail: its Message-ID), failing when told to
    fake.write_text(f'#!/bin/sh\n[ -e "{tmp_path}/down" ] && exit 75\n'
                    f'grep -m1 -i "^Message-ID:" >> "{sent_log}"\n')
    fake.chmod(0o755)
    script = tmp_path / "send-pbem-outbox"
    script.write_text(cron_script().replace("/usr/sbin/sendmail", str(fake)))
    script.chmod(0o755)

    def cron(ok: bool = True) -> list[str]:
        done = subprocess.run([str(script)], env={"HOME": str(home), "PATH": "/usr/bin:/bin"}, timeout=60)
        assert (done.returncode == 0) == ok  # a run that could not send says so (cron mails it to the owner)
        return sent_log.read_text().splitlines() if sent_log.exists() else []

    # The judge writes its two welcomes into the outbox and stops before it records them as sent.
    with monkeypatch.context() as patch:
        patch.setattr(JudgeState, "mark_sent", lambda self, item, when: None)
        maildir_judge(world, maildir).run(once=True)
    (tmp_path / "down").touch()
    assert cron(ok=False) == []  # the server is down: nothing moves, nothing is lost
    assert len(list((maildir / "outbox" / "new").glob("pbem-*"))) == 2
    (tmp_path / "down").unlink()
    first = cron()
    assert len(first) == 2 and len(set(first)) == 2
    assert not any((maildir / "outbox" / "new").iterdir())
    assert len(list((maildir / "outbox" / "cur").iterdir())) == 2
    assert cron() == first  # a second run sends nothing again
    # After the restart the judge sends its unrecorded welcomes again: the outbox does not take an
    # answer the agent already moved to cur/, so only the new answer goes out.
    deliver(maildir, plain_mail("x@players.test", "status", ""))
    maildir_judge(world, maildir).run(once=True)
    after = cron()
    assert after[:2] == first and len(after) == 3
    assert not (world.root / ".referee" / "mail-outbox").exists() or not any(
        (world.root / ".referee" / "mail-outbox").iterdir())  # and now every answer is recorded as sent


def test_the_maildir_is_looked_at_every_5_seconds_at_most(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "at least every 5\nseconds" in DOC.read_text(encoding="utf-8") or "at least every 5 seconds" in \
        DOC.read_text(encoding="utf-8")
    made: list[float] = []
    real = maildir_module.MaildirInbox

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, root: Path | str, poll_seconds: float = 5.0) -> None:
            made.append(poll_seconds)
            super().__init__(root, poll_seconds)

    monkeypatch.setattr(maildir_module, "MaildirInbox", Recording)
    world = make_world(tmp_path)
    for poll in ("60", "2"):
        rc, _, err = pbem("judge", world.root, "--maildir", tmp_path / "Maildir", "--once", "--address", JUDGE,
                          "--poll", poll)
        assert rc == 0, err
    assert made == [5.0, 2.0]
