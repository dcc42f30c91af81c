"""The picture of an open table as SVG, written with svgwrite: one side's view, seen from above.

`draw(picture)` draws a `TablePicture` (adapters.py) on its `TableBoard` (board.py) and nothing
else: the terrain by kind, the deployment zones, the objectives and the sides' table edges, a
grid labelled in the table's unit every 100 units (10 cm on a table in millimetres, 100 yards
on one in yards) so that a player can read a position to write in orders, the bases, the
markers and the last adjudication's moves, fire lines and templates. `render_view(view, ...)`
adds the heading from the view (game, side, turn, phase, adjudication); `svg.render` calls it
for every view whose adapter gives a `TablePicture`.

The table keeps its up edge up: a table point `(x, y)` (x east, y north, whole units from the
south-west corner) is drawn at `Frame.page`, y flipped because SVG grows down. Floats are fine
here: no rule reads a picture. A base is drawn at `plane.Base(...).corners` exactly, flipped.

Every base is one element `id="base-<uid>"` with a `<title>` (its side, id, unit, position,
facing and size) and `data-x`, `data-y`, `data-facing`, `data-width`, `data-depth`, `data-side`;
every marker and overlay item carries `data-kind`, `data-side` and its points as "x,y"
(`data-x`/`data-y`, `data-from`, `data-to`, `data-area`). docs/render.md, "Pictures of a table".
"""

from __future__ import annotations

import math
import textwrap
from typing import Any, Callable, Mapping, Sequence

from pbem.geometry.plane import Base, Point, Shape

from .adapters import TABLE_MOVES, Adapter, Area, Circle, Figure, Sector, TableAction, TableMark, TablePicture
from .board import TableBoard, TableFeature
from .place import Box, Taken, place
from .symbols import SYMBOLS, symbol_marks, symbol_of

FIT = 1000.0  # px of the longer side of the drawn part of the table
LEFT, TOP, RIGHT, BOTTOM = 58.0, 84.0, 18.0, 40.0  # margins round the table: labels left and below, the heading above
LEGEND_W = 260.0
STEP = 100  # a grid line every 100 table units (10 cm, or 100 yd)

SIDE_COLOURS = {"us": "#3d6fb6", "german": "#5b5b5b", "british": "#b5843a", "french": "#4a6fa5", "allies": "#3d6fb6",
                "axis": "#5b5b5b", "red": "#c0392b", "blue": "#2e5fa8"}
PALETTE = ("#2e5fa8", "#8a4b2a", "#2b8a3e", "#7a3d8a")  # for sides the table above does not name, by order
ACTION_COLOURS = {"german": "#d9480f", "us": "#0b7285", "british": "#5c940d", "red": "#c92a2a", "blue": "#1864ab"}

AREA_STYLE: dict[str, tuple[str, str]] = {  # kind: fill, outline
    "woods": ("#8fbf7a", "#4f7f3a"), "forest": ("#8fbf7a", "#4f7f3a"), "orchard": ("#b5d69a", "#5d8a45"),
    "building": ("#b89a7a", "#5a4632"), "ruin": ("#cdbba5", "#6e5a44"), "village": ("#c9a48a", "#6e5a44"),
    "rough": ("#d8cf9f", "#9d9360"), "field": ("#ece5a8", "#b8ae62"), "crops": ("#ece5a8", "#b8ae62"),
    "hill": ("#e0cb9c", "#a0855a"), "water": ("#a7cdee", "#2f6fbf"), "river": ("#a7cdee", "#2f6fbf"),
    "marsh": ("#b9d8c9", "#4f8a7a"), "road": ("#dcc7a1", "#a47f55"), "trench": ("#9c8465", "#5a4630"),
    "crater": ("#b8a58a", "#6e5a44"), "smoke": ("#9a9a9a", "#5c5c5c"),
}
LINE_STYLE: dict[str, str] = {  # kind: colour of a linear feature
    "road": "#a47f55", "track": "#b89470", "rail": "#444444", "water": "#2f6fbf", "river": "#2f6fbf",
    "stream": "#2f6fbf", "wall": "#6b6b6b", "hedge": "#4f8a3a", "bocage": "#2f5f1f", "fence": "#8a6d3b",
    "trench": "#5a4630", "wire": "#333333", "embankment": "#8a7350",
}
ROUTES = ("road", "track", "rail", "water", "river", "stream")  # lines that are not obstacles: no height class
ORDER = {"hill": 0, "field": 1, "crops": 1, "rough": 2, "marsh": 2, "water": 3, "river": 3, "crater": 3, "road": 4,
         "track": 4, "rail": 4, "stream": 4, "woods": 6, "forest": 6, "orchard": 6, "village": 6, "ruin": 7,
         "building": 7, "trench": 8, "smoke": 9}
DASH = {"fence": "7,3", "wire": "2,3", "trench": "9,2,2,2"}  # linear features drawn dashed
HIGH_W, LOW_W = 5.0, 2.2  # stroke widths of high and low linear features, px
MARK_STYLE = {"pinned": ("#ffd43b", "#111111", "P"), "suppressed": ("#f08c00", "#111111", "S"),
              "kill": ("#b00000", "#ffffff", "✕"), "fire": ("#c92a2a", "#ffffff", "F")}
