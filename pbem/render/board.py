"""What the SVG drawing needs of a board: the `Board` interface a picture carries.

A board is what the pieces stand on, in one of two kinds, each read only through its interface:

- `HexBoard`: a hex map, exactly what `svg.py` reads of one (bounds, stagger, north, which hexes
  are on the map, their terrain and features, the features of hexsides).
  `pbem.geometry.hexmap.HexMap` satisfies it as it is. A hex `Picture` carries one.
- `TableBoard`: an open table for miniatures, exactly what `table.py` reads of one (its size
  and unit, the compass bearing of its up edge, its terrain features as outlines and lines,
  the deployment zones, the objectives, each side's table edge).
  `pbem.geometry.tablemap.TableMap` satisfies it as it is. A `TablePicture` carries one.

`Board` is the union of the two. Points on a table are whole units `(x, y)`, x east, y north,
the origin at the south-west corner (`pbem/geometry/plane.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

from pbem.geometry.hexgrid import Hex, Hexside
from pbem.geometry.plane import Point, Shape

if TYPE_CHECKING:
    from pbem.geometry.hexmap import HexMap
    from pbem.geometry.tablemap import TableMap


class HexBoard(Protocol):
    """A hex map as the drawing reads it: read-only, hex ids as `Hex`."""

    @property
    def columns(self) -> tuple[int, int]:
        """First and last column (inclusive)."""

    @property
    def rows(self) -> tuple[int, int]:
        """First and last row (inclusive)."""

    @property
    def stagger(self) -> str:
        """Which columns sit half a hex low: "odd-low" or "even-low"."""

    @property
    def north(self) -> int:
        """The direction index (0-5) that is map north; the picture turns it up."""

    @property
    def side_features(self) -> Mapping[Hexside, tuple[str, ...]]:
        """Features along hexsides (road, river, bridge, ...), by hexside."""

    def on_map(self, hex: Hex) -> bool:
        """Whether a hex inside the bounds is part of the map."""

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map."""

    def terrain(self, hex: Hex) -> str:
        """The terrain of a hex of the map."""

    def features(self, hex: Hex) -> tuple[str, ...]:
        """The features in a hex of the map (a town, a church, ...)."""


class TableFeature(Protocol):
    """A terrain feature of a table: an area (closed polygon) or a linear feature (polyline)."""

    @property
    def id(self) -> str:
        """Unique on its table."""

    @property
    def kind(self) -> str:
        """woods, building, rough, field, hill, water, road, wall, hedge, bocage, fence, trench, smoke, ..."""

    @property
    def shape(self) -> Shape:
        """Its outline (`closed`) or its line (a polyline), in table units."""

    @property
    def crest(self) -> Shape | None:
        """A hill's crest line, if it has one."""

    @property
    def height(self) -> int | None:
        """Its height in table units, if the table map gives one (shown in its tooltip)."""

    @property
    def properties(self) -> Mapping[str, Any]:
        """What the rules ask of it (blocks sight, cover, ...); the drawing reads only `high`
        (or `height_class`), the height class of a linear feature."""

    @property
    def label(self) -> str:
        """A name to print, or ""."""


class TableZone(Protocol):
    """A side's deployment zone."""

    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def shape(self) -> Shape: ...


class TableObjective(Protocol):
    """An objective: a point with a name."""

    @property
    def id(self) -> str: ...

    @property
    def at(self) -> Point: ...

    @property
    def label(self) -> str: ...


class TableBoard(Protocol):
    """An open table as the drawing reads it: read-only, points in whole table units."""

    @property
    def width(self) -> int:
        """West to east, in `unit`."""

    @property
    def depth(self) -> int:
        """South to north, in `unit`."""

    @property
    def unit(self) -> str:
        """"mm" or "yd": what every coordinate and distance of the table counts."""

    @property
    def north(self) -> int:
        """The compass bearing of the table's up edge (0: up is north); the picture keeps up up."""

    @property
    def features(self) -> Sequence[TableFeature]:
        """The terrain, in the table map's order."""

    @property
    def zones(self) -> Sequence[TableZone]:
        """Deployment zones."""

    @property
    def objectives(self) -> Sequence[TableObjective]:
        """Objectives."""

    @property
    def edges(self) -> Mapping[str, str]:
        """Each side's own table edge: side -> "north", "south", "east" or "west"."""


Board = HexBoard | TableBoard

if TYPE_CHECKING:
    def _a_hex_map_is_a_board(hexmap: HexMap) -> HexBoard:  # checked by mypy: HexMap satisfies HexBoard as it is
        return hexmap

    def _a_table_map_is_a_board(table: TableMap) -> TableBoard:  # and a TableMap satisfies TableBoard
        return table

    def _either_is_a_board(hexmap: HexMap, table: TableMap) -> tuple[Board, Board]:
        return hexmap, table


__all__ = ["Board", "HexBoard", "TableBoard", "TableFeature", "TableObjective", "TableZone"]
