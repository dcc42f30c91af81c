"""`pbem desk VIEW.yaml`: wire with `add_commands(subparsers)`; the desk itself is imported only when run."""

from __future__ import annotations

import argparse
from typing import Any

DESCRIPTION = ("Open your desk in the browser: your view's map and report, the phase awaited and its deadline, "
               "and the phase's orders built by clicking, checked as `pbem check` does, saved (and signed) as the "
               "orders file; or a decision request's options as buttons, the reply signed. Served on 127.0.0.1 "
               "only, to the address printed (it holds a random token); Ctrl-C closes it. See docs/desk.md.")


def cmd_desk(args: argparse.Namespace) -> int:
    import sys
    import tempfile
    from pathlib import Path

    from pbem.core.api import game_from_file, signing

    from .launch import open_in_browser
    from .server import DeskServer
    from .session import open_desk

    game = game_from_file(args.game) if args.game else None
    key = signing.load_signing_key(Path(args.key)) if args.key else None
    desk = open_desk(Path(args.file), game, key, Path(args.out) if args.out else None, args.ledger)
    for warning in desk.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    server = DeskServer(desk, port=args.port)
    print(f"your desk: {server.url}", flush=True)
    with tempfile.TemporaryDirectory(prefix="pbem-desk-") as private:  # mode 0700: the launch page is the player's
        if not args.no_browser:
            open_in_browser(server.url, Path(private))
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


def add_commands(subparsers: Any) -> None:
    p = subparsers.add_parser("desk", help="your view's map and report, and the orders built by clicking",
                              description=DESCRIPTION)
    p.add_argument("file", metavar="VIEW", help="your latest view (turns/NNNN/SIDE.yaml as the referee sent it), or a "
                   "decision request (decisions/NNNN/request-J.yaml)")
    p.add_argument("--game", help="the game: its game.yaml (with game.yaml.sig beside it) or the folder holding it; "
                   "the referee's signature on the view or request is checked first, and the key must be the side's")
    p.add_argument("--key", help="your private key: Save then signs the orders (FILE.sig) and Armor gives the block "
                   "to paste; without it the page shows the ssh-keygen line to sign them")
    p.add_argument("--out", metavar="FILE", help="where Save writes the orders (default: SIDE-orders-NNNN.yaml here) "
                   "or the reply (default: the request's name with 'reply')")
    p.add_argument("--ledger", metavar="DIR", help="the player's ledger base folder (default: $PBEM_LEDGER, else "
                   "~/.pbem/ledger), where --game keeps the file opened; docs/ledger.md")
    p.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="only print the address; open it yourself")
    p.set_defaults(handler=cmd_desk)
