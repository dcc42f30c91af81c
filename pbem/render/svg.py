"""The map picture of a view as SVG, written with svgwrite (no XML string-gluing).

Flat-topped hexes, columns vertical, map north up (the printed layout turned as the map's
`north` says, see `Layout`). Everything drawn comes from the view through its ruleset's
adapter, so the picture can show no more than the view. The board is read only through the
`HexBoard` interface (board.py). A view whose adapter gives a `TablePicture` (an open table,
`TableBoard`) is drawn by `table.py` instead: `render` dispatches on the picture's kind.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from pbem.geometry.hexgrid import Hex

from .adapters import ATTACKS, Action, Adapter, Counter, Mark, Picture, TablePicture, adapter_for
from .board import HexBoard
from .place import Box, Taken, place
from .symbols import SYMBOLS, symbol_marks, symbol_of

R = 30.0  # hex radius (centre to corner), px
SQ3 = math.sqrt(3)
TERRAIN = {
    "clear": "#f3efd9", "marne": "#7fb2e5", "riverbank": "#c9dfae", "surmelin": "#a7cdee",
    "wooded-hills": "#7fa66a", "railroad": "#d8d0c0", "town": "#c9a48a", "prepared-position": "#e8c77a",
    "woods": "#7fa66a", "forest": "#7fa66a", "industrial": "#a9a9b3", "residential": "#d4a27f", "hill": "#c8b07a", "river": "#7fb2e5", "village": "#c9a48a",
}
SIDE = {"us": ("#3d6fb6", "#ffffff"), "german": ("#5b5b5b", "#ffffff"),
        "british": ("#b5843a", "#ffffff")}
SIDE_FALLBACK = ("#7a3d8a", "#ffffff")
EDGE = {"road": ("#8a5a2b", 4), "rail-bridge": ("#444444", 6), "river": ("#2f6fbf", 5), "stream": ("#2f6fbf", 3), "canal": ("#2f6fbf", 5),
        "bridge": ("#222222", 6)}


def _colour(terrain: str) -> str:
    if terrain in TERRAIN:
        return TERRAIN[terrain]
    h = sum(ord(c) * 31 ** i for i, c in enumerate(terrain)) % 360
    return f"hsl({h},35%,80%)"


# cos and sin of the rotation that puts map north up, by the map's north index (exact values)
_H = SQ3 / 2
ROTATION = {0: (1.0, 0.0), 1: (0.5, -_H), 2: (-0.5, -_H), 3: (-1.0, 0.0), 4: (-0.5, _H), 5: (0.5, _H)}


class Layout:
    """Where each hex goes on the page: map north up, whatever the direction the map calls north.

    Printed positions (rows growing downwards, columns to the right, flat-topped hexes) are
    turned about the origin by 60 degrees times the map's `north` index, so that direction
    points up; a flat-topped hex turned by a multiple of 60 degrees is the same hex, and all
    text stays upright. FBSM's north is 3 (row + 1): its map is turned half round.
    """

    def __init__(self, hexmap: HexBoard, area: tuple[Hex, Hex] | None) -> None:
        self.map = hexmap
        (c0, c1), (r0, r1) = hexmap.columns, hexmap.rows
        if area:
            c0, c1 = max(c0, min(area[0].col, area[1].col)), min(c1, max(area[0].col, area[1].col))
            r0, r1 = max(r0, min(area[0].row, area[1].row)), min(r1, max(area[0].row, area[1].row))
        self.cols, self.rows = (c0, c1), (r0, r1)
        self.low = 1 if hexmap.stagger == "odd-low" else 0
        self.north = int(hexmap.north) % 6
        self.cos, self.sin = ROTATION[self.north]
        self.ox = self.oy = 0.0
        points = [self._turned(Hex(c, r)) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)] or [(0.0, 0.0)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        self.ox = -min(xs) + R + 10
        self.oy = -min(ys) + SQ3 * R / 2 + 70
        self.width = max(max(xs) - min(xs) + 2 * R + 20, 420.0)
        self.height = max(ys) - min(ys) + SQ3 * R + 70 + 20

    def _turned(self, h: Hex) -> tuple[float, float]:
        x = h.col * 1.5 * R
        y = h.row * SQ3 * R + (SQ3 * R / 2 if (h.col & 1) == self.low else 0)
        return x * self.cos - y * self.sin, x * self.sin + y * self.cos

    def inside(self, h: Hex) -> bool:
        return self.cols[0] <= h.col <= self.cols[1] and self.rows[0] <= h.row <= self.rows[1] and bool(self.map.on_map(h))

    def centre(self, hex_id: str | Hex) -> tuple[float, float]:
        h = hex_id if isinstance(hex_id, Hex) else Hex.parse(str(hex_id))
        x, y = self._turned(h)
        return round(x + self.ox, 2) + 0.0, round(y + self.oy, 2) + 0.0

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        x, y = self.centre(h)
        return [(round(x + R * math.cos(math.radians(60 * i)), 2), round(y + R * math.sin(math.radians(60 * i)), 2))
                for i in range(6)]


def _parse_area(area: str | None) -> tuple[Hex, Hex] | None:
    if not area:
        return None
    a, _, b = area.partition("-")
    return Hex.parse(a.strip()), Hex.parse((b or a).strip())


def render(view: Mapping[str, Any], area: str | None = None) -> str:
    adapter = adapter_for(view)
    if adapter is None:
        raise ValueError(f"no map renderer for ruleset {(view.get('ruleset') or {}).get('id')!r}")
    pic = adapter.picture(view)
    if isinstance(pic, TablePicture):  # an open table: its own drawing (area: "X,Y-X,Y" in table units)
        from .table import render_view

        return render_view(view, adapter, pic, area)
    import svgwrite  # only when there is something to draw

    lay = Layout(pic.map, _parse_area(area))
    legend_w = 250
    dwg = svgwrite.Drawing(size=(f"{lay.width + legend_w:.0f}", f"{lay.height:.0f}"), debug=False)
    background = dwg.rect((0, 0), (lay.width + legend_w, lay.height), fill="#ffffff")
    dwg.add(background)
    state = view.get("state") or {}
    title = dwg.g(id="title", font_family="sans-serif")
    title.add(dwg.text(f"{view.get('game')}: the {adapter.side_name(view.get('side'))} side's map",
                       insert=(12, 26), font_size=18, font_weight="bold"))
    title.add(dwg.text(f"turn {state.get('turn', '?')}, phase {state.get('phase', '?')}, "
                       f"after adjudication {view.get('seq')}" + (f" (area {area})" if area else ""),
                       insert=(12, 48), font_size=13))
    dwg.add(title)
    key = (id(pic.map), lay.cols, lay.rows)
    static = _STATIC.get(key)
    if static is None or static[0] is not pic.map:  # the map's layers are the same for every view
        if len(_STATIC) > 16:
            _STATIC.clear()
        static = _STATIC[key] = (pic.map, _terrain(dwg, lay), _edges(dwg, lay))
    for group in static[1:]:
        dwg.add(group)
    hatches = _hatches(pic)
    _areas(dwg, lay, pic, hatches)
    _outlines(dwg, lay, pic)
    _places(dwg, lay, pic)
    _wrecks(dwg, lay, pic, adapter)
    counters, tokens = Taken(), Taken()
    _counters(dwg, lay, pic, adapter, counters)
    _markers(dwg, lay, pic, counters, tokens)
    _overlay(dwg, lay, pic, counters, tokens)
    bottom = _legend(dwg, lay, pic, adapter, lay.width + 5, hatches)
    height = max(lay.height, bottom + 20)
    dwg["height"] = f"{height:.0f}"
    background["height"] = round(height, 2)
    dwg.viewbox(0, 0, round(lay.width + legend_w), round(height))
    return str(dwg.tostring())


_STATIC: dict[tuple[int, tuple[int, int], tuple[int, int]], tuple[Any, Any, Any]] = {}


def _terrain(dwg: Any, lay: Layout) -> Any:
    g = dwg.g(id="terrain", stroke="#8c8c8c", stroke_width=0.8)
    ids = dwg.g(id="hex-ids", font_size=8, font_family="sans-serif", fill="#555555", text_anchor="middle")
    for h in lay.map.hexes():
        if not lay.inside(h):
            continue
        terrain = lay.map.terrain(h)
        g.add(dwg.polygon(lay.corners(h), fill=_colour(terrain), **{"class": f"hex t-{terrain}", "data-hex": h.id}))
        x, y = lay.centre(h)
        ids.add(dwg.text(h.id, insert=(x, round(y - R * 0.62, 2))))
        for feature in lay.map.features(h):
            g.add(dwg.circle((x, round(y + R * 0.55, 2)), 3, fill="#222222", **{"class": f"feature f-{feature}"}))
    static = dwg.g(id="map-layers")
    static.add(g)
    static.add(ids)
    return static


def _edges(dwg: Any, lay: Layout) -> Any:
    g = dwg.g(id="hexsides", fill="none", stroke_linecap="round")
    for side, feats in sorted(lay.map.side_features.items(), key=lambda kv: str(kv[0])):
        a, b = side.hexes
        if not (lay.inside(a) or lay.inside(b)):
            continue
        (ax, ay), (bx, by) = lay.centre(a), lay.centre(b)
        for feat in feats:
            colour, width = EDGE.get(feat, ("#aa3377", 3))
            if feat == "road":  # roads run centre to centre
                g.add(dwg.line((ax, ay), (bx, by), stroke=colour, stroke_width=width, **{"class": f"side s-{feat}"}))
            else:  # the others lie on the shared edge
                mx, my, dx, dy = (ax + bx) / 2, (ay + by) / 2, bx - ax, by - ay
                n = math.hypot(dx, dy) or 1
                px, py = -dy / n * R / 2, dx / n * R / 2
                g.add(dwg.line((round(mx + px, 2), round(my + py, 2)), (round(mx - px, 2), round(my - py, 2)),
                               stroke=colour, stroke_width=width, **{"class": f"side s-{feat}"}))
    return g


def _places(dwg: Any, lay: Layout, pic: Picture) -> None:
    g = dwg.g(id="places", font_size=11, font_family="serif", font_style="italic", fill="#3a2a10",
              text_anchor="middle")
    for name, hex_id in pic.places:
        h = Hex.parse(hex_id)
        if lay.inside(h):
            x, y = lay.centre(h)
            g.add(dwg.text(name, insert=(x, round(y + R * 0.9, 2))))
    dwg.add(g)


def _wrecks(dwg: Any, lay: Layout, pic: Picture, adapter: Adapter) -> None:
    g = dwg.g(id="eliminated", font_size=7, font_family="sans-serif", text_anchor="middle")
    seen: dict[str, int] = {}
    for uid, side, hex_id in pic.wrecks:
        h = Hex.parse(hex_id)
        if not lay.inside(h):
            continue
        n = seen[hex_id] = seen.get(hex_id, 0) + 1
        x, y = lay.centre(h)
        x, y = round(x - R * 0.55 + (n - 1) * 4, 2), round(y + R * 0.35, 2)
        attrs = {"class": f"wreck side-{side}", "data-hex": hex_id}
        if uid:
            attrs["id"] = f"unit-{uid}"
        mark = dwg.g(**attrs)
        mark.add(dwg.text("✕", insert=(x, y), font_size=11, fill="#b00000"))
        mark.set_desc(title=f"{adapter.side_name(side)} {uid or 'unit (not known which)'} eliminated in {hex_id}")
        g.add(mark)
    dwg.add(g)


MARK_INK = {"heavy": ("#7a1010", "#ffffff"), "light": ("#f08c00", "#111111")}
HATCHED = ("control",)  # kinds drawn as the whole hex shaded when their mark names no style
TOKEN = 12  # a marker token's side, px: it fits between a counter and the edge of its hex
ANGLES = (45, 135, 0, 90)  # the hatching of a side's first, second, ... shaded kind


def _style(mark: Mark) -> str:
    return mark.style or ("hatch" if mark.kind in HATCHED else "token")


def _data(mark: Mark) -> dict[str, str]:
    out = {"data-kind": mark.kind, "data-hex": mark.hex}
    if mark.side:
        out["data-side"] = mark.side
    out.update({f"data-{k}": v for k, v in mark.data})
    return out


def _hatches(pic: Picture) -> dict[tuple[str, str], int]:
    """Which hatching each (side, kind) of shaded marks gets: a side's kinds in their order of appearance."""
    out: dict[tuple[str, str], int] = {}
    for mark in pic.marks:
        if _style(mark) == "hatch" and (mark.side, mark.kind) not in out:
            out[(mark.side, mark.kind)] = sum(1 for side, _ in out if side == mark.side)
    return out


