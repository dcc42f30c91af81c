"""`pbem demo`: a complete game with bots on every side, through the same files a real game uses.

Each bot sees only its own view file; it writes an orders file, signs it with its own key, and
the referee takes it through `submit` like any mail. Decisions go out as requests and come
back as signed replies. At the end the archive is audited.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .core.api import (ArchiveView, PbemError, StepClock, adjudicate, audit, bot_orders_file, bot_seed,
                       current_position, load_game, new_game, note_referee_key, reply_document, result_pointer,
                       result_text, ruleset, signing, submit, view_rel, yamlio)

MAX_ROUNDS = 10_000


@dataclass
class DemoGame:
    """A game directory plus the keys of its referee and players (in `keys/` beside it)."""

    root: Path
    referee: signing.SigningKey
    players: dict[str, signing.SigningKey]
    say: Callable[[str], None]
    standing: dict[str, dict[str, object]] = field(default_factory=dict)  # side -> standing answers to send
    clock: StepClock = field(default_factory=StepClock)  # simulated time: the same bytes on replay

    def mailbox(self, side: str) -> Path:
        path = self.root.parent / "mail" / side
        path.mkdir(parents=True, exist_ok=True)
        return path

    def latest_view(self, side: str) -> Path:
        return self.root / view_rel(ArchiveView(self.root).latest_seq(), side)

    def play_orders(self, side: str) -> None:
        """The side's bot writes and signs its orders, and the referee takes them through `submit`."""
        seq = ArchiveView(self.root).latest_seq() + 1
        path = bot_orders_file(self.root, side, self.players[side], self.mailbox(side) / f"orders-{seq:04d}.yaml",
                               self.standing.get(side))
        self._submit(side, path)

    def answer(self, side: str, request_rel: str) -> None:
        data = (self.root / request_rel).read_bytes()
        request = yamlio.load_bytes(data, request_rel).data
        rules = ruleset(load_game(self.root).doc["ruleset"]["id"])
        secret = self.players[side].private.private_bytes_raw()
        answer = rules.bot_answer(request, bot_seed("pbem/bot/answer", secret, data))
        path = self.mailbox(side) / Path(request_rel).name.replace("request", f"reply-{request['seq']:04d}")
        reply = yamlio.dump(reply_document(request, data, answer)).encode("utf-8")
        path.write_bytes(reply)
        sig = signing.sign(reply, self.players[side], load_game(self.root).orders_namespace())
        path.with_name(path.name + ".sig").write_text(sig, encoding="utf-8")
        self._submit(side, path)

    def _submit(self, side: str, path: Path) -> None:
        result = submit(self.root, path, referee_key=self.referee, now=self.clock)
        if result.errors:
            raise PbemError(f"the {side} bot's file was rejected: {result.errors[0]}")

    def round(self) -> bool:
        """One exchange: every awaited side sends orders, the referee adjudicates. False when over."""
        position = current_position(load_game(self.root))
        if position.over():
            return False
        for side in position.awaiting():
            self.play_orders(side)
        report = adjudicate(self.root, self.referee, now=self.clock)
        while not report.committed:
            side = yamlio.load_bytes((self.root / report.files[0]).read_bytes(), report.files[0]).data["side"]
            self.say(f"  seq {report.seq}: {side} is asked to decide ({report.files[0]})")
            self.answer(side, report.files[0])
            report = adjudicate(self.root, self.referee, now=self.clock)
        self.say(f"  {report.message}")
        return True


def seed_from_file(path: Path) -> bytes:
    """The demo seed a file stands for: the SHA-256 of its bytes, whatever they are."""
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError as exc:
        raise PbemError(f"cannot read the seed file: {exc.strerror}", file=str(path)) from None


def _derived(seed: bytes, label: str) -> bytes:
    return hashlib.sha256(b"pbem/demo/" + label.encode("utf-8") + b"\0" + seed).digest()


