"""The genesis file (`game.yaml`, docs/protocol.md §3): who plays, with which keys, under which seed chain."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from .. import __version__
from . import chance, clock, schemas, signing, yamlio
from .archive import HIDDEN_SECRET_FILE, SECRET_DIR, SECRET_FILE, Archive, commit_folder
from .doccache import load_checked, verified_signer
from .errors import ArchiveError, PbemError, Problem
from .ruleset import STANDING_KEY, Ruleset, Rules, State, get as get_ruleset, start
from .views import initial_view
from .schemafiles import load_schema, scenario_schema

GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{2,63}")
GAME_ID_RULE = ("a game id is 3 to 64 characters: lowercase letters, digits and hyphens, starting with a letter "
                "or digit")
PROTOCOL_VERSION = 2  # every new game; a version 1 archive still audits under version 1
DEFAULT_CHAIN_LENGTH = chance.DEFAULT_CHAIN_LENGTH
WARN_FRACTION_PERCENT = 90
RESERVED_SIDE = "turn"  # turns/NNNN/turn.yaml is the master; views are turns/NNNN/<side>.yaml
REFEREE_KEY_NOTE = "referee-key"  # where `adjudicate` finds the referee's private key by default


class Game(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    """game.yaml as loaded, with its exact bytes (their hash is the root of every chain)."""

    doc: dict[str, Any]
    data: bytes
    root: Path

    @property
    def id(self) -> str:
        return str(self.doc["game"])

    @property
    def sides(self) -> list[str]:
        return [entry["side"] for entry in self.doc["sides"]]

    @property
    def side_keys(self) -> dict[str, str]:
        return {entry["side"]: entry["key"] for entry in self.doc["sides"]}

    @property
    def referee_key(self) -> str:
        return str(self.doc["referee"]["key"])

    @property
    def hash(self) -> str:
        return chance.file_hash(self.data)

    @property
    def chain_length(self) -> int:
        return int(self.doc["seed_chain"]["length"])

    @property
    def anchor(self) -> bytes:
        return bytes.fromhex(self.doc["seed_chain"]["anchor"])

    @property
    def protocol(self) -> int:
        """1 or 2: which version of docs/protocol.md the game's files follow."""
        return int(self.doc["pbem"])

    @property
    def hidden_anchor(self) -> bytes | None:
        """t_0 of the hidden chain (version 2), or None for a version 1 game."""
        chain = self.doc.get("hidden_chain")
        return bytes.fromhex(chain["anchor"]) if chain else None

    def deadline_after(self, moment: str) -> str | None:
        """The orders deadline a phase opened at `moment` gets, if the game sets one (settings.deadline)."""
        duration = self.settings().get("deadline")
        if not duration or self.protocol < 2:
            return None
        return clock.utc_text(clock.parse_utc(moment) + clock.parse_duration(duration, "settings.deadline"))

    def decision_deadline_after(self, moment: str) -> str:
        """A decision request's deadline: settings.deadline after it is sent, or 72 hours."""
        duration = self.settings().get("deadline")
        span = clock.parse_duration(duration, "settings.deadline") if duration else clock.DEFAULT_DECISION_DEADLINE
        return clock.utc_text(clock.parse_utc(moment) + span)

    @property
    def ruleset(self) -> Ruleset[Any]:
        """The installed ruleset, if it is the version the game was started with."""
        ruleset = get_ruleset(self.doc["ruleset"]["id"])
        wanted = self.doc["ruleset"]["version"]
        if ruleset.version != wanted:
            raise PbemError(f"game.yaml was started under {ruleset.id} version {wanted}; this pbem has version "
                            f"{ruleset.version}: run the game with the version it began with")
        return ruleset

    def settings(self) -> dict[str, Any]:
        return dict(self.doc.get("settings") or {})

    def orders_namespace(self) -> str:
        return signing.namespace("orders", self.id)

    def turn_namespace(self) -> str:
        return signing.namespace("turn", self.id)


def load_game(root: Path | str) -> Game:
    """Read and check game.yaml: strict YAML, schema, referee signature."""
    archive = Archive(root)
    archive.require()
    stored = archive.read_signed("game.yaml")
    doc = load_checked(stored.data, str(archive.game_file), "game")
    referee = doc["referee"]["key"]
    verified_signer(stored.data, stored.signature, signing.namespace("turn", doc["game"]), {"referee": referee},
                    file=str(archive.game_file))
    hidden = doc.get("hidden_chain")
    if hidden and hidden["length"] != doc["seed_chain"]["length"]:
        raise ArchiveError(f"{archive.game_file}: hidden_chain.length must equal seed_chain.length (they run out "
                           "together, docs/protocol.md §3)")
    return Game(doc, stored.data, Path(root))


