"""JSON Schema validation with positions (pbem.core.schemas)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core import schemas
from pbem.core.errors import SchemaError
from pbem.core.yamlio import Document, load_bytes

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "game", "seq", "orders"],
    "properties": {
        "kind": {"enum": ["orders", "decision-reply"]},
        "game": {"$ref": "#/$defs/game_id"},
        "seq": {"type": "integer", "minimum": 1},
        "side": {"type": "string"},
        "orders": {
            "type": "array",
            "maxItems": 4,
            "items": {
                "oneOf": [
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["type", "unit", "to"],
                        "properties": {
                            "type": {"const": "move"},
                            "unit": {"type": "string"},
                            "to": {"type": "string", "pattern": "^[0-9]{4}$"},
                        },
                    },
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["type", "unit", "target"],
                        "properties": {
                            "type": {"const": "fire"},
                            "unit": {"type": "string"},
                            "target": {"type": "string"},
                        },
                    },
                ]
            },
        },
        "tags": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
        "units": {"type": "array", "uniqueItems": True},
        "hexes": {
            "type": "object",
            "patternProperties": {"^[0-9]{4}$": {"type": "string"}},
            "additionalProperties": False,
        },
    },
    "$defs": {"game_id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{2,63}$"}},
}


def doc(text: str) -> Document:
    return load_bytes(text.encode("utf-8"), "orders.yaml")


def where(problems: list[Any]) -> list[tuple[int | None, int | None]]:
    return [(p.line, p.column) for p in problems]


GOOD = """\
kind: orders
game: test-game
seq: 2
orders:
- type: move
  unit: A1
  to: '2717'
- {type: fire, unit: B2, target: C3}
"""


def test_valid_document_passes() -> None:
    schemas.check_schema(SCHEMA)
    assert schemas.problems(doc(GOOD), SCHEMA) == []
    schemas.validate(doc(GOOD), SCHEMA)


def test_several_errors_at_once_sorted_with_positions() -> None:
    text = """\
kind: order
game: Bad_Id
seq: 0
orders:
- type: move
  unit: 7
  to: '2717'
