"""The referee's intake (`pbem submit`): verify, check, store, and answer with a receipt or every error.

A rejected file changes nothing in the archive. An accepted one is stored under the next
arrival number; for each side and seq the newest accepted file is the one adjudicated.

`inspect` runs the same checks and stores nothing: who signed a file, whether the archive holds
exactly its bytes already (`stored_copy`), and what `submit` would refuse and why. The mail
judge asks it before it submits, so the signer and duplicate checks exist here only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple, Sequence

from . import chance, clock, options, private_copies, schemas, signing, yamlio
from .archive import Archive, receipt_rel, seq_dir
from .errors import ArchiveError, OrdersError, PbemError, Problem, SignatureError
from .game import Game, load_game, noted_referee_key
from .orders import orders_problems, wrong_key
from .position import Position, current_position, orders_deadline
from .ruleset import is_option
from .schemafiles import load_schema
from .views import view_state

SIG_SUFFIX = ".sig"
MAX_SUBMISSIONS_PER_SIDE = 100  # per seq: a flood of resubmissions must not fill the referee's disk


class Candidate(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    """One signed file found in what was handed in: its possible bytes and signature."""

    name: str
    texts: tuple[bytes, ...]  # the exact bytes first, then (armored only) their canonical text
    signature: str
    armored: bool
    carrier: str  # the file handed in (a mail text may carry several blocks)
    line: int = 0  # where an armored block began in its carrier (0: not armored)


class Receipt(NamedTuple):
    side: str
    kind: str
    seq: int
    rel: str
    hash: str
    still_awaited: tuple[str, ...]
    replaces: str | None = None  # the side's earlier file for this seq that no longer counts
    signed: str | None = None  # the referee-signed receipt file beside `rel` (version 2), for the sender
    again: bool = False  # the file that counts, sent again: nothing stored, its earlier receipt given back

    def __str__(self) -> str:
        """What the sender is told. Whether the other sides have sent anything is not theirs to know."""
        replaced = f" (replaces {self.replaces}, which no longer counts)" if self.replaces else ""
        receipt = f"; signed receipt {self.signed}" if self.signed else ""
        if self.again:
            return (f"already received as {self.rel} (the same receipt): {self.kind} of {self.side} for seq "
                    f"{self.seq}, {self.hash}{receipt}")
        return f"accepted {self.kind} of {self.side} for seq {self.seq}: {self.rel} {self.hash}{replaced}{receipt}"

    def for_referee(self) -> str:
        """The referee's line: also who is still awaited."""
        waiting = ", ".join(self.still_awaited) or "nobody: ready to adjudicate"
        return f"{self}; still awaited: {waiting}"


class Referee(NamedTuple):
    """What intake needs of the referee under version 2: the key that signs receipts, and the time."""

    key: signing.SigningKey | None
    received: str  # when the file arrived (UTC text): the mail's arrival, not when it was processed


def receipt_document(game: Game, seq: int, side: str, rel: str, data: bytes, number: int, received: str,
                     replaces: bytes | None, request: str | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "pbem": game.protocol, "kind": "receipt", "game": game.id, "seq": seq, "side": side, "file": rel,
        "hash": chance.file_hash(data), "number": number, "received": received,
        "replaces": chance.file_hash(replaces) if replaces is not None else None,
    }
    if request is not None:
        doc["request"] = request
    return doc


def _write_receipt(archive: Archive, game: Game, referee: Referee, doc: dict[str, Any]) -> str | None:
    """Sign and store the receipt beside its file (version 2 only); its path."""
    if game.protocol < 2:
        return None
    if referee.key is None:
        raise PbemError("version 2 games sign a receipt for every accepted file: give the referee key (--key)")
    data = yamlio.dump(doc).encode("utf-8")
    rel = receipt_rel(doc["file"])
    archive.write_signed_rel(rel, data, signing.sign(data, referee.key, game.turn_namespace()))
    return rel


def _refuse_late(doc: yamlio.Document, received: str, deadline: str | None, what: str, section: str) -> None:
    if deadline is not None and clock.later_than(received, deadline):
        raise OrdersError(doc.problem(f"{what} arrived at {received}, after the deadline {deadline}: it is late "
                                      "and cannot count", section=section))


