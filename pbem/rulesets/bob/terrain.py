"""Line of sight and the terrain a fire attack meets (14.0, 15.0, 16.0).

LOS (14.0) is the thread from centre dot to centre dot (`kit.hexboard.HexIndex.line`, exact):

- the firing and target hexes never block; trees and buildings (`tables.blocks_los`) in a hex
  between block; orchards and the trees drawn in open ground (`trees`) never do;
- a thread running exactly along a hexside is blocked only when what lies on *both* sides of it
  blocks (the text: an obstacle "seen on both sides of the string");
- a hedgerow hexside the thread crosses blocks unless it is a side of the firer's or the
  target's hex; a thread running along a hedgerow spine is blocked.

The fire modifiers of the target's hex are summed in `fire_modifiers`; each is named so that an
event can show them (a roll with its modifiers is checkable by anyone holding it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pbem.geometry.hexgrid import Hexside, Line

from .context import Context

Fire = str  # "fire" | "assault" | "op" | "final"


def _blocks(ctx: Context, hex_id: str) -> bool:
    return ctx.hexes.on_map(hex_id) and ctx.terrain(hex_id) in ctx.tables["blocks_los"]


def _hedgerow_blocks(ctx: Context, side: Hexside, ends: tuple[str, str]) -> bool:
    a, b = side.first.id, side.second.id
    return ctx.hedgerow(a, b) and a not in ends and b not in ends


def los(ctx: Context, a: str, b: str) -> bool:
    """Whether a unit in a sees one in b (14.0); memoised in the context."""
    memo: dict[tuple[str, str], bool] = ctx.cache.setdefault("los", {})
    key = (a, b) if a <= b else (b, a)
    found = memo.get(key)
    if found is None:
        found = memo[key] = a == b or _clear(ctx, ctx.hexes.line(key[0], key[1]), key)
    return found


def _clear(ctx: Context, line: Line, ends: tuple[str, str]) -> bool:
    if any(_blocks(ctx, h.id) for h in line.between):
        return False
    if any(_hedgerow_blocks(ctx, s, ends) for s in line.hexsides):
        return False
    for split in line.splits:
        if split.kind == "hexside" and split.hexside is not None and ctx.hedgerow(split.hexside.first.id,
                                                                                   split.hexside.second.id):
            return False  # along a hedgerow spine
        left = any(_blocks(ctx, h.id) for h in split.left if h.id not in ends) or \
            any(_hedgerow_blocks(ctx, s, ends) for s in split.left_hexsides)
        right = any(_blocks(ctx, h.id) for h in split.right if h.id not in ends) or \
            any(_hedgerow_blocks(ctx, s, ends) for s in split.right_hexsides)
        if left and right:
            return False
    return True


def line_hexes(ctx: Context, a: str, b: str) -> tuple[str, ...]:
    """The definite hexes of the thread from a to b, a first."""
    return tuple(h.id for h in ctx.hexes.line(a, b).hexes)


def _entry_neighbour(ctx: Context, firer: str, target: str) -> str | None:
    """The hex the thread from firer passes through just before it enters target (None if ambiguous)."""
    line = ctx.hexes.line(firer, target)
    if len(line.hexes) < 2:
        return None
    last = line.hexes[-2].id
    if any(s.index == len(line.hexes) - 2 for s in line.splits):
        return None  # the thread enters the target along a hexside or through a corner
    return last


def banks(ctx: Context, hex_id: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """A dike road hex's two banks: the neighbours on each side of the road (14.0); None off a through road."""
    neighbours = ctx.hexes.neighbours(hex_id)
    grid = ctx.hexes.grid
    road = sorted(grid.direction(hex_id, n) for n in neighbours if ctx.road_between(hex_id, n))
    if len(road) != 2:
        return None
    first, second = road
    by_direction = {grid.direction(hex_id, n): n for n in neighbours}
    one = frozenset(by_direction[d] for d in range(first + 1, second) if d in by_direction)
    two = frozenset(by_direction[d] for d in list(range(second + 1, 6)) + list(range(0, first)) if d in by_direction)
    return one, two


def bank_of(ctx: Context, hex_id: str, neighbour: str | None) -> int:
    """Which bank (0 or 1) a unit entering the dike hex from `neighbour` stands on; 0 along the road."""
    found = banks(ctx, hex_id)
    if found is None or neighbour is None:
        return 0
    return 1 if neighbour in found[1] else 0


def _across(ctx: Context, dike_hex: str, came_from: str | None, goes_to: str | None) -> bool:
    found = banks(ctx, dike_hex)
    if found is None or came_from is None or goes_to is None:
        return False
    return (came_from in found[0] and goes_to in found[1]) or (came_from in found[1] and goes_to in found[0])


@dataclass(frozen=True)
class Target:
    """One unit in the target hex, as the fire sees it."""

    uid: str
    hex: str
    moving: bool = False  # fired on as it moves (9.0, 10.0)
    came_from: str | None = None  # the hex it moved from, when moving
    foxhole: bool = False  # a foxhole counter in the hex (14.0)
    concealed: bool = False  # under a conceal marker (15.0)
    bank: int = 0  # the side of a dike road it stands on (14.0)


