"""The public core: everything the CLI, the mail judge, render and the demo use of `pbem.core`.

Outside the core and the rulesets, nothing imports another module of `pbem.core`: the import
graph test (`tests/test_import_graph.py`) holds `pbem.mail`, `pbem.render`, `pbem.cli` and
`pbem.demo` to this one. What is listed here is documented and kept; what is not (how the
archive is laid out and written, the seed chains, the replay) may change without notice.

Games
    load_game(game_dir) -> Game          game.yaml read and checked (strict YAML, schema, signature)
    game_from_file(path) -> Game         the same, given game.yaml itself or its folder
    new_game(scenario, game_id, referee_key, side_keys, game_dir, ...) -> Game
    noted_referee_key(game_dir)          the referee key `pbem new` noted, if any
    note_referee_key(game_dir, path)     note one (a relative path counts from the game folder)
    current_position(game) -> Position   the last committed adjudication: seq, state, awaiting, over
    status(game_dir, public=False)       the referee's (or the public) status report
    result_text(result)                  a game's result in words (winner, reason, rule)
    result_pointer(result, seq)          where a result's parts left out of result_text are, or None
    turn_record(game, seq)               turn `seq` as its document and bytes (0: the start)
    decisions(game, seq)                 the decision requests of an adjudication, each with its answer

Files handed in
    submit(game_dir, path, sig=None, *, referee_key=None, now=...) -> IntakeResult
        every signed file in `path` accepted (stored, receipt) or rejected (every error)
    inspect(game_dir, path, sig=None, *, check=True, now=...) -> list[Inspection]
        the same files as `submit` would see them, nothing stored: who signed each, whether
        the archive holds it already, and what would be refused and why

Adjudication and audit
    adjudicate(game_dir, referee_key, *, missing_none=False, lapse=False, now=...) -> AdjudicationReport
    lapse(game_dir, referee_key, *, now=...)   unanswered requests past their deadline take the
                                               rules' default, then adjudication goes on
    audit(game_dir) -> list[Discrepancy]; audit_report(game_dir) -> AuditReport
    export(game_dir, out, *, unfinished=False) the archive as a .tar.gz without referee secrets

The archive, read only
    ArchiveView(game_dir)                list turns, views, orders, decisions; read a file
    seq_dir(seq), turn_rel(seq), view_rel(seq, side)   where those files are
    referee_folder(game_dir)             the referee's private folder (for tools that keep state)
    require_game_dir(game_dir)           ArchiveError unless the folder holds a game.yaml

Players
    read_view, ViewFile, orders_template, check_orders, orders_document, reply_document,
    parse_answer, bot_seed, bot_orders_file, check_from_referee, refuse_rewound_in
    request_text, option_names, answer_from_text   a decision request's options by number and name
    Ledger, SignedFile, read_signed_file, held_games, ledgers_holding, ledger_summary, check_player

Rulesets, schemas, cases
    ruleset(id), rulesets() (ids in the registry), rules_for(ruleset, state) (bound to the setup a
    state or view carries), Rules, State, STANDING_KEY, public_next
    check_schema(doc, kind), schema_for(kind, ruleset), exported_schemas(), run_case_file(path)

Files, keys and time: `yamlio` and `signing` (the file formats, each module whole), SigningKey,
file_hash, Clock, StepClock, system_clock, parse_duration, atomic_write, fsync_dir; show_value(value),
a value as one line of YAML flow text (for people, never for files).

Errors: PbemError (every refusal pbem explains), Problem, ArchiveError, OrdersError, SignatureError,
UsageError (arguments a command cannot work with).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import yamlio
from .clock import Clock, StepClock, parse_duration, system_clock
from .errors import ArchiveError, OrdersError, PbemError, Problem, SignatureError, UsageError

if TYPE_CHECKING:  # the same names, imported on first use at run time (see `__getattr__`)
    from . import signing
    from .adjudicator import AdjudicationReport, DecisionFile, adjudicate, decision_files
    from .archive import SECRET_DIR, Archive, atomic_write, fsync_dir, seq_dir, turn_rel, view_rel
    from .audit import AuditReport, Discrepancy, audit, audit_report
    from .cases import CaseOutcome, run_case_file
    from .chance import file_hash
    from .export import export
    from .from_referee import check_from_referee, game_from_file
    from .game import (DEFAULT_CHAIN_LENGTH, GAME_ID, REFEREE_KEY_NOTE, Game, initial_state, load_game, new_game,
                       next_block, noted_referee_key)
    from .intake import Inspection, IntakeResult, Receipt, StoredCopy, inspect, submit
    from .ledger import Ledger, SignedFile, held_games, ledgers_holding, read_signed_file
    from .ledger import summary as ledger_summary
    from .options import show as show_value
    from .players import (ViewFile, answer_from_text, bot_orders_file, bot_seed, check_orders, option_names,
                          orders_document, orders_template, parse_answer, read_view, refuse_rewound_in,
                          reply_document, request_text)
    from .position import Position, announced_deadline, current_position, load_turn
    from .ruleset import STANDING_KEY, Rules, Ruleset, State, available, get, rules_for
    from .schemafiles import exported_schemas, load_schema, schema_for
    from .schemas import validate
    from .signing import SigningKey
    from .status import result_pointer, result_text, status
    from .verify_view import PlayerCheck, check_player
    from .views import public_next

# name -> (module of pbem.core, its name there; "" for the module itself). A one-shot command imports
# only what it uses: importing every core module up front cost about 75 ms of a `pbem check`, and
# `signing` (with cryptography) about 15 ms of a check that verifies no signature.
_LAZY: dict[str, tuple[str, str]] = {
    "signing": ("signing", ""),
    **{name: ("adjudicator", name) for name in ("AdjudicationReport", "DecisionFile", "adjudicate", "decision_files")},
    **{name: ("archive", name) for name in ("SECRET_DIR", "Archive", "atomic_write", "fsync_dir", "seq_dir",
                                            "turn_rel", "view_rel")},
    **{name: ("audit", name) for name in ("AuditReport", "Discrepancy", "audit", "audit_report")},
    **{name: ("cases", name) for name in ("CaseOutcome", "run_case_file")},
    "file_hash": ("chance", "file_hash"),
    "export": ("export", "export"),
    **{name: ("from_referee", name) for name in ("check_from_referee", "game_from_file")},
    "DEFAULT_CHAIN_LENGTH": ("chance", "DEFAULT_CHAIN_LENGTH"),  # `pbem --help` names it: not all of `game`
    **{name: ("game", name) for name in ("GAME_ID", "REFEREE_KEY_NOTE", "Game",
                                         "initial_state", "load_game", "new_game", "next_block",
                                         "noted_referee_key")},
    **{name: ("intake", name) for name in ("Inspection", "IntakeResult", "Receipt", "StoredCopy", "inspect",
                                           "submit")},
    **{name: ("ledger", name) for name in ("Ledger", "SignedFile", "held_games", "ledgers_holding",
                                           "read_signed_file")},
    "ledger_summary": ("ledger", "summary"),
    "show_value": ("options", "show"),
    **{name: ("players", name) for name in ("ViewFile", "answer_from_text", "bot_orders_file", "bot_seed",
                                            "check_orders", "option_names", "orders_document", "orders_template",
                                            "parse_answer", "read_view", "refuse_rewound_in", "reply_document",
                                            "request_text")},
    **{name: ("position", name) for name in ("Position", "announced_deadline", "current_position", "load_turn")},
    **{name: ("ruleset", name) for name in ("STANDING_KEY", "Rules", "Ruleset", "State", "available", "get",
                                            "rules_for")},
    **{name: ("schemafiles", name) for name in ("exported_schemas", "load_schema", "schema_for")},
    "validate": ("schemas", "validate"),
    "SigningKey": ("signing", "SigningKey"),
    **{name: ("status", name) for name in ("result_pointer", "result_text", "status")},
    **{name: ("verify_view", name) for name in ("PlayerCheck", "check_player")},
    "public_next": ("views", "public_next"),
}


if not TYPE_CHECKING:  # hidden from mypy, so a misspelt `api.NAME` stays a type error

    def __getattr__(name: str) -> Any:
        """A public name of another core module, imported when first asked for (PEP 562)."""
        where = _LAZY.get(name)
        if where is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        module = importlib.import_module(f"{__package__}.{where[0]}")
        value = getattr(module, where[1]) if where[1] else module
        globals()[name] = value
        return value


SIG_SUFFIX = ".sig"  # a detached signature: FILE and FILE.sig
_SIDE = re.compile(r"[a-z0-9][a-z0-9-]*")  # a side's name, as game.yaml's schema allows it


# --- games ------------------------------------------------------------------------------------------


def note_referee_key(game_dir: Path | str, path: str) -> None:
    """Note where the referee's private key is, for `adjudicate` and the judge (relative: from the game folder)."""
    from .archive import Archive
    from .game import REFEREE_KEY_NOTE

    Archive(game_dir).write_secret_note(REFEREE_KEY_NOTE, path)


