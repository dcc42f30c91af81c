"""A player's check from its own files: its views against game.yaml (docs/protocol.md §4, §4a, §5).

`verify_views` checks one side's views alone: signatures, the view chain, the seed chain, phase
seeds and every roll the side was shown (a restricted roll by its key, version 2), the deadlines
the views announce, and, once a view announces the result and carries t_K, the hidden chain and
every key of every view given. `check_player` adds what the player's other files prove: the
ledger (equivocation), the referee's receipts against the views, and an exported archive against
everything the player holds.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from . import chance, clock, schemas, signing, yamlio
from .errors import PbemError
from .game import Game, load_game
from .ledger import Ledger, SignedFile, check_referee_file, read_signed_file
from .schemafiles import load_schema
from .views import recompute_phase_seed

if TYPE_CHECKING:
    from .audit import Discrepancy

PROOF = "a signed proof of misconduct (docs/protocol.md §4a)"
MAX_EXPORT_BYTES = 256 * 1024 * 1024  # the .tar.gz itself
MAX_UNPACKED_BYTES = 1024 * 1024 * 1024  # everything in it, unpacked
MAX_MEMBERS = 200_000
MEMBER_NAME = re.compile(r"[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*/?")


def _discrepancy(file: str, field_: str, message: str) -> Discrepancy:
    from .audit import Discrepancy  # audit re-exports verify_views: import it late, not at load time
    return Discrepancy(file, field_, message)


def _game(game_file: Path | str) -> Game:
    path = Path(game_file)
    return load_game(path.parent) if path.name == "game.yaml" else load_game(path)


# --- views alone ---------------------------------------------------------------------------------


def verify_views(paths: Sequence[Path | str], game_file: Path | str) -> list[Discrepancy]:
    """Signatures, the view chain, the seed chain, phase seeds, every visible roll and the hidden chain."""
    game = _game(game_file)
    views, found = read_views(game, paths)
    return found + check_views(game, views)


def read_views(game: Game, paths: Sequence[Path | str]) -> tuple[list[SignedFile], list[Discrepancy]]:
    """The views that carry the referee's signature and the view schema; a discrepancy for each other."""
    views, found = [], []
    for path in paths:
        try:
            data = yamlio.read_file(path, max_bytes=_max_view_bytes())
            signature = signing.read_signature(str(path) + ".sig")
            signing.verify(data, signature, game.turn_namespace(), {"referee": game.referee_key}, file=str(path))
            doc = yamlio.load_bytes(data, str(path), max_bytes=_max_view_bytes())
            schemas.validate(doc, load_schema("view"))
        except (PbemError, OSError) as error:
            found.append(_discrepancy(str(path), "signature", str(error)))
            continue
        views.append(SignedFile(str(path), data, signature, doc.data))
    return views, found


def _max_view_bytes() -> int:
    from .archive import MAX_ARCHIVED_BYTES
    return MAX_ARCHIVED_BYTES


def check_views(game: Game, given: Sequence[SignedFile]) -> list[Discrepancy]:
    found: list[Discrepancy] = []
    views = sorted(given, key=lambda view: view.seq)
    sides = sorted({view.doc["side"] for view in views})
    if len(sides) > 1:
        found.append(_discrepancy(", ".join(view.name for view in views), "side",
                                  f"views of several sides ({', '.join(sides)}): check one side's views at a time"))
    seqs = [view.seq for view in views]
    for seq in sorted({seq for seq in seqs if seqs.count(seq) > 1}):
        found.append(_discrepancy(", ".join(view.name for view in views if view.seq == seq), "seq",
                                  f"more than one view {seq} given"))
    previous: SignedFile | None = None
    for view in views:
        found.extend(_check_one_view(game, view.name, view.doc, previous))
        previous = view
    found.extend(_check_hidden_chain(game, views))
    return found


