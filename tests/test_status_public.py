"""The public status (`pbem status --public`, and the mail judge's answer to `status`) says only
what every side's latest view says: who has sent orders, how often, and who is deciding stay hidden.

One duel game with addresses is driven through the core and a Maildir judge; at each point a
`status` mail comes from a stranger and from each player, and every answer must carry exactly
the text of `pbem status --public`, the same text whatever the sides have or have not sent.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
from pathlib import Path

from pbem.cli import build_parser
from pbem.core import yamlio
from pbem.core.adjudicator import adjudicate
from pbem.core.archive import Archive, view_rel
from pbem.core.intake import submit
from pbem.core.status import status
from tests.test_mail_kit import (ADDRESSES, World, body_text, deliver, make_world, maildir_judge, parse_mail,
                                 plain_mail, recipients, signed_orders, take_outbox)

STRANGER = "mallory@elsewhere.test"
ASKERS = (STRANGER, ADDRESSES["red"], ADDRESSES["blue"])


def cli_public_status(root: Path) -> str:
    parser = build_parser()
    args = parser.parse_args(["status", str(root), "--public"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert args.handler(args) == 0
    text = out.getvalue()
    assert text.endswith("\n")
    return text[:-1]


def send(world: World, side: str, orders: list[object], name: str) -> None:
    data, sig = signed_orders(world, side, orders)
    folder = world.workdir / "mail"
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(data)
    (folder / (name + ".sig")).write_text(sig)
    result = submit(world.root, folder / name, folder / (name + ".sig"))
    assert result.receipts and not result.errors, result.errors


def mailed_status(world: World, maildir: Path) -> dict[str, str]:
    """Each asker's answer to a `status` mail: the text between the judge's greeting and its signature."""
    for sender in ASKERS:  # a stranger names the game; a player's bare `status` means its own games
        deliver(maildir, plain_mail(sender, f"status {world.game_id}" if sender == STRANGER else "status", ""))
    maildir_judge(world, maildir).run(once=True)
    found: dict[str, str] = {}
    for raw in take_outbox(maildir):
        if not str(parse_mail(raw)["Subject"]).startswith("Re: status"):
            continue
        [to] = recipients(raw)
        body = body_text(raw)
        head, _, rest = body.partition("\n\n")
        assert head.startswith("The pbem judge read your mail"), body
        text, _, tail = rest.rpartition("\n\n-- \n")
        assert tail.startswith("The pbem judge"), body
        assert to not in found
        found[to] = text
    assert sorted(found) == sorted(ASKERS)
    return found


def check_public(world: World, maildir: Path) -> str:
    """The public status now: mailed to everyone exactly as `pbem status --public` prints it."""
    public = cli_public_status(world.root)
    assert public == status(world.root, public=True)
    for sender, text in mailed_status(world, maildir).items():
        assert text == public, (sender, text, public)
    # It states what each side's latest view states, and nothing of the archive's orders.
    archive = Archive(world.root)
    for side in world.sides:
        view = yamlio.load_file(world.root / view_rel(archive.latest_seq(), side)).data
        assert f"phase {view['next']['phase']!r}" in public
        for other in world.sides:
            owed = "owes orders this phase" if other in view["next"]["awaiting"] else "no orders this phase"
            assert f"  {other}: {owed}" in public
    assert "orders/" not in public and "decision" not in public.replace("any decision under way", "")
    return public


def test_the_mailed_status_is_the_public_status_whatever_was_sent(tmp_path: Path) -> None:
    world = make_world(tmp_path / "w")
    maildir = tmp_path / "Maildir"
    maildir_judge(world, maildir).run(once=True)  # the welcomes
    take_outbox(maildir)
    send(world, "red", [{"place": "hq", "cell": 3}], "red-1.yaml")
    send(world, "blue", [{"place": "hq", "cell": 2}], "blue-1.yaml")
    assert adjudicate(world.root, world.referee).committed
    maildir_judge(world, maildir).run(once=True)  # the results
    take_outbox(maildir)

    referee: dict[str, str] = {}
    public = check_public(world, maildir)  # seq 2, nobody has sent fire orders
    assert "next: seq 2, phase 'fire'" in public and "  red: owes orders this phase" in public
    referee["none"] = status(world.root)
    fresh = tmp_path / "fresh"
    shutil.copytree(world.root, fresh)

    send(world, "red", [{"fire": 1}], "red-2a.yaml")
    assert check_public(world, maildir) == public
    referee["red once"] = status(world.root)
    send(world, "red", [{"fire": 2}], "red-2b.yaml")
    assert check_public(world, maildir) == public
    referee["red twice"] = status(world.root)
    assert "newest of 2" in referee["red twice"]

    # Both in, and the adjudication stopped on blue's decision (red hit blue's HQ: F3).
    # Red's entropy decides the roll; a miss is thrown away and the fire orders sent again.
    before_fire = tmp_path / "before-fire"
    shutil.copytree(world.root, before_fire)
    for _ in range(60):
        send(world, "red", [{"fire": 2}], "red-2c.yaml")
        send(world, "blue", [{"fire": 4}], "blue-2.yaml")
        report = adjudicate(world.root, world.referee)
        if not report.committed and "blue" in report.message:
            break
        shutil.rmtree(world.root)
        shutil.copytree(before_fire, world.root)
    else:
        raise AssertionError("red never hit blue's HQ in 60 tries")
    assert check_public(world, maildir) == public
    referee["decision"] = status(world.root)
    assert "decision 0 for blue" in referee["decision"] and "waiting for a decision reply from blue" in referee["decision"]

    # Only blue has sent orders (the other side from red's point of view).
    shutil.rmtree(world.root)
    shutil.copytree(fresh, world.root)
    send(world, "blue", [{"fire": 4}], "blue-2.yaml")
    assert check_public(world, maildir) == public
    referee["blue once"] = status(world.root)

    # The referee's own status did see every one of these differences.
    assert len(set(referee.values())) == len(referee)


def test_public_status_of_a_fresh_game_names_the_awaited_sides(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    text = status(world.root, public=True)
    assert text.splitlines()[:3] == ["game duel-mail (duel 1), sides: red, blue", "adjudications done: 0",
                                     "next: seq 1, phase 'deploy'"]
    assert "  red: owes orders this phase" in text and "  blue: owes orders this phase" in text
    send(world, "red", [{"place": "hq", "cell": 3}], "red-1.yaml")
    assert status(world.root, public=True) == text
    assert "red: in: orders/0001/" in status(world.root)


def test_the_cli_flag_exists() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert "--public" in sub.choices["status"].format_help()