def turn_record(game: Game, seq: int) -> tuple[dict[str, Any], bytes | None]:
    """Turn `seq` as its document and exact bytes, its signature checked.

    For 0, the starting position in the same shape (no phases, events, rolls or orders; the
    `next` block view 0 announced) and no bytes.
    """
    from .archive import Archive
    from .game import initial_state, next_block
    from .position import announced_deadline, load_turn
    from .ruleset import rules_for

    archive = Archive(game.root)
    if seq == 0:
        state = initial_state(game)
        start: dict[str, Any] = {
            "seq": 0, "phases": [], "events": [], "orders": [], "state": state,
            "dice": {"rolls": [], "seed": None, "phase_seed": None},
            "next": next_block(rules_for(game.ruleset, state), state, announced_deadline(archive, game)),
        }
        return start, None
    doc, data = load_turn(archive, game, seq)
    return doc, data


def decisions(game: Game, seq: int) -> dict[int, DecisionFile]:
    """The decision requests of adjudication `seq`, by index, each with its newest reply or lapse."""
    from .adjudicator import decision_files
    from .archive import Archive

    return decision_files(Archive(game.root), game, seq)


# --- adjudication -----------------------------------------------------------------------------------


def lapse(game_dir: Path | str, referee_key: SigningKey, *, now: Clock = system_clock) -> AdjudicationReport:
    """Every decision request past its deadline unanswered takes its first option (the rules' default),
    recorded in a signed lapse file; then the adjudication goes on as `adjudicate` would."""
    from .adjudicator import adjudicate

    return adjudicate(game_dir, referee_key, lapse=True, now=now)


