"""What a player does with its files: orders templates, pre-checks, decision replies, and bots.

Everything here works from a side's own view file; nothing reads the master state.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, Sequence

from . import chance, options, yamlio
from .doccache import load_checked
from .errors import PbemError, Problem, citation
from .list_hints import TYPED_LIST, with_list_hint
from .orders import Expectation, orders_problems
from .ruleset import Ruleset, Rules, available, get as get_ruleset, rules_for

if TYPE_CHECKING:
    from . import signing
    from .clock import Clock
    from .ledger import Ledger


# A NamedTuple, not a dataclass: about 0.1 ms to create at import instead of 0.5 (every command pays it).
class ViewFile(NamedTuple):
    """A view as a player holds it: the document and the hash its next orders must ack."""

    doc: dict[str, Any]
    data: bytes
    path: str

    @property
    def ruleset(self) -> Ruleset[Any]:
        return get_ruleset(self.doc["ruleset"]["id"])

    @property
    def rules(self) -> Rules:
        """The ruleset bound to the setup this view carries."""
        return rules_for(self.ruleset, self.doc["state"])

    @property
    def ack(self) -> str:
        # Orders for seq 1 ack game.yaml (docs/protocol.md §4), which is what view 0 names as its master.
        return str(self.doc["master"]) if self.doc["seq"] == 0 else chance.file_hash(self.data)

    def superseded_in(self, ledgers: Sequence[Ledger]) -> Problem | None:
        """The one problem to tell when a ledger holds a later view of this side (`newer_view_problem`)."""
        return newer_view_problem(ledgers, self)

    @staticmethod
    def misplaced(view_path: Path | str, orders_path: Path | str, ledger_base: Path | str | None = None
                  ) -> Problem | None:
        """`pbem check VIEW ORDERS` given other files than a view then orders (`check_arguments_problem`)."""
        return check_arguments_problem(view_path, orders_path, ledger_base)

    @staticmethod
    def game_file_given(path: Path | str) -> Problem | None:
        """`pbem verify-view` given the game file as a view (`game_file_as_view_problem`)."""
        return game_file_as_view_problem(path)

    def expectation(self) -> Expectation:
        next_ = self.doc["next"]
        if "result" in next_:
            raise PbemError(Problem("the game is over: there are no more orders to give", file=self.path))
        return Expectation(self.doc["game"], self.doc["seq"] + 1, self.doc["side"], next_["phase"], self.ack,
                           tuple(next_["awaiting"]))


def read_view(path: Path | str) -> ViewFile:
    data = yamlio.read_file(path)
    return ViewFile(load_checked(data, str(path), "view"), data, str(path))


def orders_document(view: ViewFile, orders: list[Any], standing: Mapping[str, Any] | None = None,
                    entropy: bytes | None = None, salt: bytes | None = None) -> dict[str, Any]:
    """The next orders file of this view's side; fresh entropy and salt unless given (bots pass their own)."""
    import secrets  # here: a pre-check of orders never needs it

    expect = view.expectation()
    doc: dict[str, Any] = {
        "pbem": view.doc["pbem"],
        "kind": "orders",
        "game": expect.game,
        "seq": expect.seq,
        "side": expect.side,
        "phase": expect.phase,
        "ack": expect.ack,
        "entropy": (entropy if entropy is not None else secrets.token_bytes(32)).hex(),
        # Every view publishes each side's entropy and order hash; the salt, published nowhere,
        # keeps the order hash from being matched against guessed orders.
        "salt": (salt if salt is not None else secrets.token_bytes(32)).hex(),
        "orders": orders,
    }
    if standing:
        doc["standing"] = dict(standing)
    return doc