MARK_FALLBACK = ("#495057", "#ffffff")
FRONT = "#ffd23f"  # the front edge of a base
LEGIBLE = 8.0  # px: the smallest text printed on a base; a base too small for it is labelled beside it
LABEL_SIZE = 10.0  # px: a label beside its bases
GROUP_GAP = 30.0  # px: bases of one side and label at most this far apart share one label beside them
TABLE_SYMBOLS = ("armour",)  # base kinds drawn with their unit symbol (symbols.py) on the base
SYMBOL_MIN = 12.0  # px across a base, the least that holds a symbol


def _hashed(kind: str) -> str:
    h = sum(ord(c) * 31 ** i for i, c in enumerate(kind)) % 360
    return f"hsl({h},35%,75%)"


def _r(v: float) -> float:
    return round(v, 2) + 0.0  # no "-0.0"


def pt(p: Point) -> str:
    """A point as data attributes write it: "x,y" in table units."""
    return f"{p[0]},{p[1]}"


def parse_window(area: str | None, board: TableBoard) -> tuple[int, int, int, int] | None:
    """`--area` on a table: two corners "X,Y-X,Y" in table units -> (west, south, east, north)."""
    if not area:
        return None
    try:
        a, b = area.split("-")
        (x1, y1), (x2, y2) = (tuple(int(v) for v in c.split(",")) for c in (a, b))
    except ValueError:
        raise ValueError(f"a table's area is two corners in {board.unit}, as X,Y-X,Y (e.g. 0,0-600,400), "
                         f"not {area!r}") from None
    west, east = max(0, min(x1, x2)), min(board.width, max(x1, x2))
    south, north = max(0, min(y1, y2)), min(board.depth, max(y1, y2))
    if west >= east or south >= north:
        raise ValueError(f"the area {area!r} holds no part of the {board.width} x {board.depth} {board.unit} table")
    return west, south, east, north


class Frame:
    """Where a table point goes on the page: up edge up, east right, y flipped, scaled to fit.

    `window` (west, south, east, north) is the part of the table drawn; by default all of it.
    """

    def __init__(self, board: TableBoard, window: tuple[int, int, int, int] | None = None) -> None:
        self.board = board
        self.window = window or (0, 0, board.width, board.depth)
        w, s, e, n = self.window
        self.scale = round(FIT / max(e - w, n - s, 1), 6)
        self.left, self.top = LEFT, TOP
        self.right_edge = _r(LEFT + (e - w) * self.scale)
        self.bottom_edge = _r(TOP + (n - s) * self.scale)
        self.width = max(self.right_edge + RIGHT, 420.0)
        self.height = self.bottom_edge + BOTTOM

    def page(self, p: Point | tuple[float, float]) -> tuple[float, float]:
        """The page position of a table point (x right, y down)."""
        w, _, _, n = self.window
        return _r(self.left + (p[0] - w) * self.scale), _r(self.top + (n - p[1]) * self.scale)

    def points(self, shape: Shape | Sequence[Point]) -> list[tuple[float, float]]:
        return [self.page(p) for p in (shape.points if isinstance(shape, Shape) else shape)]

    def length(self, d: float) -> float:
        return _r(d * self.scale)

    def shows(self, p: Point | tuple[float, float]) -> bool:
        w, s, e, n = self.window
        return w <= p[0] <= e and s <= p[1] <= n


def corners(figure: Figure) -> tuple[Point, Point, Point, Point]:
    """A figure's base corners as the rules have them (plane.Base): front-left, front-right, back-right, back-left."""
    return Base(figure.centre, figure.facing % 360, figure.width, figure.depth).corners


def is_high(feature: TableFeature) -> bool:
    """Whether a linear feature is of the high class (a high wall, bocage, a hedge that blocks
    sight): its property `high` (true or false, from its kind or its own) or `height_class`
    ("high" or "low"). Without either it is drawn low: a height in table units says nothing of
    how a ruleset classes it."""
    props = feature.properties
    if "high" in props:
        return bool(props["high"])
    return str(props.get("height_class", "")) == "high"


def side_colour(side: str, sides: Sequence[str]) -> str:
    if side in SIDE_COLOURS:
        return SIDE_COLOURS[side]
    return PALETTE[sides.index(side) % len(PALETTE)] if side in sides else PALETTE[-1]


def _action_colour(side: str, sides: Sequence[str]) -> str:
    return ACTION_COLOURS.get(side) or side_colour(side, sides)


def _area_data(area: Area) -> str:
    if isinstance(area, Circle):
        return f"circle {pt(area.centre)} {area.radius}"
    if isinstance(area, Sector):
        return f"sector {pt(area.apex)} {area.facing} {area.half} {area.reach}"
    return ("polygon " if area.closed else "line ") + " ".join(pt(p) for p in area.points)


