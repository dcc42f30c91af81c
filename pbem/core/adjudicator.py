"""Adjudication k: accepted orders in, resolution, turn file and views out (docs/protocol.md §4).

`resolve_adjudication` is the pure part, shared with the audit's replay: given the previous
state, the orders, the seed and the decision answers, it always gives the same rolls, events
and state. `adjudicate` wraps it with the archive: it reads, runs, and writes atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence

from . import chance, clock, private_copies, schemas, signing, yamlio
from .archive import Archive, commit_folder, seq_dir, view_rel
from .doccache import remember, remember_signature, verified_signer
from .errors import ArchiveError, OrdersError, PbemError, Problem
from .game import WARN_FRACTION_PERCENT, Game, chain_secret, hidden_chain_seed, load_game
from .game import next_block
from .lapse import lapse_unanswered
from .options import same_plain
from .plaincopy import canonical_copy
from .position import Position, current_position
from .quickload import load_data
from .records import FrozenRecord, set_field
from .schemafiles import load_schema
from .ruleset import STANDING_KEY, DecisionNeeded, DecisionRequest, Decisions, Rules, State, Submission
from .views import turn_view

MAX_PHASES_PER_ADJUDICATION = 10_000


class AcceptedOrders(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    """The newest valid orders file of one side for one seq."""

    side: str
    rel: str
    data: bytes
    entropy: str
    orders: list[Any]
    standing: dict[str, Any]

    @property
    def hash(self) -> str:
        return chance.file_hash(self.data)


class Outcome(NamedTuple):
    """What one run of resolution produced (complete, or stopped on a decision).

    `state` is the state after the last phase; when a decision is pending it is not to be used
    (the phase that asked may have changed it in place before asking).
    """

    phase_seed: bytes
    state: State
    phases: list[str]
    events: list[dict[str, Any]]
    rolls: list[dict[str, Any]]
    asked: list[DecisionRequest]
    pending: DecisionRequest | None = None


def side_inputs(sides: Sequence[str], accepted: Mapping[str, AcceptedOrders]) -> list[chance.SideInput]:
    inputs = []
    for side in sides:
        orders = accepted.get(side)
        if orders is None:
            inputs.append(chance.SideInput(side))
        else:
            inputs.append(chance.SideInput(side, bytes.fromhex(orders.entropy), chance.parse_hash(orders.hash)))
    return inputs


def resolve_adjudication(rules: Rules, game_id: str, sides: Sequence[str], seq: int, state: State,
                         previous_hash: str, seed: bytes, accepted: Mapping[str, AcceptedOrders],
                         answers: Mapping[int, Any], hidden: bytes | None = None) -> Outcome:
    """Run phases from `state` until one awaits orders, the game ends, or a decision is needed.

    `hidden` is t_k of the hidden chain (protocol version 2): restricted rolls draw from it. None
    replays a version 1 game, whose restricted rolls came from the phase seed like any other.
    """
    phase_seed = chance.phase_seed(game_id, seq, seed, chance.parse_hash(previous_hash), side_inputs(sides, accepted))
    stream = chance.HiddenStream(game_id, seq, hidden, tuple(sides)) if hidden is not None else None
    dice = chance.Dice(phase_seed, stream)
    decisions = Decisions(answers)
    state = _with_standing(canonical_copy(state), accepted)
    submissions: dict[str, Submission | None] = {
        side: Submission(side, canonical_copy(accepted[side].orders, "orders"), dict(accepted[side].standing))
        if side in accepted else None
        for side in sides
    }
    phases: list[str] = []
    events: list[dict[str, Any]] = []
    pending = None
    while rules.result(state) is None:
        if phases and rules.awaiting(state):
            break
        if len(phases) >= MAX_PHASES_PER_ADJUDICATION:
            raise PbemError(f"{rules.ruleset.id}: more than {MAX_PHASES_PER_ADJUDICATION} automatic phases in a row")
        phase = rules.phase(state)
        try:
            # `state` is this function's own canonical copy, used for nothing once the phase is
            # resolved: the rules get it as it is (they may change it in place)
            resolution = rules.resolve(state, submissions, dice, decisions)
        except DecisionNeeded as need:
            pending = need.request
            break
        phases.append(phase)
        events.extend(canonical_copy(resolution.events, "events"))
        state = canonical_copy(resolution.state)
        submissions = {side: None for side in sides}
    return Outcome(phase_seed, state, phases, events, [r.record() for r in dice.rolls], decisions.asked, pending)


def _with_standing(state: State, accepted: Mapping[str, AcceptedOrders]) -> State:
    """A canonical `state` with each side's standing answers from its orders merged in, still canonical.

    The standing block always exists (empty if need be) and has an entry for every side that
    sent orders; each side's answers replace its earlier answers of the same name.
    """
    had_block = STANDING_KEY in state
    merged = state.get(STANDING_KEY, {})
    for side, orders in accepted.items():
        merged.setdefault(side, {}).update(orders.standing)
    state[STANDING_KEY] = canonical_copy(merged, f"state.{STANDING_KEY}")
    if had_block:
        return state
    return {key: state[key] for key in sorted(state)}


# --- the archive side ------------------------------------------------------------------------------


def load_accepted(archive: Archive, game: Game, rel: str) -> AcceptedOrders:
    """An orders file from the archive, signature re-checked."""
    stored = archive.read_signed(rel)
    # the intake checked this signature when the file came in: a referee that stays up (the mail
    # judge) may have the answer kept by the SHA-256 of the same bytes (only good answers are kept)
    side = verified_signer(stored.data, stored.signature, game.orders_namespace(), game.side_keys, file=rel)
    # a player's own file (no canonical text) through the copy the intake kept of what it read
    doc = private_copies.read(archive, game.id, stored.data) or load_data(stored.data, rel)
    if doc.get("side") != side:
        raise ArchiveError(f"{rel}: names side {doc.get('side')!r} but is signed by {side!r}")
    return AcceptedOrders(side, rel, stored.data, doc["entropy"], doc["orders"], dict(doc.get("standing") or {}))


def newest_order_files(archive: Archive, seq: int) -> dict[str, str]:
    """Each side's newest accepted orders file for seq (highest arrival number): the one that counts."""
    newest: dict[str, str] = {}
    for side, _, rel in archive.orders_files(seq):
        newest[side] = rel
    return newest