def orders_template(view: ViewFile) -> str:
    """The next orders file with its envelope filled in and the legal order kinds as comments."""
    from . import signing  # here: a pre-check never needs signing (nor cryptography)

    expect = view.expectation()
    ruleset = view.ruleset
    lines = [f"# Orders of {expect.side} for seq {expect.seq}, phase {expect.phase!r} ({ruleset.title}).",
             "# Check with: pbem check VIEW.yaml THIS.yaml --game game.yaml   Sign with: ssh-keygen -Y sign -f KEY "
             f"-n {signing.namespace('orders', expect.game)} THIS.yaml"]
    deadline = view.doc["next"].get("deadline")
    if deadline is not None:
        lines.append(f"# Deadline: {deadline} (UTC): orders that arrive later do not count (docs/protocol.md §10).")
    if expect.side not in expect.awaiting:
        lines.append(f"# NOTE: {expect.side} gives no orders in this phase (awaiting: {', '.join(expect.awaiting)}); "
                     "send orders: [] with a standing: block only to change standing answers.")
    else:
        kinds = view.rules.order_template(view.doc["state"], expect.side)
        if kinds:
            lines.append(f"# What {expect.side} may order now:")
            lines += [f"#   {kind}" for kind in kinds]
    body = yamlio.dump(orders_document(view, []))
    return "\n".join(lines) + "\n" + body


def check_orders(view: ViewFile, orders_path: Path | str) -> list[Problem]:
    """The player's own pre-check: a passed orders deadline first (the referee's intake answers that
    first), then the schema and every rule the view lets it check."""
    late = late_orders_problem(view, orders_path)
    return ([late] if late is not None else []) + _orders_check(view, orders_path)


def _orders_check(view: ViewFile, orders_path: Path | str) -> list[Problem]:
    data = yamlio.read_file(orders_path)
    expect = view.expectation()
    try:
        quick = yamlio.load_plain(data)  # what the strict loader reads: no problem found this way is the answer
    except yamlio.NotPlain:
        quick = None
    if type(quick) is dict and not orders_problems(yamlio.Document(quick, str(orders_path)), view.rules, expect,
                                                   view.doc["state"]):
        return []
    # Problems are told with their line and column. A value YAML refuses as written (a number with a
    # leading zero, a float) is one problem among the others: read as its text for the rest of the check.
    doc, refused = yamlio.load_with_refusals(data, str(orders_path))
    at_refused = {problem.path for problem in refused}
    found = [_hinted(problem, doc.data) for problem in orders_problems(doc, view.rules, expect, view.doc["state"])]
    return refused + [problem for problem in found if problem.path not in at_refused]


def _hinted(problem: Problem, data: Any) -> Problem:
    """A list written as a string or a mapping: the schema's message with what to write instead."""
    if not problem.message.startswith(TYPED_LIST):
        return problem
    value = data
    for step in problem.path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return problem
    return problem.replaced(message=with_list_hint(problem.message, value, problem.path))


def option_names(request: Mapping[str, Any], ruleset: Ruleset[Any] | None = None) -> list[str | None]:
    """The name of each option of a request: the ruleset's names, or the generic ones without it."""
    return options.request_names(request, ruleset.option_name if ruleset is not None else None)


def request_text(request: Mapping[str, Any], ruleset: Ruleset[Any] | None = None) -> str:
    """A decision request as a player reads it: who is asked what, and every option with its number and name."""
    head = {key: request[key] for key in ("game", "seq", "side", "topic", "section", "deadline") if key in request}
    lines = [f"# decision {request.get('index', '?')} of seq {request.get('seq', '?')} for {request.get('side', '?')}"
             f": {request.get('topic', '?')} ({citation(str(request.get('section', '?')))})",
             yamlio.dump(head).rstrip("\n"),
             yamlio.dump({"question": request.get("question", {})}).rstrip("\n"),
             "# answer with the option's number, its name (after #), or the option itself:",
             "options:"]
    lines += [f"  {line}" for line in options.lines(request["options"], option_names(request, ruleset))]
    return "\n".join(lines) + "\n"


