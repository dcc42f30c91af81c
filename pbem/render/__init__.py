"""Pictures and reports of a view: `map_svg(view)`, `has_map(view)` and `report_text(view)`.

All of them read only the view a side receives (through its ruleset's picture adapter,
`adapters.py`), so nothing they draw or say can tell a side more than its view does. The words
(one line per event, the line for what comes next, the report) are in `words.py`; the mail
judge and the forum post use them and these functions plainly (`pbem/mail/report.py`).

    adapters  what a ruleset's picture adapter gives: counters, marks, actions on a hex map;
              bases, markers, actions on a table
    board     the board interfaces a picture is drawn on (a hex map, an open table)
    svg       the SVG drawing of a hex map (and the dispatch to table)
    table     the SVG drawing of an open table
    words     event lines, the next line, the report
    cli       `pbem render` and `pbem report`
"""

from __future__ import annotations

from typing import Any, Mapping


def has_map(view: Mapping[str, Any]) -> bool:
    """Whether the view's ruleset draws pictures (a ruleset without them is not an error)."""
    from .adapters import adapter_for

    return adapter_for(view) is not None


def map_svg(view: Mapping[str, Any], area: str | None = None) -> str:
    """The side's map as an SVG document; `area` is "CCRR-CCRR" (two corner hexes) to zoom in, or on
    a table "X,Y-X,Y" (two corners in the table's unit).

    ValueError when the view's ruleset has no pictures (ask `has_map` first) or `area` is not two
    corners.
    """
    from .svg import render  # imported on use: svgwrite is needed only to draw

    return render(view, area)


def report_text(view: Mapping[str, Any], fmt: str = "text") -> str:
    """The last adjudication as sentences citing rule sections, the state in a few lines, what is next."""
    from .words import report

    return report(view, fmt)


__all__ = ["has_map", "map_svg", "report_text"]
