"""The picture of an open table (pbem.render.table): structure, the grid a player reads positions
from, bases exactly where the rules have them, the overlay's points, north, zoom, `pbem render`
on a table view, and fog of war: the picture shows what the adapter gives and nothing else.

The drawing is tested directly from a `TablePicture` built here on a `TableMap` read from a
small document, and through `map_svg` / `pbem render` with a test adapter standing in for a
miniatures ruleset's, so the drawing is proven apart from any one game (bst and wtj1916 test
their own pictures in tests/<id>/).
"""

from __future__ import annotations

import argparse
import copy
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Mapping

import pytest

from pbem.core import yamlio
from pbem.geometry.plane import Base, polygon
from pbem.geometry.tablemap import TableMap
from pbem.render import map_svg
from pbem.render import svg as svg_module
from pbem.render.adapters import (Adapter, Circle, Figure, Sector, TableAction, TableMark, TablePicture, View)
from pbem.render.board import TableBoard
from pbem.render.cli import cmd_render
from pbem.render.table import NOTE_CHARS, Frame, draw, parse_window

NS = "{http://www.w3.org/2000/svg}"

KINDS = {
    "woods": {"area": True, "blocks_sight": True}, "building": {"area": True, "blocks_sight": True},
    "hill": {"area": True}, "water": {"area": True}, "rough": {"area": True, "slows": True},
    "road": {"area": False}, "wall": {"area": False, "high": False}, "hedge": {"area": False, "high": False},
}
DOC: dict[str, Any] = {
    "unit": "mm", "width": 1200, "depth": 800, "assumed": True, "source": "drawn for the tests",
    "edges": {"red": "south", "blue": "north"},
    "features": [
        {"id": "copse", "kind": "woods", "polygon": [[300, 400], [450, 380], [470, 520], [320, 560]], "label": "the copse"},
        {"id": "farm", "kind": "building", "polygon": [[800, 300], [900, 300], [900, 380], [800, 380]]},
        {"id": "ridge", "kind": "hill", "polygon": [[50, 600], [500, 620], [480, 780], [60, 770]],
         "crest": [[100, 700], [450, 700]], "height": 40},
        {"id": "pond", "kind": "water", "polygon": [[1000, 600], [1100, 620], [1060, 700]]},
        {"id": "scrub", "kind": "rough", "polygon": [[600, 100], [700, 100], [700, 180], [600, 180]]},
        {"id": "lane", "kind": "road", "line": [[0, 250], [600, 260], [1200, 300]]},
        {"id": "yard-wall", "kind": "wall", "line": [[780, 280], [920, 280], [920, 400]],
         "properties": {"high": True}},
        {"id": "hedge-1", "kind": "hedge", "line": [[100, 200], [500, 210]]},
    ],
    "zones": [{"id": "red-start", "side": "red", "polygon": [[0, 0], [1200, 0], [1200, 150], [0, 150]]},
              {"id": "blue-start", "side": "blue", "polygon": [[0, 650], [1200, 650], [1200, 800], [0, 800]]}],
    "objectives": [{"id": "crossroads", "at": [600, 400], "label": "the crossroads"}],
}
TABLE = TableMap.from_dict(DOC, KINDS)

FIGURES = [
    Figure("r1", "red", (200, 100), 0, 30, 30, unit="alpha"),
    Figure("r2", "red", (260, 100), 90, 30, 30, unit="alpha"),
    Figure("r3", "red", (615, 333), 37, 40, 20, kind="gun", label="MG", flags=("moved",)),
    Figure("r4", "red", (1001, 77), 200, 60, 30, kind="vehicle", note="a lorry"),
    Figure("b1", "blue", (640, 700), 180, 30, 30, own=False, unit="bravo"),
    Figure("", "blue", (900, 720), 225, 30, 30, own=False),
]
MARKS = [TableMark("pinned", on="r1", side="red"), TableMark("fire", on="r1", count=3, side="red"),
         TableMark("kill", at=(500, 500), detail="a blue base removed"),
         TableMark("suppressed", on="nobody-drawn", at=(20, 20)), TableMark("suppressed", on="nobody-drawn")]
