"""Hex-grid arithmetic for printed wargame maps: ids, neighbours, hexsides, range, lines.

Pure and exact: no I/O, and every result is built from ints (lines by an integer walk,
checked against the original walk in `Fraction`s, kept as `HexGrid._line_exact`).

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

import math
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal, TypeVar, Union

from pbem.core.records import FrozenRecord

Stagger = Literal["odd-low", "even-low"]
STAGGERS: tuple[Stagger, ...] = ("odd-low", "even-low")

SplitRule = Literal["both", "either"]

COMPASS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

_ID_RE = re.compile(r"[0-9]{4}")


class _Record(FrozenRecord):
    """A frozen record (`pbem.core.records`) also ordered as the tuple of its field values, exactly
    as a frozen, ordered dataclass with slots is.

    The classes of this module are written out by hand on this base instead of as dataclasses:
    creating six dataclasses cost every command about 4.5 ms at import (Python 3.11 compiles each
    generated method). The hot ones (Hex, Cube, Hexside) spell out their own `__eq__` and `__hash__`.
    """

    __slots__: tuple[str, ...] = ()

    def _order(self, other: object) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
        if type(other) is not type(self):
            return None
        assert isinstance(other, _Record)
        return self._values(), other._values()

    def __lt__(self, other: object) -> bool:
        pair = self._order(other)
        return NotImplemented if pair is None else pair[0] < pair[1]

    def __le__(self, other: object) -> bool:
        pair = self._order(other)
        return NotImplemented if pair is None else pair[0] <= pair[1]

    def __gt__(self, other: object) -> bool:
        pair = self._order(other)
        return NotImplemented if pair is None else pair[0] > pair[1]

    def __ge__(self, other: object) -> bool:
        pair = self._order(other)
        return NotImplemented if pair is None else pair[0] >= pair[1]


_set = object.__setattr__  # how a frozen record's __init__ sets its fields


class Hex(_Record):
    """One hex by printed column and row. Any ints are allowed (a drift may leave the
    printed range); only hexes with column and row in 0-99 have a printed id."""

    __slots__ = ("col", "row")
    __match_args__ = ("col", "row")
    col: int
    row: int

    def __init__(self, col: int, row: int) -> None:
        if type(col) is not int or type(row) is not int:
            name, value = ("col", col) if type(col) is not int else ("row", row)
            raise ValueError(f"Hex {name} must be an int, got {value!r}")
        _set(self, "col", col)
        _set(self, "row", row)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Hex:
            return NotImplemented
        return self.col == other.col and self.row == other.row

    def __hash__(self) -> int:
        return hash((self.col, self.row))

    def __lt__(self, other: object) -> bool:
        if type(other) is not Hex:
            return NotImplemented
        return (self.col, self.row) < (other.col, other.row)

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
        col, row = self.col, self.row
        if not (0 <= col <= 99 and 0 <= row <= 99):
            raise ValueError(f"hex at column {col}, row {row} has no four-digit id")
        return f"{col:02d}{row:02d}"

    def __str__(self) -> str:
        return self.id if self.has_id else f"({self.col},{self.row})"


HexLike = Union[Hex, str]


def as_hex(value: HexLike) -> Hex:
    """Accept a `Hex` or a printed id string."""
    if isinstance(value, Hex):
        return value
    return Hex.parse(value)


class Cube(_Record):
    """Cube coordinates (Red Blob Games): q is the column, q + r + s == 0."""

    __slots__ = ("q", "r", "s")
    __match_args__ = ("q", "r", "s")
    q: int
    r: int
    s: int

    def __init__(self, q: int, r: int, s: int) -> None:
        if q + r + s != 0:
            raise ValueError(f"cube coordinates must sum to 0, got {q}, {r}, {s}")
        _set(self, "q", q)
        _set(self, "r", r)
        _set(self, "s", s)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Cube:
            return NotImplemented
        return self.q == other.q and self.r == other.r and self.s == other.s

    def __hash__(self) -> int:
        return hash((self.q, self.r, self.s))

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


class Hexside(_Record):
    """The edge shared by two adjacent hexes; the same key from either side
    (the hexes are stored in sorted order)."""

    __slots__ = ("first", "second")
    __match_args__ = ("first", "second")
    first: Hex
    second: Hex

    def __init__(self, first: Hex, second: Hex) -> None:
        _set(self, "first", first)
        _set(self, "second", second)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Hexside:
            return NotImplemented
        return self.first == other.first and self.second == other.second

    def __hash__(self) -> int:
        return hash((self.first, self.second))

    @classmethod
    def of(cls, a: Hex, b: Hex) -> Hexside:
        return cls(a, b) if a < b else cls(b, a)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return (self.first, self.second)

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


class Split(_Record):
    """Where the left-nudged and right-nudged lines disagree.

    kind ``"hexside"``: the line runs exactly along the hexside `hexside`; `left` and
    `right` hold the one hex on each side of it (left/right of the direction of travel).
    kind ``"vertex"``: the line passes exactly through a hex corner; one side holds
    the third hex at that corner (touched only at the point), the other side is empty.

    `index` places the split in `Line.hexes`: between ``hexes[index]`` and
    ``hexes[index + 1]``. `left_hexsides`/`right_hexsides` are the hexsides each nudged
    line crosses from ``hexes[index]`` to ``hexes[index + 1]``.
    """

    __slots__ = ("index", "kind", "left", "right", "left_hexsides", "right_hexsides", "hexside")
    __match_args__ = ("index", "kind", "left", "right", "left_hexsides", "right_hexsides", "hexside")
    index: int
    kind: Literal["hexside", "vertex"]
    left: tuple[Hex, ...]
    right: tuple[Hex, ...]
    left_hexsides: tuple[Hexside, ...]
    right_hexsides: tuple[Hexside, ...]
    hexside: Hexside | None

    def __init__(self, index: int, kind: Literal["hexside", "vertex"], left: tuple[Hex, ...], right: tuple[Hex, ...],
                 left_hexsides: tuple[Hexside, ...], right_hexsides: tuple[Hexside, ...],
                 hexside: Hexside | None) -> None:
        _set(self, "index", index)
        _set(self, "kind", kind)
        _set(self, "left", left)
        _set(self, "right", right)
        _set(self, "left_hexsides", left_hexsides)
        _set(self, "right_hexsides", right_hexsides)
        _set(self, "hexside", hexside)

    @property
    def candidates(self) -> tuple[Hex, ...]:
        return self.left + self.right


class Line(_Record):
    """A centre-to-centre line from `hexes[0]` to `hexes[-1]`.

    `left`/`right`: every hex the line enters when nudged infinitesimally to the left
    or right of its direction of travel (map drawn with rows growing downwards).
    `hexes`: the hexes on both, in order. `hexsides`: the hexsides both cross, in
    order. `splits`: the disagreements between them.
    """

    __slots__ = ("left", "right", "hexes", "hexsides", "splits")
    __match_args__ = ("left", "right", "hexes", "hexsides", "splits")
    left: tuple[Hex, ...]
    right: tuple[Hex, ...]
    hexes: tuple[Hex, ...]
    hexsides: tuple[Hexside, ...]
    splits: tuple[Split, ...]

    def __init__(self, left: tuple[Hex, ...], right: tuple[Hex, ...], hexes: tuple[Hex, ...],
                 hexsides: tuple[Hexside, ...], splits: tuple[Split, ...]) -> None:
        _set(self, "left", left)
        _set(self, "right", right)
        _set(self, "hexes", hexes)
        _set(self, "hexsides", hexsides)
        _set(self, "splits", splits)

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

        for h in self.hexes[1:-1]:
            if hex_blocks(h):
                return True
        if side_blocks is not None:
            for s in self.hexsides:
                if side_blocks(s):
                    return True
        both = at_split == "both"
        for split in self.splits:
            left = any(hex_blocks(h) for h in split.left) or sides(split.left_hexsides)
            right = any(hex_blocks(h) for h in split.right) or sides(split.right_hexsides)
            if (left and right) if both else (left or right):
                return True
        return False


class HexGrid(_Record):
    """The geometry of one printed grid: which columns sit half a hex lower."""

    __slots__ = ("stagger",)
    __match_args__ = ("stagger",)
    stagger: Stagger

    def __init__(self, stagger: Stagger = "odd-low") -> None:
        if stagger not in STAGGERS:
            raise ValueError(f"stagger must be one of {', '.join(STAGGERS)}, got {stagger!r}")
        _set(self, "stagger", stagger)

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
        """The hexes a straight line between the centres of `a` and `b` passes through.

        Computed with integers (`_walk_int`) from a shape shared by every pair of hexes with
        the same offset and column parity (`_shape`, cached per grid); the result equals the
        exact rational walk (`_line_exact`, the reference) for every pair.
        """
        h = as_hex(a)
        g = as_hex(b)
        col, row = h.col, h.row
        dc, dr = g.col - col, g.row - row
        if abs(dc) >= _LIMIT or abs(dr) >= _LIMIT:
            return self._line_exact(h, g)
        return _shape(self.stagger, col & 1, dc, dr).place(col, row)

    def _line_exact(self, a: HexLike, b: HexLike) -> Line:
        """`line` by the exact rational walk (Fractions, symbolic epsilon): the reference."""
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

if TYPE_CHECKING:
    from fractions import Fraction

    # A parameter along the line: (value, coefficient of the infinitesimal nudge),
    # compared lexicographically.
    _Param = tuple[Fraction, Fraction]


def _walk(start: Cube, end: Cube, side: int) -> tuple[Cube, ...]:
    """Every cell the segment start->end enters, shifted by side * eps to the left.

    Cell of hex H: |(p - H)_i - (p - H)_j| <= 1 for every pair of cube axes. The
    segment is p(t) = start + t*d + side*eps*n, n perpendicular to d. Leaving a cell
    is the earliest t at which one of those differences reaches +-1.
    """
    from fractions import Fraction  # here: only this reference walk uses it (about 2 ms of imports)

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


# --- the integer walk ------------------------------------------------------------------------------
#
# `_walk` in integers. For boundary family k = (i, j) with slope_k = d_i - d_j != 0, let
# s_k = |slope_k| and sg_k its sign. In the cell at `rel` (relative to the start) the line
# leaves through family k at t_k = u_k / s_k with u_k = 1 + sg_k * (rel_i - rel_j); scaled by
# the product of the nonzero s, T_k = u_k * w_k (w_k: product of the other nonzero s) compares
# as t_k does. Stepping through family k moves by sg_k * beyond_k, which adds 2 to u_k and
# -sg_k * sg_m to every other u_m (the beyond vectors change their own difference by 2 and the
# others by -1). The nudge's coefficient -side * (n_i - n_j) / slope_k, with n_i - n_j equal
# to -3 d_j' for the axis j' outside the pair, is fixed for the whole line: ties in T (the line
# meets a corner or runs along a hexside) go to the family with the smaller coefficient, which
# is exactly the lexicographic (value, epsilon) order `_walk` sorts by.

# A hex as one int: cube q and r packed (q * _PACK + r), so that moving by a cube offset is adding
# its packed form. Exact while |r| < _PACK / 2; hexes beyond _LIMIT take the general path.
_PACK = 1 << 32
_LIMIT = 1 << 28
_BEYOND = tuple(_b.coords() for _, _, _b in _BOUNDARIES)


_MOVE0 = _PACK - 1  # the packed beyond vectors of the three boundary families
_MOVE1 = 1
_MOVE2 = -_PACK


def _walk_setup(d0: int, d1: int, d2: int, side: int) -> tuple[float, float, float, tuple[tuple[int, int, int, int], ...]]:
    """Initial T of the three boundary families and, per family, (dT0, dT1, dT2, packed move)."""
    x0, x1, x2 = d0 - d1, d1 - d2, d2 - d0
    s0, s1, s2 = abs(x0), abs(x1), abs(x2)
    g0 = (x0 > 0) - (x0 < 0)
    g1 = (x1 > 0) - (x1 < 0)
    g2 = (x2 > 0) - (x2 < 0)
    w0 = (s1 or 1) * (s2 or 1) if s0 else 0
    w1 = (s0 or 1) * (s2 or 1) if s1 else 0
    w2 = (s0 or 1) * (s1 or 1) if s2 else 0
    # Ties go to the smaller nudge coefficient (then the lower family, as sorting pairs does): T
    # is scaled by 4 and the rank in that order added, so the smallest T is the exit `_walk` takes.
    gw0, gw1, gw2 = g0 * w0, g1 * w1, g2 * w2
    e0, e1, e2 = side * d2 * gw0, side * d0 * gw1, side * d1 * gw2
    t0: float = 4 * w0 + (bool(s1) and e1 < e0) + (bool(s2) and e2 < e0) if s0 else math.inf
    t1: float = 4 * w1 + (bool(s0) and e0 <= e1) + (bool(s2) and e2 < e1) if s1 else math.inf
    t2: float = 4 * w2 + (bool(s0) and e0 <= e2) + (bool(s1) and e1 <= e2) if s2 else math.inf
    m0, m1, m2 = -4 * gw0, -4 * gw1, -4 * gw2
    steps = ((8 * w0, g0 * m1, g0 * m2, g0 * _MOVE0),
             (g1 * m0, 8 * w1, g1 * m2, g1 * _MOVE1),
             (g2 * m0, g2 * m1, 8 * w2, g2 * _MOVE2))
    return t0, t1, t2, steps


def _walk_int(d: tuple[int, int, int], side: int) -> list[int]:
    """The cells the segment 0->d enters, nudged by `side`, as packed cube (q, r) relative to the start."""
    d0, d1, d2 = d
    t0, t1, t2, steps = _walk_setup(d0, d1, d2, side)
    end = d0 * _PACK + d1
    p = 0
    path = [0]
    for _ in range(4 * max(abs(d0), abs(d1), abs(d2)) + 4):
        if p == end:
            return path
        if t0 < t1:
            k = 0 if t0 < t2 else 2
        else:
            k = 1 if t1 < t2 else 2
        a0, a1, a2, move = steps[k]
        t0 += a0
        t1 += a1
        t2 += a2
        p += move
        path.append(p)
    raise AssertionError(f"line walk to {d} did not arrive")


def _unpack(p: int) -> tuple[int, int]:
    q = (p + _PACK // 2) // _PACK
    return q, p - q * _PACK


def _may_tie(dq: int, dr: int) -> bool:
    """Whether the line from a hex centre to the one at cube offset d meets a hex corner (where the
    two nudged walks part). Corners sit at +-(2/3, -1/3, -1/3) and its permutations modulo the
    lattice, so t * d hits one for some 0 < t < 1 iff the primitive direction d / gcd(d) has all
    three coordinates congruent modulo 3 and not divisible by 3."""
    g = math.gcd(dq, dr)
    if g == 0:
        return False
    e0, e1 = dq // g, dr // g
    return (e0 - e1) % 3 == 0 and e0 % 3 != 0  # then e2 = -e0 - e1 is congruent to them too


def _walks(dq: int, dr: int) -> tuple[list[int], list[int]]:
    """Left- and right-nudged walks to cube offset (dq, dr); one walk when they cannot differ."""
    d = (dq, dr, -dq - dr)
    left = _walk_int(d, 1)
    return left, (_walk_int(d, -1) if _may_tie(dq, dr) else left)


class _Shape:
    """The line from a hex to the hex (dc, dr) columns/rows away, for one stagger and start column
    parity, as offsets; `place` puts it at a start hex."""

    __slots__ = ("cells", "left", "right", "hexes", "hexsides", "splits")

    def __init__(self, stagger: Stagger, parity: int, dc: int, dr: int) -> None:
        grid = HexGrid(stagger)
        lift0 = grid._lift(parity)
        start = Cube(parity, -lift0, lift0 - parity)
        end = grid.to_cube(Hex(parity + dc, dr))
        d = (end - start).coords()
        # Cells as offsets from the start hex (column parity preserved, so rows are exact).
        walks = [tuple(grid.from_cube(start + Cube(q, r, -q - r)) for q, r in map(_unpack, walk))
                 for walk in _walks(d[0], d[1])]
        line = _merge(walks[0], walks[1])
        cells: dict[Hex, int] = {}
        for h in (*line.left, *line.right):
            cells.setdefault(h, len(cells))
        self.cells = tuple((h.col - parity, h.row) for h in cells)

        def idx(hexes: tuple[Hex, ...]) -> tuple[int, ...]:
            return tuple(cells[h] for h in hexes)

        def sides(hexsides: tuple[Hexside, ...]) -> tuple[tuple[int, int], ...]:
            return tuple((cells[x.first], cells[x.second]) for x in hexsides)

        self.left = idx(line.left)
        self.right = idx(line.right)
        self.hexes = idx(line.hexes)
        self.hexsides = sides(line.hexsides)
        self.splits = tuple(
            (sp.index, sp.kind, idx(sp.left), idx(sp.right), sides(sp.left_hexsides), sides(sp.right_hexsides),
             None if sp.hexside is None else (cells[sp.hexside.first], cells[sp.hexside.second]))
            for sp in line.splits
        )

    def place(self, col: int, row: int) -> Line:
        hexes = [_hex(col + dc, row + dr) for dc, dr in self.cells]

        def side(pair: tuple[int, int]) -> Hexside:
            return _hexside(hexes[pair[0]], hexes[pair[1]])

        return Line(
            tuple([hexes[i] for i in self.left]),
            tuple([hexes[i] for i in self.right]),
            tuple([hexes[i] for i in self.hexes]),
            tuple([side(p) for p in self.hexsides]),
            tuple(
                Split(index, kind, tuple([hexes[i] for i in left]), tuple([hexes[i] for i in right]),
                      tuple([side(p) for p in left_sides]), tuple([side(p) for p in right_sides]),
                      None if hexside is None else side(hexside))
                for index, kind, left, right, left_sides, right_sides, hexside in self.splits
            ),
        )


_SHAPES: OrderedDict[tuple[str, int, int, int], _Shape] = OrderedDict()
_SHAPES_MAX = 4096


def _shape(stagger: Stagger, parity: int, dc: int, dr: int) -> _Shape:
    key = (stagger, parity, dc, dr)
    found = _SHAPES.get(key)
    if found is None:
        found = _SHAPES[key] = _Shape(stagger, parity, dc, dr)
        if len(_SHAPES) > _SHAPES_MAX:
            _SHAPES.popitem(last=False)
    return found


# Hex and Hexside objects are immutable, so `line` hands out shared ones (bounded tables).
_HEXES: dict[tuple[int, int], Hex] = {}
_SIDES: dict[tuple[Hex, Hex], Hexside] = {}
_INTERN_MAX = 1 << 16


_K = TypeVar("_K")
_V = TypeVar("_V")


def _interned(table: dict[_K, _V], key: _K, make: Callable[[], _V]) -> _V:
    found = table.get(key)
    if found is None:
        if len(table) >= _INTERN_MAX:
            table.clear()
        found = table[key] = make()
    return found


def _hex(col: int, row: int) -> Hex:
    found = _HEXES.get((col, row))  # the hot path: no closure made
    return found if found is not None else _interned(_HEXES, (col, row), lambda: Hex(col, row))


def _hexside(first: Hex, second: Hex) -> Hexside:
    found = _SIDES.get((first, second))
    return found if found is not None else _interned(_SIDES, (first, second), lambda: Hexside(first, second))


# --- line of sight against fixed terrain, in integers ----------------------------------------------



def _packed(q: int, r: int) -> int:
    return q * _PACK + r


# One split of a plan: the left side's hexes and hexsides, then the right side's.
_PlanSplit = tuple[tuple[int, ...], tuple[frozenset[int], ...], tuple[int, ...], tuple[frozenset[int], ...]]


class _Plan:
    """What decides a line of sight from a hex to the hex at cube offset d, as packed offsets:
    the hexes strictly between, the hexsides both nudged lines cross, and per split each side's
    hexes and hexsides."""

    __slots__ = ("between", "sides", "splits")

    between: tuple[int, ...]
    sides: tuple[frozenset[int], ...]
    splits: tuple[_PlanSplit, ...]

    def __init__(self, lp: list[int], rp: list[int], with_sides: bool) -> None:
        if rp is lp:  # no corner on the way: both nudged lines are the same
            self.between = tuple(lp[1:-1])
            self.sides = _pairs(lp) if with_sides else ()
            self.splits = ()
            return
        common: list[int] = []
        splits: list[_PlanSplit] = []
        i = j = 0
        while i < len(lp):  # as `_merge`
            if lp[i] == rp[j]:
                common.append(lp[i])
                i, j = i + 1, j + 1
                continue
            k = next(k for k in range(i, len(lp)) if lp[k] in rp[j:])
            m = rp.index(lp[k], j)
            if with_sides:
                splits.append((tuple(lp[i:k]), _pairs(lp[i - 1:k + 1]), tuple(rp[j:m]), _pairs(rp[j - 1:m + 1])))
            else:
                splits.append((tuple(lp[i:k]), (), tuple(rp[j:m]), ()))
            i, j = k, m
        split_sides = {side for split in splits for side in split[1] + split[3]}
        self.between = tuple(common[1:-1])
        self.sides = tuple(side for side in _pairs(lp) if side not in split_sides) if with_sides else ()
        self.splits = tuple(splits)


def _clear_walk(start: int, dq: int, dr: int, blocking: frozenset[int]) -> bool:
    """`SightLines.clear` from scratch for a line that meets no corner and no blocking hexside:
    walk it and stop at the first blocking hex before the end."""
    if dq == 0 and dr == 0:
        return True
    d2 = -dq - dr
    t0, t1, t2, steps = _walk_setup(dq, dr, d2, 1)
    end = start + dq * _PACK + dr
    p = start
    for _ in range(4 * max(abs(dq), abs(dr), abs(d2)) + 4):
        if t0 < t1:
            k = 0 if t0 < t2 else 2
        else:
            k = 1 if t1 < t2 else 2
        a0, a1, a2, move = steps[k]
        t0 += a0
        t1 += a1
        t2 += a2
        p += move
        if p == end:
            return True
        if p in blocking:
            return False
    raise AssertionError(f"line walk to {dq, dr} did not arrive")


def _pairs(path: list[int]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset((p, q)) for p, q in zip(path, path[1:]))


class SightLines:
    """Line-of-sight queries on one grid against fixed blocking terrain, with integers only.

    `clear(a, b)` is ``not grid.line(a, b).blocked(lambda h: h in blocking, at_split=at_split,
    side_blocks=lambda s: s in blocking_sides)`` for every pair of hexes (tests/test_speed_geometry.py
    checks it against the exact rational line), without building `Line` objects. The lines are
    walked with integer arithmetic (`_walk_int`); a line's plan depends only on the cube offset
    between its ends, so plans are cached per offset unless ``cache=False`` (each query then walks
    its line from scratch). No result is cached per pair of hexes.
    """

    def __init__(self, grid: HexGrid, blocking: Iterable[HexLike], *, at_split: SplitRule,
                 blocking_sides: Iterable[Hexside] = (), cache: bool = True) -> None:
        if at_split not in ("both", "either"):
            raise ValueError(f"at_split must be 'both' or 'either', got {at_split!r}")
        self.grid = grid
        self.at_split = at_split
        self._either = at_split == "either"
        # Exact sets (as Hex and Hexside) for the general path; packed ints for hexes near enough.
        self._hexes = frozenset(as_hex(h) for h in blocking)
        self._sides = frozenset(blocking_sides)
        self._blocking = frozenset(k for k in map(self._key, self._hexes) if k is not None)
        self._blocking_sides = frozenset(
            frozenset((first, second)) for first, second in ((self._key(s.first), self._key(s.second))
                                                             for s in self._sides)
            if first is not None and second is not None)
        self._cache = cache
        self._plans: dict[tuple[int, int], _Plan] = {}
        self._keys: dict[HexLike, int | None] = {}

    def _key(self, hex: HexLike) -> int | None:
        """The packed cube coordinates of `hex`, or None if it lies too far out to pack."""
        cube = self.grid.to_cube(hex)
        if abs(cube.q) >= _LIMIT or abs(cube.r) >= _LIMIT:
            return None
        return _packed(cube.q, cube.r)

    def _packed_hex(self, hex: HexLike) -> int | None:
        try:
            return self._keys[hex]
        except KeyError:
            pass
        found = self._key(hex)
        if len(self._keys) >= _INTERN_MAX:
            self._keys.clear()
        self._keys[hex] = found
        return found

    def plan(self, dq: int, dr: int) -> _Plan:
        """The plan of the line from a hex to the hex at cube offset (dq, dr, -dq - dr)."""
        key = (dq, dr)
        found = self._plans.get(key) if self._cache else None
        if found is None:
            left, right = _walks(dq, dr)
            found = _Plan(left, right, bool(self._blocking_sides))
            if self._cache:
                if len(self._plans) >= _INTERN_MAX:
                    self._plans.clear()
                self._plans[key] = found
        return found

    def clear(self, a: HexLike, b: HexLike) -> bool:
        """Whether nothing between `a` and `b` blocks the line (the end hexes never count)."""
        ka = self._packed_hex(a)
        kb = self._packed_hex(b)
        if ka is None or kb is None:
            return not self._general(a, b)
        dq, dr = _unpack(kb - ka)
        blocking = self._blocking
        if not self._cache and not self._blocking_sides and not _may_tie(dq, dr):
            return _clear_walk(ka, dq, dr, blocking)
        plan = self.plan(dq, dr)
        for cell in plan.between:
            if ka + cell in blocking:
                return False
        sides = self._blocking_sides
        if sides:
            for side in plan.sides:
                if frozenset(ka + cell for cell in side) in sides:
                    return False
        for left, left_sides, right, right_sides in plan.splits:
            left_blocks = any(ka + cell in blocking for cell in left) or (
                bool(sides) and any(frozenset(ka + cell for cell in side) in sides for side in left_sides))
            right_blocks = any(ka + cell in blocking for cell in right) or (
                bool(sides) and any(frozenset(ka + cell for cell in side) in sides for side in right_sides))
            if (left_blocks or right_blocks) if self._either else (left_blocks and right_blocks):
                return False
        return True

    def _general(self, a: HexLike, b: HexLike) -> bool:
        """`Line.blocked` for hexes too far out to pack."""
        sides = self._sides
        return self.grid.line(a, b).blocked(self._hexes.__contains__, at_split=self.at_split,
                                            side_blocks=sides.__contains__ if sides else None)
