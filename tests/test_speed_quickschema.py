"""The quick schema verdict (`pbem.core.quickschema`) never contradicts jsonschema.

`schemas.problems` and `schemas.is_valid` take the quick verdict when it says "valid" and ask
jsonschema otherwise, so the property that matters is: quick True => jsonschema valid. These tests
check more, both ways (quick False => jsonschema invalid, since `not`, `oneOf` and `if` lean on
it): on the recorded games' files, on deterministic mutations of them, and on the corners where
Python and JSON Schema differ (true is not 1, a str subclass, floats, jsonschema's own repeat test).
"""

from __future__ import annotations

import copy as copy_module
import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from pbem.core import schemas, yamlio
from pbem.core.quickschema import QuickSchema
from pbem.core.ruleset import get
from pbem.core.schemafiles import load_schema, orders_schema

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GAMES = sorted(p.parent.parent.name for p in SAMPLES.glob("*/game/game.yaml"))
PER_KIND = 12  # files of each kind taken from each game, spread over the game


def _kind_files(game: Path) -> Iterator[tuple[str, Path]]:
    yield "game", game / "game.yaml"
    yield "scenario", game / "scenario.yaml"
    kinds: dict[str, list[Path]] = {}
    for path in sorted(game.rglob("*.yaml")):
        rel = path.relative_to(game).parts
        if rel[0] == "turns":
            kind = "turn" if path.name == "turn.yaml" else "view"
        elif rel[0] == "orders":
            kind = "receipt" if path.name.endswith(".receipt.yaml") else "orders"
        elif rel[0] == "views":
            kind = "view"
        elif rel[0] == "decisions":
            kind = "decision"
        else:
            continue
        kinds.setdefault(kind, []).append(path)
    for kind, paths in sorted(kinds.items()):
        step = max(1, len(paths) // PER_KIND)
        for path in paths[::step][:PER_KIND]:
            yield kind, path


def _schemas_for(kind: str, data: Any) -> list[dict[str, Any]]:
    if kind == "decision":
        return [load_schema(str(data["kind"]))]
    if kind == "scenario":
        return [load_schema("scenario")]
    return [load_schema(kind)]


def _orders_schemas(game: str, data: Any) -> list[dict[str, Any]]:
    ruleset = get(game)  # each sample game is played with the ruleset it is named after
    return [load_schema("orders"), orders_schema(ruleset), orders_schema(ruleset, str(data["phase"]))]


def _cases() -> list[tuple[str, str, Path]]:
    return [(name, kind, path) for name in GAMES for kind, path in _kind_files(SAMPLES / name / "game")]


CASES = _cases()


def _agree(schema: dict[str, Any], data: Any) -> bool | None:
    """The quick verdict, asserted to agree with jsonschema whenever it gives one."""
    compiled = schemas._compiled(schema)
    verdict = compiled.quick.verdict(data)
    if verdict is not None:
        assert verdict == compiled.validator.is_valid(data), (verdict, schema.get("title"))
        assert verdict == Draft202012Validator(compiled.translated).is_valid(data)
    return verdict


def _mutations(data: Any, rng: random.Random, count: int) -> Iterator[Any]:
    """`count` copies of `data`, each changed at one random place (a value's type, a key, an item)."""
    replacements: list[Any] = [None, True, False, 0, 1, -1, 10**6, "", "x", "0001", "US01", [], {}, ["x"], {"x": 1}]
    for _ in range(count):
        copy = copy_module.deepcopy(data)
        holder: Any = None
        key: Any = None
        node = copy
        for _depth in range(rng.randint(1, 6)):
            if isinstance(node, dict) and node:
                holder, key = node, rng.choice(sorted(node))
            elif isinstance(node, list) and node:
                holder, key = node, rng.randrange(len(node))
            else:
                break
            node = holder[key]
        if holder is None:
            continue
        action = rng.randrange(5)
        if action == 0 or not isinstance(holder, (dict, list)):
            holder[key] = rng.choice(replacements)
        elif action == 1 and isinstance(holder, dict):
            del holder[key]
        elif action == 1 and isinstance(holder, list):
            holder.append(holder[key])  # a repeated item (uniqueItems)
        elif action == 2 and isinstance(holder, dict):
            holder[rng.choice(["extra", "kind", "seq", "side", "move", "fire", "hex", "unit"])] = rng.choice(replacements)
        elif action == 3 and isinstance(holder[key], str):
            holder[key] = holder[key] + rng.choice(["\n", "x", "9", " "])
        else:
            holder[key] = rng.choice(replacements)
        yield copy


@pytest.mark.parametrize(("game", "kind", "path"), CASES, ids=[f"{g}:{p.name}:{i}" for i, (g, _, p) in enumerate(CASES)])
def test_recorded_files_are_judged_valid_quickly_and_mutations_agree(game: str, kind: str, path: Path) -> None:
    data = yamlio.load_bytes(path.read_bytes(), str(path)).data
    found = _orders_schemas(game, data) if kind == "orders" else _schemas_for(kind, data)
    rng = random.Random(f"{game}/{path.name}")
    for schema in found:
        assert _agree(schema, data) is True  # the quick path is the one taken for a good file
        judged = [_agree(schema, changed) for changed in _mutations(data, rng, 8)]
        assert judged.count(None) <= len(judged) // 2 + 1  # most mutations get a verdict too


def test_every_schema_pbem_ships_is_supported() -> None:
    for name in GAMES:
        ruleset = get(name)
        found = [load_schema(kind) for kind in ("game", "scenario", "orders", "turn", "view", "decision-request",
                                                 "decision-reply", "decision-lapse", "receipt", "case")]
        found += [orders_schema(ruleset)] + [orders_schema(ruleset, phase) for phase in ruleset.phase_names()]
        for schema in found:
            assert schemas._compiled(schema).quick.supported, (name, schema.get("title"))


class Text(str):
    pass


@pytest.mark.parametrize(("schema", "instance"), [
    ({"enum": [1, "a"]}, True),  # true is not 1
    ({"const": 0}, False),
    ({"const": [1, {"a": True}]}, [1, {"a": 1}]),
    ({"enum": [[1, True]]}, [True, 1]),
    ({"type": "integer"}, True),
    ({"type": "number", "minimum": 5}, False),  # a bool is not a number: minimum does not apply
    ({"uniqueItems": True}, [1, True]),
    ({"uniqueItems": True}, [0, False, "0"]),
    ({"uniqueItems": True}, [{"a": 1}, {"a": True}]),
    ({"uniqueItems": True}, ["a", "b", "a"]),
    ({"items": False, "prefixItems": [{"type": "string"}]}, ["a", 1]),
    ({"items": {"type": "integer"}, "prefixItems": [{"type": "string"}]}, ["a", 1, 2]),
    ({"additionalProperties": False, "patternProperties": {"^x": {}}}, {"xa": 1, "y": 2}),
    ({"propertyNames": {"maxLength": 2}}, {"abc": 1}),
    ({"pattern": "^[a-z]+$"}, "abc\n"),  # ECMA `$`: the very end only
    ({"pattern": "^\\d+$"}, "١٢"),  # ECMA `\d`: ASCII digits only
    ({"dependentRequired": {"a": ["b"]}}, {"a": 1}),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 3),
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, 3),
    ({"anyOf": [{"type": "string"}, {"type": "null"}]}, 3),
    ({"not": {"const": "a"}}, "a"),
    ({"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}, {"c": 1}),
    ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"a": 1}),
    ({"$defs": {"n": {"type": "integer"}}, "items": {"$ref": "#/$defs/n"}}, [1, "2"]),
    ({"minProperties": 1, "maxProperties": 1}, {}),
    ({"minLength": 2}, "é"),
])
def test_corners_agree_with_jsonschema(schema: dict[str, Any], instance: Any) -> None:
    quick = QuickSchema(schemas._translate(schema, {}))
    assert quick.supported
    assert quick.verdict(instance) == Draft202012Validator(schemas._translate(schema, {})).is_valid(instance)