ACTIONS = [
    TableAction("move", "red", path=((200, 40), (190, 70), (200, 100)), units=("r1",), detail="r1 moves 62 mm"),
    TableAction("fire", "red", path=((200, 100), (260, 100)), target=(640, 700), label="5, 6: 1 hit", units=("r1", "r2")),
    TableAction("flamethrower", "red", path=((615, 333),), target=(640, 420),
                area=polygon([[615, 333], [660, 430], [620, 440]])),
    TableAction("deviation", "blue", path=((300, 120),), target=(340, 90), area=Circle((340, 90), 40)),
    TableAction("smoke", "blue", area=Circle((700, 500), 35)),
    TableAction("arc", "red", area=Sector((615, 333), 37, 45, 300)),
]


def picture(**changes: Any) -> TablePicture:
    pic = TablePicture(map=TABLE, figures=list(FIGURES), marks=list(MARKS), actions=list(ACTIONS),
                       off_table=[("r9", "red", "destroyed")], notes=["a note for the tests"])
    for key, value in changes.items():
        setattr(pic, key, value)
    return pic


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in text.split())]


def by_id(root: ET.Element, name: str) -> ET.Element:
    found = root.find(f".//*[@id='{name}']")
    assert found is not None, name
    return found


def title_of(el: ET.Element) -> str:
    t = el.find(f"{NS}title")
    return t.text or "" if t is not None else ""


# --- structure --------------------------------------------------------------------------------

def test_the_table_board_is_what_a_table_map_gives() -> None:
    board: TableBoard = TABLE  # the same check mypy makes in board.py
    assert (board.width, board.depth, board.unit, board.north) == (1200, 800, "mm", 0)


def test_the_svg_is_well_formed_and_has_every_layer() -> None:
    svg = draw(picture(), ("a game: the Red side's table", "turn 1"))
    root = parse(svg)
    assert root.tag == f"{NS}svg"
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    assert {"title", "table", "table-cloth", "terrain", "zones", "grid", "grid-labels", "objectives", "bases",
            "markers", "last-adjudication", "legend", "table-edges", "table-border"} <= ids
    assert "a game: the Red side's table" in "".join(by_id(root, "title").itertext())
    legend = "".join(by_id(root, "legend").itertext())
    assert "Red base" in legend and "Blue base" in legend and "wall (high)" in legend and "hedge (low)" in legend
    assert "a note for the tests" in legend and "r9 (Red, destroyed)" in legend
    assert "north-arrow" not in ids  # north is 0: the table's up edge is north


def test_a_long_note_is_folded_to_the_legend_width_word_for_word() -> None:
    cards = "turn 13; cards left " + ", ".join(f"{rank}{suit}" for rank in "2AJKQ" for suit in "CDHS") + ", JOKER"
    legend = by_id(parse(draw(picture(notes=[cards, "a note for the tests"]))), "legend")
    lines = [el.text or "" for el in legend.iter(f"{NS}text")]
    assert max(len(line) for line in lines) <= NOTE_CHARS, max(lines, key=len)
    start = next(n for n, line in enumerate(lines) if line.startswith("turn 13; cards left"))
    folded = lines[start:lines.index("a note for the tests")]
    assert len(folded) > 1 and all(line.startswith("  ") for line in folded[1:])
    assert " ".join(line.strip() for line in folded) == cards  # nothing dropped, nothing reordered
    width = float(parse(draw(picture(notes=[cards]))).get("viewBox", "0 0 0 0").replace(",", " ").split()[2])
    x = min(float(el.get("x", "0")) for el in legend.iter(f"{NS}text") if (el.text or "").startswith("turn 13"))
    assert x + NOTE_CHARS * 6 <= width  # about 6 units a character at font size 10: inside the picture


