"""Shared by the benchmarks (and the determinism test): a reproducible bot game.

`play_bot_game` is `pbem.demo.setup_demo` + `DemoGame.round`, except that the chain secret is
fixed (`new_game(..., secret=...)`) and so are the keys of the referee and the bots (derived
from their names, or read from `keys_from`), so the same call gives the same archive byte for
byte, on any machine.
"""

from __future__ import annotations

import hashlib
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem.core import clock, signing, yamlio  # noqa: E402
from pbem.core.game import new_game  # noqa: E402
from pbem.core.ruleset import get as get_ruleset  # noqa: E402
from pbem.demo import DemoGame, default_scenario  # noqa: E402

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

SECRET = bytes(range(32))


def fixed_key(name: str) -> signing.SigningKey:
    """An Ed25519 key derived from `name`: the same on every run (benchmarks and tests only)."""
    private = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"pbem-bench/{name}".encode()).digest())
    return signing.SigningKey(private, signing._public_line(private.public_key().public_bytes_raw(), name))


def make_keys(keys: Path, names: list[str]) -> None:
    keys.mkdir(parents=True, exist_ok=True)
    for name in names:
        if not (keys / name).exists():
            signing.write_keypair(name, keys)


def setup_game(ruleset_id: str, workdir: Path, *, keys_from: Path | None = None, secret: bytes = SECRET,
               scenario: Path | None = None, chain_length: int = 1024) -> DemoGame:
    if scenario is None:  # the test-only duel ruleset keeps its scenario with the tests
        scenario = ROOT / "tests/rulesets/duel-scenario.yaml" if ruleset_id == "duel" else default_scenario(ruleset_id)
    ruleset = get_ruleset(ruleset_id)
    sides = ruleset.sides(yamlio.load_file(scenario).data)
    if keys_from is None:
        opened = {name: fixed_key(name) for name in ["referee", *sides]}
    else:
        keys = workdir / "keys"
        shutil.copytree(keys_from, keys)
        make_keys(keys, ["referee", *sides])
        opened = {name: signing.load_signing_key(keys / name, passphrase=b"") for name in ["referee", *sides]}
    root = workdir / "game"
    start = clock.StepClock()
    new_game(scenario, f"demo-{ruleset_id}", opened["referee"], {s: opened[s].public_line for s in sides}, root,
             chain_length=chain_length, secret=secret, hidden_secret=hashlib.sha256(b"hidden/" + secret).digest(),
             now=start)
    return DemoGame(root, opened["referee"], {s: opened[s] for s in sides}, lambda _: None, clock=start)


def play_bot_game(ruleset_id: str, workdir: Path, *, rounds: int | None = None, keys_from: Path | None = None,
                  secret: bytes = SECRET) -> DemoGame:
    game = setup_game(ruleset_id, workdir, keys_from=keys_from, secret=secret)
    done = 0
    while (rounds is None or done < rounds) and game.round():
        done += 1
    return game


def timed(action: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def table(headers: list[str], rows: list[list[object]]) -> str:
    """A GitHub-markdown table (readable as plain text too)."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)
