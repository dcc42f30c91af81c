"""What the SVG drawing needs of a board: the `Board` interface a `Picture` carries.

A board is what the pieces stand on. Today every board is a hex map: `HexBoard` is exactly
what `svg.py` reads of one (bounds, stagger, north, which hexes are on the map, their terrain
and features, the features of hexsides), and `pbem.geometry.hexmap.HexMap` satisfies it as it
is. An open table (miniatures, measured in inches rather than counted in hexes) will be a
second kind of board with its own interface; `Board` then becomes the union of the two and
`svg.py` draws each kind with its own layout (docs/render.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Protocol

from pbem.geometry.hexgrid import Hex, Hexside

if TYPE_CHECKING:
    from pbem.geometry.hexmap import HexMap


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


Board = HexBoard  # the table issue makes this `HexBoard | TableBoard`

if TYPE_CHECKING:
    def _a_hex_map_is_a_board(hexmap: HexMap) -> Board:  # checked by mypy: HexMap satisfies HexBoard as it is
        return hexmap


__all__ = ["Board", "HexBoard"]
