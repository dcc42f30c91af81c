"""`pbem audit` and `pbem verify-view` (docs/protocol.md §5): re-check a game from its files alone.

The audit never needs the referee's secret: every seed is revealed in its turn file. It checks
every signature, both hash chains, the seed chain, every phase seed and roll, every order's
envelope and legality, and replays each adjudication to the same rolls, events and state;
views must equal the filter of their master, byte for byte.
"""

from __future__ import annotations

import contextlib
import re

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from . import chance, clock, schemas, signing, yamlio
from .adjudicator import (AcceptedOrders, DecisionFile, Outcome, decision_files, newest_order_files, render_views,
                          request_document, request_rel, resolve_adjudication, turn_document)
from .archive import Archive, receipt_rel, seq_dir, turn_rel, view_rel
from .errors import PbemError, format_path
from .game import Game, initial_state, load_game, next_block
from .intake import receipt_document
from .orders import Expectation, orders_problems
from .quickload import canonical_bytes, quick_load, recorded_turn_parts
from .ruleset import Rules, rules_for
from .schemafiles import load_schema
from .status import result_headline
from .views import initial_view, view_state


# What the next turn's check builds on: state, file hash of the turn, (s_k, t_k), the next deadline.
_Next = tuple[dict[str, Any], str, tuple[bytes, bytes | None], str | None]


@dataclass(frozen=True)
class Discrepancy:
    file: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}"