def _check_one_view(game: Game, name: str, view: Mapping[str, Any],
                    previous: SignedFile | None) -> Iterator[Discrepancy]:
    if view["game"] != game.id:
        yield _discrepancy(name, "game", f"view of game {view['game']!r}, not {game.id!r}")
    if view["pbem"] != game.protocol:
        yield _discrepancy(name, "pbem", f"a version {view['pbem']} view in a version {game.protocol} game")
    seq = view["seq"]
    follows = previous is not None and previous.seq == seq - 1
    if previous is not None and not follows:
        yield _discrepancy(name, "seq", f"view {seq} given after view {previous.seq}: the views in between are "
                                        "missing, so the chain between them is not checked")
    if follows and previous is not None and view["previous_view"] != previous.hash:
        yield _discrepancy(name, "previous_view", f"{view['previous_view']} is not the hash of the view given "
                                                  f"before it, {previous.name} ({previous.hash}): "
                                                  "one of the two is not the view the referee chained")
    yield from _check_deadlines(game, name, view, previous.doc if follows and previous is not None else None)
    if "hidden_seed" in view["dice"] and "result" not in view["next"]:
        yield _discrepancy(name, "dice.hidden_seed", "only the view that announces the game's result may carry t_K: "
                                                     "this one reveals the hidden chain while the game runs")
    if seq == 0:
        if view["master"] != game.hash:
            yield _discrepancy(name, "master", "view 0 is not bound to this game.yaml")
        return
    if game.protocol >= 2 and "decisions" not in view:
        yield _discrepancy(name, "decisions", "a version 2 view lists the side's decisions used (docs/protocol.md "
                                              "§4a); this one does not")
    dice = view["dice"]
    if dice["seed"] is None or dice["previous"] is None or dice["phase_seed"] is None:
        yield _discrepancy(name, "dice", f"view {seq} lacks its seed, previous hash or phase seed")
        return
    if seq == 1 and dice["previous"] != game.hash:
        yield _discrepancy(name, "dice.previous", "the first adjudication must build on game.yaml's hash")
    if follows and previous is not None and seq > 1 and dice["previous"] != previous.doc["master"]:
        yield _discrepancy(name, "dice.previous", "is not the master turn file of the previous view")
    if [entry["side"] for entry in dice["inputs"]] != game.sides:
        yield _discrepancy(name, "dice.inputs", f"must list every side in game.yaml order ({', '.join(game.sides)})")
    seed = bytes.fromhex(dice["seed"])
    if not _on_chain(game, seq, seed):
        yield _discrepancy(name, "dice.seed", f"s_{seq} does not hash down to game.yaml's anchor in {seq} steps: "
                                              "not the committed seed")
    phase_seed = recompute_phase_seed(view, game.id)
    if phase_seed.hex() != dice["phase_seed"]:
        yield _discrepancy(name, "dice.phase_seed", "does not follow from the seed, previous hash and the inputs")
    for index, roll in enumerate(dice["rolls"]):
        where = f"dice.rolls[{index}]"
        if "key" in roll and game.protocol < 2:
            yield _discrepancy(name, f"{where}.key", "a version 1 roll has no key: every roll comes from the phase "
                                                     "seed")
            continue
        if chance.roll_value(phase_seed, roll) != roll["value"]:
            if "key" in roll:
                yield _discrepancy(name, where, f"restricted roll {roll['i']} is not what its key and the phase seed "
                                                "give: the key or the value is wrong")
            else:
                yield _discrepancy(name, where, f"roll {roll['i']} is not what the phase seed gives")


def _check_deadlines(game: Game, name: str, view: Mapping[str, Any],
                     previous: Mapping[str, Any] | None) -> Iterator[Discrepancy]:
    """Deadlines are UTC times (version 2 only); a missing side's deadline is the one view k-1 announced."""
    stamps = [("next.deadline", view["next"].get("deadline"))]
    stamps += [(f"dice.inputs[{index}].deadline", entry.get("deadline"))
               for index, entry in enumerate(view["dice"]["inputs"])]
    for where, stamp in stamps:
        if stamp is None:
            continue
        if game.protocol < 2:
            yield _discrepancy(name, where, "a version 1 view announces no deadline")
            continue
        try:
            clock.parse_utc(stamp)
        except PbemError as error:
            yield _discrepancy(name, where, str(error))
    if previous is None or game.protocol < 2:
        return
    announced = previous["next"].get("deadline")
    for index, entry in enumerate(view["dice"]["inputs"]):
        recorded = entry.get("deadline")
        if "order_hash" in entry:
            if recorded is not None:
                yield _discrepancy(name, f"dice.inputs[{index}].deadline", "only a missing side has a deadline "
                                                                           "recorded")
        elif recorded is not None and recorded != announced:
            said = f"announced {announced}" if announced else "announced none"
            yield _discrepancy(name, f"dice.inputs[{index}].deadline",
                               f"{entry['side']} is called missing past the deadline {recorded}, but the previous "
                               f"view {said}")


