"""Hex-grid arithmetic for printed wargame maps: ids, neighbours, hexsides, range, lines.

Pure and exact: no I/O, and every result is built from ints and `Fraction`s.

Hex ids are the printed four-digit ``CCRR`` strings: two digits of column, two of
row. Columns are vertical and hexes flat-topped, so each column is offset half a
hex from its neighbours. ``HexGrid.stagger`` says which columns sit lower:

- ``"odd-low"`` (the default, "odd-q" in the Red Blob Games guide): odd columns
  are half a hex lower. ToC 7.2 fixes this for The Old Contemptibles (3506 touches
  3407, 3505, 3606, 3607) and FBSM 10.6/10.8 agree with it.
- ``"even-low"``: even columns are lower.

Directions are indices 0-5, clockwise, as the map is drawn with row numbers
growing downwards and column numbers growing to the right:

    0 = up (row - 1, same column)     3 = down (row + 1, same column)
    1 = up-right                      4 = down-left
    2 = down-right                    5 = up-left

Index 0 is "north" only on maps whose north is up; a map declares which index is
its north (FBSM's north is 3: 11.3 drifts "south" from 2136 to 2135). `toward`
turns a compass name relative to that north into an index.

Lines: the hexes a straight centre-to-centre line passes through, computed
exactly. Where the line runs exactly along a hexside, or passes exactly through a
hex corner, the answer is ambiguous; `line` nudges the whole line an
infinitesimal distance to the left and to the right of its direction of travel
(the +eps/-eps trick of the Red Blob guide, done with exact symbolic epsilon),
returns the hexes both nudged lines agree on, and reports each disagreement as a
`Split` so a ruleset can choose: FBSM 10.9 blocks a hexside-running line only if
both hexes block; ToC 10.3 blocks it if either does.

Unlike the guide's sampling (which takes exactly distance + 1 hexes), the walk
here finds every hex the line enters, including slivers the sampling skips; a
line may therefore hold more than distance + 1 hexes (ToC 10.3 counts any part
of a hex the line passes through).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Literal, Union

Stagger = Literal["odd-low", "even-low"]
STAGGERS: tuple[Stagger, ...] = ("odd-low", "even-low")

SplitRule = Literal["both", "either"]

COMPASS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

_ID_RE = re.compile(r"[0-9]{4}")


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex by printed column and row. Any ints are allowed (a drift may leave the
    printed range); only hexes with column and row in 0-99 have a printed id."""

    col: int
    row: int

    def __post_init__(self) -> None:
        for name, value in (("col", self.col), ("row", self.row)):
            if type(value) is not int:
                raise ValueError(f"Hex {name} must be an int, got {value!r}")

    @classmethod
    def parse(cls, text: str) -> Hex:
        """The hex of a printed four-digit id such as ``"3506"``."""
        if not isinstance(text, str) or not _ID_RE.fullmatch(text):
            raise ValueError(f"hex id must be four digits CCRR (column, row), got {text!r}")
        return cls(int(text[:2]), int(text[2:]))

    @property
    def has_id(self) -> bool:
        return 0 <= self.col <= 99 and 0 <= self.row <= 99

    @property
    def id(self) -> str:
        """The printed four-digit id; ValueError for a hex outside columns/rows 0-99."""
        if not self.has_id:
            raise ValueError(f"hex at column {self.col}, row {self.row} has no four-digit id")
        return f"{self.col:02d}{self.row:02d}"

    def __str__(self) -> str:
        return self.id if self.has_id else f"({self.col},{self.row})"


HexLike = Union[Hex, str]


def as_hex(value: HexLike) -> Hex:
    """Accept a `Hex` or a printed id string."""
    if isinstance(value, Hex):
        return value
    return Hex.parse(value)


@dataclass(frozen=True, order=True, slots=True)
class Cube:
    """Cube coordinates (Red Blob Games): q is the column, q + r + s == 0."""

    q: int
    r: int
    s: int

    def __post_init__(self) -> None:
        if self.q + self.r + self.s != 0:
            raise ValueError(f"cube coordinates must sum to 0, got {self.q}, {self.r}, {self.s}")

    def __add__(self, other: Cube) -> Cube:
        return Cube(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: Cube) -> Cube:
        return Cube(self.q - other.q, self.r - other.r, self.s - other.s)

    def scaled(self, factor: int) -> Cube:
        return Cube(self.q * factor, self.r * factor, self.s * factor)

    def length(self) -> int:
        return max(abs(self.q), abs(self.r), abs(self.s))

    def coords(self) -> tuple[int, int, int]:
        return (self.q, self.r, self.s)


