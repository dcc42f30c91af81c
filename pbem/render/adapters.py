"""What the renderer needs from a ruleset, read from a view: the board, the pieces, the events.

The core knows nothing of maps or counters, so each ruleset with pictures supplies an adapter
(`Ruleset.picture(context)`, in its own `picture.py`) that reads its view state and events. An
adapter only ever reads the view it is given: whatever it draws or says is what the side may know.

Two kinds of picture, one per kind of board (board.py); `Adapter.picture` gives either:

- `Picture`: a hex map with counters (`Counter`), markers on hexes (`Mark`) and the last
  adjudication's actions from hex to hex (`Action`). Drawn by `svg.py`.
- `TablePicture`: an open table with bases (`Figure`), markers at table points or on bases
  (`TableMark`) and actions between table points (`TableAction`), some of them covering an
  area (`Area`: a polygon `Shape`, a `Circle` or a `Sector`). Drawn by `table.py`.

Every place on a table is a `Point`, `(x, y)` in whole table units (x east, y north, the
origin at the south-west corner), every facing whole degrees clockwise from the table's up edge,
as in `pbem/geometry/plane.py`. The drawing flips y (SVG grows down) and may use floats; the
rules never see a picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.core.api import ruleset, rules_for, rulesets

from pbem.geometry.plane import Point, Shape

from .board import HexBoard, TableBoard

View = Mapping[str, Any]


@dataclass(frozen=True)
class Counter:
    """One counter to draw: an own unit (values known) or the top of an enemy stack."""

    uid: str
    side: str
    hex: str
    kind: str
    values: tuple[tuple[str, Any], ...] = ()
    own: bool = True
    count: int = 1  # units in the stack this counter tops (enemy stacks); 1 for own units
    level: int = 0
    flags: tuple[str, ...] = ()  # markers on the counter itself, e.g. "marched" (toc 9.20)
    note: str = ""  # more words for the counter's tooltip (e.g. its counter face)


@dataclass(frozen=True)
class Mark:
    """A marker on a hex: a bombardment marker where it landed, control of the hex, ..."""

    kind: str  # "bombardment", "control", "entry", ...
    hex: str
    label: str = ""  # the few letters printed on the marker
    side: str = ""
    detail: str = ""  # the tooltip
    data: tuple[tuple[str, str], ...] = ()  # more data-* attributes (name without "data-", value)
    style: str = ""  # "token" (a marker beside the counters), "hatch" (the hex shaded in the side's colour),
    # "outline" (the hex's edge drawn in the side's colour, `label` by its corner); "" is "hatch" for
    # control and "token" for every other kind


# Kinds of actions: "move" and "advance" (path: every hex from the start to the end; a move that
# leaves the map ends with "off", drawn as an arrow out of the last hex), the
# attacks "fire", "close-assault", "melee", "defensive-fire", "bombard" (path: the hexes fired
# from; none gives a ring on the target), "bombardment" (a ring on the hex the markers hit),
# "spot" (a spotter's line of sight), "drift" (path: [aimed]; target: where the marker landed).
ATTACKS = ("fire", "close-assault", "melee", "defensive-fire", "bombard", "bombardment")


@dataclass(frozen=True)
class Action:
    """One thing the last adjudication did, drawn in the overlay."""

    kind: str
    side: str
    path: tuple[str, ...]
    target: str = ""
    label: str = ""  # odds, roll and result, printed by the target
    detail: str = ""  # the whole sentence (tooltip)
    units: tuple[str, ...] = ()  # the units the event names (only what the view holds)


@dataclass
class Picture:
    """Everything the SVG of a hex map needs, ruleset-neutral; `map` is the board the counters stand on (board.py)."""

    map: HexBoard
    title: str
    own: list[Counter] = field(default_factory=list)
    enemy: list[Counter] = field(default_factory=list)  # tops of enemy stacks; uid may be ''
    off_map: list[tuple[str, str, str]] = field(default_factory=list)  # (uid, side, where: eliminated-in-hex / exited)
    wrecks: list[tuple[str, str, str]] = field(default_factory=list)  # (uid, side, hex) eliminated on the map
    places: list[tuple[str, str]] = field(default_factory=list)  # (name, hex)
    marks: list[Mark] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # extra legend lines (markers in hand, ...)
    keys: dict[str, str] = field(default_factory=dict)  # the legend's words for a mark kind ("entry": "entry hex")
    # (a kind without words here is named by itself)


# --- pictures of an open table ------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    """One base on the table: an own base (all known) or an enemy base as the view shows it.

    `centre`, `facing`, `width` and `depth` are those of `plane.Base` (width along the front
    edge); the drawing draws `plane.Base(centre, facing, width, depth).corners` exactly. An enemy
    base the view does not name may have `uid` ""; it is drawn without an element id.
    """

    uid: str  # the base's id ("" for an enemy base the view does not name)
    side: str
    centre: Point
    facing: int
    width: int
    depth: int
    kind: str = "infantry"  # infantry, gun, vehicle, hq, ... (a class on the element)
    label: str = ""  # what is printed on the base; "" prints `unit` or, without one, `uid`
    own: bool = True
    unit: str = ""  # the unit (team, squad, section) the base belongs to, if the ruleset has units
    flags: tuple[str, ...] = ()  # states for the tooltip and the element's classes (e.g. "hidden", "moved")
    note: str = ""  # more words for the tooltip


@dataclass(frozen=True)
class TableMark:
    """A marker on the table: pinned, suppressed, a kill, fire markers (with their count), ...

    It sits by the base `on` names when that base is drawn (the markers of one base in a column
    beside it), else at `at`; with neither it is not drawn. `count` (> 0) is printed on it.
    """

    kind: str  # "pinned", "suppressed", "kill", "fire", ... (any word: unknown kinds get a plain token)
    at: Point | None = None
    on: str = ""  # the uid of the base it marks
    label: str = ""  # the few letters on the token; "" uses the kind's (P, S, ✕, F, ...)
    count: int = 0
    side: str = ""  # whose marker, or whose base it marks
    detail: str = ""  # the tooltip
    data: tuple[tuple[str, str], ...] = ()  # more data-* attributes (name without "data-", value)


@dataclass(frozen=True)
class Circle:
    """A round template: everything within `radius` of `centre`."""

    centre: Point
    radius: int


@dataclass(frozen=True)
class Sector:
    """An arc of fire out to a range: within `half` degrees either side of `facing` seen from
    `apex` (as `plane.Arc`; 180 is all round), no further than `reach`."""

    apex: Point
    facing: int
    half: int
    reach: int


Area = Shape | Circle | Sector  # a `Shape` is a polygon (closed) or a line with no width


# Kinds of table actions the drawing knows by name; an adapter may use others (drawn as attacks):
# "move" and "advance" (path: the points moved through, start to end), "deviation" and "drift"
# (path: [aimed]; target: where it landed), "spot" (path: [spotter]; target), "smoke" and
# "template" (an area, grey for smoke), "arc" (a sustained-fire arc: a Sector); any other kind
# with a target is an attack from every point of its path ("fire", "opportunity-fire", "assault",
# "flamethrower", "mortar", ...), and any action may carry an area (a flamethrower's template, a
# mortar's blast where it landed).
TABLE_MOVES = ("move", "advance")


@dataclass(frozen=True)
class TableAction:
    """One thing the last adjudication did on the table, drawn in the overlay."""

    kind: str
    side: str
    path: tuple[Point, ...] = ()  # a move's points start to end; the firers' points of an attack
    target: Point | None = None  # what an attack aims at (a point of the target base)
    area: Area | None = None  # a template, a smoke base, an arc of fire
    label: str = ""  # roll and result, printed by the target
    detail: str = ""  # the whole sentence (tooltip)
    units: tuple[str, ...] = ()  # the bases or units the event names (only what the view holds)


@dataclass
class TablePicture:
    """Everything the SVG of an open table needs, ruleset-neutral: the table and what is on it.

    `figures` are every base the side may see, own (`own=True`) and enemy, drawn in this order.
    The drawing reads nothing else of the view but its heading (game, side, turn, phase, seq),
    so what the adapter puts here is all a picture can show.
    """

    map: TableBoard
    title: str = ""  # replaces the heading's first line when given
    figures: list[Figure] = field(default_factory=list)
    marks: list[TableMark] = field(default_factory=list)
    actions: list[TableAction] = field(default_factory=list)
    off_table: list[tuple[str, str, str]] = field(default_factory=list)  # (uid, side, why: destroyed / exited / ...)
    notes: list[str] = field(default_factory=list)  # extra legend lines


AnyPicture = Picture | TablePicture


class Adapter:
    ruleset_id = ""
    sides: tuple[str, ...] = ()
    value_note = "counter: id, then its values"

    def side_name(self, side: str | None) -> str:
        return str(side or "").capitalize()

    def picture(self, view: View) -> Picture | TablePicture:
        """The view as a picture: a `Picture` on a hex map or a `TablePicture` on a table."""
        raise NotImplementedError

    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        """One event as a plain sentence (with its rule section), or None to use the generic line."""
        return None

    def seen(self, view: View) -> list[str]:
        """What the side saw in the last adjudication that no event of its view says (where the
        enemy's stacks stand after its moves, ...): more sentences for the report's "What happened"."""
        return []

    def state_lines(self, view: View) -> list[str]:
        return []


def adapter_for(view: View) -> Adapter | None:
    """The picture adapter of the view's ruleset (through the core's registry).

    None when the view names no ruleset the registry knows, or its ruleset has no pictures
    (`Ruleset.picture` gives None): such a view gets the generic report and no map. A ruleset
    whose `picture` gives anything else is a bug, raised as one.
    """
    ruleset_id = str((view.get("ruleset") or {}).get("id"))
    if ruleset_id not in rulesets():
        return None
    state = view.get("state")
    found = rules_for(ruleset(ruleset_id), state if isinstance(state, Mapping) else {}).picture()
    if found is None or isinstance(found, Adapter):
        return found
    raise TypeError(f"ruleset {ruleset_id!r}: picture() gave a {type(found).__name__}, not a "
                    "pbem.render.adapters.Adapter (or None for no pictures)")
