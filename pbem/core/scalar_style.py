"""How PyYAML's emitter writes a printable string, decided without importing PyYAML.

Canonical text is defined by PyYAML's pure-Python emitter (`yamlio._reference_dump`): a string
goes plain when its resolver would read it back as a string and its analysis allows the plain
style in block context, else single-quoted, else double-quoted. Importing PyYAML costs a command
some 15 ms, so for a string Python calls printable (no control, line break, byte-order mark,
unassigned or private character, no space but " ") the same choice is made here from the same
rules: the resolver's patterns (copied from PyYAML's resolver.py, MIT licence) and the few checks
its analysis makes on such a string. tests/test_canonical_read.py and tests/test_attack_canonical.py
compare the answer with PyYAML's own on every string of the samples and on many made to sit on
each edge, all of Unicode included.
"""

from __future__ import annotations

import re

# PyYAML's implicit resolvers (its resolver.py). Those of words (bool, null, merge, value) match
# exactly these texts; the number and date patterns are kept as PyYAML writes them, keyed by the
# first characters PyYAML asks them for.
_WORDS = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF "
                   "~ null Null NULL << =".split())
_FLOAT = r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
            |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
            |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
            |[-+]?\.(?:inf|Inf|INF)
            |\.(?:nan|NaN|NAN))$"""
_INT = r"""^(?:[-+]?0b[0-1_]+
            |[-+]?0[0-7_]+
            |[-+]?(?:0|[1-9][0-9_]*)
            |[-+]?0x[0-9a-fA-F_]+
            |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"""
_TIMESTAMP = r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
            |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
             (?:[Tt]|[ \t]+)[0-9][0-9]?
             :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
             (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$"""
_NUMBER_PATTERNS = {char: (_FLOAT, _INT) + ((_TIMESTAMP,) if char.isdigit() else ()) for char in "-+0123456789"}
_NUMBER_PATTERNS["."] = (_FLOAT,)

# Every character those number and date patterns hold: a text with any other is none of them,
# told without compiling the patterns.
_NUMERIC_CHARACTERS = frozenset("0123456789+-._: \teEbBoOxXabcdefABCDEFtTZiInN")

# Characters that make PyYAML's analysis refuse the plain style when a text starts with them.
_INDICATOR_START = frozenset("#,[]{}&*!|>'\"%@`")


def read_as_string(text: str) -> bool:
    """Whether PyYAML's resolver reads the plain scalar `text` (not empty) as a string.

    The number patterns are compiled on first use (re's cache), and only for a text that starts
    like a number and holds nothing but their characters.
    """
    if text in _WORDS:
        return False
    patterns = _NUMBER_PATTERNS.get(text[0], ())
    if not patterns or not set(text) <= _NUMERIC_CHARACTERS:
        return True
    return not any(re.match(pattern, text, re.X) for pattern in patterns)


def plain_allowed(text: str) -> bool:
    """PyYAML's analysis' `allow_block_plain` for a printable text (not empty)."""
    first = text[0]
    if first == " " or text[-1] == " " or text.startswith(("---", "...")) or first in _INDICATOR_START:
        return False
    if first in "?:-" and (len(text) == 1 or text[1] == " "):
        return False
    return text.find(": ", 1) < 0 and not (len(text) > 1 and text[-1] == ":") and " #" not in text


def single_quoted(text: str) -> str:
    """A printable text as PyYAML's writer writes it single-quoted (never wrapped)."""
    return "'" + text.replace("'", "''") + "'"


def printable_scalar_text(text: str, read_back_as_string: bool) -> str | None:
    """How the reference emitter writes the string `text` in block context, for a printable text
    (None for any other: ask PyYAML). `read_back_as_string`: whether pbem's own loader reads the
    plain `text` back as this string (else the representer asks for double quotes)."""
    if not text or not text.isprintable():
        return None
    if not read_back_as_string:
        # The double-quoted writer escapes no printable character of the BMP but these two.
        return None if '"' in text or "\\" in text or max(text) > "\uffff" else '"' + text + '"'
    if read_as_string(text) and plain_allowed(text):
        return text
    return single_quoted(text)  # the analysis allows single quotes for every printable text
