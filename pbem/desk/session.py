"""What the desk's page asks for, answered from the player's own files: one class per kind of file opened.

`OrdersDesk` works from a view: the map, the report, the order kinds, the picks and notes while an
order is built, the check (`pbem check`'s own), the save (the file `pbem orders` would start and
the bot would write, envelope filled) with its signature, and the armored block. `DecisionDesk`
works from a decision request: its question, its options, and the signed reply (`pbem decide`'s).
Nothing here reads anything but the file opened, the game.yaml given and the key given.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from pbem.core.api import (Game, Ledger, PbemError, Problem, SigningKey, UsageError, ViewFile, bot_seed,
                           check_from_referee, check_orders, check_schema, ledgers_holding, option_names,
                           orders_document, read_signed_file, read_view, refuse_rewound_in, reply_document,
                           request_text, show_value, signing, yamlio)

from . import hooks, standing as standing_rows

MAX_ORDERS = 400  # more than any phase of a shipped game takes (toc's schema: 300)
MAX_DEPTH = 4  # an order's deepest value: a table path, [[x, y], ...], is an order > list > point > number


def _owner_problem(key: SigningKey, game: Game | None, side: str, path: str) -> None:
    """Refuse a key that is not `side`'s in the game (when the game is known): the referee would refuse it."""
    if game is None:
        return
    if game.side_keys.get(side, "").split()[:2] != key.public_line.split()[:2]:
        raise UsageError(Problem(f"the key given is not {side}'s in game {game.id}: the referee would refuse "
                                 "what it signs", file=path, legal=f"{side}'s private key"))


def _keep(path: Path, game: Game | None, ledger: str | None) -> tuple[list[Ledger], list[str]]:
    """With the game known, keep the referee-signed file in the player's ledger (as `pbem orders` does):
    the ledgers to judge a rewound turn by, and what the file contradicts there."""
    if game is None:
        return [], []
    kept = Ledger.open(game, ledger)
    data, signature = read_signed_file(str(path))
    return [kept], [str(clash) for clash in kept.record(data, signature, str(path)).equivocations]


def _plain_problem(problem: Problem, file: str) -> dict[str, Any]:
    """A problem for the page: its words (naming the file to be written), and the order it belongs to."""
    named = problem.replaced(file=file)
    nested = None
    if len(problem.path) >= 2 and problem.path[0] == "next_phase" and isinstance(problem.path[1], int):
        nested = problem.path[1]
    return {"text": str(named), "message": problem.message, "order": problem.order, "nested": nested,
            "section": problem.section, "legal": problem.legal}


def _depth(value: Any) -> int:
    """How deep a JSON value nests (a scalar: 0), stopping once past MAX_DEPTH."""
    stack, deepest = [(value, 0)], 0
    while stack and deepest <= MAX_DEPTH:
        item, level = stack.pop()
        inner = list(item.values()) if isinstance(item, dict) else item if isinstance(item, list) else None
        if inner is not None:
            deepest = max(deepest, level + 1)
            stack.extend((child, level + 1) for child in inner)
    return deepest


def _orders_list(body: dict[str, Any]) -> tuple[list[Any], list[Any] | None]:
    """The page's orders and next-phase orders, refused unless they are lists of mappings nesting no deeper
    than an order of a shipped game does (the game's code is not asked about anything else)."""
    orders, later = body.get("orders", []), body.get("next")
    for value in (orders, later if later is not None else []):
        if not isinstance(value, list) or len(value) > MAX_ORDERS or not all(isinstance(o, dict) for o in value):
            raise UsageError(f"orders must be a list of at most {MAX_ORDERS} mappings")
        if any(_depth(order) > MAX_DEPTH for order in value):
            raise UsageError(f"an order nests at most {MAX_DEPTH} levels deep (the next phase's orders go in "
                             "`next`)")
    return list(orders), (list(later) if later is not None else None)