@pytest.mark.parametrize(("schema", "instance"), [
    ({"type": "string"}, Text("a")),  # not plain: jsonschema and this module might see it differently
    ({"type": "integer"}, 1.0),  # floats are never judged here
    ({"type": "object", "properties": {"a": {}}}, {1: "a"}),
    ({"uniqueItems": True}, [[1], [True], [1]]),  # jsonschema's sort-then-neighbours test misses this repeat
    ({"uniqueItems": True}, [[1], [1]]),  # so no repeat of lists or mappings is judged here
    ({"type": "array"}, (1, 2)),
])
def test_what_is_not_plain_gets_no_verdict(schema: dict[str, Any], instance: Any) -> None:
    assert QuickSchema(schema).verdict(instance) is None


@pytest.mark.parametrize("schema", [
    {"unevaluatedProperties": False},
    {"contains": {"type": "string"}},
    {"multipleOf": 2},
    {"minimum": 0.5},
    {"properties": {"a": {"$id": "other", "type": "string"}}},
    {"$ref": "https://example.com/schema"},
    {"$ref": "#/$defs/missing"},
    {"pattern": "("},
    {"type": "float"},
])
def test_a_schema_using_anything_else_is_left_to_jsonschema(schema: dict[str, Any]) -> None:
    quick = QuickSchema(schema)
    assert not quick.supported and quick.verdict({}) is None


def test_a_document_quickly_valid_never_imports_a_validator() -> None:
    schema = {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}
    compiled = schemas._compiled(schema)
    compiled._validator.clear()
    assert schemas.problems(yamlio.load_bytes(b"a: x\n", "f.yaml"), schema) == []
    assert not compiled._validator  # jsonschema was not asked
    [problem] = schemas.problems(yamlio.load_bytes(b"a: 1\n", "f.yaml"), schema)
    assert "quote it" in problem.message and compiled._validator