def _hatch(dwg: Any, side: str, variant: int = 0) -> str:
    name = f"hatch-{side}" + (f"-{variant}" if variant else "")
    if not any(getattr(el, "attribs", {}).get("id") == name for el in dwg.defs.elements):
        colour = SIDE.get(side, SIDE_FALLBACK)[0]
        pattern = dwg.pattern(insert=(0, 0), size=(8, 8), patternUnits="userSpaceOnUse", id=name,
                              patternTransform=f"rotate({ANGLES[variant % len(ANGLES)]})")
        pattern.add(dwg.line((0, 0), (0, 8), stroke=colour, stroke_width=2.2, stroke_opacity=0.45))
        dwg.defs.add(pattern)
    return f"url(#{name})"


def _areas(dwg: Any, lay: Layout, pic: Picture, hatches: dict[tuple[str, str], int]) -> None:
    """Marks that shade a whole hex (control, 3.2 of toc; set-up zones), under everything else."""
    g = dwg.g(id="control")
    for mark in pic.marks:
        if _style(mark) != "hatch":
            continue
        h = Hex.parse(mark.hex)
        if not lay.inside(h):
            continue
        poly = dwg.polygon(lay.corners(h), fill=_hatch(dwg, mark.side, hatches[(mark.side, mark.kind)]), stroke="none",
                           **{"class": f"mark {mark.kind} side-{mark.side}", **_data(mark)})
        if mark.detail:
            poly.set_desc(title=mark.detail)
        g.add(poly)
    dwg.add(g)


