"""`pbem render VIEW.yaml` and `pbem report VIEW.yaml`: wire with `add_commands(subparsers)`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pbem.core.api import PbemError, UsageError, yamlio

from . import map_svg, report_text


def _load(path: str) -> dict[str, Any]:
    data = yamlio.load_file(Path(path)).data
    if not isinstance(data, dict) or data.get("kind") != "view":
        raise PbemError(f"{path} is not a view file (kind: view)")
    return data


def _cairosvg() -> Any:
    """The cairosvg module, or a refusal saying how to install it into this clone (README: the render extra)."""
    try:
        import cairosvg
    except ImportError as error:
        raise UsageError("pbem render --png needs cairosvg, which is not installed: in this clone run "
                         "pip install -e '.[render]' (or pip install cairosvg); without --png the SVG alone "
                         "is written") from error
    return cairosvg


def png_bytes(svg: str) -> bytes:
    """The SVG as PNG through cairosvg (optional: the render extra)."""
    return bytes(_cairosvg().svg2png(bytestring=svg.encode("utf-8")))


def _svg_path(args: argparse.Namespace) -> Path:
    """Where the SVG goes: --out, or the view's name with .svg; an --out ending in .png is refused."""
    if not args.out:
        return Path(args.view).with_suffix(".svg")
    out = Path(args.out)
    if out.suffix.lower() == ".png":
        raise UsageError(f"--out {out}: --out names the SVG file, not the PNG; write --out {out.with_suffix('.svg')} "
                         f"(--png writes the PNG beside it, {out.with_suffix('.png')})")
    return out


def _outside_map(view: dict[str, Any], area: str) -> str | None:
    """Why `--area` leaves a hex map, or None (a table checks its own area as it draws)."""
    from pbem.geometry.hexgrid import Hex

    from .adapters import Picture, adapter_for

    adapter = adapter_for(view)
    picture = adapter.picture(view) if adapter is not None else None
    if not isinstance(picture, Picture):
        return None
    (c0, c1), (r0, r1) = picture.map.columns, picture.map.rows
    first, _, second = area.partition("-")
    for text in (first, second or first):
        corner = Hex.parse(text.strip())
        if not (c0 <= corner.col <= c1 and r0 <= corner.row <= r1):
            return (f"--area {area}: {text.strip()} is outside the map, whose hexes run from columns {c0:02d}-{c1:02d} "
                    f"and rows {r0:02d}-{r1:02d}")
    return None


def cmd_render(args: argparse.Namespace) -> int:
    """Draw the view; every refusal (no cairosvg for --png, a bad --out or --area) comes before any file is written."""
    if args.png:
        _cairosvg()
    out = _svg_path(args)
    view = _load(args.view)
    try:
        outside = _outside_map(view, args.area) if args.area else None
        if outside:
            raise UsageError(outside)
        svg = map_svg(view, area=args.area)
    except PbemError:
        raise
    except ValueError as error:
        raise UsageError(str(error)) from None
    png = png_bytes(svg) if args.png else None
    out.write_text(svg, encoding="utf-8")
    print(out)
    if png is not None:
        out.with_suffix(".png").write_bytes(png)
        print(out.with_suffix(".png"))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    view = _load(args.view)
    sys.stdout.write(report_text(view, args.format))
    return 0


def add_commands(subparsers: Any) -> None:
    render = subparsers.add_parser("render", help="draw a view's map as SVG (and PNG)",
                                   description="Draw a view's map as SVG (and PNG): only what that side may see.")
    render.add_argument("view", help="a view file (turns/NNNN/SIDE.yaml)")
    render.add_argument("--out", help="where to write the SVG, not a .png name (default: the view's name with "
                        ".svg); --png writes the PNG beside it, with .png")
    render.add_argument("--area", help="only this part of the map: two corner hexes, e.g. 2030-2640; on a table two corner points "
                        "in its unit, e.g. 0,0-600,400")
    render.add_argument("--png", action="store_true", help="also write a PNG next to the SVG (needs cairosvg)")
    render.set_defaults(handler=cmd_render)
    report = subparsers.add_parser("report", help="the last adjudication of a view in plain words",
                                   description="The last adjudication of a view in sentences citing the rules, the "
                                               "state, and what comes next.")
    report.add_argument("view", help="a view file (turns/NNNN/SIDE.yaml)")
    report.add_argument("--format", choices=("text", "markdown"), default="text",
                        help="plain text (default) or markdown")
    report.set_defaults(handler=cmd_report)