def test_terrain_by_kind_zones_objectives_and_edges() -> None:
    root = parse(draw(picture()))
    for feat in TABLE.features:
        el = by_id(root, f"feature-{feat.id}")
        assert el.get("data-kind") == feat.kind and f"k-{feat.kind}" in el.get("class", "")
        assert f"[{feat.id}]" in title_of(el)
    frame = Frame(TABLE)
    copse = by_id(root, "feature-copse").find(f"{NS}polygon")
    assert copse is not None and points(copse.get("points", "")) == frame.points(TABLE.feature("copse").shape)
    wall, hedge = by_id(root, "feature-yard-wall"), by_id(root, "feature-hedge-1")
    assert "high" in wall.get("class", "").split() and "low" in hedge.get("class", "").split()
    widths = [float(el.find(f"{NS}polyline").get("stroke-width", 0)) for el in (wall, hedge)]  # type: ignore[union-attr]
    assert widths[0] > widths[1]
    ridge = by_id(root, "feature-ridge")
    crest = ridge.find(f"{NS}polyline[@class='crest']")
    assert crest is not None and crest.get("stroke-dasharray") not in (None, "none")
    assert ridge.get("data-height") == "40" and "height 40" in title_of(ridge)
    lane = by_id(root, "feature-lane")
    assert "line" in lane.get("class", "").split() and lane.find(f"{NS}polyline") is not None
    for zone in TABLE.zones:
        el = by_id(root, f"zone-{zone.id}")
        assert el.get("data-side") == zone.side
    obj = by_id(root, "objective-crossroads")
    assert (obj.get("data-x"), obj.get("data-y")) == ("600", "400") and "600, 400 mm" in title_of(obj)
    edges = {el.get("data-side"): el.get("data-edge") for el in by_id(root, "table-edges")}
    assert edges == {"red": "south", "blue": "north"}


def test_the_grid_is_labelled_every_100_units_where_its_lines_are() -> None:
    root = parse(draw(picture()))
    frame = Frame(TABLE)
    labels = by_id(root, "grid-labels")
    xs = {int(t.get("data-x", -1)): t for t in labels if t.get("data-x") is not None}
    ys = {int(t.get("data-y", -1)): t for t in labels if t.get("data-y") is not None}
    assert sorted(xs) == list(range(0, 1201, 100)) and sorted(ys) == list(range(0, 801, 100))
    for v, t in xs.items():
        assert t.text == str(v)
        assert float(t.get("x", 0)) == frame.page((v, 0))[0]
        assert float(t.get("y", 0)) > frame.page((v, 0))[1]  # below the table's south edge
    for v, t in ys.items():
        assert t.text == str(v)
        x, y = frame.page((0, v))
        assert float(t.get("x", 0)) < x and abs(float(t.get("y", 0)) - y) < 5  # left of the west edge, on its line
    assert float(ys[800].get("y", 0)) < float(ys[0].get("y", 0))  # north is up
    unit = root.find(f".//{NS}text[@class='grid-unit']")
    assert unit is not None and unit.text == "mm"
    lines = by_id(root, "grid")
    majors = [el for el in lines if "major" in el.get("class", "")]
    assert len(majors) == 13 + 9
    for el in majors:
        if el.get("data-x") is not None:
            assert float(el.get("x1", 0)) == float(el.get("x2", 0)) == frame.page((int(el.get("data-x", 0)), 0))[0]


def test_a_table_in_yards_has_its_grid_every_100_yards() -> None:
    doc = {**DOC, "unit": "yd", "width": 2400, "depth": 1600, "zones": [], "edges": {}}
    table = TableMap.from_dict(doc, KINDS)
    root = parse(draw(TablePicture(map=table)))
    labels = by_id(root, "grid-labels")
    xs = sorted(int(t.get("data-x", -1)) for t in labels if t.get("data-x") is not None)
    assert xs[:3] == [0, 100, 200] or xs[:3] == [0, 200, 400]  # every line, or every 2nd when they would crowd
    assert all(v % 100 == 0 for v in xs) and xs[-1] in (2300, 2400)
    lines = [int(el.get("data-x", 0)) for el in by_id(root, "grid") if "major" in el.get("class", "")
             and el.get("data-x") is not None]
    assert lines == list(range(0, 2401, 100))
    unit = root.find(f".//{NS}text[@class='grid-unit']")
    assert unit is not None and unit.text == "yd"
    base = parse(draw(TablePicture(map=table, figures=[Figure("x", "red", (1000, 800), 45, 60, 30)])))
    assert "at 1000, 800 yd" in title_of(by_id(base, "base-x"))


# --- bases ---------------------------------------------------------------------------------------