class Auditor:
    """Walks one archive, collecting every discrepancy instead of stopping at the first."""

    def __init__(self, root: Path | str) -> None:
        self.archive = Archive(root)
        self.found: list[Discrepancy] = []
        self._hashes: dict[str, str] = {}  # file hash of each view and orders file already read in full
        self._records: dict[int, dict[int, DecisionFile]] = {}  # seq -> the decision files read
        self._schemas: dict[str, dict[str, Any]] = {}
        self.summary = "nothing verified"

    def note(self, file: str, field: str, message: str) -> None:
        self.found.append(Discrepancy(file, field, message))

    # --- helpers --------------------------------------------------------------------------------
    def signed(self, rel: str, namespace: str, allowed: Mapping[str, str]) -> tuple[bytes, str] | None:
        """The file's bytes and signer, or None (noted) if it is missing or its signature fails."""
        try:
            stored = self.archive.read_signed(rel)
            signer = signing.verify(stored.data, stored.signature, namespace, allowed, file=rel)
        except PbemError as error:
            self.note(rel, "signature", str(error))
            return None
        return stored.data, signer

    def parse(self, rel: str, data: bytes, kind: str) -> dict[str, Any] | None:
        quick = quick_load(data)
        if quick is not None and schemas.is_valid(quick, self.schema(kind)):
            return quick
        try:
            doc = yamlio.load_bytes(data, rel)
            schemas.validate(doc, self.schema(kind))
        except PbemError as error:
            self.note(rel, "content", str(error))
            return None
        result: dict[str, Any] = doc.data
        return result

    def same(self, rel: str, field: str, expected: Any, found: Any) -> bool:
        if expected != found:
            self.note(rel, field, f"expected {_short(expected)}, found {_short(found)}")
            return False
        return True

    # --- the walk -------------------------------------------------------------------------------
    def run(self) -> list[Discrepancy]:
        try:
            game = load_game(self.archive.root)
            ruleset = game.ruleset
        except PbemError as error:
            self.note("game.yaml", "game", str(error))
            return self.found
        try:
            state = initial_state(game)
            rules = rules_for(ruleset, state)
        except PbemError as error:
            self.note("scenario.yaml", "scenario", str(error))
            return self.found
        deadline = self.check_initial_views(game, rules, state)
        previous_hash, previous_seed, previous_hidden = game.hash, game.anchor, game.hidden_anchor
        verified = 0
        for expected_seq, seq in enumerate(self.archive.turn_seqs(), 1):
            if seq != expected_seq:
                self.note(turn_rel(seq), "seq", "turn folders are not numbered 1, 2, 3... without gaps")
                break
            checked = self.check_turn(game, rules, seq, state, previous_hash, (previous_seed, previous_hidden),
                                      deadline)
            if checked is None:
                break
            state, previous_hash, (previous_seed, previous_hidden), deadline = checked
            verified = seq
        self.check_pending(game, verified + 1, state, rules, deadline)
        self.summary = _summary(rules, state, verified)
        return self.found

    def check_initial_views(self, game: Game, rules: Rules, state: dict[str, Any]) -> str | None:
        """Every side's view 0; the orders deadline they announce (the same in each, or noted)."""
        announced: str | None = None
        for index, side in enumerate(game.sides):
            rel = view_rel(0, side)
            got = self.signed(rel, game.turn_namespace(), {"referee": game.referee_key})
            if got is None:
                continue
            self._hashes[rel] = chance.file_hash(got[0])
            if index == 0:
                announced = _announced_deadline(got[0], rel) if game.protocol >= 2 else None
            expected = yamlio.dump(initial_view(rules, game.id, game.hash, side, state,
                                                next_block(rules, state, announced), game.protocol))
            if got[0] != expected.encode("utf-8"):
                self.note(rel, _first_difference(got[0], expected.encode()), "view 0 differs from the starting state's "
                          "filter for this side")
        return announced

    def check_turn(self, game: Game, rules: Rules, seq: int, state: dict[str, Any], previous_hash: str,
                   previous_seeds: tuple[bytes, bytes | None], deadline: str | None) -> _Next | None:
        """Check turn `seq`; give the state, file hash, seeds and deadline the next turn builds on.

        First the quick way: rebuild the turn file from the replay and compare bytes. Only if that
        finds anything at all (or cannot be tried) is it forgotten and the turn checked field by
        field, which names every discrepancy.
        """
        before = len(self.found)
        quick = self.quick_turn(game, rules, seq, state, previous_hash, previous_seeds, deadline)
        if quick is not None and len(self.found) == before:
            return quick
        del self.found[before:]
        return self.full_turn(game, rules, seq, state, previous_hash, previous_seeds, deadline)

    def quick_turn(self, game: Game, rules: Rules, seq: int, state: dict[str, Any], previous_hash: str,
                   previous_seeds: tuple[bytes, bytes | None], deadline: str | None) -> _Next | None:
        """The check of a sound turn without reading its file as YAML; None at the first doubt.

        The few values a turn takes from outside the replay (its seeds, the next deadline) are
        picked out of the text; everything else is rebuilt exactly as `adjudicate` builds it. If the
        canonical dump of the rebuilt turn equals the stored bytes, the stored turn is that
        document, so every field check of `full_turn` holds; the checks on other files (orders,
        decisions, receipts, views) run as in `full_turn`, and any note they make sends the turn
        the full way.
        """
        rel = turn_rel(seq)
        got = self.signed(rel, game.turn_namespace(), {"referee": game.referee_key})
        recorded = recorded_turn_parts(got[0]) if got else None
        if got is None or recorded is None:
            return None
        data = got[0]
        dice = {"seed": recorded.seed} if recorded.hidden_seed is None else \
            {"seed": recorded.seed, "hidden_seed": recorded.hidden_seed}
        seed = self.check_seed(game, seq, {"dice": dice}, rel, previous_seeds[0])
        hidden = self.check_hidden_seed(game, seq, {"dice": dice}, rel, previous_seeds[1])
        if seed is None or (hidden is None and game.protocol >= 2) or \
                (recorded.next_deadline is not None and game.protocol < 2):
            return None
        awaited = [] if rules.result(state) is not None else rules.awaiting(state)
        newest = newest_order_files(self.archive, seq)
        if not set(newest) <= set(game.sides):
            return None
        accepted: dict[str, AcceptedOrders] = {}
        for side in game.sides:
            if side in newest:
                item = self.quick_orders(game, rules, seq, newest[side], side, state, awaited)
                if item is None:
                    return None
                accepted[side] = item
        try:
            records = decision_files(self.archive, game, seq)
        except PbemError:
            return None
        self._records[seq] = records
        answers = {index: record.answer for index, record in records.items() if record.reply_rel is not None}
        try:
            outcome = resolve_adjudication(rules, game.id, game.sides, seq, state, previous_hash, seed, accepted,
                                           answers, hidden)
        except PbemError:
            return None
        if outcome.pending is not None or set(records) != set(answers) or \
                set(records) != {request.index for request in outcome.asked}:
            return None
        expected = turn_document(game, seq, previous_hash, seed, outcome, accepted, awaited, records, rules, hidden,
                                 deadline, recorded.next_deadline)
        if not isinstance(outcome.state, dict) or not schemas.is_valid(dict(expected, state={}), self.schema("turn")) \
                or not canonical_bytes(expected, data):
            return None
        self.check_requests(game, seq, previous_hash, outcome)
        if game.protocol >= 2:
            self.check_receipts(game, seq, state, rules, deadline, expected)
        self.check_views(game, rules, seq, expected, data)
        return outcome.state, chance.file_hash(data), (seed, hidden), recorded.next_deadline

    def quick_orders(self, game: Game, rules: Rules, seq: int, file: str, side: str, state: dict[str, Any],
                     awaited: Sequence[str]) -> AcceptedOrders | None:
        """A side's newest orders file, if signed by that side and legal (else noted)."""
        got = self.signed(file, game.orders_namespace(), game.side_keys)
        if got is None or got[1] != side:
            return None
        self._hashes[file] = chance.file_hash(got[0])  # its receipt names it
        doc = self.legal_orders(game, rules, seq, file, got[0], side, state, awaited)
        if doc is None:
            return None
        return AcceptedOrders(side, file, got[0], doc["entropy"], list(doc["orders"]), dict(doc.get("standing") or {}))

    def full_turn(self, game: Game, rules: Rules, seq: int, state: dict[str, Any], previous_hash: str,
                  previous_seeds: tuple[bytes, bytes | None], deadline: str | None) -> _Next | None:
        """Check turn `seq` field by field, noting every discrepancy."""
        rel = turn_rel(seq)
        got = self.signed(rel, game.turn_namespace(), {"referee": game.referee_key})
        turn = self.parse(rel, got[0], "turn") if got else None
        if got is None or turn is None:
            return None
        turn_bytes = got[0]
        self.same(rel, "pbem", game.protocol, turn["pbem"])
        self.same(rel, "game", game.id, turn["game"])
        self.same(rel, "seq", seq, turn["seq"])
        self.same(rel, "previous", previous_hash, turn["previous"])
        seed = self.check_seed(game, seq, turn, rel, previous_seeds[0])
        hidden = self.check_hidden_seed(game, seq, turn, rel, previous_seeds[1])
        accepted = self.check_orders(game, rules, seq, turn, state, rel)
        answers = self.check_decisions(game, seq, turn, rel)
        if game.protocol >= 2:
            self.check_receipts(game, seq, state, rules, deadline, turn)
        if seed is not None and accepted is not None and answers is not None and (hidden or game.protocol < 2):
            self.replay(game, rules, seq, turn, state, previous_hash, seed, accepted, answers, rel, hidden)
        self.same(rel, "state_sha256", chance.state_hash(turn["state"]), turn["state_sha256"])
        self.check_views(game, rules, seq, turn, turn_bytes)
        recorded_seed = seed if seed is not None else bytes.fromhex(turn["dice"]["seed"])
        recorded_hidden = hidden
        if hidden is None and "hidden_seed" in turn["dice"]:
            recorded_hidden = bytes.fromhex(turn["dice"]["hidden_seed"])
        return turn["state"], chance.file_hash(turn_bytes), (recorded_seed, recorded_hidden), turn["next"].get(
            "deadline")

    def check_hidden_seed(self, game: Game, seq: int, turn: Mapping[str, Any], rel: str,
                          previous: bytes | None) -> bytes | None:
        """t_k (version 2), if it is well formed and hashes to t_(k-1) (the hidden anchor for k = 1)."""
        recorded = turn["dice"].get("hidden_seed")
        if game.protocol < 2:
            if recorded is not None:
                self.note(rel, "dice.hidden_seed", "a version 1 game has no hidden chain")
            return None
        if recorded is None or previous is None:
            self.note(rel, "dice.hidden_seed", "missing: a version 2 turn reveals t_k in its master file")
            return None
        seed = bytes.fromhex(recorded)
        if not chance.hidden_follows(game.id, seed, previous):
            self.note(rel, "dice.hidden_seed", f"t_{seq} does not hash to t_{seq - 1} (the hidden chain is broken: "
                                               "this seed was not committed in game.yaml)")
            return None
        return seed

    def check_seed(self, game: Game, seq: int, turn: Mapping[str, Any], rel: str,
                   previous: bytes) -> bytes | None:
        """s_k, if it is well formed and hashes to s_(k-1) (the anchor for k = 1)."""
        try:
            seed = chance.parse_hex32(turn["dice"]["seed"])
        except ValueError as error:
            self.note(rel, "dice.seed", str(error))
            return None
        if not chance.seed_follows(game.id, seed, previous):
            self.note(rel, "dice.seed", f"s_{seq} does not hash to s_{seq - 1} (the seed chain is broken: "
                                        "this seed was not committed in game.yaml)")
            return None
        return seed

    def check_orders(self, game: Game, rules: Rules, seq: int, turn: Mapping[str, Any],
                     state: dict[str, Any], rel: str) -> dict[str, AcceptedOrders] | None:
        """Each side's entry names its newest accepted file (or none was sent); every file checks out."""
        entries = turn["orders"]
        if [entry["side"] for entry in entries] != game.sides:
            self.note(rel, "orders", f"must list every side in game.yaml order ({', '.join(game.sides)})")
            return None
        awaited = [] if rules.result(state) is not None else rules.awaiting(state)
        newest = newest_order_files(self.archive, seq)
        accepted: dict[str, AcceptedOrders] = {}
        ok = True
        for index, entry in enumerate(entries):
            side, field = entry["side"], f"orders[{index}]"
            if entry["status"] != "submitted":
                self.same(rel, field + ".status", "missing" if side in awaited else "not-awaited", entry["status"])
                if side in newest:
                    self.note(rel, field, f"{side} submitted {newest[side]} but the turn treats it as "
                                          f"{entry['status']}")
                continue
            if newest.get(side) != entry.get("file"):
                self.note(rel, field + ".file", f"{entry.get('file')!r} is not {side}'s newest accepted orders "
                                                f"({newest.get(side)})")
                ok = False
                continue
            item = self.check_order_file(game, rules, seq, entry, state, awaited, rel, field)
            if item is None:
                ok = False
                continue
            accepted[side] = item
        return accepted if ok else None

    def check_order_file(self, game: Game, rules: Rules, seq: int, entry: Mapping[str, Any],
                         state: dict[str, Any], awaited: Sequence[str], rel: str, field: str) -> AcceptedOrders | None:
        file = entry["file"]
        got = self.signed(file, game.orders_namespace(), game.side_keys)
        if got is None:
            return None
        data, signer = got
        if not self.same(rel, field + ".hash", chance.file_hash(data), entry.get("hash")):
            return None
        self.same(file, "signer", entry["side"], signer)
        doc = self.legal_orders(game, rules, seq, file, data, signer, state, awaited)
        if doc is None:
            return None
        if doc["entropy"] != entry.get("entropy"):
            self.note(rel, field + ".entropy", "differs from the orders file's entropy")
        return AcceptedOrders(signer, file, data, doc["entropy"], list(doc["orders"]), dict(doc.get("standing") or {}))

    def legal_orders(self, game: Game, rules: Rules, seq: int, file: str, data: bytes, signer: str,
                     state: dict[str, Any], awaited: Sequence[str]) -> dict[str, Any] | None:
        """The orders document, if it reads and its orders were legal for the signer (else noted)."""
        ack = game.hash if seq == 1 else self._file_hash(view_rel(seq - 1, signer))
        expect = Expectation(game.id, seq, signer, rules.phase(state), ack or "", tuple(awaited))
        seen = view_state(rules, state, signer)
        quick = quick_load(data)
        if quick is not None and not orders_problems(yamlio.Document(quick, file), rules, expect, seen, signer):
            return quick
        try:  # the strict loader, for the positions of what is wrong
            doc = yamlio.load_bytes(data, file)
        except PbemError as error:
            self.note(file, "content", str(error))
            return None
        problems = orders_problems(doc, rules, expect, seen, signer)
        for problem in problems:
            self.note(file, _field_of(problem.path), str(problem))
        if problems:
            return None
        result: dict[str, Any] = doc.data
        return result

    def _file_hash(self, rel: str) -> str | None:
        found = self._hashes.get(rel)
        if found is not None:
            return found
        try:
            return chance.file_hash(self.archive.read(rel))
        except PbemError:
            return None

    def check_decisions(self, game: Game, seq: int, turn: Mapping[str, Any], rel: str) -> dict[int, Any] | None:
        """The turn's decisions are exactly the archive's requests, each with its newest reply."""
        try:
            records = decision_files(self.archive, game, seq)
        except PbemError as error:
            self.note(f"decisions/{seq_dir(seq)}", "files", str(error))
            return None
        self._records[seq] = records
        answers: dict[int, Any] = {}
        for position, entry in enumerate(turn["decisions"]):
            field = f"decisions[{position}]"
            record = records.get(position)
            if record is None or record.reply_rel is None:
                self.note(rel, field, f"the archive holds no answered decision {position} for seq {seq}")
                return None
            expected = {"index": record.index, "side": record.side, "request": record.request_rel,
                        "request_hash": record.request_hash, "reply": record.reply_rel, "reply_hash": record.reply_hash}
            for key, value in expected.items():
                self.same(rel, f"{field}.{key}", value, entry[key])
            answers[record.index] = record.answer
        for index in sorted(set(records) - set(answers)):
            self.note(records[index].request_rel, "request", f"a decision request of seq {seq} that {rel} does not "
                                                             "use (was adjudication restarted?)")
        return answers

    def replay(self, game: Game, rules: Rules, seq: int, turn: Mapping[str, Any], state: dict[str, Any],
               previous_hash: str, seed: bytes, accepted: Mapping[str, AcceptedOrders], answers: Mapping[int, Any],
               rel: str, hidden: bytes | None) -> None:
        try:
            outcome = resolve_adjudication(rules, game.id, game.sides, seq, state, previous_hash, seed, accepted,
                                           answers, hidden)
        except PbemError as error:
            self.note(rel, "replay", f"resolution failed on replay: {error}")
            return
        if outcome.pending is not None:
            self.note(rel, "decisions", f"replay stops on decision {outcome.pending.index} "
                                        f"({outcome.pending.topic}) which the turn does not answer")
            return
        self.same(rel, "dice.phase_seed", outcome.phase_seed.hex(), turn["dice"]["phase_seed"])
        self.compare_rolls(rel, outcome.rolls, turn["dice"]["rolls"])
        self.same(rel, "phases", outcome.phases, turn["phases"])
        self.compare_list(rel, "events", outcome.events, turn["events"])
        if outcome.state != turn["state"]:
            self.note(rel, "state" + _state_difference(outcome.state, turn["state"]),
                      "differs from the state the replay produces")
        deadline = turn["next"].get("deadline")
        if deadline is not None and game.protocol < 2:
            self.note(rel, "next.deadline", "a version 1 turn announces no deadline")
        self.same(rel, "next", next_block(rules, outcome.state, deadline), turn["next"])
        self.check_requests(game, seq, previous_hash, outcome)
        self.same(rel, "decisions", len(outcome.asked), len(turn["decisions"]))

    def check_requests(self, game: Game, seq: int, previous_hash: str, outcome: Outcome) -> None:
        """Every decision request the replay asks is stored as the referee would write it."""
        records = self._records.get(seq, {})
        for request in outcome.asked:
            known = records.get(request.index)
            expected = yamlio.dump(request_document(game, seq, previous_hash, request,
                                                    known.deadline if known else None)).encode()
            try:
                stored = self.archive.read(request_rel(seq, request.index))
            except PbemError as error:
                self.note(request_rel(seq, request.index), "file", str(error))
                continue
            if stored != expected:
                self.note(request_rel(seq, request.index), _first_difference(stored, expected),
                          "differs from the request the replay asks")

    def compare_rolls(self, rel: str, expected: list[dict[str, Any]], found: list[dict[str, Any]]) -> None:
        for index, (want, have) in enumerate(zip(expected, found)):
            for key in ("i", "n", "value", "for", "seen_by", "key"):
                if want.get(key) != have.get(key):
                    self.note(rel, f"dice.rolls[{index}].{key}", f"expected {want.get(key)!r}, found "
                                                                f"{have.get(key)!r}")
        if len(expected) != len(found):
            self.note(rel, "dice.rolls", f"replay draws {len(expected)} random numbers, the turn lists {len(found)}")

    def compare_list(self, rel: str, field: str, expected: list[Any], found: list[Any]) -> None:
        for index, (want, have) in enumerate(zip(expected, found)):
            if want != have:
                self.note(rel, f"{field}[{index}]", f"expected {_short(want)}, found {_short(have)}")
        if len(expected) != len(found):
            self.note(rel, field, f"replay gives {len(expected)}, the turn lists {len(found)}")

    def check_views(self, game: Game, rules: Rules, seq: int, turn: Mapping[str, Any], turn_bytes: bytes) -> None:
        previous = {side: self._file_hash(view_rel(seq - 1, side)) or "" for side in game.sides}
        expected = render_views(rules, game, turn, turn_bytes, previous)
        for side in game.sides:
            rel = view_rel(seq, side)
            got = self.signed(rel, game.turn_namespace(), {"referee": game.referee_key})
            if got is not None:
                self._hashes[rel] = chance.file_hash(got[0])  # the next turn's previous_view and ack
                if got[0] != expected[side]:
                    self.note(rel, _first_difference(got[0], expected[side]),
                              f"the view is not the filter of {turn_rel(seq)} for {side}")

    def check_pending(self, game: Game, seq: int, state: dict[str, Any], rules: Rules,
                      deadline: str | None) -> None:
        """Files of the adjudication under way must at least carry good signatures and receipts."""
        if game.protocol >= 2:
            with contextlib.suppress(PbemError):  # reported below, once the signatures are checked
                self._records[seq] = decision_files(self.archive, game, seq)
            self.check_receipts(game, seq, state, rules, deadline, None)
        for _, _, rel in self.archive.orders_files(seq):
            self.signed(rel, game.orders_namespace(), game.side_keys)
        for _, rel in self.archive.decision_requests(seq):
            self.signed(rel, game.turn_namespace(), {"referee": game.referee_key})
        for _, _, rel in self.archive.decision_replies(seq):
            self.signed(rel, game.orders_namespace(), game.side_keys)
        for _, rel in self.archive.decision_lapses(seq):
            self.signed(rel, game.turn_namespace(), {"referee": game.referee_key})
        try:  # requests, replies and lapses must fit together even before the adjudication ends
            decision_files(self.archive, game, seq)
        except PbemError as error:
            self.note(f"decisions/{seq_dir(seq)}", "files", str(error))


    # --- receipts (version 2, §4a) ------------------------------------------------------------------
    def check_receipts(self, game: Game, seq: int, state: dict[str, Any], rules: Rules, deadline: str | None,
                       turn: Mapping[str, Any] | None) -> None:
        """Every accepted file of `seq` has the referee's receipt, numbered per side (or per request) in
        arrival order, naming the file it replaces; the turn uses no late file and calls no side
        missing that holds a timely receipt, and records the deadline it enforced."""
        timely: dict[str, list[str]] = {}
        previous: dict[str, str] = {}
        for side, _, rel in self.archive.orders_files(seq):
            doc = self.receipt(game, rel, seq, side, previous.get(side), len(timely.get(side, [])) + 1)
            if doc is not None and deadline is not None and clock.later_than(doc["received"], deadline):
                self.note(receipt_rel(rel), "received", f"{doc['received']} is after the deadline {deadline}: the "
                                                         "file came late and must not have been accepted")
            timely.setdefault(side, []).append(rel)
            previous[side] = rel
        replies: dict[int, list[str]] = {}
        records = self._records.get(seq, {})
        for index, _, rel in self.archive.decision_replies(seq):
            known = records.get(index)
            side = known.side if known else ""
            doc = self.receipt(game, rel, seq, side, replies.get(index, [None])[-1], len(replies.get(index, [])) + 1,
                               known.request_hash if known else None)
            if doc is not None and known is not None and known.deadline is not None and \
                    clock.later_than(doc["received"], known.deadline):
                self.note(receipt_rel(rel), "received", f"{doc['received']} is after the request's deadline "
                                                         f"{known.deadline}: the reply came late")
            replies.setdefault(index, []).append(rel)
        if turn is None:
            return  # a crash may leave a receipt whose file never landed; the next command sweeps it
        for orphan in self.archive.orphan_receipts(seq):
            self.note(orphan, "file", "a receipt for a file that is not in the archive: the referee acknowledged "
                                      f"it, then adjudicated seq {seq} without it")
        for position, entry in enumerate(turn["orders"]):
            field = f"orders[{position}]"
            if entry["status"] == "missing":
                self.same(turn_rel(seq), f"{field}.deadline", deadline, entry.get("deadline"))
            elif entry.get("deadline") is not None:
                self.note(turn_rel(seq), f"{field}.deadline", "only a missing side has a deadline recorded")

    def receipt(self, game: Game, rel: str, seq: int, side: str, replaces: str | None,
                number: int, request: str | None = None) -> dict[str, Any] | None:
        """The receipt of one accepted file, checked field by field against the archive."""
        target = receipt_rel(rel)
        got = self.signed(target, game.turn_namespace(), {"referee": game.referee_key})
        if got is None:
            return None
        quick = self.quick_receipt(game, rel, seq, side, replaces, number, request, got[0])
        if quick is not None:
            return quick
        doc = self.parse(target, got[0], "receipt")
        if doc is None:
            return None
        try:
            data = self.archive.read(rel)
            replaced = chance.file_hash(self.archive.read(replaces)) if replaces else None
        except PbemError as error:
            self.note(rel, "file", str(error))
            return None
        expected = {"game": game.id, "seq": seq, "side": side, "file": rel, "hash": chance.file_hash(data),
                    "number": number, "replaces": replaced, "request": request}
        for key, value in expected.items():
            self.same(target, key, value, doc.get(key))
        return doc

    def quick_receipt(self, game: Game, rel: str, seq: int, side: str, replaces: str | None, number: int,
                      request: str | None, data: bytes) -> dict[str, Any] | None:
        """The receipt `receipt` would accept, if `data` is exactly the one the referee writes for
        this file (only its time of arrival taken from the text); None at any doubt, and nothing noted.

        The strict loader reads a canonical dump back equal, so `receipt` would find each field
        as expected and return this very document.
        """
        found = _RECEIVED_RE.search(data)
        if found is None:
            return None
        try:
            hashes = self._known_hash(rel), self._known_hash(replaces) if replaces else None
        except PbemError:
            return None
        # the referee's own layout (intake), with the hashes this audit already holds
        doc = receipt_document(game, seq, side, rel, b"", number, found.group(1).decode("ascii"), None, request)
        doc["hash"], doc["replaces"] = hashes
        if not canonical_bytes(doc, data) or not schemas.is_valid(doc, self.schema("receipt")):
            return None
        return doc

    def _known_hash(self, rel: str) -> str:
        """The file hash of an archived file, from the bytes this audit already read if it did."""
        found = self._hashes.get(rel)
        if found is None:
            found = chance.file_hash(self.archive.read(rel))
        return found

    def schema(self, kind: str) -> dict[str, Any]:
        """The core schema of a file kind, one object per audit (its compiled form is found by identity)."""
        found = self._schemas.get(kind)
        if found is None:
            found = self._schemas[kind] = load_schema(kind)
        return found