def newest_orders(archive: Archive, game: Game, seq: int) -> dict[str, AcceptedOrders]:
    return {side: load_accepted(archive, game, rel) for side, rel in newest_order_files(archive, seq).items()}


class DecisionFile(FrozenRecord):
    """A decision's request and its reply (if any) as stored for one seq.

    A hand-written frozen record, not a dataclass (`pbem.core.records`: cheaper at import, and a
    NamedTuple's `index` method would clash with the field).
    """

    __slots__ = ("index", "side", "request_rel", "request_hash", "reply_rel", "reply_hash", "answer", "deadline")
    index: int
    side: str
    request_rel: str
    request_hash: str
    reply_rel: str | None
    reply_hash: str | None
    answer: Any
    deadline: str | None  # the request's (version 2)

    def __init__(self, index: int, side: str, request_rel: str, request_hash: str, reply_rel: str | None,
                 reply_hash: str | None, answer: Any, deadline: str | None = None) -> None:
        set_field(self, "index", index)
        set_field(self, "side", side)
        set_field(self, "request_rel", request_rel)
        set_field(self, "request_hash", request_hash)
        set_field(self, "reply_rel", reply_rel)
        set_field(self, "reply_hash", reply_hash)
        set_field(self, "answer", answer)
        set_field(self, "deadline", deadline)