def read_candidates(path: Path, sig_path: Path | None = None, *, max_bytes: int = yamlio.MAX_FILE_BYTES) -> list[Candidate]:
    """A detached pair (FILE + FILE.sig), an armored file, or a text carrying armored blocks."""
    size = path.stat().st_size
    if size > max_bytes:
        raise PbemError(Problem(f"file is {size} bytes; the limit is {max_bytes}", file=str(path)))
    data = yamlio.read_file(path, max_bytes=max_bytes)  # bounded even for a device or a pipe
    detached = sig_path or path.with_name(path.name + SIG_SUFFIX)
    if sig_path is not None or detached.exists() or detached.is_symlink():  # a .sig that is no file: refused
        signature = signing.read_signature(detached)  # SignatureError naming it if it cannot be a signature
        # named as the referee gave it (in/mail-3/orders.yaml), as every other message names a file
        return [Candidate(str(path), (data,), signature, False, str(path))]
    # Each block on its own: one that cannot be read is a stand-in that fails in `accept` with its reason.
    blocks = signing.read_armored(data, file=str(path))
    if not blocks and _is_signature(path, data):
        signed = path.name[: -len(SIG_SUFFIX)] if path.name.endswith(SIG_SUFFIX) else ""
        named = str(path.with_name(signed)) if signed else None
        raise SignatureError(Problem("this is a signature, not the file it signs: give the signed file itself ("
                                     + (f"{named}, with this signature beside it)" if named else
                                        "FILE, with this signature beside it as FILE.sig)"),
                                     file=str(path), line=1, column=1, section="docs/protocol.md §2",
                                     legal=f"pbem submit GAME_DIR {named or 'FILE'}"))
    if not blocks:
        raise SignatureError(Problem(f"no signature: put {path.name}.sig beside it (ssh-keygen -Y sign) or send an "
                                     "armored PBEM SIGNED FILE block", file=str(path)))
    found = []
    for block in blocks:
        canonical = signing.canonical_text(block.text)
        texts = (block.text,) if canonical == block.text else (block.text, canonical)
        found.append(Candidate(block.name or f"{path.name}:{block.line}", texts, block.signature, True, str(path),
                               block.line))
    return found


def _is_signature(path: Path, data: bytes) -> bool:
    """A detached signature given where the signed file belongs: an SSH signature block, or a FILE.sig that is
    no pbem file (a damaged signature is still one; orders that happen to be named .sig are not)."""
    if data.lstrip().startswith(b"-----BEGIN SSH SIGNATURE-----"):
        return True
    return path.name.endswith(SIG_SUFFIX) and b"kind:" not in data


def _verify(game: Game, candidate: Candidate) -> tuple[bytes, str]:
    others = {"the referee": game.referee_key}
    if candidate.armored:
        block = signing.ArmoredBlock(candidate.name, candidate.texts[0], candidate.signature, candidate.line)
        return signing.verify_armored(block, game.orders_namespace(), game.side_keys, file=candidate.carrier,
                                      others=others)
    data = candidate.texts[0]
    return data, signing.verify(data, candidate.signature, game.orders_namespace(), game.side_keys,
                                file=candidate.carrier, others=others)


def accept(game: Game, candidate: Candidate, referee: Referee, *, store: bool = True) -> Receipt:
    """Verify and check one signed file; store it (with its signed receipt) if it is good, else raise.

    With `store=False` nothing is written: the receipt is the one the file would get now (without
    a signed receipt file), or the PbemError saying why it would be refused.
    """
    data, signer = _verify(game, candidate)
    doc = yamlio.load_bytes(data, candidate.name)
    if not isinstance(doc.data, dict):
        raise OrdersError(doc.problem("not a pbem file: the document must be a map with `kind:` and the other "
                                      "fields of orders or a decision reply", legal="kind: orders"))
    kind = doc.data.get("kind")
    position = current_position(game)
    if kind == "orders":
        return _accept_orders(game, position, doc, data, signer, candidate, referee, store)
    if kind == "decision-reply":
        return _accept_reply(game, position, doc, data, signer, candidate, referee, store)
    raise OrdersError(doc.problem(f"kind {kind!r} cannot be submitted", ("kind",),
                                  legal="orders, decision-reply"))


def _copies(archive: Archive, rels: Sequence[str], texts: Sequence[bytes]) -> list[str]:
    """The stored files among `rels` that hold exactly one of `texts` (the one duplicate check)."""
    hashes = {chance.file_hash(text) for text in texts}
    return [rel for rel in rels if chance.file_hash(archive.read(rel)) in hashes]


