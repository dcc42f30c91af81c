"""The `pbem` command: parse arguments, call the library, print what happened. Nothing else."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from . import __version__
from .core.api import (DEFAULT_CHAIN_LENGTH, GAME_ID, Ledger, PbemError, Problem, adjudicate, audit_report,
                       bot_orders_file, check_from_referee, check_orders, check_player, check_schema, export,
                       exported_schemas, game_from_file, ledger_summary, ledgers_holding, load_game, new_game,
                       noted_referee_key, orders_template, parse_answer, read_signed_file, read_view,
                       refuse_rewound_in, reply_document, ruleset, run_case_file, schema_for, signing, status,
                       submit, yamlio)

Handler = Callable[[argparse.Namespace], int]
LEDGER_HELP = "the player's ledger base folder (default: $PBEM_LEDGER, else ~/.pbem/ledger); docs/ledger.md"
PLAYER_KINDS = ("orders", "decision-reply")


def _load_key(path: str) -> signing.SigningKey:
    return signing.load_signing_key(Path(path))


def _read_public(value: str) -> str:
    """A public key given inline (`ssh-ed25519 AAAA...`) or as a path to a .pub file."""
    text = value if value.startswith("ssh-ed25519 ") else Path(value).read_text(encoding="utf-8")
    line = text.strip().splitlines()[0] if text.strip() else ""
    signing.parse_public_key(line)
    return line


# --- keys and signatures ---------------------------------------------------------------------------


def cmd_keygen(args: argparse.Namespace) -> int:
    private, public = signing.write_keypair(args.name, Path(args.out))
    print(f"wrote {private} (keep it secret) and {public}")
    return 0


def _signing_context(data: bytes, path: str) -> tuple[str, dict[str, str]]:
    """(kind, doc) of a pbem file: enough to know its namespace and who must have signed it."""
    doc = yamlio.load_bytes(data, path).data
    if not isinstance(doc, dict) or "game" not in doc or "kind" not in doc:
        raise PbemError(f"{path}: not a pbem file (needs `kind` and `game`)")
    return str(doc["kind"]), doc


def _namespace_for(data: bytes, path: str) -> tuple[str, str]:
    kind, doc = _signing_context(data, path)
    party = "orders" if kind in PLAYER_KINDS else "turn"
    try:
        return signing.namespace(party, str(doc["game"])), kind  # type: ignore[arg-type]
    except ValueError as error:
        raise PbemError(f"{path}: {error}") from None


def cmd_sign(args: argparse.Namespace) -> int:
    path = Path(args.file)
    data = yamlio.read_file(path)
    if args.armor:
        data = signing.canonical_text(data)
    namespace, kind = _namespace_for(data, str(path))
    if kind == "orders":
        _refuse_rewound_orders(args, data, str(path))
    signature = signing.sign(data, _load_key(args.key), namespace)
    if args.armor:
        text = signing.armor(data, signature, name=path.name)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
            print(f"wrote {args.out}")
        else:
            sys.stdout.write(text)
        return 0
    out = Path(args.out) if args.out else path.with_name(path.name + ".sig")
    out.write_text(signature, encoding="utf-8")
    print(f"wrote {out} ({namespace})")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    path = Path(args.file)
    data = yamlio.read_file(path)
    namespace, kind = _namespace_for(data, str(path))
    parties = {**game.side_keys, "the referee": game.referee_key}
    if kind in PLAYER_KINDS:
        signer_name = str(_signing_context(data, str(path))[1].get("side"))
        if signer_name not in game.side_keys:
            raise PbemError(f"{path}: side {signer_name!r} is not a side of game {game.id}")
    else:
        signer_name = "the referee"
    allowed = {signer_name: parties[signer_name]}
    others = {name: key for name, key in parties.items() if name != signer_name}
    sig_path = Path(args.sig) if args.sig else path.with_name(path.name + ".sig")
    signing.verify(data, signing.read_signature(sig_path), namespace, allowed, file=str(path), others=others)
    print(f"OK: {path} ({kind}) is signed by {signer_name} for {namespace}")
    return 0


# --- the referee's commands -------------------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    sides = {name: _read_public(key) for name, key in _pairs(args.side, "--side", "SIDE=PUBKEY (a .pub file or "
                                                                               "an ssh-ed25519 line)").items()}
    addresses = _pairs(args.address, "--address", "SIDE=MAIL-ADDRESS")
    unknown = sorted(set(addresses) - set(sides))
    if unknown:
        raise PbemError(f"--address for {', '.join(unknown)}, which has no --side")
    settings = {name: value for name, value in (("deadline", args.deadline), ("reminder", args.reminder)) if value}
    key = _load_key(args.referee_key)
    game = new_game(args.scenario, args.game, key, sides, args.dir, addresses=addresses, settings=settings,
                    chain_length=args.chain_length or DEFAULT_CHAIN_LENGTH, referee_key_path=Path(args.referee_key))
    print(f"game {game.id} created in {args.dir}: {', '.join(game.sides)}; send each side "
          f"game.yaml(.sig) and views/0000/SIDE.yaml(.sig)")
    return 0


def _pairs(items: Sequence[str], option: str, form: str) -> dict[str, str]:
    """NAME=VALUE options, each name once."""
    pairs: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise PbemError(f"{option} {item!r}: write {form}")
        if name in pairs:
            raise PbemError(f"{option} names {name} twice")
        pairs[name] = value
    return pairs


def _referee_key(args: argparse.Namespace) -> signing.SigningKey:
    path = args.key or noted_referee_key(args.game_dir)
    if not path:
        raise PbemError("no referee key: pass --key KEY")
    return _load_key(str(path))


def cmd_status(args: argparse.Namespace) -> int:
    print(status(args.game_dir, public=args.public))
    return 0


def cmd_submit(args: argparse.Namespace) -> int:
    result = submit(args.game_dir, args.file, args.sig,
                    referee_key=_load_key(args.key) if args.key else None)
    for receipt in result.receipts:
        print(receipt.for_referee())
    for error in result.errors:
        print(f"rejected: {error}", file=sys.stderr)
    return 1 if result.errors else 0


def cmd_adjudicate(args: argparse.Namespace) -> int:
    report = adjudicate(args.game_dir, _referee_key(args), missing_none=args.missing == "none", lapse=args.lapse)
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(report.message)
    for file in report.files:
        print(f"  {file}")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    report = audit_report(args.game_dir)
    if report.found:
        print(f"audit of {args.game_dir}: walked to the end ({report.summary}), with the problems below", file=sys.stderr)
    return _report(report.found, f"OK: {args.game_dir}: {report.summary}")


def cmd_export(args: argparse.Namespace) -> int:
    names = export(args.game_dir, args.out, unfinished=args.unfinished)
    print(f"wrote {args.out}: {len(names)} files, without the referee's secrets")
    return 0


# --- the players' commands --------------------------------------------------------------------------


def _from_referee(path: str, game_file: str | None, kind: str) -> None:
    """Check the referee's signature on a view or request when the player names the game."""
    if game_file is None:
        print(f"note: the referee's signature on {path} was not checked (give --game game.yaml to check it)",
              file=sys.stderr)
        return
    # Bounded reads first: the file and its signature must be something a referee could have signed
    # before anything reads them whole (a device, a pipe, a non-UTF-8 .sig: each a clear error).
    if Path(path).exists() and not Path(path).is_file():
        raise PbemError(Problem("not a regular file: give the file as the referee sent it", file=path))
    yamlio.read_file(path)
    sig = Path(path + ".sig")
    if sig.exists() or sig.is_symlink():
        signing.read_signature(sig)
    check_from_referee(path, game_from_file(game_file), kind)


