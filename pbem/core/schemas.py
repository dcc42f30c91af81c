"""JSON Schema (draft 2020-12) validation of loaded YAML documents, with positions.

Game-agnostic machinery: the schemas themselves live elsewhere. Every error becomes one
`Problem` with the file, the line:column of the offending node (from `Document.marks`),
the document path and a plain sentence saying what was expected:

- an unknown key (`additionalProperties` / `unevaluatedProperties` false) is reported at the
  key itself, naming it and listing the allowed keys;
- `enum` / `const` list the allowed values; `required` names the missing key;
- `oneOf` / `anyOf` failures descend into the branch the document most likely meant (the one
  whose `const`/`enum` discriminators and type match), reporting every error in it; when no
  branch stands out, the message lists what each alternative expected.

Regular expressions (`pattern`, `patternProperties` keys) follow JSON Schema's ECMA-262
semantics rather than Python's where they differ in ways that matter for validation: `$`
matches only at the very end (Python's `$` also matches before a final newline, so
`^[a-z]+$` would accept "abc\\n"), and `\\d`, `\\w`, `\\s`, `\\b` are ASCII-only. Schemas must be
self-contained (`$ref` only to `$defs` within the schema); `format` is an annotation only
(not asserted), as draft 2020-12 specifies by default.
"""

from __future__ import annotations

import json
import marshal
import re
from typing import Any, Iterable, Mapping

from pbem.core.errors import DocPath, Problem, SchemaError, format_path
from pbem.core.quickschema import QuickSchema
from pbem.core.yamlio import Document

__all__ = ["MAX_PROBLEMS", "WHAT", "validate", "problems", "check_schema", "closest", "stopped_problem",
           "tagged_union"]

WHAT = "x-pbem-what"
"""An annotation a schema built for one message may carry on a mapping: what the mapping is ("setup order").
Messages about its keys name it: `unknown key "hxe" in a setup order`. jsonschema ignores it."""

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

MAX_PROBLEMS: int = 50
"""Stop checking a document after this many schema problems; a final problem says the rest went unchecked.

A hostile file of a million bad items must not cost a million messages (nor the time and memory to
make them): the first ones already tell the writer what to fix.
"""

# A jsonschema ValidationError. Typed loosely: the stubs declare every attribute
# `Any | Unset`, while errors from `iter_errors` always have them set.
_Error = Any

# --------------------------------------------------------------------------------------
# Regular expressions with ECMA-262 end-of-input and ASCII classes


def _ecma_regex(pattern: str) -> str:
    """Rewrite a JSON Schema regex so Python's `re.search` gives ECMA-262 results.

    Unescaped `$` outside a character class becomes `\\Z` (true end of input) and the
    whole pattern is wrapped in an ASCII-flag group.
    """
    out: list[str] = []
    i, n, in_class = 0, len(pattern), False
    while i < n:
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if char == "]":
                in_class = False
        elif char == "[":
            in_class = True
            out.append(char)
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < n and pattern[i] == "]":  # a literal "]" first in a class
                out.append("]")
                i += 1
            continue
        elif char == "$":
            out.append(r"\Z")
            i += 1
            continue
        out.append(char)
        i += 1
    return "(?a:" + "".join(out) + ")"


_SCHEMA_MAPS = ("properties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONES = (
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
)


def _translate(schema: Any, originals: dict[str, str]) -> Any:
    """A copy of `schema` with every regex rewritten by `_ecma_regex` (originals remembered)."""
    if not isinstance(schema, Mapping):
        return schema

    def regex(pattern: Any) -> Any:
        if not isinstance(pattern, str):
            return pattern
        new = _ecma_regex(pattern)
        originals[new] = pattern
        return new

    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "pattern":
            out[key] = regex(value)
        elif key == "patternProperties" and isinstance(value, Mapping):
            out[key] = {regex(k): _member(v, originals) for k, v in value.items()}
        elif key in _SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {k: _member(v, originals) for k, v in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_member(v, originals) for v in value]
        elif key in _SCHEMA_ONES:
            out[key] = _translate(value, originals)
        else:
            out[key] = value
    return out