def _outlines(dwg: Any, lay: Layout, pic: Picture) -> None:
    """Marks that ring a hex (entry and exit hexes), its letter by the hex's west corner, clear of counters."""
    g = dwg.g(id="outlined", font_family="sans-serif", text_anchor="middle")
    for mark in pic.marks:
        if _style(mark) != "outline":
            continue
        h = Hex.parse(mark.hex)
        if not lay.inside(h):
            continue
        colour = _side_colour(mark.side)
        item = dwg.g(**{"class": f"mark {mark.kind} side-{mark.side}", **_data(mark)})
        item.add(dwg.polygon(lay.corners(h), fill="none", stroke=colour, stroke_width=3, stroke_dasharray="6,3"))
        if mark.label:
            x, y = lay.centre(h)
            item.add(dwg.text(mark.label, insert=(round(x - R * 0.75, 2), round(y + 3.5, 2)), font_size=10,
                              font_weight="bold", fill=colour))
        if mark.detail:
            item.set_desc(title=mark.detail)
        g.add(item)
    dwg.add(g)


def _token_places(x: float, y: float) -> list[Box]:
    """Where a marker token may go in the hex centred at (x, y): in a column by its west edge, then by
    its east edge (a counter covers the middle), then in the next columns out."""
    half = TOKEN / 2
    out: list[Box] = []
    for dx in (-R * 0.75, R * 0.75, -R * 0.75 - TOKEN - 2, R * 0.75 + TOKEN + 2):
        for dy in (-R * 0.3, -R * 0.3 + TOKEN + 2, -R * 0.3 - TOKEN - 2, -R * 0.3 + 2 * (TOKEN + 2)):
            cx, cy = round(x + dx, 2), round(y + dy, 2)
            out.append((cx - half, cy - half, cx + half, cy + half))
    return out