def _changed_standing_rows(body: dict[str, Any]) -> dict[str, Any]:
    """The standing answers the page changes, by row: `topic` or `topic.key` (a per-unit answer) to a word,
    or to a one-number mapping such as `{within: 200}` (the check judges names and values by the schema)."""
    standing = body.get("standing") or {}
    if not isinstance(standing, dict) or not all(isinstance(v, str) or _numbered(v) for v in standing.values()):
        raise UsageError("standing answers must map names (topic or topic.key) to words or to {name: number}")
    return dict(standing)


def _numbered(value: Any) -> bool:
    return (isinstance(value, dict) and len(value) == 1 and all(isinstance(k, str) for k in value)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in value.values()))


def _replace(path: Path, data: bytes) -> None:
    """Write `path` whole, through a new file beside it renamed over it: a link planted at `path` (by
    another user of a shared folder) is replaced, never followed, and no reader sees half a file."""
    fresh = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        os.replace(fresh, path)
    except BaseException:
        fresh.unlink(missing_ok=True)
        raise


class _SignedFile:
    """The one file a desk writes (orders or a reply): written, signed with a key, armored."""

    out: Path
    key: SigningKey | None
    namespace: str
    saved: bytes | None = None
    signature: str | None = None

    def _write(self, data: bytes) -> dict[str, Any]:
        _replace(self.out, data)
        self.saved, self.signature = data, None
        answer: dict[str, Any] = {"saved": True, "path": str(self.out)}
        if self.key is not None:
            self.signature = signing.sign(data, self.key, self.namespace)
            sig = self.out.with_name(self.out.name + ".sig")
            _replace(sig, self.signature.encode("utf-8"))
            answer["signature"] = str(sig)
        else:
            answer["sign_command"] = f"ssh-keygen -Y sign -f KEY -n {self.namespace} {self.out}"
        return answer

    def armor(self) -> dict[str, Any]:
        """The saved file and its signature as one block to paste into a mail or a post."""
        if self.saved is None:
            raise UsageError("save first: Armor wraps the file last saved")
        if self.signature is None:
            return {"armor": None, "command": f"pbem sign {self.out} --key KEY --armor"}
        return {"armor": signing.armor(self.saved, self.signature, name=self.out.name)}