_NEVER: dict[str, Any] = {"not": {}}


def _member(schema: Any, originals: dict[str, str]) -> Any:
    """`_translate` for a named or listed subschema; `false` becomes the equivalent `{"not": {}}`.

    jsonschema reports a failing `false` subschema without the instance path (so without a
    position); `{"not": {}}` rejects exactly the same values and keeps the path.
    """
    return dict(_NEVER) if schema is False else _translate(schema, originals)


def _one_of(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterable[Any]:
    """`oneOf` as jsonschema's own, with a shortcut for a mapping that only one branch can fit.

    A branch whose `required` names a key the mapping lacks fails whatever else it says (JSON Schema
    2020-12 validation §6.5.3: `required` fails on any object missing a listed key), so
    only the other branches can match. When exactly one of those matches, `oneOf` holds: no error,
    as jsonschema would find after trying every branch. Anything else (no match, two matches, not
    a mapping) goes to jsonschema's `oneOf`, so every error and its explanation are unchanged.
    Orders are a `oneOf` of their kinds, each requiring its own key: this checks one branch, not all.
    """
    if type(instance) is dict and type(branches) is list:
        matched = 0
        for index, branch in enumerate(branches):
            if isinstance(branch, dict):
                required = branch.get("required")
                if type(required) is list and any(type(k) is str and k not in instance for k in required):
                    continue
            if next(iter(validator.descend(instance, branch, schema_path=index)), None) is None:
                matched += 1
                if matched > 1:
                    break
        if matched == 1:
            return
    from jsonschema import _keywords

    jsonschema_one_of: Any = _keywords.oneOf
    checked: Iterable[Any] = jsonschema_one_of(validator, branches, instance, schema)
    yield from checked


_VALIDATOR_CLASS: list[Any] = []


def _validator_class() -> Any:
    """Draft 2020-12 with our `oneOf`; jsonschema is imported on first need (it costs about 80 ms)."""
    if not _VALIDATOR_CLASS:
        from jsonschema import Draft202012Validator, validators

        extend: Any = validators.extend
        _VALIDATOR_CLASS.append(extend(Draft202012Validator, {"oneOf": _one_of}))
    return _VALIDATOR_CLASS[0]


class _Compiled:
    """A schema made ready: its regexes translated, the quick verdict, jsonschema's validator when asked for."""

    __slots__ = ("schema", "translated", "quick", "_validator", "originals", "text")  # _validator: shared by twins

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        self.originals: dict[str, str] = {}
        self.translated = _translate(schema, self.originals)
        self.quick = QuickSchema(self.translated)
        self._validator: list[Any] = []
        self.text: bytes | str | None = None  # the schema's exact name (`_exact_name`), when `_compiled` keeps it by that

    @property
    def validator(self) -> Any:
        """jsonschema's validator (built, and jsonschema imported, on first use)."""
        if not self._validator:
            self._validator.append(_validator_class()(self.translated))
        return self._validator[0]

    @classmethod
    def again(cls, compiled: "_Compiled", schema: Mapping[str, Any]) -> "_Compiled":
        """The same validator, held for another schema object of the same content."""
        if compiled.schema is schema:
            return compiled
        twin = cls.__new__(cls)
        twin.schema, twin.translated, twin.originals = schema, compiled.translated, compiled.originals
        twin.quick, twin._validator, twin.text = compiled.quick, compiled._validator, compiled.text
        return twin


_CACHE: dict[int, _Compiled] = {}
# Schemas built afresh for each check (an orders envelope with the ruleset's parts) are equal in
# content but not the same object: kept by an exact name of their content too (`_exact_name`),
# which tells apart what == does not (1, 1.0 and True; a list and a tuple): one key, one exact schema.
_BY_TEXT: dict[bytes | str, _Compiled] = {}


def _compiled(schema: Mapping[str, Any]) -> _Compiled:
    found = _CACHE.get(id(schema))
    if found is not None and found.schema is schema:
        return found
    text = _exact_name(schema)
    found = _BY_TEXT.get(text) if text is not None else None
    if found is None:
        found = _Compiled(schema)
        found.text = text
        if text is not None:
            if len(_BY_TEXT) >= 64:
                _BY_TEXT.clear()
            _BY_TEXT[text] = found
    if len(_CACHE) >= 64:
        _CACHE.clear()
    _CACHE[id(schema)] = _Compiled.again(found, schema)
    return _CACHE[id(schema)]


def _exact_name(schema: Mapping[str, Any]) -> bytes | str | None:
    """A key equal for two schemas exactly when they are the same data, types and key order included.

    `marshal` (version 2: no back-references, so sharing inside the schema does not change the
    bytes) writes every value with its exact type and reads back an equal copy, so equal bytes are
    equal schemas; it is several times quicker than `repr`, which names what it refuses (a
    subclass of a plain type, say). None: too deep to name (compiled afresh, and refused there if
    it must be).
    """
    data: Any = schema  # marshal refuses, with ValueError, whatever it cannot write exactly
    try:
        return marshal.dumps(data, 2)
    except (ValueError, RecursionError):
        pass
    try:
        return repr(schema)
    except RecursionError:
        return None


# --------------------------------------------------------------------------------------
# Plain words for values and types

_TYPE_NAMES = {
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "object": "a mapping",
    "array": "a list",
}


def _show(value: Any, limit: int = 60) -> str:
    if isinstance(value, (dict, list)):
        text = "a mapping" if isinstance(value, dict) else "a list"
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null (an empty value)"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {_show(value)}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return _show(value)


def _list_values(values: Iterable[Any], limit: int = 30) -> str:
    shown = [_show(v) for v in values]
    if len(shown) > limit:
        return ", ".join(shown[:limit]) + f", … ({len(shown)} in all)"
    return ", ".join(shown)


def _allowed_keys(schema: Any, originals: Mapping[str, str], *, deep: bool) -> list[str]:
    """Names a mapping may hold under `schema`: its own properties (for additionalProperties),
    or also those of its subschemas (`deep`, for unevaluatedProperties)."""
    names: list[str] = []
    todo = [schema]
    seen = 0
    while todo and seen < (50 if deep else 1):
        seen += 1
        sub = todo.pop(0)
        if not isinstance(sub, Mapping):
            continue
        for name in sub.get("properties", {}) or {}:
            if name not in names:
                names.append(name)
        for pattern in sub.get("patternProperties", {}) or {}:
            label = f"keys matching {originals.get(pattern, pattern)}"
            if label not in names:
                names.append(label)
        for keyword in ("allOf", "anyOf", "oneOf"):
            todo.extend(sub.get(keyword, []) or [])
        for keyword in ("then", "else"):
            if keyword in sub:
                todo.append(sub[keyword])
    return names


# --------------------------------------------------------------------------------------
# Errors -> Problems


def _branches(error: _Error) -> dict[int, list[_Error]]:
    groups: dict[int, list[_Error]] = {}
    for sub in error.context or ():
        index = sub.relative_schema_path[0] if sub.relative_schema_path else 0
        groups.setdefault(int(index), []).append(sub)
    return groups


def _branch_score(error: _Error, index: int, errors: list[_Error]) -> tuple[int, int, int, int]:
    """Lower is likelier the branch the writer meant.

    First, how many of the branch's `required` keys the mapping lacks: a mapping holding `move` meant
    the branch that requires `move`, even when a value in it is wrong (`mode: fly` is not an allowed
    mode of a move, rather than `move` and `mode` being unknown keys of another kind of order).
    Then wrong types (a `const`/`enum` miss on a value of another type counts as one too), then wrong
    `const`/`enum` tags, then the number of errors.
    """
    branches = error.validator_value
    branch = branches[index] if isinstance(branches, list) and 0 <= index < len(branches) else None
    required = branch.get("required") if isinstance(branch, Mapping) else None
    instance = error.instance
    lacking = sum(1 for key in required if key not in instance) \
        if isinstance(required, list) and isinstance(instance, Mapping) else 0
    depth = len(error.absolute_path)
    wrong_type = sum(1 for e in errors if (e.validator == "type" or _tag_of_another_type(e))
                     and len(e.absolute_path) == depth)
    wrong_tag = sum(
        1 for e in errors if e.validator in ("const", "enum") and len(e.absolute_path) <= depth + 1
    )
    return (lacking, wrong_type, wrong_tag, len(errors))


def _tag_of_another_type(error: _Error) -> bool:
    """A `const`/`enum` miss on a value of another type than every allowed one (3100 where "off" is wanted).

    Such a miss is a wrong type too, so a branch wanting a string of another form (a quoted hex) is preferred.
    """
    if error.validator == "const":
        allowed = [error.validator_value]
    elif error.validator == "enum" and isinstance(error.validator_value, list):
        allowed = list(error.validator_value)
    else:
        return False
    return all(type(value) is not type(error.instance) for value in allowed)


def _leaves(error: _Error) -> list[_Error]:
    """The errors worth reporting for one top-level error (descending into oneOf/anyOf)."""
    if not error.context or error.validator not in ("oneOf", "anyOf"):
        if error.context:
            from jsonschema.exceptions import best_match

            best = best_match([error])
            return [best] if best is not None else [error]
        return [error]
    if _discriminator(error) is not None:
        return [error]  # no alternative's tag matches: `_explain` names the allowed tags
    groups = _branches(error)
    scored = sorted((_branch_score(error, index, errs), index) for index, errs in groups.items())
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return [error]  # no branch stands out: the caller lists the alternatives
    chosen = groups[scored[0][1]]
    out: list[_Error] = []
    for sub in chosen:
        out.extend(_leaves(sub))
    return out


def _message_for(error: _Error, originals: Mapping[str, str]) -> str:
    """A plain sentence for an error not handled specially by `_explain`."""
    keyword = error.validator
    value = error.validator_value
    instance = error.instance
    if keyword == "type":
        expected = [value] if isinstance(value, str) else list(value)
        names = " or ".join(_TYPE_NAMES.get(t, t) for t in expected)
        message = f"expected {names}, got {_describe(instance)}"
        if "string" in expected and isinstance(instance, int) and not isinstance(instance, bool):
            message += f': quote it: "{instance}"'
        if "array" in expected:
            from .list_hints import with_list_hint  # what to write where a list was written otherwise

            message = with_list_hint(message, instance, tuple(error.absolute_path))
        return message
    if keyword == "enum":
        return f"{_describe(instance)} is not allowed here; allowed values: {_list_values(value)}"
    if keyword == "const":
        return f"must be {_show(value)}, not {_describe(instance)}"
    if keyword == "pattern":
        from .pattern_words import MISFORMED, form  # (a pattern in a player's words: pbem/core/pattern_words.py)

        return f"{_describe(instance)}{MISFORMED}{form(originals.get(value, value))}"
    if keyword == "minLength":
        return f"must be at least {value} characters long"
    if keyword == "maxLength":
        return f"must be at most {value} characters long"
    if keyword == "minimum":
        return f"must be at least {value}, not {instance}"
    if keyword == "maximum":
        return f"must be at most {value}, not {instance}"
    if keyword == "exclusiveMinimum":
        return f"must be greater than {value}, not {instance}"
    if keyword == "exclusiveMaximum":
        return f"must be less than {value}, not {instance}"
    if keyword == "multipleOf":
        return f"must be a multiple of {value}, not {instance}"
    if keyword == "minItems":
        return f"must have at least {value} item{'s' if value != 1 else ''} (has {len(instance)})"
    if keyword == "maxItems":
        return f"must have at most {value} item{'s' if value != 1 else ''} (has {len(instance)})"
    if keyword == "minProperties":
        return f"must have at least {value} key{'s' if value != 1 else ''} (has {len(instance)})"
    if keyword == "maxProperties":
        return f"must have at most {value} key{'s' if value != 1 else ''} (has {len(instance)})"
    if keyword == "oneOf" and not error.context:
        return "matches more than one of the allowed forms; it must match exactly one"
    if keyword in ("oneOf", "anyOf"):
        seen: list[str] = []
        depth = len(error.absolute_path)
        for _, errs in sorted(_branches(error).items()):
            # summarise each alternative by its discriminator failure when it has one
            errs = sorted(errs, key=lambda e: (e.validator not in ("const", "enum", "type"), len(e.absolute_path)))
            first = errs[0]
            where = format_path(tuple(first.absolute_path)[depth:])
            text = (f"{where}: " if where else "") + _message_for(first, originals)
            if text not in seen:
                seen.append(text)
        return "matches none of the allowed forms: " + "; or ".join(seen[:6])
    if keyword == "required" and isinstance(instance, Mapping):
        missing = [k for k in value if k not in instance]
        named = [k for k in missing if error.message.startswith(repr(k))]
        return f"missing required key {_show((named or missing or ['?'])[0])}"
    if keyword in ("additionalProperties", "unevaluatedProperties") and value is False and isinstance(instance, Mapping):
        holder = error.schema if isinstance(error.schema, Mapping) else {}
        properties = holder.get("properties") or {}
        patterns = [re.compile(p) for p in (holder.get("patternProperties") or {})]
        stray = [k for k in instance if k not in properties and not any(p.search(str(k)) for p in patterns)]
        return f"unknown key {_show(stray[0])}" if stray else "a key is not allowed here"
    if keyword == "not":
        path = tuple(error.absolute_path)
        if value == {} and path and isinstance(path[-1], str):
            return f"key {_show(path[-1])} is not allowed here"
        return "this value is not allowed here"
    if keyword == "items" and value is False:
        limit = len(error.schema.get("prefixItems", []))
        return f"must have at most {limit} item{'s' if limit != 1 else ''} (has {len(instance)})"
    if keyword is None:  # a `false` schema
        return "nothing is allowed here"
    return str(error.message)


def closest(word: Any, candidates: Iterable[str]) -> str | None:
    """The candidate `word` most likely misspells (difflib), or None."""
    if not isinstance(word, str):
        return None
    import difflib  # only when a word is wrong: a one-shot command with good input never loads it

    found = difflib.get_close_matches(word, [c for c in candidates if c != word], n=1, cutoff=0.6)
    return found[0] if found else None


def tagged_union(branches: Any) -> dict[str, Mapping[str, Any]] | None:
    """{tag: branch} when every branch is a mapping requiring a key no other branch requires; else None.

    Orders are such unions (`{move: ...}`, `{fire: ...}`): the tag says which form was meant.
    """
    if not isinstance(branches, list) or not branches:
        return None
    required = [list(b.get("required", [])) if isinstance(b, Mapping) else [] for b in branches]
    found: dict[str, Mapping[str, Any]] = {}
    for branch, keys in zip(branches, required):
        own = [k for k in keys if isinstance(k, str) and sum(k in other for other in required) == 1]
        if not own or branch.get("type") != "object":
            return None
        found[own[0]] = branch
    return found


def _what(schema: Any) -> str:
    """` in a setup order` when the schema names what it describes (`WHAT`), else nothing."""
    what = schema.get(WHAT) if isinstance(schema, Mapping) else None
    return f" in a {what}" if isinstance(what, str) else ""


def _unknown_keys(validator: Any, error: _Error) -> list[str]:
    instance = error.instance
    schema = error.schema
    if error.validator == "additionalProperties":
        props = schema.get("properties", {}) or {}
        patterns = [re.compile(p) for p in (schema.get("patternProperties", {}) or {})]
        return [k for k in instance if k not in props and not any(p.search(k) for p in patterns)]
    try:  # unevaluatedProperties: ask jsonschema which keys something evaluated
        from jsonschema._utils import find_evaluated_property_keys_by_schema

        evaluated = find_evaluated_property_keys_by_schema(validator, instance, schema)
        return [k for k in instance if k not in evaluated]
    except Exception:  # pragma: no cover - private helper moved: fall back to the generic message
        return []


def _discriminator(error: _Error) -> tuple[DocPath, list[Any], Any] | None:
    """If every alternative rejects the same key by const/enum: (its path, allowed values, value)."""
    depth = len(error.absolute_path)
    where: DocPath | None = None
    allowed: list[Any] = []
    instance: Any = None
    for _, errs in sorted(_branches(error).items()):
        tags = [e for e in errs if e.validator in ("const", "enum") and len(e.absolute_path) == depth + 1]
        if len(tags) != 1:
            return None
        tag = tags[0]
        if where is None:
            where = tuple(tag.absolute_path)
        elif tuple(tag.absolute_path) != where:
            return None
        for value in [tag.validator_value] if tag.validator == "const" else list(tag.validator_value):
            if value not in allowed:
                allowed.append(value)
        instance = tag.instance
    if where is None:
        return None
    return where, allowed, instance


def _explain(doc: Document, compiled: _Compiled, error: _Error, done: set[Any],
             limit: int = MAX_PROBLEMS) -> list[Problem]:
    path: DocPath = tuple(error.absolute_path)
    keyword = error.validator
    originals = compiled.originals

    if keyword in ("additionalProperties", "unevaluatedProperties") and error.validator_value is False:
        unknown = _unknown_keys(compiled.validator, error)
        if unknown:
            allowed = _allowed_keys(error.schema, originals, deep=keyword == "unevaluatedProperties")
            suffix = f"; allowed keys: {', '.join(allowed)}" if allowed else "; no keys are allowed here"
            plain = [name for name in allowed if not name.startswith("keys matching ")]
            stray = []
            for k in unknown[: limit + 1]:  # one more than the caller takes: it then says it stopped
                near = closest(k, plain)
                hint = f" (did you mean {_show(near)}?)" if near else ""
                stray.append(doc.problem(f"unknown key {_show(k)}{_what(error.schema)}{hint}{suffix}", path + (k,),
                                         at_key=True))
            return stray

    if keyword in ("oneOf", "anyOf") and isinstance(error.instance, Mapping):
        tags = tagged_union(error.validator_value)
        if tags and not any(tag in error.instance for tag in tags):
            legal = ", ".join(tags)
            for key in error.instance:
                near = closest(key, tags)
                if near is not None:
                    return [doc.problem(f"unknown key {_show(key)}: did you mean {_show(near)}?", path + (key,),
                                        at_key=True, legal=legal)]
            return [doc.problem(f"needs one of the keys {legal} (it has {_list_values(error.instance)})", path,
                                legal=legal)]

    if keyword in ("oneOf", "anyOf") and error.context:
        found = _discriminator(error)
        if found is not None:
            where, allowed, instance = found
            return [doc.problem(f"{_describe(instance)} is not allowed here; allowed values: {_list_values(allowed)}", where)]

    if keyword == "required" and isinstance(error.instance, Mapping):
        missing = [k for k in error.validator_value if k not in error.instance]
        named = [k for k in missing if error.message.startswith(repr(k))]
        out = []
        for key in named or missing:
            if (path, "required", key) in done:
                continue
            done.add((path, "required", key))
            out.append(doc.problem(f"missing required key {_show(key)}{_what(error.schema)}", path))
        return out

    if keyword == "uniqueItems" and isinstance(error.instance, list):
        seen: set[str] = set()
        for index, item in enumerate(error.instance):
            canon = json.dumps(item, sort_keys=True)
            if canon in seen:
                return [doc.problem(f"{_describe(item)} appears more than once; each item may appear only once", path + (index,))]
            seen.add(canon)

    if "propertyNames" in list(error.absolute_schema_path) and isinstance(error.instance, str):
        parent = doc.data
        try:
            for part in path:
                parent = parent[part]
        except (KeyError, IndexError, TypeError):
            parent = None
        if isinstance(parent, dict) and error.instance in parent:
            message = _message_for(error, originals)
            return [doc.problem(f"key {_show(error.instance)}: {message}", path + (error.instance,), at_key=True)]

    at_key = keyword == "not" and error.validator_value == {} and bool(path) and isinstance(path[-1], str)
    return [doc.problem(_message_for(error, originals), path, at_key=at_key)]


def problems(doc: Document, schema: Mapping[str, Any], *, limit: int = MAX_PROBLEMS) -> list[Problem]:
    """Every way `doc` fails `schema` (draft 2020-12), sorted by position; [] if it is valid.

    At most `limit` problems are collected: checking stops there, and one more problem, last,
    says that the rest of the document was not checked.
    """
    compiled = _compiled(schema)
    if compiled.quick.verdict(doc.data) is True:
        return []
    passed = _passed_key(compiled, doc.data)
    if passed is not None and passed in _PASSED:
        return []
    found: list[Problem] = []
    seen: set[tuple[Any, ...]] = set()
    done: set[Any] = set()
    stopped = False
    for error in compiled.validator.iter_errors(doc.data):
        for leaf in _leaves(error):
            for problem in _explain(doc, compiled, leaf, done, limit):
                key = (problem.line, problem.column, problem.path, problem.message)
                if key in seen:
                    continue
                if len(found) >= limit:
                    stopped = True
                    break
                seen.add(key)
                found.append(problem)
            if stopped:
                break
        if stopped:
            break
    found.sort(key=lambda p: (p.line or 0, p.column or 0))
    if stopped:
        found.append(stopped_problem(limit, doc.file))
    if not found and passed is not None:
        if len(_PASSED) >= 256:
            _PASSED.clear()
        _PASSED.add(passed)
    return found


# (schema repr, data repr) of documents found valid in this process. The audit checks each orders
# file twice (its own check, then the adjudication it replays): the second check is a look-up.
# A repr names plain data exactly, so an equal key is an equal schema and an equal document.
_PASSED: set[tuple[bytes | str, str]] = set()


def forget_results() -> None:
    """Forget which documents were found valid (a benchmark's rounds each check every document)."""
    _PASSED.clear()


def _passed_key(compiled: _Compiled, data: Any) -> tuple[bytes | str, str] | None:
    if compiled.text is None:
        return None
    try:
        return (compiled.text, repr(data))
    except RecursionError:
        return None


def stopped_problem(limit: int, file: str | None) -> Problem:
    """The last problem of a list cut at `limit`: the rest of the document was not checked."""
    return Problem(f"... and more: checking stopped after {limit} problems, further problems were not checked "
                   "(fix these and check again)", file=file)


def is_valid(data: Any, schema: Mapping[str, Any]) -> bool:
    """Whether `data` matches `schema`: the quick yes or no, without the explanations of `problems`."""
    compiled = _compiled(schema)
    verdict = compiled.quick.verdict(data)
    if verdict is not None:
        return verdict
    return bool(compiled.validator.is_valid(data))


def validate(doc: Document, schema: Mapping[str, Any]) -> None:
    """Raise SchemaError with one Problem per error if `doc` does not match `schema`."""
    SchemaError.collect(problems(doc, schema))


def check_schema(schema: Mapping[str, Any]) -> None:
    """Raise SchemaError unless `schema` is a valid draft 2020-12 schema with usable regexes."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError as JsonSchemaError
    from jsonschema.exceptions import best_match

    found: list[Problem] = []
    declared = schema.get("$schema")
    if declared is not None and str(declared).rstrip("#") != DRAFT_2020_12:
        found.append(Problem(f"$schema must be {DRAFT_2020_12}, not {declared}", path=("$schema",)))
    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)
    for error in meta.iter_errors(schema):
        leaf = best_match([error]) or error
        found.append(Problem(f"invalid JSON Schema: {leaf.message}", path=tuple(leaf.absolute_path)))
    if not found:
        originals: dict[str, str] = {}
        _translate(schema, originals)
        for translated, original in originals.items():
            try:
                re.compile(translated)
            except re.error as exc:
                found.append(Problem(f"invalid JSON Schema: pattern {original!r} does not compile: {exc}"))
        try:
            Draft202012Validator.check_schema(schema)
        except JsonSchemaError as exc:  # pragma: no cover - the loop above already reports it
            found.append(Problem(f"invalid JSON Schema: {exc.message}", path=tuple(exc.absolute_path)))
    SchemaError.collect(found)