def _markers(dwg: Any, lay: Layout, pic: Picture, counters: Taken, tokens: Taken) -> None:
    """Marker tokens on their hexes (bombardment markers where they landed), beside the counters."""
    g = dwg.g(id="markers", font_family="sans-serif", text_anchor="middle")
    for mark in pic.marks:
        if _style(mark) != "token":
            continue
        h = Hex.parse(mark.hex)
        if not lay.inside(h):
            continue
        box = place(_token_places(*lay.centre(h)), counters, tokens)
        tokens.add(box)
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        data = dict(mark.data)
        fill, ink = MARK_INK.get(data.get("weight", ""), ("#c92a2a", "#ffffff"))
        lost = data.get("lost") == "true"
        token = dwg.g(**{"class": f"mark {mark.kind}" + (" lost" if lost else "") + (f" side-{mark.side}" if mark.side else ""),
                         **_data(mark)})
        token.add(dwg.rect((round(box[0], 2), round(box[1], 2)), (TOKEN, TOKEN), rx=2,
                           fill="#ffffff" if lost else fill, stroke="#111111", stroke_width=1,
                           stroke_dasharray="2,1.5" if lost else "none"))
        token.add(dwg.text(mark.label, insert=(round(x, 2), round(y + 3, 2)), font_size=8, font_weight="bold",
                           fill="#111111" if lost else ink))
        if mark.detail:
            token.set_desc(title=mark.detail)
        g.add(token)
    dwg.add(g)


def _counter(dwg: Any, c: Counter, x: float, y: float, adapter: Adapter, gid: str | None) -> Any:
    fill, ink = SIDE.get(c.side, SIDE_FALLBACK)
    s = R * 1.05
    classes = f"counter side-{c.side} {'own' if c.own else 'enemy'} kind-{c.kind}"
    attrs: dict[str, Any] = {"class": classes + "".join(f" flag-{f}" for f in c.flags), "data-hex": c.hex}
    if gid:
        attrs["id"] = gid
    g = dwg.g(**attrs)
    g.add(dwg.rect((round(x - s / 2, 2), round(y - s / 2, 2)), (round(s, 2), round(s, 2)), rx=3, fill=fill,
                   stroke="#111111", stroke_width=1.2))
    # the unit symbol (symbols.py) in a frame in the counter's upper part
    bx, by, bw, bh = x - s * 0.28, y - s * 0.42, s * 0.56, s * 0.26
    for el in symbol_marks(dwg, symbol_of(c.kind), (round(bx, 2), round(by, 2), round(bw, 2), round(bh, 2)), ink, 2.5):
        g.add(el)
    g.add(dwg.text(c.uid or "?", insert=(round(x, 2), round(y + s * 0.12, 2)), font_size=8, fill=ink,
                   font_family="sans-serif", text_anchor="middle", font_weight="bold"))
    vals = "-".join(str(v) for _, v in c.values)
    g.add(dwg.text(vals, insert=(round(x, 2), round(y + s * 0.42, 2)), font_size=9, fill=ink,
                   font_family="sans-serif", text_anchor="middle"))
    if "marched" in c.flags:  # toc 9.20: a march-mode marker on the counter
        g.add(dwg.rect((round(x - s / 2 - 3, 2), round(y + s / 2 - 9, 2)), (11, 11), rx=2, fill="#ffffff",
                       stroke="#111111", stroke_width=0.8, **{"class": "march"}))
        g.add(dwg.text("M", insert=(round(x - s / 2 + 2.5, 2), round(y + s / 2 - 0.5, 2)), font_size=8,
                       font_family="sans-serif", text_anchor="middle", font_weight="bold"))
    if not c.own and c.count > 1:
        g.add(dwg.circle((round(x + s / 2, 2), round(y - s / 2, 2)), 7, fill="#ffd23f", stroke="#111111"))
        g.add(dwg.text(f"{c.count}", insert=(round(x + s / 2, 2), round(y - s / 2 + 3.5, 2)), font_size=10,
                       font_family="sans-serif", text_anchor="middle", font_weight="bold"))
    what = "stack" if not c.own else "unit"
    g.set_desc(title=f"{adapter.side_name(c.side)} {what} in {c.hex}: {c.uid} {c.kind} "
               + " ".join(f"{k} {v}" for k, v in c.values)
               + (f" ({c.note})" if c.note else "")
               + "".join(f", {f}" for f in c.flags)
               + (f" (top of {c.count})" if not c.own else ""))
    return g


def _counter_box(c: Counter, x: float, y: float) -> Box:
    """The page area a counter drawn at (x, y) covers, with its march marker and its count disc."""
    s = R * 1.05
    disc = not c.own and c.count > 1
    return (x - s / 2 - (3 if "marched" in c.flags else 0), y - s / 2 - (7 if disc else 0),
            x + s / 2 + (7 if disc else 0), y + s / 2 + (2 if "marched" in c.flags else 0))


def _counters(dwg: Any, lay: Layout, pic: Picture, adapter: Adapter, taken: Taken) -> None:
    g = dwg.g(id="units")
    by_hex: dict[str, list[Counter]] = {}
    for c in pic.own:
        by_hex.setdefault(c.hex, []).append(c)
    for hex_id, items in sorted(by_hex.items()):
        items.sort(key=lambda c: c.level)
        h = Hex.parse(hex_id)
        x, y = lay.centre(h)
        if not lay.inside(h):
            continue
        for i, c in enumerate(items):  # bottom first, each one a little up and right
            cx, cy = round(x + i * 4, 2), round(y - i * 4, 2)
            g.add(_counter(dwg, c, cx, cy, adapter, f"unit-{c.uid}"))
            taken.add(_counter_box(c, cx, cy))
    for c in pic.enemy:
        h = Hex.parse(c.hex)
        if lay.inside(h):
            x, y = lay.centre(h)
            g.add(_counter(dwg, c, x, y, adapter, f"unit-{c.uid}" if c.uid else None))
            taken.add(_counter_box(c, x, y))
    dwg.add(g)


