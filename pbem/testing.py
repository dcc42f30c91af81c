"""Test helpers any ruleset's tests can use: fog-of-war leak checks.

Fog of war is a security property: change anything the rules hide from a side, and that
side's view file must not change by a single byte. These helpers build the exact view
bytes the referee would write (through the same code) so a test compares files, not dicts.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Iterable, Mapping, Sequence

from .core import chance, yamlio
from .core.game import next_block
from .core.ruleset import Event, Ruleset, State
from .core.views import turn_view

Mutation = Callable[[State, list[Event]], None]


def view_bytes(ruleset: Ruleset, state: State, side: str, sides: Sequence[str], events: Iterable[Event] = (),
               rolls: Iterable[dict[str, Any]] = ()) -> bytes:
    """The bytes of `side`'s view of a turn holding this state, these events and these rolls."""
    turn = {
        "pbem": 1, "kind": "turn", "game": "leak-test", "seq": 1, "previous": "sha256:" + "0" * 64,
        "phases": [ruleset.phase(state)],
        "orders": [{"side": s, "status": "not-awaited"} for s in sides],
        "decisions": [],
        "dice": {"seed": "0" * 64, "phase_seed": "0" * 64, "rolls": list(rolls)},
        "events": list(events),
        "state": state,
        "state_sha256": chance.state_hash(state),
        "next": next_block(ruleset, state),
    }
    return yamlio.dump(turn_view(ruleset, turn, "sha256:" + "1" * 64, side, "sha256:" + "2" * 64)).encode("utf-8")


def assert_no_leak(ruleset: Ruleset, state: State, side: str, sides: Sequence[str], mutate: Mutation,
                   events: Iterable[Event] = (), rolls: Iterable[dict[str, Any]] = ()) -> None:
    """Apply `mutate` (which changes only what `side` may not know) and require identical view bytes.

    Also require that the mutation changed the master state or events at all, so a test whose
    mutation silently does nothing cannot pass.
    """
    events = list(events)
    rolls = list(rolls)
    before = view_bytes(ruleset, state, side, sides, events, rolls)
    changed_state, changed_events = copy.deepcopy(state), copy.deepcopy(events)
    mutate(changed_state, changed_events)
    if (changed_state, changed_events) == (state, events):
        raise AssertionError("the mutation changed nothing: the leak test would prove nothing")
    after = view_bytes(ruleset, changed_state, side, sides, changed_events, rolls)
    if before != after:
        raise AssertionError(f"{side}'s view changed when hidden facts changed:\n{_diff(before, after)}")


def assert_visible(ruleset: Ruleset, state: State, side: str, sides: Sequence[str], mutate: Mutation,
                   events: Iterable[Event] = ()) -> None:
    """The converse check: a change `side` IS entitled to see must show in its view."""
    events = list(events)
    before = view_bytes(ruleset, state, side, sides, events)
    changed_state, changed_events = copy.deepcopy(state), copy.deepcopy(events)
    mutate(changed_state, changed_events)
    if view_bytes(ruleset, changed_state, side, sides, changed_events) == before:
        raise AssertionError(f"{side}'s view did not change, but the change was one it may see")


def _diff(before: bytes, after: bytes) -> str:
    import difflib

    lines = difflib.unified_diff(before.decode().splitlines(), after.decode().splitlines(), "before", "after",
                                 lineterm="", n=1)
    return "\n".join(list(lines)[:40])


def stacks_of(units: Mapping[str, Mapping[str, Any]], belongs: Callable[[str], bool],
              on_map: str = "active") -> dict[str, list[str]]:
    """hex -> the ids of the units `belongs` picks there, bottom first (by `z`), for hex wargames."""
    found: dict[str, list[tuple[int, str]]] = {}
    for uid, unit in units.items():
        if unit["status"] == on_map and belongs(uid):
            found.setdefault(unit["hex"], []).append((unit["z"], uid))
    return {h: [u for _, u in sorted(items)] for h, items in sorted(found.items())}


def under_the_top(stacks: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """(hex, unit) for every unit under the top of its stack: what fog of war hides (top unit only)."""
    return [(h, u) for h, items in stacks.items() for u in items[:-1]]
