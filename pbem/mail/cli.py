"""`pbem judge` and `pbem post`: added to the `pbem` command by `add_commands(subparsers)`."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Any, Callable

from ..core.api import UsageError, noted_referee_key, require_game_dir, signing


def _key_finder(explicit: str | None) -> Callable[[Path], signing.SigningKey]:
    def find(root: Path) -> signing.SigningKey:
        path = explicit or noted_referee_key(root)
        if not path:
            raise UsageError(f"{root}: no referee key: pass --key KEY")
        return signing.load_signing_key(Path(path))
    return find


def cmd_judge(args: argparse.Namespace) -> int:
    from .imap import ImapInbox
    from .judge import Judge
    from .maildir import OUTBOX, MaildirInbox, MaildirOutbox
    from .smtp import SmtpSender
    from .transport import Inbox, Sender
    from .urls import parse_url

    if bool(args.maildir) == bool(args.imap):
        raise UsageError("give either --maildir DIR or --imap URL (with --smtp URL)")
    for root in args.game_dirs:
        require_game_dir(root)
    inbox: Inbox
    sender: Sender
    if args.imap:
        if not args.smtp:
            raise UsageError("--imap needs --smtp URL: the server the answers go out through")
        inbox = ImapInbox(parse_url(args.imap, "imap"), poll_seconds=args.poll)
    else:
        inbox = MaildirInbox(Path(args.maildir), poll_seconds=min(args.poll, 5.0))
    if args.smtp:
        sender = SmtpSender(parse_url(args.smtp, "smtp"))
    else:
        sender = MaildirOutbox(Path(args.outbox) if args.outbox else Path(args.maildir) / OUTBOX)
    judge = Judge(args.game_dirs, inbox, sender, referee_key=_key_finder(args.key), address=args.address,
                  referee_copy=args.referee_copy, poll_seconds=args.poll,
                  log=lambda text: print(text, file=sys.stderr, flush=True))
    stopping = {"now": False}

    def on_signal(number: int, frame: FrameType | None) -> None:
        # Only the flag while a round runs: an exception there would cut it between two writes (an
        # answer already delivered but still in the game's outbox). `run` sees the flag once the round
        # is done; a judge waiting for mail is interrupted at once (it has nothing half done then).
        stopping["now"] = True
        if judge.waiting:
            raise KeyboardInterrupt

    previous: dict[signal.Signals, Any] = {}
    for number in (signal.SIGTERM, signal.SIGINT):
        previous[number] = signal.signal(number, on_signal)
    try:
        judge.run(once=args.once, stop=lambda: stopping["now"])
    except KeyboardInterrupt:
        stopping["now"] = True
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if stopping["now"]:
        print("pbem judge: stopped", file=sys.stderr)
    return 0


def cmd_post(args: argparse.Namespace) -> int:
    from .forum import write_post

    require_game_dir(args.game_dir)
    text, written = write_post(args.game_dir, args.format, Path(args.out) if args.out else None, args.seq)
    if args.out:
        for path in written:
            print(f"wrote {path}")
    else:
        sys.stdout.write(text)
    return 0


def add_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `judge` and `post` to the `pbem` command's subparsers."""
    p = sub.add_parser("judge", help="run games by mail: read signed orders, answer, adjudicate, mail results",
                       description="Run one or more games by mail. Orders come as signed attachments or armored "
                                   "blocks; each side gets receipts, errors, its views and reports at the address "
                                   "its game.yaml registers. Without --once it runs until stopped.")
    p.set_defaults(handler=cmd_judge)
    p.add_argument("game_dirs", nargs="+", metavar="GAME_DIR", help="the game directories to run (each holds a "
                   "game.yaml)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--maildir", metavar="DIR", help="read mail from this Maildir (new/), the embedded default")
    source.add_argument("--imap", metavar="URL", help="imaps://USER@HOST[:PORT]/MAILBOX or imap://... (STARTTLS)")
    p.add_argument("--smtp", metavar="URL", help="smtps://USER@HOST[:PORT] or smtp://... (STARTTLS); with "
                   "--maildir and no --smtp, answers are written to DIR/outbox/ for a mail transfer agent")
    p.add_argument("--outbox", metavar="DIR", help="with --maildir and no --smtp: the Maildir answers go to")
    p.add_argument("--address", default="pbem-judge@localhost", help="the judge's own address (From of answers)")
    p.add_argument("--key", help="the referee's private key (default: the one given to `pbem new`)")
    p.add_argument("--referee-copy", metavar="ADDRESS", help="also mail every master turn file to this address")
    p.add_argument("--once", action="store_true", help="handle what is waiting, adjudicate what is due, and exit")
    p.add_argument("--poll", type=float, default=60.0, metavar="SECONDS",
                   help="how often to look for mail when the server has no IDLE (default 60)")

    p = sub.add_parser("post", help="the public post of a turn for a forum (what every side may see)",
                       description="Write the public post of a turn: the events, rolls and parts of the position "
                                   "that every side's view shows, never more.")
    p.set_defaults(handler=cmd_post)
    p.add_argument("game_dir", metavar="GAME_DIR", help="the game directory (the folder holding game.yaml)")
    p.add_argument("--format", choices=["markdown", "bbcode"], default="markdown",
                   help="markdown (GitHub, Discourse) or bbcode (phpBB); default markdown")
    p.add_argument("--seq", type=int, help="which adjudication (default: the latest; 0: the start)")
    p.add_argument("--out", metavar="FILE", help="write the post here (and the map picture beside it)")
