"""How long one fire phase of 20 units a side takes to resolve (issue #15: under 50 ms median).

    .venv/bin/python -m tests.wtj1916.twenty_a_side [--runs 7]

bench/adjudication.py times whole adjudications of the sample scenario (a few units a side); this
builds the sample with 20 units a side (12 rifle platoons, 4 heavy machine guns, 2 field guns,
2 Mark IVs, 300 yards apart), lets the bots give the fire orders, and times `resolve` in CPU
time (the machine is shared): with a fresh context, and after the views and validation have run
on the same context, as they do in an adjudication.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from pathlib import Path
from typing import Any

from pbem.core import chance, yamlio
from pbem.core.ruleset import Decisions, Submission, start
from pbem.rulesets.wtj1916 import Wtj1916

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "wtj1916" / "scenario.yaml"
TYPES = ["rifles"] * 12 + ["hmg"] * 4 + ["field-gun"] * 2 + ["mark-iv"] * 2


def units(side: str, y: int, facing: int, step: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, kind in enumerate(TYPES):
        row, col = divmod(i, 10)
        x0, uid = 40 + col * 115, f"{side[0]}{i}"
        count = 4 if kind == "rifles" else 1
        out[uid] = {"side": side, "type": kind, "battalion": f"{side[0]}-1",
                    "bases": {f"{uid}-{'abcd'[k]}": {"at": [x0 + 24 * k, y + row * step], "facing": facing}
                              for k in range(count)}}
    return out


def scenario() -> dict[str, Any]:
    doc = copy.deepcopy(dict(yamlio.load_file(SAMPLE).data))
    doc["setup"]["units"] = {**units("british", 250, 0, -40), **units("german", 450, 180, 40)}
    doc["setup"]["battalions"] = {"b-1": {"side": "british"}, "g-1": {"side": "german"}}
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    game = Wtj1916()
    rules, state = start(game, scenario())
    state["phase"] = "fire"
    subs = {side: Submission(side, rules.bot_orders(rules.view(state, side), side, b"bench"))
            for side in ("british", "german")}
    fresh, after = [], []
    for run in range(runs):
        dice = chance.sha256(b"dice" + bytes([run]))
        context = game.prepare(rules.setup)
        t0 = time.process_time()
        game.resolve(context, copy.deepcopy(state), subs, chance.Dice(dice), Decisions())
        fresh.append(time.process_time() - t0)
        context = game.prepare(rules.setup)
        for side, sub in subs.items():
            assert game.validate(context, game.view(context, state, side), side, sub.orders) == []
        t0 = time.process_time()
        game.resolve(context, copy.deepcopy(state), subs, chance.Dice(dice), Decisions())
        after.append(time.process_time() - t0)
    orders = sum(len(sub.orders) for sub in subs.values())
    print(f"20 units a side, {orders} fire orders, {runs} runs: resolve median "
          f"{1000 * statistics.median(after):.1f} ms after views and validation, "
          f"{1000 * statistics.median(fresh):.1f} ms with a fresh context (CPU time)")


if __name__ == "__main__":
    main()
