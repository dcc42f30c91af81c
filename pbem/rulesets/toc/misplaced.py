"""An order of the wrong kind for its phase (5.2, 5.3): what the phase takes, and where that order goes.

A movement phase takes moves, a combat phase bombardments and melees (5.2); the British player
names his sequence first thing in his player turn and keeps it to its end (5.3). A refusal names
the kinds allowed now and the places the refused order could go instead: the `next_phase` order
of a movement phase, the next phase's own orders, or another sequence named first.

Two places ask: the rules' check of a side's orders (`phases.validate`), for the kinds a phase's
schema takes but its sequence does not (the British phases), and the core's reading of the schema
(`Toc.misplaced`, `said`), for the kinds the schema itself refuses (the German phases, and the orders
a German movement carries for the combat phase).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.core.errors import Problem

from .orders import NEXT_OF
from .sequence import DEFAULT_SEQUENCE, PHASES, SEQUENCES, kind, owner

COMBAT_KINDS = ("bombard", "melee")
MOVEMENT_KINDS = ("move", "top")


def _sequences_with(first: str) -> list[str]:
    """The sequences whose first phase is of kind `first`, the default's kind first."""
    return [name for name, kinds in SEQUENCES.items() if kinds[0] == first]


def allowed(phase: str, chosen: str | None, carried: bool) -> list[str]:
    """The order kinds `phase` takes (`carried`: inside the previous phase's `next_phase`)."""
    tags = list(MOVEMENT_KINDS if kind(phase, chosen) == "movement" else COMBAT_KINDS)
    if carried:
        return tags
    if phase == "british-first":
        tags.insert(0, "sequence (first)")
    if kind(phase, chosen) == "movement" and phase in NEXT_OF:
        tags.append("next_phase (last)")
    return tags + ["concede"]


def _where(phase: str, chosen: str | None, tag: str, carried: bool) -> str:
    """Where an order of kind `tag`, refused in `phase`, may be given instead."""
    wanted = "combat" if tag in COMBAT_KINDS else "movement"
    places: list[str] = []
    following = NEXT_OF.get(phase)
    if following is not None and kind(following, chosen) == wanted and not carried:
        places.append(f"in the last order, {{next_phase: [...]}}, for {following}"
                      if kind(phase, chosen) == "movement" else f"in the orders of {following}, after this phase")
    if phase == "german-movement":
        places.append("in the orders of german-combat")
    goes = f"a {tag} order goes {' or '.join(places)}" if places else ""
    if phase == "british-first" and not carried:
        names = " or ".join(f"{{sequence: {name}}}" for name in _sequences_with(wanted))
        rename = f"name {names} as the first order to make this a {wanted} phase (5.3)"
        return f"{goes}, or {rename}" if goes else rename
    if goes:
        return goes
    if phase == "german-combat":
        return f"{tag} orders come in german-movement, before the combat (5.2)"
    return f"the British sequence named for this player turn stands to its end (5.3): no {wanted} phase is left"


def refusal(phase: str, chosen: str | None, tag: str, carried: bool = False) -> tuple[str, str]:
    """The message and the legal text for an order of kind `tag` in `phase` (5.2, 5.3)."""
    what = kind(phase, chosen)
    under = f" (sequence {chosen or DEFAULT_SEQUENCE})" if phase.startswith("british") else ""
    message = f"a {tag} order is not allowed in {phase}, a {what} phase{under}"
    if carried:
        message = f"{phase}, the next phase, is a {what} phase{under}: a {tag} order is not allowed in it"
    legal = ", ".join(allowed(phase, chosen, carried)) + "; " + _where(phase, chosen, tag, carried)
    return message, legal


def said(view: Mapping[str, Any] | None, orders: Sequence[Any], phase: str, tag: str,
         within: str | None) -> Problem | None:
    """`refusal` as the core asks for it (`Toc.misplaced`): `within` "next_phase" for an order carried for the
    next phase. None (the core's words) for a kind that is neither a movement nor a combat order, a phase
    whose kind is not known from the side's own view and orders, or orders given for the other side's phase."""
    if tag not in COMBAT_KINDS + MOVEMENT_KINDS or phase not in PHASES or within not in (None, "next_phase"):
        return None
    if view is not None and view.get("side") not in (None, owner(phase)):
        return None
    known, chosen = _chosen(view, orders, phase)
    following = NEXT_OF.get(phase) if within is not None else phase
    if not known or following is None:
        return None
    if kind(following, chosen) == ("combat" if tag in COMBAT_KINDS else "movement"):
        return None  # no kind of order 5.2 refuses here
    message, legal = refusal(following, chosen, tag, carried=within is not None)
    return Problem(message, section="5.2", legal=legal)


def _chosen(view: Mapping[str, Any] | None, orders: Sequence[Any], phase: str) -> tuple[bool, str | None]:
    """Whether the British sequence in force is known, and which it is (5.3): the one the first order of
    british-first names, else the view's (None before the choice: the default)."""
    if not phase.startswith("british"):
        return True, None  # the German player turn has no choice of sequence
    first = orders[0] if orders and isinstance(orders[0], dict) else {}
    if phase == "british-first" and "sequence" in first:
        named = first["sequence"]
        return (True, named) if isinstance(named, str) and named in SEQUENCES else (False, None)
    if view is None:
        return phase == "british-first", None  # british-first begins with no sequence chosen
    chosen = view.get("sequence")
    return (True, chosen) if chosen is None or (isinstance(chosen, str) and chosen in SEQUENCES) else (False, None)
