"""Error types that say where and why: file, line:column, document path, rule section.

Every rejection pbem prints is built from `Problem`s, so a player always learns the
file, the position, the order concerned, the rule section and what would be legal.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from .records import FrozenRecord, set_field

DocPath = tuple[str | int, ...]


def format_path(path: DocPath) -> str:
    """Render a document path the way a reader would point at it: `orders[2].path[0]`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def citation(section: str) -> str:
    """How a message cites its section: `rule 9.13` for a rulebook's, `see docs/protocol.md §4` for one of our pages,
    `in the scenario` for a fault of the scenario file (section "scenario": no rule of the game is broken).

    A player reads "rule" as the game's rulebook; a page of ours (the protocol, a game's notes) is
    something to look up, not a rule of the game.
    """
    if section.startswith("docs/"):
        return f"see {section}"
    return "in the scenario" if section == "scenario" else f"rule {section}"


class Problem(FrozenRecord):
    """One thing wrong with one input, located as precisely as we can."""

    __slots__ = ("message", "file", "line", "column", "path", "order", "section", "legal")
    message: str
    file: str | None
    line: int | None
    column: int | None
    path: DocPath
    order: int | None
    section: str | None
    legal: str | None

    def __init__(self, message: str, file: str | None = None, line: int | None = None, column: int | None = None,
                 path: DocPath = (), order: int | None = None, section: str | None = None,
                 legal: str | None = None) -> None:
        for name, value in zip(self.__slots__, (message, file, line, column, path, order, section, legal)):
            set_field(self, name, value)

    def located(self, file: str | None = None, line: int | None = None, column: int | None = None) -> "Problem":
        """A copy with location filled in where this one has none."""
        return self.replaced(
            file=self.file if self.file is not None else file,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
        )

    def replaced(self, **changes: Any) -> "Problem":
        """A copy with the named fields changed, as `dataclasses.replace` makes it.

        Callers use this, not `dataclasses.replace`, so that `Problem` can stop being a dataclass
        (and no one-shot command import `dataclasses`) without touching them again.
        """
        values: dict[str, Any] = {name: getattr(self, name) for name in _PROBLEM_FIELDS}
        values.update(changes)
        return Problem(**values)

    def __str__(self) -> str:
        where = self.file or ""
        if self.line is not None:
            where += f":{self.line}" if where else f"line {self.line}"
            if self.column is not None:
                where += f":{self.column}"
        parts = [where + ":"] if where else []
        if self.order is not None:
            parts.append(f"order {self.order + 1}:")
        if self.path:
            parts.append(f"at {format_path(self.path)}:")
        parts.append(self.message)
        if self.section:
            parts.append(f"({citation(self.section)})")
        text = " ".join(parts)
        if self.legal:
            text += f"; legal: {self.legal}"
        return text

    def as_dict(self) -> dict[str, object]:
        """Plain data for files and mail replies (no None values)."""
        out: dict[str, object] = {"message": self.message}
        for key in ("file", "line", "column", "order", "section", "legal"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.path:
            out["path"] = format_path(self.path)
        return out


_PROBLEM_FIELDS = ("message", "file", "line", "column", "path", "order", "section", "legal")


class PbemError(ValueError):
    """Base of every error pbem reports to a user. Carries one or more Problems."""

    kind = "error"

    def __init__(self, problems: Problem | str | Sequence[Problem], *, file: str | None = None) -> None:
        if isinstance(problems, str):
            problems = [Problem(problems, file=file)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = [p.located(file) if file else p for p in problems]
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def collect(cls, problems: Iterable[Problem], *, file: str | None = None) -> None:
        """Raise with every problem at once, if there is any."""
        found = list(problems)
        if found:
            raise cls(found, file=file)


class YamlError(PbemError):
    """The file is not the strict YAML pbem accepts."""

    kind = "yaml"


class SchemaError(PbemError):
    """The document does not match its JSON Schema."""

    kind = "schema"


class SignatureError(PbemError):
    """A signature is missing, malformed, or does not verify for the expected key/namespace."""

    kind = "signature"


class OrdersError(PbemError):
    """Orders (or a decision reply) are for the wrong game/seq/side/phase, or break a rule."""

    kind = "orders"


class UsageError(PbemError):
    """A command was given arguments it cannot work with (an option out of range, a missing one)."""

    kind = "usage"


class ArchiveError(PbemError):
    """The game directory is missing something, is locked, or cannot take this write."""

    kind = "archive"


class KeyFileError(PbemError):
    """A key file cannot be read (wrong type, wrong passphrase, not OpenSSH)."""

    kind = "key"