colour: red
"""
    with pytest.raises(SchemaError) as info:
        schemas.validate(doc(text), SCHEMA)
    found = info.value.problems
    assert where(found) == [(1, 7), (2, 7), (3, 6), (6, 9), (8, 1)]
    assert [p.path for p in found] == [("kind",), ("game",), ("seq",), ("orders", 0, "unit"), ("colour",)]
    assert all(p.file == "orders.yaml" for p in found)
    assert str(info.value).splitlines()[0].startswith("orders.yaml:1:7: at kind:")


def test_unknown_top_level_key_lists_allowed_keys() -> None:
    [problem] = schemas.problems(doc(GOOD + "colour: red\n"), SCHEMA)
    assert (problem.line, problem.column, problem.path) == (9, 1, ("colour",))
    assert 'unknown key "colour"' in problem.message
    assert "allowed keys: kind, game, seq, side, orders, tags, units, hexes" in problem.message


def test_unknown_key_in_nested_mapping_reported_at_the_key() -> None:
    text = GOOD.replace("  unit: A1\n", "  unit: A1\n  speed: 3\n")
    [problem] = schemas.problems(doc(text), SCHEMA)
    assert (problem.line, problem.column) == (7, 3)
    assert 'unknown key "speed"' in problem.message and "type, unit, to" in problem.message


def test_enum_lists_allowed_values() -> None:
    [problem] = schemas.problems(doc(GOOD.replace("kind: orders", "kind: order")), SCHEMA)
    assert (problem.line, problem.column) == (1, 7)
    assert '"order"' in problem.message and 'allowed values: "orders", "decision-reply"' in problem.message


def test_missing_required_key_named() -> None:
    [problem] = schemas.problems(doc(GOOD.replace("seq: 2\n", "")), SCHEMA)
    assert (problem.line, problem.column, problem.path) == (1, 1, ())
    assert problem.message == 'missing required key "seq"'


def test_each_missing_key_reported_once() -> None:
    found = schemas.problems(doc("kind: orders\n"), SCHEMA)
    assert [p.message for p in found] == [f'missing required key "{k}"' for k in ("game", "seq", "orders")]


def test_one_of_discriminator_names_the_allowed_kinds() -> None:
    text = GOOD.replace("- {type: fire,", "- {type: jump,")
    [problem] = schemas.problems(doc(text), SCHEMA)
    assert (problem.line, problem.column, problem.path) == (8, 10, ("orders", 1, "type"))
    assert 'allowed values: "move", "fire"' in problem.message


def test_one_of_reports_errors_inside_the_meant_branch() -> None:
    text = GOOD.replace("  to: '2717'\n", "  to: 2717\n  via: x\n")
    found = schemas.problems(doc(text), SCHEMA)
    assert where(found) == [(7, 7), (8, 3)]
    assert 'quote it: "2717"' in found[0].message
    assert 'unknown key "via"' in found[1].message


def test_one_of_without_a_clear_branch_lists_alternatives() -> None:
    [problem] = schemas.problems(doc(GOOD + "- 5\n"), SCHEMA)
    assert (problem.line, problem.column) == (9, 3)
    assert "none of the allowed forms" in problem.message and "a mapping" in problem.message


def test_type_and_bounds_messages() -> None:
    found = schemas.problems(doc(GOOD.replace("seq: 2", "seq: '2'")), SCHEMA)
    assert [p.message for p in found] == ['expected a whole number, got the string "2"']
    many = GOOD + "".join(f"- {{type: fire, unit: U{i}, target: T}}\n" for i in range(3))
    [problem] = schemas.problems(doc(many), SCHEMA)
    assert problem.path == ("orders",) and "at most 4 items (has 5)" in problem.message


def test_patterns_anchor_at_the_true_end() -> None:
    # Python's `$` also matches before a final newline; JSON Schema's must not.
    [problem] = schemas.problems(doc(GOOD.replace("game: test-game", 'game: "test-game\\n"')), SCHEMA)
    assert problem.path == ("game",) and "expected form" in problem.message
    # the form in words, found by the schema's own pattern (not the Python translation of it)
    assert problem.message.endswith("expected form: 3 to 64 lower-case letters, digits and hyphens, starting with a "
                                    "letter or digit"), problem.message


def test_pattern_digits_are_ascii() -> None:
    found = schemas.problems(doc(GOOD.replace("to: '2717'", "to: '٢٧١٧'")), SCHEMA)
    assert [p.path for p in found] == [("orders", 0, "to")]


def test_pattern_properties_keys_anchor_at_the_true_end() -> None:
    assert schemas.problems(doc(GOOD + "hexes: {'2717': clear}\n"), SCHEMA) == []
    [problem] = schemas.problems(doc(GOOD + 'hexes: {"2717\\n": clear}\n'), SCHEMA)
    assert 'unknown key "2717\\n"' in problem.message and "keys matching ^[0-9]{4}$" in problem.message


def test_property_names_reported_at_the_key() -> None:
    [problem] = schemas.problems(doc(GOOD + "tags:\n  ok: 1\n  Bad: 2\n"), SCHEMA)
    assert (problem.line, problem.column, problem.path) == (11, 3, ("tags", "Bad"))
    assert 'key "Bad"' in problem.message


def test_unique_items_reported_at_the_repeat() -> None:
    [problem] = schemas.problems(doc(GOOD + "units: [a, b, a]\n"), SCHEMA)
    assert (problem.line, problem.column, problem.path) == (9, 15, ("units", 2))
    assert "more than once" in problem.message


def test_additional_properties_lists_only_its_own_keys() -> None:
    schema = {"allOf": [{"properties": {"a": {}}}], "properties": {"b": {}}, "additionalProperties": False}
    [problem] = schemas.problems(doc("b: 1\nc: 2\n"), schema)
    assert problem.message == 'unknown key "c"; allowed keys: b'


def test_unevaluated_properties() -> None:
    schema = {
        "type": "object",
        "allOf": [{"properties": {"a": {"type": "integer"}}}],
        "properties": {"b": {"type": "integer"}},
        "unevaluatedProperties": False,
    }
    [problem] = schemas.problems(doc("a: 1\nb: 2\nc: 3\n"), schema)
    assert (problem.line, problem.column) == (3, 1)
    assert 'unknown key "c"' in problem.message and "b, a" in problem.message


def test_false_subschemas_are_located() -> None:
    schema = {"properties": {"old": False, "pair": {"prefixItems": [True, False]}, "one": {"prefixItems": [True], "items": False}}}
    found = schemas.problems(doc("a: 1\nold:\n  x: 1\npair: [1, 2]\none: [1, 2]\n"), schema)
    assert [(p.line, p.column, p.path) for p in found] == [(2, 1, ("old",)), (4, 11, ("pair", 1)), (5, 6, ("one",))]
    assert found[0].message == 'key "old" is not allowed here'
    assert "at most 1 item (has 2)" in found[2].message


def test_document_without_marks_still_reports() -> None:
    [problem] = schemas.problems(Document({"kind": "x"}, "made.yaml", {}), {"properties": {"kind": {"const": "y"}}})
    assert (problem.file, problem.line, problem.path) == ("made.yaml", None, ("kind",))
    assert 'must be "y"' in problem.message


def test_check_schema_refuses_invalid_schemas() -> None:
    with pytest.raises(SchemaError, match="invalid JSON Schema"):
        schemas.check_schema({"type": "strin"})
    with pytest.raises(SchemaError, match="invalid JSON Schema"):
        schemas.check_schema({"properties": {"a": {"minimum": "zero"}}})
    with pytest.raises(SchemaError, match="pattern"):
        schemas.check_schema({"pattern": "([a-z]"})
    with pytest.raises(SchemaError, match=r"\$schema"):
        schemas.check_schema({"$schema": "http://json-schema.org/draft-07/schema#"})
    schemas.check_schema({"$schema": "https://json-schema.org/draft/2020-12/schema#", "type": "object"})


def test_ecma_regex_translation() -> None:
    assert schemas._ecma_regex("^a$") == r"(?a:^a\Z)"
    assert schemas._ecma_regex(r"^\$[$]$") == r"(?a:^\$[$]\Z)"
    assert schemas._ecma_regex("[]$]x") == r"(?a:[]$]x)"