def cmd_orders(args: argparse.Namespace) -> int:
    _from_referee(args.view, args.game, "view")
    view = read_view(args.view)
    ledger = _keep_in_ledger(args, args.view)
    _refuse_rewound(args, ledger, view.doc["game"], view.doc["side"], view.doc["seq"] + 1, view.ack, args.view)
    text = orders_template(view)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def _keep_in_ledger(args: argparse.Namespace, path: str) -> Ledger | None:
    """With --game: keep the referee-signed file in the player's ledger; say what it contradicts."""
    if not args.game:
        return None
    ledger = Ledger.open(game_from_file(args.game), args.ledger)
    data, signature = read_signed_file(path)
    for clash in ledger.record(data, signature, path).equivocations:
        print(f"warning: {clash}", file=sys.stderr)
    return ledger


def _refuse_rewound(args: argparse.Namespace, ledger: Ledger | None, game_id: str, side: str, seq: int, ack: str,
                    built_on: str) -> None:
    """Orders for `seq` acking `ack`: refused when the ledger holds the side's view `seq` or later."""
    ledgers = [ledger] if ledger is not None else ledgers_holding(game_id, ack, args.ledger)
    refuse_rewound_in(ledgers, side, seq, ack, built_on)


def _refuse_rewound_orders(args: argparse.Namespace, data: bytes, path: str) -> None:
    doc = yamlio.load_bytes(data, path).data
    fields = (doc.get("game"), doc.get("side"), doc.get("seq"), doc.get("ack")) if isinstance(doc, dict) else ()
    if len(fields) == 4 and all(isinstance(value, str) for value in fields[:2] + fields[3:]) \
            and isinstance(fields[2], int) and not isinstance(fields[2], bool):
        if GAME_ID.fullmatch(str(fields[0])):
            _refuse_rewound(args, None, str(fields[0]), str(fields[1]), int(fields[2]), str(fields[3]), path)