def decision_files(archive: Archive, game: Game, seq: int) -> dict[int, DecisionFile]:
    """Requests of one adjudication and the newest reply to each (signatures re-checked)."""
    found: dict[int, DecisionFile] = {}
    first_options: dict[int, Any] = {}
    for index, rel in archive.decision_requests(seq):
        stored = archive.read_signed(rel)
        signing.verify(stored.data, stored.signature, game.turn_namespace(), {"referee": game.referee_key}, file=rel)
        request = _checked(stored.data, rel, "decision-request")
        if request["index"] != index or request["seq"] != seq:
            raise ArchiveError(f"{rel}: says decision {request['index']} of seq {request['seq']}")
        found[index] = DecisionFile(index, request["side"], rel, chance.file_hash(stored.data), None, None, None,
                                    request.get("deadline"))
        first_options[index] = request["options"][0] if request["options"] else None
    for index, _, rel in archive.decision_replies(seq):
        stored = archive.read_signed(rel)
        side = signing.verify(stored.data, stored.signature, game.orders_namespace(), game.side_keys, file=rel)
        reply = _checked(stored.data, rel, "decision-reply")
        known = found.get(index)
        if known is None or known.side != side or reply["side"] != side or reply["request"] != known.request_hash:
            raise ArchiveError(f"{rel}: a reply that matches no request of adjudication {seq}")
        found[index] = DecisionFile(index, side, known.request_rel, known.request_hash, rel,
                                    chance.file_hash(stored.data), reply["answer"], known.deadline)
    for index, rel in archive.decision_lapses(seq):
        found[index] = _lapse_file(archive, game, seq, index, rel, found.get(index), first_options.get(index))
    return found


def _lapse_file(archive: Archive, game: Game, seq: int, index: int, rel: str, known: DecisionFile | None,
                default: Any) -> DecisionFile:
    """A lapse stands in for the reply: the request's first option, recorded by the referee (core/lapse.py)."""
    stored = archive.read_signed(rel)
    signing.verify(stored.data, stored.signature, game.turn_namespace(), {"referee": game.referee_key}, file=rel)
    lapse = _checked(stored.data, rel, "decision-lapse")
    if (known is None or known.reply_rel is not None or lapse["index"] != index or lapse["seq"] != seq
            or lapse["side"] != known.side or lapse["request"] != known.request_hash):
        raise ArchiveError(f"{rel}: a lapse that matches no unanswered request of adjudication {seq}")
    if not same_plain(lapse["answer"], default):
        raise ArchiveError(f"{rel}: applies {lapse['answer']!r}, but a lapse applies the request's first option, "
                           f"{default!r}")
    if game.protocol >= 2:
        if known.deadline is None or clock.later_than(known.deadline, lapse["lapsed_at"]):
            raise ArchiveError(f"{rel}: lapsed_at {lapse['lapsed_at']} is before the request's deadline "
                               f"{known.deadline} (docs/protocol.md §4a): the request was cut short")
    return DecisionFile(index, known.side, known.request_rel, known.request_hash, rel,
                        chance.file_hash(stored.data), lapse["answer"], known.deadline)


def _checked(data: bytes, rel: str, kind: str) -> dict[str, Any]:
    doc = yamlio.load_bytes(data, rel)
    schemas.validate(doc, load_schema(kind))
    result: dict[str, Any] = doc.data
    return result


def request_document(game: Game, seq: int, previous_hash: str, request: DecisionRequest,
                     deadline: str | None) -> dict[str, Any]:
    doc = {
        "pbem": game.protocol,
        "kind": "decision-request",
        "game": game.id,
        "seq": seq,
        "side": request.side,
        "index": request.index,
        "topic": request.topic,
        "section": request.section,
        "question": request.question,
        "options": request.options,
        "master_previous": previous_hash,
    }
    if game.protocol >= 2:
        doc["deadline"] = deadline
    return doc


def request_rel(seq: int, index: int) -> str:
    return f"decisions/{seq_dir(seq)}/request-{index:03d}.yaml"


def turn_document(game: Game, seq: int, previous_hash: str, seed: bytes, outcome: Outcome,
                  accepted: Mapping[str, AcceptedOrders], awaited: Sequence[str], decisions: Mapping[int, DecisionFile],
                  rules: Rules, hidden: bytes | None = None, enforced: str | None = None,
                  next_deadline: str | None = None, state_json: bytes | None = None) -> dict[str, Any]:
    """The master record. `enforced`: the deadline a missing side missed; `next_deadline`: the next one.

    `state_json`: `chance.canonical_json(outcome.state)`, if the caller has it already.
    """
    orders: list[dict[str, Any]] = []
    for side in game.sides:
        if side in accepted:
            item = accepted[side]
            orders.append({"side": side, "status": "submitted", "file": item.rel, "hash": item.hash,
                           "entropy": item.entropy})
        elif side in awaited:
            orders.append({"side": side, "status": "missing"})
            if enforced is not None:
                orders[-1]["deadline"] = enforced
        else:
            orders.append({"side": side, "status": "not-awaited"})
    used = []
    for request in outcome.asked:
        record = decisions[request.index]
        used.append({"index": record.index, "side": record.side, "request": record.request_rel,
                     "request_hash": record.request_hash, "reply": record.reply_rel, "reply_hash": record.reply_hash})
    dice: dict[str, Any] = {"seed": seed.hex()}
    if hidden is not None:
        dice["hidden_seed"] = hidden.hex()
    dice.update(phase_seed=outcome.phase_seed.hex(), rolls=outcome.rolls)
    return {
        "pbem": game.protocol,
        "kind": "turn",
        "game": game.id,
        "seq": seq,
        "previous": previous_hash,
        "phases": outcome.phases,
        "orders": orders,
        "decisions": used,
        "dice": dice,
        "events": outcome.events,
        "state": outcome.state,
        "state_sha256": chance.state_hash(outcome.state) if state_json is None else chance.file_hash(state_json),
        "next": next_block(rules, outcome.state, next_deadline),
    }


