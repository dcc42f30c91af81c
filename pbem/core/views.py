"""Per-side views: the state, events and rolls one side may know (docs/protocol.md §4, Views).

A view is a pure function of the master turn file, the side and the hash of that side's
previous view, so the audit can rebuild every view byte for byte and compare.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import chance
from .ruleset import STANDING_KEY, Rules, State


def view_state(rules: Rules, state: State, side: str) -> State:
    """The ruleset's view of the state for `side` (what validation runs against)."""
    return rules.view(state, side)


def own_standing(state: State, side: str) -> dict[str, Any]:
    return dict(state.get(STANDING_KEY, {}).get(side, {}))


def public_next(next_: Mapping[str, Any]) -> dict[str, Any]:
    return {key: next_[key] for key in ("phase", "awaiting", "deadline", "result") if key in next_}


def initial_view(rules: Rules, game_id: str, game_hash: str, side: str, state: State,
                 next_: Mapping[str, Any], protocol: int) -> dict[str, Any]:
    """View 0: the starting position as this side sees it, bound to game.yaml."""
    return {
        "pbem": protocol,
        "kind": "view",
        "game": game_id,
        "ruleset": {"id": rules.ruleset.id, "version": rules.ruleset.version},
        "seq": 0,
        "side": side,
        "master": game_hash,
        "previous_view": None,
        "phases": [],
        "dice": {"seed": None, "previous": None, "inputs": [], "phase_seed": None, "rolls": []},
        "events": [],
        "state": view_state(rules, state, side),
        "standing": own_standing(state, side),
        "next": public_next(next_),
    }


def turn_view(rules: Rules, turn: Mapping[str, Any], turn_hash: str, side: str,
              previous_view: str) -> dict[str, Any]:
    """View k of `side`, built from the master turn file k."""
    events = []
    for event in turn["events"]:
        shown = rules.visible(event, side)
        if shown is not None:
            events.append(shown)
    rolls = [
        {key: roll[key] for key in ("i", "n", "value", "for", "key") if key in roll}
        for roll in turn["dice"]["rolls"]
        if chance.roll_visible(roll, side)
    ]
    inputs = []
    for entry in turn["orders"]:
        item = {"side": entry["side"]}
        if entry["status"] == "submitted":
            item.update(entropy=entry["entropy"], order_hash=entry["hash"])
        elif "deadline" in entry:
            item["deadline"] = entry["deadline"]
        inputs.append(item)
    dice = {
        "seed": turn["dice"]["seed"],
        "previous": turn["previous"],
        "inputs": inputs,
        "phase_seed": turn["dice"]["phase_seed"],
        "rolls": rolls,
    }
    view = {
        "pbem": turn["pbem"],
        "kind": "view",
        "game": turn["game"],
        "ruleset": {"id": rules.ruleset.id, "version": rules.ruleset.version},
        "seq": turn["seq"],
        "side": side,
        "master": turn_hash,
        "previous_view": previous_view,
        "phases": list(turn["phases"]),
        "dice": dice,
        "events": events,
        "state": view_state(rules, turn["state"], side),
        "standing": own_standing(turn["state"], side),
        "next": public_next(turn["next"]),
    }
    if turn["pbem"] >= 2:
        # The side's own decisions, so it can hold them against its receipts (§4a); and, once the
        # game is over, t_K, from which every hidden key of the game can be checked (§3).
        view["decisions"] = [own_decision(entry) for entry in turn["decisions"] if entry["side"] == side]
        if "result" in turn["next"]:
            dice["hidden_seed"] = turn["dice"]["hidden_seed"]
    return view


def own_decision(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A used decision as its side sees it: the request, and the reply or the referee's lapse."""
    return {"index": entry["index"], "request_hash": entry["request_hash"], "answer_hash": entry["reply_hash"],
            "lapsed": "/lapse-" in entry["reply"]}


def recompute_phase_seed(view: Mapping[str, Any], game_id: str) -> bytes:
    """A player's check: the phase seed from the view's public inputs alone."""
    dice = view["dice"]
    inputs = [
        chance.SideInput(entry["side"], bytes.fromhex(entry.get("entropy", "")),
                         chance.parse_hash(entry["order_hash"]) if "order_hash" in entry else b"")
        for entry in dice["inputs"]
    ]
    return chance.phase_seed(game_id, view["seq"], bytes.fromhex(dice["seed"]), chance.parse_hash(dice["previous"]),
                             inputs)
