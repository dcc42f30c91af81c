"""Read back a file that is exactly `yamlio.dump`'s canonical text, without PyYAML.

Most files a command reads were written by pbem itself (turn files, views, game.yaml, receipts)
or by a bot through the same dumper, so they are canonical text: block style, two-space
indents, one value per line, scalars written only the ways `yamlio` writes them. Importing
PyYAML costs a one-shot command some 15 ms, more than a whole fbsm adjudication, so such a
file is read here line by line.

The reading proves itself instead of re-implementing YAML: the value read is dumped again and
kept only if that gives `data` back byte for byte. `yamlio.dump` promises that the strict loader
reads its text back equal (tests/test_yamlio.py and tests/test_speed_yaml.py hold it to that),
so a value that dumps to `data` is the value the strict loader would read from `data`. Anything
else (a comment, flow style, an escape, a line this reader takes wrongly) gives None, and the
caller reads the file the usual way. The work is linear in the file, and nesting is bounded by
`yamlio.MAX_DEPTH`, so a hostile file costs no more here than its size.
"""

from __future__ import annotations

from typing import Any

from . import yamlio



def max_bytes() -> int:
    """The longest file read here. Every value of a canonical dump takes at least one character of
    its own, so a file this short holds fewer values than the strict loader's limit (and is no
    bigger than it reads); asked at each read, as the strict loader reads its limits."""
    return min(yamlio.MAX_NODES, yamlio.MAX_FILE_BYTES)


class _NotCanonical(Exception):
    """A line this reader does not take: the file is read the usual way."""


def read_canonical(data: bytes) -> Any:
    """The document `data` holds if `data` is its canonical text (see the module's docstring), else None.

    None also for a document that is not a non-empty mapping or list, the only ones `yamlio`'s
    fast emitter writes.
    """
    if len(data) > max_bytes() or not data.endswith(b"\n"):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")
    lines.pop()  # the empty remainder after the final newline
    reader = _Reader(lines)
    try:
        value, end = reader.node(0, 0, 0)
    except (_NotCanonical, yamlio.NotPlain):
        return None
    if end != len(lines) or yamlio.fast_dump(value) != text:
        return None
    return value


def _scalar(text: str) -> Any:
    """The value of one scalar as `yamlio` writes it alone after `key: ` or `- `."""
    if text.startswith('"'):
        inner = text[1:-1]
        if len(text) < 2 or not text.endswith('"') or '"' in inner or "\\" in inner:
            raise _NotCanonical
        return inner
    if text.startswith("'"):
        inner = text[1:-1]
        if len(text) < 2 or not text.endswith("'") or "'" in inner.replace("''", ""):
            raise _NotCanonical
        return inner.replace("''", "'")
    if text == "[]":
        return []
    if text == "{}":
        return {}
    return yamlio.plain_scalar_value(text)


def _key_end(entry: str) -> int:
    """Where the key of a mapping line ends (a quoted key's closing quote counted), or -1 if none
    could: the text is no mapping entry then."""
    if entry[:1] in ('"', "'"):
        quote = entry[0]
        close = entry.find(quote, 1)
        while quote == "'" and close >= 0 and entry[close + 1:close + 2] == "'":  # '' is a quote inside
            close = entry.find(quote, close + 2)
        return -1 if close < 0 else close + 1
    found = entry.find(": ")
    if found >= 0:
        return found
    return len(entry) - 1 if entry.endswith(":") else -1


def _is_entry(entry: str) -> bool:
    """Whether a line's text (after its indent or a list item's dash) is `key: ...` or `key:`."""
    end = _key_end(entry)
    return end >= 0 and (entry[end:] == ":" or entry.startswith(": ", end))


def _split_entry(entry: str) -> tuple[str, str | None]:
    """A mapping line's key (as a scalar's text) and what follows `: ` (None after a bare `key:`)."""
    end = _key_end(entry)
    if end < 0:
        raise _NotCanonical
    rest = entry[end:]
    if rest == ":":
        return entry[:end], None
    if not rest.startswith(": "):
        raise _NotCanonical
    return entry[:end], rest[2:]


class _Reader:
    """The lines of one canonical document, read as the fast emitter lays them out.

    A node starts at a column of a line: at its indentation, or after a list item's `- `. A
    mapping's entries and a list's items each start a line at the node's column; a mapping
    entry's container value starts on the next line, a mapping two columns further in, a list at
    the key's own column; a list item's container starts on the dash's own line.
    """

    __slots__ = ("lines",)

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def node(self, index: int, column: int, depth: int) -> tuple[Any, int]:
        """The mapping or list starting at `column` of line `index`, and the index of the line after it."""
        if index >= len(self.lines):
            raise _NotCanonical
        if self.lines[index].startswith("- ", column):
            return self.items(index, column, depth)
        return self.entries(index, column, depth)

    def items(self, index: int, column: int, depth: int) -> tuple[list[Any], int]:
        if depth >= yamlio.MAX_DEPTH:
            raise _NotCanonical
        lines, found = self.lines, []
        dash = " " * column + "- "
        inner = column + 2
        while True:
            line = lines[index]
            value: Any
            if line.startswith("- ", inner):  # checked before slicing: no copy of a deep line kept per level
                value, index = self.items(index, inner, depth + 1)
            elif _is_entry(line[inner:]):
                value, index = self.entries(index, inner, depth + 1)
            else:
                value = _scalar(line[inner:])
                index += 1
            found.append(value)
            if index >= len(lines) or not lines[index].startswith(dash):
                return found, index

    def entries(self, index: int, column: int, depth: int) -> tuple[dict[str, Any], int]:
        if depth >= yamlio.MAX_DEPTH:
            raise _NotCanonical
        lines, found = self.lines, {}
        pad = " " * column
        while True:
            key_text, value_text = _split_entry(lines[index][column:])
            key = _scalar(key_text)
            if type(key) is not str or key in found:
                raise _NotCanonical
            index += 1
            if value_text is not None:
                found[key] = _scalar(value_text)
            elif index < len(lines) and lines[index].startswith(pad + "- "):  # a list, at the key's column
                found[key], index = self.items(index, column, depth + 1)
            elif _starts_at(lines, index, pad + "  "):
                found[key], index = self.entries(index, column + 2, depth + 1)
            else:
                raise _NotCanonical
            if not _starts_at(lines, index, pad) or lines[index].startswith("- ", column):
                return found, index


def _starts_at(lines: list[str], index: int, pad: str) -> bool:
    """Whether line `index` holds something starting just after `pad` (spaces)."""
    if index >= len(lines):
        return False
    line = lines[index]
    return line.startswith(pad) and len(line) > len(pad) and line[len(pad)] != " "
