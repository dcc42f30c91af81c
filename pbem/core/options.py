"""Decision options as people read and give them: a number each, a short name where one fits.

A decision request's `options` list is fixed when the referee signs it, so the n-th option
(counted from 1) is a stable handle on it. Most options also get a name: the ruleset's
`option_name(topic, option)`, by default `default_name` below (a word names itself, a list of
words is joined with `+`, a mapping of words reads `key=value,...`, an empty one is `none`). A
name is dropped where two options would share it, or where it reads as a number of the list,
so a name or a number always means exactly one option.

`show` writes an option as one line of YAML flow text (what a player would type), `lines` the
whole list as `N: OPTION  # name`, and `choose` turns an answer given as the option itself, its
name or its number into the option. A reply file always holds the option itself
(docs/protocol.md §4): names and numbers are for the people who write replies.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Mapping, Sequence

from .chance import canonical_json

Namer = Callable[[str, Any], "str | None"]

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.+-]*")  # a YAML flow scalar that reads back as this string
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}
MAX_NAME = 40
MAX_SHOWN = 12  # options listed in one line of an error; `pbem decide REQUEST` lists them all


def same_plain(a: Any, b: Any) -> bool:
    """Equality that tells types apart: `true` is not the option 1, nor `"1"` the option 1."""
    return canonical_json(a) == canonical_json(b)


def _word(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = str(value)
    return text if _WORD.fullmatch(text) else None


def default_name(option: Any) -> str | None:
    """A short name for an option, or None when the number alone must do."""
    if isinstance(option, (list, tuple)):
        words = [_word(item) for item in option]
        name = "+".join(w for w in words if w is not None) if all(words) else None
        return (name or "none") if name is not None else None
    if isinstance(option, Mapping):
        parts = []
        for key, value in option.items():
            inner = default_name(value) if isinstance(value, (list, tuple)) else _word(value)
            if _word(key) is None or inner is None:
                return None
            parts.append(f"{key}={inner}")
        return ",".join(parts) or "none"
    return _word(option) if isinstance(option, str) else None


def names(options: Sequence[Any], topic: str = "", namer: Namer | None = None) -> list[str | None]:
    """Each option's name (None where it has none); unique, and never a number of the list."""
    found = [(namer or (lambda _topic, option: default_name(option)))(topic, option) for option in options]
    kept: list[str | None] = []
    for name in found:
        usable = (name is not None and 0 < len(name) <= MAX_NAME and found.count(name) == 1
                  and not (name.isdigit() and 1 <= int(name) <= len(options)))
        kept.append(name if usable else None)
    return kept


def request_names(request: Mapping[str, Any], namer: Namer | None = None) -> list[str | None]:
    """`names` of a decision request's options, under its topic."""
    return names(request["options"], str(request.get("topic", "")), namer)


def show(value: Any) -> str:
    """`value` as one line of YAML flow text: strings plain where YAML reads them back as strings."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{show(str(k))}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        plain = _PLAIN.fullmatch(value) and value.lower() not in _YAML_WORDS
        return value if plain else json.dumps(value, ensure_ascii=False)
    return json.dumps(value)


def lines(options: Sequence[Any], named: Sequence[str | None]) -> list[str]:
    """`N: OPTION` for each option, with `# name` where the name is not the option's own text."""
    out = []
    for number, (option, name) in enumerate(zip(options, named), start=1):
        text = show(option)
        out.append(f"{number}: {text}" + (f"  # {name}" if name is not None and name != text.strip('"') else ""))
    return out


def summary(options: Sequence[Any], named: Sequence[str | None]) -> str:
    """The options on one line (for an error's `legal`), the first `MAX_SHOWN` of a long list."""
    shown = "; ".join(lines(options, named)[:MAX_SHOWN])
    if len(options) > MAX_SHOWN:
        shown += f"; ... ({len(options)} options in all: `pbem decide REQUEST` lists them)"
    return shown


def choose(answer: Any, options: Sequence[Any], named: Sequence[str | None]) -> tuple[bool, Any]:
    """(True, the option) for an answer that is an option, its name or its number; (False, None) otherwise.

    The option itself comes first, so an option that happens to be a number is never read as a
    position in the list.
    """
    for option in options:
        if same_plain(answer, option):
            return True, option
    if isinstance(answer, str) and answer in named:
        return True, options[named.index(answer)]
    number = answer if isinstance(answer, int) and not isinstance(answer, bool) else (
        int(answer) if isinstance(answer, str) and _is_number(answer) else None)
    if number is not None and 1 <= number <= len(options):
        return True, options[number - 1]
    return False, None


def _is_number(text: str) -> bool:
    """A number as typed: digits, without a leading zero (`0101` is a hex id, never the 101st option)."""
    return text.isdigit() and len(text) < 7 and not text.startswith("0")


def from_text(text: str, options: Sequence[Any], named: Sequence[str | None],
              parse: Callable[[str], Any]) -> tuple[bool, Any]:
    """An answer typed on a command line: a name or number as typed, else the option in YAML (`parse`).

    The text is tried as a name before it is parsed, so a hex id such as 0101 needs no quotes.
    """
    stripped = text.strip()
    if stripped in named or (_is_number(stripped) and 1 <= int(stripped) <= len(options)):
        return choose(stripped, options, named)
    return choose(parse(text), options, named)
