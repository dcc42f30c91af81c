"""Line-of-sight and range queries per second on the fbsm map, against the floor of iterating
the same hex pairs (a loop that unpacks each pair and looks both hexes up in a dict: the least
any query over those pairs must do). Target: 100,000 LoS queries per second or better.

Pairs: random (fixed seed) pairs of on-map hexes 2..MAX apart (adjacent hexes need no LoS check).
Every LoS row answers the same question (FBSM 10.8/10.9: blocking terrain between, a hexside line
blocked only if both sides block) and every row's answers are checked equal before timing:

- exact reference: `HexGrid._line_exact(a, b).blocked(...)`, the rational (Fraction) walk that
  `HexGrid.line` used to run for every query; timed on the first --exact-pairs pairs;
- `HexGrid.line(a, b).blocked(...)`: integer walk; the line's shape is shared by every pair with
  the same offset (and column parity), so after the first pass it only places the shape;
- `SightLines` from scratch (`cache=False`): integer walk of every line, every query, nothing
  cached but each hex id's packed coordinates (a dict lookup, like the floor's);
- `SightLines` (plans cached per offset: at most one per (dq, dr) within range, 900-odd here;
  no per-pair result);
- `Config.lof_clear`: the ruleset's per-pair memo, warm after the first pass.

    python bench/geometry.py [--pairs 20000] [--max 12] [--repeat 5] [--exact-pairs 2000]
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
from pbem.geometry.hexgrid import SightLines  # noqa: E402
from pbem.rulesets.fbsm.context import prepare as config, setup_of as scenario_setup  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=20000)
    parser.add_argument("--max", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--exact-pairs", type=int, default=2000)
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

    blocks = cfg.blocks
    blocking = [h for h in hexmap.hexes() if blocks(h)]
    sight = SightLines(grid, blocking, at_split="both")
    scratch = SightLines(grid, blocking, at_split="both", cache=False)
    exact_pairs = pairs[:args.exact_pairs]

    def los_exact() -> None:
        for a, b in exact_pairs:
            grid._line_exact(a, b).blocked(blocks, at_split="both")

    def los_line() -> None:
        for a, b in pairs:
            grid.line(a, b).blocked(blocks, at_split="both")

    def los_scratch() -> None:
        clear = scratch.clear
        for a, b in pairs:
            clear(a, b)

    def los_sight() -> None:
        clear = sight.clear
        for a, b in pairs:
            clear(a, b)

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
    answers = [cfg.lof_clear(a, b) for a, b in pairs]
    blocked = answers.count(False)
    assert [not grid._line_exact(a, b).blocked(blocks, at_split="both") for a, b in exact_pairs] == \
        answers[:len(exact_pairs)]
    assert [not grid.line(a, b).blocked(blocks, at_split="both") for a, b in pairs] == answers
    assert [scratch.clear(a, b) for a, b in pairs] == answers
    assert [sight.clear(a, b) for a, b in pairs] == answers
    base = timed(floor, args.repeat)
    rows = [["floor: iterate pairs (+2 dict lookups)", f"{len(pairs) / base:,.0f}", "1"]]
    t = timed(los_exact, args.repeat)
    rows.append([f"LoS exact reference: HexGrid._line_exact(a, b).blocked ({len(exact_pairs)} pairs)",
                 f"{len(exact_pairs) / t:,.0f}", f"{t / len(exact_pairs) * len(pairs) / base:,.0f}"])
    for name, action in [("LoS: HexGrid.line(a, b).blocked (shapes per offset warm)", los_line),
                         ("LoS from scratch: SightLines(cache=False).clear", los_scratch),
                         ("LoS: SightLines.clear (plans per offset warm)", los_sight),
                         ("LoS game: Config.lof_clear (per-pair memo, warm)", los_game),
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