def test_every_base_is_drawn_at_its_corners_flipped_with_its_position_in_the_title() -> None:
    root = parse(draw(picture()))
    frame = Frame(TABLE)
    for fig in FIGURES:
        if not fig.uid:
            continue
        el = by_id(root, f"base-{fig.uid}")
        base = Base(fig.centre, fig.facing, fig.width, fig.depth)
        poly = el.find(f"{NS}polygon")
        assert poly is not None
        assert points(poly.get("points", "")) == [frame.page(c) for c in base.corners]
        front = el.find(f"{NS}line[@class='front']")
        assert front is not None
        assert [(float(front.get("x1", 0)), float(front.get("y1", 0))),
                (float(front.get("x2", 0)), float(front.get("y2", 0)))] == [frame.page(c) for c in base.front_edge]
        assert (el.get("data-x"), el.get("data-y"), el.get("data-facing")) == (
            str(fig.centre[0]), str(fig.centre[1]), str(fig.facing))
        assert (el.get("data-width"), el.get("data-depth"), el.get("data-side")) == (
            str(fig.width), str(fig.depth), fig.side)
        title = title_of(el)
        assert f"{fig.uid}" in title and f"at {fig.centre[0]}, {fig.centre[1]} mm" in title
        assert f"facing {fig.facing}°" in title
        assert ("own" in el.get("class", "").split()) == fig.own
    # the flip: a base facing the table's up edge has its front edge higher on the page
    r1 = by_id(root, "base-r1").find(f"{NS}polygon")
    assert r1 is not None
    corners = points(r1.get("points", ""))
    assert corners[0][1] < corners[3][1] and corners[0][0] < corners[1][0]
    assert "of alpha" in title_of(by_id(root, "base-r1")) and "a lorry" in title_of(by_id(root, "base-r4"))
    assert "flag-moved" in by_id(root, "base-r3").get("class", "")
    assert "MG" in list(by_id(root, "labels-beside").itertext())  # too small to print on: beside it


def test_bases_are_one_element_each_and_unnamed_enemies_have_no_id() -> None:
    root = parse(draw(picture()))
    bases = [el for el in root.iter(f"{NS}g") if "base" in el.get("class", "").split()]
    assert len(bases) == len(FIGURES)
    ids = [el.get("id") for el in root.iter() if (el.get("id") or "").startswith("base-")]
    assert len(ids) == len(set(ids))
    assert sorted(i for i in ids if i) == sorted(["base-r1", "base-r2", "base-r3", "base-r4", "base-b1", "base-r9"])
    unnamed = [el for el in bases if el.get("id") is None]
    assert len(unnamed) == 1 and "enemy" in unnamed[0].get("class", "") and "not known which" in title_of(unnamed[0])


def test_own_bases_are_in_their_side_colour() -> None:
    root = parse(draw(picture()))
    fills = {el.get("data-side"): el.find(f"{NS}polygon").get("fill")  # type: ignore[union-attr]
             for el in root.iter(f"{NS}g") if "base" in el.get("class", "").split()}
    assert fills["red"] != fills["blue"]


# --- markers and the overlay ----------------------------------------------------------------------

def test_markers_sit_on_their_base_or_point_with_their_count() -> None:
    root = parse(draw(picture()))
    marks = [el for el in by_id(root, "markers")]
    kinds = [el.get("data-kind") for el in marks]
    # a marker on a base that is not drawn stands at its point, or without one is not drawn
    assert kinds == ["pinned", "fire", "kill", "suppressed"]
    pinned, fire, kill, suppressed = marks
    assert (suppressed.get("data-x"), suppressed.get("data-y"), suppressed.get("data-on")) == ("20", "20", "nobody-drawn")
    assert pinned.get("data-on") == "r1" and fire.get("data-count") == "3" and "F3" in list(fire.itertext())
    r1 = points(by_id(root, "base-r1").find(f"{NS}polygon").get("points", ""))  # type: ignore[union-attr]
    token = pinned.find(f"{NS}rect")
    assert token is not None and float(token.get("x", 0)) > max(x for x, _ in r1)  # beside the base
    second = fire.find(f"{NS}rect")
    assert second is not None and float(second.get("y", 0)) > float(token.get("y", 0))  # stacked below
    assert (kill.get("data-x"), kill.get("data-y")) == ("500", "500") and title_of(kill) == "a blue base removed"