class OrdersDesk(_SignedFile):
    """A side's desk for the phase its view awaits."""

    mode = "orders"

    def __init__(self, view_path: Path, game: Game | None = None, key: SigningKey | None = None,
                 out: Path | None = None, ledger: str | None = None) -> None:
        if game is not None:
            check_from_referee(view_path, game, "view")
        self.view: ViewFile = read_view(view_path)
        self.expect = self.view.expectation()
        kept, self.warnings = _keep(view_path, game, ledger)
        # Orders for a turn the ledger shows adjudicated already are refused, as `pbem orders` refuses them.
        refuse_rewound_in(kept or ledgers_holding(self.expect.game, self.expect.ack, ledger), self.expect.side,
                          self.expect.seq, self.expect.ack, str(view_path))
        self.game, self.key = game, key
        if key is not None:
            _owner_problem(key, game, self.expect.side, str(view_path))
        self.out = out or Path(f"{self.expect.side}-orders-{self.expect.seq:04d}.yaml")
        self.namespace = signing.namespace("orders", self.expect.game)

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.view.doc["state"]
        return state

    @property
    def hook_view(self) -> dict[str, Any]:
        """The view's state as the clicking rules read it: with `side`, which not every game's state holds."""
        return self.state if "side" in self.state else {**self.state, "side": self.expect.side}

    def describe(self) -> dict[str, Any]:
        """Everything the page shows before the first click."""
        from pbem.render import has_map, map_svg, report_text

        doc, expect = self.view.doc, self.expect
        gives = expect.side in expect.awaiting
        found = hooks.spec(self.view.rules, self.hook_view) if gives else {"kinds": [], "next_phase": None}
        return {"mode": self.mode, "game": expect.game, "ruleset": doc["ruleset"]["id"], "side": expect.side,
                "view_seq": doc["seq"], "seq": expect.seq, "phase": expect.phase, "awaiting": list(expect.awaiting),
                "deadline": doc["next"].get("deadline"), "gives_orders": gives,
                "template": self.view.rules.order_template(self.state, expect.side) if gives else [],
                "report": report_text(doc), "svg": map_svg(doc) if has_map(doc) else None,
                "kinds": found["kinds"], "next_phase": found["next_phase"], "standing": self._standing_choices(),
                "signs": self.key is not None,
                "out": str(self.out), "warnings": self.warnings}

    def _standing_choices(self) -> list[dict[str, Any]]:
        """Each standing answer the game takes (one row per unit for a per-unit answer), its words, what it
        means and what the view says holds now."""
        rules, seen = self.view.rules, self.hook_view
        return standing_rows.choices(self.view.ruleset.standing_schema(), self._held,
                                     lambda topic: hooks.standing_keys(rules, seen, topic))

    @property
    def _held(self) -> dict[str, Any]:
        held: dict[str, Any] = self.view.doc.get("standing") or {}
        return held

    def _standing(self, body: dict[str, Any]) -> dict[str, Any]:
        """The file's `standing:` block for the rows the page changed."""
        return standing_rows.block(_changed_standing_rows(body), self._held, self.view.ruleset.standing_schema())

    def _full(self, orders: list[Any], later: list[Any] | None) -> list[Any]:
        return orders + ([{"next_phase": later}] if later is not None else [])

    def _problems(self, full: list[Any], standing: dict[str, Any]) -> list[Problem]:
        """`pbem check` on the orders file these orders make."""
        with tempfile.TemporaryDirectory(prefix="pbem-desk-") as folder:
            path = Path(folder) / self.out.name
            path.write_text(yamlio.dump(orders_document(self.view, full, standing, entropy=bytes(32),
                                                        salt=bytes(32))), encoding="utf-8")
            found = check_orders(self.view, path)
        return found

    def check(self, body: dict[str, Any]) -> dict[str, Any]:
        orders, later = _orders_list(body)
        problems = self._problems(self._full(orders, later), self._standing(body))
        return {"ok": not problems, "problems": [_plain_problem(p, str(self.out)) for p in problems]}

    def draft(self, body: dict[str, Any]) -> dict[str, Any]:
        """The picks for every field of the order being built, and its notes."""
        orders, later = _orders_list(body)
        kind, order, target = body.get("kind"), body.get("order"), body.get("target", "main")
        if not isinstance(kind, str) or not isinstance(order, dict) or target not in ("main", "next"):
            raise UsageError("a draft names its kind, its fields so far and where it goes (main or next)")
        if _depth(order) > MAX_DEPTH:
            raise UsageError(f"an order nests at most {MAX_DEPTH} levels deep")
        if target == "next" and later is None:
            later = []
        draft = {"kind": kind, "order": order, "orders": orders, "next": later, "target": target}
        rules, state, side = self.view.rules, self.state, self.expect.side

        def ok(trial: dict[str, Any]) -> bool:
            if target == "main":
                index = len(orders)
                found = rules.validate(state, side, orders + [trial])
                return not any(p.order == index for p in found)
            nested = list(later or [])
            found = rules.validate(state, side, orders + [{"next_phase": nested + [trial]}])
            return not any(p.order == len(orders) and p.path[:2] == ("next_phase", len(nested)) for p in found)

        seen = self.hook_view
        spec = hooks.spec(rules, seen)
        kinds = spec["kinds"] if target == "main" else (spec["next_phase"] or {}).get("kinds", [])
        fields = next((k["fields"] for k in kinds if k["kind"] == kind), None)
        if fields is None:
            raise UsageError(f"{kind!r} is not an order kind of this phase")
        picks = {f["name"]: hooks.candidates(rules, seen, draft, f["name"], ok) for f in fields
                 if f["type"] not in ("flag", "const", "enum")}
        return {"candidates": picks, "notes": hooks.notes(rules, seen, draft)}

    def document(self, full: list[Any], standing: dict[str, Any] | None = None) -> bytes:
        """The orders file: with a key, its entropy and salt come from the key and the view as the bot's do."""
        entropy = salt = None
        if self.key is not None:
            secret = self.key.private.private_bytes_raw()
            entropy = bot_seed("pbem/bot/entropy", secret, self.view.data)
            salt = bot_seed("pbem/bot/salt", secret, self.view.data)
        return yamlio.dump(orders_document(self.view, full, standing, entropy=entropy, salt=salt)).encode("utf-8")

    def save(self, body: dict[str, Any]) -> dict[str, Any]:
        """Write the orders file (and its signature with a key) unless the check finds a problem."""
        orders, later = _orders_list(body)
        full, standing = self._full(orders, later), self._standing(body)
        problems = self._problems(full, standing)
        if problems:
            return {"saved": False, "problems": [_plain_problem(p, str(self.out)) for p in problems]}
        return {**self._write(self.document(full, standing)), "problems": []}