def _check_hidden_chain(game: Game, views: Sequence[SignedFile]) -> Iterator[Discrepancy]:
    """Once the result is announced: t_K on the hidden chain, and every key of every view from it."""
    if game.protocol < 2:
        for view in views:
            if "hidden_seed" in view.doc["dice"]:
                yield _discrepancy(view.name, "dice.hidden_seed", "a version 1 game has no hidden chain")
        return
    anchor = game.hidden_anchor
    finals = [view for view in views if "result" in view.doc["next"] and view.seq > 0]
    for view in finals:
        if "hidden_seed" not in view.doc["dice"]:
            yield _discrepancy(view.name, "dice.hidden_seed", "the view that announces the result must carry t_K "
                                                              "(docs/protocol.md §3): the hidden keys cannot be checked")
    top: tuple[int, bytes] | None = None
    for view in finals:
        if "hidden_seed" not in view.doc["dice"]:
            continue
        seq = view.seq
        seed = bytes.fromhex(view.doc["dice"]["hidden_seed"])
        if anchor is None or not 1 <= seq <= game.chain_length or \
                not chance.on_chain(game.id, seed, seq, anchor, chance.HIDDEN_CHAIN_LABEL):
            yield _discrepancy(view.name, "dice.hidden_seed", f"t_{seq} does not hash down to game.yaml's hidden "
                                                              f"anchor in {seq} steps: not the committed hidden seed")
            continue
        if top is None:
            top = (seq, seed)
    if top is None:
        return
    last, seed = top
    links = {last: seed}
    for k in range(last, 1, -1):
        links[k - 1] = chance.chain_step(game.id, links[k], chance.HIDDEN_CHAIN_LABEL)
    for view in views:
        if view.seq > last:
            yield _discrepancy(view.name, "seq", f"view {view.seq} comes after view {last}, which ended the game")
            continue
        for index, roll in enumerate(view.doc["dice"]["rolls"]):
            if "key" not in roll or view.seq == 0:
                continue
            expected = chance.hidden_key(game.id, view.seq, links[view.seq], roll["i"]).hex()
            if roll["key"] != expected:
                yield _discrepancy(view.name, f"dice.rolls[{index}].key",
                                   f"the key of restricted roll {roll['i']} is not key_({view.seq},{roll['i']}) of "
                                   f"t_{view.seq}, which the final view's t_{last} gives: not drawn from the "
                                   "committed hidden chain")


def _on_chain(game: Game, seq: int, seed: bytes) -> bool:
    """Whether `seed` is link `seq` of the chain game.yaml committed to (hash it down to s_0)."""
    if not 1 <= seq <= game.chain_length:
        return False
    return chance.on_chain(game.id, seed, seq, game.anchor)


# --- the player's other files: ledger, receipts, archive ------------------------------------------------


@dataclass
class PlayerCheck:
    """What `pbem verify-view` found: discrepancies (each printed), and notes for the player."""

    found: list[Discrepancy] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def check_player(paths: Sequence[Path | str], game_file: Path | str, *, ledger_base: Path | str | None = None,
                 receipts: Sequence[Path | str] = (), archive: Path | str | None = None,
                 use_ledger: bool = True) -> PlayerCheck:
    """The views given, what they and the receipts prove, and (optionally) an archive against it all."""
    game = _game(game_file)
    report = PlayerCheck()
    views, report.found = read_views(game, paths)
    report.found += check_views(game, views)
    ledger = Ledger.open(game, ledger_base) if use_ledger else None
    held_views = {view.hash: view for view in views}
    held_receipts: dict[str, SignedFile] = {}
    requests: dict[str, SignedFile] = {}
    recorded = 0
    for path in receipts:
        try:
            data, signature = read_signed_file(path)
            if ledger is not None:
                recorded += ledger.record(data, signature, str(path)).new
            doc = check_referee_file(game, data, signature, str(path), ("receipt",))
        except (PbemError, OSError) as error:
            report.found.append(_discrepancy(str(path), "receipt", str(error)))
            continue
        held_receipts.setdefault(chance.file_hash(data), SignedFile(str(path), data, signature, doc))
    if ledger is not None:
        for view in views:
            recorded += ledger.record(view.data, view.signature, view.name).new
        for held in ledger.held():
            target = {"view": held_views, "receipt": held_receipts, "decision-request": requests}.get(held.kind)
            if target is not None:
                target.setdefault(held.hash, held)
        for clash in ledger.equivocations():
            report.found.append(_discrepancy(clash.files, "ledger", str(clash)))
        report.notes.append(f"ledger {ledger.folder}: {recorded} new file(s) kept; it holds "
                            f"{len(ledger.views())} view(s) and {len(ledger.receipts())} receipt(s)")
    all_views = sorted(held_views.values(), key=lambda view: (view.seq, view.doc["side"], view.name))
    report.found += check_receipts(game, all_views, list(held_receipts.values()), requests)
    if archive is not None:
        checked = check_archive(game, all_views, list(held_receipts.values()), list(requests.values()), archive)
        report.found += checked.found
        report.notes += checked.notes
    return report