def _accept_orders(game: Game, position: Position, doc: yamlio.Document, data: bytes, signer: str,
                   candidate: Candidate, referee: Referee, store: bool) -> Receipt:
    rules = position.rules
    expect = position.expectation(signer)
    archive = Archive(game.root)
    late = _after_its_turn(game, archive, doc, data, signer, expect.seq, referee.received)
    if late is not None:
        raise OrdersError(late)
    OrdersError.collect(orders_problems(doc, rules, expect, view_state(rules, position.state, signer), signer,
                                        game.side_keys))
    _same_protocol(game, doc)
    mine = [rel for side, _, rel in archive.orders_files(expect.seq) if side == signer]
    same = _copies(archive, mine, (data,))
    if same and same[-1] != mine[-1]:
        raise OrdersError(doc.problem(f"this exact file was accepted before as {same[-1]} and has since been "
                                      f"replaced by {mine[-1]}; to go back to it, sign a fresh copy "
                                      "(new entropy)", section="docs/protocol.md §4"))
    replaces = None
    if same:
        rel = same[-1]  # the same mail delivered twice: the same receipt, nothing written
        signed = archive.receipt_of(rel)
    else:
        _refuse_late(doc, referee.received, position.deadline, "these orders", "docs/protocol.md §4a")
        if len(mine) >= MAX_SUBMISSIONS_PER_SIDE:
            raise OrdersError(doc.problem(f"{signer} has already sent {len(mine)} orders files for seq "
                                          f"{expect.seq}; no more are taken"))
        rel = f"orders/{seq_dir(expect.seq)}/{signer}-{archive.next_arrival(expect.seq):04d}.yaml"
        replaces = mine[-1] if mine else None
        receipt = receipt_document(game, expect.seq, signer, rel, data, len(mine) + 1, referee.received,
                                   archive.read(replaces) if replaces else None)
        signed = None
        if store:
            # The receipt lands first: a crash between the two leaves an orphan receipt, which the next
            # command under the lock removes; never an accepted file without its receipt.
            signed = _write_receipt(archive, game, referee, receipt)
            archive.write_signed_rel(rel, data, candidate.signature)
            private_copies.keep(archive, game.id, data, doc.data)  # so the adjudication need not parse it
    have = {side for side, _, _ in archive.orders_files(expect.seq)} | {signer}
    return Receipt(signer, "orders", expect.seq, rel, chance.file_hash(data),
                   tuple(side for side in expect.awaiting if side not in have), replaces, signed, again=bool(same))


def _after_its_turn(game: Game, archive: Archive, doc: yamlio.Document, data: bytes, signer: str, awaited: int,
                    received: str) -> Problem | None:
    """Orders of the signer for an adjudication already done: a copy of a file it took then, or late orders."""
    seq = doc.data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq < awaited or doc.data.get("side") != signer:
        return None
    taken = _copies(archive, [rel for side, _, rel in archive.orders_files(seq) if side == signer], (data,))
    if taken:
        return doc.problem(f"seq {seq} is an old file (replayed?): the game awaits seq {awaited} (this very file is "
                           f"{taken[-1]}, taken for seq {seq}, which has been adjudicated)", ("seq",),
                           section="docs/protocol.md §4", legal=str(awaited))
    deadline = orders_deadline(game, seq)
    if deadline is not None and clock.later_than(received, deadline):
        return doc.problem(f"these orders for seq {seq} arrived at {received}, after its deadline {deadline}: seq "
                           f"{seq} was adjudicated without them, and the game now awaits seq {awaited}", ("seq",),
                           section="docs/protocol.md §4a", legal=f"orders for seq {awaited}, built on your latest view")
    return doc.problem(f"these orders for seq {seq} came after seq {seq} was adjudicated: they are too late, and the "
                       f"game now awaits seq {awaited}", ("seq",), section="docs/protocol.md §4",
                       legal=f"orders for seq {awaited}, built on your latest view")


def _same_protocol(game: Game, doc: yamlio.Document) -> None:
    if isinstance(doc.data, dict) and doc.data.get("pbem") != game.protocol:
        raise OrdersError(doc.problem(f"pbem: {doc.data.get('pbem')!r} is not this game's protocol version",
                                      ("pbem",), section="docs/protocol.md §3", legal=str(game.protocol)))


