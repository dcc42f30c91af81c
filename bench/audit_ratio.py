"""How much the audit costs over the least any checker must do, measured in one run.

The floor is reading every archived file and checking its signature: a verifier cannot do
less. The audit adds parsing, schema checks, the seed and hash chains, order re-validation,
replay of every adjudication and rebuilding every view. Reported as a ratio (audit / floor)
so the figure means the same on any machine.

    python bench/audit_ratio.py [--turns 40] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.core import ruleset, signing  # noqa: E402
from pbem.core.audit import audit  # noqa: E402
from pbem.core.game import load_game  # noqa: E402
from pbem.demo import setup_demo  # noqa: E402

ruleset.register("duel", "tests.rulesets.duel:Duel")


def play(workdir: Path, turns: int) -> Path:
    scenario = workdir / "scenario.yaml"
    scenario.write_text(f"pbem: 1\nkind: scenario\nruleset: duel\ntitle: bench\nsetup:\n  cells: 20\n  turns: {turns}\n")
    game = setup_demo("duel", scenario, workdir / "w", say=lambda _: None)
    while game.round():
        pass
    return game.root


def floor(root: Path) -> None:
    """Read every signed file and verify its signature against the right key set."""
    game = load_game(root)
    referee = {"referee": game.referee_key}
    for sig in sorted(root.rglob("*.sig")):
        rel = sig.relative_to(root)
        if str(rel).startswith(".referee"):
            continue
        data = sig.with_suffix("").read_bytes()
        player_file = rel.parts[0] == "orders" or "reply" in rel.name
        namespace = game.orders_namespace() if player_file else game.turn_namespace()
        signing.verify(data, sig.read_text(), namespace, game.side_keys if player_file else referee)


def timed(action, repeat: int) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = play(Path(tmp), args.turns)
        files = sum(1 for _ in root.rglob("*.yaml"))
        problems = audit(root)
        if problems:
            print("the benchmark game does not pass audit:", *problems, sep="\n")
            return 1
        base = timed(lambda: floor(root), args.repeat)
        full = timed(lambda: audit(root), args.repeat)
    print(f"archive: {files} YAML files, {args.turns} turns of duel")
    print(f"floor (read + verify every signature): {base * 1000:.1f} ms")
    print(f"audit (everything, with replay):       {full * 1000:.1f} ms")
    print(f"ratio audit/floor: {full / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
