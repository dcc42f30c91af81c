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
from itertools import repeat
from typing import Any, Callable, Iterable, Mapping

__all__ = ["QuickSchema"]

Verdict = bool | None

_ANNOTATIONS = frozenset({"$schema", "$defs", "$comment", "title", "description", "examples", "default", "format",
                          "deprecated", "readOnly", "writeOnly", "x-pbem-what"})
_TYPE_OF: dict[str, type] = {"object": dict, "array": list, "string": str, "integer": int,  # exact types:
                             "number": int,  # floats never get this far (not plain here)
                             "boolean": bool, "null": type(None)}  # a bool is no integer
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

    __slots__ = ("root", "supported", "_regex", "_judges")

    def __init__(self, schema: Any) -> None:
        self.root = schema
        self._regex: dict[str, re.Pattern[str]] = {}
        # each schema node's judge, made on first use: (the node, kept so its id stays its own; the judge)
        self._judges: dict[int, tuple[Any, Judge]] = {}
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
            return self._judge(self.root)(instance)
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
    # Each schema node is made once into a judge: a function of the instance that runs the node's
    # keywords in the schema's order, stopping at the first False, exactly as reading the schema at
    # every check did, without looking each keyword up again.

    def _judge(self, schema: Any) -> Judge:
        found = self._judges.get(id(schema))
        if found is not None:
            return found[1]
        judge = self._made(schema)
        self._judges[id(schema)] = (schema, judge)
        return judge

    def _made(self, schema: Any) -> Judge:
        if schema is True:
            return _yes
        if schema is False:
            return _no
        # keywords not in _KEYWORDS are annotations (the schema was checked for everything else);
        # those whose verdict is always True ($id, then, else) are left out
        checks = tuple(made for keyword, rule in schema.items()
                       if (make := _KEYWORDS.get(keyword)) is not None and (made := make(self, rule, schema)) is not None)

        def judge(value: Any) -> Verdict:
            if type(value) not in _PLAIN:
                raise _Unsure
            unsure = False
            for check in checks:  # `_every`, written out: this loop runs for every value checked
                outcome = check(value)
                if outcome is False:
                    return False
                if outcome is None:
                    unsure = True
            return None if unsure else True

        return judge


Judge = Callable[[Any], Verdict]


def _yes(value: Any) -> Verdict:
    return True


def _no(value: Any) -> Verdict:
    return False


def _every(pairs: Iterable[tuple[Judge, Any]]) -> Verdict:
    """False as soon as one judge says False; else None if one was unsure; else True."""
    unsure = False
    for judge, value in pairs:
        outcome = judge(value)
        if outcome is False:
            return False
        if outcome is None:
            unsure = True
    return None if unsure else True


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
    return type(names) is list and bool(names) and all(type(n) is str and n in _TYPE_OF for n in names)


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


# --- keywords: each made from (quick, its value, the schema holding it) into a check of the instance,
# or None when its verdict is always True. Each check gives what jsonschema's keyword would.

Maker = Callable[[QuickSchema, Any, Mapping[str, Any]], "Judge | None"]


def _string_keys(value: dict[Any, Any]) -> None:
    for key in value:
        if type(key) is not str:
            raise _Unsure