def open_ground(ctx: Context, hex_id: str) -> bool:
    """An open-ground hex (14.0): its own terrain gives no positive modifier."""
    return ctx.terrain(hex_id) == "open"


def own_cover(ctx: Context, hex_id: str) -> int:
    """The positive modifier a hex's own terrain gives against any fire (an orchard counts itself, 14.0)."""
    if ctx.terrain(hex_id) == "orchard":
        return int(ctx.tables["modifiers"]["orchard_per_two"])
    return int(ctx.tables["terrain_modifier"][ctx.terrain(hex_id)])


def hedgerow_cover(ctx: Context, firer: str, target: Target) -> bool:
    """14.0: a hedgerow side of the target's hex lies on the thread; a mover keeps it only moving behind it."""
    if ctx.hexes.distance(firer, target.hex) == 0:
        return False
    line = ctx.hexes.line(firer, target.hex)
    sides = [s for s in line.hexsides if target.hex in (s.first.id, s.second.id)]
    for split in line.splits:
        sides += [s for s in split.left_hexsides + split.right_hexsides if target.hex in (s.first.id, s.second.id)]
    crossed = [s for s in sides if ctx.hedgerow(s.first.id, s.second.id)]
    if not crossed:
        return False
    if target.moving and target.came_from is not None:
        # 14.0: a mover keeps the cover only moving along behind the hedgerow, from a hex it covered too
        return hedgerow_cover(ctx, firer, Target(target.uid, target.came_from))
    return True


def orchard_count(ctx: Context, firer: str, target: str) -> int:
    """14.0: orchard hexes on the thread, the target's counted and the firer's not."""
    return sum(1 for h in line_hexes(ctx, firer, target)[1:] if ctx.terrain(h) == "orchard")


def fire_modifiers(ctx: Context, firer: str, target: Target, *, fire: Fire, mortar: bool, directed: bool,
                   infantry: bool = True, terrain_only: bool = False) -> dict[str, int]:
    """Every modifier of one fire attack at one target unit, by name (6.0, 14.0, 15.0, 16.0).

    `terrain_only`: a gun or vehicle firing (V5) meets the terrain and concealment, nothing else."""
    mods: dict[str, int] = {}
    table = ctx.tables["modifiers"]
    terrain = ctx.terrain(target.hex)
    in_foxhole = target.foxhole and not target.moving and not ctx.building(target.hex)
    if in_foxhole:
        mods["foxhole"] = int(table["foxhole_vs_mortar" if mortar else "foxhole"])  # 14.0: only the foxhole counts
        if mortar and terrain == "woods":
            mods["airburst"] = int(table["mortar_in_woods"])  # 16.0: the airburst is no cover to lose
    else:
        own = int(ctx.tables["terrain_modifier"][terrain])
        if own:
            mods[terrain] = own
        if mortar and terrain == "woods":
            mods["airburst"] = int(table["mortar_in_woods"])  # 16.0
        if not mortar and hedgerow_cover(ctx, firer, target):
            mods["hedgerow"] = int(table["hedgerow"])  # 14.0 (never against mortars)
    orchards = orchard_count(ctx, firer, target.hex)
    if orchards:
        mods["orchards"] = int(table["orchard_per_two"]) * ((orchards + 1) // 2)
    if not mortar:
        dike = _dike(ctx, firer, target)
        if dike:
            mods["dike"] = dike
    if target.concealed:
        mods["concealed"] = int(table["concealed"])
    if terrain_only:
        return mods
    if target.moving and open_ground(ctx, target.hex) and "hedgerow" not in mods:
        mods["moving_in_open"] = int(table["moving_in_open"])  # 9.0, 14.0
    if infantry and ctx.hexes.adjacent(firer, target.hex):
        mods["adjacent"] = int(table["adjacent"])
    if fire == "assault":
        mods["assault"] = int(table["assault_fire"])  # 5.2
    if fire == "final":
        mods["final_op_fire"] = int(table["final_op_fire"])  # 10.0
    if directed:
        mods["directed"] = int(table["directed_fire"])  # 16.0
    return mods


def _dike(ctx: Context, firer: str, target: Target) -> int:
    """14.0: +2 at a unit in a dike road hex fired on across the road; +1 across a dike road on the way."""
    table = ctx.tables["modifiers"]
    hexes = line_hexes(ctx, firer, target.hex)
    if ctx.dike(target.hex):
        entry = _entry_neighbour(ctx, firer, target.hex)
        found = banks(ctx, target.hex)
        if found is not None and entry is not None and entry in found[1 - target.bank]:
            return int(table["dike_same_hex"])
    for index in range(1, len(hexes) - 1):
        if ctx.dike(hexes[index]) and _across(ctx, hexes[index], hexes[index - 1], hexes[index + 1]):
            return int(table["dike_across"])
    return 0

