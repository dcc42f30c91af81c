"""A quick, exact verdict on plain documents against the JSON Schema keywords pbem's schemas use.

jsonschema is slow to import (about 80 ms, more than a one-shot command's whole budget) and slow
to run; yet almost every document pbem checks is valid. `QuickSchema.verdict` answers

- True: the document is valid: jsonschema (draft 2020-12, no format assertion) would find no error;
- False: it is not: jsonschema would find at least one;
- None: not sure (a keyword, value or type outside what is implemented here).

`pbem.core.schemas` takes True as the answer and asks jsonschema for everything else, so every
error message still comes from jsonschema. The keywords implemented follow jsonschema 4's own
code (`jsonschema._keywords`) case by case: each keyword applies only to the JSON type it is about
(a bool is neither an integer nor a number), `enum`, `const` and `uniqueItems` compare as JSON
does (true is not 1). A schema using anything else (unevaluatedProperties, contains,
multipleOf, an `$id` below the root, a `$ref` other than `#` or `#/$defs/NAME`, ...) is not
judged here at all. Every value a keyword looks at must be plain (dict with str keys, list, str,
int, bool, None: exact types, no subclass); any other makes the verdict None. Values no keyword
looks at are not looked at, as in jsonschema. `tests/test_speed_quickschema.py` compares verdicts with
jsonschema on every file of the recorded games and on mutations of them.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

__all__ = ["QuickSchema"]

Verdict = bool | None

_ANNOTATIONS = frozenset({"$schema", "$defs", "$comment", "title", "description", "examples", "default", "format",
                          "deprecated", "readOnly", "writeOnly", "x-pbem-what"})
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) is int,  # floats never get this far (not plain here)
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
}
_PLAIN_SCALARS = (str, int, bool, type(None))
_PLAIN = frozenset({str, int, bool, type(None), dict, list})  # exact types: a str subclass is not judged here
_DEF_REF = re.compile(r"#/\$defs/([A-Za-z0-9_.-]+)")


def _is_str_list(value: Any) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _is_bound(value: Any) -> bool:
    return type(value) is int


class _Unsupported(Exception):
    """The schema uses something not implemented here: no verdict for any document."""


class _Unsure(Exception):
    """This document holds something not judged here: no verdict for it."""


def _key(value: Any) -> Any:
    """A hashable key equal for two plain values exactly when JSON Schema calls them equal."""
    kind = type(value)
    if kind is bool:
        return ("b", value)
    if kind is int:
        return ("i", value)
    if kind is str:
        return ("s", value)
    if value is None:
        return ("n",)
    if kind is list:
        return ("l", tuple(_key(item) for item in value))
    if kind is dict:
        if not all(type(k) is str for k in value):
            raise _Unsure
        return ("d", frozenset((k, _key(v)) for k, v in value.items()))
    raise _Unsure


class QuickSchema:
    """One (already ECMA-translated) schema, checked once for what it uses."""

    __slots__ = ("root", "supported", "_regex")

    def __init__(self, schema: Any) -> None:
        self.root = schema
        self._regex: dict[str, re.Pattern[str]] = {}
        try:
            self._check_schema(schema, top=True, depth=0)
            self.supported = True
        except (_Unsupported, re.error, RecursionError):
            self.supported = False

    def verdict(self, instance: Any) -> Verdict:
        """True if valid, False if not, None if this module cannot tell (see the module's text)."""
        if not self.supported:
            return None
        try:
            return self._valid(self.root, instance)
        except (_Unsure, RecursionError):
            return None

    # --- what a schema may use --------------------------------------------------------------------

    def _check_schema(self, schema: Any, *, top: bool, depth: int) -> None:
        if type(schema) is bool:
            return
        if type(schema) is not dict or depth > 200:
            raise _Unsupported
        for keyword, value in schema.items():
            if keyword in _ANNOTATIONS:
                if keyword == "$defs":
                    if type(value) is not dict:
                        raise _Unsupported
                    for sub in value.values():
                        self._check_schema(sub, top=False, depth=depth + 1)
                continue
            check = _SCHEMA_RULES.get(keyword)
            if check is None or (keyword == "$id" and not top):
                raise _Unsupported
            for sub in check(self, value):
                self._check_schema(sub, top=False, depth=depth + 1)

    def _pattern(self, pattern: str) -> re.Pattern[str]:
        compiled = self._regex.get(pattern)
        if compiled is None:
            compiled = self._regex[pattern] = re.compile(pattern)
        return compiled

    def _target(self, ref: str) -> Any:
        if ref == "#":
            return self.root
        match = _DEF_REF.fullmatch(ref)
        defs = self.root.get("$defs") if type(self.root) is dict else None
        if match is None or type(defs) is not dict or match.group(1) not in defs:
            raise _Unsupported
        return defs[match.group(1)]

    # --- the verdict --------------------------------------------------------------------------------

    def _valid(self, schema: Any, value: Any) -> Verdict:
        if schema is True:
            return True
        if schema is False:
            return False
        if type(value) not in _PLAIN:
            raise _Unsure
        # keywords not in _KEYWORDS are annotations (the schema was checked for everything else)
        return _first(False, (judge(self, rule, value, schema) for keyword, rule in schema.items()
                              if (judge := _KEYWORDS.get(keyword)) is not None))

    def _all(self, pairs: list[tuple[Any, Any]]) -> Verdict:
        return _first(False, (self._valid(schema, value) for schema, value in pairs))


def _first(decisive: bool, outcomes: Iterable[Verdict]) -> Verdict:
    """`decisive` as soon as one outcome is; else None if any is unsure; else the other answer.

    With False: every one must hold (unknown if some are unknown); with True: one must hold.
    """
    unsure = False
    for outcome in outcomes:
        if outcome is decisive:
            return decisive
        if outcome is None:
            unsure = True
    return None if unsure else not decisive


def _each_value(quick: QuickSchema, value: Any) -> list[Any]:
    if type(value) is not dict:
        raise _Unsupported
    return list(value.values())


def _patterns(quick: QuickSchema, value: Any) -> list[Any]:
    if type(value) is not dict:
        raise _Unsupported
    for pattern in value:
        quick._pattern(pattern)
    return list(value.values())


def _one(quick: QuickSchema, value: Any) -> list[Any]:
    return [value]


def _some(quick: QuickSchema, value: Any) -> list[Any]:
    if type(value) is not list or not value:
        raise _Unsupported
    return list(value)


def _leaf(test: Callable[[Any], bool]) -> Callable[[QuickSchema, Any], list[Any]]:
    def check(quick: QuickSchema, value: Any) -> list[Any]:
        if not test(value):
            raise _Unsupported
        return []
    return check


def _ref_rule(quick: QuickSchema, value: Any) -> list[Any]:
    if type(value) is not str:
        raise _Unsupported
    quick._target(value)
    return []  # the target is checked where it lives ($defs or the root)


def _pattern_rule(quick: QuickSchema, value: Any) -> list[Any]:
    if type(value) is not str:
        raise _Unsupported
    quick._pattern(value)
    return []


def _type_rule(value: Any) -> bool:
    names = [value] if type(value) is str else value
    return type(names) is list and bool(names) and all(type(n) is str and n in _TYPES for n in names)


def _plain(value: Any) -> bool:
    try:
        _key(value)
        return True
    except _Unsure:
        return False


_SCHEMA_RULES: dict[str, Callable[[QuickSchema, Any], list[Any]]] = {
    "$id": _leaf(lambda v: type(v) is str),
    "type": _leaf(_type_rule),
    "enum": _leaf(lambda v: type(v) is list and all(_plain(item) for item in v)),
    "const": _leaf(_plain),
    "properties": _each_value,
    "patternProperties": _patterns,
    "additionalProperties": _one,
    "propertyNames": _one,
    "required": _leaf(_is_str_list),
    "minProperties": _leaf(_is_count),
    "maxProperties": _leaf(_is_count),
    "dependentRequired": _leaf(lambda v: type(v) is dict and all(_is_str_list(d) for d in v.values())),
    "items": _one,
    "prefixItems": _some,
    "minItems": _leaf(_is_count),
    "maxItems": _leaf(_is_count),
    "uniqueItems": _leaf(lambda v: type(v) is bool),
    "minLength": _leaf(_is_count),
    "maxLength": _leaf(_is_count),
    "pattern": _pattern_rule,
    "minimum": _leaf(_is_bound),
    "maximum": _leaf(_is_bound),
    "$ref": _ref_rule,
    "allOf": _some,
    "anyOf": _some,
    "oneOf": _some,
    "not": _one,
    "if": _one,
    "then": _one,
    "else": _one,
}


# --- keywords: each (quick, its value, the instance, the schema holding it) -> verdict ---------------


def _type(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    names = [rule] if type(rule) is str else rule
    return any(_TYPES[name](value) for name in names)


def _enum(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    mine = _key(value)
    return any(_key(item) == mine for item in rule)


def _const(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return bool(_key(value) == _key(rule))


def _string_keys(value: dict[Any, Any]) -> None:
    for key in value:
        if type(key) is not str:
            raise _Unsure


def _properties(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if type(value) is not dict:
        return True
    _string_keys(value)
    return quick._all([(sub, value[name]) for name, sub in rule.items() if name in value])


def _pattern_properties(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if type(value) is not dict:
        return True
    _string_keys(value)
    return quick._all([(sub, item) for pattern, sub in rule.items() for key, item in value.items()
                       if quick._pattern(pattern).search(key)])


def _additional_properties(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if type(value) is not dict:
        return True
    _string_keys(value)
    named = schema.get("properties", {})
    patterns = [quick._pattern(p) for p in schema.get("patternProperties", {})]
    extras = [key for key in value if key not in named and not any(p.search(key) for p in patterns)]
    if type(rule) is dict:
        return quick._all([(rule, value[key]) for key in extras])
    return bool(rule) or not extras


def _property_names(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if type(value) is not dict:
        return True
    _string_keys(value)
    return quick._all([(rule, key) for key in value])


def _required(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not dict or all(name in value for name in rule)


def _min_properties(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not dict or len(value) >= rule


def _max_properties(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not dict or len(value) <= rule


def _dependent_required(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if type(value) is not dict:
        return True
    return all(all(need in value for need in needs) for name, needs in rule.items() if name in value)


def _items(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if type(value) is not list:
        return True
    prefix = len(schema.get("prefixItems", []))
    if len(value) <= prefix:
        return True
    if rule is False:
        return False
    return quick._all([(rule, item) for item in value[prefix:]])


def _prefix_items(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if type(value) is not list:
        return True
    return quick._all(list(zip(rule, value)))


def _min_items(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not list or len(value) >= rule


def _max_items(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not list or len(value) <= rule


def _unique_items(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    if not rule or type(value) is not list:
        return True
    keys = [_key(item) for item in value]
    if len(set(keys)) == len(keys):
        return True
    # jsonschema's own test (sorting, then neighbours) can miss a repeat among lists or mappings
    # holding true/false: a repeat is certain for it only among scalars.
    return False if all(isinstance(item, _PLAIN_SCALARS) for item in value) else None


def _min_length(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not str or len(value) >= rule


def _max_length(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not str or len(value) <= rule


def _pattern(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not str or quick._pattern(rule).search(value) is not None


def _minimum(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not int or value >= rule


def _maximum(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return type(value) is not int or value <= rule


def _ref(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return quick._valid(quick._target(rule), value)


def _all_of(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return quick._all([(sub, value) for sub in rule])


def _any_of(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return _first(True, (quick._valid(sub, value) for sub in rule))


def _one_of(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    matched, unsure = 0, False
    for sub in rule:
        outcome = quick._valid(sub, value)
        if outcome is True:
            matched += 1
            if matched > 1:
                return False
        elif outcome is None:
            unsure = True
    if unsure:
        return None
    return matched == 1


def _not(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    outcome = quick._valid(rule, value)
    return None if outcome is None else not outcome


def _if(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    outcome = quick._valid(rule, value)
    if outcome is None:
        return None
    branch = "then" if outcome else "else"
    return quick._valid(schema[branch], value) if branch in schema else True


def _by_if(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return True  # `then` and `else` act only through `if`


def _id(quick: QuickSchema, rule: Any, value: Any, schema: Mapping[str, Any]) -> Verdict:
    return True  # the root's base: `$ref`s here are within this one document


_KEYWORDS: dict[str, Callable[[QuickSchema, Any, Any, Mapping[str, Any]], Verdict]] = {
    "$id": _id,
    "type": _type,
    "enum": _enum,
    "const": _const,
    "properties": _properties,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "propertyNames": _property_names,
    "required": _required,
    "minProperties": _min_properties,
    "maxProperties": _max_properties,
    "dependentRequired": _dependent_required,
    "items": _items,
    "prefixItems": _prefix_items,
    "minItems": _min_items,
    "maxItems": _max_items,
    "uniqueItems": _unique_items,
    "minLength": _min_length,
    "maxLength": _max_length,
    "pattern": _pattern,
    "minimum": _minimum,
    "maximum": _maximum,
    "$ref": _ref,
    "allOf": _all_of,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "not": _not,
    "if": _if,
    "then": _by_if,
    "else": _by_if,
}
assert set(_KEYWORDS) == set(_SCHEMA_RULES)
