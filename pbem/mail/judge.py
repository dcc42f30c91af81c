"""The judge: mail in, signed files through the core, adjudication when ready, answers and results out.

One round: every mail waiting in the inbox is handled (intake, answers queued, recorded, filed);
then each game is looked at (announcements of new turns and decision requests, adjudication when
everything is in or the deadline has passed, reminders); then the outbox is sent. `run` repeats
rounds until stopped, waiting for mail in between (IMAP IDLE where offered). The order of writes
is in `state.py`: a stop at any instant loses nothing and answers no Message-ID twice.
"""

from __future__ import annotations

import contextlib
import datetime
import imaplib
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..core.api import (ArchiveError, ArchiveView, PbemError, SigningKey, adjudicate, current_position, decisions,
                        file_hash, load_game, request_text, seq_dir, show_value, turn_rel, view_rel, yamlio)
from .autoreply import why_silent
from .compose import Outgoing, Part, compose, domain_of, make_id
from .deadlines import Schedule, schedule
from .intake import Answer, MailIntake, Served, clean_work
from .limits import DEFAULT, Limits
from .message import ParsedMail, parse, parse_headers_only
from .report import map_picture, next_line, text_report
from .state import JudgeState, iso, judge_lock, parse_iso
from .transport import FAILED, IGNORED, PROCESSED, Inbox, Incoming, PermanentSendError, Sender

MAX_STEPS_PER_TICK = 20


def utcnow() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


@dataclass(frozen=True)
class Quiet:
    """A game whose last look found nothing to do: it needs none until `wake` or until its folders change.

    `marks` are the modification times of the folders every change to a game goes through (new
    turns, orders, decision files and game.yaml are all renamed into them); `wake` is the next
    reminder or deadline, if any.
    """

    folders: tuple[str, ...]
    marks: tuple[int | None, ...]
    wake: datetime.datetime | None


@dataclass
class JudgedGame:
    """A game this judge runs: the served game, the judge's memory of it, and the referee key."""

    served: Served
    state: JudgeState
    key: SigningKey
    quiet: Quiet | None = None

    @property
    def id(self) -> str:
        return self.served.game.id


@dataclass
class RoundReport:
    mails: int = 0
    sent: int = 0
    adjudicated: list[str] = field(default_factory=list)


