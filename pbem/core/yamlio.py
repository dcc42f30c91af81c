"""The one strict YAML loader (and canonical dumper) for every file pbem reads or writes.

Players write YAML by hand, so the loader refuses everything that could mean something
other than what the player sees:

- exactly one document, UTF-8 (a UTF-8 byte-order mark is accepted and ignored; UTF-16/32
  are refused), only YAML-printable characters;
- no tags (`!!str`, `!foo`, ...), no merge keys (`<<`), no duplicate mapping keys (both
  lines are named), mapping keys are strings only (a plain `2717:` key is a number: quote it);
- plain scalars resolve to: None (`null`, `Null`, `NULL`, `~`, empty), bool (`true`, `True`,
  `TRUE`, `false`, `False`, `FALSE`), int (`[-+]?(0|[1-9][0-9]*)`) or str; `yes`, `no`, `on`,
  `off`, `y`, `n` stay strings;
- refused plain scalars (each error says what to write instead): floats (`1.5`, `.5`, `1e3`,
  `.inf`, `.nan`), dates and timestamps, sexagesimal numbers (`1:30`), numbers with a leading
  zero or a base prefix (`010`, `0o17`, `0x1F`, `0b101`), numbers with underscores (`1_000`);
- quoted and block scalars are always strings;
- aliases are allowed, but the nodes they expand to are counted and limited to
  `MAX_ALIAS_NODES` in total; an alias value is a fresh copy (no shared objects); an anchor
  name defined twice is refused (as PyYAML's own composer does), so is an alias inside the
  node it names;
- at most `MAX_DEPTH` nested lists/mappings and `MAX_NODES` values in all; files larger than
  `max_bytes` are refused before parsing (`load_file` checks the size before reading anything).

The document is built from the parser's event stream iteratively (no recursion), so hostile
nesting cannot exhaust the stack. Problems are collected (up to `MAX_PROBLEMS`) and raised
together as one `YamlError`, sorted by position; a syntax error ends the collection.

Positions (`Mark`) are 1-based line and column, counted in characters. `Document.marks`
maps the path of every node to where its value starts; `Document.key_marks` maps the path of
every mapping entry to where its *key* is written (so `key_marks[("units", "A1")]` points at
`A1:` while `marks[("units", "A1")]` points at the value). Nodes inside an alias expansion
have no marks of their own: `Document.mark` falls back to the nearest marked ancestor, the
alias itself.
"""

from __future__ import annotations

import copy
import errno
import importlib
import io
import json
import os
import re
import stat
import sys
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, NamedTuple

from pbem.core.errors import DocPath, Problem, YamlError, format_path
from pbem.core.scalar_style import printable_scalar_text

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_PROBLEMS",
    "Mark",
    "Document",
    "load_bytes",
    "load_packaged",
    "load_plain",
    "NotPlain",
    "plain_scalar_value",
    "fast_dump",
    "packaged_file",
    "read_packaged",
    "load_file",
    "read_file",
    "dump",
]

MAX_FILE_BYTES: int = 4 * 1024 * 1024
"""Files bigger than this are refused before parsing."""

MAX_ALIAS_NODES: int = 1000
"""Total number of nodes that alias expansion may produce in one document."""

MAX_DEPTH: int = 64
"""Most lists/mappings nested inside one another."""

MAX_NODES: int = 400_000
"""Most values (scalars, lists, mappings, aliases) in one document. The largest real pbem files hold a
few thousand; the bound keeps a hostile file of a million one-character items from costing
seconds and hundreds of megabytes before any check can refuse it."""

MAX_PROBLEMS: int = 100
"""Stop collecting problems after this many (a final problem says so)."""

if TYPE_CHECKING:
    import yaml


def _pyyaml() -> Any:
    """PyYAML, imported on first use: importing it costs a command some 15 ms, and a command whose
    files are all canonical text (`canonical_read`) and whose strings are all simple does without it."""
    if "yaml" not in sys.modules:
        _lend_printable_pattern()
    import yaml

    return yaml


# What PyYAML's reader compiles at import to find a character YAML does not allow: a class reaching
# U+10FFFF, which costs `re` some 5 ms in every process that imports PyYAML (a third of the import).
_PYYAML_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"


def _lend_printable_pattern() -> None:
    """Put `_NON_PRINTABLE`, compiled, in `re`'s cache under PyYAML's pattern, before PyYAML is imported.

    The two name the same characters (one is the other's complement written out: a test compares
    them over all of Unicode), and `re.compile` looks in its cache before compiling, so PyYAML's
    reader gets the same answers for a tenth of the compile time. Where `re` keeps no such cache
    (another Python), nothing is lent and PyYAML compiles its own; a test says if the loan stops
    being taken.
    """
    cache = getattr(re, "_cache", None)
    if isinstance(cache, dict):
        cache.setdefault((str, _PYYAML_NON_PRINTABLE, 0), re.compile(_NON_PRINTABLE))


_Loader: Any = None  # libyaml's safe loader if installed, else PyYAML's; set on first use (`_loader`)


def _loader() -> Any:
    global _Loader
    if _Loader is None:
        yaml = _pyyaml()
        _Loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
    return _Loader


# Width passed to the emitter: large enough that no string is ever wrapped (libyaml and the
# pure-Python emitter both take a C-int-sized width).
_NO_WRAP = 2**31 - 1


_NO_MARKS: Mapping[Any, Any] = MappingProxyType({})  # a document read without marks (read-only, so shared)


