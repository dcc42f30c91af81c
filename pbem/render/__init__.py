"""Pictures and reports of a view: `map_svg(view)` and `report_text(view)`.

Both read only the view a side receives (through a per-ruleset adapter, `adapters.py`), so
nothing they draw or say can tell a side more than its view does. The mail judge calls these
two functions when they exist (`pbem/mail/report.py`).
"""

from __future__ import annotations

from typing import Any, Mapping



def map_svg(view: Mapping[str, Any], area: str | None = None) -> str:
    """The side's map as an SVG document; `area` is "CCRR-CCRR" (two corners) to zoom in."""
    from .svg import render  # imported on use: the mail judge imports this package on every answer

    return render(view, area)


def report_text(view: Mapping[str, Any], fmt: str = "text") -> str:
    """The last adjudication as sentences citing rule sections, the state in a few lines, what is next."""
    from .report import report

    return report(view, fmt)


__all__ = ["map_svg", "report_text"]
