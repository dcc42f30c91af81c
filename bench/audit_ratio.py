"""How much the audit costs over the least any checker must do, measured in one run.

The floor is reading every archived file (parsed with libyaml's C loader, `yaml.CSafeLoader`)
and checking every signature against the right key set: a verifier cannot do less. The audit
adds the strict loader, schema checks, the seed and hash chains, order re-validation, replay of
every adjudication and rebuilding every view. Reported as a ratio (audit / floor) so the figure
means the same on any machine.

The tight floor parses only what a checker must read to replay the game: the turn files and
the orders files (and still verifies every signature). Target: audit / tight floor at most 1.5.
The old floor (every file parsed) is reported too, and the ratio of the least CPU time each
took over the rounds (the steadiest figure when other jobs load the machine unevenly).

    python bench/audit_ratio.py [--ruleset fbsm --ruleset toc] [--repeat 5] [--keep DIR]

`--keep DIR` leaves each benchmark game in DIR/<ruleset>/game (a new folder), to profile its audit.

The game is a complete bot game (fixed chain secret), like `pbem demo`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import yaml  # noqa: E402

from _common import play_bot_game, table  # noqa: E402
from pbem.core import ruleset, schemas, signing  # noqa: E402
from pbem.core.audit import audit  # noqa: E402
from pbem.core.game import load_game  # noqa: E402

ruleset.register("duel", "tests.rulesets.duel:Duel")


def floor(root: Path, *, tight: bool = False) -> int:
    """Read + C-parse every YAML file; verify every signature. Returns the number of files parsed.

    `tight`: parse only the turn files and the orders files (the files whose content a checker
    must read to replay the game); every signature is still verified.
    """
    game = load_game(root)
    referee = {"referee": game.referee_key}
    orders_ns, turn_ns, sides = game.orders_namespace(), game.turn_namespace(), game.side_keys
    count = 0
    for path in sorted(root.rglob("*.yaml")):
        rel = path.relative_to(root)
        if rel.parts[0] == ".referee":
            continue
        data = path.read_bytes()
        if not tight or _replay_input(rel):
            yaml.load(data, Loader=yaml.CSafeLoader)
            count += 1
        sig = path.with_name(path.name + ".sig")
        if sig.exists():
            player_file = (rel.parts[0] == "orders" or "reply" in rel.name) and not rel.name.endswith(".receipt.yaml")
            signing.verify(data, sig.read_text(), orders_ns if player_file else turn_ns,
                           sides if player_file else referee)
    return count


def _replay_input(rel: Path) -> bool:
    """A turn file or an orders file (not its receipt)."""
    if rel.parts[0] == "turns":
        return rel.name == "turn.yaml"
    return rel.parts[0] == "orders" and not rel.name.endswith(".receipt.yaml")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", action="append", help="fbsm, toc, bob (repeatable; default: all three)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="leave each game in KEEP/<ruleset>/game")
    args = parser.parse_args()
    failed = False
    for ruleset_id in args.ruleset or ["fbsm", "toc", "bob"]:
        failed |= not measure(ruleset_id, args.repeat, args.keep)
    return 1 if failed else 0


def measure(ruleset_id: str, repeat: int, keep: Path | None = None) -> bool:
    """One ruleset's table; False if its game does not pass audit."""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) if keep is None else keep / ruleset_id
        if keep is not None:
            if workdir.exists():
                print(f"--keep: {workdir} already exists; give a new folder")
                return False
            workdir.mkdir(parents=True)
        game = play_bot_game(ruleset_id, workdir)
        root = game.root
        turns = len(list((root / "turns").iterdir()))
        problems = audit(root)
        if problems:
            print("the benchmark game does not pass audit:", *problems, sep="\n")
            return False
        files, parsed = floor(root), floor(root, tight=True)
        size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and ".referee" not in p.parts)
        # The floors and the audit alternate, so a change in machine load hits all alike; each ratio
        # is the median of the per-round ratios (wall clock), and the same for process CPU time.
        rounds: list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = []
        for _ in range(repeat):
            rounds.append((clocked(lambda: floor(root)), clocked(lambda: floor(root, tight=True)),
                           clocked(lambda: cold(audit)(root))))

    def ms(which: int) -> str:
        return f"{statistics.median(r[which][0] for r in rounds) * 1000:.0f}"

    def ratio(which: int, clock: int) -> float:
        return statistics.median(r[which][clock] / r[1][clock] for r in rounds)

    print(f"archive: complete {ruleset_id} bot game, {turns} adjudications, {files} YAML files ({parsed} of them "
          f"turn or orders files), {size / 1e6:.1f} MB; {repeat} alternating rounds, medians")
    print(table(["measure", "ms", "x tight floor", "x tight floor (CPU time)"], [
        ["tight floor: read all, CSafeLoader parse turn + orders files, verify every signature", ms(1), "1.00", "1.00"],
        ["old floor: read + CSafeLoader parse every file + verify every signature", ms(0), f"{ratio(0, 0):.2f}",
         f"{ratio(0, 1):.2f}"],
        ["audit (chains, orders re-validated, replay, turns and views byte for byte)", ms(2), f"{ratio(2, 0):.2f}",
         f"{ratio(2, 1):.2f}"],
    ]))
    # On a machine other jobs load unevenly, the least CPU time each took over the rounds is the
    # steadiest figure: load only ever adds to a measure.
    least = min(r[2][1] for r in rounds) / min(r[1][1] for r in rounds)
    print(f"least CPU time over the rounds: audit / tight floor = {least:.2f}")
    print(f"audit / tight floor = {ratio(2, 0):.2f}, audit / old floor = "
          f"{statistics.median(r[2][0] / r[0][0] for r in rounds):.2f}; target audit / tight floor <= 1.5: "
          f"{'met' if ratio(2, 0) <= 1.5 else 'NOT met'}\n")
    return True


def cold(action: Callable[[Path], object]) -> Callable[[Path], object]:
    """`action` with no document remembered as valid, as in a fresh `pbem audit` process (the game's
    intake and the rounds before would otherwise have checked every orders file already)."""
    def run(root: Path) -> object:
        schemas.forget_results()
        return action(root)
    return run


def clocked(action: Callable[[], object]) -> tuple[float, float]:
    """(wall-clock seconds, process CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


if __name__ == "__main__":
    sys.exit(main())