class Mark(NamedTuple):  # NamedTuples, not dataclasses: a tenth of the cost to create at import
    """A position in a file: 1-based line and column (in characters)."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


class Document(NamedTuple):
    """A loaded YAML document: the data and where each part of it was written."""

    data: Any
    """Only dict (str keys), list, str, int, bool and None."""
    file: str
    marks: Mapping[DocPath, Mark] = _NO_MARKS
    """Path of a node -> where its value starts."""
    key_marks: Mapping[DocPath, Mark] = _NO_MARKS
    """Path of a mapping entry -> where its key is written."""

    def mark(self, path: DocPath) -> Mark | None:
        """Where the node at `path` starts, or its nearest marked ancestor."""
        path = tuple(path)
        for end in range(len(path), -1, -1):
            found = self.marks.get(path[:end])
            if found is not None:
                return found
        return None

    def key_mark(self, path: DocPath) -> Mark | None:
        """Where the key of the mapping entry at `path` is written (else `mark(path)`)."""
        found = self.key_marks.get(tuple(path))
        return found if found is not None else self.mark(path)

    def problem(self, message: str, path: DocPath = (), *, at_key: bool = False, **kw: Any) -> Problem:
        """A Problem located at this file and the node at `path` (its key if `at_key`)."""
        where = self.key_mark(path) if at_key else self.mark(path)
        return Problem(
            message,
            file=self.file,
            line=where.line if where else None,
            column=where.column if where else None,
            path=tuple(path),
            **kw,
        )


# --------------------------------------------------------------------------------------
# Plain scalar resolution


class NotPlain(Exception):
    """A document `load_plain` leaves to the strict loader."""


class _Refused(Exception):
    """A plain scalar that pbem does not accept; the message says what to write instead."""


_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT_RE = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
# What a plain scalar that is no int may be refused as: compiled on first use by `re.fullmatch`'s cache, so a
# command whose files hold none of them does not pay for compiling them.
_TIMESTAMP = (
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?"
)
_BASE_PREFIX = r"[-+]?0(?:[xX][0-9a-fA-F_]+|[oO][0-7_]+|[bB][01_]+)"
_LEADING_ZERO = r"[-+]?0[0-9_]+"
# After each colon a run of digits and underscores holding a digit, written so that a run can be
# matched one way only ("_*[0-9]" finds its first digit): `[0-9_]*[0-9][0-9_]*` backtracks in
# quadratic time on a long run of digits that does not match in the end.
_SEXAGESIMAL = r"[-+]?[0-9][0-9_]*(?::_*[0-9][0-9_]*)+(?:\.[0-9_]*)?"
_UNDERSCORE_INT = r"[-+]?[0-9][0-9_]*"
_FLOAT = (
    r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)"
)
_NUMBERISH_START = frozenset("0123456789+-.")
# Characters no pattern above has anywhere; and those left once the text has no "-", "." or "x"/"X"
# (a date, a float's dot, inf, nan and a 0x number need one of them).
_FOREIGN_RE = re.compile(r"[^0-9+._: \teExXoObBa-fA-FtTZiInN-]")
_NOT_NUMBERISH_RE = re.compile(r"[^0-9+_:eEoObBxX. \t-]")


def _surely_string(text: str) -> bool:
    """True when none of the refusal patterns can match `text`, told without compiling them (a
    hash that starts with a digit, "10.10 fire at 2:1", a version "0.1.0" would compile six).

    Each pattern allows at most one ".", so two or more rule them all out; so does a character
    none of them has; and with no "-", "." or "x" the few letters left are e, o and b.
    """
    return (text.count(".") >= 2 or _FOREIGN_RE.search(text) is not None
            or (_NOT_NUMBERISH_RE.search(text) is not None
                and not ("-" in text or "." in text or "x" in text or "X" in text)))


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _resolve_plain(text: str) -> Any:
    """The value of an untagged plain scalar, or raise _Refused."""
    if text in _NULLS:
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    if text == "<<":
        raise _Refused(f'"<<" (a YAML merge key) is not allowed: write the keys out in full, or quote it: {_quote(text)}')
    if not text or text[0] not in _NUMBERISH_START:
        return text
    if _INT_RE.fullmatch(text):
        try:
            return int(text)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            raise _Refused(f"number with {len(text)} digits is too long: quote it if you mean a string") from None
    if _surely_string(text):
        return text
    if re.fullmatch(_TIMESTAMP, text):
        raise _Refused(f"{text} reads as a date or time in YAML: quote it if you mean a string: {_quote(text)}")
    if re.fullmatch(_BASE_PREFIX, text):
        raise _Refused(
            f"{text} reads as a hexadecimal, octal or binary number in some YAML readers: "
            f"write the number in decimal, or quote it if you mean a string: {_quote(text)}"
        )
    if re.fullmatch(_LEADING_ZERO, text):
        raise _Refused(
            f"{text} has a leading zero, which some YAML readers take as an octal number: quote it: "
            f"{_quote(text)} (a hex or any other id is a string; drop the zero only if you mean a number)"
        )
    if re.fullmatch(_SEXAGESIMAL, text):
        raise _Refused(
            f"{text} reads as a base-60 number in YAML 1.1 (1:30 means 90): "
            f"quote it if you mean a string: {_quote(text)}"
        )
    if re.fullmatch(_UNDERSCORE_INT, text):
        raise _Refused(
            f"{text}: no underscores in numbers: write {text.replace('_', '')}, "
            f"or quote it if you mean a string: {_quote(text)}"
        )
    if re.fullmatch(_FLOAT, text):
        raise _Refused(
            f"{text} reads as a decimal (floating-point) number: no floats: use whole numbers{_nearest_whole(text)}; "
            f"or quote it if you mean a string: {_quote(text)}"
        )
    return text


# Digits, or digits, a dot and digits: an int, a number refused for its leading zero or length, or
# a refused float; never a string. Told without compiling the refusal patterns ("10.10" is a section).
_DIGITS_RE = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def plain_scalar_value(text: str) -> Any:
    """The value the strict loader gives the untagged plain scalar `text`; NotPlain if it refuses it."""
    try:
        return _resolve_plain(text)
    except _Refused:
        raise NotPlain from None


def _nearest_whole(text: str) -> str:
    """": 700 or 701" for a refused "700.5" (": 1" for "1.0"); "" for a float of another form."""
    found = re.fullmatch(r"([-+]?[0-9]+)\.([0-9]*)", text.replace("_", ""))
    if found is None:
        return ""
    whole = int(found.group(1))
    if not found.group(2).strip("0"):
        return f": {whole}"
    return f": {whole} or {whole - 1 if text.startswith('-') else whole + 1}"


def _plain_is_string(text: str) -> bool:
    """Would `text`, written as a plain scalar, load back as this same string?"""
    if _DIGITS_RE.fullmatch(text):
        return False
    try:
        value = _resolve_plain(text)
    except _Refused:
        return False
    return isinstance(value, str) and value == text


# --------------------------------------------------------------------------------------
# Loading


class _Stop(Exception):
    """A problem after which loading cannot go on."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class _Frame:
    """An open list or mapping while the document is being built."""

    __slots__ = (
        "container",
        "path",
        "is_map",
        "in_key",
        "has_key",
        "key",
        "key_ok",
        "key_marks",
        "anchor",
        "size",
        "height",
    )

    def __init__(self, container: Any, path: DocPath, is_map: bool, in_key: bool, anchor: str | None) -> None:
        self.container = container
        self.path = path
        self.is_map = is_map
        self.in_key = in_key
        self.has_key = False
        self.key: str = ""
        self.key_ok = False
        self.key_marks: dict[str, Mark] = {}
        self.anchor = anchor
        self.size = 1
        self.height = 1


