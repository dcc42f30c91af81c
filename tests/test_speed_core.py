"""The shortcuts of issue #17 change no answer: the audit's quick turn check, the quick loader,
the seed chain's checkpoints and the cache of checked documents and good signatures (bench/README.md)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable

import pytest

from pbem.core import chance, doccache, yamlio
from pbem.core.archive import turn_rel, view_rel
from pbem.core.audit import Auditor, Discrepancy, audit
from pbem.core.errors import SchemaError, SignatureError, YamlError
from pbem.core.quickload import load_data, quick_load, recorded_turn_parts
from pbem.demo import DemoGame
from tests.test_audit import resign


def full_audit(root: Path) -> list[Discrepancy]:
    """The audit with every turn checked field by field (the way it was before the quick check)."""
    auditor = Auditor(root)
    auditor.quick_turn = lambda *args: None  # type: ignore[method-assign]
    return auditor.run()


def bump_roll(turn: dict[str, Any]) -> None:
    roll = turn["dice"]["rolls"][0]
    roll["value"] = (roll["value"] + 1) % roll["n"]


def bump_state(turn: dict[str, Any]) -> None:
    turn["state"]["hq"]["blue"]["strength"] += 5
    turn["state_sha256"] = chance.state_hash(turn["state"])


TAMPERINGS: dict[str, tuple[int, Callable[[dict[str, Any]], None]]] = {
    "roll": (2, bump_roll),
    "state": (2, bump_state),
    "seed": (2, lambda t: t["dice"].__setitem__("seed", "ab" * 32)),
    "phases": (1, lambda t: t["phases"].append("extra")),
    "next": (3, lambda t: t["next"].__setitem__("deadline", "2030-01-01T00:00:00Z")),
    "order entropy": (1, lambda t: t["orders"][0].__setitem__("entropy", "cd" * 32)),
    "extra key": (2, lambda t: t.__setitem__("note", "hello")),
}


def test_an_untouched_game_takes_the_quick_way_for_every_turn(finished_duel: DemoGame,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    full: list[int] = []
    original = Auditor.full_turn

    def counting(self: Auditor, *args: Any) -> Any:
        full.append(args[2])
        return original(self, *args)

    monkeypatch.setattr(Auditor, "full_turn", counting)
    assert audit(finished_duel.root) == []
    assert full == []


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_a_tampered_turn_gets_exactly_the_full_checks_findings(finished_duel: DemoGame, name: str) -> None:
    seq, edit = TAMPERINGS[name]
    resign(finished_duel, turn_rel(seq), edit)
    found = audit(finished_duel.root)
    assert found, f"{name}: not caught"
    assert found == full_audit(finished_duel.root)


def test_a_view_changed_after_a_sound_turn_is_still_named(finished_duel: DemoGame) -> None:
    rel = view_rel(2, "red")
    resign(finished_duel, rel, lambda v: v.__setitem__("seq", 99))
    found = audit(finished_duel.root)
    assert found[0].file == rel  # (and the next orders, whose ack no longer names the view)
    assert found == full_audit(finished_duel.root)


def test_recorded_parts_are_read_from_a_real_turn(finished_duel: DemoGame) -> None:
    data = (finished_duel.root / turn_rel(2)).read_bytes()
    turn = yamlio.load_bytes(data, "turn").data
    parts = recorded_turn_parts(data)
    assert parts is not None
    assert (parts.seed, parts.hidden_seed, parts.next_deadline) == (
        turn["dice"]["seed"], turn["dice"].get("hidden_seed"), turn["next"].get("deadline"))
    assert recorded_turn_parts(data.replace(b"\ndice:\n", b"\ndie:\n")) is None


# --- the quick loader ------------------------------------------------------------------------------------


CANONICAL = [
    {"a": 1, "b": [1, "two", None, True], "c": {"d": "yes", "e": "", "f": "1:30", "g": "0x1F"}},
    {"text": "line\nbreak", "quote": "'", "colon": "a: b", "hash": "# x", "deep": [[[{"x": []}]]]},
]


@pytest.mark.parametrize("doc", CANONICAL)
def test_quick_load_reads_what_the_strict_loader_reads(doc: dict[str, Any]) -> None:
    data = yamlio.dump(doc).encode()
    assert quick_load(data) == yamlio.load_bytes(data, "x").data == doc


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n",        # a duplicate key
    "a: 010\n",            # a leading zero
    "a: 1.5\n",            # a float
    "a: 0x1f\n",           # a number some readers read and pbem's loader refuses
    "a: !!str 1\n",        # a tag
    "a: &x [1]\nb: *x\n",  # an alias
    "- 1\n",               # not a mapping
])
def test_quick_load_leaves_what_the_strict_loader_looks_at_closely_to_it(text: str) -> None:
    assert quick_load(text.encode()) is None


@pytest.mark.parametrize("text, strict", [
    ("a: yes\n", {"a": "yes"}),     # a YAML 1.1 bool to libyaml's own loader, a string to pbem's: pbem's reading
    ("a: on\nb: No\n", {"a": "on", "b": "No"}),
    ("a:   1\nb: [x,  y]\n", {"a": 1, "b": ["x", "y"]}),  # not the canonical layout, the same data
    ("a: ~\nb: 'x'\nc: \"y\"\n", {"a": None, "b": "x", "c": "y"}),
])
def test_quick_load_reads_what_the_strict_loader_reads_not_libyamls_own_loader(text: str,
                                                                               strict: dict[str, Any]) -> None:
    assert yamlio.load_bytes(text.encode(), "x").data == strict  # what the rules must see
    read = quick_load(text.encode())
    assert read == strict and [type(v) for v in read.values()] == [type(v) for v in strict.values()]


def test_an_alias_bomb_is_refused_before_it_is_expanded() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 30)]
    assert quick_load(("\n".join(lines) + "\n").encode()) is None


def test_load_data_gives_the_strict_loaders_error() -> None:
    with pytest.raises(YamlError, match="duplicate key"):
        load_data(b"a: 1\na: 2\n", "x.yaml")


# --- the seed chain ---------------------------------------------------------------------------------------


def walked(game: str, secret: bytes, length: int, k: int, label: str) -> bytes:
    seed = secret
    for _ in range(length - k):
        seed = chance.chain_step(game, seed, label)
    return seed


@pytest.mark.parametrize("length", [1, 31, 32, 33, 100])
def test_every_link_from_the_checkpoints_is_the_walked_one(length: int) -> None:
    secret = hashlib.sha256(b"chain").digest()
    for label in (chance.CHAIN_LABEL, chance.HIDDEN_CHAIN_LABEL):
        for k in range(length + 1):
            assert chance.chain_seed("g", secret, length, k, label) == walked("g", secret, length, k, label)
    other = hashlib.sha256(b"other").digest()
    assert chance.chain_anchor("g", other, length) == walked("g", other, length, 0, chance.CHAIN_LABEL)


def test_sealed_checkpoints_give_the_walked_links() -> None:
    secret = hashlib.sha256(b"sealed").digest()
    for label in (chance.CHAIN_LABEL, chance.HIDDEN_CHAIN_LABEL):
        sealed = chance.sealed_checkpoints("g", secret, 100, label)
        chance._CHECKPOINTS.clear()
        assert chance.open_checkpoints(sealed, "g", secret, 100, label)
        assert ("g", secret) in {(key[1], key[2]) for key in chance._CHECKPOINTS}
        for k in (0, 1, 31, 32, 33, 64, 99, 100):
            assert chance.chain_seed("g", secret, 100, k, label) == walked("g", secret, 100, k, label)


def forged_links(sealed: bytes) -> bytes:
    """The same file with its first link changed and the tag left as it was."""
    start = len(chance.MARKS_MAGIC) + 32
    return sealed[:start] + bytes(32) + sealed[start + 32:]


def test_a_checkpoint_file_that_does_not_check_is_ignored_and_the_chain_walked() -> None:
    secret = hashlib.sha256(b"sealed").digest()
    other = hashlib.sha256(b"another secret").digest()
    sealed = chance.sealed_checkpoints("g", secret, 100)
    refused = {
        "a link changed": forged_links(sealed),
        "a tag bit flipped": sealed[:len(chance.MARKS_MAGIC)] + bytes([sealed[len(chance.MARKS_MAGIC)] ^ 1])
        + sealed[len(chance.MARKS_MAGIC) + 1:],
        "cut short": sealed[:-1],
        "one link more": sealed + bytes(32),
        "empty": b"",
        "another magic": b"x" + sealed[1:],
        "another secret's file": chance.sealed_checkpoints("g", other, 100),
    }
    for why, data in refused.items():
        chance._CHECKPOINTS.clear()
        assert not chance.open_checkpoints(data, "g", secret, 100), why
        assert not chance._CHECKPOINTS, why
        assert chance.chain_anchor("g", secret, 100) == walked("g", secret, 100, 0, chance.CHAIN_LABEL), why
    for game, length, label in (("h", 100, chance.CHAIN_LABEL), ("g", 99, chance.CHAIN_LABEL),
                                ("g", 100, chance.HIDDEN_CHAIN_LABEL)):  # the same file, asked for another chain
        chance._CHECKPOINTS.clear()
        assert not chance.open_checkpoints(sealed, game, secret, length, label)


def test_an_adjudication_reads_the_sealed_checkpoints_and_does_without_them(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.core.game import chain_secret, hidden_chain_seed, load_game
    from tests.conftest import play_duel

    root = play_duel(tmp_path / "duel", exchanges=1).root
    game = load_game(root)
    private = root / ".referee"
    assert sorted(p.name for p in private.glob("*.marks")) == ["chain-secret.marks", "hidden-secret.marks"]
    assert all(p.stat().st_mode & 0o077 == 0 for p in private.glob("*.marks"))
    chance._CHECKPOINTS.clear()
    expected = chance.chain_seed(game.id, chain_secret(game), game.chain_length, 5), hidden_chain_seed(game, 5)
    walks: list[int] = []
    real_walk = chance._walk
    def counted_walk(game_id: str, seed: bytes, steps: int, label: str) -> bytes:
        walks.append(steps)
        return real_walk(game_id, seed, steps, label)

    monkeypatch.setattr(chance, "_walk", counted_walk)

    def seeds() -> tuple[bytes, bytes | None]:
        chance._CHECKPOINTS.clear()
        walks.clear()
        return chance.chain_seed(game.id, chain_secret(game), game.chain_length, 5), hidden_chain_seed(game, 5)

    assert seeds() == expected and sum(walks) < 64  # from the checkpoints: no walk from the secret
    for name in ("chain-secret.marks", "hidden-secret.marks"):
        good = (private / name).read_bytes()
        for damaged in (forged_links(good), good[:-3], None):
            if damaged is None:
                (private / name).unlink()
            else:
                (private / name).write_bytes(damaged)
            assert seeds() == expected and sum(walks) >= game.chain_length  # walked again, the same links
        (private / name).write_bytes(good)


def test_a_checkpoint_file_that_is_no_regular_file_is_not_waited_on(finished_duel: DemoGame) -> None:
    import os
    import signal

    from pbem.core.archive import Archive
    from pbem.core.game import chain_secret, load_game

    game = load_game(finished_duel.root)
    marks = finished_duel.root / ".referee" / "chain-secret.marks"
    chance._CHECKPOINTS.clear()
    expected = chain_secret(game)
    good = marks.read_bytes()

    def stuck(*_: object) -> None:
        raise TimeoutError("waited on the checkpoint file")

    previous = signal.signal(signal.SIGALRM, stuck)
    try:
        for kind in ("fifo", "link", "folder", "huge"):
            marks.unlink() if not marks.is_dir() or marks.is_symlink() else marks.rmdir()
            if kind == "fifo":
                os.mkfifo(marks)
            elif kind == "link":
                (marks.parent / "elsewhere").write_bytes(good)
                marks.symlink_to(marks.parent / "elsewhere")
            elif kind == "folder":
                marks.mkdir()
            else:
                marks.write_bytes(good + bytes(2 << 20))
            assert Archive(finished_duel.root).read_private(marks.name) is None, kind
            chance._CHECKPOINTS.clear()
            signal.alarm(5)
            assert chain_secret(game) == expected, kind
            signal.alarm(0)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- kept documents ------------------------------------------------------------------------------------------


def test_kept_turns_are_the_checked_ones(finished_duel: DemoGame) -> None:
    doccache.forget()
    data = (finished_duel.root / turn_rel(1)).read_bytes()
    first = doccache.load_checked(data, turn_rel(1), "turn")
    assert first == yamlio.load_bytes(data, "t").data
    first["state"].clear()  # a caller changing its copy changes nothing kept
    assert doccache.load_checked(data, turn_rel(1), "turn") == yamlio.load_bytes(data, "t").data
    changed = data.replace(b"kind: turn\n", b"kind: tune\n")
    with pytest.raises(SchemaError, match="kind"):
        doccache.load_checked(changed, turn_rel(1), "turn")  # other bytes: checked again, and refused


def test_kept_signatures_answer_only_the_same_question(finished_duel: DemoGame) -> None:
    from pbem.core import signing
    from pbem.core.game import load_game

    doccache.forget()
    game = load_game(finished_duel.root)
    data = (finished_duel.root / turn_rel(1)).read_bytes()
    signature = (finished_duel.root / (turn_rel(1) + ".sig")).read_text()
    referee = {"referee": game.referee_key}
    assert doccache.verified_signer(data, signature, game.turn_namespace(), referee, file="t") == "referee"
    assert doccache.verified_signer(data, signature, game.turn_namespace(), referee, file="t") == "referee"
    other_sig = (finished_duel.root / (turn_rel(2) + ".sig")).read_text()
    for changed in ((data + b"\n", signature, game.turn_namespace(), referee),
                    (data, other_sig, game.turn_namespace(), referee),
                    (data, signature, game.orders_namespace(), referee),
                    (data, signature, game.turn_namespace(), {"referee": game.side_keys[game.sides[0]]})):
        with pytest.raises(SignatureError):
            doccache.verified_signer(*changed, file="t")  # a different question: checked, and refused
        with pytest.raises(SignatureError):
            doccache.verified_signer(*changed, file="t")  # and again: a refusal is never kept
    doccache.remember_signature(b"made here", "sig", "ns", referee, "referee")
    assert doccache.verified_signer(b"made here", "sig", "ns", referee, file="t") == "referee"
    doccache.forget()
    with pytest.raises(SignatureError):
        doccache.verified_signer(b"made here", "sig", "ns", referee, file="t")


def test_a_remembered_turn_with_its_state_json_reads_back_as_the_file(finished_duel: DemoGame) -> None:
    import copy
    import json

    for seq in (1, 2):
        doccache.forget()
        data = (finished_duel.root / turn_rel(seq)).read_bytes()
        doc = yamlio.load_bytes(data, "t").data
        doccache.remember("turn", data, copy.deepcopy(doc), chance.canonical_json(doc["state"]))
        for _ in range(2):
            kept = doccache.load_checked(data, turn_rel(seq), "turn")
            assert json.dumps(kept) == json.dumps(doc) and repr(kept) == repr(doc)  # key order and types too
            kept["state"].clear()  # a caller changing its copy changes nothing kept


# --- the quick schema verdict, made once per schema node into judges (#17) -------------------------

TREE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "required": ["name"], "additionalProperties": False,
    "properties": {"name": {"$ref": "#/$defs/name"}, "kids": {"type": "array", "items": {"$ref": "#"}},
                   "tag": {"anyOf": [{"$ref": "#/$defs/name"}, {"type": "null"}]},
                   "mode": {"oneOf": [{"enum": ["a", "b"]}, {"const": 3}]}},
    "if": {"required": ["tag"]}, "then": {"properties": {"tag": {"not": {"type": "null"}}}},
    "$defs": {"name": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 5}},
}


def _tree(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
    node = dict(leaf)
    for _ in range(depth):
        node = {"name": "up", "kids": [node, {"name": "b"}]}
    return node


@pytest.mark.parametrize("instance", [
    {"name": "a"}, {"name": "A"}, {"name": "abcdef"}, {"name": "a", "kids": [{"name": "b", "kids": [{"name": "c"}]}]},
    {"name": "a", "kids": [{"name": "b", "kids": [{"name": 1}]}]}, {"name": "a", "tag": None}, {"name": "a", "tag": "x"},
    {"name": "a", "mode": "a"}, {"name": "a", "mode": 3}, {"name": "a", "mode": True}, {"name": "a", "extra": 1},
    {"kids": []}, _tree(40, {"name": "z"}), _tree(40, {"name": "Z"}), _tree(40, {"name": "z", "tag": None}),
])
def test_judges_of_a_schema_that_refers_to_itself_agree_with_jsonschema(instance: dict[str, Any]) -> None:
    from jsonschema import Draft202012Validator

    from pbem.core.quickschema import QuickSchema

    quick = QuickSchema(TREE)
    assert quick.supported
    expected = Draft202012Validator(TREE).is_valid(instance)
    assert quick.verdict(instance) == expected
    assert quick.verdict(instance) == expected  # the judges made by the first verdict give the same
    assert QuickSchema(TREE).verdict(_tree(5000, {"name": "z"})) is None  # too deep for Python: no verdict


def test_a_schema_is_named_by_its_exact_content() -> None:
    import collections

    from pbem.core import schemas
    from pbem.core.schemafiles import load_schema

    distinct = [{"const": 1}, {"const": True}, {"const": 1.0}, {"enum": [1]}, {"enum": (1,)}, {"a": 1, "b": 2},
                {"b": 2, "a": 1}, {"x": "1"}, {"x": b"1"}, collections.OrderedDict(a=1), {"a": 1}]
    names = [schemas._exact_name(schema) for schema in distinct]
    assert len(set(names)) == len(names)
    assert schemas._exact_name({"a": [1, {"b": None}]}) == schemas._exact_name({"a": [1, {"b": None}]})
    shared = ["x"]
    assert schemas._exact_name({"a": shared, "b": shared}) == schemas._exact_name({"a": ["x"], "b": ["x"]})
    deep: dict[str, Any] = {}
    for _ in range(100_000):
        deep = {"not": deep}
    assert schemas._exact_name(deep) is None  # too deep to name: compiled afresh
    first, again = schemas._compiled(load_schema("turn")), schemas._compiled(load_schema("turn"))
    assert first.schema is not again.schema and first.quick is again.quick  # a fresh copy: the same judges
    assert schemas._compiled({"const": 1}).quick is not schemas._compiled({"const": True}).quick
