"""Did you mean: the names a mistyped unit id most likely meant, added to the message refusing it.

The names offered come only from what the player can already read: a rule's own legal list, or
the side's own units in its view. So a guess tells nothing the view does not (the property
`orders` keeps for every rejection). A look-alike slip (GO1 for G01, g-ir12 for G-IR12) is
named alone, and so is an id whose leading zeros were dropped or added (G7 for G07, US001 for
US01); otherwise `difflib` ranks the nearest names, and it is imported on the error path only: a
good orders file never loads it.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import Problem
from .pattern_words import MISFORMED

_UNKNOWN_UNIT = re.compile(r" is not (?:a|an|one of)\b.*\b(?:units?|bases?|Artillery Supports?)\b")
"""The words after the id in a rule's refusal of a unit it does not know ("G-IR121 is not a german unit ...")."""

_LOOK_ALIKE = str.maketrans({"o": "0", "i": "1", "l": "1"})


_LEADING_ZEROS = re.compile(r"(?<![0-9])0+(?=[0-9])")
"""The zeros that open a run of digits (G07's, 0101's): a player drops or adds them without seeing it."""


def _folded(name: str) -> str:
    """A name as a slip of the eye or of the shift key reads it: G01 and GO1, g-ir12 and G-IR12 are one."""
    return name.lower().translate(_LOOK_ALIKE)


def _unpadded(name: str) -> str:
    """A folded name without the zeros that open its digit runs: G7, G07 and GO7 are one."""
    return _LEADING_ZEROS.sub("", _folded(name))


def close_names(word: str, names: list[str], most: int = 3) -> list[str]:
    """The names `word` most likely misspells, likeliest first (difflib on look-alike-folded names)."""
    import difflib  # the error path only: a good file never loads it

    by_fold: dict[str, list[str]] = {}
    for name in names:
        if name != word:
            by_fold.setdefault(_folded(name), []).append(name)
    if _folded(word) in by_fold:  # a look-alike slip: that name, and no weaker guesses beside it
        return by_fold[_folded(word)][:most]
    padded = [name for fold, same in by_fold.items() if _unpadded(fold) == _unpadded(word) for name in same]
    if padded:  # a leading zero dropped or added (G7 for G07): as sure a slip, named alone too
        return padded[:most]
    near = difflib.get_close_matches(_folded(word), list(by_fold), n=most, cutoff=0.6)
    return [name for fold in near for name in by_fold[fold]][:most]


def value_at(data: Any, path: tuple[str | int, ...]) -> Any:
    """What `data` holds at a problem's path inside it (None where the path leads nowhere)."""
    value = data
    for part in path:
        if isinstance(part, int) and isinstance(value, list) and 0 <= part < len(value):
            value = value[part]
        elif isinstance(part, str) and isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def _strings(value: Any) -> list[str]:
    """The names a value at a problem's path gives: itself, or the names of a list (`bases: [...]`)."""
    if isinstance(value, str):
        return [value]
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


_RUN = re.compile(r"([A-Za-z][A-Za-z-]*)([0-9]+)-\1([0-9]+)")
"""A run of ids as `pbem.core.listing.compact` writes it: US01-US48."""


def _expanded(item: str) -> list[str]:
    """The ids a legal list's item names: itself, or every id of a run (US01-US48), as wide as its first."""
    run = _RUN.fullmatch(item)
    if run is None or int(run.group(3)) - int(run.group(2)) > 999:
        return [item]
    prefix, width = run.group(1), len(run.group(2))
    return [f"{prefix}{number:0{width}d}" for number in range(int(run.group(2)), int(run.group(3)) + 1)]


def _known_names(legal: str | None, view_state: dict[str, Any], side: str) -> list[str]:
    """The names a refused id may have meant: the legal list's ids (its runs spelt out), else (no legal given)
    the side's own units."""
    if legal is not None:  # (words before a list end with a colon: "one of your units on the map: G01-G30")
        items = [item.rsplit(": ", 1)[-1] for item in legal.split(", ")]
        return [name for item in items if item and " " not in item and item != "none" for name in _expanded(item)]
    units = view_state.get("units")
    if not isinstance(units, dict):
        return []
    return [str(uid) for uid, unit in units.items()
            if not (isinstance(unit, dict) and "side" in unit and unit["side"] != side)]


def _asked(message: str, guesses: list[str]) -> str:
    return f"{message}: did you mean {' or '.join(guesses)}?" if guesses else message


def with_a_guess(message: str, value: Any, legal: str | None, view_state: dict[str, Any], side: str) -> str:
    """A rule's refusal of a unit id the view does not know, with the closest ids the player may have meant.

    Only a rule's own "X is not a ... unit" refusal gets one, X being the id at the problem's path
    (`value`) or one of the ids listed there; any other message comes back as it is.
    """
    named = next((word for word in _strings(value) if message.startswith(word)
                  and _UNKNOWN_UNIT.match(message, len(word))), None)
    if named is None:
        return message
    names = _known_names(legal, view_state, side)
    return message if named in names else _asked(message, close_names(named, names))


def with_a_look_alike(problem: Problem, data: Any, view_state: dict[str, Any], side: str) -> Problem:
    """A schema problem of a string inside the orders list that is one of the side's unit ids but for case or a
    look-alike letter (g01 for G01): that id, named. Nothing else is guessed here, where nothing says the
    string names a unit."""
    if len(problem.path) < 3 or problem.path[0] != "orders" or "did you mean" in problem.message:
        return problem  # (an envelope field is no unit, and the envelope's problems are matched by their words)
    value = value_at(data, problem.path)
    if not isinstance(value, str):
        return problem
    meant = [name for name in _known_names(None, view_state, side) if name != value and _unpadded(name) == _unpadded(value)]
    if not meant:
        return problem
    subject, misformed, form = problem.message.partition(MISFORMED)
    if misformed:  # the guess first, then the form it should have (in words: `pattern_words`)
        return problem.replaced(message=f"{_asked(subject, meant)} It should be {form}")
    return problem.replaced(message=_asked(problem.message, meant))
