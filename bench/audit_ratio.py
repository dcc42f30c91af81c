"""How much the audit costs over the least any checker must do, measured in one run.

The floor is reading every archived file (parsed with libyaml's C loader, `yaml.CSafeLoader`)
and checking every signature against the right key set: a verifier cannot do less. The audit
adds the strict loader, schema checks, the seed and hash chains, order re-validation, replay of
every adjudication and rebuilding every view. Reported as a ratio (audit / floor) so the figure
means the same on any machine. Target: at most 2.

    python bench/audit_ratio.py [--ruleset fbsm] [--repeat 5]

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
from pbem.core import ruleset, signing  # noqa: E402
from pbem.core.audit import audit  # noqa: E402
from pbem.core.game import load_game  # noqa: E402

ruleset.register("duel", "tests.rulesets.duel:Duel")


def floor(root: Path) -> int:
    """Read + C-parse every YAML file; verify every signature. Returns the number of files read."""
    game = load_game(root)
    referee = {"referee": game.referee_key}
    orders_ns, turn_ns, sides = game.orders_namespace(), game.turn_namespace(), game.side_keys
    count = 0
    for path in sorted(root.rglob("*.yaml")):
        rel = path.relative_to(root)
        if rel.parts[0] == ".referee":
            continue
        data = path.read_bytes()
        yaml.load(data, Loader=yaml.CSafeLoader)
        count += 1
        sig = path.with_name(path.name + ".sig")
        if sig.exists():
            player_file = (rel.parts[0] == "orders" or "reply" in rel.name) and not rel.name.endswith(".receipt.yaml")
            signing.verify(data, sig.read_text(), orders_ns if player_file else turn_ns,
                           sides if player_file else referee)
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="fbsm")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game = play_bot_game(args.ruleset, Path(tmp))
        root = game.root
        turns = len(list((root / "turns").iterdir()))
        problems = audit(root)
        if problems:
            print("the benchmark game does not pass audit:", *problems, sep="\n")
            return 1
        files = floor(root)
        size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and ".referee" not in p.parts)
        # Floor and audit alternate, so a change in machine load hits both alike; the ratio is the
        # median of the per-round ratios (wall clock), and the same for process CPU time.
        walls: list[tuple[float, float]] = []
        cpus: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            (wall_floor, cpu_floor), (wall_audit, cpu_audit) = clocked(lambda: floor(root)), clocked(lambda: audit(root))
            walls.append((wall_floor, wall_audit))
            cpus.append((cpu_floor, cpu_audit))
    base = statistics.median(f for f, _ in walls)
    full = statistics.median(a for _, a in walls)
    ratio = statistics.median(a / f for f, a in walls)
    cpu_ratio = statistics.median(a / f for f, a in cpus)
    print(f"archive: complete {args.ruleset} bot game, {turns} adjudications, {files} YAML files, "
          f"{size / 1e6:.1f} MB; {args.repeat} alternating rounds, medians")
    print(table(["measure", "ms", "x floor", "x floor (CPU time)"], [
        ["floor: read + CSafeLoader parse + verify every signature", f"{base * 1000:.0f}", "1.00", "1.00"],
        ["audit (strict load, schemas, chains, replay, views)", f"{full * 1000:.0f}", f"{ratio:.2f}",
         f"{cpu_ratio:.2f}"],
    ]))
    print(f"target audit/floor <= 2: {'met' if ratio <= 2 else 'NOT met'}")
    return 0


def clocked(action: Callable[[], object]) -> tuple[float, float]:
    """(wall-clock seconds, process CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


if __name__ == "__main__":
    sys.exit(main())
