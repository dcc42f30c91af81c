"""One mail in: every signed file it carries through the core's `submit`, and the answers it earns.

Authentication is the signature alone. The From address is used for one thing only: telling an
unauthenticated sender what was wrong with its mail (no signature, a refused attachment, a
broken MIME tree). Everything about a signed file, its receipt and every error found in it,
goes to the address game.yaml registers for the side that signed it: rule errors are judged
against that side's view, so sending them to whoever forwarded the file would leak that view.

Files are written only under the game's `.referee/mail-work/`, under names the judge makes;
the sender's file names are checked and used in messages, never as paths.
"""

from __future__ import annotations

import datetime
import re
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..core.api import (SIG_SUFFIX, Clock, Game, Inspection, PbemError, inspect, referee_folder, signing, status,
                        submit, system_clock)
from .message import ParsedMail, TextBody

WORK_DIR = "mail-work"
MAX_ANSWER_BYTES = 64 * 1024  # the text of one answer; what is beyond is cut, and the answer says so
MAX_ERROR_BYTES = 16 * 1024  # the errors of one rejected file, so that one file cannot fill the answer alone
ARMOR_BEGIN = b"-----BEGIN PBEM SIGNED FILE-----"
_GAME_LINE = re.compile(rb"(?m)^game:[ \t]*[\"']?([a-z0-9][a-z0-9-]{2,63})[\"']?[ \t]*$")
USED, REFUSED = "used", "refused"  # what became of one signed file of a mail
_STATUS = re.compile(r"^\s*(?:re:\s*)?status(?:\s+([a-z0-9][a-z0-9-]{2,63}))?\s*$", re.IGNORECASE)


@dataclass
class Served:
    """A game the judge runs: its directory, game file and each side's registered address."""

    root: Path
    game: Game

    @property
    def addresses(self) -> dict[str, str]:
        return {entry["side"]: entry["address"] for entry in self.game.doc["sides"] if entry.get("address")}

    def side_of_address(self, address: str) -> str | None:
        for side, registered in self.addresses.items():
            if registered.lower() == address.lower():
                return side
        return None


@dataclass
class Answer:
    """What one recipient is told about one mail."""

    to: str
    served: Served | None
    side: str | None  # the side whose registered address this is (None: an unauthenticated sender)
    lines: list[str] = field(default_factory=list)
    accepted: int = 0  # files newly stored for this recipient's side
    size: int = 0  # bytes of the lines that count against MAX_ANSWER_BYTES
    cut: bool = False  # something was left out to keep the answer within MAX_ANSWER_BYTES
    files: list[tuple[str, bytes]] = field(default_factory=list)  # signed receipts, each with its .sig

    def add(self, text: str, *, always: bool = False) -> None:
        """Add one paragraph; past MAX_ANSWER_BYTES the rest is cut (but not an `always` one: a receipt)."""
        if always:
            self.lines.append(text)
            return
        if self.cut:
            return
        size = len(text.encode("utf-8")) + 2
        if self.size + size <= MAX_ANSWER_BYTES:
            self.lines.append(text)
            self.size += size
            return
        kept = _cut(text, MAX_ANSWER_BYTES - self.size)
        if kept:
            self.lines.append(kept)
        self.lines.append(f"[this answer was cut at {MAX_ANSWER_BYTES // 1024} KiB: the rest of what was wrong is "
                          "not shown; fix what is above and send the file again]")
        self.cut = True


@dataclass
class MailResult:
    """What the intake of one mail did, and whom to tell (`submit` gives an IntakeResult for each file)."""

    handled: bool  # False: nothing in it could be used, or every signed file was rejected (to failed/)
    reason: str
    answers: list[Answer]
    touched: list[Served]  # games whose archive this mail reached


@dataclass(frozen=True)
class Carried:
    """One signed file found in the mail, written to the work folder."""

    label: str  # how the sender knows it: "orders.yaml", "block 1 of the mail body"
    path: Path
    sig: Path | None
    game_id: str | None
    armored: bool = False  # `path` is the judge's own work file holding the block: never named to the sender


def _label_armored(body: TextBody, index: int, total: int) -> str:
    return f"armored block {index} of {body.label}" if total > 1 else f"the armored block in {body.label}"