def _arrow_marker(dwg: Any, name: str, colour: str) -> Any:
    m = dwg.marker(insert=(5, 3), size=(6, 6), orient="auto", id=name)
    m.add(dwg.path(d="M0,0 L6,3 L0,6 z", fill=colour))
    dwg.defs.add(m)
    return m


def _side_colour(side: str) -> str:
    return {"german": "#d9480f", "us": "#0b7285", "british": "#5c940d"}.get(side, "#862e9c")


def _shorten(a: tuple[float, float], b: tuple[float, float], by: float) -> tuple[float, float]:
    """b moved `by` px back towards a (so an arrow head stops short of the target's centre)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    if n <= by * 1.5:
        return b
    return round(b[0] - dx / n * by, 2) + 0.0, round(b[1] - dy / n * by, 2) + 0.0


def _action_attrs(act: Action) -> dict[str, str]:
    attrs = {"class": f"action {act.kind} side-{act.side}", "data-kind": act.kind, "data-side": act.side,
             "data-from": " ".join(act.path)}
    if act.kind in ("move", "advance"):
        attrs["data-to"] = act.path[-1] if act.path else ""
    else:
        attrs["data-to"] = act.target
    if act.units:
        attrs["data-units"] = " ".join(act.units)
    if act.label:
        attrs["data-label"] = act.label
    return attrs


_STEP = SQ3 * R  # a hex's height
# Where a label's baseline may go from its target's centre, nearest first: the gaps between rows of
# counters in the target's column (its northern edge, its southern edge, a hex further on), in the
# columns either side (level with the target), then two columns out.
LABEL_PLACES = ((0.0, -R * 0.87), (0.0, R * 0.9), (-1.5 * R, 4.0), (1.5 * R, 4.0),
                (0.0, -R * 0.87 - _STEP), (0.0, R * 0.9 + _STEP), (-1.5 * R, 4.0 - _STEP), (1.5 * R, 4.0 - _STEP),
                (-1.5 * R, 4.0 + _STEP), (1.5 * R, 4.0 + _STEP), (-3 * R, -R * 0.87), (3 * R, -R * 0.87),
                (-3 * R, R * 0.9), (3 * R, R * 0.9), (0.0, -R * 0.87 - 2 * _STEP), (0.0, R * 0.9 + 2 * _STEP))


def _label_places(lay: Layout, target: tuple[float, float], width: float) -> list[Box]:
    """The boxes a label `width` wide may take around its target (LABEL_PLACES), on the map, off the legend."""
    tx, ty = target
    out: list[Box] = []
    for dx, dy in LABEL_PLACES:
        ly = round(max(ty + dy, 72.0), 2)
        lx = round(min(max(tx + dx, width / 2 + 2), lay.width - width / 2 - 2), 2)
        out.append((lx - width / 2, ly - 10, lx + width / 2, ly + 3))
    return out


def _exit_point(lay: Layout, points: list[tuple[float, float]]) -> tuple[float, float]:
    """Where the arrow of a move that leaves the map ends: a hex on from its last hex, along its last
    step, or (a move of one hex) towards the nearest edge of the drawing."""
    x, y = points[-1]
    if len(points) >= 2:
        dx, dy = x - points[-2][0], y - points[-2][1]
    else:
        edges = {(-1.0, 0.0): x, (1.0, 0.0): lay.width - x, (0.0, -1.0): y, (0.0, 1.0): lay.height - y}
        dx, dy = min(edges, key=lambda d: (edges[d], d))
    n = math.hypot(dx, dy) or 1.0
    return round(x + dx / n * R * 1.2, 2) + 0.0, round(y + dy / n * R * 1.2, 2) + 0.0


def _overlay(dwg: Any, lay: Layout, pic: Picture, counters: Taken, tokens: Taken) -> None:
    g = dwg.g(id="last-adjudication", fill="none", opacity=0.92)
    arrows: dict[str, Any] = {}
    labels = Taken()

    def arrow(side: str) -> Any:
        if side not in arrows:
            arrows[side] = _arrow_marker(dwg, f"arrow-{side}", _side_colour(side))
        return arrows[side]

    def is_hex(hex_id: str) -> bool:
        try:
            Hex.parse(hex_id)
        except ValueError:  # a path may end off the map ("off": a unit that exits)
            return False
        return True

    def shown(hex_id: str) -> bool:
        return bool(hex_id) and is_hex(hex_id) and lay.inside(Hex.parse(hex_id))

    for act in pic.actions:
        colour = _side_colour(act.side)
        item = dwg.g(**_action_attrs(act))
        if act.detail:
            item.set_desc(title=act.detail)
        if act.kind in ("move", "advance"):
            points = [lay.centre(h) for h in act.path if shown(h)]
            leaves = bool(act.path) and not is_hex(act.path[-1]) and bool(points) and shown(act.path[-2] if len(
                act.path) > 1 else "")
            if leaves:
                points.append(_exit_point(lay, points))
            if len(points) < 2:
                continue
            if not leaves:
                points[-1] = _shorten(points[-2], points[-1], R * 0.3)
            line = dwg.polyline(points, stroke=colour, stroke_width=2.5 if act.kind == "move" else 3.5,
                                stroke_dasharray="6,3" if act.kind == "move" else "10,3",
                                stroke_linejoin="round",
                                **{"class": f"move side-{act.side}" + (" exit" if leaves else "")})
            line.set_markers((None, None, arrow(act.side)))
            item.add(line)
        elif act.kind == "drift":
            if not (act.path and shown(act.path[0]) and shown(act.target)):
                continue
            a, b = lay.centre(act.path[0]), lay.centre(act.target)
            ln = dwg.line(a, _shorten(a, b, R * 0.3), stroke=colour, stroke_width=1.8, stroke_dasharray="2,2",
                          **{"class": f"drift side-{act.side}"})
            ln.set_markers((None, None, arrow(act.side)))
            item.add(ln)
        elif act.kind == "spot":
            if not (act.path and shown(act.path[0]) and shown(act.target)):
                continue
            item.add(dwg.line(lay.centre(act.path[0]), lay.centre(act.target), stroke=colour, stroke_width=1,
                              stroke_dasharray="1,3", **{"class": f"spot side-{act.side}"}))
        elif act.kind in ATTACKS:
            if not shown(act.target):
                continue
            tx, ty = lay.centre(act.target)
            for origin in act.path:
                if not shown(origin):
                    continue
                o = lay.centre(origin)
                ln = dwg.line(o, _shorten(o, (tx, ty), R * 0.35), stroke=colour,
                              stroke_width=2.5 if act.kind in ("melee", "close-assault") else 2,
                              **{"class": f"fire side-{act.side}"})
                ln.set_markers((None, None, arrow(act.side)))
                item.add(ln)
            if not act.path:
                item.add(dwg.circle((tx, ty), R * 0.8, stroke=colour, stroke_width=3, stroke_dasharray="3,3",
                                    **{"class": f"bombardment side-{act.side}"}))
            if act.label:
                w = 6.0 * len(act.label) + 8
                box = place(_label_places(lay, (tx, ty), w), counters, tokens, labels)
                labels.add(box)
                lx, ly = round((box[0] + box[2]) / 2, 2), round(box[3] - 3, 2)
                if math.hypot(lx - tx, ly - ty) > R * 1.2:  # moved away from its hex: a thin line leads back
                    near = (lx, round(box[3] if ly < ty else box[1], 2))
                    item.add(dwg.path(d=f"M{near[0]},{near[1]} L{tx},{ty}", stroke=colour, stroke_width=0.8,
                                      **{"class": "label-lead"}))  # a path: the lines of an attack are its firers
                item.add(dwg.rect((round(box[0], 2), round(box[1], 2)), (round(w, 2), 13), rx=3,
                                  fill="#ffffff", stroke=colour, stroke_width=1, **{"class": "fire-label"}))
                item.add(dwg.text(act.label, insert=(lx, ly), font_size=10, fill=colour, stroke="none",
                                  font_family="sans-serif", font_weight="bold", text_anchor="middle"))
        else:
            continue
        g.add(item)
    dwg.add(g)


def _north_arrow(dwg: Any, x: float, y: float) -> Any:
    g = dwg.g(id="north-arrow", font_family="sans-serif", text_anchor="middle")
    g.add(dwg.path(d=f"M{x},{y} L{x + 7},{y + 22} L{x},{y + 17} L{x - 7},{y + 22} z", fill="#111111"))
    g.add(dwg.text("N", insert=(x, round(y - 3, 2)), font_size=12, font_weight="bold"))
    g.set_desc(title="map north is up")
    return g


ACTION_WORDS = {"move": "move", "advance": "advance after combat", "fire": "fire", "close-assault": "close assault",
                "melee": "melee", "defensive-fire": "defensive fire", "bombard": "bombardment",
                "bombardment": "bombardment (ring: the hex hit)", "drift": "marker drift",
                "spot": "spotter's line of sight"}
WRAP = 42  # characters of a legend line at font size 10 (the legend is 250 px wide)


def _wrap(words: str, width: int = WRAP) -> list[str]:
    lines: list[str] = []
    for word in words.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


class _Rows:
    """The legend's rows, top down: a symbol in a small cell on the left, its words to the right."""

    def __init__(self, dwg: Any, g: Any, x0: float, y: float) -> None:
        self.dwg, self.g, self.x0, self.y = dwg, g, x0, y

    def row(self, words: str, *symbol: Any, key: str = "") -> None:
        """One row: `symbol` drawn in the cell 22 x 14 px at (x0 + 10, y - 11); words wrapped beside it."""
        item = self.dwg.g(**{"class": f"key key-{key}"}) if key else self.g
        for el in symbol:
            item.add(el)
        for k, line in enumerate(_wrap(words, WRAP - 6)):
            item.add(self.dwg.text(line, insert=(self.x0 + 38, self.y + 14 * k), font_size=10))
            if k:
                self.y += 14
        if key:
            self.g.add(item)
        self.y += 18

    def text(self, words: str, bold: bool = False) -> None:
        for line in _wrap(words):
            self.g.add(self.dwg.text(line, insert=(self.x0 + 10, self.y), font_size=10,
                                     **({"font_weight": "bold"} if bold else {})))
            self.y += 14