def answer_from_text(request: Mapping[str, Any], text: str, ruleset: Ruleset[Any] | None = None) -> Any:
    """The option a typed answer means: its number, its name, or the option itself in YAML."""
    named = option_names(request, ruleset)

    def parse(typed: str) -> Any:
        try:
            return parse_answer(typed)
        except PbemError:
            return typed  # not YAML pbem reads: it can still be a name; if not, the refusal below says so

    found, option = options.from_text(text, request["options"], named, parse)
    if not found and ruleset is None:
        found, option = _by_some_games_names(request, text, parse)
    if not found:
        raise PbemError(Problem(f"answer {text.strip()!s} is not one of the options: give an option's number, its "
                                "name or the option itself", section=request["section"],
                                legal=options.summary(request["options"], named)))
    return option


def _by_some_games_names(request: Mapping[str, Any], text: str, parse: Any) -> tuple[bool, Any]:
    """With the game unknown: the option a name means in the games that know it, if they all mean the same."""
    meant: list[Any] = []
    for ruleset_id in available():
        try:
            named = option_names(request, get_ruleset(ruleset_id))
        except PbemError:
            continue
        found, option = options.from_text(text, request["options"], named, parse)
        if found and not any(options.same_plain(option, other) for other in meant):
            meant.append(option)
    return (True, meant[0]) if len(meant) == 1 else (False, None)


def reply_document(request: Mapping[str, Any], request_data: bytes, answer: Any,
                   ruleset: Ruleset[Any] | None = None) -> dict[str, Any]:
    """The signed reply's document. `answer` may be an option, its name or its number; the reply holds the option."""
    named = option_names(request, ruleset)
    found, option = options.choose(answer, request["options"], named)
    if not found:
        raise PbemError(Problem(f"answer {options.show(answer)} is not one of the options", section=request["section"],
                                legal=options.summary(request["options"], named)))
    return {
        "pbem": request["pbem"],
        "kind": "decision-reply",
        "game": request["game"],
        "seq": request["seq"],
        "side": request["side"],
        "request": chance.file_hash(request_data),
        "answer": option,
    }


def parse_answer(text: str) -> Any:
    """An answer given on the command line, read as strict YAML (so `3` is 3 and `stand` is "stand")."""
    return yamlio.load_bytes(text.encode("utf-8"), "--answer").data


def bot_seed(label: str, *parts: bytes) -> bytes:
    """A bot's private randomness: from its own inputs, never from the referee's dice."""
    return hashlib.sha256(chance.enc(label, *parts)).digest()


def bot_orders_file(game_dir: Path, side: str, key: signing.SigningKey, out: Path | None = None,
                    standing: Mapping[str, Any] | None = None) -> Path:
    """The ruleset's bot plays `side` from its latest view in `game_dir`: writes and signs the orders.

    The bot's randomness (orders, entropy, salt) comes from the side's private key and the view,
    so it is reproducible yet unknown to the other sides.
    """
    from . import signing
    from .archive import Archive, view_rel

    view = read_view(game_dir / view_rel(Archive(game_dir).latest_seq(), side))
    secret = key.private.private_bytes_raw()
    orders = view.rules.bot_orders(view.doc["state"], side, bot_seed("pbem/bot/orders", secret, view.data))
    doc = orders_document(view, orders, standing, entropy=bot_seed("pbem/bot/entropy", secret, view.data),
                          salt=bot_seed("pbem/bot/salt", secret, view.data))
    data = yamlio.dump(doc).encode("utf-8")
    path = out or game_dir.parent / f"{side}-orders-{doc['seq']:04d}.yaml"
    path.write_bytes(data)
    path.with_name(path.name + ".sig").write_text(signing.sign(data, key, signing.namespace("orders", doc["game"])),
                                                  encoding="utf-8")
    return path


# --- the ledger's guard against a rewound turn (docs/protocol.md §4a, docs/ledger.md) -----------------


