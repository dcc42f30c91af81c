"""The player's ledger (docs/protocol.md §4a, docs/ledger.md): every referee-signed file of a game, kept.

One folder per game, `<base>/<game-id>/`, the base being `--ledger DIR`, else `$PBEM_LEDGER`, else
`~/.pbem/ledger`. A file is stored only once its referee signature and its game id have been
checked, under a name made of its kind, seq, side and a hash prefix, so two different files never
share a name. Whatever the referee signed stays: two different signed files where the protocol
allows one (two views of the same seq and side, two game.yaml) are a proof of equivocation.

The folder is read back with the same checks: a file that does not verify under this game's
referee key (another game that happens to share the id, or a stray file) is ignored and counted.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Iterator, Mapping, NamedTuple

from . import chance, schemas, signing, yamlio
from .archive import MAX_ARCHIVED_BYTES, write_signed
from .errors import PbemError, Problem, SignatureError
from .game import GAME_ID, Game
from .schemafiles import load_schema

LEDGER_ENV = "PBEM_LEDGER"
DEFAULT_BASE = Path("~") / ".pbem" / "ledger"
KINDS = ("game", "view", "decision-request", "decision-lapse", "receipt", "turn")
HASH_PREFIX = 16  # hex digits in a file name; the full hash is used if a prefix is ever taken
MAX_HELD_FILES = 100_000  # a ledger folder holding more than this is not a ledger
SIG_SUFFIX = ".sig"


def ledger_base(option: Path | str | None = None) -> Path:
    """Where per-game ledger folders live: the option, else $PBEM_LEDGER, else ~/.pbem/ledger."""
    if option:
        return Path(option).expanduser()
    env = os.environ.get(LEDGER_ENV)
    if env:
        return Path(env).expanduser()
    return DEFAULT_BASE.expanduser()


def ledger_folder(game_id: str, base: Path | str | None = None) -> Path:
    if not GAME_ID.fullmatch(game_id):
        raise PbemError(f"{game_id!r} is not a game id: no ledger folder for it")
    return ledger_base(base) / game_id


class SignedFile(NamedTuple):  # not a dataclass: `pbem check` reads the ledger, and dataclasses cost it 7 ms
    """A referee-signed file a player holds, checked: where it is (as named), its bytes, signature, document.

    The one type for a file of the ledger (or about to enter it) and for a view or receipt the
    player names on the command line (`pbem verify-view`).
    """

    name: str
    data: bytes
    signature: str
    doc: dict[str, Any]

    @property
    def path(self) -> Path:
        return Path(self.name)

    @property
    def kind(self) -> str:
        return str(self.doc["kind"])

    @property
    def hash(self) -> str:
        return chance.file_hash(self.data)

    @property
    def seq(self) -> int:
        return int(self.doc.get("seq", 0))

    @property
    def side(self) -> str | None:
        side = self.doc.get("side")
        return str(side) if side is not None else None

    def describe(self) -> str:
        """`view 3 of red`, `receipt 2 of blue for seq 4 (orders/0004/blue-0007.yaml)`: for messages."""
        kind, doc = self.kind, self.doc
        if kind == "game":
            return f"game.yaml of {doc['game']}"
        if kind == "view":
            return f"view {doc['seq']} of {doc['side']}"
        if kind == "turn":
            return f"turn {doc['seq']}"
        if kind == "receipt":
            return f"receipt {doc['number']} of {doc['side']} for seq {doc['seq']} ({doc['file']})"
        return f"{kind} {doc.get('index')} of seq {doc['seq']} ({doc.get('side')})"

    def identities(self) -> list[tuple[Any, ...]]:
        """What no two different referee-signed files may share (each is one slot the protocol allows once)."""
        kind, doc = self.kind, self.doc
        if kind == "game":
            return [("game",)]
        if kind == "view":
            return [("view", doc["seq"], doc["side"])]
        if kind == "turn":
            return [("turn", doc["seq"])]
        if kind in ("decision-request", "decision-lapse"):
            return [(kind, doc["seq"], doc["index"])]
        # A receipt: one per arrival number of a side's orders for a seq (or of replies to one request),
        # and one per archive path.
        return [("receipt", doc["seq"], doc["side"], doc.get("request", "orders"), doc["number"]),
                ("receipt-file", doc["file"])]

    def file_name(self, full: bool = False) -> str:
        digest = self.hash[len("sha256:"):]
        tag = digest if full else digest[:HASH_PREFIX]
        kind, doc = self.kind, self.doc
        if kind == "game":
            return f"game-{tag}.yaml"
        parts = [kind, f"{doc['seq']:04d}"]
        if kind in ("decision-request", "decision-lapse"):
            parts.append(f"{doc['index']:03d}")
        if self.side is not None and kind != "turn":
            parts.append(self.side)
        return "-".join(parts + [tag]) + ".yaml"


class Equivocation(NamedTuple):
    """Two different referee-signed files for one slot: each signature verifies, so the pair is a proof."""

    what: str
    first: SignedFile
    second: SignedFile

    @property
    def files(self) -> str:
        return f"{self.first.path} and {self.second.path}"

    def __str__(self) -> str:
        return (f"equivocation: two different referee-signed files for {self.what}: {self.first.path.name} "
                f"({self.first.hash}) and {self.second.path.name} ({self.second.hash}); both signatures verify, "
                "so the pair is a signed proof that the referee showed two versions")


class Recorded(NamedTuple):
    held: SignedFile
    new: bool
    equivocations: tuple[Equivocation, ...]


def check_referee_file(game: Game, data: bytes, signature: str, name: str,
                       kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    """The document of a file the game's referee signed, of one of `kinds`, for this game; else PbemError."""
    signing.verify(data, signature, game.turn_namespace(), {"referee": game.referee_key}, file=name)
    doc = yamlio.load_bytes(data, name, max_bytes=MAX_ARCHIVED_BYTES)
    kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
    if kind not in kinds:
        raise PbemError(Problem(f"signed by the referee, but a {kind!r} file: the ledger keeps "
                                f"{', '.join(kinds)} files", file=name))
    schemas.validate(doc, load_schema(str(kind)))
    if doc.data["game"] != game.id:
        raise PbemError(Problem(f"a file of game {doc.data['game']!r}, not {game.id!r}", file=name, legal=game.id))
    data_doc: dict[str, Any] = doc.data
    return data_doc


