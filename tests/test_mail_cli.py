"""`pbem judge` and `pbem post` from the command line (wired into the `pbem` parser as the lead will)."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pbem.cli import build_parser
from pbem.core.errors import PbemError
from pbem.mail.cli import add_commands
from tests.test_mail_kit import JUDGE, deliver, make_world, plain_mail, recipients, take_outbox

WIRED = """
import sys, argparse
from pbem.cli import build_parser
from pbem.core.errors import PbemError
from pbem.mail.cli import add_commands
parser = build_parser()
sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
if "judge" not in sub.choices:
    add_commands(sub)
args = parser.parse_args(sys.argv[1:])
try:
    sys.exit(args.handler(args))
except PbemError as error:
    print(f"pbem {args.command}: {error}", file=sys.stderr)
    sys.exit(2)
"""


def pbem(*argv: object) -> tuple[int, str, str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if "judge" not in sub.choices:
        add_commands(sub)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = parser.parse_args([str(a) for a in argv])
            rc = args.handler(args)
        except PbemError as error:
            print(f"pbem: {error}", file=sys.stderr)
            rc = 2
        except SystemExit as exit_:
            rc = int(exit_.code or 0)
    return rc, out.getvalue(), err.getvalue()


def test_judge_once_and_post(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    deliver(maildir, plain_mail("someone@players.test", "status", ""))
    rc, _, err = pbem("judge", world.root, "--maildir", maildir, "--once", "--address", JUDGE)
    assert rc == 0, err
    mails = take_outbox(maildir)
    assert sorted(r for m in mails for r in recipients(m)) == sorted(
        ["red@players.test", "blue@players.test", "someone@players.test"])
    rc, out, err = pbem("post", world.root, "--format", "bbcode")
    assert rc == 0 and "[b]" in out and "starting position" in out
    rc, out, _ = pbem("post", world.root, "--out", tmp_path / "post.md")
    assert rc == 0 and (tmp_path / "post.md").read_text().startswith("## duel-mail")


def test_judge_argument_errors(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    rc, _, err = pbem("judge", world.root, "--imap", "imap://u@127.0.0.1:1/INBOX", "--once")
    assert rc == 2 and "--smtp" in err
    rc, _, err = pbem("judge", world.root, "--maildir", tmp_path / "m", "--imap", "imap://x", "--once")
    assert rc == 2 and "not allowed with" in err
    rc, _, err = pbem("judge", world.root, "--imap", "http://x", "--smtp", "smtp://x", "--once")
    assert rc == 2 and "scheme" in err


def test_a_running_judge_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent),
               PBEM_RULESETS="duel=tests.rulesets.duel:Duel")
    process = subprocess.Popen([sys.executable, "-c", WIRED, "judge", str(world.root), "--maildir", str(maildir),
                                "--address", JUDGE, "--poll", "0.2"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300  # keeps a broken judge from hanging the run; not a speed claim
        while time.monotonic() < deadline and len(list((maildir / "outbox" / "new").glob("pbem-*"))) < 2:
            time.sleep(0.05)
        assert len(list((maildir / "outbox" / "new").glob("pbem-*"))) == 2
        deliver(maildir, plain_mail("x@players.test", "status", ""))
        while time.monotonic() < deadline and len(list((maildir / "outbox" / "new").glob("pbem-*"))) < 3:
            time.sleep(0.05)
        assert len(list((maildir / "outbox" / "new").glob("pbem-*"))) == 3  # it kept running and answered
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "stopped" in err
    assert not (world.root / ".referee" / "mail-outbox").exists() or not any(
        (world.root / ".referee" / "mail-outbox").iterdir())


def test_a_stop_during_sending_leaves_no_delivered_answer_queued(tmp_path: Path, monkeypatch) -> None:
    """SIGTERM right after an answer is written to outbox/new (before it is recorded as sent): the round ends first."""
    from pbem.mail import maildir as maildir_module

    world = make_world(tmp_path)
    maildir = tmp_path / "Maildir"
    deliver(maildir, plain_mail("x@players.test", "status", ""))
    real_send = maildir_module.MaildirOutbox.send
    calls = []

    def send_then_stop(self, item, envelope_from):  # type: ignore[no-untyped-def]
        result = real_send(self, item, envelope_from)
        calls.append(item.key)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGTERM)
        return result

    monkeypatch.setattr(maildir_module.MaildirOutbox, "send", send_then_stop)
    rc, _, err = pbem("judge", world.root, "--maildir", maildir, "--address", JUDGE, "--poll", "0.2")
    assert rc == 0, err
    assert "stopped" in err
    assert len(calls) == 3 and len(list((maildir / "outbox" / "new").glob("pbem-*"))) == 3
    outbox = world.root / ".referee" / "mail-outbox"
    assert not outbox.exists() or not any(outbox.iterdir())