# --- the archive, read only ---------------------------------------------------------------------------


class ArchiveView:
    """A game folder, read only: what is stored in it, never a way to store anything."""

    def __init__(self, game_dir: Path | str) -> None:
        from .archive import Archive

        self._archive = Archive(game_dir)
        self.root = Path(game_dir)

    def latest_seq(self) -> int:
        """The last committed adjudication (0 before the first)."""
        return self._archive.latest_seq()

    def turn_seqs(self) -> list[int]:
        """Every committed adjudication, in order."""
        return self._archive.turn_seqs()

    def views(self, seq: int) -> list[tuple[str, str]]:
        """(side, path) of every signed view of adjudication `seq` (0: the starting views), by side."""
        from .archive import view_rel

        folder = self.root / Path(view_rel(seq, "side")).parent
        if not folder.is_dir():
            return []
        found = []
        for entry in sorted(folder.iterdir()):
            side = entry.name[: -len(".yaml")]
            if (entry.name.endswith(".yaml") and _SIDE.fullmatch(side) and side != "turn" and entry.is_file()
                    and entry.with_name(entry.name + SIG_SUFFIX).is_file()):
                found.append((side, view_rel(seq, side)))
        return found

    def orders_files(self, seq: int) -> list[tuple[str, int, str]]:
        """(side, arrival number, path) of every accepted orders file for `seq`, in arrival order."""
        return self._archive.orders_files(seq)

    def decision_requests(self, seq: int) -> list[tuple[int, str]]:
        """(index, path) of every decision request of adjudication `seq`."""
        return self._archive.decision_requests(seq)

    def decision_replies(self, seq: int) -> list[tuple[int, int, str]]:
        """(request index, arrival number, path) of every stored reply for `seq`, in arrival order."""
        return self._archive.decision_replies(seq)

    def read(self, rel: str) -> bytes:
        """A file of the game (a regular file inside its folder, of bounded size); ArchiveError otherwise."""
        return self._archive.read(rel)

    def read_signed(self, rel: str) -> tuple[bytes, bytes]:
        """A file and its detached signature (`rel` + .sig), both as stored."""
        return self._archive.read(rel), self._archive.read(rel + SIG_SUFFIX)


