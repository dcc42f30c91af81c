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
    _areas(dwg, lay, pic)
    _places(dwg, lay, pic)
    _wrecks(dwg, lay, pic, adapter)
    _counters(dwg, lay, pic, adapter)
    _markers(dwg, lay, pic)
    _overlay(dwg, lay, pic)
    bottom = _legend(dwg, lay, pic, adapter, lay.width + 5)
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
        g.add(dwg.polygon(lay.corners(h), fill=_colour(terrain), **{"class": f"hex t-{terrain}"}))
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
AREA_FILL = {"control": "hatch"}  # marks drawn as a whole hex shaded rather than as a token


def _data(mark: Mark) -> dict[str, str]:
    out = {"data-kind": mark.kind, "data-hex": mark.hex}
    if mark.side:
        out["data-side"] = mark.side
    out.update({f"data-{k}": v for k, v in mark.data})
    return out


def _hatch(dwg: Any, side: str) -> str:
    name = f"hatch-{side}"
    if not any(getattr(el, "attribs", {}).get("id") == name for el in dwg.defs.elements):
        colour = SIDE.get(side, SIDE_FALLBACK)[0]
        pattern = dwg.pattern(insert=(0, 0), size=(8, 8), patternUnits="userSpaceOnUse", id=name,
                              patternTransform="rotate(45)")
        pattern.add(dwg.line((0, 0), (0, 8), stroke=colour, stroke_width=2.2, stroke_opacity=0.45))
        dwg.defs.add(pattern)
    return f"url(#{name})"


def _areas(dwg: Any, lay: Layout, pic: Picture) -> None:
    """Marks that shade a whole hex (control, 3.2 of toc), under everything else."""
    g = dwg.g(id="control")
    for mark in pic.marks:
        if mark.kind not in AREA_FILL:
            continue
        h = Hex.parse(mark.hex)
        if not lay.inside(h):
            continue
        poly = dwg.polygon(lay.corners(h), fill=_hatch(dwg, mark.side), stroke="none",
                           **{"class": f"mark {mark.kind} side-{mark.side}", **_data(mark)})
        if mark.detail:
            poly.set_desc(title=mark.detail)
        g.add(poly)
    dwg.add(g)


