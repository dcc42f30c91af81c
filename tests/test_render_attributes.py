"""Fog of war in a picture's attributes: every id and data attribute naming a piece names one the view holds.

Scripts and the desk read a picture's attributes (`id="unit-..."`, `id="base-..."`, `data-unit`,
`data-units`, `data-on`, `data-hex`, `data-from`, `data-to`) without showing them, so a leak there
would be invisible on screen. Each sample game's views, at the start, the middle and the end, are
drawn and every such attribute is held to the view: a piece's id must be a word of the view's own
file, a hex id a word of the view or a hex of the (public) map. A hex of the map carries its id
as `data-hex`, the same as the label printed on it (the desk finds hexes by it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.core import yamlio
from pbem.render import map_svg
from pbem.render.adapters import Picture, adapter_for

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
GAMES = ("fbsm", "toc", "bob", "bst", "wtj1916")
PIECES = ("data-unit", "data-units", "data-on")  # attributes naming pieces
PLACES = ("data-hex", "data-from", "data-to")  # attributes naming hexes on a hex map (points on a table)
ID_PREFIXES = ("unit-", "base-")


def words(value: Any) -> Iterator[str]:
    """Every scalar and mapping key of a YAML document, as text."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from words(item)
    elif isinstance(value, list):
        for item in value:
            yield from words(item)
    elif value is not None:
        yield str(value)


def sample_views(game: str) -> list[Path]:
    """Each side's view of the game's first, middle and last adjudication."""
    turns = sorted(p for p in (ROOT / "samples" / game / "game" / "turns").iterdir() if p.is_dir())
    picked = {turns[0], turns[len(turns) // 2], turns[-1]}
    return sorted(view for turn in picked for view in turn.glob("*.yaml") if view.name != "turn.yaml")


def leaks(svg: str, view: dict[str, Any]) -> list[str]:
    """Attributes of the picture naming a piece or a hex the view does not hold."""
    known = set(words(view))
    pic = adapter_for(view).picture(view)  # type: ignore[union-attr]
    hexes = {h.id for h in pic.map.hexes()} if isinstance(pic, Picture) else set()
    found = []
    for el in ET.fromstring(svg).iter():
        ident = el.get("id", "")
        if ident.startswith(ID_PREFIXES) and ident.split("-", 1)[1] not in known:
            found.append(f"id={ident!r}")
        for name in PIECES:
            found += [f"{name}={token!r}" for token in el.get(name, "").split() if token not in known]
        if isinstance(pic, Picture):
            for name in PLACES:
                found += [f"{name}={token!r}" for token in el.get(name, "").split()
                          if token not in known and token not in hexes and token != "off"]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_a_pictures_attributes_name_only_what_its_view_holds(game: str) -> None:
    views = sample_views(game)
    assert views
    for path in views:
        view = yamlio.load_file(path).data
        assert leaks(map_svg(view), view) == [], path


def test_an_attribute_naming_a_piece_the_view_lacks_is_caught() -> None:
    """The check above can fail: a unit id that is not in the view, slipped into a picture, is found."""
    path = sample_views("bob")[-1]
    view = yamlio.load_file(path).data
    svg = map_svg(view)
    assert leaks(svg, view) == []
    planted = svg.replace('<g id="units">', '<g id="units"><g data-unit="ZZ-hidden" id="unit-ZZ-hidden" />', 1)
    assert planted != svg
    assert leaks(planted, view) == ["id='unit-ZZ-hidden'", "data-unit='ZZ-hidden'"]


@pytest.mark.parametrize("game", ("fbsm", "toc", "bob"))
def test_every_hex_of_the_map_carries_its_id_as_printed(game: str) -> None:
    view = yamlio.load_file(sample_views(game)[-1]).data
    root = ET.fromstring(map_svg(view))
    cells = [p.get("data-hex") for p in root.findall(f".//{NS}g[@id='terrain']/{NS}polygon")]
    labels = ["".join(t.itertext()) for t in root.findall(f".//{NS}g[@id='hex-ids']/{NS}text")]
    assert cells == labels
    assert len(set(cells)) == len(cells) > 100
