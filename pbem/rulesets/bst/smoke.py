"""Smoke (W9, W10): screens laid by mortars, growing and clearing at each Joker.

A screen starts as one smoke base (a base's size, turned along the wind) where the bomb
landed. At each Joker the wind acts on it (data/tables.yaml `smoke_growth`, by strength):
`spread` lays a second base touching the first, downwind; `clear-first`, `clear-second`,
`clear-both` take bases away, the first laid first. Smoke blocks any line of sight that
meets it (W10, `sight.py`): the rules see it through a copy of the table with the smoke as
features (`with_smoke`).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from pbem.core.ruleset import Event, State
from pbem.geometry import plane
from pbem.geometry.tablemap import TableMap

from .context import Context


def downwind(context: Context) -> int:
    """P1: the bearing the wind blows toward."""
    return (int(context.tables.values["wind"]["from_bearing"]) + 180) % 360


def with_smoke(context: Context, state: Mapping[str, Any]) -> Context:
    """The context whose table holds the state's smoke bases as features."""
    screens = state.get("smoke") or []
    if not screens:
        return context
    size = context.tables.number("base_size")
    features = [context.table.make_feature(f"smoke-{screen['id']}-{i}", "smoke",
                                           plane.Base((at[0], at[1]), screen["facing"], size, size).shape)
                for screen in screens for i, at in enumerate(screen["bases"]) if at is not None]
    return dataclasses.replace(context, table=context.table.with_features(features))


def in_smoke(table: TableMap, point: plane.Point) -> bool:
    """W10: whether a point (a base's centre) lies inside or on a smoke base of the table
    `with_smoke` made."""
    return any(plane.locate(point, feature.shape) >= 0 for feature in table.of_kind("smoke"))


def spread_point(context: Context, first: list[int], facing: int) -> list[int]:
    """W9: where a spread lays the second base, a base width downwind of the first."""
    d = plane.direction(facing)
    far = (first[0] + d[0], first[1] + d[1])
    return list(plane.point_along((first[0], first[1]), far, context.tables.number("base_size")))


def may_matter(context: Context, screen: Mapping[str, Any], steps: list[str]) -> bool:
    """W10 (docs/bst.md, W6): whether a smoke base of the screen, laid or still to be laid by
    the wind's remaining `steps`, touches the table. Smoke acts only on lines between base
    centres and on the centres themselves, all on the table, so a screen that never touches
    the table can never block or hide anything."""
    size = context.tables.number("base_size")
    table = plane.polygon([[0, 0], [context.table.width, 0], [context.table.width, context.table.depth],
                           [0, context.table.depth]])
    places = [b for b in screen["bases"] if b is not None]
    first = screen["bases"][0]
    if first is not None and "spread" in steps[screen["jokers"]:]:
        places.append(spread_point(context, first, screen["facing"]))
    return any(plane.overlap(table, plane.Base((at[0], at[1]), screen["facing"], size, size).shape) for at in places)


def lay(context: Context, state: State, at: plane.Point, events: list[Event]) -> None:
    """W9: a new screen of one smoke base at `at`, turned along the wind; one wholly off the
    table that the wind can never bring onto it is not kept (it lands, and is gone)."""
    screens = state.setdefault("smoke", [])
    number = 1 + max((screen["id"] for screen in screens), default=0)
    screen = {"id": number, "bases": [list(at)], "facing": downwind(context), "jokers": 0}
    event: Event = {"type": "smoke", "section": "W9", "screen": number, "at": list(at)}
    if may_matter(context, screen, growth(context)):
        screens.append(screen)
    else:
        event["off_table"] = True
    events.append(event)


def growth(context: Context) -> list[str]:
    """W9: the steps the wind takes at each Joker, by its strength."""
    return list(context.tables.values["smoke_growth"][str(context.tables.values["wind"]["strength"])])


def joker(context: Context, state: State, events: list[Event]) -> None:
    """W9: the wind acts on every screen at a Joker."""
    steps = growth(context)
    kept = []
    for screen in state.get("smoke") or []:
        step = steps[screen["jokers"]] if screen["jokers"] < len(steps) else "stay"
        screen["jokers"] += 1
        first = screen["bases"][0]
        if step == "spread" and first is not None:
            screen["bases"].append(spread_point(context, first, screen["facing"]))
        elif step == "clear-first":
            screen["bases"][0] = None
        elif step in ("clear-second", "clear-both"):
            screen["bases"] = [None for _ in screen["bases"]]
        if step != "stay":
            events.append({"type": "smoke-drifts", "section": "W9", "screen": screen["id"], "step": step,
                           "bases": [b for b in screen["bases"] if b is not None]})
        if may_matter(context, screen, steps):
            kept.append(screen)
    state["smoke"] = kept