def render_views(rules: Rules, game: Game, turn: Mapping[str, Any], turn_bytes: bytes,
                 previous_views: Mapping[str, str]) -> dict[str, bytes]:
    """Every side's view k as file bytes (pure: the audit rebuilds them the same way)."""
    turn_hash = chance.file_hash(turn_bytes)
    return {
        side: yamlio.dump(turn_view(rules, turn, turn_hash, side, previous_views[side])).encode("utf-8")
        for side in game.sides
    }


class AdjudicationReport(NamedTuple):
    """What `pbem adjudicate` did: a turn committed, or a decision awaited."""

    seq: int
    committed: bool
    message: str
    files: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def adjudicate(game_dir: str | Path, referee_key: signing.SigningKey, *,
               missing_none: bool = False, lapse: bool = False, now: clock.Clock = clock.system_clock
               ) -> AdjudicationReport:
    """Resolve the next adjudication if everything it needs is in; write its files.

    `missing_none`: sides that sent no orders give none (once the announced deadline, if any, has
    passed). `lapse`: every decision request whose deadline has passed unanswered gets its first
    option, recorded in a referee-signed lapse file (core/lapse.py). `now` stamps deadlines.
    """
    archive = Archive(game_dir)
    archive.require()
    with archive.locked() as latest:
        game = load_game(game_dir)
        _check_referee_key(game, referee_key)
        position = current_position(game, latest, archive)
        moment = clock.utc_text(now())
        if lapse and not position.over():
            lapse_unanswered(archive, game, position.next_seq, referee_key, moment)
        return _adjudicate_locked(archive, game, position, referee_key, missing_none, moment)


