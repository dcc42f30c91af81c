"""The mail judge holding many games: CPU per poll round for idle games, and for games that get mail.

N idle games wait for orders under a 72 h deadline (nothing arrives, no reminder or deadline
falls due); M active games each get one mail per round (a `status` request, answered with the
game's public status: intake, an answer composed, recorded and sent). One judge holds them all,
with a Maildir inbox and outbox. After a first round (the welcome mails), `--rounds` rounds are
timed (process CPU time of `Judge.round()`); the clock does not move between them.

Reported: CPU per round, per idle game (µs) and the share of one core 10,000 idle games would
take at a 60 s poll; CPU per mail; the judge's resident memory per game held (peak RSS after
loading the games, over the process before). Goal: work per poll proportional to events (mail,
deadlines), not to games held: 10,000 idle games under 1 % of a core.

    python bench/judge.py [--idle 1000] [--active 10] [--rounds 5] [--ruleset duel]

Games are created with fixed keys and secrets; their fsyncs are skipped while they are made
(setup only: the judge's own writes keep theirs).
"""

from __future__ import annotations

import argparse
import datetime
import email.message
import email.policy
import email.utils
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, fixed_key, table  # noqa: E402
from pbem.core import ruleset, yamlio  # noqa: E402
from pbem.core.game import new_game  # noqa: E402
from pbem.mail.judge import Judge  # noqa: E402
from pbem.mail.maildir import MaildirInbox, MaildirOutbox, ensure_maildir  # noqa: E402

ruleset.register("duel", "tests.rulesets.duel:Duel")
JUDGE = "judge@pbem.bench"
START = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime.datetime:
        return self.now


def scenario_of(ruleset_id: str) -> Path:
    if ruleset_id == "duel":
        return ROOT / "tests/rulesets/duel-scenario.yaml"
    from pbem.demo import default_scenario

    return default_scenario(ruleset_id)


def make_games(base: Path, count: int, prefix: str, ruleset_id: str, clock: Clock) -> list[Path]:
    scenario = scenario_of(ruleset_id)
    sides = ruleset.get(ruleset_id).sides(yamlio.load_file(scenario).data)
    referee = fixed_key("referee")
    keys = {side: fixed_key(side).public_line for side in sides}
    roots = []
    real_fsync = os.fsync
    os.fsync = lambda fd: None  # setup only
    try:
        for index in range(count):
            root = base / f"{prefix}-{index:05d}"
            new_game(scenario, f"{prefix}-{index:05d}", referee, keys, root, chain_length=64,
                     addresses={side: f"{side}-{prefix}-{index}@players.bench" for side in sides},
                     settings={"deadline": "72h"}, secret=bytes([index % 256]) * 32, now=clock)
            roots.append(root)
    finally:
        os.fsync = real_fsync
    return roots


def status_mail(game_id: str, number: int) -> bytes:
    message = email.message.EmailMessage(policy=email.policy.default)
    message["From"] = "someone@players.bench"
    message["To"] = JUDGE
    message["Subject"] = f"status {game_id}"
    message["Date"] = email.utils.format_datetime(START)
    message["Message-ID"] = f"<status-{number}@players.bench>"
    message.set_content("status")
    return message.as_bytes()


def deliver(maildir: Path, raw: bytes, name: str) -> None:
    tmp = maildir / "tmp" / name
    tmp.write_bytes(raw)
    os.replace(tmp, maildir / "new" / name)


def cpu_of(action: object) -> float:
    start = time.process_time()
    action()  # type: ignore[operator]
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--active", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ruleset", default="duel")
    args = parser.parse_args()
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        made = time.perf_counter()
        idle = make_games(base / "games", args.idle, "idle", args.ruleset, clock)
        active = make_games(base / "games", args.active, "active", args.ruleset, clock)
        made = time.perf_counter() - made
        maildir = ensure_maildir(base / "Maildir")
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.process_time()
        judge = Judge(idle + active, MaildirInbox(maildir), MaildirOutbox(base / "outbox"),
                      referee_key=lambda _: fixed_key("referee"), address=JUDGE, now=clock, log=lambda _: None)
        started = time.process_time() - started
        first = cpu_of(judge.round)  # welcome mails to every side of every game
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        time.sleep(2.1)  # the games' folders settle (a folder changed in the last 2 s is always looked at)
        quiet_rounds = [cpu_of(judge.round) for _ in range(args.rounds)]
        mail_rounds = []
        number = 0
        for _ in range(args.rounds):
            for root in active:
                number += 1
                deliver(maildir, status_mail(root.name, number), f"{number:08d}.bench")
            mail_rounds.append(cpu_of(judge.round))
    games = args.idle + args.active
    quiet = statistics.median(quiet_rounds)
    busy = statistics.median(mail_rounds)
    per_game = quiet / games
    per_mail = (busy - quiet) / args.active if args.active else 0.0
    share = per_game * 10_000 / 60
    print(f"{args.ruleset}: {args.idle} idle + {args.active} active games in one judge (made in {made:.0f} s); "
          f"first round (welcomes) {first:.1f} s CPU; {args.rounds} rounds each, medians")
    print(table(["measure", "value"], [
        ["CPU per round, no mail (every game idle)", f"{quiet * 1000:.1f} ms"],
        ["  per game held", f"{per_game * 1e6:.1f} µs"],
        ["  10,000 idle games at a 60 s poll", f"{share * 100:.3f} % of a core"],
        [f"CPU per round with {args.active} mails (one per active game)", f"{busy * 1000:.1f} ms"],
        ["  per mail (over the idle round)", f"{per_mail * 1000:.1f} ms"],
        ["peak RSS per game held (after the first round)", f"{(rss_after - rss_before) / games:.1f} KiB"],
        ["start: Judge() per game (game.yaml read and checked)", f"{started / games * 1000:.2f} ms"],
        ["first round per game (a look at each, the welcome mails sent)", f"{first / games * 1000:.1f} ms"],
    ]))
    print(f"target: 10,000 idle games under 1 % of a core: {'met' if share < 0.01 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