def _linked_previous(view: SignedFile, views: Sequence[SignedFile]) -> SignedFile | None:
    """The view k-1 that view k builds on (its master is view k's dice.previous), if held."""
    previous = view.doc["dice"]["previous"]
    return next((other for other in views if other.seq == view.seq - 1 and other.doc["master"] == previous), None)


def _late(received: str, deadline: str | None) -> bool:
    try:
        return deadline is not None and clock.later_than(received, deadline)
    except PbemError:
        return False  # a malformed deadline is reported on the view itself


def check_receipts(game: Game, views: Sequence[SignedFile], receipts: Sequence[SignedFile],
                   requests: Mapping[str, SignedFile]) -> list[Discrepancy]:
    """Each receipt against the views of its seq: the turn used the newest timely file, or holds a proof."""
    found: list[Discrepancy] = []
    orders: dict[tuple[int, str], list[SignedFile]] = {}
    replies: dict[tuple[int, str, str], list[SignedFile]] = {}
    for receipt in receipts:
        doc = receipt.doc
        if "request" in doc:
            replies.setdefault((doc["seq"], doc["side"], doc["request"]), []).append(receipt)
        else:
            orders.setdefault((doc["seq"], doc["side"]), []).append(receipt)
    for _, group in [*sorted(orders.items()), *sorted(replies.items())]:
        found.extend(_receipt_sequence(group))
    for (seq, side), group in sorted(orders.items()):
        for view in views:
            if view.seq != seq or view.seq == 0:
                continue
            entry = next((item for item in view.doc["dice"]["inputs"] if item["side"] == side), None)
            if entry is None:
                continue
            linked = _linked_previous(view, views)
            deadline = linked.doc["next"].get("deadline") if linked is not None else entry.get("deadline")
            found.extend(_orders_against_view(view, side, seq, entry, group, deadline))
    for (seq, side, request), group in sorted(replies.items()):
        asked = requests.get(request)
        deadline = asked.doc.get("deadline") if asked is not None else None
        for view in views:
            if view.seq != seq or view.doc["side"] != side or "decisions" not in view.doc:
                continue
            found.extend(_replies_against_view(view, side, seq, request, group, deadline))
    return found


def _receipt_sequence(group: Sequence[SignedFile]) -> Iterator[Discrepancy]:
    """One side's receipts for one seq (or one request) must count 1, 2, 3... in arrival order, each
    naming the file the one before it acknowledged as the file it replaces (docs/protocol.md §4a)."""
    by_number: dict[int, SignedFile] = {}
    for receipt in group:
        other = by_number.get(receipt.doc["number"])
        if other is not None and other.doc["hash"] != receipt.doc["hash"]:
            yield _discrepancy(receipt.name, "number", f"{other.name} has the same number {receipt.doc['number']} "
                                                       f"for another file: {PROOF}")
        by_number[receipt.doc["number"]] = receipt
    for number, receipt in sorted(by_number.items()):
        before = by_number.get(number - 1)
        if number == 1 and receipt.doc["replaces"] is not None:
            yield _discrepancy(receipt.name, "replaces", f"receipt number 1 names a file it replaces "
                                                         f"({receipt.doc['replaces']}): {PROOF}")
        if before is None:
            continue
        if receipt.doc["replaces"] != before.doc["hash"]:
            yield _discrepancy(receipt.name, "replaces", f"receipt number {number} replaces {receipt.doc['replaces']}, "
                                                         f"but number {number - 1} ({before.name}) acknowledged "
                                                         f"{before.doc['hash']}: {PROOF}")
        if _late(before.doc["received"], receipt.doc["received"]):
            yield _discrepancy(receipt.name, "received", f"number {number} was received at "
                                                         f"{receipt.doc['received']}, before number {number - 1} "
                                                         f"({before.doc['received']}): {PROOF}")