def setup_demo(ruleset_id: str, scenario: Path, workdir: Path, *, chain_length: int = 1024,
               say: Callable[[str], None] = print, seed: bytes | None = None) -> DemoGame:
    """Keys in workdir/keys and a new game in workdir/game.

    Without a seed the keys and the chain secret are fresh. With one, both derive from it, and
    since the bots draw their choices from their keys and views, the whole archive does too:
    the same seed plays the same game, byte for byte.
    """
    keys = workdir / "keys"
    keys.mkdir(parents=True, exist_ok=True)
    sides = ruleset(ruleset_id).sides(yamlio.load_file(scenario).data)
    opened = {}
    for name in ["referee", *sides]:
        if not (keys / name).exists():
            private = Ed25519PrivateKey.from_private_bytes(_derived(seed, "key/" + name)) if seed else None
            signing.write_keypair(name, keys, private)
        opened[name] = signing.load_signing_key(keys / name, passphrase=b"")
    root = workdir / "game"
    public = {side: opened[side].public_line for side in sides}
    start = StepClock()
    new_game(scenario, f"demo-{ruleset_id}", opened["referee"], public, root, chain_length=chain_length,
             secret=_derived(seed, "chain-secret") if seed else None,
             hidden_secret=_derived(seed, "hidden-secret") if seed else None, now=start)
    note_referee_key(root, "../keys/referee")  # relative: the same bytes in any folder
    return DemoGame(root, opened["referee"], {side: opened[side] for side in sides}, say, clock=start)


def play_demo(ruleset_id: str, scenario: Path | None, workdir: Path, *, chain_length: int = 1024,
              seed: bytes | None = None) -> int:
    if workdir.exists() and any(workdir.iterdir()):
        print(f"{workdir} is not empty; give a new directory", file=sys.stderr)
        return 2
    scenario = scenario or default_scenario(ruleset_id)
    print(f"pbem demo: {ruleset_id} from {scenario}, bots on every side, in {workdir}")
    game = setup_demo(ruleset_id, scenario, workdir, chain_length=chain_length, seed=seed)
    rounds = 0
    while game.round():
        rounds += 1
        if rounds > MAX_ROUNDS:
            print("the game did not end; stopping", file=sys.stderr)
            return 1
    last = current_position(load_game(game.root))
    result = last.next()["result"]
    print(f"game over after {rounds} exchanges: {result_text(result)}")
    pointer = result_pointer(result, last.seq)
    if pointer:
        print(f"  {pointer}")
    for path in picture_last_views(game):
        print(f"  {path}")
    found = audit(game.root)
    for item in found:
        print(item)
    print("audit: OK" if not found else f"audit: {len(found)} discrepancies")
    return 0 if not found else 1


def picture_last_views(game: DemoGame) -> list[Path]:
    """Each side's map picture and plain-text report of the last adjudication, beside the game."""
    from .render import has_map, map_svg, report_text

    out = game.root.parent / "pictures"
    out.mkdir(exist_ok=True)
    written = []
    for side in game.players:
        view = yamlio.load_file(game.latest_view(side)).data
        stem = out / f"{side}-{view['seq']:04d}"
        written.append(stem.with_suffix(".txt"))
        written[-1].write_text(report_text(view), encoding="utf-8")
        if not has_map(view):
            continue  # a ruleset without pictures (such as the duel fixture) gets the report only
        written.append(stem.with_suffix(".svg"))
        written[-1].write_text(map_svg(view), encoding="utf-8")
    return written


def default_scenario(ruleset_id: str) -> Path:
    """The sample scenario shipped for a ruleset (samples/<id>/scenario.yaml)."""
    here = Path(__file__).resolve().parent.parent / "samples" / ruleset_id / "scenario.yaml"
    if not here.is_file():
        shipped = ", ".join(sorted(p.name for p in here.parent.parent.iterdir() if (p / "scenario.yaml").is_file()))
        raise PbemError(f"no sample scenario for {ruleset_id!r} at {here}; pass --scenario, or name one of "
                        f"the games with a sample: {shipped}")
    return here