class _Drawing:
    def __init__(self, pic: TablePicture, frame: Frame, side_name: Callable[[str], str], sides: Sequence[str]) -> None:
        import svgwrite  # only when there is something to draw

        self.pic, self.frame, self.board = pic, frame, pic.map
        self.name = side_name
        self.sides = tuple(sides) or tuple(sorted({f.side for f in pic.figures} | {z.side for z in pic.map.zones}))
        self.dwg = svgwrite.Drawing(size=(f"{frame.width + LEGEND_W:.0f}", f"{frame.height:.0f}"), debug=False)
        self.arrows: dict[str, str] = {}
        self.taken = Taken()  # the page boxes of bases and markers, which a base's label keeps clear of
        self.outside: list[tuple[str, str, Box]] = []  # (side, text, page box) of bases labelled beside them
        self.symbols: set[str] = set()  # the unit symbols drawn on bases, for the legend
        self.feature_names: dict[str, tuple[float, float]] = {}  # a terrain name drawn: the table point it is at

    def colour(self, side: str) -> str:
        return side_colour(side, self.sides)

    # --- the table ------------------------------------------------------------------------------

    def heading(self, lines: Sequence[str]) -> None:
        g = self.dwg.g(id="title", font_family="sans-serif")
        for i, line in enumerate(lines[:2]):
            g.add(self.dwg.text(line, insert=(12, 26 + 22 * i), font_size=18 if i == 0 else 13,
                                font_weight="bold" if i == 0 else "normal"))
        self.dwg.add(g)

    def cloth(self) -> Any:
        """The table itself, clipped to the window: everything on it goes in the returned group."""
        f, dwg = self.frame, self.dwg
        clip = dwg.clipPath(id="table-clip")
        clip.add(dwg.rect((f.left, f.top), (_r(f.right_edge - f.left), _r(f.bottom_edge - f.top))))
        dwg.defs.add(clip)
        table = dwg.g(id="table", clip_path="url(#table-clip)")
        table.add(dwg.rect((f.left, f.top), (_r(f.right_edge - f.left), _r(f.bottom_edge - f.top)),
                           fill="#f4f1e4", id="table-cloth"))
        return table

    def features(self, table: Any) -> None:
        dwg, f = self.dwg, self.frame
        g = dwg.g(id="terrain")
        labels = dwg.g(id="feature-labels", font_size=11, font_family="serif", font_style="italic",
                       fill="#3a2a10", text_anchor="middle")
        ranked = sorted(enumerate(self.board.features),
                        key=lambda item: (ORDER.get(item[1].kind, 5) if item[1].shape.closed
                                          else 4 if item[1].kind in ROUTES else 8, item[0]))
        for _, feat in ranked:
            kind = feat.kind
            attrs: dict[str, Any] = {"id": f"feature-{feat.id}", "data-kind": kind}
            classes = f"feature k-{kind} " + ("area" if feat.shape.closed else "line")
            what = kind.replace("-", " ")
            if feat.height is not None:
                attrs["data-height"] = str(feat.height)
                what += f", height {feat.height}"
            if not feat.shape.closed or kind in LINE_STYLE and kind not in AREA_STYLE:
                if kind not in ROUTES:
                    high = is_high(feat)
                    classes += " high" if high else " low"
                    what += ", high" if high else ", low"
            item = dwg.g(**{"class": classes, **attrs})
            item.set_desc(title=(f"{feat.label} ({what})" if feat.label else what) + f" [{feat.id}]")
            if feat.shape.closed:
                fill, stroke = AREA_STYLE.get(kind, (_hashed(kind), "#777777"))
                if kind in LINE_STYLE and kind not in AREA_STYLE:  # a closed wall round a field: a line all round
                    item.add(self._line(f.points(feat.shape) + [f.page(feat.shape.points[0])], kind, "high" in classes))
                else:
                    item.add(dwg.polygon(f.points(feat.shape), fill=fill, stroke=stroke, stroke_width=1.2,
                                         fill_opacity=0.6 if kind == "smoke" else 0.9,
                                         stroke_dasharray="4,3" if kind == "ruin" else "none"))
            elif kind in ROUTES:
                colour = LINE_STYLE.get(kind, "#777777")
                width = 7.0 if kind == "road" else 4.0
                item.add(dwg.polyline(f.points(feat.shape), fill="none", stroke=colour, stroke_width=width,
                                      stroke_linecap="round", stroke_linejoin="round"))
                if kind == "road":
                    item.add(dwg.polyline(f.points(feat.shape), fill="none", stroke="#ead9b5", stroke_width=3.5,
                                          stroke_linecap="round", stroke_linejoin="round"))
            else:
                item.add(self._line(f.points(feat.shape), kind, "high" in classes))
            if feat.crest is not None:
                crest = dwg.polyline(f.points(feat.crest) + ([f.page(feat.crest.points[0])] if feat.crest.closed else []),
                                     fill="none", stroke="#7a5a2a", stroke_width=2, stroke_dasharray="8,4",
                                     **{"class": "crest"})
                item.add(crest)
            g.add(item)
            if feat.label and feat.label not in self.feature_names:  # a wood drawn as several pieces is named once
                x0, y0, x1, y1 = feat.shape.box
                middle = self.feature_names[feat.label] = ((x0 + x1) / 2, (y0 + y1) / 2)
                x, y = f.page(middle)
                labels.add(dwg.text(feat.label, insert=(x, _r(y + 4)), **{"data-feature": feat.id}))
        table.add(g)
        table.add(labels)

    def _line(self, points: list[tuple[float, float]], kind: str, high: bool) -> Any:
        colour = LINE_STYLE.get(kind, "#555555")
        dash = DASH.get(kind, "none")
        return self.dwg.polyline(points, fill="none", stroke=colour, stroke_width=HIGH_W if high else LOW_W,
                                 stroke_dasharray=dash, stroke_linecap="butt", stroke_linejoin="round")

    def zones(self, table: Any) -> None:
        dwg, f = self.dwg, self.frame
        g = dwg.g(id="zones", font_family="sans-serif", font_size=11)
        for zone in self.board.zones:
            colour = self.colour(zone.side)
            item = dwg.g(id=f"zone-{zone.id}", **{"class": f"zone side-{zone.side}", "data-side": zone.side})
            item.set_desc(title=f"{self.name(zone.side)} deployment zone [{zone.id}]")
            item.add(dwg.polygon(f.points(zone.shape), fill=colour, fill_opacity=0.08, stroke=colour,
                                 stroke_width=1.5, stroke_dasharray="10,5"))
            x0, y0, x1, y1 = zone.shape.box
            x, y = f.page(((x0 + x1) / 2, (y0 + y1) / 2))
            item.add(dwg.text(f"{self.name(zone.side)} deployment", insert=(x, y), fill=colour, text_anchor="middle",
                              fill_opacity=0.8))
            g.add(item)
        table.add(g)

    def edges(self) -> Any:
        """Each side's own table edge: a band along it, outside the cloth."""
        dwg, f = self.dwg, self.frame
        g = dwg.g(id="table-edges", font_family="sans-serif", font_size=10)
        w, s, e, n = f.window
        for side, edge in sorted(self.board.edges.items()):
            colour = self.colour(side)
            if edge == "north" and n == self.board.depth:
                a, b = (f.left, f.top - 3), (f.right_edge, f.top - 3)
            elif edge == "south" and s == 0:
                a, b = (f.left, f.bottom_edge + 3), (f.right_edge, f.bottom_edge + 3)
            elif edge == "west" and w == 0:
                a, b = (f.left - 3, f.top), (f.left - 3, f.bottom_edge)
            elif edge == "east" and e == self.board.width:
                a, b = (f.right_edge + 3, f.top), (f.right_edge + 3, f.bottom_edge)
            else:
                continue
            line = dwg.line(a, b, stroke=colour, stroke_width=5, **{"class": f"edge side-{side}", "data-side": side,
                                                                     "data-edge": edge})
            line.set_desc(title=f"the {self.name(side)} table edge ({edge})")
            g.add(line)
        return g

    def objectives(self, table: Any) -> None:
        dwg, f = self.dwg, self.frame
        g = dwg.g(id="objectives", font_family="sans-serif", font_size=11, text_anchor="middle")
        for obj in self.board.objectives:
            x, y = f.page(obj.at)
            item = dwg.g(id=f"objective-{obj.id}", **{"class": "objective", "data-x": str(obj.at[0]),
                                                       "data-y": str(obj.at[1])})
            item.set_desc(title=f"objective {obj.label or obj.id}: {pt(obj.at).replace(',', ', ')} {self.board.unit}")
            item.add(dwg.circle((x, y), 9, fill="#ffd23f", stroke="#111111", stroke_width=1.2))
            item.add(dwg.circle((x, y), 3, fill="#111111"))
            name = obj.label or obj.id
            if not self.names_terrain_shown(name):  # "Bois Carre" the wood and the objective: one name, the wood's
                item.add(dwg.text(name, insert=(x, _r(y + 21)), font_weight="bold", fill="#111111"))
            g.add(item)
        table.add(g)

    def names_terrain_shown(self, name: str) -> bool:
        """Whether `name` is already printed on the drawn part of the table as a terrain piece's name."""
        at = self.feature_names.get(name)
        return at is not None and self.frame.shows(at)

    def grid(self, table: Any) -> Any:
        """Lines every STEP units on the table; their labels left of and below it (returned)."""
        dwg, f = self.dwg, self.frame
        lines = dwg.g(id="grid", stroke="#6c6c6c", stroke_width=0.6, stroke_opacity=0.55)
        labels = dwg.g(id="grid-labels", font_family="sans-serif", font_size=10, fill="#333333")
        w, s, e, n = f.window
        half = STEP // 2
        gap = max(1, math.ceil(30 / (STEP * f.scale)))  # label every line, or every 2nd, ... when they would crowd
        minor = half * f.scale >= 12
        for v in range((w // half) * half, e + 1, half):
            if v < w:
                continue
            x, _ = f.page((v, 0))
            major = v % STEP == 0
            if not major and not minor:
                continue
            lines.add(dwg.line((x, f.top), (x, f.bottom_edge), stroke_dasharray="none" if major else "2,4",
                               **{"class": "grid " + ("major" if major else "minor"), "data-x": str(v)}))
            if major and (v // STEP) % gap == 0:
                labels.add(dwg.text(str(v), insert=(x, _r(f.bottom_edge + 16)), text_anchor="middle",
                                    **{"class": "grid-label", "data-x": str(v)}))
        for v in range((s // half) * half, n + 1, half):
            if v < s:
                continue
            _, y = f.page((0, v))
            major = v % STEP == 0
            if not major and not minor:
                continue
            lines.add(dwg.line((f.left, y), (f.right_edge, y), stroke_dasharray="none" if major else "2,4",
                               **{"class": "grid " + ("major" if major else "minor"), "data-y": str(v)}))
            if major and (v // STEP) % gap == 0:
                labels.add(dwg.text(str(v), insert=(_r(f.left - 7), _r(y + 3.5)), text_anchor="end",
                                    **{"class": "grid-label", "data-y": str(v)}))
        labels.add(dwg.text(self.board.unit, insert=(_r(f.left - 7), _r(f.bottom_edge + 31)), text_anchor="end",
                            font_style="italic", **{"class": "grid-unit"}))
        table.add(lines)
        return labels

    # --- what is on it ----------------------------------------------------------------------------

    def figures(self, table: Any) -> dict[str, list[tuple[float, float]]]:
        """Every base; returns the page corners of each drawn base by uid (for markers placed on them)."""
        dwg, f, unit = self.dwg, self.frame, self.board.unit
        g = dwg.g(id="bases", font_family="sans-serif", text_anchor="middle")
        drawn: dict[str, list[tuple[float, float]]] = {}
        for fig in self.pic.figures:
            fill = self.colour(fig.side)
            page = f.points(corners(fig))
            classes = (f"base side-{fig.side} {'own' if fig.own else 'enemy'} kind-{fig.kind}"
                       + "".join(f" flag-{flag}" for flag in fig.flags))
            attrs: dict[str, Any] = {"class": classes, "data-side": fig.side, "data-x": str(fig.centre[0]),
                                     "data-y": str(fig.centre[1]), "data-facing": str(fig.facing),
                                     "data-width": str(fig.width), "data-depth": str(fig.depth)}
            if fig.unit:
                attrs["data-unit"] = fig.unit
            if fig.uid:
                attrs["id"] = f"base-{fig.uid}"
                drawn[fig.uid] = page
            item = dwg.g(**attrs)
            who = fig.uid or "(not known which)"
            item.set_desc(title=f"{self.name(fig.side)} {fig.kind} {who}" + (f" of {fig.unit}" if fig.unit else "")
                          + f": at {fig.centre[0]}, {fig.centre[1]} {unit}, facing {fig.facing}°, "
                          + f"base {fig.width} x {fig.depth} {unit}"
                          + "".join(f", {flag}" for flag in fig.flags) + (f" ({fig.note})" if fig.note else ""))
            item.add(dwg.polygon(page, fill=fill, fill_opacity=1.0 if fig.own else 0.85, stroke="#111111",
                                 stroke_width=1, stroke_dasharray="none" if fig.own else "3,1.5",
                                 **{"class": "footprint"}))
            item.add(dwg.line(page[0], page[1], stroke=FRONT, stroke_width=3, **{"class": "front"}))
            x, y = f.page(fig.centre)
            text = fig.label or fig.unit or fig.uid
            across = min(fig.width, fig.depth) * f.scale  # px: the text fits across the base, more or less
            size = _r(min(across * 0.4, across / (0.62 * max(len(text), 1)), 11.0))
            symbol = symbol_of(fig.kind) if fig.kind in TABLE_SYMBOLS and across >= SYMBOL_MIN else ""
            if symbol:  # upright in the middle of the base, whatever its facing
                self.symbols.add(symbol)
                bw, bh = _r(across * 0.62), _r(across * 0.38)
                for el in symbol_marks(dwg, symbol, (_r(x - bw / 2), _r(y - bh / 2), bw, bh), "#ffffff", 1.5):
                    item.add(el)
            if text and size >= LEGIBLE and not symbol:
                item.add(dwg.text(text, insert=(x, _r(y + size * 0.35)), font_size=size, fill="#ffffff",
                                  font_weight="bold"))
            elif text:  # too small to read on the base: one label by the unit's bases (`labels`)
                box = (min(p[0] for p in page), min(p[1] for p in page), max(p[0] for p in page), max(p[1] for p in page))
                self.outside.append((fig.side, text, box))
            self.taken.add((min(p[0] for p in page), min(p[1] for p in page), max(p[0] for p in page),
                            max(p[1] for p in page)))
            g.add(item)
        table.add(g)
        return drawn

    def labels(self, table: Any) -> None:
        """The labels too small to read on their bases, LABEL_SIZE px beside them: one for each group of bases
        of one side and text lying near one another (a unit's bases, usually), below it (a fire's label goes
        above its target), else above, else beside it, clear of the other labels and, where it can be, of bases and markers."""
        dwg = self.dwg
        groups: list[tuple[str, str, Box]] = []
        for side, text, box in self.outside:
            near = next((i for i, (s2, t2, b2) in enumerate(groups) if (s2, t2) == (side, text)
                         and box[0] - b2[2] <= GROUP_GAP and b2[0] - box[2] <= GROUP_GAP
                         and box[1] - b2[3] <= GROUP_GAP and b2[1] - box[3] <= GROUP_GAP), None)
            if near is None:
                groups.append((side, text, box))
            else:
                b2 = groups[near][2]
                groups[near] = (side, text, (min(b2[0], box[0]), min(b2[1], box[1]), max(b2[2], box[2]),
                                             max(b2[3], box[3])))
        g = dwg.g(id="labels-beside", font_family="sans-serif", font_size=LABEL_SIZE, font_weight="bold",
                  text_anchor="middle")
        placed = Taken()
        for side, text, (x0, y0, x1, y1) in groups:
            w, h = _r(LABEL_SIZE * 0.62 * len(text) + 6), LABEL_SIZE + 3.0
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            spots = [(cx, y1 + 2 + h / 2), (cx, y0 - 2 - h / 2), (x0 - 2 - w / 2, cy), (x1 + 2 + w / 2, cy),
                     (cx, y1 + 4 + 1.5 * h), (cx, y0 - 4 - 1.5 * h)]
            box = place([(a - w / 2, b - h / 2, a + w / 2, b + h / 2) for a, b in spots], placed, self.taken)
            placed.add(box)
            colour = self.colour(side)
            item = dwg.g(**{"class": f"base-label side-{side}"})
            item.add(dwg.rect((_r(box[0]), _r(box[1])), (w, h), rx=2, fill="#ffffff", fill_opacity=0.85,
                              stroke=colour, stroke_width=1.5))
            item.add(dwg.text(text, insert=(_r((box[0] + box[2]) / 2), _r(box[3] - 3.5)), fill="#111111"))
            g.add(item)
        table.add(g)

    def marks(self, table: Any, drawn: Mapping[str, list[tuple[float, float]]]) -> None:
        dwg, f = self.dwg, self.frame
        g = dwg.g(id="markers", font_family="sans-serif", text_anchor="middle")
        stacked: dict[str, int] = {}
        for mark in self.pic.marks:
            if mark.on and mark.on in drawn:
                page = drawn[mark.on]
                key = f"on {mark.on}"
                x0, y0 = max(p[0] for p in page) + 9, min(p[1] for p in page) + 7
            elif mark.at is not None and f.shows(mark.at):
                key = f"at {pt(mark.at)}"
                x0, y0 = f.page(mark.at)
            else:
                continue
            n = stacked[key] = stacked.get(key, 0) + 1
            x, y = _r(x0), _r(y0 + 16 * (n - 1))
            fill, ink, letters = MARK_STYLE.get(mark.kind, (*MARK_FALLBACK, mark.kind[:2].capitalize()))
            text = (mark.label or letters) + (str(mark.count) if mark.count > 0 else "")
            w = max(14.0, 7.0 * len(text) + 5)
            attrs = {"class": f"mark {mark.kind}" + (f" side-{mark.side}" if mark.side else ""), "data-kind": mark.kind}
            if mark.at is not None:
                attrs.update({"data-x": str(mark.at[0]), "data-y": str(mark.at[1])})
            if mark.on:
                attrs["data-on"] = mark.on
            if mark.side:
                attrs["data-side"] = mark.side
            if mark.count:
                attrs["data-count"] = str(mark.count)
            attrs.update({f"data-{k}": v for k, v in mark.data})
            token = dwg.g(**attrs)
            token.set_desc(title=mark.detail or f"{mark.kind}" + (f" ({mark.count})" if mark.count else "")
                           + (f" on {mark.on}" if mark.on else ""))
            token.add(dwg.rect((_r(x - w / 2), _r(y - 7)), (_r(w), 14), rx=2, fill=fill, stroke="#111111",
                               stroke_width=1))
            self.taken.add((x - w / 2, y - 7, x + w / 2, y + 7))
            token.add(dwg.text(text, insert=(x, _r(y + 3.5)), font_size=9, font_weight="bold", fill=ink))
            g.add(token)
        table.add(g)

    def _arrow(self, side: str) -> str:
        if side not in self.arrows:
            name = f"arrow-{len(self.arrows)}"
            marker = self.dwg.marker(insert=(5, 3), size=(6, 6), orient="auto", id=name)
            marker.add(self.dwg.path(d="M0,0 L6,3 L0,6 z", fill=_action_colour(side, self.sides)))
            self.dwg.defs.add(marker)
            self.arrows[side] = f"url(#{name})"
        return self.arrows[side]

    def _area(self, area: Area, colour: str, kind: str) -> Any:
        dwg, f = self.dwg, self.frame
        smoke = kind == "smoke"
        style: dict[str, Any] = {"fill": "#8c8c8c" if smoke else colour, "fill_opacity": 0.5 if smoke else 0.2,
                                 "stroke": "#555555" if smoke else colour, "stroke_width": 1.5,
                                 "stroke_dasharray": "6,3" if kind == "arc" else "none", "class": "area"}
        if isinstance(area, Circle):
            return dwg.circle(f.page(area.centre), f.length(area.radius), **style)
        if isinstance(area, Sector):
            if area.half >= 180:
                return dwg.circle(f.page(area.apex), f.length(area.reach), **style)
            ax, ay = area.apex
            ends = []
            for bearing in (area.facing - area.half, area.facing + area.half):
                rad = math.radians(bearing)
                ends.append(f.page((ax + area.reach * math.sin(rad), ay + area.reach * math.cos(rad))))
            (sx, sy), (ex, ey), (px, py) = ends[0], ends[1], f.page(area.apex)
            r = f.length(area.reach)
            large = 1 if 2 * area.half > 180 else 0
            return dwg.path(d=f"M{px},{py} L{sx},{sy} A{r},{r} 0 {large} 1 {ex},{ey} Z", **style)
        if area.closed:
            return dwg.polygon(f.points(area), **style)
        style.update(fill="none", stroke_width=max(4.0, f.length(20)), stroke_opacity=0.35, stroke_linecap="round")
        return dwg.polyline(f.points(area), **style)

    def overlay(self, table: Any) -> None:
        dwg, f = self.dwg, self.frame
        g = dwg.g(id="last-adjudication", fill="none", opacity=0.92)
        labelled: dict[tuple[float, float], int] = {}
        for act in self.pic.actions:
            colour = _action_colour(act.side, self.sides)
            attrs = {"class": f"action {act.kind} side-{act.side}", "data-kind": act.kind, "data-side": act.side}
            if act.path:
                attrs["data-from"] = " ".join(pt(p) for p in act.path)
            to = act.path[-1] if act.kind in TABLE_MOVES and act.path else act.target
            if to is not None:
                attrs["data-to"] = pt(to)
            if act.area is not None:
                attrs["data-area"] = _area_data(act.area)
            if act.units:
                attrs["data-units"] = " ".join(act.units)
            if act.label:
                attrs["data-label"] = act.label
            item = dwg.g(**attrs)
            if act.detail:
                item.set_desc(title=act.detail)
            if act.area is not None:
                item.add(self._area(act.area, colour, act.kind))
            if act.kind in TABLE_MOVES:
                if len(act.path) >= 2:
                    line = dwg.polyline(f.points(act.path), stroke=colour, stroke_width=2.5 if act.kind == "move" else 3.5,
                                        stroke_dasharray="6,3" if act.kind == "move" else "10,3",
                                        stroke_linejoin="round", marker_end=self._arrow(act.side),
                                        **{"class": f"move side-{act.side}"})
                    item.add(line)
            elif act.target is not None:
                target = f.page(act.target)
                dotted = act.kind in ("deviation", "drift", "spot")
                for origin in act.path:
                    o = f.page(origin)
                    attrs2: dict[str, Any] = {"stroke": colour, "class": ("spot" if act.kind == "spot" else
                                                                          "deviation" if dotted else "fire")
                                              + f" side-{act.side}"}
                    if act.kind == "spot":
                        attrs2.update(stroke_width=1, stroke_dasharray="1,3")
                    else:
                        attrs2.update(stroke_width=1.8 if dotted else 2, stroke_dasharray="2,2" if dotted else "none",
                                      marker_end=self._arrow(act.side))
                    item.add(dwg.line(o, target, **attrs2))
                if act.label and f.shows(act.target):
                    k = labelled[target] = labelled.get(target, 0) + 1
                    w = 6.0 * len(act.label) + 8
                    lx = _r(min(max(target[0], f.left + w / 2 + 2), f.right_edge - w / 2 - 2))
                    ly = _r(max(target[1] - 22 - 14 * (k - 1), f.top + 12))  # above the target's base
                    item.add(dwg.rect((_r(lx - w / 2), _r(ly - 10)), (_r(w), 13), rx=3, fill="#ffffff", stroke=colour,
                                      stroke_width=1, **{"class": "fire-label"}))
                    item.add(dwg.text(act.label, insert=(lx, ly), font_size=10, fill=colour, stroke="none",
                                      font_family="sans-serif", font_weight="bold", text_anchor="middle"))
            elif act.area is None:
                continue
            g.add(item)
        table.add(g)

    # --- the legend -------------------------------------------------------------------------------

    def north_arrow(self, x: float, y: float) -> Any:
        """Compass north, turned from the table's up edge by its bearing (drawn only when it is not 0)."""
        dwg = self.dwg
        g = dwg.g(id="north-arrow", font_family="sans-serif", text_anchor="middle",
                  transform=f"rotate({-self.board.north % 360},{x},{_r(y + 11)})", **{"data-north": str(self.board.north)})
        g.add(dwg.path(d=f"M{x},{y} L{x + 7},{y + 22} L{x},{y + 17} L{x - 7},{y + 22} z", fill="#111111"))
        g.add(dwg.text("N", insert=(x, _r(y - 3)), font_size=12, font_weight="bold"))
        g.set_desc(title=f"north: the table's up edge faces {self.board.north}°")
        return g

    def legend(self, x0: float) -> float:
        dwg = self.dwg
        g = dwg.g(id="legend", font_size=11, font_family="sans-serif")
        y = TOP - 10
        g.add(dwg.text("Legend", insert=(x0 + 10, y), font_weight="bold", font_size=13))
        if self.board.north % 360:
            g.add(self.north_arrow(x0 + 210, y - 4))
            y += 22
        y += 8
        seen: set[tuple[str, bool, str]] = set()
        for feat in self.board.features:
            linear = not feat.shape.closed or (feat.kind in LINE_STYLE and feat.kind not in AREA_STYLE)
            level = "" if not linear or feat.kind in ROUTES else ("high" if is_high(feat) else "low")
            seen.add((feat.kind, linear, level))
        for kind, linear, level in sorted(seen):
            y += 18
            if linear:
                colour = LINE_STYLE.get(kind, "#555555")
                g.add(dwg.line((x0 + 10, y - 4), (x0 + 26, y - 4), stroke=colour,
                               stroke_width=7.0 if kind == "road" else 4.0 if kind in ROUTES
                               else HIGH_W if level == "high" else LOW_W, stroke_dasharray=DASH.get(kind, "none")))
            else:
                fill, stroke = AREA_STYLE.get(kind, (_hashed(kind), "#777777"))
                g.add(dwg.rect((x0 + 10, y - 10), (16, 12), fill=fill, stroke=stroke))
            g.add(dwg.text(kind.replace("-", " ") + (f" ({level})" if level else ""), insert=(x0 + 32, y)))
        if any(feat.crest is not None for feat in self.board.features):
            y += 18
            g.add(dwg.line((x0 + 10, y - 4), (x0 + 26, y - 4), stroke="#7a5a2a", stroke_width=2, stroke_dasharray="5,3"))
            g.add(dwg.text("crest line", insert=(x0 + 32, y)))
        y += 24
        for side in self.sides:
            g.add(dwg.rect((x0 + 10, y - 11), (16, 14), fill=self.colour(side)))
            g.add(dwg.line((x0 + 10, y - 11), (x0 + 26, y - 11), stroke=FRONT, stroke_width=3))
            g.add(dwg.text(f"{self.name(side)} base", insert=(x0 + 32, y)))
            y += 18
        for symbol, words in SYMBOLS:
            if symbol in self.symbols:
                g.add(dwg.rect((x0 + 10, y - 11), (16, 14), fill="#5b5b5b"))
                for el in symbol_marks(dwg, symbol, (x0 + 11.5, y - 8.5, 13.0, 9.0), "#ffffff", 1.5):
                    g.add(el)
                g.add(dwg.text(f"{words} base", insert=(x0 + 32, y)))
                y += 18
        if self.outside:
            g.add(dwg.rect((x0 + 10, y - 11), (16, 14), rx=2, fill="#ffffff", stroke="#555555", stroke_width=1.5))
            g.add(dwg.text("label beside bases too small to print", insert=(x0 + 32, y)))
            g.add(dwg.text("on: their unit", insert=(x0 + 32, _r(y + 13))))
            y += 31
        for kind in sorted({m.kind for m in self.pic.marks}):
            fill, ink, letters = MARK_STYLE.get(kind, (*MARK_FALLBACK, kind[:2].capitalize()))
            g.add(dwg.rect((x0 + 10, y - 11), (16, 14), fill=fill, rx=2, stroke="#111111"))
            g.add(dwg.text(letters, insert=(x0 + 18, y), fill=ink, font_size=9, font_weight="bold", text_anchor="middle"))
            g.add(dwg.text(f"{kind} marker" + (" (count)" if any(m.count for m in self.pic.marks if m.kind == kind) else ""),
                           insert=(x0 + 32, y)))
            y += 18
        unit = self.board.unit
        notes = [f"grid every {STEP} {unit} from the", "  south-west corner (0, 0);",
                 f"  positions x, y in {unit}", "yellow edge: a base's front",
                 "dashed outline: enemy base", "  (as far as it is seen)",
                 "dashed arrow: move", "solid arrow: fire; label: rolls", "  and results",
                 "dotted arrow: deviation", "shaded: template, smoke, arc of fire",
                 "gold disc: objective", *legend_lines(self.pic.notes)]
        for note in notes:
            g.add(dwg.text(note, insert=(x0 + 10, y), font_size=10))
            y += 15
        if self.pic.off_table:
            y += 8
            g.add(dwg.text("Off the table:", insert=(x0 + 10, y), font_weight="bold"))
            for uid, side, why in self.pic.off_table:
                y += 14
                item = g.add(dwg.g(id=f"base-{uid}", **{"class": f"off-table side-{side}", "data-side": side}))
                item.add(dwg.text(f"{uid} ({self.name(side)}, {why})", insert=(x0 + 10, y), font_size=10))
        self.dwg.add(g)
        return y


NOTE_CHARS = 40  # what the legend's 250 units hold at font size 10, at about 6 units a character


def legend_lines(notes: Sequence[str]) -> list[str]:
    """The ruleset's notes folded to the legend's width, each continuation indented as the fixed notes are."""
    lines: list[str] = []
    for note in notes:
        lines += textwrap.wrap(note, NOTE_CHARS, subsequent_indent="  ", break_long_words=False) or [""]
    return lines


def draw(pic: TablePicture, heading: Sequence[str] = (), adapter: Adapter | None = None,
         window: tuple[int, int, int, int] | None = None) -> str:
    """The SVG of a table picture: `heading` is its one or two title lines, `adapter` names the
    sides (`side_name`, `sides`; none: the side ids capitalised, in the figures' order), `window`
    (west, south, east, north) the part of the table to draw. Reads nothing but its arguments."""
    names = adapter or Adapter()
    frame = Frame(pic.map, window)
    d = _Drawing(pic, frame, names.side_name, names.sides)
    dwg = d.dwg
    background = dwg.rect((0, 0), (frame.width + LEGEND_W, frame.height), fill="#ffffff")
    dwg.add(background)
    d.heading([pic.title, *heading[1:]] if pic.title else list(heading))
    table = d.cloth()
    d.features(table)
    d.zones(table)
    grid_labels = d.grid(table)
    d.objectives(table)
    drawn = d.figures(table)
    d.marks(table, drawn)
    d.overlay(table)
    d.labels(table)
    dwg.add(table)
    dwg.add(dwg.rect((frame.left, frame.top), (_r(frame.right_edge - frame.left), _r(frame.bottom_edge - frame.top)),
                     fill="none", stroke="#333333", stroke_width=1.2, id="table-border"))
    dwg.add(d.edges())
    dwg.add(grid_labels)
    bottom = d.legend(frame.width + 5)
    height = max(frame.height, bottom + 20)
    dwg["height"] = f"{height:.0f}"
    background["height"] = _r(height)
    dwg.viewbox(0, 0, round(frame.width + LEGEND_W), round(height))
    return str(dwg.tostring())


def heading(view: Mapping[str, Any], adapter: Adapter, area: str | None = None) -> tuple[str, str]:
    """The two title lines from the view: game and side, then turn, phase and adjudication."""
    state = view.get("state") or {}
    return (f"{view.get('game')}: the {adapter.side_name(view.get('side'))} side's table",
            f"turn {state.get('turn', '?')}, phase {state.get('phase', '?')}, after adjudication {view.get('seq')}"
            + (f" (area {area})" if area else ""))


def render_view(view: Mapping[str, Any], adapter: Adapter, pic: TablePicture, area: str | None = None) -> str:
    """A table view's picture: `pic` is what its adapter gave; `area` "X,Y-X,Y" in table units zooms in."""
    return draw(pic, heading(view, adapter, area), adapter, parse_window(area, pic.map))


__all__ = ["Frame", "corners", "draw", "heading", "is_high", "parse_window", "render_view"]
