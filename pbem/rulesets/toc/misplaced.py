"""An order of the wrong kind for its phase (5.2, 5.3): what the phase takes, and where that order goes.

A movement phase takes moves, a combat phase bombardments and melees (5.2); the British player
names his sequence first thing in his player turn and keeps it to its end (5.3). A refusal names
the kinds allowed now and the places the refused order could go instead: the `next_phase` order
of a movement phase, the next phase's own orders, or another sequence named first.
"""

from __future__ import annotations

from .orders import NEXT_OF
from .sequence import DEFAULT_SEQUENCE, SEQUENCES, kind

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