class DecisionDesk(_SignedFile):
    """A side's desk for one decision request: its question, its options as buttons, the signed reply."""

    mode = "decision"

    def __init__(self, request_path: Path, game: Game | None = None, key: SigningKey | None = None,
                 out: Path | None = None, ledger: str | None = None) -> None:
        if game is not None:
            check_from_referee(request_path, game, "decision-request")
        _, self.warnings = _keep(request_path, game, ledger)
        self.data = yamlio.read_file(request_path)
        doc = yamlio.load_bytes(self.data, str(request_path))
        check_schema(doc, "decision-request")
        self.request: dict[str, Any] = doc.data
        self.game, self.key = game, key
        if key is not None:
            _owner_problem(key, game, str(self.request["side"]), str(request_path))
        # Without --game the options keep their generic names: a request does not name its ruleset.
        self.rules = game.ruleset if game is not None else None
        # As `pbem decide` names it: the seq in the name, as every seq's first request is request-000.
        self.out = out or Path(f"reply-{int(self.request['seq']):04d}-{int(self.request['index']):03d}.yaml")
        self.namespace = signing.namespace("orders", str(self.request["game"]))

    def describe(self) -> dict[str, Any]:
        request = self.request
        names = option_names(request, self.rules)
        return {"mode": self.mode, "game": request["game"], "side": request["side"], "seq": request["seq"],
                "topic": request.get("topic"), "section": request.get("section"),
                "deadline": request.get("deadline"), "text": request_text(request, self.rules),
                "question": yamlio.dump({"question": request.get("question", {})}),
                "options": [{"number": n, "name": name, "text": show_value(option)}
                            for n, (option, name) in enumerate(zip(request["options"], names), start=1)],
                "signs": self.key is not None, "out": str(self.out), "warnings": self.warnings}

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        number = body.get("number")
        options = self.request["options"]
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(options):
            raise UsageError(f"answer with an option's number, 1 to {len(options)}")
        reply = reply_document(self.request, self.data, options[number - 1], self.rules)
        return {**self._write(yamlio.dump(reply).encode("utf-8")), "answer": show_value(reply["answer"])}


def open_desk(path: Path, game: Game | None, key: SigningKey | None, out: Path | None,
              ledger: str | None = None) -> OrdersDesk | DecisionDesk:
    """The desk for a view or a decision request, by the file's kind."""
    doc = yamlio.load_file(path).data
    kind = doc.get("kind") if isinstance(doc, dict) else None
    if kind == "view":
        return OrdersDesk(path, game, key, out, ledger)
    if kind == "decision-request":
        return DecisionDesk(path, game, key, out, ledger)
    raise PbemError(Problem(f"the desk opens a view or a decision request, and this is {kind!r}", file=str(path),
                            legal="turns/NNNN/SIDE.yaml or decisions/NNNN/request-J.yaml as the referee sent it"))


__all__ = ["DecisionDesk", "OrdersDesk", "open_desk"]
