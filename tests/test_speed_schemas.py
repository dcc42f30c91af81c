"""The schema shortcuts of issue #17 answer exactly as jsonschema does."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from pbem.core import schemas, yamlio

KINDS = {
    "oneOf": [
        {"type": "object", "additionalProperties": False, "required": ["move"],
         "properties": {"move": {"type": "string"}, "path": {"type": "array"}}},
        {"type": "object", "additionalProperties": False, "required": ["fire"],
         "properties": {"fire": {"type": "string"}, "at": {"type": "string"}}},
        {"type": "object", "required": ["fire", "at"]},  # overlaps the second: both can match
        {"type": "string"},
    ]
}
SCHEMA = {"type": "array", "items": KINDS}

INSTANCES: list[Any] = [
    [{"move": "a1"}],  # one branch
    [{"fire": "a1"}],  # second only (third lacks `at`)
    [{"fire": "a1", "at": "b2"}],  # second and third: oneOf fails
    [{"move": 3}],  # the only candidate fails
    [{"move": "a1", "fire": "x"}],  # two candidates, none fits (additionalProperties)
    [{}],  # no candidate at all
    ["text"],  # not a mapping
    [5],
    [{"move": "a", "path": []}, {"fire": "b"}, "c"],
]


def _messages(validator: Any, instance: Any) -> list[tuple[str, list[Any]]]:
    return sorted((error.message, list(error.path)) for error in validator.iter_errors(instance))


@pytest.mark.parametrize("instance", INSTANCES)
def test_one_of_shortcut_gives_jsonschema_s_answer(instance: Any) -> None:
    ours = schemas._compiled(SCHEMA).validator
    theirs = Draft202012Validator(SCHEMA)
    assert ours.is_valid(instance) == theirs.is_valid(instance)
    assert _messages(ours, instance) == _messages(theirs, instance)


def test_a_valid_document_is_remembered_an_invalid_one_is_not() -> None:
    schemas.forget_results()
    good = yamlio.load_bytes(b"- move: a1\n", "good.yaml")
    bad = yamlio.load_bytes(b"- fire: a1\n  at: b2\n", "bad.yaml")
    assert schemas.problems(good, SCHEMA) == [] and schemas.problems(good, dict(SCHEMA)) == []
    first = schemas.problems(bad, SCHEMA)
    assert first and schemas.problems(bad, dict(SCHEMA)) == first
    # equal in Python, not the same schema: True is not 1
    strict = {"type": "array", "items": {"const": True}}
    loose = {"type": "array", "items": {"const": 1}}
    one = yamlio.load_bytes(b"- 1\n", "one.yaml")
    assert schemas.problems(one, loose) == []
    assert schemas.problems(one, strict) != []