def refuse_rewound(ledger: Ledger, side: str, seq: int, ack: str, built_on: str, on_a_view: bool = True) -> None:
    """Refuse orders for `seq` acking `ack` when the ledger holds `side`'s view `seq` or later.

    The usual cause is a player who picked an older view file than the newest one received; the
    rarer one a referee asking for orders of an adjudication it already made (a rewound turn, whose
    two views of one seq are a signed proof). `built_on` is the view (`on_a_view`) or the orders file.
    """
    later = [held for held in ledger.views(side) if held.seq >= seq]
    if not later:
        return
    newest = max(later, key=lambda held: held.seq)
    acked = ledger.find(ack)
    what = f"view {seq - 1} of {side}"  # view 0 acks game.yaml, whose hash is what such orders name
    if acked is not None and acked.kind == "view":
        what = f"view {acked.seq} of {side}"
    latest = f"view {newest.seq} is, at {newest.path}"
    first = (f"this is not your latest view ({latest})" if on_a_view
             else f"these orders are built on {what}, which is not your latest view ({latest})")
    raise PbemError(Problem(
        f"{first}: build your orders on it. Refusing orders for seq {seq} built on {what} ({ack}): your ledger "
        f"holds {side}'s view {newest.seq} ({newest.hash}), so seq {seq} was adjudicated already. Only if the "
        f"referee really asked you for orders for seq {seq} again has it rewound the turn: then keep both views "
        f"(pbem verify-view reports them as a signed proof)", file=built_on, section="docs/protocol.md §4a",
        legal=f"orders for seq {newest.seq + 1}, built on view {newest.seq} of {side}"))


def newer_view_problem(ledgers: Sequence[Ledger], view: ViewFile) -> Problem | None:
    """`view` checked while a ledger holds a later view of its side: that is the one cause to tell, and the view to use.

    Checked against a superseded view, orders would draw advice (an old seq, phase and ack) that
    makes them wrong for the turn the game actually awaits.
    """
    side, seq = str(view.doc["side"]), int(view.doc["seq"])
    later = [held for ledger in ledgers for held in ledger.views(side) if held.seq > seq]
    if not later:
        return None
    newest = max(later, key=lambda held: held.seq)
    return Problem(f"{view.path} is not your latest view: your ledger holds view {newest.seq} of {side} "
                   f"({newest.path}); check against that one", section="docs/protocol.md §4a",
                   legal=f"pbem check {newest.path} ORDERS")


# --- the orders deadline as `pbem check` sees it (docs/protocol.md §4a, §10) ------------------------------


def late_orders_problem(view: ViewFile, orders_path: Path | str, now: Clock | None = None) -> Problem | None:
    """Orders checked after the deadline the view announces for them: the referee's intake will refuse them as late.

    `now` is pbem's clock (`clock.system_clock`, which honours PBEM_NOW) unless given.
    """
    next_ = view.doc["next"]
    deadline = next_.get("deadline")
    if deadline is None or "result" in next_:
        return None
    from . import clock  # here: only a game with deadlines reads the clock

    moment = clock.utc_text((now or clock.system_clock)())
    if not clock.later_than(moment, str(deadline)):
        return None  # the deadline second itself is still on time (docs/protocol.md §10)
    seq = int(view.doc["seq"]) + 1
    message = (f"the orders deadline {deadline} for seq {seq} has passed (it is now {moment}): the referee's intake "
               "refuses orders that arrive after it as late, so these cannot count")
    legal = (f"no new orders for seq {seq} (orders the referee received before the deadline still count); your "
             f"next orders go on the view the referee sends once seq {seq} is adjudicated")
    try:
        doc = yamlio.load_bytes(yamlio.read_file(orders_path), str(orders_path))
    except PbemError:
        return Problem(message, file=str(orders_path), section="docs/protocol.md §4a", legal=legal)
    path = ("seq",) if isinstance(doc.data, dict) and "seq" in doc.data else ()
    return doc.problem(message, path, section="docs/protocol.md §4a", legal=legal)


# --- which file is which: `pbem check VIEW ORDERS` given its files in another order -----------------------


def _kind_of(path: Path | str) -> tuple[yamlio.Document, str] | None:
    """A file's document and its `kind:`, when it reads as a mapping with a kind (else None: the checks say why)."""
    try:
        doc = yamlio.load_bytes(yamlio.read_file(path), str(path))
    except PbemError:
        return None
    kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
    return (doc, kind) if isinstance(kind, str) else None