def _type(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    allowed = frozenset(_TYPE_OF[name] for name in ([rule] if type(rule) is str else rule))
    return lambda value: type(value) in allowed


def _enum(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    keys = frozenset(_key(item) for item in rule)
    return lambda value: _key(value) in keys


def _const(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    key = _key(rule)
    return lambda value: bool(_key(value) == key)


def _properties(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    subs = tuple((name, quick._judge(sub)) for name, sub in rule.items())

    def check(value: Any) -> Verdict:
        if type(value) is not dict:
            return True
        _string_keys(value)
        return _every((judge, value[name]) for name, judge in subs if name in value)
    return check


def _pattern_properties(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    subs = tuple((quick._pattern(pattern), quick._judge(sub)) for pattern, sub in rule.items())

    def check(value: Any) -> Verdict:
        if type(value) is not dict:
            return True
        _string_keys(value)
        return _every([(judge, item) for pattern, judge in subs for key, item in value.items() if pattern.search(key)])
    return check


def _additional_properties(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    named = schema.get("properties", {})
    patterns = tuple(quick._pattern(p) for p in schema.get("patternProperties", {}))
    judge = quick._judge(rule) if type(rule) is dict else None
    allowed = bool(rule)

    def check(value: Any) -> Verdict:
        if type(value) is not dict:
            return True
        _string_keys(value)
        extras = [key for key in value if key not in named and not any(p.search(key) for p in patterns)]
        if judge is not None:
            return _every((judge, value[key]) for key in extras)
        return allowed or not extras
    return check


def _property_names(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    judge = quick._judge(rule)

    def check(value: Any) -> Verdict:
        if type(value) is not dict:
            return True
        _string_keys(value)
        return _every((judge, key) for key in value)
    return check


def _required(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    names = tuple(rule)
    return lambda value: type(value) is not dict or all(name in value for name in names)


def _min_properties(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not dict or len(value) >= rule


def _max_properties(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not dict or len(value) <= rule


def _dependent_required(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    def check(value: Any) -> Verdict:
        if type(value) is not dict:
            return True
        return all(all(need in value for need in needs) for name, needs in rule.items() if name in value)
    return check


def _items(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    prefix = len(schema.get("prefixItems", []))
    judge = quick._judge(rule)

    def check(value: Any) -> Verdict:
        if type(value) is not list or len(value) <= prefix:
            return True
        if rule is False:
            return False
        return _every((judge, item) for item in value[prefix:])
    return check


def _prefix_items(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    judges = tuple(quick._judge(sub) for sub in rule)
    return lambda value: True if type(value) is not list else _every(zip(judges, value))


def _min_items(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not list or len(value) >= rule


def _max_items(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not list or len(value) <= rule


def _unique_items(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge | None:
    if not rule:
        return None

    def check(value: Any) -> Verdict:
        if type(value) is not list:
            return True
        keys = [_key(item) for item in value]
        if len(set(keys)) == len(keys):
            return True
        # jsonschema's own test (sorting, then neighbours) can miss a repeat among lists or mappings
        # holding true/false: a repeat is certain for it only among scalars.
        return False if all(isinstance(item, _PLAIN_SCALARS) for item in value) else None
    return check


def _min_length(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not str or len(value) >= rule


def _max_length(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not str or len(value) <= rule


def _pattern(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    search = quick._pattern(rule).search
    return lambda value: type(value) is not str or search(value) is not None


def _minimum(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not int or value >= rule


def _maximum(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    return lambda value: type(value) is not int or value <= rule


def _ref(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    target = quick._target(rule)
    return lambda value: quick._judge(target)(value)  # looked up on use: a schema may refer to itself


def _all_of(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    judges = tuple(quick._judge(sub) for sub in rule)
    return lambda value: _every(zip(judges, repeat(value)))


def _any_of(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    judges = tuple(quick._judge(sub) for sub in rule)

    def check(value: Any) -> Verdict:
        unsure = False
        for judge in judges:
            outcome = judge(value)
            if outcome is True:
                return True
            if outcome is None:
                unsure = True
        return None if unsure else False
    return check


def _one_of(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    judges = tuple(quick._judge(sub) for sub in rule)

    def check(value: Any) -> Verdict:
        matched, unsure = 0, False
        for judge in judges:
            outcome = judge(value)
            if outcome is True:
                matched += 1
                if matched > 1:
                    return False
            elif outcome is None:
                unsure = True
        if unsure:
            return None
        return matched == 1
    return check


def _not(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    judge = quick._judge(rule)

    def check(value: Any) -> Verdict:
        outcome = judge(value)
        return None if outcome is None else not outcome
    return check


def _if(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> Judge:
    judge = quick._judge(rule)
    then = quick._judge(schema["then"]) if "then" in schema else _yes
    otherwise = quick._judge(schema["else"]) if "else" in schema else _yes

    def check(value: Any) -> Verdict:
        outcome = judge(value)
        if outcome is None:
            return None
        return then(value) if outcome else otherwise(value)
    return check


def _always(quick: QuickSchema, rule: Any, schema: Mapping[str, Any]) -> None:
    return None  # $id (the root's base: `$ref`s here are within this one document); then, else (through `if`)


_KEYWORDS: dict[str, Maker] = {
    "$id": _always,
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
    "then": _always,
    "else": _always,
}
assert set(_KEYWORDS) == set(_SCHEMA_RULES)
