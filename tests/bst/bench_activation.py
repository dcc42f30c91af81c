"""How long bst takes to adjudicate an activation on a table of 30 bases a side (issue #14's
goal: a median under 50 ms). Not a test: run `.venv/bin/python tests/bst/bench_activation.py`
from the repository's root. Ten sections of three bases a side (two rifles and a belt LMG)
face each other across the sample table; the bots play until the game ends; each
adjudication that answers a card is timed, and divided by the cards it drew for the time per
activation."""

from __future__ import annotations

import copy
import statistics
import time
from pathlib import Path
from typing import Any

from pbem.core import yamlio
from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, Submission, start
from pbem.rulesets.bst import Bst

ROOT = Path(__file__).resolve().parents[2]
SIDES = ("allies", "axis")


def scenario() -> dict[str, Any]:
    doc: dict[str, Any] = copy.deepcopy(yamlio.load_file(ROOT / "samples" / "bst" / "scenario.yaml").data)
    units: dict[str, Any] = {}
    for side, suit, y, facing in (("allies", "D", 100, 0), ("axis", "C", 1100, 180)):
        for i, value in enumerate("AKQJT98765"):
            uid = f"{side[:2]}{i}"
            units[uid] = {"side": side, "card": value + suit, "command": "B",
                          "bases": {f"{uid}{c}": {"at": [100 + i * 160 + k * 40, y], "facing": facing,
                                                  "weapon": "lmg-belt" if k == 2 else "rifles"}
                                    for k, c in enumerate("abc")}}
    doc["setup"]["units"] = units
    return doc


def main() -> None:
    rules, state = start(Bst(), scenario())
    per_activation: list[float] = []
    per_adjudication: list[float] = []
    for number in range(400):
        if rules.result(state) is not None:
            break
        subs: dict[str, Submission | None] = {side: None for side in SIDES}
        for side in rules.awaiting(state):
            subs[side] = Submission(side, rules.bot_orders(rules.view(state, side), side, b"b%d" % number))
        began = time.perf_counter()
        out = rules.resolve(copy.deepcopy(state), subs, Dice(number.to_bytes(4, "big") * 8), Decisions())
        elapsed = time.perf_counter() - began
        if rules.awaiting(state):
            per_adjudication.append(elapsed)
            per_activation.append(elapsed / max(1, sum(1 for e in out.events if e["type"] == "drawn")))
        state = out.state
    print(f"30 bases a side, {len(per_adjudication)} adjudications: median {statistics.median(per_activation) * 1000:.1f} ms"
          f" an activation, {statistics.median(per_adjudication) * 1000:.1f} ms an adjudication"
          f" (90th percentile {sorted(per_adjudication)[len(per_adjudication) * 9 // 10] * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
