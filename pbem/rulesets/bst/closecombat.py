"""Close combat (C3, C4, C5): markers in contact and results that stack.

Only the pieces that decide numbers are here so far; entering, the defender's reactions,
continuing and retiring (C1, C2, C6-C10) come with the `Ruleset` (docs/bst.md).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from pbem.geometry import plane

from .extras import paired
from .stands import Stand
from .tables import Tables


def markers(tables: Tables, stand: Stand, suppressed: bool, crew: bool = False) -> int:
    """C3, Table 4: a base's close combat markers by weapon (a crew 2, a suppressed base 1),
    one less with a Kill marker (F3), never below 0."""
    if suppressed:
        count = tables.close_combat_markers("suppressed")
    else:
        count = tables.close_combat_markers("crew" if crew else stand.weapon)
    if stand.kills:
        count -= tables.number("kill_penalty")
    return max(count, 0)


def front_order(stand: Stand, enemies: Sequence[Stand]) -> list[Stand]:
    """C4: the enemies in contact from the one closest to straight ahead outward: by the turn
    from the base's facing to the bearing of each enemy's centre, then distance, then id."""
    def key(enemy: Stand) -> tuple[int, int, str]:
        turn = plane.turn_between(stand.base.facing, plane.bearing(stand.centre, enemy.centre))
        return turn, plane.dist2(stand.centre, enemy.centre), enemy.id
    return sorted(enemies, key=key)


def allocate(stand: Stand, enemies: Sequence[Stand], count: int,
             pairs: Mapping[str, Stand] | None = None) -> dict[str, int]:
    """C4: one marker each in front order, then round again from the first; an HMG and its
    extra base take their markers one after the other (W5)."""
    order = paired(front_order(stand, enemies), pairs or {})
    out = {e.id: 0 for e in order}
    for i in range(count if order else 0):
        out[order[i % len(order)].id] += 1
    return out


def stack(tables: Tables, status: str, kills: int, results: Sequence[str]) -> tuple[str, int, bool]:
    """C5: in close combat results stack. A pin or suppress already on the base counts; two
    pins make a suppress, two suppresses a kill; a kill's own suppress is marked only when no
    other suppress is left; a pin beside a suppress is dropped. Returns the status, the Kill
    markers and whether the base is removed."""
    pins = sum(1 for r in results if r == "pin") + (1 if status == "pinned" else 0)
    suppresses = sum(1 for r in results if r == "suppress") + (1 if status == "suppressed" else 0)
    new_kills = sum(1 for r in results if r == "kill")
    suppresses += pins // 2
    pins %= 2
    new_kills += suppresses // 2
    suppresses %= 2
    if new_kills and not suppresses:
        suppresses = 1
    total = kills + new_kills
    after = "suppressed" if suppresses else "pinned" if pins else "ok"
    return after, total, total >= tables.number("kills_to_remove")