def _report(findings: Sequence[object], ok_message: str) -> int:
    """Print every finding (exit 1), or the OK line (exit 0)."""
    for item in findings:
        print(item)
    if findings:
        print(f"{len(findings)} problem(s)", file=sys.stderr)
        return 1
    print(ok_message)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    _from_referee(args.view, args.game, "view")
    _keep_in_ledger(args, args.view)
    return _report(check_orders(read_view(args.view), args.orders),
                   f"OK: {args.orders} passes every check its view allows")


def _decision_request(doc: yamlio.Document) -> dict[str, Any]:
    """The request, if the document is one (its kind, then its whole schema); else a PbemError saying what it is."""
    data = doc.data
    if not isinstance(data, dict):
        shape = "a list" if isinstance(data, list) else "empty" if data is None else "a single value"
        what = f"{shape}, not a mapping with `kind: decision-request`"
    else:
        kind = data.get("kind")
        what = f"a {kind!r} file" if kind is not None else "a mapping with no `kind`"
    if not isinstance(data, dict) or data.get("kind") != "decision-request":
        raise PbemError(doc.problem(f"not a decision request: this is {what}",
                                    ("kind",) if isinstance(data, dict) and "kind" in data else (),
                                    legal="a decisions/NNNN/request-J.yaml file as the referee sent it"))
    check_schema(doc, "decision-request")
    return data


def cmd_decide(args: argparse.Namespace) -> int:
    _from_referee(args.request, args.game, "decision-request")
    path = Path(args.request)
    data = yamlio.read_file(path)
    request = _decision_request(yamlio.load_bytes(data, str(path)))
    _keep_in_ledger(args, args.request)
    key = _load_key(args.key)
    if args.game:
        mine = [side for side, line in game_from_file(args.game).side_keys.items()
                if line.split()[:2] == key.public_line.split()[:2]]
        if mine != [request["side"]]:
            owner = f"{mine[0]}'s" if mine else "no side's"
            raise PbemError(Problem(f"this request asks {request['side']}, and the key given is {owner}",
                                    file=str(path), legal=f"{request['side']}'s key"))
    reply = reply_document(request, data, parse_answer(args.answer))
    text = yamlio.dump(reply).encode("utf-8")
    out = Path(args.out) if args.out else path.with_name(path.name.replace("request", "reply"))
    if out == path:
        out = path.with_name("reply-" + path.name)
    out.write_bytes(text)
    signature = signing.sign(text, key, signing.namespace("orders", request["game"]))
    out.with_name(out.name + ".sig").write_text(signature, encoding="utf-8")
    print(f"wrote {out} and {out}.sig: submit them to the referee")
    return 0


def cmd_verify_view(args: argparse.Namespace) -> int:
    checked = check_player(args.views, args.game, ledger_base=args.ledger, receipts=args.receipts or (),
                           archive=args.archive)
    for note in checked.notes:
        print(note, file=sys.stderr)
    return _report(checked.found, f"OK: {len(args.views)} view(s) verified")


def cmd_ledger(args: argparse.Namespace) -> int:
    ledger = Ledger.open(game_from_file(args.game), args.ledger)
    failed = 0
    for path in getattr(args, "files", None) or ():
        try:
            data, signature = read_signed_file(path)
            recorded = ledger.record(data, signature, path)
        except (PbemError, OSError) as error:
            print(f"not kept: {path}: {error}", file=sys.stderr)
            failed += 1
            continue
        state = "kept" if recorded.new else "already held"
        print(f"{state}: {path} as {recorded.held.path.name} ({recorded.held.describe()})")
    if args.action == "show":
        for line in ledger_summary(ledger):
            print(line)
    clashes = ledger.equivocations()
    for clash in clashes:
        print(clash)
    return 1 if clashes or failed else 0


