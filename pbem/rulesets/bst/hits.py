"""Hit resolution (R1, H1, M1, F1) and recovery (R2, R3).

When a base activates it first resolves every fire marker on it: one die each against the
to-hit number of its declared action (move 4+, fire 5+, recover 5+, hunker down 6; the
special cases of F7, O1, O2 and C5 have their own). Each die that hits is thrown again on
Table 3: 1 miss, 2-3 pin, 4-5 suppress, 6 kill. Results do not stack (R1): the worst one
counts, and it never makes a worse status better. A kill adds a Kill marker, suppresses,
and a second Kill removes the base.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from pbem.core.chance import Dice

from .tables import Tables

STATUSES = ("ok", "pinned", "suppressed")
RESULT_STATUS = {"pin": "pinned", "suppress": "suppressed", "kill": "suppressed"}
SEVERITY = {"miss": 0, "pin": 1, "suppress": 2, "kill": 3}


@dataclass(frozen=True)
class HitOutcome:
    """One base's resolution: the to-hit dice, the rethrows of those that hit, the results,
    and the base's status and Kill markers after (`removed` at the second Kill)."""

    to_hit: int
    rolls: tuple[int, ...]
    rethrows: tuple[int, ...]
    results: tuple[str, ...]
    status: str
    kills: int
    removed: bool

    @property
    def hits(self) -> int:
        """R1: dice whose result is a pin, a suppress or a kill."""
        return sum(1 for r in self.results if r != "miss")

    @property
    def worst(self) -> str:
        return max(self.results, key=lambda r: SEVERITY[r], default="miss")


def worse(status: str, other: str) -> str:
    """R1: of two statuses, the worse one."""
    return status if STATUSES.index(status) >= STATUSES.index(other) else other


def roll_markers(tables: Tables, dice: Dice, markers: int, to_hit: int, label: str) -> tuple[list[int], list[int], list[str]]:
    """R1: the to-hit dice, the rethrows of the dice that hit, and Table 3's results."""
    rolls = [dice.die(6, f"R1 to hit {label}") for _ in range(markers)]
    rethrows = [dice.die(6, f"R1 hit resolution {label}") for face in rolls if face >= to_hit]
    return rolls, rethrows, [tables.hit_result(face) for face in rethrows]


def apply(tables: Tables, status: str, kills: int, results: Sequence[str]) -> tuple[str, int, bool]:
    """R1 without stacking: the worst result against the present status; every kill result
    adds a Kill marker (each die is a separate result; the second Kill removes the base)."""
    new_kills = kills + sum(1 for r in results if r == "kill")
    worst = max(results, key=lambda r: SEVERITY[r], default="miss")
    after = worse(status, RESULT_STATUS[worst]) if worst != "miss" else status
    return after, new_kills, new_kills >= tables.number("kills_to_remove")


def resolve(tables: Tables, dice: Dice, status: str, kills: int, markers: int, to_hit: int,
            label: str) -> HitOutcome:
    """R1: every marker of one base at one to-hit number; the markers are then gone."""
    rolls, rethrows, results = roll_markers(tables, dice, markers, to_hit, label)
    after, new_kills, removed = apply(tables, status, kills, results)
    return HitOutcome(to_hit, tuple(rolls), tuple(rethrows), tuple(results), after, new_kills, removed)


def may_act(action: str, outcome: HitOutcome) -> bool:
    """R1 examples: a base that declared a move loses it (and any fire on the move) to any
    hit; a base that declared fire still fires when only pinned; any other action goes on
    unless the base is removed."""
    if outcome.removed:
        return False
    if action in ("move", "move-fire"):
        return outcome.hits == 0 and outcome.status == "ok"
    if action == "fire":
        return outcome.status != "suppressed"
    return True


@dataclass(frozen=True)
class Recovery:
    """R2, R3: the resolution before recovering, whether the recovery went through, and
    the base's status and fire markers after."""

    outcome: HitOutcome
    recovered: bool
    status: str
    markers: int


def recover(tables: Tables, dice: Dice, status: str, kills: int, markers: int, in_leader_command: bool,
            label: str) -> Recovery:
    """R2, R3. Only a pinned or suppressed base may recover (the caller refuses others).
    Its markers resolve at 5+; any hit stops the recovery (a worse result applies; under
    platoon leader command, hits that are all pins turn a suppress into a pin). With no hit
    the hit marker goes and fire markers take its place: 2 for a pin, 4 for a suppress, one
    less under platoon leader command."""
    if status not in ("pinned", "suppressed"):
        raise ValueError(f"R2: a base with status {status!r} has nothing to recover from")
    outcome = resolve(tables, dice, status, kills, markers, tables.to_hit("recover"), label)
    if outcome.hits:
        after = outcome.status
        hits = [r for r in outcome.results if r != "miss"]
        if in_leader_command and all(r == "pin" for r in hits):
            after = "pinned"
        return Recovery(outcome, False, after, 0)
    count = tables.values["recovery_markers"]["pin" if status == "pinned" else "suppress"]
    if in_leader_command:
        count -= tables.values["recovery_markers"]["leader_relief"]
    return Recovery(outcome, True, "ok", int(count))
