"""Small tables and bases for the bst rule tests (not a test module)."""

from __future__ import annotations

from typing import Any, Sequence

from pbem.core.chance import ForcedDice
from pbem.geometry.tablemap import TableMap
from pbem.rulesets.bst.stands import Stand, square
from pbem.rulesets.bst.terrain import load_table


def table(*features: dict[str, Any]) -> TableMap:
    """A 1200 x 1200 mm table with the given features and bst's kinds."""
    return load_table({"unit": "mm", "width": 1200, "depth": 1200, "edges": {"allies": "south", "axis": "north"},
                       "features": list(features), "assumed": True, "source": "drawn for a test"})


def stand(sid: str, at: Sequence[int], facing: int = 0, *, side: str = "axis", unit: str = "u1",
          weapon: str = "rifles", kills: int = 0) -> Stand:
    return Stand(sid, side, unit, weapon, square(at, facing, 30), kills)


def faces(*values: int) -> ForcedDice:
    """Dice forced to these die faces (1-6) in order."""
    return ForcedDice([v - 1 for v in values])
