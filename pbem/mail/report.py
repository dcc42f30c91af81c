"""What the judge attaches to a result: the view's report in words and its map picture.

Both come from `pbem.render` and read the view alone (what the side may know), so mailing them
to that side can never leak. A ruleset without pictures gets the report and no map; anything
that fails in drawing or wording is a bug and is raised, never swallowed.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import render
from ..render.adapters import adapter_for
from ..render.words import event_line, next_line
from .compose import Part


def text_report(view: Mapping[str, Any]) -> str:
    """The view's last adjudication in plain words (`pbem.render.report_text`)."""
    return render.report_text(dict(view))


def event_sentences(view: Mapping[str, Any]) -> list[str]:
    """Each event of the view as `pbem report` says it: its ruleset's sentence (citing the rule
    section) where the picture adapter has one, else the generic line."""
    adapter = adapter_for(view)
    return [(adapter.sentence(event, view) if adapter else None) or event_line(event)
            for event in view.get("events") or []]


def side_names(view: Mapping[str, Any], sides: Sequence[str]) -> dict[str, str]:
    """How the view's ruleset writes each side's name ("US", "German"); the id itself without pictures."""
    adapter = adapter_for(view)
    return {side: adapter.side_name(side) if adapter else side for side in sides}


def map_picture(view: Mapping[str, Any], stem: str) -> Part | None:
    """`stem.svg`, the view's map drawn by `pbem.render`, or None when its ruleset draws no pictures."""
    if not render.has_map(view):
        return None
    svg = render.map_svg(dict(view))
    return Part(f"{stem}.svg", svg.encode("utf-8"), "image/svg+xml")


__all__ = ["event_line", "event_sentences", "map_picture", "next_line", "side_names", "text_report"]