class Judge:
    def __init__(self, game_dirs: Sequence[Path | str], inbox: Inbox, sender: Sender, *,
                 referee_key: Callable[[Path], SigningKey], address: str, referee_copy: str | None = None,
                 limits: Limits = DEFAULT, now: Callable[[], datetime.datetime] = utcnow,
                 log: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
                 poll_seconds: float = 60.0) -> None:
        if not game_dirs:
            raise PbemError("give at least one game directory")
        self.inbox, self.sender = inbox, sender
        self.address, self.referee_copy = address, referee_copy
        self.limits, self.now, self.log, self.poll_seconds = limits, now, log, poll_seconds
        self.domain = domain_of(address)
        self.games: list[JudgedGame] = []
        for game_dir in game_dirs:
            root = Path(game_dir)
            game = load_game(root)
            missing = [entry["side"] for entry in game.doc["sides"] if not entry.get("address")]
            if missing:
                raise PbemError(f"{root}: game.yaml registers no address for {', '.join(missing)}; the judge "
                                "mails each side at the address its game file gives (sides[].address)")
            schedule(game.settings())  # a bad deadline is an error now, not at the deadline
            self.games.append(JudgedGame(Served(root, game), JudgeState(root), referee_key(root)))
        ids = [g.id for g in self.games]
        if len(set(ids)) != len(ids):
            raise PbemError("the same game was given twice")
        self.home = self.games[0]
        self.waiting = False  # True only while `run` waits for mail: the one time a stop may interrupt it
        self.failures = 0  # adjudications that failed
        self.intake = MailIntake([g.served for g in self.games], self.home.served.root, limits.max_files, now)

    # --- running -------------------------------------------------------------------------------------
    def run(self, *, once: bool = False, max_rounds: int | None = None,
            stop: Callable[[], bool] = lambda: False) -> None:
        claims = contextlib.ExitStack()
        try:
            for game in self.games:
                claims.enter_context(judge_lock(game.served.root))
            clean_work(self.home.served.root)
            for game in self.games:
                self._baseline(game)
            rounds = 0
            while True:
                try:
                    self.round()
                except (PbemError, OSError, imaplib.IMAP4.error) as error:
                    if once:
                        raise
                    # The server went away, a disk was full...: nothing was recorded that did not happen.
                    self.log(f"round failed ({error}); trying again in {self.poll_seconds:g} s")
                    self.inbox.close()
                    self.sender.close()
                    if self._idle(stop, lambda: time.sleep(self.poll_seconds)):
                        break
                rounds += 1
                if once or stop() or (max_rounds is not None and rounds >= max_rounds):
                    break
                seconds = self._sleep()
                if self._idle(stop, lambda: self.inbox.wait(seconds)):
                    break
        finally:
            claims.close()
            self.inbox.close()
            self.sender.close()

    def _idle(self, stop: Callable[[], bool], pause: Callable[[], None]) -> bool:
        """Pause with `waiting` set (a signal handler may interrupt only then); True: stop now.

        A round is never interrupted: a stop that comes while it runs is seen here, after the round
        has recorded and sent everything it queued. `stop()` is asked again once `waiting` is set,
        so a stop that came just before is not slept through.
        """
        self.waiting = True
        try:
            if stop():
                return True
            pause()
        finally:
            self.waiting = False
        return stop()

    def round(self) -> RoundReport:
        report = RoundReport()
        for item in list(self.inbox.pending()):
            self._mail(item)
            report.mails += 1
        for game in self.games:
            if self._still_quiet(game):
                continue
            report.adjudicated += self._look(game)
        report.sent = self.flush()
        return report

    def _look(self, game: JudgedGame) -> list[str]:
        """`_tick` the game; if it did nothing at all, remember it as quiet (what it saw, when to wake)."""
        folders = _folders(game.served.root, current_position(game.served.game).next_seq)
        marks = _folder_marks(folders)
        changes, failures = game.state.changes, self.failures
        game.quiet = None
        done = self._tick(game)
        if not done and game.state.changes == changes and self.failures == failures and marks is not None:
            game.quiet = Quiet(folders, marks, self._wake(game))
        return done

    def _still_quiet(self, game: JudgedGame) -> bool:
        quiet = game.quiet
        if quiet is None or (quiet.wake is not None and self.now() >= quiet.wake):
            return False
        return _folder_marks(quiet.folders) == quiet.marks

    def _arrival(self, item: Incoming) -> datetime.datetime:
        """When the mail came: the mailbox's word for it, never later than the judge's own clock.

        Orders that arrive before a deadline count even when the judge reads them after it."""
        now = self.now()
        return min(item.arrived, now) if item.arrived is not None else now

    def _sleep(self) -> float:
        """Seconds until the next reminder or deadline, at most the poll interval."""
        wait = self.poll_seconds
        now = self.now()
        for game in self.games:
            wake = game.quiet.wake if game.quiet is not None else self._wake(game)
            if wake is not None:
                wait = min(wait, (wake - now).total_seconds() + 0.5)
        return max(wait, 0.5)

    def _wake(self, game: JudgedGame) -> datetime.datetime | None:
        """The game's next reminder or deadline still to come, if any."""
        plan = schedule(game.served.game.settings())
        position = current_position(game.served.game)
        opened = game.state.opened(position.next_seq)
        if plan is None or opened is None or position.over():
            return None
        now = self.now()
        starts = [opened] + [moment for index, _ in ArchiveView(game.served.root).decision_requests(position.next_seq)
                             if (moment := game.state.request_opened(position.next_seq, index)) is not None]
        coming = [when for start in starts for when in (plan.remind_at(start), plan.due_at(start)) if when > now]
        return min(coming, default=None)

    # --- one mail ------------------------------------------------------------------------------------
    def _mail(self, item: Incoming) -> None:
        if item.size > self.limits.max_message_bytes:
            mail = parse_headers_only(item.load(self.limits.max_header_bytes), item.size)
            mail.fatal = (f"the mail is {item.size:,} bytes; the judge reads mails of at most "
                          f"{self.limits.max_message_bytes:,} bytes (orders files are a few kilobytes: attach "
                          "them alone, or paste the armored block into the text)")
        else:
            mail = parse(item.load(self.limits.max_message_bytes), self.limits)
        mid = mail.message_id
        for game in self.games:
            known = game.state.handled(mid)
            if known is not None:
                # Delivered twice, or a stop came between recording it and filing it: file it, answer nothing.
                folder = {"answered": PROCESSED, "failed": FAILED}.get(known["outcome"], IGNORED)
                self.log(f"{mid}: already handled ({known['outcome']}); filed without a new answer")
                self.inbox.file(item, folder, known.get("note") if folder == FAILED else None)
                return
        silent = why_silent(mail, (self.address,))
        if silent is not None:
            self.home.state.record(mid, "ignored", silent, [], self.now())
            self.home.state.save()
            self.inbox.file(item, IGNORED, silent)
            self.log(f"{mid}: not answered: {silent}")
            return
        try:
            if mail.fatal:
                handled, reason = False, mail.fatal
                own = self.intake._own_side(mail.sender)
                answers = [Answer(mail.sender, own[0] if own else None, own[1] if own else None, [mail.fatal])]
                touched: list[Served] = []
            else:
                outcome = self.intake.handle(mail, self._arrival(item))
                handled, reason, answers, touched = outcome.handled, outcome.reason, outcome.answers, outcome.touched
        except ArchiveError:
            raise  # the game is locked by another command, or damaged: the mail stays in the inbox for later
        except Exception as error:  # a bug must not stop the judge or lose the mail
            handled, reason = False, f"the judge could not handle this mail ({type(error).__name__}: {error})"
            answers = [Answer(mail.sender, None, None, [reason + "; the referee has been told"])]
            touched = []
            self.log(f"{mid}: internal error: {error!r}")
        sent_ids = self._queue_answers(mail, answers)
        outcome_name = "answered" if handled else "failed"
        recorders = [g for g in self.games if g.served in touched] or [self.home]
        for game in recorders:
            game.state.record(mid, outcome_name, reason, sent_ids, self.now())
            game.state.save()
        self.inbox.file(item, PROCESSED if handled else FAILED, None if handled else reason)
        self.log(f"{mid} from {mail.sender or '?'}: {outcome_name}, {len(sent_ids)} answer(s)")

    def _queue_answers(self, mail: ParsedMail, answers: Sequence[Answer]) -> list[str]:
        ids = []
        day = self.now().strftime("%Y-%m-%d")
        for answer in answers:
            game = next((g for g in self.games if g.served is answer.served), self.home)
            if not answer.to:
                continue
            if not answer.accepted:
                count = game.state.count_reply(answer.to, day)
                if count > self.limits.max_replies_per_address_per_day:
                    self.log(f"{answer.to}: {count - 1} answers today without a file accepted; staying silent "
                             "(mail loop?)")
                    continue
            subject = mail.subject if mail.subject.lower().startswith("re:") else f"Re: {mail.subject or 'your mail'}"
            body = (f"The pbem judge{' for game ' + game.id if answer.served else ''} read your mail "
                    f"{mail.message_id}.\n\n" + "\n\n".join(answer.lines) + "\n\n-- \nThe pbem judge "
                    f"<{self.address}>. This answer was sent automatically.\n")
            outgoing = compose(sender=self.address, to=[answer.to], subject=subject, body=body,
                               message_id=make_id("answer", mail.message_id, answer.to.lower(), domain=self.domain),
                               game=game.id, in_reply_to=mail.message_id, references=mail.references, now=self.now(),
                               attachments=[Part(name, data, "application/yaml" if name.endswith(".yaml")
                                                 else "application/octet-stream") for name, data in answer.files])
            game.state.queue(outgoing)
            ids.append(outgoing.message_id)
        return ids

    # --- one game ------------------------------------------------------------------------------------
    def _baseline(self, game: JudgedGame) -> None:
        """A judge taking over a game mid-way does not re-send what the referee sent before."""
        if not game.state.fresh:
            return
        archive = ArchiveView(game.served.root)
        for seq in archive.turn_seqs():
            game.state.announce(f"turn-{seq}")
        position = current_position(game.served.game)
        for index, _ in archive.decision_requests(position.next_seq):
            game.state.announce(f"request-{position.next_seq}-{index}")
        if archive.turn_seqs() or archive.orders_files(1):
            game.state.announce("welcome")
        game.state.save()

    def _tick(self, game: JudgedGame) -> list[str]:
        done: list[str] = []
        for _ in range(MAX_STEPS_PER_TICK):
            self._announce(game)
            position = current_position(game.served.game)
            if position.over():
                break
            seq = position.next_seq
            if game.state.opened(seq) is None:
                game.state.open(seq, self._phase_start(game, seq))
                game.state.save()
            step = self._step(game, seq)
            if step is None:
                break
            done.append(step)
        return done

    def _step(self, game: JudgedGame, seq: int) -> str | None:
        """Adjudicate if due; else send what reminders are due. The adjudication's message, or None."""
        served = game.served
        archive = ArchiveView(served.root)
        position = current_position(served.game)
        pending = decisions(served.game, seq)
        unanswered = [d for d in pending.values() if d.reply_rel is None]
        have = {side for side, _, _ in archive.orders_files(seq)}
        missing = [side for side in position.awaiting() if side not in have]
        plan = schedule(served.game.settings())
        opened = game.state.opened(seq) or self.now()
        now = self.now()
        lapse = False
        if unanswered:
            if plan is None:
                return None
            for record in unanswered:  # a request out before this judge took over
                if game.state.request_opened(seq, record.index) is None:
                    game.state.open_request(seq, record.index, self._request_start(game, record.request_rel))
                    game.state.save()
            asked = {record.index: game.state.request_opened(seq, record.index) or now for record in unanswered}
            if not any(now >= plan.due_at(asked[record.index]) for record in unanswered):
                for record in unanswered:
                    if now >= plan.remind_at(asked[record.index]):
                        name = _request_name(game.id, seq, record.index)
                        self._remind(game, seq, record.side, f"the answer to decision request {record.index}",
                                     f"remind-{seq}-decision-{record.index}", plan, asked[record.index],
                                     self._signed_pair(served.root, record.request_rel, name))
                return None
            lapse = True  # the deadline passed: the rules' default answers (core/lapse.py)
        forced = False
        if missing and not pending:
            if plan is None or now < plan.due_at(opened):
                if plan and now >= plan.remind_at(opened):
                    for side in missing:
                        self._remind(game, seq, side, "orders", f"remind-{seq}", plan, opened)
                return None
            forced = True
            game.state.force(seq, now, missing)
            game.state.save()
        try:
            report = adjudicate(served.root, game.key, missing_none=forced, lapse=lapse, now=self.now)
        except PbemError as error:
            self.log(f"{game.id}: adjudication {seq} failed: {error}")
            self.failures += 1  # (tried again next round, as if the game had changed)
            return None
        for warning in report.warnings:
            self.log(f"{game.id}: warning: {warning}")
        note = f" (deadline passed; no orders from {', '.join(missing)})" if forced else ""
        if lapse:
            note += (f" (deadline passed; decision {', '.join(str(r.index) for r in unanswered)} took the rules' "
                     "default)")
        self.log(f"{game.id}: {report.message}{note}")
        return report.message + note

    # --- announcements -------------------------------------------------------------------------------
    def _announce(self, game: JudgedGame) -> None:
        served = game.served
        archive = ArchiveView(served.root)
        changed = False
        if not game.state.announced("welcome"):
            for side in served.game.sides:
                self._queue(game, self._welcome(game, side))
            game.state.announce("welcome")
            changed = True
        for seq in archive.turn_seqs():
            key = f"turn-{seq}"
            if game.state.announced(key):
                continue
            for side in served.game.sides:
                self._queue(game, self._results(game, seq, side))
            if self.referee_copy:
                self._queue(game, self._master_copy(game, seq))
            game.state.announce(key)
            changed = True
        position = current_position(served.game)
        for index, rel in archive.decision_requests(position.next_seq):
            key = f"request-{position.next_seq}-{index}"
            if game.state.announced(key):
                continue
            game.state.open_request(position.next_seq, index, self._request_start(game, rel))
            self._queue(game, self._request(game, position.next_seq, index, rel))
            game.state.announce(key)
            changed = True
        if changed:
            game.state.save()

    def _queue(self, game: JudgedGame, mail: Outgoing | None) -> None:
        if mail is not None:
            game.state.queue(mail)

    def _phase_start(self, game: JudgedGame, seq: int) -> datetime.datetime:
        """When the orders clock of `seq` started.

        Views of protocol version 2 carry the phase's deadline, signed (view 0 gets it from `pbem
        new`, later views from the adjudication before them), and the core refuses files that come
        after it: the judge holds the same deadline, so its clock starts where that one counts from.
        Without a signed deadline (older archives), the clock starts when the judge first sees the
        phase open.
        """
        recorded = game.state.opened(seq)
        if recorded is not None:
            return recorded
        position = current_position(game.served.game)
        signed = position.deadline if position.next_seq == seq else None
        return _counted_from(signed, schedule(game.served.game.settings())) or self.now()

    def _request_start(self, game: JudgedGame, rel: str) -> datetime.datetime:
        """When a decision request's clock started: where its signed deadline counts from, else now."""
        request = yamlio.load_bytes(ArchiveView(game.served.root).read(rel), rel).data
        return _counted_from(request.get("deadline"), schedule(game.served.game.settings())) or self.now()

    def _deadline_line(self, game: JudgedGame, seq: int) -> str:
        plan = schedule(game.served.game.settings())
        if plan is None:
            return "There is no deadline: the judge adjudicates as soon as every side's orders are in."
        start = self._phase_start(game, seq)
        return (f"Deadline: {iso(plan.due_at(start))} (UTC). Sides whose orders are not in by then are "
                "adjudicated with no orders (the turn file records them as missing).")

    def _signed_pair(self, root: Path, rel: str, name: str) -> list[Part]:
        data, signature = ArchiveView(root).read_signed(rel)
        return [Part(name, data, "application/yaml"), Part(name + ".sig", signature, "application/octet-stream")]

    def _mail_to(self, game: JudgedGame, side: str, subject: str, body: str, parts: list[Part], *ident: str) -> Outgoing:
        to = game.served.addresses[side]
        return compose(sender=self.address, to=[to], subject=f"[{game.id}] {subject}", body=body,
                       message_id=make_id(game.id, *ident, side, domain=self.domain), game=game.id,
                       attachments=parts, now=self.now())

    def _welcome(self, game: JudgedGame, side: str) -> Outgoing:
        served = game.served
        name = f"{game.id}-0000-{side}.yaml"
        parts = [Part("game.yaml", served.game.data, "application/yaml"),
                 Part("game.yaml.sig", ArchiveView(served.root).read("game.yaml.sig"))]
        parts += self._signed_pair(served.root, view_rel(0, side), name)
        view = yamlio.load_bytes(ArchiveView(served.root).read(view_rel(0, side)), name).data
        body = (f"Welcome to game {game.id} ({served.game.doc['ruleset']['id']}). You play {side}.\n\n"
                f"The referee's key (it signs game.yaml, every view and every decision request):\n"
                f"    {served.game.referee_key}\n"
                f"Your starting view is {name}; {next_line(view['next'])}.\n"
                f"{self._deadline_line(game, 1)}\n\n" + _how_to(game.id, name))
        return self._mail_to(game, side, f"game {game.id}: you play {side}", body, parts, "welcome")

    def _results(self, game: JudgedGame, seq: int, side: str) -> Outgoing:
        served = game.served
        name = f"{game.id}-{seq_dir(seq)}-{side}.yaml"
        rel = view_rel(seq, side)
        view = yamlio.load_bytes(ArchiveView(served.root).read(rel), rel).data
        report = text_report(view)
        parts = self._signed_pair(served.root, rel, name)
        parts.append(Part(f"{game.id}-{seq_dir(seq)}-{side}-report.txt", report.encode("utf-8"), "text/plain"))
        picture = map_picture(view, f"{game.id}-{seq_dir(seq)}-{side}-map")
        if picture is not None:
            parts.append(picture)
        over = "result" in view["next"]
        forced = game.state.data["forced"].get(str(seq))
        lines = [f"Adjudication {seq} of game {game.id} is done ({', '.join(view['phases']) or 'no phase'})."]
        if forced:
            lines.append(f"The deadline passed with no orders from {', '.join(forced['missing'])}: they were "
                         "adjudicated as giving none (recorded as missing in the turn file).")
        lines.append(f"Your view: {name}, signed by the referee ({name}.sig); check it with "
                     f"pbem verify-view {name} --game game.yaml.")
        awaited = not over and side in view["next"].get("awaiting", [])
        if awaited:
            lines.append(f"Your orders for seq {seq + 1} are awaited. {self._deadline_line(game, seq + 1)}")
        elif not over:
            lines.append("You give no orders in the next phase (awaited from "
                         f"{', '.join(view['next'].get('awaiting', []))}).")
        body = "\n".join(lines) + "\n\n" + report + ("\n" + _how_to(game.id, name) if awaited else "")
        subject = f"adjudication {seq}: " + ("game over" if over else f"next: {view['next'].get('phase')}")
        return self._mail_to(game, side, subject, body, parts, "turn", str(seq))

    def _master_copy(self, game: JudgedGame, seq: int) -> Outgoing:
        served = game.served
        parts = self._signed_pair(served.root, turn_rel(seq), f"{game.id}-{seq_dir(seq)}-turn.yaml")
        assert self.referee_copy is not None
        return compose(sender=self.address, to=[self.referee_copy], subject=f"[{game.id}] master turn {seq}",
                       body=f"The master turn file of adjudication {seq} (it holds every hidden fact: keep it "
                            "to yourself).\n", message_id=make_id(game.id, "master", str(seq), domain=self.domain),
                       game=game.id, attachments=parts, now=self.now())

    def _request(self, game: JudgedGame, seq: int, index: int, rel: str) -> Outgoing:
        served = game.served
        data = ArchiveView(served.root).read(rel)
        request = yamlio.load_bytes(data, rel).data
        side = request["side"]
        name = _request_name(game.id, seq, index)
        parts = self._signed_pair(served.root, rel, name)
        # (the request's own first line names its topic and cites its section, a page of ours or a rule)
        body = (f"Adjudication {seq} of game {game.id} needs a decision from {side}:\n\n"
                + _indent(request_text(request, served.game.ruleset)) +
                f"\nAnswer with a signed decision reply naming this request's hash ({file_hash(data)}):\n"
                f"    pbem decide {name} --answer NUMBER --key YOUR_KEY\n"
                "and mail the reply and its .sig back (or its armored form in the text). A reply written by hand\n"
                "holds the option itself, as it stands after its number.\n")
        plan = schedule(served.game.settings())
        asked = game.state.request_opened(seq, index)
        if plan is not None and asked is not None:
            body += (f"\nDeadline: {iso(plan.due_at(asked))} (UTC). If no answer has come by then, the first "
                     f"option, {show_value(request['options'][0])}, applies: the rules' default.\n")
        return self._mail_to(game, side, f"adjudication {seq}: your decision is needed", body, parts,
                             "request", str(seq), str(index))

    def _remind(self, game: JudgedGame, seq: int, side: str, what: str, key: str, plan: Schedule,
                opened: datetime.datetime, parts: Sequence[Part] = ()) -> None:
        if side in game.state.reminded(key):
            return
        body = (f"Reminder: {what} for adjudication {seq} of game {game.id} from {side} have not arrived.\n"
                f"The deadline is {iso(plan.due_at(opened))} (UTC).\n")
        if what == "orders":
            body = body.replace("have not arrived", "have not arrived yet") + (
                "At the deadline the judge adjudicates without them (no orders, recorded as missing).\n")
        else:
            body = body.replace("have not arrived", "has not arrived yet") + (
                "At the deadline the request's first option applies (the rules' default), recorded in a signed "
                "lapse file.\n")
        if parts:
            name = parts[0].name
            body += (f"\nThe request is attached again as {name}, with the referee's signature ({name}.sig). "
                     f"Answer it with\n    pbem decide {name} --answer NUMBER --key YOUR_KEY\n"
                     "and mail the reply and its .sig back (or its armored form in the text).\n")
        self._queue(game, self._mail_to(game, side, f"reminder: {what} for adjudication {seq}", body, list(parts), key))
        game.state.remind(key, side)
        game.state.save()
        self.log(f"{game.id}: reminded {side} ({what}, seq {seq})")

    # --- sending -------------------------------------------------------------------------------------
    def flush(self) -> int:
        sent = 0
        for game in self.games:
            for item in game.state.queued():
                if game.state.was_sent(item.message_id):
                    game.state.mark_sent(item, self.now())
                    continue
                try:
                    warning = self.sender.send(item, self.address)
                except PermanentSendError as error:
                    self.log(f"{item.message_id}: cannot be delivered: {error}")
                    game.state.mark_sent(item, self.now())
                    continue
                except PbemError as error:
                    self.log(f"{item.message_id}: not sent yet ({error}); will retry")
                    return sent
                if warning:
                    self.log(warning)
                game.state.mark_sent(item, self.now())
                sent += 1
        return sent