# --- reference ----------------------------------------------------------------------------------------


def cmd_schema(args: argparse.Namespace) -> int:
    if args.export:
        out = Path(args.export)
        out.mkdir(parents=True, exist_ok=True)
        for name, text in exported_schemas().items():
            (out / name).write_text(text, encoding="utf-8")
            print(f"wrote {out / name}")
        return 0
    if not args.kind:
        raise PbemError("give a KIND (game, scenario, orders, turn, view, decision-request, decision-reply, "
                        "case) or --export DIR")
    print(json.dumps(schema_for(args.kind, ruleset(args.ruleset) if args.ruleset else None), indent=2))
    return 0


def cmd_case(args: argparse.Namespace) -> int:
    failures = 0
    for file in args.files:
        outcome = run_case_file(file)
        print(outcome)
        failures += 0 if outcome.passed else 1
    print(f"{len(args.files) - failures} passed, {failures} failed")
    return 1 if failures else 0


def cmd_demo(args: argparse.Namespace) -> int:
    import tempfile

    from .demo import play_demo, seed_from_file

    ruleset_id = args.ruleset or args.ruleset_id
    if not ruleset_id:
        raise PbemError("name the game: pbem demo fbsm (or --ruleset ID)")
    workdir = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix=f"pbem-demo-{ruleset_id}-"))
    seed = seed_from_file(Path(args.seed_file)) if args.seed_file else None
    return play_demo(ruleset_id, Path(args.scenario) if args.scenario else None, workdir,
                     chain_length=args.chain_length or 1024, seed=seed)


def cmd_bot(args: argparse.Namespace) -> int:
    path = bot_orders_file(Path(args.game_dir), args.side, _load_key(args.key), Path(args.out) if args.out else None)
    print(f"wrote {path} and {path}.sig")
    return 0