def _legend(dwg: Any, lay: Layout, pic: Picture, adapter: Adapter, x0: float,
            hatches: dict[tuple[str, str], int]) -> float:
    """The legend right of the map, one row per kind of symbol the picture draws; returns the y it ends at."""
    g = dwg.g(id="legend", font_size=11, font_family="sans-serif")
    g.add(dwg.text("Legend", insert=(x0 + 10, 60.0), font_weight="bold", font_size=13))
    g.add(_north_arrow(dwg, x0 + 200, 54.0))
    rows = _Rows(dwg, g, x0, 86.0)
    cx = x0 + 21  # the centre of the symbol cell
    inside = [h for h in lay.map.hexes() if lay.inside(h)]
    for t in sorted({lay.map.terrain(h) for h in inside}):
        rows.row(t.replace("-", " "), dwg.rect((x0 + 13, rows.y - 10), (16, 12), fill=_colour(t), stroke="#8c8c8c"))
    for f in sorted({f for fs in lay.map.side_features.values() for f in fs}):
        colour, width = EDGE.get(f, ("#aa3377", 3))
        rows.row(f"{f} (along hexsides)" if f != "road" else "road (hex to hex)",
                 dwg.line((x0 + 10, rows.y - 4), (x0 + 32, rows.y - 4), stroke=colour, stroke_width=width))
    for f in sorted({f for h in inside for f in lay.map.features(h)}):
        rows.row(f"{f.replace('-', ' ')} in the hex", dwg.circle((cx, rows.y - 4), 3, fill="#222222"))
    if pic.places:
        rows.row("place name", dwg.text("Name", insert=(cx, rows.y - 1), font_size=9, font_family="serif",
                                        font_style="italic", fill="#3a2a10", text_anchor="middle"))
    rows.y += 6
    for side in adapter.sides or sorted({c.side for c in pic.own + pic.enemy}):
        fill, _ = SIDE.get(side, SIDE_FALLBACK)
        rows.row(f"{adapter.side_name(side)} counter", dwg.rect((x0 + 13, rows.y - 11), (16, 14), fill=fill, rx=2))
    own = [c for c in pic.own if lay.inside(Hex.parse(c.hex))]  # a zoomed map explains only what it draws
    enemy = [c for c in pic.enemy if lay.inside(Hex.parse(c.hex))]
    counters = own + enemy
    for symbol, words in SYMBOLS:
        if any(symbol_of(c.kind) == symbol for c in counters):
            rows.row(words, *_symbol_sample(dwg, symbol, cx, rows.y - 4), key=f"symbol-{symbol}")
    for line in adapter.value_note.split("\n"):
        rows.text(line.strip())
    rows.y += 4
    if any(not c.own and c.count > 1 for c in enemy):
        rows.row("units in an enemy stack (only its top unit is known)",
                 dwg.circle((cx, rows.y - 4), 7, fill="#ffd23f", stroke="#111111"),
                 dwg.text("3", insert=(cx, rows.y - 0.5), font_size=10, font_weight="bold", text_anchor="middle"),
                 key="stack")
    if any("marched" in c.flags for c in own):
        rows.row("marched this turn", dwg.rect((cx - 6, rows.y - 10), (11, 11), rx=2, fill="#ffffff", stroke="#111111"),
                 dwg.text("M", insert=(cx - 0.5, rows.y - 1.5), font_size=8, font_weight="bold", text_anchor="middle"),
                 key="marched")
    if pic.wrecks or any("✕" in a.label for a in pic.actions):
        rows.row("eliminated unit (on a label: one per unit)",
                 dwg.text("✕", insert=(cx, rows.y - 1), font_size=11, fill="#b00000", text_anchor="middle"),
                 key="eliminated")
    marks = [m for m in pic.marks if lay.inside(Hex.parse(m.hex))]  # a zoomed map explains only its own
    _legend_marks(dwg, rows, marks, pic.keys, adapter, {k: v for k, v in hatches.items()
                                                        if any((m.side, m.kind) == k for m in marks)}, cx)
    _legend_actions(dwg, rows, pic, adapter)
    for note in pic.notes:
        rows.text(note)
    if pic.off_map:
        rows.y += 8
        _off_map(dwg, rows, pic, adapter)
    dwg.add(g)
    return rows.y


