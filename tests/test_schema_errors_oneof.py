"""Which `oneOf` alternative a schema problem is explained by: the one whose required keys the mapping holds.

A mapping with a wrong value in it (`{move: r, mode: fly}`) was explained by another alternative
that happened to score better (one without an `enum` error: `set_up`), so the writer read that
`move` and `mode` are unknown keys instead of what is wrong: the mode.
"""

from __future__ import annotations

from typing import Any

from pbem.core import schemas, yamlio
from pbem.core.ruleset import get


def messages(text: bytes, schema: dict[str, Any]) -> list[str]:
    return [str(problem) for problem in schemas.problems(yamlio.load_bytes(text, "orders.yaml"), schema)]


def test_a_wtj1916_move_with_a_wrong_mode_is_told_as_a_bad_mode() -> None:
    schema = get("wtj1916").order_schema("british-move")
    said = messages(b"- move: r\n  mode: fly\n  to: [100, 200]\n", schema)
    assert said == ['orders.yaml:2:9: at [0].mode: the string "fly" is not allowed here; allowed values: "walk", '
                    '"rush"']


def test_the_branch_named_by_its_required_key_wins_over_fewer_errors() -> None:
    schema = {"type": "array", "items": {"oneOf": [
        {"type": "object", "additionalProperties": False, "required": ["move"],
         "properties": {"move": {"type": "string"}, "mode": {"enum": ["walk", "rush"]}}},
        {"type": "object", "additionalProperties": False, "required": ["set_up"],
         "properties": {"set_up": {"type": "string"}}},
    ]}}
    said = messages(b"- move: r\n  mode: fly\n", schema)
    assert len(said) == 1 and "at [0].mode" in said[0] and '"fly" is not allowed here' in said[0]
    assert not any("set_up" in line or "unknown key" in line for line in said)
    # the other way round: a set-up order with a stray key is a set-up order's problem
    said = messages(b"- set_up: r\n  mode: walk\n", schema)
    assert len(said) == 1 and 'unknown key "mode"' in said[0] and "allowed keys: set_up" in said[0]


def test_a_mapping_naming_no_alternative_still_gets_the_tags_listed() -> None:
    schema = {"type": "array", "items": {"oneOf": [
        {"type": "object", "required": ["move"], "properties": {"move": {"type": "string"}}},
        {"type": "object", "required": ["set_up"], "properties": {"set_up": {"type": "string"}}},
    ]}}
    [said] = messages(b"- mvoe: r\n", schema)
    assert 'unknown key "mvoe": did you mean "move"?' in said