def _a_kind(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def check_arguments_problem(view_path: Path | str, orders_path: Path | str,
                            ledger_base: Path | str | None = None) -> Problem | None:
    """The one cause when `pbem check`'s files are not a view then orders (swapped, or game.yaml for the view)."""
    view_name, orders_name = Path(view_path).name, Path(orders_path).name
    given, meant = _kind_of(view_path), _kind_of(orders_path)
    if given is not None and given[1] != "view":
        doc, kind = given
        if kind == "game":
            orders = meant[0].data if meant is not None and meant[1] == "orders" else {}
            side, seq = orders.get("side"), orders.get("seq")
            side = side if isinstance(side, str) else "<side>"
            seq = seq if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1 else 1
            latest = _latest_held_view(view_path, doc, side, ledger_base)
            if latest is not None:
                which = f"your latest view, {latest} (your ledger's copy)"
                view = latest
            else:
                from .archive import view_rel  # the error path only

                view = view_rel(seq - 1, side)  # where the referee writes view seq-1, the one orders for seq build on
                which = (f"{view} (the view 0 the referee sent you)" if seq == 1
                         else f"view {seq - 1} of {side} ({view} as the referee sent it)")
            return doc.problem(f"{view_name} is the game file; for your orders for seq {seq} check against {which}, "
                               f"and give {view_name} as --game", ("kind",),
                               section="docs/cli.md", legal=f"pbem check {view} {orders_name} --game {view_name}")
        swapped = meant is not None and meant[1] == "view"
        return doc.problem(f"the first argument must be your view (kind: view); {view_name} is {_a_kind(kind)} file"
                           + (": give the view first, then the orders" if swapped else ""), ("kind",),
                           section="docs/cli.md",
                           legal=f"pbem check {orders_path} {view_path}" if swapped else "pbem check VIEW ORDERS")
    if meant is not None and meant[1] != "orders":
        doc, kind = meant
        return doc.problem(f"the second argument must be your orders file (kind: orders); {orders_name} is "
                           f"{_a_kind(kind)} file: give the view first, then the orders", ("kind",),
                           section="docs/cli.md", legal=f"pbem check {view_path} ORDERS")
    return None


def _latest_held_view(game_path: Path | str, game_doc: yamlio.Document, side: str,
                      ledger_base: Path | str | None) -> str | None:
    """The newest view of `side` in the player's ledger of exactly this game file, if it holds one."""
    from .ledger import ledgers_holding

    game_id = game_doc.data.get("game")
    if not isinstance(game_id, str):
        return None
    try:
        ledgers = ledgers_holding(game_id, chance.file_hash(yamlio.read_file(game_path)), ledger_base)
        views = [held for ledger in ledgers for held in ledger.views(side)]
    except (PbemError, OSError):
        return None  # no ledger to read: the seq of the orders says which view
    return str(max(views, key=lambda held: held.seq).path) if views else None


def game_file_as_view_problem(path: Path | str) -> Problem | None:
    """The one cause when a command that takes views (`pbem verify-view`) is given the game file instead."""
    import re  # the check reads the file's top-level `kind:` only when it says game

    try:
        data = yamlio.read_file(path)
    except (PbemError, OSError):
        return None  # the command itself says why it cannot read it
    if not re.search(rb"^kind:[ \t]*['\"]?game['\"]?[ \t]*(#.*)?$", data, re.MULTILINE):
        return None
    given = _kind_of(path)
    if given is None or given[1] != "game":
        return None
    name = Path(path).name
    return given[0].problem(f"{name} is the game file, not a view: give your view files (views/0000/<side>.yaml, "
                            f"turns/NNNN/<side>.yaml as the referee sent them), and {name} as --game", ("kind",),
                            section="docs/cli.md", legal=f"pbem verify-view VIEW... --game {path}")


def refuse_rewound_in(ledgers: Sequence[Ledger], side: str, seq: int, ack: str, built_on: str,
                      on_a_view: bool = True) -> None:
    for ledger in ledgers:
        refuse_rewound(ledger, side, seq, ack, built_on, on_a_view)
