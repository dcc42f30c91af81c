"""The map picture of a view as SVG, written with svgwrite (no XML string-gluing).

Flat-topped hexes, columns vertical, rows growing downwards as printed. Everything drawn comes
from the view through its ruleset's adapter, so the picture can show no more than the view.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from pbem.geometry.hexgrid import Hex

from .adapters import Counter, Picture, adapter_for

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


class Layout:
    def __init__(self, hexmap: Any, area: tuple[Hex, Hex] | None) -> None:
        self.map = hexmap
        (c0, c1), (r0, r1) = hexmap.columns, hexmap.rows
        if area:
            c0, c1 = max(c0, min(area[0].col, area[1].col)), min(c1, max(area[0].col, area[1].col))
            r0, r1 = max(r0, min(area[0].row, area[1].row)), min(r1, max(area[0].row, area[1].row))
        self.cols, self.rows = (c0, c1), (r0, r1)
        self.low = 1 if hexmap.stagger == "odd-low" else 0
        self.ox = -(c0 * 1.5 * R) + R + 10
        self.oy = -(r0 * SQ3 * R) + SQ3 * R / 2 + 70
        self.width = max((c1 - c0) * 1.5 * R + 2 * R + 20, 420.0)
        self.height = (r1 - r0 + 1.5) * SQ3 * R + 70 + 20

    def inside(self, h: Hex) -> bool:
        return self.cols[0] <= h.col <= self.cols[1] and self.rows[0] <= h.row <= self.rows[1] and bool(self.map.on_map(h))

    def centre(self, hex_id: str | Hex) -> tuple[float, float]:
        h = hex_id if isinstance(hex_id, Hex) else Hex.parse(str(hex_id))
        x = h.col * 1.5 * R + self.ox
        y = h.row * SQ3 * R + (SQ3 * R / 2 if (h.col & 1) == self.low else 0) + self.oy
        return round(x, 2), round(y, 2)

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
    import svgwrite  # type: ignore[import-untyped]  # only when there is something to draw

    lay = Layout(pic.map, _parse_area(area))
    legend_w = 230
    dwg = svgwrite.Drawing(size=(f"{lay.width + legend_w:.0f}", f"{lay.height:.0f}"), debug=False)
    dwg.viewbox(0, 0, round(lay.width + legend_w), round(lay.height))
    dwg.add(dwg.rect((0, 0), (lay.width + legend_w, lay.height), fill="#ffffff"))
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
    _places(dwg, lay, pic)
    _wrecks(dwg, lay, pic, adapter)
    _markers(dwg, lay, pic)
    _counters(dwg, lay, pic, adapter)
    _overlay(dwg, lay, pic)
    _legend(dwg, lay, pic, adapter, lay.width + 5)
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


def _wrecks(dwg: Any, lay: Layout, pic: Picture, adapter: Any) -> None:
    g = dwg.g(id="eliminated", font_size=7, font_family="sans-serif", text_anchor="middle")
    seen: dict[str, int] = {}
    for uid, side, hex_id in pic.wrecks:
        h = Hex.parse(hex_id)
        if not lay.inside(h):
            continue
        n = seen[hex_id] = seen.get(hex_id, 0) + 1
        x, y = lay.centre(h)
        x, y = round(x - R * 0.55 + (n - 1) * 4, 2), round(y + R * 0.35, 2)
        mark = dwg.g(id=f"unit-{uid}", **{"class": f"wreck side-{side}"})
        mark.add(dwg.text("✕", insert=(x, y), font_size=11, fill="#b00000"))
        mark.set_desc(title=f"{adapter.side_name(side)} {uid} eliminated in {hex_id}")
        g.add(mark)
    dwg.add(g)


def _markers(dwg: Any, lay: Layout, pic: Picture) -> None:
    g = dwg.g(id="markers")
    for label, hex_id in pic.markers:
        h = Hex.parse(hex_id)
        if lay.inside(h):
            x, y = lay.centre(h)
            g.add(dwg.circle((round(x - R * 0.6, 2), round(y - R * 0.3, 2)), 4, fill="#c92a2a", stroke="#ffffff",
                             **{"class": f"marker m-{label}"}))
    dwg.add(g)


def _counter(dwg: Any, c: Counter, x: float, y: float, adapter: Any, gid: str | None) -> Any:
    fill, ink = SIDE.get(c.side, SIDE_FALLBACK)
    s = R * 1.05
    attrs: dict[str, Any] = {"class": f"counter side-{c.side} {'own' if c.own else 'enemy'} kind-{c.kind}"}
    if gid:
        attrs["id"] = gid
    g = dwg.g(**attrs)
    g.add(dwg.rect((round(x - s / 2, 2), round(y - s / 2, 2)), (round(s, 2), round(s, 2)), rx=3, fill=fill,
                   stroke="#111111", stroke_width=1.2))
    # NATO-style symbol box: infantry is a saltire; heavy weapons add a bar
    bx, by, bw, bh = x - s * 0.3, y - s * 0.36, s * 0.6, s * 0.3
    g.add(dwg.rect((round(bx, 2), round(by, 2)), (round(bw, 2), round(bh, 2)), fill="none", stroke=ink,
                   stroke_width=1))
    if c.kind in ("infantry", "hw", "unit", "cavalry"):  # infantry: a saltire; cavalry: one slash
        g.add(dwg.line((round(bx, 2), round(by + bh, 2)), (round(bx + bw, 2), round(by, 2)), stroke=ink))
    if c.kind in ("infantry", "hw", "unit"):
        g.add(dwg.line((round(bx, 2), round(by, 2)), (round(bx + bw, 2), round(by + bh, 2)), stroke=ink))
    if c.kind == "hw" or "artillery" in c.kind:  # a gun: a filled dot
        g.add(dwg.circle((round(x, 2), round(by + bh / 2, 2)), 2.5, fill=ink))
    g.add(dwg.text(c.uid or "?", insert=(round(x, 2), round(y + s * 0.08, 2)), font_size=8, fill=ink,
                   font_family="sans-serif", text_anchor="middle", font_weight="bold"))
    vals = "-".join(str(v) for _, v in c.values)
    g.add(dwg.text(vals, insert=(round(x, 2), round(y + s * 0.4, 2)), font_size=9, fill=ink,
                   font_family="sans-serif", text_anchor="middle"))
    if not c.own and c.count > 1:
        g.add(dwg.circle((round(x + s / 2, 2), round(y - s / 2, 2)), 7, fill="#ffd23f", stroke="#111111"))
        g.add(dwg.text(f"{c.count}", insert=(round(x + s / 2, 2), round(y - s / 2 + 3.5, 2)), font_size=10,
                       font_family="sans-serif", text_anchor="middle", font_weight="bold"))
    what = "stack" if not c.own else "unit"
    g.set_desc(title=f"{adapter.side_name(c.side)} {what} in {c.hex}: {c.uid} {c.kind} "
               + " ".join(f"{k} {v}" for k, v in c.values)
               + (f" (top of {c.count})" if not c.own else ""))
    return g


def _counters(dwg: Any, lay: Layout, pic: Picture, adapter: Any) -> None:
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


def _overlay(dwg: Any, lay: Layout, pic: Picture) -> None:
    g = dwg.g(id="last-adjudication", fill="none", opacity=0.9)
    markers = {}
    for side in {s for s, _ in pic.moves} | {s for s, *_ in pic.fire} | {s for s, *_ in pic.drift}:
        colour = "#d9480f" if side == "german" else "#0b7285"
        markers[side] = (colour, _arrow_marker(dwg, f"arrow-{side}", colour))
    for side, path in pic.moves:
        colour, m = markers[side]
        line = dwg.polyline([lay.centre(h) for h in path], stroke=colour, stroke_width=2.5,
                            stroke_dasharray="6,3", **{"class": f"move side-{side}"})
        line.set_markers((None, None, m))
        g.add(line)
    for side, origins, target, label in pic.fire:
        colour, m = markers[side]
        tx, ty = lay.centre(target)
        for o in origins:
            ln = dwg.line(lay.centre(o), (tx, ty), stroke=colour, stroke_width=2, **{"class": f"fire side-{side}"})
            ln.set_markers((None, None, m))
            g.add(ln)
        if not origins:
            g.add(dwg.circle((tx, ty), R * 0.8, stroke=colour, stroke_width=3, stroke_dasharray="3,3",
                             **{"class": f"bombardment side-{side}"}))
        w = 6.2 * len(label) + 6
        g.add(dwg.rect((round(tx - w / 2, 2), round(ty - R * 0.75 - 10, 2)), (round(w, 2), 13), rx=3,
                       fill="#ffffff", stroke=colour, stroke_width=1, **{"class": "fire-label"}))
        g.add(dwg.text(label, insert=(tx, round(ty - R * 0.75, 2)), font_size=10, fill=colour,
                       font_family="sans-serif", font_weight="bold", text_anchor="middle"))
    for side, aimed, landed in pic.drift:
        colour, m = markers[side]
        ln = dwg.line(lay.centre(aimed), lay.centre(landed), stroke=colour, stroke_width=1.5,
                      stroke_dasharray="2,2", **{"class": f"drift side-{side}"})
        ln.set_markers((None, None, m))
        g.add(ln)
    dwg.add(g)


def _legend(dwg: Any, lay: Layout, pic: Picture, adapter: Any, x0: float) -> None:
    g = dwg.g(id="legend", font_size=11, font_family="sans-serif")
    y = 60.0
    g.add(dwg.text("Legend", insert=(x0 + 10, y), font_weight="bold", font_size=13))
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
    notes = ["counter: id, then fire-range-move", "yellow disc: units in the enemy stack",
             "(only its top unit is known)", "✕ eliminated unit", "dashed arrow: move", "solid arrow: fire, odds + rolls",
             "dashed ring: bombardment", "dotted arrow: drift"]
    if pic.markers:
        notes.append("red dot: " + ", ".join(sorted({label for label, _ in pic.markers})))
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