def require_game_dir(game_dir: Path | str) -> None:
    """ArchiveError unless the folder holds a game (its game.yaml); nothing else is checked."""
    from .archive import Archive

    Archive(game_dir).require()


def referee_folder(game_dir: Path | str) -> Path:
    """The referee's private folder inside a game folder (never exported, never sent)."""
    from .archive import SECRET_DIR

    return Path(game_dir) / SECRET_DIR


# --- rulesets and schemas -----------------------------------------------------------------------------


def ruleset(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset registered under this id; PbemError naming the known ids otherwise."""
    from .ruleset import get

    return get(ruleset_id)


def rulesets() -> list[str]:
    """The ids of every ruleset the registry knows (shipped, installed, named in $PBEM_RULESETS)."""
    from .ruleset import available

    return available()


def check_schema(doc: yamlio.Document, kind: str) -> None:
    """Validate a document against the JSON Schema of a core file kind; SchemaError with every fault."""
    from .schemafiles import load_schema
    from .schemas import validate

    validate(doc, load_schema(kind))


__all__ = [
    # games
    "DEFAULT_CHAIN_LENGTH", "GAME_ID", "Game", "Position", "current_position", "decisions", "game_from_file",
    "load_game", "new_game", "note_referee_key", "noted_referee_key", "result_pointer", "result_text", "status",
    "turn_record",
    "DecisionFile",
    # files handed in
    "Inspection", "IntakeResult", "Receipt", "StoredCopy", "inspect", "submit",
    # adjudication and audit
    "AdjudicationReport", "AuditReport", "Discrepancy", "adjudicate", "audit", "audit_report", "export", "lapse",
    # the archive, read only
    "ArchiveView", "referee_folder", "require_game_dir", "seq_dir", "turn_rel", "view_rel", "SIG_SUFFIX",
    # players
    "Ledger", "PlayerCheck", "SignedFile", "ViewFile", "answer_from_text", "bot_orders_file", "bot_seed",
    "check_from_referee", "check_orders", "check_player", "held_games", "ledger_summary", "ledgers_holding",
    "option_names", "orders_document", "orders_template", "parse_answer", "read_signed_file", "read_view",
    "refuse_rewound_in", "reply_document", "request_text",
    # rulesets, schemas, cases
    "CaseOutcome", "Rules", "Ruleset", "STANDING_KEY", "State", "check_schema", "exported_schemas", "public_next",
    "ruleset", "rules_for", "rulesets", "run_case_file", "schema_for",
    # files, keys and time
    "Clock", "SigningKey", "StepClock", "atomic_write", "file_hash", "fsync_dir", "parse_duration", "show_value",
    "signing", "system_clock", "yamlio",
    # errors
    "ArchiveError", "OrdersError", "PbemError", "Problem", "SignatureError", "UsageError",
]