# A folder changed this recently may change again within the same tick of a coarse file-system
# clock (a second on some): its time cannot tell the two states apart, so the game is looked at again.
_SETTLED_NS = 2_000_000_000


def _folders(root: Path, seq: int) -> tuple[str, ...]:
    """The folders every change to a game waiting for adjudication `seq` goes through."""
    return tuple(str(folder) for folder in (root, root / "turns", root / "orders", root / "orders" / seq_dir(seq),
                                            root / "decisions", root / "decisions" / seq_dir(seq)))


def _folder_marks(folders: tuple[str, ...]) -> tuple[int | None, ...] | None:
    """Modification times of `folders` (None for one that is not there); None if one is too recent."""
    marks: list[int | None] = []
    now = time.time_ns()
    for folder in folders:
        try:
            changed = os.stat(folder).st_mtime_ns
        except FileNotFoundError:
            marks.append(None)
            continue
        if now - changed < _SETTLED_NS:
            return None
        marks.append(changed)
    return tuple(marks)


def _counted_from(deadline: object, plan: Schedule | None) -> datetime.datetime | None:
    """The moment a signed deadline counts from (the game's deadline before it), if there is one."""
    if plan is None or not isinstance(deadline, str):
        return None
    return parse_iso(deadline) - plan.deadline


def _request_name(game_id: str, seq: int, index: int) -> str:
    """The name a decision request is attached under (the player never sees the referee's folders)."""
    return f"{game_id}-{seq_dir(seq)}-request-{index:03d}.yaml"


def _indent(text: str) -> str:
    return "".join("    " + line + "\n" for line in text.splitlines())


def _how_to(game_id: str, view_name: str) -> str:
    return (f"To give orders: pbem orders {view_name} --game game.yaml --out orders.yaml (or write them\n"
            f"by hand), check them with pbem check {view_name} orders.yaml --game game.yaml, then\n"
            f"    ssh-keygen -Y sign -f YOUR_KEY -n pbem-orders@{game_id} orders.yaml\n"
            "and mail orders.yaml and orders.yaml.sig to the judge as attachments, or paste the armored form\n"
            "(pbem sign orders.yaml --key YOUR_KEY --armor) into the text of a mail. Mail 'status' as the\n"
            "subject for the game's public status.\n")