# --- the parser ---------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description="Play-by-email adjudicator: signed orders, committed "
                                     "dice, fog-of-war views, full audit.")
    parser.add_argument("--version", action="version", version=f"pbem {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Handler, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    p = command("keygen", cmd_keygen, "write an OpenSSH ed25519 key pair (as ssh-keygen -t ed25519 does)")
    p.add_argument("name")
    p.add_argument("--out", default=".")

    p = command("new", cmd_new, "start a game: signed game.yaml, seed-chain anchor, every side's view 0")
    p.add_argument("scenario")
    p.add_argument("--game", required=True)
    p.add_argument("--referee-key", required=True)
    p.add_argument("--side", action="append", default=[], metavar="SIDE=PUBKEY")
    p.add_argument("--dir", required=True)
    p.add_argument("--chain-length", type=int)
    p.add_argument("--address", action="append", default=[], metavar="SIDE=MAIL-ADDRESS",
                   help="where the mail judge sends that side's receipts and views")
    p.add_argument("--deadline", metavar="DURATION", help="for the mail judge: how long each phase stays open (72h)")
    p.add_argument("--reminder", metavar="DURATION", help="for the mail judge: remind late sides this long before")

    p = command("status", cmd_status, "the seq and phase awaited, who owes orders, what is in")
    p.add_argument("game_dir")
    p.add_argument("--public", action="store_true", help="only what every player may know (for a mail or a post)")

    p = command("orders", cmd_orders, "an orders template for the next phase, from your latest view")
    p.add_argument("view")
    p.add_argument("--out")
    p.add_argument("--game", help="the game's game.yaml (game.yaml.sig beside it): check the referee signed the file")
    p.add_argument("--ledger", metavar="DIR", help=LEDGER_HELP)

    p = command("sign", cmd_sign, "sign a pbem file (FILE.sig, or the armored form with --armor)")
    p.add_argument("file")
    p.add_argument("--key", required=True)
    p.add_argument("--armor", action="store_true")
    p.add_argument("--out")
    p.add_argument("--ledger", metavar="DIR", help=LEDGER_HELP)

    p = command("verify", cmd_verify, "check a file's signature against a game's keys")
    p.add_argument("file")
    p.add_argument("--game", required=True, help="the game directory (or one holding game.yaml)")
    p.add_argument("--sig")

    p = command("check", cmd_check, "pre-check your orders against your view before sending them")
    p.add_argument("view")
    p.add_argument("orders")
    p.add_argument("--game", help="the game's game.yaml (game.yaml.sig beside it): check the referee signed the file")
    p.add_argument("--ledger", metavar="DIR", help=LEDGER_HELP)

    p = command("submit", cmd_submit, "the referee's intake: a detached pair, an armored file or a mail text")
    p.add_argument("game_dir")
    p.add_argument("file")
    p.add_argument("sig", nargs="?")
    p.add_argument("--key", help="the referee's private key, which signs the receipts (default: the one given to "
                                 "pbem new)")

    p = command("adjudicate", cmd_adjudicate, "resolve the next adjudication and write the turn and views")
    p.add_argument("game_dir")
    p.add_argument("--missing", choices=["none"], help="treat sides that sent nothing as giving no orders")
    p.add_argument("--lapse", action="store_true",
                   help="a decision request still unanswered (its deadline passed) takes its first option, the "
                        "rules' default; recorded in a signed lapse file")
    p.add_argument("--key", help="the referee's private key (default: the one given to `pbem new`)")

    p = command("bot", cmd_bot, "signed, legal orders for a side's awaited phase, from that side's latest view")
    p.add_argument("game_dir", help="a game directory holding the side's views")
    p.add_argument("--side", required=True)
    p.add_argument("--key", required=True, help="the side's private key (its randomness comes from it too)")
    p.add_argument("--out", help="where to write the orders (default: GAME_DIR/../SIDE-orders-NNNN.yaml)")

    p = command("decide", cmd_decide, "answer a decision request with a signed reply")
    p.add_argument("request")
    p.add_argument("--answer", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--out")
    p.add_argument("--game", help="the game's game.yaml (game.yaml.sig beside it): check the referee signed the file")
    p.add_argument("--ledger", metavar="DIR", help=LEDGER_HELP)

    p = command("audit", cmd_audit, "re-check and replay a whole game archive")
    p.add_argument("game_dir")

    p = command("export", cmd_export, "the archive as one .tar.gz anyone may hold (no referee secrets)")
    p.add_argument("game_dir")
    p.add_argument("out", help="the file to write, such as my-game.tar.gz")
    p.add_argument("--unfinished", action="store_true",
                   help="export a game still in play (its master files show everything: for a neutral auditor)")

    p = command("verify-view", cmd_verify_view, "check your own views: signatures, chains, seeds and rolls")
    p.add_argument("views", nargs="+")
    p.add_argument("--game", required=True, help="game.yaml (with game.yaml.sig beside it)")
    p.add_argument("--ledger", metavar="DIR", help=LEDGER_HELP)
    p.add_argument("--receipts", nargs="+", metavar="R", help="the referee's receipts you hold (each with its .sig); "
                   "those in the ledger are checked too")
    p.add_argument("--archive", metavar="PATH", help="the game's archive (a game directory or a .tar.gz from pbem "
                   "export): must hold every file you hold, reach your last view, and pass the audit")

    p = command("ledger", cmd_ledger, "the player's ledger: every referee-signed file of a game, kept (docs/ledger.md)")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="check and keep referee-signed files (each with its .sig)")
    add.add_argument("files", nargs="+", metavar="FILE")
    show = actions.add_parser("show", help="what the ledger holds, and any equivocation in it")
    for q in (add, show):
        q.add_argument("--game", required=True, help="game.yaml (with game.yaml.sig beside it)")
        q.add_argument("--ledger", metavar="DIR", help=LEDGER_HELP)

    p = command("schema", cmd_schema, "print the JSON Schema of a file kind")
    p.add_argument("kind", nargs="?")
    p.add_argument("--ruleset")
    p.add_argument("--export", metavar="DIR", help="write every schema (core and shipped rulesets) into DIR")

    p = command("case", cmd_case, "run adjudicator test case files")
    p.add_argument("action", choices=["run"])
    p.add_argument("files", nargs="+")

    p = command("demo", cmd_demo, "play a complete game with bots on every side, then audit it")
    p.add_argument("ruleset_id", nargs="?", metavar="RULESET")
    p.add_argument("--ruleset", help="the same as RULESET")
    p.add_argument("--scenario")
    p.add_argument("--dir", help="where to play (default: a new temporary directory)")
    p.add_argument("--chain-length", type=int)
    p.add_argument("--seed-file", metavar="F", help="derive the keys and the chain secret from this file's bytes, "
                   "so the same file plays the same game byte for byte (default: fresh ones)")

    from .mail.cli import add_commands as add_mail_commands
    from .render.cli import add_commands as add_render_commands

    add_mail_commands(sub)
    add_render_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except PbemError as error:
        print(f"pbem {args.command}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"pbem {args.command}: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
