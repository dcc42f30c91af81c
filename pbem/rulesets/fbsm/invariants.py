"""Invariants every FBSM state must satisfy (used by the tests on every turn file of bot games).

- every counter of the mix is in the state exactly once, with a known status;
- on the map exactly when active: active units stand on passable on-map hexes, units in the
  container, drawn or exited have no hex, eliminated units keep the hex they fell in (2.6);
- stacking (6.1): at most 16 printed infantry fire factors per hex, at most one emplacement, no
  infantry with an emplacement, never both sides in one hex (9.7);
- no US unit on a riverbank hex (9.8); stacking numbers unique among units on the map;
- drawn units are exactly the pending ones (8.3, 8.6);
- the result, once set, names a winner (4.6: no draws).
"""

from __future__ import annotations

from pbem.core.ruleset import State

from .context import Context
from .state import STATUSES, normalize


def problems(cfg: Context, state: State, full_mix: bool = True) -> list[str]:
    """Every invariant the state breaks (none: []); `full_mix` also requires the whole counter mix.

    `cfg` is the context of the state's setup (`Fbsm.prepare(state["setup"])`).
    """
    state = normalize(cfg, state)
    found: list[str] = []
    units = state["units"]
    if full_mix and sorted(units) != sorted(cfg.counters):
        missing = sorted(set(cfg.counters) - set(units))
        found.append(f"units missing from the state: {', '.join(missing[:10])}")
    by_hex: dict[str, list[str]] = {}
    zs: dict[int, str] = {}
    for uid, unit in units.items():
        if uid not in cfg.counters:
            found.append(f"{uid}: not in the counter mix")
            continue
        status, hex_id = unit["status"], unit["hex"]
        if status not in STATUSES:
            found.append(f"{uid}: unknown status {status!r}")
        if status == "active":
            if hex_id is None or cfg.impassable(hex_id):
                found.append(f"{uid}: active but not on a passable map hex ({hex_id})")
                continue
            by_hex.setdefault(hex_id, []).append(uid)
            if unit["z"] in zs:
                found.append(f"{uid} and {zs[unit['z']]} share stacking number {unit['z']}")
            zs[unit["z"]] = uid
            if cfg.counters[uid].side == "us" and hex_id in cfg.riverbank:
                found.append(f"{uid}: a US unit on the riverbank hex {hex_id} (9.8)")
        elif status in ("container", "drawn", "exited") and hex_id is not None:
            found.append(f"{uid}: {status} but has hex {hex_id}")
        elif status == "eliminated" and hex_id is None and state["phase"] != "us-setup":
            found.append(f"{uid}: eliminated without a hex")
    limit = int(cfg.tables["stacking_fire_factors"])
    for hex_id, here in sorted(by_hex.items()):
        sides = {cfg.counters[u].side for u in here}
        if len(sides) > 1:
            found.append(f"{hex_id}: units of both sides ({', '.join(sorted(here))})")
        hws = [u for u in here if cfg.counters[u].kind == "hw"]
        infantry = [u for u in here if cfg.counters[u].kind == "infantry"]
        if len(hws) > 1 or (hws and infantry):
            found.append(f"{hex_id}: an emplacement shares its hex ({', '.join(sorted(here))})")
        total = sum(cfg.counters[u].fire for u in infantry)
        if total > limit:
            found.append(f"{hex_id}: {total} fire factors stacked (limit {limit})")
    drawn = sorted(uid for uid, u in units.items() if u["status"] == "drawn")
    pending = sorted((state.get("pending") or {}).get("units", []))
    if drawn != pending:
        found.append(f"drawn units {drawn} are not the pending units {pending}")
    result = state.get("result")
    if result and result.get("winner") not in ("us", "german"):
        found.append(f"a result without a winner: {result}")
    return found