def load_scenario(path: Path | str) -> tuple[yamlio.Document, Ruleset[Any]]:
    """A scenario file, checked against the core schema and its ruleset's part."""
    return checked_scenario(yamlio.load_file(path))


def checked_scenario(doc: yamlio.Document) -> tuple[yamlio.Document, Ruleset[Any]]:
    schemas.validate(doc, load_schema("scenario"))
    ruleset = get_ruleset(doc.data["ruleset"])
    schemas.validate(doc, scenario_schema(ruleset))
    return doc, ruleset


def initial_state(game: Game) -> State:
    """The starting state: the ruleset's, from the scenario copy in the game dir, plus standing answers."""
    name = game.doc["scenario"]["file"]
    data = Archive(game.root).read(name)  # inside the game dir, a regular file, no link, bounded
    if chance.file_hash(data) != game.doc["scenario"]["sha256"]:
        raise ArchiveError(f"{game.root / name}: does not match the hash game.yaml fixes")
    scenario, ruleset = checked_scenario(yamlio.load_bytes(data, str(game.root / name)))
    return _with_standing(start(ruleset, scenario.data)[1], game.sides)


def _with_standing(state: State, sides: list[str]) -> State:
    standing = state.setdefault(STANDING_KEY, {})
    for side in sides:
        standing.setdefault(side, {})
    return state


def next_block(rules: Rules, state: State, deadline: str | None = None) -> dict[str, Any]:
    """The `next` of a turn or view: the phase awaited, by whom and until when, or the result."""
    result = rules.result(state)
    if result is not None:
        return {"result": result}
    block: dict[str, Any] = {"phase": rules.phase(state), "awaiting": rules.awaiting(state)}
    if deadline is not None:
        block["deadline"] = deadline
    return block


def new_game(scenario_path: Path | str, game_id: str, referee_key: signing.SigningKey,
             side_keys: Mapping[str, str], game_dir: Path | str, *, chain_length: int = DEFAULT_CHAIN_LENGTH,
             addresses: Mapping[str, str] | None = None, settings: Mapping[str, Any] | None = None,
             secret: bytes | None = None, referee_key_path: Path | None = None, hidden_secret: bytes | None = None,
             now: clock.Clock = clock.system_clock) -> Game:
    """Write the chain secret (0600), the scenario copy, every side's view 0 and, last, the signed game.yaml.

    game.yaml is the commit point: a directory without it is an unfinished `new` and is started over.
    """
    if not GAME_ID.fullmatch(game_id):
        raise PbemError(f"game id {game_id!r}: {GAME_ID_RULE} (docs/protocol.md §3)")
    archive = Archive(game_dir)
    if archive.exists():
        raise ArchiveError(f"{game_dir} already holds a game; pick an empty directory")
    scenario_doc, ruleset = load_scenario(scenario_path)
    sides = ruleset.sides(scenario_doc.data)
    if RESERVED_SIDE in sides:
        raise PbemError(f"{ruleset.id}: a side may not be called {RESERVED_SIDE!r} (the master file's name)")
    given = set(side_keys)
    if given != set(sides):
        raise PbemError(Problem(f"the scenario's sides are {', '.join(sides)}; keys were given for "
                                f"{', '.join(sorted(given)) or 'none'}", legal="--side SIDE=PUBKEY for each side"))
    for key in side_keys.values():
        signing.parse_public_key(key)
    keys = {" ".join(key.split()[:2]) for key in side_keys.values()} | {" ".join(referee_key.public_line.split()[:2])}
    if len(keys) != len(sides) + 1:
        raise PbemError("every side and the referee need keys of their own")
    if chain_length < 2:
        raise PbemError("the seed chain needs at least 2 links")
    import secrets  # (with hmac, random and base64) only a new game draws its secrets

    secret = secret if secret is not None else secrets.token_bytes(32)
    hidden = hidden_secret if hidden_secret is not None else secrets.token_bytes(32)  # drawn apart from s_L
    if hidden == secret:
        raise PbemError("the hidden chain needs a secret of its own")
    scenario_bytes = Path(scenario_path).read_bytes()
    doc: dict[str, Any] = {
        "pbem": PROTOCOL_VERSION,
        "kind": "game",
        "game": game_id,
        "ruleset": {"id": ruleset.id, "version": ruleset.version},
        "scenario": {"file": "scenario.yaml", "sha256": chance.file_hash(scenario_bytes)},
        "adjudicator": {"name": "pbem", "version": __version__},
        "referee": {"key": referee_key.public_line},
        "sides": [_side_entry(side, side_keys[side], (addresses or {}).get(side)) for side in sides],
        "seed_chain": {"length": chain_length, "anchor": chance.chain_anchor(game_id, secret, chain_length).hex()},
        "hidden_chain": {"length": chain_length,
                         "anchor": chance.hidden_anchor(game_id, hidden, chain_length).hex()},
    }
    if settings:
        doc["settings"] = dict(settings)
    data = yamlio.dump(doc).encode("utf-8")
    schemas.validate(yamlio.load_bytes(data, "game.yaml"), load_schema("game"))
    root = Path(game_dir)
    root.mkdir(parents=True, exist_ok=True)
    namespace = signing.namespace("turn", game_id)
    with archive.locked():
        _clear_unfinished_start(root)
        archive.write_secret(secret.hex())
        archive.write_secret(hidden.hex(), HIDDEN_SECRET_FILE)
        archive.write_private(marks_file(SECRET_FILE), chance.sealed_checkpoints(game_id, secret, chain_length))
        archive.write_private(marks_file(HIDDEN_SECRET_FILE),
                              chance.sealed_checkpoints(game_id, hidden, chain_length, chance.HIDDEN_CHAIN_LABEL))
        archive.atomic_write_plain("scenario.yaml", scenario_bytes)
        rules, state = start(ruleset, scenario_doc.data)
        state = _with_standing(state, sides)
        game_hash = chance.file_hash(data)
        started = Game(doc, data, root)
        deadline = started.deadline_after(clock.utc_text(now()))
        views: dict[str, bytes] = {}
        for side in sides:
            view = yamlio.dump(initial_view(rules, game_id, game_hash, side, state,
                                            next_block(rules, state, deadline), PROTOCOL_VERSION))
            views[f"{side}.yaml"] = view.encode("utf-8")
            views[f"{side}.yaml.sig"] = signing.sign(view.encode("utf-8"), referee_key, namespace).encode("utf-8")
        commit_folder(root / "views" / "0000", views)
        if referee_key_path is not None:
            archive.write_secret_note(REFEREE_KEY_NOTE, str(referee_key_path.resolve()))
        archive.write_signed_rel("game.yaml", data, signing.sign(data, referee_key, namespace))
    return Game(doc, data, root)


