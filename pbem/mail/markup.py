"""The two forum markups a post is written in: Markdown and BBCode.

Markdown is the CommonMark that GitHub and Discourse both render (headings, bold, lists,
inline code, fenced blocks, images). BBCode keeps to the tags phpBB shows with its default
set: [b], [i], [code], [list]/[*], [url] and [img] (no [font], no [size]: boards switch those
off or draw them differently).
"""

from __future__ import annotations

import re
from typing import Protocol

from ..core.api import PbemError

FORMATS = ("markdown", "bbcode")


class Markup(Protocol):
    def heading(self, text: str) -> str: ...

    def bold(self, text: str) -> str: ...

    def text(self, text: str) -> str:
        """Plain words, made safe for the markup (nothing in them turns into formatting)."""

    def code(self, text: str) -> str:
        """A hash or a command inside a sentence."""

    def bullets(self, items: list[str]) -> list[str]: ...

    def block(self, lines: list[str]) -> list[str]:
        """Lines shown as they are, in a fixed-width font."""

    def image(self, name: str, alt: str) -> str: ...


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


class Markdown:
    def heading(self, text: str) -> str:
        return f"## {self.text(text)}"

    def bold(self, text: str) -> str:
        return f"**{text}**"

    def text(self, text: str) -> str:
        escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
        return re.sub(r"^([#+-]|\d+\.)(\s)", r"\\\1\2", escaped)  # not a heading or a list item

    def code(self, text: str) -> str:
        return f"`{text}`"

    def bullets(self, items: list[str]) -> list[str]:
        return [f"- {item}" for item in items]

    def block(self, lines: list[str]) -> list[str]:
        return ["```text", *lines, "```"]

    def image(self, name: str, alt: str) -> str:
        return f"![{self.text(alt)}]({name})"


class BBCode:
    def heading(self, text: str) -> str:
        return f"[b]{text}[/b]"

    def bold(self, text: str) -> str:
        return f"[b]{text}[/b]"

    def text(self, text: str) -> str:
        return text  # phpBB shows a bracket that opens no known tag as it is

    def code(self, text: str) -> str:
        return f"[i]{text}[/i]"  # [code] is a block on phpBB, not a word in a sentence

    def bullets(self, items: list[str]) -> list[str]:
        return ["[list]", *(f"[*]{item}" for item in items), "[/list]"]

    def block(self, lines: list[str]) -> list[str]:
        return ["[code]" + "\n".join(lines) + "[/code]"]

    def image(self, name: str, alt: str) -> str:
        return f"[img]{name}[/img]"


def markup(fmt: str) -> Markup:
    if fmt == "markdown":
        return Markdown()
    if fmt == "bbcode":
        return BBCode()
    raise PbemError(f"format {fmt!r}: use one of {', '.join(FORMATS)}")
