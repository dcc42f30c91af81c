"""Test helpers any ruleset's tests can use: fog-of-war leak checks, and the events of bot games.

Fog of war is a security property: change anything the rules hide from a side, and that
side's view file must not change by a single byte. These helpers build the exact view
bytes the referee would write (through the same code) so a test compares files, not dicts.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .core import chance, yamlio
from .core.game import next_block
from .core.errors import PbemError
from .core.ruleset import Decisions, Event, Rules, Ruleset, State, Submission, rules_for, start
from .core.views import turn_view

Mutation = Callable[[State, list[Event]], None]


LEAK_GAME = "leak-test"
LEAK_SEED = chance.sha256(b"leak-test seed")
LEAK_HIDDEN_SEED = chance.sha256(b"leak-test hidden seed")
LEAK_PHASE_SEED = chance.sha256(b"leak-test phase seed")


def keyed_rolls(rolls: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Roll records as a version 2 turn holds them: each restricted one drawn with its own key.

    The value of a restricted roll is recomputed from its key, so a view that leaked the key (or
    anything it follows from) would let a test recompute it, and `assert_no_leak` looks for that.
    """
    out = []
    for record in rolls:
        record = dict(record)
        if "seen_by" in record:
            key = chance.hidden_key(LEAK_GAME, 1, LEAK_HIDDEN_SEED, record["i"])
            record["key"] = key.hex()
            record["value"] = chance.hidden_uniform(LEAK_PHASE_SEED, key, record["n"], record["i"])
        out.append(record)
    return out


def view_bytes(ruleset: Ruleset[Any], state: State, side: str, sides: Sequence[str], events: Iterable[Event] = (),
               rolls: Iterable[dict[str, Any]] = ()) -> bytes:
    """The bytes of `side`'s view of a version 2 turn holding this state, these events and these rolls.

    The seeds are real 32-byte values, not blanks, so nothing derived from them can hide.
    """
    rules = rules_for(ruleset, state)
    turn = {
        "pbem": 2, "kind": "turn", "game": LEAK_GAME, "seq": 1, "previous": "sha256:" + "0" * 64,
        "phases": [rules.phase(state)],
        "orders": [{"side": s, "status": "not-awaited"} for s in sides],
        "decisions": [],
        "dice": {"seed": LEAK_SEED.hex(), "hidden_seed": LEAK_HIDDEN_SEED.hex(), "phase_seed": LEAK_PHASE_SEED.hex(),
                 "rolls": keyed_rolls(rolls)},
        "events": list(events),
        "state": state,
        "state_sha256": chance.state_hash(state),
        "next": next_block(rules, state),
    }
    return yamlio.dump(turn_view(rules, turn, "sha256:" + "1" * 64, side, "sha256:" + "2" * 64)).encode("utf-8")


def assert_no_leak(ruleset: Ruleset[Any], state: State, side: str, sides: Sequence[str], mutate: Mutation,
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
    assert_rolls_unknowable(before, side, keyed_rolls(rolls), sides)


def assert_rolls_unknowable(view: bytes, side: str, rolls: Sequence[dict[str, Any]], sides: Sequence[str]) -> None:
    """No roll hidden from `side` may follow from its view's bytes: neither its key nor t_k may
    stand in the view, and the public stream must not give its value."""
    hidden = [roll for roll in rolls if "seen_by" in roll and side not in roll["seen_by"]]
    text = view.decode("utf-8")
    secrets = {roll["key"]: f"the key of roll {roll['i']}" for roll in hidden}
    secrets[LEAK_HIDDEN_SEED.hex()] = "t_k"
    shown = [what for value, what in secrets.items() if hidden and value in text]
    if shown:
        raise AssertionError(f"{side}'s view holds {', '.join(shown)}: rolls hidden from it follow")
    found = computable_rolls(text, LEAK_GAME, 1, LEAK_PHASE_SEED, hidden)
    if found:
        raise AssertionError(f"{side} can compute rolls hidden from it: {found}")


ENOUGH_CHANCE = 2**16  # below this many outcomes a match can be luck; such sets prove nothing either way


def computable_rolls(text: str, game: str, k: int, phase_seed: bytes,
                     hidden: Sequence[dict[str, Any]]) -> list[str]:
    """The curious opponent's attacks on the rolls `hidden` (adjudication k) from what it holds (`text`).

    It tries the public stream at each roll's index (version 1's hole), and every 64-hex-digit
    value in `text` as the hidden chain link t_k. An attack counts when it gives every value right
    and the values had at least ENOUGH_CHANCE outcomes together.
    """
    import math
    import re

    if math.prod(roll["n"] for roll in hidden) < ENOUGH_CHANCE:
        return []

    def all_match(value_of: Callable[[dict[str, Any]], int]) -> bool:
        return all(value_of(roll) == roll["value"] for roll in hidden)

    found = []
    if all_match(lambda roll: chance.uniform(phase_seed, roll["n"], roll["i"])):
        found.append("the public stream (phase seed and index) gives them")
    for candidate in sorted(set(re.findall(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", text))):
        raw = bytes.fromhex(candidate)
        if all_match(lambda roll: chance.hidden_uniform(phase_seed, chance.hidden_key(game, k, raw, roll["i"]),
                                                        roll["n"], roll["i"])):
            found.append(f"{candidate} taken as t_k gives them")
    return found


def assert_visible(ruleset: Ruleset[Any], state: State, side: str, sides: Sequence[str], mutate: Mutation,
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


def bot_game_events(ruleset: Ruleset[Any], scenario: Mapping[str, Any], seed: bytes, *,
                    max_phases: int) -> Iterator[tuple[Rules, Event]]:
    """Every event of one bot game played straight through `resolve`, with the rules that made it.

    Each awaited side's bot writes orders from its own view and they must pass `validate` on that
    view, as at the referee's; no decision is answered (the rulesets' default standing answers
    settle them). Stops when the game ends or after `max_phases` phases: a catalogue test samples.
    """
    rules, state = start(ruleset, scenario)
    for number in range(max_phases):
        if rules.result(state) is not None:
            return
        tag = number.to_bytes(4, "big")
        submissions: dict[str, Submission | None] = {side: None for side in ruleset.sides(scenario)}
        for side in rules.awaiting(state):
            view = rules.view(state, side)
            orders = rules.bot_orders(view, side, chance.sha256(seed + b"orders" + tag + side.encode()))
            problems = rules.validate(view, side, orders)
            if problems:
                raise PbemError(problems)
            submissions[side] = Submission(side, orders)
        out = rules.resolve(state, submissions, chance.Dice(chance.sha256(seed + b"dice" + tag)), Decisions())
        for event in out.events:
            yield rules, event
        state = out.state