def _symbol_sample(dwg: Any, symbol: str, x: float, y: float) -> list[Any]:
    """The unit symbol of `_counter` on a plain counter colour, centred at (x, y)."""
    bw, bh = 16.0, 8.0
    return [dwg.rect((x - 11, y - 7), (22, 14), rx=2, fill="#5b5b5b"),
            *symbol_marks(dwg, symbol, (x - bw / 2, y - bh / 2, bw, bh), "#ffffff", 2)]


def _legend_marks(dwg: Any, rows: _Rows, marks: list[Mark], keys: dict[str, str], adapter: Adapter,
                  hatches: dict[tuple[str, str], int], cx: float) -> None:
    """A row per kind of mark drawn: bombardment tokens by weight, shaded and outlined hexes by side and kind."""
    x0 = rows.x0
    weights = {dict(m.data).get("weight", "") for m in marks if _style(m) == "token" and m.kind == "bombardment"}
    for weight in ("heavy", "light"):
        if weight in weights:
            fill, ink = MARK_INK[weight]
            rows.row(f"{weight} bombardment marker where it landed",
                     dwg.rect((cx - 6, rows.y - 10), (TOKEN, TOKEN), fill=fill, rx=2, stroke="#111111"),
                     dwg.text(weight[0].upper(), insert=(cx, rows.y - 1), fill=ink, font_size=8, font_weight="bold",
                              text_anchor="middle"), key=f"marker-{weight}")
    if any(_style(m) == "token" and dict(m.data).get("lost") == "true" for m in marks):
        rows.row("marker that drifted off the map (lost)",
                 dwg.rect((cx - 6, rows.y - 10), (TOKEN, TOKEN), fill="#ffffff", rx=2, stroke="#111111",
                          stroke_dasharray="2,1.5"), key="marker-lost")
    others = sorted({m.kind for m in marks if _style(m) == "token" and m.kind != "bombardment"})
    for kind in others:
        rows.row(keys.get(kind, kind), dwg.rect((cx - 6, rows.y - 10), (TOKEN, TOKEN), fill="#c92a2a", rx=2),
                 key=f"mark-{kind}")
    for (side, kind), variant in hatches.items():
        rows.row(keys.get(kind) or f"{adapter.side_name(side)} {kind}", dwg.rect((x0 + 13, rows.y - 11), (16, 14), fill=_hatch(dwg, side, variant), stroke="#8c8c8c"),
                 key=f"mark-{kind}")
    outlined: dict[tuple[str, str], str] = {}
    for m in marks:
        if _style(m) == "outline":
            outlined.setdefault((m.side, m.kind), m.label)
    for (side, kind), label in outlined.items():
        colour = _side_colour(side)
        rows.row(keys.get(kind) or f"{adapter.side_name(side)} {kind}",
                 dwg.rect((x0 + 12, rows.y - 12), (18, 16), fill="none", stroke=colour, stroke_width=2.5,
                          stroke_dasharray="4,2"),
                 dwg.text(label, insert=(cx, rows.y), font_size=10, font_weight="bold", fill=colour,
                          text_anchor="middle"), key=f"mark-{kind}")