def _accept_reply(game: Game, position: Position, doc: yamlio.Document, data: bytes, signer: str,
                  candidate: Candidate, referee: Referee, store: bool) -> Receipt:
    schemas.validate(doc, load_schema("decision-reply"))
    _same_protocol(game, doc)
    reply = doc.data
    seq = position.next_seq
    problems = []
    if reply["game"] != game.id:
        problems.append(doc.problem(f"this reply is for game {reply['game']!r}, not {game.id!r}", ("game",),
                                    legal=game.id))
    if reply["side"] != signer:
        problems.append(wrong_key(doc, reply["side"], signer, game.side_keys))
    if reply["seq"] != seq:
        problems.append(doc.problem(f"seq {reply['seq']} is not the adjudication under way ({seq})", ("seq",),
                                    legal=str(seq)))
    OrdersError.collect(problems)
    archive = Archive(game.root)
    request = _find_request(game, archive, seq, reply["request"])
    if request is None:
        raise OrdersError(doc.problem("names a decision request that was never sent", ("request",),
                                      section="docs/protocol.md §4"))
    index, request_doc = request
    if request_doc["side"] != signer:
        raise OrdersError(doc.problem("that decision request was sent to another side", ("request",)))
    if any(j == index for j, _ in archive.decision_lapses(seq)):
        raise OrdersError(doc.problem(f"the deadline for decision {index} passed before this reply came: the "
                                      f"rules' default {request_doc['options'][0]!r} was applied", ("request",),
                                      section=request_doc["section"]))
    later = [j for j, _ in archive.decision_requests(seq) if j > index]
    if later:
        raise OrdersError(doc.problem(f"decision {index} was already acted on: adjudication {seq} went on with "
                                      f"the answer given before and has asked decision {max(later)} since",
                                      ("request",), section=request_doc["section"]))
    if not is_option(reply["answer"], request_doc["options"]):
        raise OrdersError(_not_an_option(doc, game, request_doc))
    earlier = [rel for j, _, rel in archive.decision_replies(seq) if j == index]
    same = _copies(archive, earlier, (data,))
    if same and same[-1] != earlier[-1]:
        raise OrdersError(doc.problem(f"this exact reply was accepted before as {same[-1]} and has since been "
                                      f"replaced by {earlier[-1]}: sent again it reads as a replay; to go back to "
                                      "that answer, change the file (a comment line will do) and sign it again",
                                      ("answer",), section="docs/protocol.md §4"))
    counting = earlier[-1] if earlier else None
    if counting is not None and (same or options.same_plain(_answer_of(archive, counting), reply["answer"])):
        # The same reply again (the same mail twice, or the same answer in other bytes): stored once,
        # and the sender gets the receipt of the file that holds it.
        return Receipt(signer, "decision-reply", seq, counting, chance.file_hash(archive.read(counting)), (), None,
                       archive.receipt_of(counting), again=True)
    _refuse_late(doc, referee.received, request_doc.get("deadline"), "this reply", request_doc["section"])
    if len(earlier) >= MAX_SUBMISSIONS_PER_SIDE:
        raise OrdersError(doc.problem(f"decision {index} has had {MAX_SUBMISSIONS_PER_SIDE} replies already; "
                                      "no more are taken", ("request",)))
    rel = f"decisions/{seq_dir(seq)}/reply-{index:03d}-{archive.next_arrival(seq):04d}.yaml"
    replaces = earlier[-1] if earlier else None
    receipt = receipt_document(game, seq, signer, rel, data, len(earlier) + 1, referee.received,
                               archive.read(replaces) if replaces else None, reply["request"])
    signed = None
    if store:
        signed = _write_receipt(archive, game, referee, receipt)
        archive.write_signed_rel(rel, data, candidate.signature)
    return Receipt(signer, "decision-reply", seq, rel, chance.file_hash(data), (), replaces, signed)


def _not_an_option(doc: yamlio.Document, game: Game, request: dict[str, Any]) -> Problem:
    """Why a reply's answer is refused; when it is an option's name or number, which option to write instead."""
    answer = doc.data["answer"]
    named = options.request_names(request, game.ruleset.option_name)
    found, option = options.choose(answer, request["options"], named)
    if found:
        message = (f"answer {options.show(answer)} names an option, but a reply holds the option itself "
                   f"(docs/protocol.md §4): write answer: {options.show(option)} (pbem decide does it for you)")
    else:
        message = f"answer {options.show(answer)} is not one of the options"
    return doc.problem(message, ("answer",), section=request["section"],
                       legal=options.summary(request["options"], named))


def _answer_of(archive: Archive, rel: str) -> Any:
    return yamlio.load_bytes(archive.read(rel), rel).data["answer"]


def _find_request(game: Game, archive: Archive, seq: int, request_hash: str) -> tuple[int, dict[str, Any]] | None:
    for index, rel in archive.decision_requests(seq):
        data = archive.read(rel)
        if chance.file_hash(data) == request_hash:
            return index, yamlio.load_bytes(data, rel).data
    return None