def _orders_against_view(view: SignedFile, side: str, seq: int, entry: Mapping[str, Any],
                         group: Sequence[SignedFile], deadline: str | None) -> Iterator[Discrepancy]:
    timely = [receipt for receipt in group if not _late(receipt.doc["received"], deadline)]
    by = f" (deadline {deadline})" if deadline else ""
    for receipt in group:
        if receipt not in timely and entry.get("order_hash") == receipt.doc["hash"]:
            yield _discrepancy(receipt.name, "receipt",
                               f"{view.name} used {side}'s orders {receipt.doc['file']} ({receipt.doc['hash']}) for seq "
                               f"{seq}, but this receipt says they arrived at {receipt.doc['received']}, after the "
                               f"deadline {deadline}: a late file must not count; {PROOF}")
    if not timely:
        return
    newest = max(timely, key=lambda receipt: receipt.doc["number"])
    said = (f"this receipt, signed by the referee, acknowledges {side}'s orders {newest.doc['file']} "
            f"({newest.doc['hash']}) as number {newest.doc['number']} for seq {seq}, received {newest.doc['received']}{by}")
    if "order_hash" not in entry:
        yield _discrepancy(newest.name, "receipt", f"{view.name} calls {side} missing for seq {seq}, but {said}: "
                                                   f"{PROOF}")
    elif entry["order_hash"] != newest.doc["hash"]:
        used = next((receipt for receipt in group if receipt.doc["hash"] == entry["order_hash"]), None)
        what = (f"the file of receipt number {used.doc['number']}" if used is not None
                else "a file none of your receipts acknowledges")
        yield _discrepancy(newest.name, "receipt",
                           f"{view.name} used {what} ({entry['order_hash']}) as {side}'s orders for seq {seq}, but "
                           f"{said}, the highest number in time: the newest file must count; {PROOF}")


def _replies_against_view(view: SignedFile, side: str, seq: int, request: str, group: Sequence[SignedFile],
                          deadline: str | None) -> Iterator[Discrepancy]:
    timely = [receipt for receipt in group if not _late(receipt.doc["received"], deadline)]
    if not timely:
        return
    newest = max(timely, key=lambda receipt: receipt.doc["number"])
    said = (f"this receipt, signed by the referee, acknowledges {side}'s reply {newest.doc['file']} ({newest.doc['hash']}) "
            f"as number {newest.doc['number']} to request {request}, received {newest.doc['received']}"
            + (f" (deadline {deadline})" if deadline else ""))
    entries = [entry for entry in view.doc["decisions"] if entry["request_hash"] == request]
    if not entries:
        yield _discrepancy(newest.name, "receipt", f"{view.name} lists no decision for that request, but {said}: "
                                                   f"{PROOF}")
    for entry in entries:
        if entry["lapsed"]:
            yield _discrepancy(newest.name, "receipt", f"{view.name} says decision {entry['index']} lapsed unanswered, "
                                                       f"but {said}: {PROOF}")
        elif entry["answer_hash"] != newest.doc["hash"]:
            yield _discrepancy(newest.name, "receipt", f"{view.name} used another answer ({entry['answer_hash']}) for "
                                                       f"decision {entry['index']}, but {said}, the highest number in "
                                                       f"time: {PROOF}")


# --- an exported archive against what the player holds -------------------------------------------------