def _clear_unfinished_start(root: Path) -> None:
    """Remove what an interrupted `new` left (there is no game.yaml, so nothing else refers to it)."""
    for leftover in ("views", "scenario.yaml", "game.yaml.sig"):
        path = root / leftover
        if path.is_dir():
            import shutil  # only an interrupted `new` leaves a folder to remove

            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    unexpected = sorted(p.name for p in root.iterdir() if p.name != SECRET_DIR)
    if unexpected:
        raise ArchiveError(f"{root} is not empty ({', '.join(unexpected)}); pick an empty directory for a new game")


def _side_entry(side: str, key: str, address: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"side": side, "key": key.strip()}
    if address:
        entry["address"] = address
    return entry


def noted_referee_key(game_dir: Path | str) -> Path | None:
    """The referee key `pbem new` noted in .referee/ (a relative note counts from the game dir)."""
    note = Archive(game_dir).read_secret_note(REFEREE_KEY_NOTE)
    if not note:
        return None
    path = Path(note)
    return path if path.is_absolute() else Path(game_dir) / path


def marks_file(secret_file: str) -> str:
    """The private file that keeps the checkpoints of the chain whose secret is in `secret_file`."""
    return secret_file + ".marks"


def _open_marks(archive: Archive, secret_file: str, game_id: str, secret: bytes, length: int, label: str) -> None:
    """Spare the walk down the chain when the sealed checkpoints check under this secret (else walk)."""
    if chance.has_checkpoints(game_id, secret, length, label):
        return
    data = archive.read_private(marks_file(secret_file))
    if data is not None:
        chance.open_checkpoints(data, game_id, secret, length, label)


def chain_secret(game: Game) -> bytes:
    """The referee's s_L, checked against the anchor so a wrong secret file is caught at once."""
    archive = Archive(game.root)
    secret = bytes.fromhex(archive.read_secret())
    _open_marks(archive, SECRET_FILE, game.id, secret, game.chain_length, chance.CHAIN_LABEL)
    if chance.chain_anchor(game.id, secret, game.chain_length) != game.anchor:
        raise ArchiveError("the chain secret in .referee/ does not match game.yaml's anchor")
    return secret


def hidden_chain_seed(game: Game, k: int) -> bytes | None:
    """t_k for adjudication k from the referee's hidden secret (version 2), or None (version 1)."""
    anchor = game.hidden_anchor
    if anchor is None:
        return None
    archive = Archive(game.root)
    secret = bytes.fromhex(archive.read_secret(HIDDEN_SECRET_FILE))
    length = int(game.doc["hidden_chain"]["length"])
    _open_marks(archive, HIDDEN_SECRET_FILE, game.id, secret, length, chance.HIDDEN_CHAIN_LABEL)
    if chance.hidden_anchor(game.id, secret, length) != anchor:
        raise ArchiveError("the hidden-chain secret in .referee/ does not match game.yaml's hidden_chain anchor")
    return chance.hidden_seed(game.id, secret, length, k)