def read_signed_file(path: Path | str) -> tuple[bytes, str]:
    """A file and the signature beside it (FILE.sig), both read with bounds."""
    if str(path).endswith(SIG_SUFFIX):
        raise PbemError(Problem("a signature: give the file it signs (its .sig beside it is read too)",
                                file=str(path), legal=str(path)[:-len(SIG_SUFFIX)]))
    data = yamlio.read_file(path, max_bytes=MAX_ARCHIVED_BYTES)
    sig = Path(str(path) + SIG_SUFFIX)
    try:
        signature = signing.read_signature(sig)
    except FileNotFoundError:
        raise PbemError(Problem("the referee's signature is not beside this file, so it cannot be kept or trusted",
                                file=str(path), legal=f"{sig.name} as the referee sent it")) from None
    return data, signature


class Ledger:
    """The ledger folder of one game, seen through that game's referee key."""

    def __init__(self, game: Game, base: Path | str | None = None) -> None:
        self.game = game
        self.folder = ledger_folder(game.id, base)
        self.ignored: list[str] = []  # files present but not this referee's signed files of this game
        self._held: list[SignedFile] | None = None

    @classmethod
    def open(cls, game: Game, base: Path | str | None = None) -> Ledger:
        """The game's ledger, with its game.yaml recorded (the root every other file hangs from)."""
        ledger = cls(game, base)
        ledger.record(game.data, signing.read_signature(game.root / "game.yaml.sig"), "game.yaml")
        return ledger

    # --- reading ----------------------------------------------------------------------------------
    def held(self) -> list[SignedFile]:
        if self._held is None:
            self._held = list(self._load())
        return list(self._held)

    def _load(self) -> Iterator[SignedFile]:
        self.ignored = []
        if not self.folder.is_dir():
            return
        names = sorted(entry.name for entry in os.scandir(self.folder))
        if len(names) > MAX_HELD_FILES:
            raise PbemError(f"{self.folder}: {len(names)} files; a ledger holds at most {MAX_HELD_FILES}")
        present = set(names)
        for name in names:
            if not name.endswith(".yaml") or name + SIG_SUFFIX not in present:
                continue
            path = self.folder / name
            try:
                if not stat.S_ISREG(os.lstat(path).st_mode):
                    raise PbemError("not a regular file")
                data, signature = read_signed_file(path)
                doc = check_referee_file(self.game, data, signature, str(path))
            except (PbemError, OSError):
                self.ignored.append(name)
                continue
            yield SignedFile(str(path), data, signature, doc)

    def find(self, file_hash: str) -> SignedFile | None:
        return next((held for held in self.held() if held.hash == file_hash), None)

    def of_kind(self, kind: str) -> list[SignedFile]:
        return sorted((held for held in self.held() if held.kind == kind), key=lambda h: (h.seq, h.side or "", h.path.name))

    def views(self, side: str | None = None) -> list[SignedFile]:
        return [held for held in self.of_kind("view") if side is None or held.side == side]

    def receipts(self) -> list[SignedFile]:
        return self.of_kind("receipt")

    def requests(self) -> list[SignedFile]:
        return self.of_kind("decision-request")

    def latest_view_seq(self) -> dict[str, int]:
        """Each side's highest view seq held."""
        latest: dict[str, int] = {}
        for held in self.views():
            side = str(held.side)
            latest[side] = max(latest.get(side, -1), held.seq)
        return latest

    def equivocations(self) -> list[Equivocation]:
        """Every pair of different files held for one slot (each pair once)."""
        found = []
        first_of: dict[tuple[Any, ...], SignedFile] = {}
        for held in self.held():
            for identity in held.identities():
                earlier = first_of.setdefault(identity, held)
                if earlier.hash != held.hash:
                    found.append(Equivocation(held.describe(), earlier, held))
        return found

    # --- writing ----------------------------------------------------------------------------------
    def record(self, data: bytes, signature: str, name: str = "file") -> Recorded:
        """Check and keep one referee-signed file; what it contradicts among the files held."""
        try:
            doc = check_referee_file(self.game, data, signature, name)
        except SignatureError as error:
            if isinstance(error, signing.SignatureMismatch):
                raise  # the referee's file, changed since it was signed: the hint below would mislead
            kept = Problem("a ledger keeps only files this game's referee signed; a player's own files stay "
                           "with the player", file=name, legal=f"{', '.join(KINDS)} files")
            raise SignatureError([*error.problems, kept]) from None
        incoming = SignedFile(name, data, signature, doc)
        held = self.held()
        same = next((h for h in held if h.hash == incoming.hash), None)
        if same is not None:
            return Recorded(same, False, ())
        target = self.folder / incoming.file_name()
        if target.exists():  # a hash prefix taken by another file (astronomically unlikely): the full hash
            target = self.folder / incoming.file_name(full=True)
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_signed(target, data, signature)
        stored = SignedFile(str(target), data, signature, doc)
        clashes = []
        for identity in stored.identities():
            other = next((h for h in held if identity in h.identities()), None)
            if other is not None and other.hash != stored.hash:
                clashes.append(Equivocation(stored.describe(), other, stored))
        assert self._held is not None
        self._held.append(stored)
        return Recorded(stored, True, tuple(clashes))