# Where `yamlio.dump` writes a receipt's time of arrival (`intake.receipt_document`'s layout).
_RECEIVED_RE = re.compile(rb"\nreceived: \"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)\"\n")


def _announced_deadline(data: bytes, rel: str) -> str | None:
    try:
        deadline = yamlio.load_bytes(data, rel).data["next"].get("deadline")
    except (PbemError, AttributeError, KeyError, TypeError):
        return None
    return deadline if isinstance(deadline, str) else None


def _summary(rules: Rules, state: dict[str, Any], verified: int) -> str:
    """What the audit covered: how many adjudications, and how the game stands after the last."""
    done = f"{verified} adjudication{'s' if verified != 1 else ''} verified"
    result = rules.result(state)
    if result is not None:
        more = any(key not in ("winner", "reason", "section") for key in result)
        return f"{done}; the game is over: {result_headline(result)}" + ("; the last turn.yaml has the details"
                                                                           if more else "")
    return (f"{done}; the game is in play: adjudication {verified + 1} awaits phase {rules.phase(state)!r} "
            f"from {', '.join(rules.awaiting(state)) or 'nobody'}")


@dataclass(frozen=True)
class AuditReport:
    found: list[Discrepancy]
    summary: str


def audit_report(root: Path | str) -> AuditReport:
    auditor = Auditor(root)
    found = auditor.run()
    return AuditReport(found, auditor.summary)


