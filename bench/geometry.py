"""Line-of-sight and range queries per second on the fbsm map, against the floor of iterating
the same hex pairs (a loop that unpacks each pair and looks both hexes up in a dict: the least
any query over those pairs must do). Target: 100,000 LoS queries per second or better.

Pairs: random (fixed seed) pairs of on-map hexes 2..MAX apart (adjacent hexes need no LoS check).
LoS "cold" builds the line and tests blocking terrain each time (`HexGrid.line(a, b).blocked`,
with FBSM's rule 10.9 at splits); "game" is the ruleset's `Config.lof_clear` as the rules call
it, whose per-pair cache is warm after the first pass.

    python bench/geometry.py [--pairs 20000] [--max 12] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import table, timed  # noqa: E402
from pbem.core import yamlio  # noqa: E402
from pbem.demo import default_scenario  # noqa: E402
from pbem.rulesets.fbsm.tables import config, scenario_setup  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=20000)
    parser.add_argument("--max", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cfg = config(scenario_setup(yamlio.load_file(default_scenario("fbsm")).data))
    grid, hexmap = cfg.grid, cfg.map
    ids = [h.id for h in hexmap.hexes()]
    rng = random.Random(7)
    pairs: list[tuple[str, str]] = []
    while len(pairs) < args.pairs:
        a, b = rng.choice(ids), rng.choice(ids)
        if 2 <= cfg.distance(a, b) <= args.max:
            pairs.append((a, b))
    lookup = {i: i for i in ids}

    def floor() -> None:
        for a, b in pairs:
            lookup[a], lookup[b]

    def los_cold() -> None:
        blocks = cfg.blocks
        for a, b in pairs:
            grid.line(a, b).blocked(blocks, at_split="both")

    def los_game() -> None:
        for a, b in pairs:
            cfg.lof_clear(a, b)

    def range_grid() -> None:
        for a, b in pairs:
            grid.distance(a, b)

    def range_game() -> None:
        for a, b in pairs:
            cfg.distance(a, b)

    los_game()  # warm the ruleset's cache (and check every pair is well-formed)
    blocked = sum(1 for a, b in pairs if not cfg.lof_clear(a, b))
    base = timed(floor, args.repeat)
    rows = [["floor: iterate pairs (+2 dict lookups)", f"{len(pairs) / base:,.0f}", "1"]]
    for name, action in [("LoS cold: HexGrid.line(a, b).blocked(...)", los_cold),
                         ("LoS game: Config.lof_clear (warm cache)", los_game),
                         ("range: HexGrid.distance", range_grid),
                         ("range game: Config.distance (cube index)", range_game)]:
        t = timed(action, args.repeat)
        rows.append([name, f"{len(pairs) / t:,.0f}", f"{t / base:,.0f}"])
    print(f"fbsm map: {len(ids)} hexes; {len(pairs)} pairs 2..{args.max} apart, {blocked} of them blocked; "
          f"median of {args.repeat}")
    print(table(["query", "per second", "x floor time"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
