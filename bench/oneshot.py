"""One-shot commands: CPU time of `pbem check`, `pbem submit` and `pbem adjudicate`, each a new process.

The floor is `python -c pass` run the same way (the interpreter and site start-up every command
pays anyway); each command is reported as its CPU time (user + system, of the child process)
minus the floor's, medians over alternating rounds. Goal: at most 80 ms over the floor.

The game is an fbsm bot game (fixed chain secret and keys, `bench/_common.py`) played for
`--rounds` adjudications; then the awaited side's bot writes its orders (signed), and the three
commands run on it: `check` (the player's pre-check against its view), `submit` (the referee's
intake, with its receipt), `adjudicate` (the next turn). The bot writes canonical text, which pbem
reads without PyYAML; a player's hand-written file is not, so the three run again on the same
orders with a comment line on top (signed again), as a template from `pbem orders` would leave them.
Each round works on a fresh copy of that game, so every round does the same work. Byte-code is cached as usual (in a scratch
`PYTHONPYCACHEPREFIX`, warmed before timing), so start-up is what a user sees after the first
run.

    python bench/oneshot.py [--rounds 6] [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import setup_game, table  # noqa: E402
from pbem.core import signing  # noqa: E402
from pbem.core.archive import Archive  # noqa: E402
from pbem.core.game import load_game  # noqa: E402
from pbem.core.players import bot_orders_file  # noqa: E402
from pbem.core.position import current_position  # noqa: E402


def child_cpu(command: list[str], env: dict[str, str], cwd: Path) -> float:
    """CPU seconds (user + system) of one child process running `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def prepare(work: Path, rounds: int) -> tuple[str, Path, Path]:
    """A game `rounds` adjudications in, the referee's key file, and the awaited side's signed orders (not
    sent): as its bot wrote them, and as a hand-written file (a comment line on top)."""
    game = setup_game("fbsm", work)
    for _ in range(rounds):
        game.round()
    signing.write_keypair("referee", work, game.referee.private)
    side = current_position(load_game(game.root)).awaiting()[0]
    (work / "mail").mkdir(exist_ok=True)
    orders = bot_orders_file(game.root, side, game.players[side], work / "mail" / "orders.yaml", None)
    hand = work / "mail" / "hand.yaml"
    hand.write_bytes(b"# my orders, checked against my view\n" + orders.read_bytes())
    namespace = load_game(game.root).orders_namespace()
    hand.with_name("hand.yaml.sig").write_text(signing.sign(hand.read_bytes(), game.players[side], namespace),
                                               encoding="utf-8")
    return side, orders, hand


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6, help="adjudications played before the commands run")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--keep", help="leave the prepared game in this folder (to profile a command by hand)")
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        # a scratch ledger: the player's own (~/.pbem/ledger) would hold whatever games this machine saw
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(base / "pycache"), PBEM_LEDGER=str(base / "ledger"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        master = base / "master"
        side, orders, hand = prepare(master, args.rounds)
        if args.keep:
            shutil.copytree(master, args.keep, symlinks=True)
        seq = Archive(master / "game").latest_seq()
        view = f"game/turns/{seq:04d}/{side}.yaml" if seq else f"game/views/0000/{side}.yaml"
        pbem = [python, "-m", "pbem"]
        runs = [{  # each run on a fresh copy of the game
            "python -c pass (floor)": [python, "-c", "pass"],
            "pbem check VIEW ORDERS": pbem + ["check", view, str(orders.relative_to(master))],
            "pbem submit GAME ORDERS --key K": pbem + ["submit", "--key", "referee", "game",
                                                      str(orders.relative_to(master))],
            "pbem adjudicate GAME --key K": pbem + ["adjudicate", "--key", "referee", "game"],
        }, {
            "hand-written: pbem check VIEW ORDERS": pbem + ["check", view, str(hand.relative_to(master))],
            "hand-written: pbem submit GAME ORDERS --key K": pbem + ["submit", "--key", "referee", "game",
                                                                    str(hand.relative_to(master))],
            "hand-written: pbem adjudicate GAME --key K": pbem + ["adjudicate", "--key", "referee", "game"],
        }]
        samples: dict[str, list[float]] = {name: [] for commands in runs for name in commands}
        for attempt in range(args.repeat + 1):  # the first round only warms the byte-code cache
            for number, commands in enumerate(runs):
                work = base / f"round-{attempt}-{number}"
                shutil.copytree(master, work, symlinks=True)
                for name, command in commands.items():
                    cpu = child_cpu(command, env, work)
                    if attempt:
                        samples[name].append(cpu)
                shutil.rmtree(work)
    floor = statistics.median(samples["python -c pass (floor)"])
    least_floor = min(samples["python -c pass (floor)"])
    rows: list[list[object]] = []
    for name, values in samples.items():
        median = statistics.median(values)
        rows.append([name, f"{median * 1000:.0f}", f"{(median - floor) * 1000:.0f}",
                     f"{(min(values) - least_floor) * 1000:.0f}"])
    print(f"fbsm game after {args.rounds} adjudications; {args.repeat} rounds, medians of child CPU time (user + sys)")
    # the least of each over the rounds: load only ever adds, so this is the steadiest on a busy machine
    print(table(["command", "CPU ms", "CPU ms over the floor", "least CPU ms over the least floor"], rows))
    for label, hand_written in (("canonical orders (a bot's)", False), ("hand-written orders", True)):
        worst = max(statistics.median(v) - floor for n, v in samples.items()
                    if not n.startswith("python") and n.startswith("hand-written") == hand_written)
        print(f"target, {label}: every command at most 80 ms over the floor: {'met' if worst <= 0.080 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