def audit(root: Path | str) -> list[Discrepancy]:
    """Every discrepancy in the archive; [] means it checks out."""
    return Auditor(root).run()


# --- a player's check of its own views: pbem/core/verify_view.py -----------------------------------

from .verify_view import verify_views  # noqa: E402,F401  (re-exported for older callers)


# --- small formatting helpers --------------------------------------------------------------------


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _field_of(path: Sequence[str | int]) -> str:
    return format_path(tuple(path)) or "document"


def _first_difference(found: bytes, expected: bytes) -> str:
    """A pointer into a YAML file where two versions first differ: 'line N'."""
    found_lines, expected_lines = found.splitlines(), expected.splitlines()
    for number, (a, b) in enumerate(zip(found_lines, expected_lines), 1):
        if a != b:
            return f"line {number} ({a.decode('utf-8', 'replace').strip()[:80]!r})"
    return f"line {min(len(found_lines), len(expected_lines)) + 1}"


def _state_difference(expected: Any, found: Any, path: str = "") -> str:
    """The path of the first place two states differ, for the report."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found)):
            if expected.get(key) != found.get(key):
                return _state_difference(expected.get(key), found.get(key), f"{path}.{key}")
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        for index, (a, b) in enumerate(zip(expected, found)):
            if a != b:
                return _state_difference(a, b, f"{path}[{index}]")
    return path