class IntakeResult(NamedTuple):
    receipts: list[Receipt]
    errors: list[PbemError]


def stored_referee_key(game_dir: Path | str) -> signing.SigningKey | None:
    """The referee key `pbem new` noted in .referee/, if any (receipts are signed with it)."""
    path = noted_referee_key(game_dir)
    return signing.load_signing_key(path) if path else None


def submit(game_dir: Path | str, path: Path | str, sig_path: Path | str | None = None, *,
           referee_key: signing.SigningKey | None = None, now: clock.Clock = clock.system_clock) -> IntakeResult:
    """Take every signed file in `path`; each is accepted or rejected on its own.

    `now` gives the arrival time stamped on receipts and held against deadlines (the mail judge
    passes the time the mail arrived); `referee_key` signs the receipts (default: the key noted
    by `pbem new`).
    """
    archive = Archive(game_dir)
    archive.require()
    received = clock.utc_text(now())
    with archive.locked():
        game = load_game(game_dir)
        key = referee_key
        if key is None and game.protocol >= 2:
            key = stored_referee_key(game_dir)
        if key is not None and key.public_line.split()[:2] != game.referee_key.split()[:2]:
            raise ArchiveError("the referee key given is not the one game.yaml names")
        referee = Referee(key, received)
        try:
            candidates = read_candidates(Path(path), Path(sig_path) if sig_path else None)
        except PbemError as error:
            return IntakeResult([], [error])
        receipts, errors = [], []
        for candidate in candidates:
            try:
                receipts.append(accept(game, candidate, referee))
            except PbemError as error:
                errors.append(error)
        return IntakeResult(receipts, errors)


# --- looking at a file without storing it ---------------------------------------------------------


class StoredCopy(NamedTuple):
    """A file of the adjudication under way that holds exactly the bytes handed in."""

    rel: str
    kind: str  # "orders" or "decision-reply"
    side: str
    hash: str
    newest: str | None  # the side's newest orders file of that seq (what counts), for orders


def stored_copy(game: Game, texts: Sequence[bytes]) -> StoredCopy | None:
    """The stored orders file or reply of the adjudication under way with exactly one of these bytes."""
    archive = Archive(game.root)
    seq = current_position(game).next_seq
    orders = archive.orders_files(seq)
    for side, _, rel in orders:
        if _copies(archive, [rel], texts):
            newest = [other for owner, _, other in orders if owner == side][-1]
            return StoredCopy(rel, "orders", side, chance.file_hash(archive.read(rel)), newest)
    for _, _, rel in archive.decision_replies(seq):
        if _copies(archive, [rel], texts):
            data = archive.read(rel)
            side = yamlio.load_bytes(data, rel).data.get("side", "?")
            return StoredCopy(rel, "decision-reply", str(side), chance.file_hash(data), None)
    return None


class Inspection(NamedTuple):
    """What `submit` would make of one signed file, found without storing anything."""

    candidate: Candidate
    signer: str | None  # the side whose key signed it; None: no side's key verifies it
    stored: StoredCopy | None  # already in the archive (looked for only when a side signed it)
    refused: PbemError | None  # why submit would refuse it now (None: accepted, or not checked)
    checked: bool  # False: `refused` was not looked for (inspect(check=False))

    @property
    def texts(self) -> tuple[bytes, ...]:
        return self.candidate.texts


def signer_of(game: Game, candidate: Candidate) -> str | None:
    """The side whose key signed this file, or None (the reason is for `submit` to give)."""
    try:
        return _verify(game, candidate)[1]
    except PbemError:
        return None


def inspect(game_dir: Path | str, path: Path | str, sig_path: Path | str | None = None, *,
            check: bool = True, now: clock.Clock = clock.system_clock) -> list[Inspection]:
    """Each signed file in `path` as `submit` would see it: who signed it, whether it is stored already,
    and (with `check`) what would be refused and why, as of `now`. Nothing is written.

    Raises PbemError when nothing can be read from `path` (the error `submit` would give).
    """
    game = load_game(game_dir)
    candidates = read_candidates(Path(path), Path(sig_path) if sig_path else None)
    referee = Referee(None, clock.utc_text(now())) if check else None  # the clock is read only when needed
    found = []
    for candidate in candidates:
        signer = signer_of(game, candidate)
        stored = stored_copy(game, candidate.texts) if signer is not None else None
        refused = None
        if referee is not None:
            try:
                accept(game, candidate, referee, store=False)
            except PbemError as error:
                refused = error
        found.append(Inspection(candidate, signer, stored, refused, check))
    return found