def _legend_actions(dwg: Any, rows: _Rows, pic: Picture, adapter: Adapter) -> None:
    """A row per kind of overlay drawn, in its side's colour, and one for the labels on attacks."""
    x0 = rows.x0
    seen: dict[tuple[str, str], bool] = {}
    for act in pic.actions:
        kind = "bombardment" if act.kind in ATTACKS and not act.path else act.kind
        if kind in ACTION_WORDS:
            seen.setdefault((kind, act.side), False)
            if kind == "move" and act.path and act.path[-1] == "off":
                seen[(kind, act.side)] = True
    for (kind, side), exits in seen.items():
        colour = _side_colour(side)
        a, b = (x0 + 10, rows.y - 4), (x0 + 32, rows.y - 4)
        if kind == "bombardment":
            symbol = dwg.circle((x0 + 21, rows.y - 4), 8, fill="none", stroke=colour, stroke_width=2,
                                stroke_dasharray="3,2")
        elif kind == "spot":
            symbol = dwg.line(a, b, stroke=colour, stroke_width=1, stroke_dasharray="1,3")
        else:
            dash = {"move": "6,3", "advance": "10,3", "drift": "2,2"}.get(kind, "none")
            symbol = dwg.line(a, b, stroke=colour, stroke_width=2, stroke_dasharray=dash)
            symbol.set_markers((None, None, _legend_arrow(dwg, side, colour)))
        words = f"{adapter.side_name(side)} {ACTION_WORDS[kind]}" + (" (an arrow out: left the map)" if exits else "")
        rows.row(words, symbol, key=f"action-{kind}")
    if any(a.label for a in pic.actions if a.kind in ATTACKS):
        rows.row("label by the target: odds or factors, roll (→ modified), result",
                 dwg.rect((x0 + 10, rows.y - 11), (22, 13), rx=3, fill="#ffffff", stroke="#555555"),
                 dwg.text("2:1", insert=(x0 + 21, rows.y - 1), font_size=9, font_weight="bold", fill="#555555",
                          text_anchor="middle"), key="label")


def _legend_arrow(dwg: Any, side: str, colour: str) -> Any:
    name = f"key-arrow-{side}"
    for el in dwg.defs.elements:
        if getattr(el, "attribs", {}).get("id") == name:
            return el
    return _arrow_marker(dwg, name, colour)


def _off_map(dwg: Any, rows: _Rows, pic: Picture, adapter: Adapter) -> None:
    """The units off the map, grouped by side and where they are, each id still its own element."""
    groups: dict[tuple[str, str], list[str]] = {}
    sides: list[str] = []
    for uid, side, where in pic.off_map:
        groups.setdefault((side, where), []).append(uid)
        sides += [side] if side not in sides else []
    rows.text("Off the map:", bold=True)
    for (side, where), uids in sorted(groups.items(), key=lambda kv: (sides.index(kv[0][0]), kv[0][1])):
        rows.text(f"{adapter.side_name(side)} ({len(uids)}), {where}:")
        line: list[str] = []
        for uid in [*uids, ""]:  # "" flushes the last line
            if uid and (not line or len(", ".join(line + [uid])) <= WRAP - 8):  # ids are wider than words
                line.append(uid)
                continue
            text = dwg.text("", insert=(rows.x0 + 18, rows.y), font_size=10)
            for k, name in enumerate(line):
                text.add(dwg.tspan(name + ("," if k < len(line) - 1 else ""), id=f"unit-{name}",
                                   **{"class": "off-map"}))
                if k < len(line) - 1:
                    text.add(dwg.tspan(" "))
            rows.g.add(text)
            rows.y += 14
            line = [uid] if uid else []