def _split_blocks(data: bytes, starts: Sequence[int]) -> list[bytes]:
    """The carrier's lines cut before each block's BEGIN line (1-based), one piece per block."""
    lines = data.splitlines(keepends=True)
    cuts = [start - 1 for start in starts] + [len(lines)]
    return [b"".join(lines[cuts[i]:cuts[i + 1]]) for i in range(len(starts))]


def _game_id(data: bytes) -> str | None:
    found = _GAME_LINE.search(data)
    return found.group(1).decode("ascii") if found else None


class MailIntake:
    """Reads one parsed mail into the served games."""

    def __init__(self, served: Sequence[Served], home: Path, max_files: int, now: Clock = system_clock) -> None:
        self.now = now  # stamps receipts and is held against deadlines, unless a mail says when it came
        self._arrived: datetime.datetime | None = None
        self.served = list(served)
        self.by_id = {item.game.id: item for item in self.served}
        self.home = home
        self.max_files = max_files

    # --- collecting the signed files ------------------------------------------------------------
    def _collect(self, mail: ParsedMail, work: Path, notes: list[str]) -> list[Carried]:
        carried: list[Carried] = []
        names = {a.name for a in mail.attachments}
        counter = 0

        def folder() -> Path:
            nonlocal counter
            counter += 1
            path = work / f"{counter:03d}"
            path.mkdir()
            return path

        for attachment in mail.attachments:
            if attachment.name.endswith(SIG_SUFFIX):
                if attachment.name[: -len(SIG_SUFFIX)] not in names:
                    notes.append(f"{attachment.name} came without {attachment.name[:-len(SIG_SUFFIX)]}: attach both")
                continue
            sig_name = attachment.name + SIG_SUFFIX
            signature = next((a for a in mail.attachments if a.name == sig_name), None)
            if signature is not None:
                place = folder()
                path = place / attachment.name
                path.write_bytes(attachment.data)
                (place / sig_name).write_bytes(signature.data)
                carried.append(Carried(attachment.name, path, place / sig_name, _game_id(attachment.data)))
                continue
            if ARMOR_BEGIN in attachment.data:
                carried += self._armored(TextBody(f"attachment {attachment.name}", attachment.data), folder, notes)
            else:
                notes.append(f"{attachment.name} came without {sig_name}: sign it (ssh-keygen -Y sign -f KEY "
                             f"-n pbem-orders@GAME {attachment.name}) and attach both, or paste the armored form "
                             "(pbem sign --armor) into the mail")
        for body in mail.texts:
            if ARMOR_BEGIN in body.data:
                carried += self._armored(body, folder, notes)
        if len(carried) > self.max_files:
            notes.append(f"the mail carries {len(carried)} signed files; the judge takes at most {self.max_files} "
                         "from one mail, the rest were not read")
            carried = carried[: self.max_files]
        return carried

    def _armored(self, body: TextBody, folder: Callable[[], Path], notes: list[str]) -> list[Carried]:
        """Each block of the text on its own: a good one is carried, a broken one is told to the sender."""
        blocks = signing.read_armored(body.data, file=body.label, max_blocks=self.max_files + 1)
        found = []
        pieces = _split_blocks(body.data, [block.line for block in blocks])
        for index, (block, piece) in enumerate(zip(blocks, pieces), start=1):
            if block.problem is not None:
                # Nobody's signature could be read from it: only the sender can be told.
                label = _label_armored(body, index, len(blocks)) + (f" ({block.name})" if block.name else "")
                notes.append(f"{label}: cannot be read, nothing was stored:\n"
                             + _indent(f"{body.label}:{block.line}: {block.problem}"))
                continue
            place = folder()
            name = f"block-{index}.txt"
            path = place / name
            path.write_bytes(piece)
            label = _label_armored(body, index, len(blocks))
            if block.name:
                label += f" ({block.name})"
            found.append(Carried(label, path, None, _game_id(block.text), armored=True))
        return found

    # --- routing and submitting -------------------------------------------------------------------
    def _route(self, item: Carried, sender: str) -> Served | str:
        if item.game_id in self.by_id:
            return self.by_id[item.game_id]
        if len(self.served) == 1:
            return self.served[0]  # the core names exactly what is wrong with it
        named = f"game {item.game_id!r}" if item.game_id else "no game"
        # Only the games the sender plays in are named: a stranger learns no other game's id.
        own = sorted(game_id for game_id, served in self.by_id.items() if served.side_of_address(sender))
        if not own:
            return f"{item.label}: names {named}; this judge runs no such game for {sender}"
        return f"{item.label}: names {named}; this judge runs {', '.join(own)} for {sender}"

    def _inspect(self, served: Served, item: Carried) -> Inspection | None:
        """The core's look at the file before it is submitted: who signed it, is it stored already.

        None when it is not one signed file the core can read (`submit` then says what is wrong).
        """
        try:
            found = inspect(served.root, item.path, item.sig, check=False)  # `submit` says what is refused
        except PbemError:
            return None
        return found[0] if len(found) == 1 else None

    def _now(self) -> Clock:
        arrived = self._arrived
        return self.now if arrived is None else (lambda: arrived)

    def handle(self, mail: ParsedMail, arrived: datetime.datetime | None = None) -> MailResult:
        """Take every signed file of one mail; `arrived` stamps receipts (default: the clock)."""
        self._arrived = arrived
        answers: dict[tuple[str, str | None], Answer] = {}
        notes = list(mail.notes)
        touched: list[Served] = []

        def answer(to: str, served: Served | None, side: str | None) -> Answer:
            key = (to.lower(), served.game.id if served else None)
            if key not in answers:
                answers[key] = Answer(to, served, side)
            return answers[key]

        work = referee_folder(self.home) / WORK_DIR / secrets.token_hex(8)
        work.mkdir(parents=True)
        outcomes: list[str] = []
        try:
            carried = self._collect(mail, work, notes)
            for item in carried:
                outcomes.append(self._one(item, mail, work, answer, notes, touched))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        command = self._command(mail) if not carried else None
        if command is not None:
            reply = answer(mail.sender, None, None)
            for text in self._status(command, mail.sender):
                reply.add(text)
        if USED in outcomes or command is not None:
            handled, reason = True, "answered"
        elif carried:
            # Signed files, none of them taken: the mail is a failure, the errors went to the signers.
            handled, reason = False, (f"none of the {len(carried)} signed files in it was accepted"
                                      if len(carried) > 1 else "the signed file in it was not accepted")
        else:
            handled, reason = False, self._nothing_found(mail)
            notes.append(reason)
        if notes:
            own = self._own_side(mail.sender)
            target = answer(mail.sender, own[0] if own else None, own[1] if own else None)
            for note in notes:
                target.add(note)
        return MailResult(handled, reason, [a for a in answers.values() if a.lines], touched)

    def _own_side(self, address: str) -> tuple[Served, str] | None:
        for served in self.served:
            side = served.side_of_address(address)
            if side:
                return served, side
        return None

    def _one(self, item: Carried, mail: ParsedMail, work: Path, answer: Callable[[str, Served | None, str | None], Answer],
             notes: list[str], touched: list[Served]) -> str:
        """Submit one signed file and say so to whom it concerns: USED (accepted, or stored already) or REFUSED."""
        routed = self._route(item, mail.sender)
        if isinstance(routed, str):
            notes.append(routed)
            return REFUSED
        served = routed
        seen = self._inspect(served, item)
        signer = seen.signer if seen is not None else None
        stored = seen.stored if seen is not None else None
        if stored is not None:
            target = answer(served.addresses.get(stored.side, mail.sender), served, stored.side)
            text = (f"{item.label}: this exact file is already in the archive as {stored.rel} ({stored.hash}); "
                    "it was not stored again")
            if stored.kind == "orders" and stored.newest and stored.newest != stored.rel:
                text += f". Your newest orders, {stored.newest}, stay in force"
            target.add(text)
            return USED
        result = submit(served.root, item.path, item.sig, now=self._now())
        if served not in touched:
            touched.append(served)
        prefix = str(item.path.parent) + "/"
        for receipt in result.receipts:
            target = answer(served.addresses.get(receipt.side, mail.sender), served, receipt.side)
            target.add(f"{item.label}: {receipt}", always=True)
            target.accepted += 1
            if receipt.signed is not None:  # the signed proof of arrival, for the player's ledger
                for rel in (receipt.signed, receipt.signed + ".sig"):
                    target.files.append((rel.rsplit("/", 1)[-1], (served.root / rel).read_bytes()))
        for error in result.errors:
            text = str(error).replace(prefix, "").replace(str(work) + "/", "")
            if item.armored:
                text = _without_work_file(text, item.path.name)
            if len(text.encode("utf-8")) > MAX_ERROR_BYTES:
                text = _cut(text, MAX_ERROR_BYTES) + (f"\n[the errors of this file were cut at "
                                                      f"{MAX_ERROR_BYTES // 1024} KiB]")
            if signer is not None:
                target = answer(served.addresses.get(signer, mail.sender), served, signer)
            else:
                own = self._own_side(mail.sender)
                target = answer(mail.sender, own[0] if own else None, own[1] if own else None)
            target.add(f"{item.label}: rejected, nothing was stored:\n" + _indent(text))
        return USED if result.receipts else REFUSED

    def _status(self, game_id: str, sender: str) -> list[str]:
        """The answer to `status GAME` (anyone) or a bare `status` (the sender's own games only).

        A named game's public status goes to whoever asks: it is what every side's view says. Without
        a game it names, the judge lists only the games in which the sender's address is a side's, so
        a stranger learns neither which games this judge holds nor how many.
        """
        named = self.by_id.get(game_id)
        if named is not None:
            return [status(named.root, public=True)]
        texts = [f"this judge runs no game {game_id!r} for {sender}"] if game_id else []
        own = [served for served in self.served if served.side_of_address(sender)]
        if not own:
            return texts + [f"{sender} plays no game of this judge: to see a game's status, write 'status GAME-ID' "
                            "as the subject (the game id is in the subject of every mail the judge sends about "
                            "that game, and in its game.yaml)"]
        return texts + [status(served.root, public=True) for served in own]

    @staticmethod
    def _command(mail: ParsedMail) -> str | None:
        """`status` (or `status GAME`) in the subject or as the first line of the text: the game id or ''."""
        candidates = [mail.subject]
        for body in mail.texts:
            first = next((line for line in body.data.decode("utf-8", errors="replace").splitlines() if line.strip()),
                         "")
            candidates.append(first)
        for text in candidates:
            found = _STATUS.match(text or "")
            if found:
                return found.group(1) or ""
        return None

    @staticmethod
    def _nothing_found(mail: ParsedMail) -> str:
        if mail.html_only:
            return ("the mail has only an HTML part and no armored PBEM block could be read from it: send plain "
                    "text (or attach ORDERS.yaml with ORDERS.yaml.sig)")
        return ("no signed pbem file was found in this mail: attach ORDERS.yaml with ORDERS.yaml.sig "
                "(ssh-keygen -Y sign), or paste the armored block (pbem sign --armor); write 'status' as the "
                "subject to get the status of your games ('status GAME-ID' for any game's)")


def _without_work_file(text: str, name: str) -> str:
    """Errors about an armored block without the judge's work file `name` in them.

    The answer's label already says which block of which text it is; what is left of a location
    is the line (and column) inside the signed text, which is the sender's own file.
    """
    work = re.escape(name)
    text = re.sub(rf"{work}:\d+:(\d+):(\d+): ", r"line \1, column \2 of the signed text: ", text)
    text = re.sub(rf"{work}:\d+:(\d+): ", r"line \1 of the signed text: ", text)
    text = re.sub(rf"(?:armored )?{work}(?::\d+)*: ", "", text)
    return text.replace(name, "the block")


def _cut(text: str, limit: int) -> str:
    """The whole lines of `text` that fit in `limit` bytes of UTF-8 (a single too-long line is cut inside)."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    head = data[: max(limit, 0)].decode("utf-8", errors="ignore")
    end = head.rfind("\n")
    return head[:end] if end > 0 else head


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def clean_work(home: Path) -> None:
    """Remove what a stop left in the work folder (nothing there is needed after a message)."""
    shutil.rmtree(referee_folder(home) / WORK_DIR, ignore_errors=True)


__all__ = ["Answer", "Carried", "MailIntake", "MailResult", "Served", "clean_work"]