def test_the_overlay_gives_its_points_in_table_units() -> None:
    root = parse(draw(picture()))
    frame = Frame(TABLE)
    items = list(by_id(root, "last-adjudication"))
    assert [el.get("data-kind") for el in items] == [a.kind for a in ACTIONS]
    move, fire, flame, deviation, smoke, arc = items
    assert move.get("data-from") == "200,40 190,70 200,100" and move.get("data-to") == "200,100"
    line = move.find(f"{NS}polyline")
    assert line is not None and points(line.get("points", "")) == frame.points(ACTIONS[0].path)
    assert line.get("marker-end", "").startswith("url(#arrow-") and move.get("data-units") == "r1"
    assert title_of(move) == "r1 moves 62 mm"
    assert fire.get("data-from") == "200,100 260,100" and fire.get("data-to") == "640,700"
    shots = fire.findall(f"{NS}line")
    assert len(shots) == 2 and all((float(s.get("x2", 0)), float(s.get("y2", 0))) == frame.page((640, 700))
                                   for s in shots)
    assert fire.get("data-label") == "5, 6: 1 hit" and "5, 6: 1 hit" in "".join(fire.itertext())
    assert flame.get("data-area") == "polygon 615,333 660,430 620,440" and flame.find(f"{NS}polygon") is not None
    assert deviation.get("data-area") == "circle 340,90 40" and deviation.get("data-to") == "340,90"
    ring = deviation.find(f"{NS}circle")
    assert ring is not None and float(ring.get("r", 0)) == round(40 * frame.scale, 2)
    assert smoke.get("data-from") is None and smoke.get("data-to") is None and smoke.find(f"{NS}circle") is not None
    assert arc.get("data-area") == "sector 615,333 37 45 300"
    path = arc.find(f"{NS}path")
    assert path is not None and path.get("d", "").startswith("M{},{} ".format(*frame.page((615, 333))))


def test_an_arc_of_fire_opens_round_its_facing() -> None:
    """A 90-degree arc facing the table's east edge spans from north-east to south-east of its apex."""
    pic = TablePicture(map=TABLE, actions=[TableAction("arc", "red", area=Sector((600, 400), 90, 45, 200))])
    root = parse(draw(pic))
    frame = Frame(TABLE)
    d = by_id(root, "last-adjudication").find(f".//{NS}path").get("d", "")  # type: ignore[union-attr]
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    (ax, ay), (sx, sy), (ex, ey) = (nums[0], nums[1]), (nums[2], nums[3]), (nums[-2], nums[-1])
    assert (ax, ay) == frame.page((600, 400))
    reach = 200 * frame.scale * 0.7071
    assert abs(sx - (ax + reach)) < 1 and abs(sy - (ay - reach)) < 1  # north-east: up and right on the page
    assert abs(ex - (ax + reach)) < 1 and abs(ey - (ay + reach)) < 1  # south-east


# --- north, zoom ---------------------------------------------------------------------------------

def test_a_north_arrow_when_the_up_edge_is_not_north() -> None:
    table = TableMap.from_dict({**DOC, "north": 30}, KINDS)
    root = parse(draw(TablePicture(map=table)))
    arrow = by_id(root, "north-arrow")
    assert arrow.get("data-north") == "30" and arrow.get("transform", "").startswith("rotate(330,")
    assert "N" in "".join(arrow.itertext())


def test_an_area_draws_part_of_the_table() -> None:
    window = parse_window("600,400-200,100", TABLE)
    assert window == (200, 100, 600, 400)
    root = parse(draw(picture(), window=window))
    labels = by_id(root, "grid-labels")
    xs = sorted(int(t.get("data-x", -1)) for t in labels if t.get("data-x") is not None)
    assert xs == [200, 300, 400, 500, 600]
    frame = Frame(TABLE, window)
    assert frame.page((200, 400)) == (frame.left, frame.top)
    r1 = by_id(root, "base-r1").find(f"{NS}polygon")
    assert r1 is not None and points(r1.get("points", "")) == frame.points(Base((200, 100), 0, 30, 30).corners)
    assert by_id(root, "table").get("clip-path") == "url(#table-clip)"
    fire = by_id(root, "last-adjudication")[1]
    assert fire.get("data-kind") == "fire" and fire.find(f"{NS}rect") is None  # its target is outside: no label
    assert [el.get("data-kind") for el in by_id(root, "markers")] == ["pinned", "fire"]  # those at 500,500 and 20,20 are outside
    for bad in ("2030-2640", "0,0-0,0", "5000,5000-6000,6000"):
        with pytest.raises(ValueError):
            parse_window(bad, TABLE)