def _markers(dwg: Any, lay: Layout, pic: Picture) -> None:
    """Marker tokens on their hexes (bombardment markers where they landed), over the counters."""
    g = dwg.g(id="markers", font_family="sans-serif", text_anchor="middle")
    seen: dict[str, int] = {}
    for mark in pic.marks:
        if mark.kind in AREA_FILL:
            continue
        h = Hex.parse(mark.hex)
        if not lay.inside(h):
            continue
        n = seen[mark.hex] = seen.get(mark.hex, 0) + 1
        x, y = lay.centre(h)
        x, y = round(x - R * 0.76, 2), round(y - R * 0.3 + (n - 1) * 10, 2)  # a column by the left edge
        data = dict(mark.data)
        fill, ink = MARK_INK.get(data.get("weight", ""), ("#c92a2a", "#ffffff"))
        lost = data.get("lost") == "true"
        token = dwg.g(**{"class": f"mark {mark.kind}" + (" lost" if lost else "") + (f" side-{mark.side}" if mark.side else ""),
                         **_data(mark)})
        token.add(dwg.rect((round(x - 7, 2), round(y - 7, 2)), (14, 14), rx=2,
                           fill="#ffffff" if lost else fill, stroke="#111111", stroke_width=1,
                           stroke_dasharray="2,1.5" if lost else "none"))
        token.add(dwg.text(mark.label, insert=(x, round(y + 3.5, 2)), font_size=9, font_weight="bold",
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
    # NATO-style symbol box: infantry is a saltire; heavy weapons add a bar
    bx, by, bw, bh = x - s * 0.28, y - s * 0.42, s * 0.56, s * 0.26
    g.add(dwg.rect((round(bx, 2), round(by, 2)), (round(bw, 2), round(bh, 2)), fill="none", stroke=ink,
                   stroke_width=1))
    if c.kind in ("infantry", "hw", "unit", "cavalry"):  # infantry: a saltire; cavalry: one slash
        g.add(dwg.line((round(bx, 2), round(by + bh, 2)), (round(bx + bw, 2), round(by, 2)), stroke=ink))
    if c.kind in ("infantry", "hw", "unit"):
        g.add(dwg.line((round(bx, 2), round(by, 2)), (round(bx + bw, 2), round(by + bh, 2)), stroke=ink))
    if c.kind == "hw" or "artillery" in c.kind:  # a gun: a filled dot
        g.add(dwg.circle((round(x, 2), round(by + bh / 2, 2)), 2.5, fill=ink))
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


def _counters(dwg: Any, lay: Layout, pic: Picture, adapter: Adapter) -> None:
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
            g.add(_counter(dwg, c, round(x + i * 4, 2), round(y - i * 4, 2), adapter, f"unit-{c.uid}"))
    for c in pic.enemy:
        h = Hex.parse(c.hex)
        if lay.inside(h):
            x, y = lay.centre(h)
            g.add(_counter(dwg, c, x, y, adapter, f"unit-{c.uid}" if c.uid else None))
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


def _overlay(dwg: Any, lay: Layout, pic: Picture) -> None:
    g = dwg.g(id="last-adjudication", fill="none", opacity=0.92)
    arrows: dict[str, Any] = {}
    labels: dict[str, int] = {}  # labels already printed by a target hex

    def arrow(side: str) -> Any:
        if side not in arrows:
            arrows[side] = _arrow_marker(dwg, f"arrow-{side}", _side_colour(side))
        return arrows[side]

    def shown(hex_id: str) -> bool:
        try:
            return bool(hex_id) and lay.inside(Hex.parse(hex_id))
        except ValueError:  # a path may end off the map ("off": a unit that exits)
            return False

    for act in pic.actions:
        colour = _side_colour(act.side)
        item = dwg.g(**_action_attrs(act))
        if act.detail:
            item.set_desc(title=act.detail)
        if act.kind in ("move", "advance"):
            points = [lay.centre(h) for h in act.path if shown(h)]
            if len(points) < 2:
                continue
            points[-1] = _shorten(points[-2], points[-1], R * 0.3)
            line = dwg.polyline(points, stroke=colour, stroke_width=2.5 if act.kind == "move" else 3.5,
                                stroke_dasharray="6,3" if act.kind == "move" else "10,3",
                                stroke_linejoin="round", **{"class": f"move side-{act.side}"})
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
                k = labels[act.target] = labels.get(act.target, 0) + 1
                w = 6.0 * len(act.label) + 8
                ly = round(max(ty - R * 0.87 - 14 * (k - 1), 72.0), 2)  # on the hex's northern edge, clear of its counters
                lx = round(min(max(tx, w / 2 + 2), lay.width - w / 2 - 2), 2)  # never over the legend
                item.add(dwg.rect((round(lx - w / 2, 2), round(ly - 10, 2)), (round(w, 2), 13), rx=3,
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


def _legend(dwg: Any, lay: Layout, pic: Picture, adapter: Adapter, x0: float) -> float:
    """The legend right of the map; returns the y it ends at."""
    g = dwg.g(id="legend", font_size=11, font_family="sans-serif")
    y = 60.0
    g.add(dwg.text("Legend", insert=(x0 + 10, y), font_weight="bold", font_size=13))
    g.add(_north_arrow(dwg, x0 + 200, y - 6))
    y += 8
    terrains = sorted({lay.map.terrain(h) for h in lay.map.hexes() if lay.inside(h)})
    for t in terrains:
        y += 18
        g.add(dwg.rect((x0 + 10, y - 10), (16, 12), fill=_colour(t), stroke="#8c8c8c"))
        g.add(dwg.text(t.replace("-", " "), insert=(x0 + 32, y)))
    feats = sorted({f for fs in lay.map.side_features.values() for f in fs})
    for f in feats:
        y += 18
        colour, width = EDGE.get(f, ("#aa3377", 3))
        g.add(dwg.line((x0 + 10, y - 4), (x0 + 26, y - 4), stroke=colour, stroke_width=width))
        g.add(dwg.text(f, insert=(x0 + 32, y)))
    y += 24
    for side in adapter.sides or sorted({c.side for c in pic.own + pic.enemy}):
        fill, _ = SIDE.get(side, SIDE_FALLBACK)
        g.add(dwg.rect((x0 + 10, y - 11), (16, 14), fill=fill, rx=2))
        g.add(dwg.text(f"{adapter.side_name(side)} counter", insert=(x0 + 32, y)))
        y += 18
    kinds = {m.kind for m in pic.marks}
    weights = {dict(m.data).get("weight", "") for m in pic.marks if m.kind == "bombardment"}
    for weight, words in (("heavy", "heavy bombardment marker"), ("light", "light bombardment marker")):
        if weight in weights:
            fill, ink = MARK_INK[weight]
            g.add(dwg.rect((x0 + 10, y - 11), (16, 14), fill=fill, rx=2, stroke="#111111"))
            g.add(dwg.text(weight[0].upper(), insert=(x0 + 18, y), fill=ink, font_size=9, font_weight="bold",
                           text_anchor="middle"))
            g.add(dwg.text(words, insert=(x0 + 32, y)))
            y += 18
    for side in sorted({m.side for m in pic.marks if m.kind == "control"}):
        g.add(dwg.rect((x0 + 10, y - 11), (16, 14), fill=_hatch(dwg, side), stroke="#8c8c8c"))
        g.add(dwg.text(f"{adapter.side_name(side)} control", insert=(x0 + 32, y)))
        y += 18
    notes = [*adapter.value_note.split("\n"),
             "yellow disc: units in the enemy stack", "(only its top unit is known)", "✕ eliminated unit",
             "dashed arrow: move", "solid arrow: attack; label: odds,", "  rolls and results (✕ eliminated)",
             "dashed ring: bombardment", "dotted arrow: drift", "fine dots: spotter's line of sight"]
    if any("marched" in c.flags for c in pic.own):
        notes.append("M: marched this turn")
    if "bombardment" in kinds and any(dict(m.data).get("lost") == "true" for m in pic.marks):
        notes.append("white marker: drifted off the map")
    notes += pic.notes
    for note in notes:
        g.add(dwg.text(note, insert=(x0 + 10, y), font_size=10))
        y += 15
    if pic.off_map:
        y += 8
        g.add(dwg.text("Off the map:", insert=(x0 + 10, y), font_weight="bold"))
        for uid, side, where in pic.off_map:
            y += 14
            t = dwg.text(f"{uid} ({adapter.side_name(side)}, {where})", insert=(x0 + 10, y), font_size=10)
            g.add(dwg.g(id=f"unit-{uid}", **{"class": "off-map"})).add(t)
    dwg.add(g)
    return y