def held_games(game_id: str, base: Path | str | None = None) -> list[Game]:
    """Every game.yaml the ledger holds for this id, each checked against its own referee key."""
    folder = ledger_folder(game_id, base)
    if not folder.is_dir():
        return []
    games = []
    for path in sorted(folder.glob("game-*.yaml")):
        try:
            data, signature = read_signed_file(path)
            doc = yamlio.load_bytes(data, str(path))
            schemas.validate(doc, load_schema("game"))
            key = doc.data["referee"]["key"]
            signing.verify(data, signature, signing.namespace("turn", game_id), {"referee": key}, file=str(path))
        except (PbemError, OSError, ValueError):
            continue
        if doc.data["game"] == game_id:
            games.append(Game(doc.data, data, folder))
    return games


def ledgers_holding(game_id: str, file_hash: str, base: Path | str | None = None) -> list[Ledger]:
    """The ledgers (one per referee key that signed a game.yaml of this id) that hold a file of this hash."""
    found, keys = [], set()
    for game in held_games(game_id, base):
        key = " ".join(game.referee_key.split()[:2])
        if key in keys:
            continue
        keys.add(key)
        ledger = Ledger(game, base)
        if ledger.find(file_hash) is not None:
            found.append(ledger)
    return found


def summary(ledger: Ledger) -> list[str]:
    """What `pbem ledger show` prints."""
    lines = [f"ledger {ledger.folder} of game {ledger.game.id} (game.yaml {ledger.game.hash})"]
    by_side: dict[str, list[int]] = {}
    for view in ledger.views():
        by_side.setdefault(str(view.side), []).append(view.seq)
    for side in sorted(by_side):
        seqs = sorted(set(by_side[side]))
        lines.append(f"  views of {side}: {len(by_side[side])} file(s), seq {seqs[0]} to {seqs[-1]}")
    counts: Mapping[str, int] = {kind: len(ledger.of_kind(kind)) for kind in KINDS if kind not in ("view",)}
    for kind, count in counts.items():
        if count:
            lines.append(f"  {kind} files: {count}")
    if ledger.ignored:
        lines.append(f"  ignored: {len(ledger.ignored)} file(s) not signed by this game's referee "
                     f"({', '.join(ledger.ignored[:5])}{', ...' if len(ledger.ignored) > 5 else ''})")
    return lines