# --- names: a terrain piece and an objective of the same name -----------------------------------

def texts(root: ET.Element, words: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{NS}text") if (el.text or "") == words]


def named_objective_table(at: tuple[int, int]) -> TableMap:
    """TABLE with a second objective named as the copse is (its label drawn at the middle of its box, 385,470)."""
    objectives = [*DOC["objectives"], {"id": "copse-objective", "at": list(at), "label": "the copse"}]
    return TableMap.from_dict({**DOC, "objectives": objectives}, KINDS)


def test_an_objective_named_as_a_terrain_piece_prints_the_name_once() -> None:
    root = parse(draw(TablePicture(map=named_objective_table((400, 480)))))
    assert len(texts(root, "the copse")) == 1
    assert texts(root, "the copse")[0].get("data-feature") == "copse"  # the wood keeps its name
    obj = by_id(root, "objective-copse-objective")
    assert obj.find(f"{NS}circle") is not None and "objective the copse" in title_of(obj)  # the marker stays
    assert len(texts(root, "the crossroads")) == 1  # an objective named as nothing else keeps its name
    plain = parse(draw(TablePicture(map=TABLE)))
    assert len(texts(plain, "the copse")) == 1


def test_the_objective_keeps_the_name_where_the_terrain_name_is_outside_the_area() -> None:
    table = named_objective_table((460, 500))
    window = parse_window("420,380-700,700", table)  # holds the objective, not the copse's name at 385,470
    root = parse(draw(TablePicture(map=table), window=window))
    obj = by_id(root, "objective-copse-objective")
    assert [el.text for el in obj.iter(f"{NS}text")] == ["the copse"]
    inside = parse(draw(TablePicture(map=table), window=parse_window("300,380-700,700", table)))
    assert [el.text for el in by_id(inside, "objective-copse-objective").iter(f"{NS}text")] == []


@pytest.mark.parametrize("side", ["allies", "axis"])
def test_the_bst_sample_picture_names_bois_carre_once(side: str) -> None:
    """samples/bst: the wood Bois Carre (three pieces) holds the objective of that name."""
    root = parse((Path(__file__).resolve().parent.parent / "samples" / "bst" / "pictures" / f"{side}-0030.svg")
                 .read_text(encoding="utf-8"))
    assert len(texts(root, "Bois Carre")) == 1
    assert by_id(root, "objective-the-wood").find(f"{NS}circle") is not None


# --- through the view: map_svg, pbem render, and fog of war ------------------------------------

class TableTestAdapter(Adapter):
    """What a miniatures ruleset's adapter does: own bases from the view's `bases`, enemy bases
    from `seen` (only what the side sees), the last events as actions. Reads nothing else."""

    ruleset_id = "table-test"
    sides = ("red", "blue")

    def picture(self, view: View) -> TablePicture:
        state, side = view["state"], str(view["side"])
        figures = [Figure(uid, side, (b["at"][0], b["at"][1]), b["facing"], 30, 30, unit=b.get("squad", ""))
                   for uid, b in sorted(state["bases"].items())]
        figures += [Figure(uid, b["side"], (b["at"][0], b["at"][1]), b["facing"], 30, 30, own=False)
                    for uid, b in sorted(state["seen"].items())]
        actions = [TableAction("move", e["side"], path=tuple((p[0], p[1]) for p in e["path"]), units=(e["base"],))
                   for e in view.get("events") or [] if e["type"] == "move"]
        return TablePicture(map=TABLE, figures=figures, actions=actions)


def view(**hidden: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": "view", "game": "skirmish", "seq": 3, "side": "red", "ruleset": {"id": "table-test", "version": "1"},
        "state": {"turn": 2, "phase": "fire",
                  "bases": {"r1": {"at": [200, 100], "facing": 0, "squad": "alpha"},
                            "r2": {"at": [260, 100], "facing": 90, "squad": "alpha"}},
                  "seen": {"b1": {"side": "blue", "at": [640, 700], "facing": 180}}},
        "events": [{"type": "move", "side": "red", "base": "r1", "path": [[200, 40], [200, 100]]}],
    }
    out["state"].update(hidden)
    return out


@pytest.fixture
def table_adapter(monkeypatch: pytest.MonkeyPatch) -> None:
    def found(v: Mapping[str, Any]) -> Adapter | None:
        return TableTestAdapter() if (v.get("ruleset") or {}).get("id") == "table-test" else None

    monkeypatch.setattr(svg_module, "adapter_for", found)


@pytest.mark.usefixtures("table_adapter")
def test_map_svg_draws_a_table_view_with_its_heading() -> None:
    root = parse(map_svg(view()))
    title = "".join(by_id(root, "title").itertext())
    assert "skirmish: the Red side's table" in title and "turn 2, phase fire, after adjudication 3" in title
    assert {"base-r1", "base-r2", "base-b1"} <= {el.get("id") for el in root.iter()}
    assert by_id(root, "last-adjudication")[0].get("data-from") == "200,40 200,100"
    zoomed = parse(map_svg(view(), area="0,0-600,400"))
    assert "(area 0,0-600,400)" in "".join(by_id(zoomed, "title").itertext())
    with pytest.raises(ValueError):
        map_svg(view(), area="2030-2640")  # hexes mean nothing on a table


@pytest.mark.usefixtures("table_adapter")
def test_pbem_render_works_for_a_table_view(tmp_path: Path) -> None:
    path = tmp_path / "red.yaml"
    path.write_text(yamlio.dump(view()), encoding="utf-8")
    args = argparse.Namespace(view=str(path), out=None, area=None, png=False)
    assert cmd_render(args) == 0
    svg = path.with_suffix(".svg").read_text(encoding="utf-8")
    assert svg == map_svg(view()) and 'id="base-r1"' in svg


@pytest.mark.usefixtures("table_adapter")
def test_the_table_picture_does_not_change_when_hidden_things_do() -> None:
    """Views that differ only in what the adapter does not read (what the referee keeps, an
    enemy base not seen, a key no adapter knows) give byte-identical pictures."""
    plain = map_svg(view())
    for hidden in ({"unseen": {"b2": {"side": "blue", "at": [100, 700], "facing": 180}}},
                   {"referee": {"dice": [6, 6, 1]}, "orders": ["b2 to [100, 600]"]},
                   {"seen_by_blue": {"r1": True}}):
        changed = view(**hidden)
        assert changed != view()
        assert map_svg(changed) == plain
    assert "b2" not in plain
    top_level = copy.deepcopy(view())
    top_level["hidden_from_red"] = {"b2": [100, 700]}
    assert map_svg(top_level) == plain


@pytest.mark.usefixtures("table_adapter")
def test_a_change_the_side_may_see_does_change_the_table_picture() -> None:
    """The converse, so the leak test cannot pass by drawing nothing."""
    seen = view()
    seen["state"]["seen"]["b2"] = {"side": "blue", "at": [100, 700], "facing": 180}
    moved = view()
    moved["state"]["seen"]["b1"]["at"] = [641, 700]
    for changed in (seen, moved):
        assert map_svg(changed) != map_svg(view())


def test_the_drawing_reads_only_its_picture() -> None:
    """`draw` is a function of the picture and its heading: equal pictures, equal bytes."""
    assert draw(picture(), ("a", "b")) == draw(picture(), ("a", "b"))
    assert draw(picture(), ("a", "b")) != draw(picture(figures=FIGURES[:-1]), ("a", "b"))


# --- the sample tables ----------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["bst", "wtj1916"])
def test_the_sample_tables_are_drawn_whole(ruleset: str) -> None:
    from pbem.geometry.tablemap import load_table_map

    table = load_table_map(Path(__file__).resolve().parent.parent / "samples" / ruleset / "table.yaml")
    root = parse(draw(TablePicture(map=table)))
    for feat in table.features:
        el = by_id(root, f"feature-{feat.id}")
        if not feat.shape.closed:
            assert ("high" in el.get("class", "").split()) == (feat.properties.get("height_class") == "high"
                                                                or feat.properties.get("high") is True)
    for zone in table.zones:
        by_id(root, f"zone-{zone.id}")
    for obj in table.objectives:
        by_id(root, f"objective-{obj.id}")
    labels = by_id(root, "grid-labels")
    xs = sorted(int(t.get("data-x", -1)) for t in labels if t.get("data-x") is not None)
    assert xs == list(range(0, table.width + 1, 100))
    unit = root.find(f".//{NS}text[@class='grid-unit']")
    assert unit is not None and unit.text == table.unit
