"""Unit symbols in the NATO (APP-6) style, drawn in a frame: the counters of a hex map (svg.py), their
legend, and the bases of a table whose kind has one (table.py)."""

from __future__ import annotations

from typing import Any

SYMBOLS = (("infantry", "infantry"), ("hw", "heavy weapons"), ("cavalry", "cavalry"), ("artillery", "artillery"),
           ("armour", "armour (tracked)"))


def symbol_of(kind: str) -> str:
    """Which symbol of SYMBOLS a counter of this kind carries; "" for none (a conceal marker, a decoy).
    "unit" (an enemy counter whose kind the view does not give) is drawn as infantry, as before."""
    if kind in ("hw", "cavalry", "armour"):
        return kind
    if "artillery" in kind:
        return "artillery"
    return "infantry" if kind in ("infantry", "unit") else ""


def symbol_marks(dwg: Any, symbol: str, box: tuple[float, float, float, float], ink: str, dot: float) -> list[Any]:
    """A NATO (APP-6) style unit symbol in the frame `box` (x, y, width, height): infantry a saltire, cavalry
    one slash, heavy weapons a saltire with a dot, artillery a dot, armour (tracked) an oval."""
    bx, by, bw, bh = box
    out = [dwg.rect((bx, by), (bw, bh), fill="none", stroke=ink, stroke_width=1)]
    if symbol in ("infantry", "hw", "cavalry"):
        out.append(dwg.line((bx, round(by + bh, 2)), (round(bx + bw, 2), by), stroke=ink))
    if symbol in ("infantry", "hw"):
        out.append(dwg.line((bx, by), (round(bx + bw, 2), round(by + bh, 2)), stroke=ink))
    if symbol in ("hw", "artillery"):
        out.append(dwg.circle((round(bx + bw / 2, 2), round(by + bh / 2, 2)), dot, fill=ink))
    if symbol == "armour":
        ow, oh = round(bw * 0.7, 2), round(bh * 0.6, 2)
        out.append(dwg.rect((round(bx + (bw - ow) / 2, 2), round(by + (bh - oh) / 2, 2)), (ow, oh), rx=round(oh / 2, 2),
                            fill="none", stroke=ink, stroke_width=1, **{"class": "symbol-armour"}))
    return out