# Cube offsets for directions 0-5 (see the module docstring).
CUBE_DIRECTIONS: tuple[Cube, ...] = (
    Cube(0, -1, 1),
    Cube(1, -1, 0),
    Cube(1, 0, -1),
    Cube(0, 1, -1),
    Cube(-1, 1, 0),
    Cube(-1, 0, 1),
)


def opposite(direction: int) -> int:
    """The direction index pointing the other way."""
    return (_check_direction(direction) + 3) % 6


def toward(compass: str, north: int = 0) -> int:
    """The direction index of a compass point (N, NE, SE, S, SW, NW) on a map whose
    north is direction index `north`."""
    if compass not in COMPASS:
        raise ValueError(f"compass direction must be one of {', '.join(COMPASS)}, got {compass!r}")
    return (_check_direction(north) + COMPASS.index(compass)) % 6


def _check_direction(direction: int) -> int:
    if type(direction) is not int or not 0 <= direction <= 5:
        raise ValueError(f"direction must be an int 0-5, got {direction!r}")
    return direction


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The edge shared by two adjacent hexes; the same key from either side
    (the hexes are stored in sorted order)."""

    first: Hex
    second: Hex

    @classmethod
    def of(cls, a: Hex, b: Hex) -> Hexside:
        return cls(a, b) if a < b else cls(b, a)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return (self.first, self.second)

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


@dataclass(frozen=True, slots=True)
class Split:
    """Where the left-nudged and right-nudged lines disagree.

    kind ``"hexside"``: the line runs exactly along the hexside `hexside`; `left` and
    `right` hold the one hex on each side of it (left/right of the direction of travel).
    kind ``"vertex"``: the line passes exactly through a hex corner; one side holds
    the third hex at that corner (touched only at the point), the other side is empty.

    `index` places the split in `Line.hexes`: between ``hexes[index]`` and
    ``hexes[index + 1]``. `left_hexsides`/`right_hexsides` are the hexsides each nudged
    line crosses from ``hexes[index]`` to ``hexes[index + 1]``.
    """

    index: int
    kind: Literal["hexside", "vertex"]
    left: tuple[Hex, ...]
    right: tuple[Hex, ...]
    left_hexsides: tuple[Hexside, ...]
    right_hexsides: tuple[Hexside, ...]
    hexside: Hexside | None

    @property
    def candidates(self) -> tuple[Hex, ...]:
        return self.left + self.right


@dataclass(frozen=True, slots=True)
class Line:
    """A centre-to-centre line from `hexes[0]` to `hexes[-1]`.

    `left`/`right`: every hex the line enters when nudged infinitesimally to the left
    or right of its direction of travel (map drawn with rows growing downwards).
    `hexes`: the hexes on both, in order. `hexsides`: the hexsides both cross, in
    order. `splits`: the disagreements between them.
    """

    left: tuple[Hex, ...]
    right: tuple[Hex, ...]
    hexes: tuple[Hex, ...]
    hexsides: tuple[Hexside, ...]
    splits: tuple[Split, ...]

    @property
    def start(self) -> Hex:
        return self.hexes[0]

    @property
    def end(self) -> Hex:
        return self.hexes[-1]

    @property
    def between(self) -> tuple[Hex, ...]:
        """The definite hexes strictly between the two ends."""
        return self.hexes[1:-1]

    def blocked(
        self,
        hex_blocks: Callable[[Hex], bool],
        *,
        at_split: SplitRule,
        side_blocks: Callable[[Hexside], bool] | None = None,
    ) -> bool:
        """Whether terrain between the ends blocks the line; the two end hexes never
        count (FBSM 10.7, ToC 10.3). At each split, ``"both"`` blocks only if both
        sides block (FBSM 10.9), ``"either"`` if one does (ToC 10.3)."""

        def sides(hexsides: tuple[Hexside, ...]) -> bool:
            return side_blocks is not None and any(side_blocks(s) for s in hexsides)

        if any(hex_blocks(h) for h in self.between) or sides(self.hexsides):
            return True
        combine = all if at_split == "both" else any
        for split in self.splits:
            left = any(hex_blocks(h) for h in split.left) or sides(split.left_hexsides)
            right = any(hex_blocks(h) for h in split.right) or sides(split.right_hexsides)
            if combine((left, right)):
                return True
        return False


@dataclass(frozen=True, slots=True)
class HexGrid:
    """The geometry of one printed grid: which columns sit half a hex lower."""

    stagger: Stagger = "odd-low"

    def __post_init__(self) -> None:
        if self.stagger not in STAGGERS:
            raise ValueError(f"stagger must be one of {', '.join(STAGGERS)}, got {self.stagger!r}")

    def _lift(self, col: int) -> int:
        # Rows to subtract so that r is constant along the down-right diagonal.
        parity = col & 1
        return (col - parity) // 2 if self.stagger == "odd-low" else (col + parity) // 2

    def to_cube(self, hex: HexLike) -> Cube:
        h = as_hex(hex)
        r = h.row - self._lift(h.col)
        return Cube(h.col, r, -h.col - r)

    def from_cube(self, cube: Cube) -> Hex:
        return Hex(cube.q, cube.r + self._lift(cube.q))

    def neighbour(self, hex: HexLike, direction: int) -> Hex:
        return self.step(hex, direction)

    def neighbours(self, hex: HexLike) -> tuple[Hex, ...]:
        """The six neighbours, indexed by direction 0-5."""
        c = self.to_cube(hex)
        return tuple(self.from_cube(c + d) for d in CUBE_DIRECTIONS)

    def step(self, hex: HexLike, direction: int, count: int = 1) -> Hex:
        """The hex `count` hexes away in a straight line along `direction`."""
        offset = CUBE_DIRECTIONS[_check_direction(direction)].scaled(count)
        return self.from_cube(self.to_cube(hex) + offset)

    def adjacent(self, a: HexLike, b: HexLike) -> bool:
        return self.distance(a, b) == 1

    def direction(self, a: HexLike, b: HexLike) -> int:
        """The direction index from `a` to its neighbour `b`."""
        offset = self.to_cube(b) - self.to_cube(a)
        if offset not in CUBE_DIRECTIONS:
            raise ValueError(f"hexes {as_hex(a)} and {as_hex(b)} are not adjacent")
        return CUBE_DIRECTIONS.index(offset)

    def hexside(self, a: HexLike, b: HexLike) -> Hexside:
        """The hexside shared by two adjacent hexes."""
        self.direction(a, b)
        return Hexside.of(as_hex(a), as_hex(b))

    def hexsides(self, hex: HexLike) -> tuple[Hexside, ...]:
        """The six hexsides of a hex, indexed by direction 0-5."""
        h = as_hex(hex)
        return tuple(Hexside.of(h, n) for n in self.neighbours(h))

    def distance(self, a: HexLike, b: HexLike) -> int:
        """Range in hexes: the target counts, the origin does not (FBSM 10.6, ToC 10.2)."""
        return (self.to_cube(b) - self.to_cube(a)).length()

    def ring(self, hex: HexLike, radius: int) -> tuple[Hex, ...]:
        """The hexes at exactly `radius`, clockwise from the one straight up (direction 0)."""
        if type(radius) is not int or radius < 0:
            raise ValueError(f"radius must be a non-negative int, got {radius!r}")
        centre = self.to_cube(hex)
        if radius == 0:
            return (self.from_cube(centre),)
        cube = centre + CUBE_DIRECTIONS[0].scaled(radius)
        out: list[Hex] = []
        for direction in (2, 3, 4, 5, 0, 1):
            for _ in range(radius):
                out.append(self.from_cube(cube))
                cube = cube + CUBE_DIRECTIONS[direction]
        return tuple(out)

    def hexes_within(self, hex: HexLike, radius: int) -> tuple[Hex, ...]:
        """The hexes at distance 0 to `radius`, ring by ring."""
        if type(radius) is not int or radius < 0:
            raise ValueError(f"radius must be a non-negative int, got {radius!r}")
        return tuple(h for k in range(radius + 1) for h in self.ring(hex, k))

    def line(self, a: HexLike, b: HexLike) -> Line:
        """The hexes a straight line between the centres of `a` and `b` passes through."""
        start, end = self.to_cube(a), self.to_cube(b)
        left = tuple(self.from_cube(c) for c in _walk(start, end, 1))
        right = tuple(self.from_cube(c) for c in _walk(start, end, -1))
        return _merge(left, right)


# Each cell boundary: the pair of cube axes (i, j) whose difference reaches +1 there,
# and the neighbour that lies beyond (at -1 the opposite neighbour).
_BOUNDARIES: tuple[tuple[int, int, Cube], ...] = (
    (0, 1, CUBE_DIRECTIONS[1]),
    (1, 2, CUBE_DIRECTIONS[3]),
    (2, 0, CUBE_DIRECTIONS[5]),
)

# A parameter along the line: (value, coefficient of the infinitesimal nudge),
# compared lexicographically.
_Param = tuple[Fraction, Fraction]


def _walk(start: Cube, end: Cube, side: int) -> tuple[Cube, ...]:
    """Every cell the segment start->end enters, shifted by side * eps to the left.

    Cell of hex H: |(p - H)_i - (p - H)_j| <= 1 for every pair of cube axes. The
    segment is p(t) = start + t*d + side*eps*n, n perpendicular to d. Leaving a cell
    is the earliest t at which one of those differences reaches +-1.
    """
    d = (end - start).coords()
    n = (d[1] - d[2], d[2] - d[0], d[0] - d[1])  # d rotated a quarter turn to the left
    a = start.coords()
    path = [start]
    here = start
    for _ in range(4 * (end - start).length() + 4):
        if here == end:
            return tuple(path)
        h = here.coords()
        exits: list[tuple[_Param, Cube]] = []
        for i, j, beyond in _BOUNDARIES:
            slope = d[i] - d[j]
            if slope == 0:
                continue
            bound = 1 if slope > 0 else -1
            offset = (a[i] - a[j]) - (h[i] - h[j])
            t: _Param = (Fraction(bound - offset, slope), Fraction(-side * (n[i] - n[j]), slope))
            exits.append((t, here + beyond if slope > 0 else here - beyond))
        exits.sort(key=lambda e: e[0])
        # A nudged line never meets a corner exactly, so the earliest exit is unique.
        assert len(exits) == 1 or exits[0][0] != exits[1][0]
        here = exits[0][1]
        path.append(here)
    raise AssertionError(f"line walk from {start} to {end} did not arrive")


def _merge(left: tuple[Hex, ...], right: tuple[Hex, ...]) -> Line:
    common: list[Hex] = []
    splits: list[Split] = []
    i = j = 0
    while i < len(left):
        if left[i] == right[j]:
            common.append(left[i])
            i, j = i + 1, j + 1
            continue
        k = next(k for k in range(i, len(left)) if left[k] in right[j:])
        m = right.index(left[k], j)
        splits.append(_split(len(common) - 1, left[i - 1 : k + 1], right[j - 1 : m + 1]))
        i, j = k, m
    crossed = tuple(_crossings(left))
    split_sides = {s for split in splits for s in split.left_hexsides + split.right_hexsides}
    hexsides = tuple(s for s in crossed if s not in split_sides)
    return Line(left, right, tuple(common), hexsides, tuple(splits))


def _split(index: int, left: tuple[Hex, ...], right: tuple[Hex, ...]) -> Split:
    """A disagreement; `left`/`right` include the agreed hexes on either side."""
    inner_left, inner_right = left[1:-1], right[1:-1]
    if len(inner_left) == 1 and len(inner_right) == 1:
        kind: Literal["hexside", "vertex"] = "hexside"
        side: Hexside | None = Hexside.of(inner_left[0], inner_right[0])
    elif len(inner_left) + len(inner_right) == 1:
        kind, side = "vertex", None
    else:
        raise AssertionError(f"unexpected line split {left} / {right}")
    return Split(
        index, kind, inner_left, inner_right, tuple(_crossings(left)), tuple(_crossings(right)), side
    )


def _crossings(path: tuple[Hex, ...]) -> list[Hexside]:
    return [Hexside.of(p, q) for p, q in zip(path, path[1:])]
