"""Hit results (3.3): K, D and I on a unit's bases, which base goes, and machine gun resurrection.

- K kills one base. D damages one: an infantry or cavalry unit that already has a damaged base
  turns the two damages into one kill (it never has two damaged bases); a damaged vehicle keeps
  moving but fires impaired (3.6 damaged); a D on a vehicle already damaged is taken as a kill
  (assumed). I immobilizes a vehicle (towed guns included) and its crew checks for bail-out on
  the morale chart (assumed); I does nothing to other bases. Machine gun and mortar bases are
  killed by any K or D.
- Which base: the one closest to the firing unit; after a packed or enfilade fire the packed
  bases (within 10 yards of another) closest to the firer go first.
- A machine gun base killed may be resurrected once: the closest infantry base of its battalion
  is removed instead (standing answer `mg_resurrection`, default `always`).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.ruleset import State, standing_answer
from pbem.geometry import plane

from .context import Context
from .geometry import dist2, footprint
from .smallarms import packed_bases
from .state import bases_of

KILLED_WHEN_HIT = ("machine-gun", "mortar")


def removal_order(context: Context, state: State, target: str, firing: list[plane.Shape], packed_first: bool) -> list[str]:
    """3.3: the target's bases, the next to go first."""
    kind = context.type_of(state["units"][target])
    bids = sorted(bases_of(state, target))
    packed = set(packed_bases(context, state, bids)) if packed_first else set()

    def distance(bid: str) -> Any:
        me = footprint(kind, state["bases"][bid]).shape
        return min(dist2(context, me, f) for f in firing)

    return sorted(bids, key=lambda b: (b not in packed, distance(b), b))


def apply(context: Context, state: State, target: str, letters: str, order: list[str], dice: Dice,
          why: str, seen_by: list[str] | None = None) -> list[dict[str, Any]]:
    """Apply the result letters in turn to the bases in `order` (the first standing one each time).
    Returns what happened to each base, for the event; `seen_by` limits who sees a bail-out die."""
    out: list[dict[str, Any]] = []
    unit = state["units"][target]
    kind = context.type_of(unit)
    for letter in letters:
        if letter == "-":
            continue
        standing = [b for b in order if b in state["bases"]]
        if not standing:
            break
        victim = standing[0]
        base = state["bases"][victim]
        if kind.cls in KILLED_WHEN_HIT and letter in "KD":
            out += kill(context, state, victim, f"{letter}: any hit destroys a machine gun or mortar base", why)
        elif letter == "K":
            out += kill(context, state, victim, "K", why)
        elif letter == "D" and kind.vehicle:
            if base["damaged"]:
                out += kill(context, state, victim, "D on a damaged vehicle", why)
            else:
                base["damaged"] = True
                out.append({"base": victim, "result": "damaged"})
        elif letter == "D":
            damaged = [b for b in standing if state["bases"][b]["damaged"]]
            if damaged:
                for b in damaged:
                    state["bases"][b]["damaged"] = False
                out += kill(context, state, victim, "a second D makes a K", why)
            else:
                base["damaged"] = True
                out.append({"base": victim, "result": "damaged"})
        elif letter == "I" and kind.vehicle:
            base["immobilized"] = True
            roll = dice.die(6, f"3.3 bail-out check of {victim}", seen_by)
            out.append({"base": victim, "result": "immobilized", "bail_out_roll": roll})
            if roll <= int(context.tables["charts"]["morale"]) and context.tables["frame"]["bail_out_removes"]:
                out += kill(context, state, victim, "crew bailed out", why)
    return out


def kill(context: Context, state: State, bid: str, how: str, why: str) -> list[dict[str, Any]]:
    """Remove a base (or, for a machine gun, the closest infantry base of its battalion instead)."""
    base = state["bases"][bid]
    uid = base["unit"]
    unit = state["units"][uid]
    kind = context.type_of(unit)
    if kind.cls == "machine-gun" and not unit["resurrected"] and unit.get("battalion"):
        if standing_answer(state, unit["side"], "mg_resurrection", "always") == "always":
            donor = resurrection_donor(context, state, bid)
            if donor is not None:
                unit["resurrected"] = True
                remove(context, state, donor)
                return [{"base": bid, "result": "killed", "how": how,
                         "resurrected_from": donor, "section": "3.3"}]
    remove(context, state, bid)
    return [{"base": bid, "result": "killed", "how": how}]


def resurrection_donor(context: Context, state: State, mg: str) -> str | None:
    """3.3: the infantry base of the machine gun's battalion closest to it."""
    units = state["units"]
    unit = units[state["bases"][mg]["unit"]]
    me = footprint(context.type_of(unit), state["bases"][mg]).shape
    found = []
    for bid, base in sorted(state["bases"].items()):
        other = units[base["unit"]]
        okind = context.type_of(other)
        if (other["side"] == unit["side"] and other.get("battalion") == unit["battalion"]
                and okind.cls == "infantry"):
            found.append((dist2(context, me, footprint(okind, base).shape), bid))
    return min(found)[1] if found else None


def remove(context: Context, state: State, bid: str) -> None:
    base = state["bases"].pop(bid)
    uid = base["unit"]
    state["lost"][bid] = uid
    unit = state["units"][uid]
    winner = "german" if unit["side"] == "british" else "british"
    state["score"][winner] = state["score"].get(winner, 0) + int(context.tables["frame"]["score_per_base"])
    if not any(b["unit"] == uid for b in state["bases"].values()):
        unit["status"] = "eliminated"