def _short_tag(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "a string"


class _Builder:
    """Turns a parser event stream into (data, marks, key_marks), collecting problems."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self.marks: dict[DocPath, Mark] = {}
        self.key_marks: dict[DocPath, Mark] = {}
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int, int, Mark]] = {}
        self.open_anchors: set[str] = set()
        self.alias_nodes = 0
        self.nodes = 0
        self.root: Any = None
        self.documents = 0
        self.refused = 0  # problems that are refused plain scalars, each kept as its text
        self.start_marks: list[Mark] = []

    # -- problems
    def add(self, message: str, mark: Mark | None, path: DocPath = ()) -> None:
        if len(self.problems) >= MAX_PROBLEMS:
            raise self.stop(f"too many problems: stopped after {MAX_PROBLEMS}", mark)
        self.problems.append(
            Problem(message, file=self.file, line=mark.line if mark else None, column=mark.column if mark else None, path=path)
        )

    def stop(self, message: str, mark: Mark | None, path: DocPath = ()) -> _Stop:
        return _Stop(
            Problem(message, file=self.file, line=mark.line if mark else None, column=mark.column if mark else None, path=path)
        )

    # -- where the next node goes
    def slot(self) -> tuple[DocPath, bool, bool]:
        """(path of the next node, whether it is a mapping key, whether it lies inside a key)."""
        if not self.stack:
            return (), False, False
        top = self.stack[-1]
        if top.is_map and not top.has_key:
            return top.path + ("?",), True, True
        if top.is_map:
            return top.path + (top.key,), False, top.in_key
        return top.path + (len(top.container),), False, top.in_key

    def attach(self, value: Any, mark: Mark, size: int, height: int, plain: str | None) -> None:
        """Put a finished node into its parent (or make it the root)."""
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        top.size += size
        if height + 1 > top.height:
            top.height = height + 1
        if not top.is_map:
            top.container.append(value)
            return
        if top.has_key:
            if top.key_ok:
                top.container[top.key] = value
            top.has_key = False
            return
        # `value` is a key
        top.has_key = True
        top.key_ok = False
        if isinstance(value, str):
            top.key = value
            first = top.key_marks.get(value)
            if first is not None:
                self.add(
                    f"duplicate key {_quote(value)} (first at line {first.line}, column {first.column}): keep only one",
                    mark,
                    top.path + (value,),
                )
            else:
                top.key_marks[value] = mark
                top.key_ok = True
        else:
            text = plain if plain is not None else _describe(value)
            top.key = text if plain is not None else "?"
            if plain == "":
                self.add("empty key: write a name before the colon", mark, top.path)
            elif plain is not None:
                self.add(
                    f"key {plain} is read as {_describe(value)}; keys must be strings: quote it: {_quote(plain)}",
                    mark,
                    top.path + (plain,),
                )
            else:
                self.add(f"a key must be a string, not {_describe(value)}", mark, top.path)
        if not top.in_key:
            self.key_marks[top.path + (top.key,)] = mark

    def check_tag(self, tag: str | None, mark: Mark, path: DocPath) -> bool:
        if tag is None:
            return True
        self.add(
            f"tags are not allowed ({_short_tag(tag)}): remove the tag, and quote the value if you mean a string",
            mark,
            path,
        )
        return False

    def new_anchor(self, name: str | None, mark: Mark, path: DocPath) -> None:
        if name is None:
            return
        earlier = self.anchors.get(name)
        if earlier is not None or name in self.open_anchors:
            where = f" (first at line {earlier[3].line}, column {earlier[3].column})" if earlier else ""
            self.add(f'anchor "&{name}" is defined twice{where}: give each anchor its own name', mark, path)

    # -- events
    def feed(self, events: Iterable[Any]) -> None:
        yaml = _pyyaml()
        scalar_event = yaml.ScalarEvent
        for event in events:
            mark = Mark(event.start_mark.line + 1, event.start_mark.column + 1)
            kind = type(event)
            if kind is scalar_event or kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent \
                    or kind is yaml.AliasEvent:
                self.nodes += 1
                if self.nodes > MAX_NODES:
                    raise self.stop(f"too many values: a file holds at most {MAX_NODES:,} (scalars, lists and "
                                    "mappings); this is not a file pbem writes or needs", mark)
            if kind is scalar_event:
                self.scalar(event, mark)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                self.start(event, mark, kind is yaml.MappingStartEvent)
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                self.end()
            elif kind is yaml.AliasEvent:
                self.alias(event, mark)
            elif kind is yaml.DocumentStartEvent:
                self.documents += 1
                if self.documents > 1:
                    raise self.stop(
                        "a second YAML document starts here: a file holds exactly one document "
                        "(remove the extra '---', or put each document in its own file)",
                        mark,
                    )
            # StreamStart, StreamEnd, DocumentEnd: nothing to do

    def scalar(self, event: Any, mark: Mark) -> None:
        path, is_key, in_key = self.slot()
        if is_key:  # problems with a key are reported at the entry it names
            path = path[:-1] + (event.value,)
        self.new_anchor(event.anchor, mark, path)
        plain: str | None = None
        text: str = event.value
        if any("\ud800" <= char <= "\udfff" for char in text):
            # A lone surrogate escape ("\ud800") is not a character; it cannot be hashed or written as UTF-8.
            self.add("a lone surrogate escape is not a character: write the character itself", mark, path)
            text = text.encode("utf-8", "replace").decode("utf-8")
        if not self.check_tag(event.tag, mark, path):
            value: Any = text
        elif event.style in (None, ""):
            plain = text
            try:
                value = _resolve_plain(text)
            except _Refused as refused:
                self.add(str(refused), mark, path)
                self.refused += 1
                value = text
                plain = None
        else:
            value = text
        if not in_key:
            self.marks[path] = mark
        if event.anchor is not None:
            self.anchors[event.anchor] = (value, 1, 0, mark)
        self.attach(value, mark, 1, 0, plain if is_key else None)

    def start(self, event: Any, mark: Mark, is_map: bool) -> None:
        path, is_key, in_key = self.slot()
        if len(self.stack) >= MAX_DEPTH:
            raise self.stop(f"nesting too deep: more than {MAX_DEPTH} levels of lists and mappings", mark, path)
        self.check_tag(event.tag, mark, path)
        self.new_anchor(event.anchor, mark, path)
        if not in_key:
            self.marks[path] = mark
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self.stack.append(_Frame({} if is_map else [], path, is_map, in_key, event.anchor))
        self.start_marks.append(mark)

    def end(self) -> None:
        frame = self.stack.pop()
        mark = self.start_marks.pop()
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = (frame.container, frame.size, frame.height, mark)
        self.attach(frame.container, mark, frame.size, frame.height, None)

    def alias(self, event: Any, mark: Mark) -> None:
        path, is_key, in_key = self.slot()
        name: str = event.anchor
        if name in self.open_anchors:
            raise self.stop(f'alias "*{name}" is inside the node it refers to (recursive data is not allowed)', mark, path)
        found = self.anchors.get(name)
        if found is None:
            raise self.stop(f'alias "*{name}" refers to no anchor "&{name}" before it', mark, path)
        value, size, height, _ = found
        self.alias_nodes += size
        if self.alias_nodes > MAX_ALIAS_NODES:
            raise self.stop(
                f"alias expansion too large: aliases would expand to more than {MAX_ALIAS_NODES} nodes; "
                "write the data out instead",
                mark,
                path,
            )
        if len(self.stack) + height > MAX_DEPTH:
            raise self.stop(f"nesting too deep: more than {MAX_DEPTH} levels of lists and mappings", mark, path)
        if not in_key:
            self.marks[path] = mark
        if isinstance(value, (list, dict)):
            value = copy.deepcopy(value)  # bounded: at most MAX_ALIAS_NODES nodes, MAX_DEPTH deep
        self.attach(value, mark, size, height, None)


def _line_col(text: str, index: int) -> Mark:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return Mark(line, column)


# YAML 1.1/1.2 printable characters (c-printable); everything else is refused up front.
# Written as the few ranges outside that set: the same characters (tests/test_yamlio.py compares
# the two over every code point), compiled in a tenth of the time the set's huge ranges take.
# Compiled on first use (re's cache): canonical text is read without it.
_NON_PRINTABLE = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"


def _decode(data: bytes, file: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or data.startswith((b"\x00\x00\xfe\xff",)):
        raise YamlError(Problem("the file is UTF-16 or UTF-32: save it as UTF-8", file=file, line=1, column=1))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8")
        where = _line_col(good, len(good))
        raise YamlError(
            Problem(
                f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}): save the file as UTF-8",
                file=file,
                line=where.line,
                column=where.column,
            )
        ) from None
    bad = re.search(_NON_PRINTABLE, text)
    if bad is not None:
        where = _line_col(text, bad.start())
        raise YamlError(
            Problem(
                f"character U+{ord(bad.group()):04X} is not allowed in YAML: remove it "
                "(inside double quotes, write it as an escape such as \\t or \\u0000)",
                file=file,
                line=where.line,
                column=where.column,
            )
        )
    return text


def _syntax_problem(exc: yaml.YAMLError, text: str, file: str) -> Problem:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    message = f"YAML syntax error: {problem}"
    if context:
        message += f" ({context}"
        if context_mark is not None:
            message += f" at line {context_mark.line + 1}, column {context_mark.column + 1}"
        message += ")"
    if mark is not None:
        lines = text.splitlines()
        if 0 <= mark.line < len(lines) and "\t" in lines[mark.line][: mark.column + 1]:
            message += "; tabs are not allowed for indentation: use spaces"
        return Problem(message, file=file, line=mark.line + 1, column=mark.column + 1)
    return Problem(message, file=file)


# libyaml's own bound (PyYAML 6.0.4 on): its scanner reads flow brackets far ahead of the events,
# so it stops at about 1,000 levels before the builder has seen level MAX_DEPTH + 1.
_LIBYAML_DEPTH_LIMIT = "exceeded maximum nesting depth"


def _build(text: str, file: str, loader: Any) -> _Builder:
    """The builder fed with every event of `text`, holding the document or the problems found."""
    yaml = _pyyaml()
    builder = _Builder(file)
    try:
        builder.feed(yaml.parse(text, Loader=loader))
    except _Stop as stop:
        builder.problems.append(stop.problem)
    except yaml.YAMLError as exc:
        if loader is not yaml.SafeLoader and _LIBYAML_DEPTH_LIMIT in str(exc):
            # Past libyaml's bound means past ours: the pure parser names where ours was crossed.
            return _build(text, file, yaml.SafeLoader)
        builder.problems.append(_syntax_problem(exc, text, file))
    else:
        if builder.documents == 0:
            builder.problems.append(
                Problem("no YAML document in the file (it is empty or holds only comments)", file=file, line=1, column=1)
            )
    return builder


def load_bytes(data: bytes, file: str, *, max_bytes: int = MAX_FILE_BYTES) -> Document:
    """Load one strict YAML document from `data`; `file` names it in every message.

    Raises YamlError with every problem found (each with line:column and document path).
    A file that is exactly canonical text (`canonical_read`) is read without PyYAML; where its
    values are written is then found only if a message asks for a position.
    """
    if len(data) > max_bytes:
        raise YamlError(Problem(f"file too large: {len(data)} bytes; the limit is {max_bytes} bytes", file=file))
    from .canonical_read import read_canonical  # here: it reads with this module's scalar rules

    canonical = read_canonical(data)
    if canonical is not None:
        marks = _MarksOnDemand(bytes(data), file)  # a copy: the caller's buffer may change later
        return Document(canonical, file, _Marks(marks, 0), _Marks(marks, 1))
    return _load_strictly(data, file)


class _MarksOnDemand:
    """The marks and key marks of a canonical document, found by the strict loader on first use."""

    __slots__ = ("data", "file", "found")

    def __init__(self, data: bytes, file: str) -> None:
        self.data = data
        self.file = file
        self.found: tuple[Mapping[DocPath, Mark], Mapping[DocPath, Mark]] | None = None

    def get(self, which: int) -> Mapping[DocPath, Mark]:
        if self.found is None:
            document = _load_strictly(self.data, self.file)
            self.found = (document.marks, document.key_marks)
        return self.found[which]


class _Marks(Mapping[DocPath, Mark]):
    """`Document.marks` (which 0) or `key_marks` (1) of a document read as canonical text."""

    __slots__ = ("source", "which")

    def __init__(self, source: _MarksOnDemand, which: int) -> None:
        self.source = source
        self.which = which

    def __getitem__(self, path: DocPath) -> Mark:
        return self.source.get(self.which)[path]

    def __iter__(self) -> Iterator[DocPath]:
        return iter(self.source.get(self.which))

    def __len__(self) -> int:
        return len(self.source.get(self.which))

    def __repr__(self) -> str:  # the same in every process (no address), and finds nothing by itself
        return f"<{('marks', 'key marks')[self.which]} of {self.source.file}, found on first use>"


def _load_strictly(data: bytes, file: str) -> Document:
    """`load_bytes` by the strict builder, which keeps every node's position."""
    text = _decode(data, file)
    builder = _build(text, file, _loader())
    if builder.problems:
        builder.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        raise YamlError(builder.problems)
    return Document(builder.root, file, builder.marks, builder.key_marks)


def load_with_refusals(data: bytes, file: str) -> tuple[Document, list[Problem]]:
    """`load_bytes`, except for a file whose only problems are refused plain scalars (a number with a
    leading zero, a float, a date...): its document is still given, each such scalar read as its
    text, with those problems. A player's pre-check then tells every other problem of the file in the
    same answer. Any other problem (a syntax error, a tag, a duplicate key) raises YamlError as
    `load_bytes` does; nothing that accepts a file uses this.
    """
    try:
        return load_bytes(data, file), []
    except YamlError as error:
        builder = _build(_decode(data, file), file, _loader())
        if not builder.problems or builder.refused != len(builder.problems) or builder.documents != 1:
            raise error from None
        builder.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        return Document(builder.root, file, builder.marks, builder.key_marks), builder.problems


def read_file(path: Path | str, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a file of at most `max_bytes`; YamlError if it is larger.

    A regular file's size is checked before anything is read. Nothing is ever read past one byte
    over the bound, so a device that never ends (/dev/zero) is refused like a large file; a named
    pipe nobody writes to reads as empty instead of waiting forever. OSError (missing file,
    permissions, a directory) propagates unchanged.
    """
    name = str(path)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    with os.fdopen(fd, "rb") as handle:
        if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
            raise YamlError(Problem(f"file too large: {info.st_size} bytes; the limit is {max_bytes} bytes", file=name))
        os.set_blocking(fd, True)
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise YamlError(Problem(f"file too large: more than {max_bytes} bytes; the limit is {max_bytes} bytes",
                                file=name))
    return data


def load_file(path: Path | str, *, max_bytes: int = MAX_FILE_BYTES) -> Document:
    """Load one strict YAML file, read by `read_file` (size checked before anything is read).

    OSError (missing file, permissions, a directory) propagates unchanged.
    """
    return load_bytes(read_file(path, max_bytes=max_bytes), str(path), max_bytes=max_bytes)


# --------------------------------------------------------------------------------------
# Files shipped inside pbem


_NO_KEY: Any = object()  # a mapping waiting for its next key


def packaged_file(package: str, name: str) -> str | None:
    """Where a data file shipped inside a package is on disk, or None (a package in a zip, say)."""
    module = importlib.import_module(package)
    for folder in getattr(module, "__path__", ()):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


def read_packaged(package: str, name: str) -> bytes:
    """The bytes of a data file shipped inside a package, read straight from its folder when it is one.

    `importlib.resources` (which also reads from a zip) costs a one-shot command a few ms of imports;
    it is used only when the package is not a folder on disk.
    """
    path = packaged_file(package, name)
    if path is not None:
        with open(path, "rb") as handle:
            return handle.read()
    from importlib import resources

    return resources.files(package).joinpath(name).read_bytes()


def load_packaged(data: bytes, file: str) -> Any:
    """What `load_bytes(data, file).data` gives, for a file shipped inside pbem (its tables and maps).

    Built straight from the parser's events, without the marks and paths the strict loader keeps to
    name problems, and with the same reading of every plain scalar (`_resolve_plain`). Anything the
    strict loader would look at more closely (a tag, an anchor or alias, a key that is not a string
    or comes twice, a refused scalar, an escape, a byte-order mark, too deep, too many values, a
    syntax error, not one document) sends the whole file to `load_bytes`, which decides and explains.
    tests/test_speed_yaml.py checks both give equal data, types included, for every packaged file.
    """
    try:
        return load_plain(data)
    except NotPlain:
        return load_bytes(data, file).data


def load_plain(data: bytes) -> Any:
    """What `load_bytes(data, ...).data` gives, read quickly (as `load_packaged` says), or NotPlain.

    Canonical text is read without PyYAML (`canonical_read`); other text from libyaml's events.
    """
    if len(data) > MAX_FILE_BYTES:
        raise NotPlain
    from .canonical_read import read_canonical

    canonical = read_canonical(data)
    if canonical is not None:
        return canonical
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotPlain from None
    if text.startswith("\ufeff") or "\\" in text or re.search(_NON_PRINTABLE, text):
        raise NotPlain
    yaml = _pyyaml()
    scalar_event, mapping_start, sequence_start = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    open_nodes: list[Any] = []  # the open lists and mappings, innermost last
    keys: list[Any] = []  # for each open node: the key its next value goes under (_NO_KEY: none yet)
    root: Any = _NO_KEY
    documents = nodes = 0
    events: Iterable[Any] = yaml.parse(text, Loader=_loader())
    try:
        for event in events:
            kind = type(event)
            if kind is scalar_event or kind is mapping_start or kind is sequence_start:
                if event.tag is not None or event.anchor is not None:
                    raise NotPlain
                nodes += 1
                if nodes > MAX_NODES:
                    raise NotPlain
                if kind is not scalar_event:
                    if len(open_nodes) >= MAX_DEPTH:
                        raise NotPlain
                    open_nodes.append({} if kind is mapping_start else [])
                    keys.append(_NO_KEY)
                    continue
                value: Any = event.value
                if event.style is None or event.style == "":
                    value = _resolve_plain(value)
            elif kind in ends:
                value = open_nodes.pop()
                keys.pop()
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                continue
            elif kind is yaml.AliasEvent:
                raise NotPlain
            else:  # stream start and end, document end
                continue
            if not open_nodes:
                root = value
                continue
            top = open_nodes[-1]
            if type(top) is list:
                top.append(value)
            elif keys[-1] is _NO_KEY:
                if type(value) is not str or value in top:
                    raise NotPlain
                keys[-1] = value
            else:
                top[keys[-1]] = value
                keys[-1] = _NO_KEY
    except (yaml.YAMLError, _Refused):
        raise NotPlain from None
    if documents != 1 or root is _NO_KEY:
        raise NotPlain
    return root


# --------------------------------------------------------------------------------------
# Dumping


def _clean(obj: Any, path: DocPath = (), depth: int = 0) -> Any:
    """A copy of `obj` made of plain dict/list/str/int/bool/None, or TypeError/ValueError."""
    if obj is None or obj is True or obj is False:
        return obj
    if isinstance(obj, bool):
        return bool(obj)
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, str):
        return "" + obj
    if isinstance(obj, float):
        raise TypeError(f"cannot dump a float at {format_path(path) or 'top level'}: pbem files hold whole numbers only")
    if isinstance(obj, (Mapping, list, tuple)):
        if depth >= MAX_DEPTH:
            raise ValueError(
                f"cannot dump: nested deeper than {MAX_DEPTH} levels (or contains itself) at {format_path(path) or 'top level'}"
            )
        if isinstance(obj, Mapping):
            out: dict[str, Any] = {}
            for key, value in obj.items():
                if not isinstance(key, str):
                    raise TypeError(f"cannot dump a mapping key {key!r} at {format_path(path) or 'top level'}: keys must be strings")
                out["" + key] = _clean(value, path + (key,), depth + 1)
            return out
        return [_clean(item, path + (index,), depth + 1) for index, item in enumerate(obj)]
    raise TypeError(f"cannot dump {type(obj).__name__} at {format_path(path) or 'top level'}")


# Characters that are line breaks to some YAML or text reader: strings holding any of them are
# written double-quoted (escaped), so every string stays on one line of canonical text.
_BREAKS_RE = re.compile("[\n\r\x85\u2028\u2029\ufeff]")


def _represent_str(dumper: Any, data: str) -> Any:
    style = None
    if _BREAKS_RE.search(data) or not _plain_is_string(data):
        style = '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _make_dumper(base: Any) -> Any:
    """A safe dumper class on `base`: no anchors, strings quoted whenever pbem would misread them."""

    class Dumper(base):  # type: ignore[misc]
        def ignore_aliases(self, data: Any) -> bool:
            return True

    Dumper.add_representer(str, _represent_str)
    return Dumper


_Dumper: Any = None  # set on first use (`_dumper`)


def _dumper() -> Any:
    """The dumper on PyYAML's pure-Python SafeDumper, always: libyaml's emitter escapes some characters
    the pure one writes as they are, and the audit rebuilds views byte for byte, so every install
    must emit the same bytes."""
    global _Dumper
    if _Dumper is None:
        _Dumper = _make_dumper(_pyyaml().SafeDumper)
    return _Dumper


def dump(obj: Any) -> str:
    """Canonical YAML text for `obj` that `load_bytes` reads back equal.

    Block style, keys in insertion order, UTF-8 text (no \\u escapes for printable
    characters), no wrapping, LF line ends, no trailing blanks, exactly one final newline.
    Only dict (str keys), list/tuple, str, int, bool and None can be dumped.

    Plain documents (a non-empty dict or list of exactly those types, keys short enough to be
    simple keys) go through `_fast_dump`, which writes the same bytes as the reference path
    `_reference_dump` (PyYAML's pure-Python SafeDumper); anything else (other types, odd keys,
    too deep, a scalar document) takes the reference path itself.
    """
    try:
        return _fast_dump(obj)
    except _Fallback:
        return _reference_dump(obj)


def fast_dump(obj: Any) -> str | None:
    """`dump(obj)` when the fast emitter covers `obj` (a plain document), else None."""
    try:
        return _fast_dump(obj)
    except _Fallback:
        return None


def _reference_dump(obj: Any) -> str:
    """`dump` through PyYAML's pure-Python emitter: the definition of canonical text."""
    clean = _clean(obj)
    text: str = _pyyaml().dump(
        clean,
        Dumper=_dumper(),
        default_flow_style=False,
        sort_keys=False,
        allow_unicode=True,
        width=_NO_WRAP,
        indent=2,
        line_break="\n",
    )
    return text


# --------------------------------------------------------------------------------------
# The fast emitter: the reference emitter's output for pbem's plain subset, without events.
#
# With the settings `_reference_dump` uses (block style, indent 2, no wrapping, unicode as is,
# no aliases) PyYAML lays a plain document out like this: every mapping entry starts a line,
# `key: scalar`, `key: []` or `key: {}` for an empty container, otherwise `key:` and the
# container on the next lines (a mapping 2 columns further in, a list at the key's own column);
# every list item is `- ` followed by the item, a non-empty container starting on the dash's
# line and going on 2 columns further in. Scalars are written alone on their line, so their
# text depends only on the scalar: `_scalar_text` asks PyYAML's own analysis and resolver
# which style the emitter would choose, and PyYAML's own writers for quoted text. Whatever
# this layout does not cover raises `_Fallback` and `dump` takes the reference path.
# tests/test_speed_yaml.py checks both paths give the same bytes.


class _Fallback(Exception):
    """The fast emitter does not cover this document: use the reference path."""


_STR_TAG = "tag:yaml.org,2002:str"
_analysis: list[Any] = []  # PyYAML's emitter (its scalar analysis) and a resolver, made on first use


def _analysis_tools() -> tuple[Any, Any]:
    if not _analysis:
        dumper = _dumper()
        _analysis.append(_pyyaml().emitter.Emitter(io.StringIO(), allow_unicode=True, width=_NO_WRAP))
        _analysis.append(dumper.__new__(dumper))  # only `resolve` is used: it reads class attributes
    return _analysis[0], _analysis[1]

_SCALAR_CACHE: dict[str, str] = {}
_SCALAR_CACHE_MAX = 1 << 14
# Only strings this short are kept: the ones that come back (ids, names, kinds) are short, and a
# hostile file's long strings must not stay in memory after it is read.
_SCALAR_CACHE_LONGEST = 128
# A key is written as a simple key (`key: value`) only if its text, plus the 5 characters of
# the `!!str` tag PyYAML counts, is shorter than 128 characters, and it is not empty and has no
# line break. Longer keys take the reference path (which writes `? key`); 100 leaves a margin.
_MAX_FAST_KEY = 100


def _quoted(text: str, style: str) -> str:
    """`text` as PyYAML's writer writes it in `style` (' or "), on its own, never wrapped."""
    stream = io.StringIO()
    writer: Any = _pyyaml().emitter.Emitter(stream, allow_unicode=True, width=_NO_WRAP)
    if style == '"':
        writer.write_double_quoted(text, split=False)
    else:
        writer.write_single_quoted(text, split=False)
    result: str = stream.getvalue()
    return result


# A file hash (`sha256:` and 64 hex digits) or 64 hex digits with a letter other than b or e:
# every resolver, pbem's and PyYAML's, reads such a text as the string itself (no number, date,
# bool or null has one of the letters a, c, d, f; `0b`, `0x`, `0o` and floats' e need b, x, o or
# e alone), and PyYAML's analysis allows it plain (letters, digits and a colon not before a space).
# So it is written as it is, without the analysis (about 40 µs each, and each hash is new).
# tests/test_speed_yaml.py compares the two on many such texts.
_HEX_DIGITS = "0123456789abcdef"


def _plain_hash(text: str) -> bool:
    """Whether `text` is `sha256:` and 64 hex digits, or 64 hex digits with one of a, c, d, f."""
    if len(text) == 71 and text.startswith("sha256:"):
        return not text[7:].strip(_HEX_DIGITS)
    return len(text) == 64 and not text.strip(_HEX_DIGITS) and ("a" in text or "c" in text or "d" in text
                                                                 or "f" in text)


def _scalar_text(text: str) -> str:
    """How the reference emitter writes the string `text` as a block-context scalar."""
    found = _SCALAR_CACHE.get(text)
    if found is not None:
        return found
    if _plain_hash(text):
        return text  # not kept: a hash seldom comes back
    return _analyzed_scalar_text(text)


def _simple_scalar_text(text: str) -> str | None:
    """`_analyzed_scalar_text` for a printable text, decided without PyYAML (`scalar_style`); None:
    ask PyYAML's analysis."""
    if not text or not text.isprintable():
        return None
    return printable_scalar_text(text, _plain_is_string(text))


def _analyzed_scalar_text(text: str) -> str:
    """`_scalar_text` by PyYAML's own analysis and resolver (kept for the next time)."""
    simple = _simple_scalar_text(text)
    if simple is not None:
        result = simple
    elif _BREAKS_RE.search(text) or not _plain_is_string(text):
        result = _quoted(text, '"')  # the representer asks for double quotes
    else:
        analyzer, resolver = _analysis_tools()
        analysis = analyzer.analyze_scalar(text)
        implicit = resolver.resolve(_pyyaml().ScalarNode, text, (True, False)) == _STR_TAG
        if implicit and analysis.allow_block_plain:
            result = text
        elif analysis.allow_single_quoted:
            result = _quoted(text, "'")
        else:
            result = _quoted(text, '"')
    if len(text) <= _SCALAR_CACHE_LONGEST:
        if len(_SCALAR_CACHE) >= _SCALAR_CACHE_MAX:
            _SCALAR_CACHE.clear()
        _SCALAR_CACHE[text] = result
    return result


_KEY_CACHE: dict[str, str] = {}  # keys repeat in every document: their text, once checked


def _key_text(key: Any) -> str:
    if type(key) is str:
        found = _KEY_CACHE.get(key)
        if found is not None:
            return found
    if type(key) is not str or not 0 < len(key) <= _MAX_FAST_KEY or _BREAKS_RE.search(key):
        raise _Fallback
    text = _scalar_text(key)
    if len(_KEY_CACHE) >= _SCALAR_CACHE_MAX:
        _KEY_CACHE.clear()
    _KEY_CACHE[key] = text
    return text


def _fast_dump(obj: Any) -> str:
    kind = type(obj)
    lines: list[str] = []
    if kind is dict and obj:
        _fast_map(obj, "", None, lines, 0)
    elif (kind is list or kind is tuple) and obj:
        _fast_seq(obj, "", None, lines, 0)
    else:
        raise _Fallback
    lines.append("")
    return "\n".join(lines)


def _fast_map(mapping: dict[Any, Any], pad: str, lead: str | None, lines: list[str], depth: int) -> None:
    """Entries at column len(pad); the first one after `lead` (a list item's dashes) if given."""
    inner = pad + "  "
    child = depth + 1
    keys, scalars, append = _KEY_CACHE, _SCALAR_CACHE, lines.append  # the caches looked up here: no call per entry
    for key, value in mapping.items():
        key_text = keys.get(key) if type(key) is str else None
        head = (pad if lead is None else lead) + (_key_text(key) if key_text is None else key_text)
        lead = None
        kind = type(value)
        if kind is str:
            text = scalars.get(value)
            append(head + ": " + (_scalar_text(value) if text is None else text))
        elif kind is int:
            append(head + ": " + int.__repr__(value))
        elif kind is bool:
            append(head + (": true" if value else ": false"))
        elif value is None:
            append(head + ": null")
        elif kind is dict or kind is list or kind is tuple:
            if child >= MAX_DEPTH:
                raise _Fallback
            if not value:
                append(head + (": {}" if kind is dict else ": []"))
            elif kind is dict:
                append(head + ":")
                _fast_map(value, inner, None, lines, child)
            else:
                append(head + ":")
                _fast_seq(value, pad, None, lines, child)
        else:
            raise _Fallback


def _fast_seq(items: list[Any] | tuple[Any, ...], pad: str, lead: str | None, lines: list[str], depth: int) -> None:
    """Items with their dash at column len(pad); the first one after `lead` if given."""
    inner = pad + "  "
    child = depth + 1
    dash = pad + "- "
    scalars, append = _SCALAR_CACHE, lines.append
    for value in items:
        head = dash if lead is None else lead + "- "
        lead = None
        kind = type(value)
        if kind is str:
            text = scalars.get(value)
            append(head + (_scalar_text(value) if text is None else text))
        elif kind is int:
            append(head + int.__repr__(value))
        elif kind is bool:
            append(head + ("true" if value else "false"))
        elif value is None:
            append(head + "null")
        elif kind is dict or kind is list or kind is tuple:
            if child >= MAX_DEPTH:
                raise _Fallback
            if not value:
                append(head + ("{}" if kind is dict else "[]"))
            elif kind is dict:
                _fast_map(value, inner, head, lines, child)
            else:
                _fast_seq(value, inner, head, lines, child)
        else:
            raise _Fallback