def _adjudicate_locked(archive: Archive, game: Game, position: Position, referee: signing.SigningKey,
                       missing_none: bool, moment: str) -> AdjudicationReport:
    rules = position.rules
    seq = position.next_seq
    if position.over():
        raise PbemError(f"the game is over ({position.next()['result']}); nothing to adjudicate")
    if seq > game.chain_length:
        raise PbemError(f"the seed chain has {game.chain_length} links and all are used; the game cannot go on")
    warnings = []
    if seq * 100 >= game.chain_length * WARN_FRACTION_PERCENT:
        warnings.append(f"seed chain {seq} of {game.chain_length} used: start a continuation game soon")
    awaited = rules.awaiting(position.state)  # `position.awaiting()`, the game not over, with the rules at hand
    accepted = newest_orders(archive, game, seq)  # sides not awaited may have sent standing answers only
    decisions = decision_files(archive, game, seq)
    missing = [side for side in awaited if side not in accepted]
    deadline = position.deadline
    passed = deadline is not None and clock.later_than(moment, deadline)
    if missing and not missing_none and not decisions:
        raise OrdersError(_waiting_for_orders(missing, seq, deadline, passed))
    if missing and not decisions and deadline is not None and not passed:
        raise OrdersError(Problem(f"the deadline {deadline} announced for seq {seq} has not passed; "
                                  f"{', '.join(missing)} may still send orders", section="docs/protocol.md §4a",
                                  legal=f"wait for their orders, or until after {deadline}; then --missing none "
                                        "resolves without them"))
    secret = chain_secret(game)
    seed = chance.chain_seed(game.id, secret, game.chain_length, seq)
    hidden = hidden_chain_seed(game, seq)
    answers = {index: record.answer for index, record in decisions.items() if record.reply_rel is not None}
    outcome = resolve_adjudication(rules, game.id, game.sides, seq, position.state, position.previous_hash, seed,
                                   accepted, answers, hidden)
    if outcome.pending is not None:
        return _await_decision(archive, game, seq, position.previous_hash, outcome.pending, decisions, referee,
                               warnings, moment)
    state_json = chance.canonical_json(outcome.state)  # hashed in the turn, and kept with it in memory
    turn = turn_document(game, seq, position.previous_hash, seed, outcome, accepted, awaited, decisions, rules,
                         hidden, position.deadline, game.deadline_after(moment), state_json)
    turn_bytes = yamlio.dump(turn).encode("utf-8")
    previous_views = {side: chance.file_hash(archive.read(view_rel(seq - 1, side))) for side in game.sides}
    views = render_views(rules, game, turn, turn_bytes, previous_views)
    turn_signature = signing.sign(turn_bytes, referee, game.turn_namespace())
    files = {"turn.yaml": turn_bytes, "turn.yaml.sig": turn_signature.encode()}
    for side, data in views.items():
        files[f"{side}.yaml"] = data
        files[f"{side}.yaml.sig"] = signing.sign(data, referee, game.turn_namespace()).encode()
    commit_folder(archive.path(f"turns/{seq_dir(seq)}"), files)
    # the next adjudication's position, without reading it back or checking the signature just made
    remember("turn", turn_bytes, turn, state_json)  # the state is resolution's canonical copy
    remember_signature(turn_bytes, turn_signature, game.turn_namespace(), {"referee": game.referee_key}, "referee")
    written = tuple(f"turns/{seq_dir(seq)}/{name}" for name in files if not name.endswith(".sig"))
    return AdjudicationReport(seq, True, f"adjudication {seq} done: {', '.join(outcome.phases) or 'no phase'}",
                              written, tuple(warnings))


def _waiting_for_orders(missing: Sequence[str], seq: int, deadline: str | None, passed: bool) -> Problem:
    """`pbem adjudicate` without --missing none while sides owe orders: only what is legal now (protocol.md §10)."""
    who = ", ".join(missing)
    if deadline is None:  # no deadline announced: the referee decides when to stop waiting
        return Problem(f"waiting for orders from {who} for seq {seq}",
                       legal="wait, or run with --missing none to resolve without them")
    if passed:  # orders arriving now are refused as late: waiting brings nothing
        return Problem(f"the deadline {deadline} for seq {seq} has passed without orders from {who}; orders that "
                       "arrive now are refused as late", section="docs/protocol.md §4a",
                       legal="pbem adjudicate --missing none, which resolves without them")
    return Problem(f"waiting for orders from {who} for seq {seq}; the deadline {deadline} has not passed",
                   section="docs/protocol.md §4a",
                   legal=f"wait for their orders, or until after {deadline}; then --missing none resolves without them")


def _await_decision(archive: Archive, game: Game, seq: int, previous_hash: str, request: DecisionRequest,
                    known: Mapping[int, DecisionFile], referee: signing.SigningKey,
                    warnings: list[str], moment: str) -> AdjudicationReport:
    rel = request_rel(seq, request.index)
    deadline = known[request.index].deadline if request.index in known else game.decision_deadline_after(moment)
    data = yamlio.dump(request_document(game, seq, previous_hash, request, deadline)).encode("utf-8")
    if request.index in known:
        if archive.read(rel) != data:
            raise ArchiveError(f"{rel}: differs from the request this adjudication asks now; the archive "
                               "or the ruleset changed")
    else:
        archive.write_signed_rel(rel, data, signing.sign(data, referee, game.turn_namespace()))
    return AdjudicationReport(seq, False, f"adjudication {seq} waits for a decision from {request.side} "
                                          f"({request.topic}, rule {request.section}): send them {rel}",
                              (rel,), tuple(warnings))


def _check_referee_key(game: Game, key: signing.SigningKey) -> None:
    if key.public_line.split()[:2] != game.referee_key.split()[:2]:
        raise PbemError("the referee key given is not the one game.yaml names")
