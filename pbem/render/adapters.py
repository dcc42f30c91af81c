"""What the renderer needs from a ruleset, read from a view: the map, the counters, the events.

The core knows nothing of maps or counters, so each hex ruleset gets one small adapter here
(keyed by the view's `ruleset.id`) that reads that ruleset's view state and events. An adapter
only ever reads the view it is given: whatever it draws or says is what the side may know.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pbem.geometry.hexmap import HexMap

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


@dataclass
class Picture:
    """Everything the SVG needs, ruleset-neutral."""

    map: HexMap
    title: str
    own: list[Counter] = field(default_factory=list)
    enemy: list[Counter] = field(default_factory=list)  # tops of enemy stacks; uid may be ''
    off_map: list[tuple[str, str, str]] = field(default_factory=list)  # (uid, side, where: eliminated-in-hex / exited)
    wrecks: list[tuple[str, str, str]] = field(default_factory=list)  # (uid, side, hex) eliminated on the map
    places: list[tuple[str, str]] = field(default_factory=list)  # (name, hex)
    markers: list[tuple[str, str]] = field(default_factory=list)  # (label, hex)
    moves: list[tuple[str, list[str]]] = field(default_factory=list)  # (side, [hexes from start to end])
    fire: list[tuple[str, list[str], str, str]] = field(default_factory=list)  # (side, origins, target, label)
    drift: list[tuple[str, str, str]] = field(default_factory=list)  # (side, aimed, landed)


class Adapter:
    ruleset_id = ""
    sides: tuple[str, ...] = ()

    def side_name(self, side: str | None) -> str:
        return str(side or "").capitalize()

    def picture(self, view: View) -> Picture:
        raise NotImplementedError

    def sentence(self, event: Mapping[str, Any], view: View) -> str | None:
        """One event as a plain sentence (with its rule section), or None to use the generic line."""
        return None

    def state_lines(self, view: View) -> list[str]:
        return []


ADAPTERS: dict[str, Callable[[], Adapter]] = {}
MODULES = {"fbsm": "pbem.render.fbsm_adapter", "toc": "pbem.render.toc_adapter"}  # ruleset id -> the module that registers its adapter


def register(ruleset_id: str) -> Callable[[Callable[[], Adapter]], Callable[[], Adapter]]:
    def wrap(factory: Callable[[], Adapter]) -> Callable[[], Adapter]:
        ADAPTERS[ruleset_id] = factory
        return factory
    return wrap


def adapter_for(view: View) -> Adapter | None:
    ruleset_id = str((view.get("ruleset") or {}).get("id"))
    if ruleset_id in MODULES and ruleset_id not in ADAPTERS:
        # import lazily so a broken or missing ruleset never breaks the others
        try:
            importlib.import_module(MODULES[ruleset_id])
        except ImportError:
            return None
    factory = ADAPTERS.get(ruleset_id)
    return factory() if factory else None
