"""Adjudication speed: bots play complete games; every adjudication is timed.

Two measurements per adjudication, both from outside the core (time.perf_counter around
library calls; nothing in pbem/ is changed):

- total: one call of `pbem.core.adjudicator.adjudicate` (lock, read, verify, resolve, write), in wall-clock
  time and in process CPU time (the CPU figure leaves out waiting for the disk and for other processes);
- the split, by running the same steps `adjudicate` runs, one library call at a time, on the same
  archive just before the real call: load (game.yaml, position, order files' bytes), verify
  (signatures), validate (strict YAML load + order checks against the side's view), resolve
  (`resolve_adjudication`), views (turn document, canonical dump, every side's view), write
  (referee signatures + `commit_folder` into a scratch folder on the same file system).

    python bench/adjudication.py [--ruleset fbsm] [--games 2] [--scenario FILE] [--dir FOLDER] [--repeat N]

`--scenario FILE` plays that scenario instead of the ruleset's sample (the ruleset is the file's
own `ruleset`): `bench/scenarios/` holds the tables of the speed goals, bst's 30 bases a side
(issue #14: one activation, median under 50 ms) and wtj1916's 20 units a side (issue #15).

Game g has chain secret bytes([g + 1]) * 32 and the fixed bench keys, so the games differ from
one another but are the same on every run.

The scratch turns of the split are left in place until the games are done: deleting them each
round (as this script did before issue #17's fifth part) made the file creations of the real
adjudication that follows dearer. Creating a file is kernel CPU time charged to the process, and
on the shared 2-core VM's ext4 it depends on the folder's neighbourhood: six 8 kB files cost
about 0.11 ms in a quiet folder, 0.56 ms in a /tmp that other jobs fill and empty all the time,
and 4.7 ms there when seven files were deleted beside them just before. The cause, seen with
`perf record` (issue #17, sixth part of round two): ext4 looks for a free inode from the start of
the block group every time and passes over each one freed in the last minutes (`find_inode_bit`,
`recently_deleted`: a third of all CPU samples of a run in a busy /tmp). `--dir` plays the games
in another folder than the system's temporary one.

`--repeat N` plays the same games N times over (each time in a new folder; the games are the
same, so adjudication i is the same work every time) and adds a row: for each adjudication the
least process CPU time it took over the N plays, then their mean, p50 and p95. Load from other
processes only ever adds to a figure, so this row moves much less from run to run than the
others (which pool every play). A new file's cost on ext4 is not load: it grows with the files
deleted nearby in the last minutes (the kernel passes over recently freed inodes), which each
play's clean-up adds to; `--dir /dev/shm` leaves the file system out.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import setup_game, table  # noqa: E402
from pbem.core import chance, schemas, signing, yamlio  # noqa: E402
from pbem.core.adjudicator import (AcceptedOrders, adjudicate, decision_files, newest_order_files,  # noqa: E402
                                   render_views, resolve_adjudication, turn_document)
from pbem.core.archive import Archive, commit_folder, view_rel  # noqa: E402
from pbem.core.game import chain_secret, hidden_chain_seed, load_game  # noqa: E402
from pbem.core.orders import orders_problems  # noqa: E402
from pbem.core.position import current_position  # noqa: E402
from pbem.core.views import view_state  # noqa: E402

STEPS = ["load", "verify", "validate", "resolve", "views", "write"]


def split(root: Path, scratch: Path, referee: signing.SigningKey) -> dict[str, float] | None:
    """The steps of one adjudication, timed one by one (None if it stops on a decision)."""
    t: dict[str, float] = {}
    start = time.perf_counter()
    archive = Archive(root)
    game = load_game(root)
    position = current_position(game)
    ruleset, seq = position.rules, position.next_seq
    stored = {side: (rel, archive.read_signed(rel)) for side, rel in newest_order_files(archive, seq).items()}
    t["load"] = time.perf_counter() - start

    start = time.perf_counter()
    signers = {side: signing.verify(s.data, s.signature, game.orders_namespace(), game.side_keys, file=rel)
               for side, (rel, s) in stored.items()}
    decisions = decision_files(archive, game, seq)  # reads + verifies requests/replies (none in most turns)
    t["verify"] = time.perf_counter() - start

    start = time.perf_counter()
    accepted = {}
    for side, (rel, s) in stored.items():
        doc = yamlio.load_bytes(s.data, rel)
        expect = position.expectation(signers[side])
        problems = orders_problems(doc, ruleset, expect, view_state(ruleset, position.state, side), side)
        assert not problems, problems
        accepted[side] = AcceptedOrders(side, rel, s.data, doc.data["entropy"], doc.data["orders"],
                                        dict(doc.data.get("standing") or {}))
    t["validate"] = time.perf_counter() - start

    start = time.perf_counter()
    seed = chance.chain_seed(game.id, chain_secret(game), game.chain_length, seq)
    answers = {i: r.answer for i, r in decisions.items() if r.reply_rel is not None}
    hidden = hidden_chain_seed(game, seq)
    outcome = resolve_adjudication(ruleset, game.id, game.sides, seq, position.state, position.previous_hash, seed,
                                   accepted, answers, hidden)
    t["resolve"] = time.perf_counter() - start
    if outcome.pending is not None:
        return None

    start = time.perf_counter()
    turn = turn_document(game, seq, position.previous_hash, seed, outcome, accepted, position.awaiting(),
                         decisions, ruleset, hidden)
    turn_bytes = yamlio.dump(turn).encode("utf-8")
    previous = {side: chance.file_hash(archive.read(view_rel(seq - 1, side))) for side in game.sides}
    views = render_views(ruleset, game, turn, turn_bytes, previous)
    t["views"] = time.perf_counter() - start

    start = time.perf_counter()
    files = {"turn.yaml": turn_bytes, "turn.yaml.sig": signing.sign(turn_bytes, referee, game.turn_namespace()).encode()}
    for side, data in views.items():
        files[f"{side}.yaml"] = data
        files[f"{side}.yaml.sig"] = signing.sign(data, referee, game.turn_namespace()).encode()
    commit_folder(scratch / f"{seq:04d}", files)  # kept until the end: see the module docstring
    t["write"] = time.perf_counter() - start
    return t


def play(ruleset_id: str, workdir: Path, secret: bytes, totals: list[float], splits: list[dict[str, float]],
         cpus: list[float], scenario: Path | None = None) -> int:
    game = setup_game(ruleset_id, workdir, secret=secret, scenario=scenario)
    scratch = workdir / "scratch"
    scratch.mkdir()
    rounds = 0
    while True:
        position = current_position(load_game(game.root))
        if position.over():
            return rounds
        for side in position.awaiting():
            game.play_orders(side)
        # the intake just checked these orders; a one-shot `pbem adjudicate` would check them afresh
        schemas.forget_results()
        parts = split(game.root, scratch, game.referee)
        schemas.forget_results()
        start, cpu = time.perf_counter(), time.process_time()
        report = adjudicate(game.root, game.referee)
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        while not report.committed:  # a decision: answer, adjudicate again (not counted in the split)
            side = yamlio.load_bytes((game.root / report.files[0]).read_bytes(), report.files[0]).data["side"]
            game.answer(side, report.files[0])
            start, cpu = time.perf_counter(), time.process_time()
            report = adjudicate(game.root, game.referee)
            elapsed, used = elapsed + time.perf_counter() - start, used + time.process_time() - cpu
            parts = None
        totals.append(elapsed)
        cpus.append(used)
        if parts is not None:
            splits.append(parts)
        rounds += 1


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default=None, help="default: the scenario's ruleset, else fbsm")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--scenario", type=Path, default=None, help="a scenario file (default: the ruleset's sample)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where to play the games (default: the system's temporary folder)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="play the same games N times; adds each adjudication's least CPU time over the N")
    args = parser.parse_args()
    scenario = args.scenario.resolve() if args.scenario else None
    named = str(yamlio.load_file(scenario).data["ruleset"]) if scenario else None
    if args.ruleset and named and args.ruleset != named:
        parser.error(f"{args.scenario} is a {named} scenario, not {args.ruleset}")
    args.ruleset = args.ruleset or named or "fbsm"
    totals: list[float] = []
    cpus: list[float] = []
    splits: list[dict[str, float]] = []
    cpus_by_play: list[list[float]] = []
    for _ in range(max(1, args.repeat)):
        played: list[float] = []
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            for g in range(args.games):  # a different game each
                play(args.ruleset, Path(tmp) / f"g{g}", bytes([g + 1]) * 32, totals, splits, played, scenario)
        cpus_by_play.append(played)
        cpus += played
    where = args.scenario or "the sample scenario"
    plays = f", played {len(cpus_by_play)} times over" if len(cpus_by_play) > 1 else ""
    print(f"{args.ruleset}: {args.games} complete bot games ({where}), {len(cpus_by_play[0])} adjudications{plays}; "
          f"split over the {len(splits)} without a decision")
    rows: list[list[object]] = [["adjudicate (total)", f"{statistics.mean(totals) * 1000:.1f}", f"{pct(totals, 50) * 1000:.1f}",
             f"{pct(totals, 95) * 1000:.1f}", ""],
            ["adjudicate (total, process CPU time)", f"{statistics.mean(cpus) * 1000:.1f}",
             f"{pct(cpus, 50) * 1000:.1f}", f"{pct(cpus, 95) * 1000:.1f}", ""]]
    if len(cpus_by_play) > 1:
        if len({len(played) for played in cpus_by_play}) != 1:
            raise SystemExit("the plays differ in their number of adjudications: the games are not the same")
        least = [min(column) for column in zip(*cpus_by_play)]
        rows.append([f"adjudicate (least process CPU time of each over the {len(cpus_by_play)} plays)",
                     f"{statistics.mean(least) * 1000:.1f}", f"{pct(least, 50) * 1000:.1f}", f"{pct(least, 95) * 1000:.1f}",
                     ""])
    split_sum = sum(sum(s.values()) for s in splits)
    for step in STEPS:
        values = [s[step] for s in splits]
        rows.append([f"  {step}", f"{statistics.mean(values) * 1000:.2f}", f"{pct(values, 50) * 1000:.2f}",
                     f"{pct(values, 95) * 1000:.2f}", f"{100 * sum(values) / split_sum:.0f}%"])
    print(table(["step", "mean ms", "p50 ms", "p95 ms", "share of split"], rows))
    print(f"adjudications per second: {len(totals) / sum(totals):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