def check_archive(game: Game, views: Sequence[SignedFile], receipts: Sequence[SignedFile],
                  requests: Sequence[SignedFile], path: Path | str) -> PlayerCheck:
    """Every file the player holds is in the archive byte for byte; the archive reaches the last view; audit."""
    from .archive import Archive, receipt_rel, view_rel
    from .audit import audit_report

    report = PlayerCheck()
    label = str(path)
    with _archive_root(Path(path)) as root:
        archive = Archive(root)

        def stored(rel: str) -> bytes | None:
            try:
                return archive.read(rel)
            except PbemError:
                return None

        if stored("game.yaml") != game.data:
            report.found.append(_discrepancy(f"{label}/game.yaml", "game.yaml", "missing, or not the game.yaml you "
                                                                               "hold: not this game's archive"))
            return report
        for view in views:
            rel = view_rel(view.seq, view.doc["side"])
            data = stored(rel)
            if data is None:
                report.found.append(_discrepancy(f"{label}/{rel}", "view", f"missing from the archive, but you hold "
                                                                          f"{view.name} ({view.hash}), signed by the "
                                                                          "referee"))
            elif data != view.data:
                report.found.append(_discrepancy(f"{label}/{rel}", "view",
                                                 f"{chance.file_hash(data)} in the archive differs from {view.name} "
                                                 f"({view.hash}), which the referee signed and sent you: {PROOF}"))
        for receipt in receipts:
            rel = receipt_rel(receipt.doc["file"])
            data = stored(rel)
            if data != receipt.data:
                what = "missing from the archive" if data is None else "differs in the archive"
                report.found.append(_discrepancy(f"{label}/{rel}", "receipt", f"{what}, but you hold {receipt.name}, "
                                                                             f"signed by the referee: {PROOF}"))
            accepted = stored(receipt.doc["file"])
            if accepted is None or chance.file_hash(accepted) != receipt.doc["hash"]:
                what = "missing from the archive" if accepted is None else "not the file acknowledged"
                report.found.append(_discrepancy(f"{label}/{receipt.doc['file']}", "file",
                                                 f"{what}: {receipt.name} acknowledges {receipt.doc['hash']} there; "
                                                 f"{PROOF}"))
        for request in requests:
            rel = f"decisions/{request.seq:04d}/request-{request.doc['index']:03d}.yaml"
            if stored(rel) != request.data:
                report.found.append(_discrepancy(f"{label}/{rel}", "decision-request",
                                                 f"missing or different in the archive, but you hold {request.name}, "
                                                 f"signed by the referee: {PROOF}"))
        last = max((view.seq for view in views), default=0)
        ends = archive.latest_seq()
        if ends < last:
            report.found.append(_discrepancy(f"{label}/turns", "seq", f"the archive ends at adjudication {ends}, but "
                                                                      f"you hold view {last}: it was cut short"))
        audited = audit_report(root)
        report.found += [_discrepancy(f"{label}/{item.file}", item.field, item.message) for item in audited.found]
        report.notes.append(f"audit of {label}: {audited.summary}")
    return report


@contextlib.contextmanager
def _archive_root(path: Path) -> Iterator[Path]:
    """A game directory as it is, or an exported .tar.gz unpacked into a temporary folder (safely)."""
    if path.is_dir():
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="pbem-archive-") as temp:
        yield _unpack(path, Path(temp))


def _unpack(path: Path, into: Path) -> Path:
    """Regular files and folders only, names inside `into`, every size bounded; the folder holding game.yaml."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise PbemError(f"{path}: not a regular file (give a game directory or a .tar.gz from pbem export)")
    if info.st_size > MAX_EXPORT_BYTES:
        raise PbemError(f"{path}: {info.st_size} bytes; an exported archive has at most {MAX_EXPORT_BYTES}")
    total, members, seen = 0, 0, set()
    try:
        with tarfile.open(path, mode="r|gz") as tar:
            for member in tar:
                members += 1
                if members > MAX_MEMBERS:
                    raise PbemError(f"{path}: more than {MAX_MEMBERS} entries")
                name = member.name
                if not MEMBER_NAME.fullmatch(name) or any(part in (".", "..") for part in name.split("/")):
                    raise PbemError(f"{path}: entry {name[:100]!r} is not a plain relative name")
                name = name.rstrip("/")
                if name in seen:
                    raise PbemError(f"{path}: entry {name!r} appears twice")
                seen.add(name)
                target = into / name
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                if not member.isreg():
                    raise PbemError(f"{path}: entry {name!r} is not a regular file or folder")
                total += member.size
                if member.size > MAX_UNPACKED_BYTES or total > MAX_UNPACKED_BYTES:
                    raise PbemError(f"{path}: more than {MAX_UNPACKED_BYTES} bytes unpacked")
                source = tar.extractfile(member)
                if source is None:
                    raise PbemError(f"{path}: entry {name!r} cannot be read")
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "xb") as out:
                    left = member.size
                    while left > 0:
                        chunk = source.read(min(left, 1 << 20))
                        if not chunk:
                            raise PbemError(f"{path}: entry {name!r} is cut short")
                        out.write(chunk)
                        left -= len(chunk)
    except (tarfile.TarError, EOFError, OSError) as error:
        raise PbemError(f"{path}: not a readable .tar.gz ({error})") from None
    if (into / "game.yaml").is_file():
        return into
    tops = [entry for entry in into.iterdir()]
    if len(tops) == 1 and (tops[0] / "game.yaml").is_file():
        return tops[0]
    raise PbemError(f"{path}: no game.yaml at the top of the archive (or in its one top folder)")
