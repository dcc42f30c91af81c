"""Step losses (2.13) and who takes them: bombardment (10.9), defensive fire (11.5), melee (12.12).

A loss choice is an allocation: unit -> steps it loses. The rules that constrain it:

- 10.9 and 11.5 (`constrained`): no unit is eliminated until every unit in the group is down to
  one step;
- 12.12: each side spreads its own melee losses as it likes;
- excess losses beyond the group's steps are ignored (12.12; the same reading for 10.9, 11.5).

The choosing side's wish comes from, in this order: a priority list in the order (`losses:`),
then its standing answer for the topic; only a standing `ask` sends a decision request, and only
when more than one allocation is legal. The request offers every legal allocation, the one the
default rule would pick first.

The list is followed step by step as far as the rules allow: a step no listed unit may take
(10.9: all of them would be eliminated while another unit still has two steps) goes by the
standing answer or default, and the next step goes back to the list.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from pbem.core.ruleset import Decisions, State, standing_answer

from .context import Context
from .state import occupied
from .zoc import around, refresh_control, surrounded

Allocation = dict[str, int]
MAX_OPTIONS = 200

RULES = {
    "strongest-first": "each step from the strongest unit that may take it",
    "weakest-first": "each step from the weakest unit that may take it",
    "spread": "each step from the unit with the most steps left (eliminations last)",
}


def _eligible(steps: Mapping[str, int], constrained: bool) -> list[str]:
    alive = [uid for uid in sorted(steps) if steps[uid] > 0]
    if constrained and any(steps[uid] > 1 for uid in alive):
        return [uid for uid in alive if steps[uid] > 1]
    return alive


def _pick(ctx: Context, left: Mapping[str, int], choices: Sequence[str], rule: str) -> str:
    """The unit a named rule (see RULES) takes the next step from."""

    def worth(uid: str) -> tuple[int, int, int]:
        counter = ctx.counters[uid]
        return (counter.worth(left[uid]), left[uid], counter.stacking)

    if rule == "weakest-first":
        return min(choices, key=lambda u: (worth(u), u))
    if rule == "spread":
        return max(choices, key=lambda u: (left[u], worth(u), u))
    return max(choices, key=lambda u: (worth(u), u))


def by_rule(ctx: Context, steps: Mapping[str, int], count: int, rule: str, constrained: bool,
            start: Allocation | None = None, priority: Sequence[str] = ()) -> Allocation:
    """Take `count` steps one at a time: each from the first unit of `priority` that may take it,
    or, when none may, by a named rule (see RULES)."""
    left = dict(steps)
    out: Allocation = dict(start or {})
    for uid, lost in out.items():
        left[uid] -= lost
    for _ in range(count):
        choices = _eligible(left, constrained)
        if not choices:
            break
        pick = next((uid for uid in priority if uid in choices), None) or _pick(ctx, left, choices, rule)
        left[pick] -= 1
        out[pick] = out.get(pick, 0) + 1
    return out


def by_priority(steps: Mapping[str, int], count: int, priority: Sequence[str], constrained: bool) -> tuple[Allocation, int]:
    """Take steps from the listed units first, each as long as it legally can; return the rest."""
    left = dict(steps)
    out: Allocation = {}
    remaining = count
    while remaining > 0:
        choices = set(_eligible(left, constrained))
        pick = next((uid for uid in priority if uid in choices), None)
        if pick is None:
            break
        left[pick] -= 1
        out[pick] = out.get(pick, 0) + 1
        remaining -= 1
    return out, remaining


def legal(allocation: Mapping[str, int], steps: Mapping[str, int], count: int, constrained: bool) -> bool:
    total = sum(allocation.values())
    if total != min(count, sum(steps.values())):
        return False
    if any(lost < 0 or lost > steps.get(uid, 0) for uid, lost in allocation.items()):
        return False
    if constrained:
        eliminated = [uid for uid in steps if allocation.get(uid, 0) >= steps[uid] > 0]
        if eliminated and any(allocation.get(uid, 0) < steps[uid] - 1 for uid in steps if steps[uid] > 0):
            return False
    return True


def allocations(steps: Mapping[str, int], count: int, constrained: bool,
                start: Allocation | None = None) -> list[Allocation]:
    """Every legal allocation of `count` losses (on top of `start`), in a fixed order."""
    units = sorted(uid for uid in steps if steps[uid] > 0)
    base = dict(start or {})
    want = min(count + sum(base.values()), sum(steps[u] for u in units))
    out: list[Allocation] = []

    def walk(i: int, current: Allocation, total: int) -> None:
        if len(out) > MAX_OPTIONS:
            return
        if i == len(units):
            if total == want and legal(current, steps, want, constrained):
                out.append({u: n for u, n in current.items() if n})
            return
        uid = units[i]
        low = base.get(uid, 0)
        for n in range(low, steps[uid] + 1):
            if total + n > want:
                break
            current[uid] = n
            walk(i + 1, current, total + n)
        current.pop(uid, None)

    walk(0, {}, 0)
    return out


def choose(ctx: Context, state: State, decisions: Decisions, *, side: str, topic: str, section: str,
           steps: Mapping[str, int], count: int, constrained: bool, default: str, question: dict[str, Any],
           priority: Sequence[str] = ()) -> Allocation:
    """The allocation `side` makes: priority list, then standing answer (or a decision request)."""
    steps = {uid: n for uid, n in steps.items() if n > 0}
    count = min(count, sum(steps.values()))
    if count <= 0:
        return {}
    start, remaining = by_priority(steps, count, priority, constrained)
    if remaining <= 0:
        return start
    rule = standing_answer(state, side, topic, default)
    fallback = rule if rule in RULES else default
    picked = by_rule(ctx, steps, remaining, fallback if fallback in RULES else "strongest-first", constrained, start,
                     priority)
    if rule != "ask":
        return picked
    options = allocations(steps, remaining, constrained, start)
    if len(options) <= 1 or len(options) > MAX_OPTIONS:
        return picked
    ordered = [picked] + sorted((o for o in options if o != picked), key=lambda o: json.dumps(o, sort_keys=True))
    body = dict(question)
    body.update(losses=count, units=[{"unit": uid, "steps": steps[uid]} for uid in sorted(steps)])
    if start:
        body["already"] = dict(start)
    answer = decisions.ask(side, topic, section, body, ordered)
    return {str(k): int(v) for k, v in dict(answer).items()}


# --- applying losses ---------------------------------------------------------------------------


def take_steps(ctx: Context, state: State, allocation: Mapping[str, int], events_out: list[dict[str, Any]]) -> None:
    """Apply an allocation; eliminated units go to the dead pile (4.5: British ones may be surrounded)."""
    for uid in sorted(allocation):
        lose = allocation[uid]
        if lose <= 0:
            continue
        unit = state["units"][uid]
        if unit["status"] != "active":
            continue
        before = unit["steps"]
        unit["steps"] = max(0, before - lose)
        result: dict[str, Any] = {"unit": uid, "before": before, "after": unit["steps"]}
        if unit["steps"] == 0:
            eliminate(ctx, state, uid, result)
        else:
            result.update(ctx.counters[uid].counter_face(unit["steps"]))
        events_out.append(result)


def eliminate(ctx: Context, state: State, uid: str, record: dict[str, Any] | None = None) -> None:
    unit = state["units"][uid]
    where = unit["hex"]
    is_surrounded = False
    if ctx.counters[uid].side == "british" and where is not None and state["turn"] <= int(ctx.tables["last_turn"]):
        is_surrounded = surrounded(ctx, where, occupied(ctx, state, "german"))
    unit.update(hex=None, steps=0, status="eliminated")
    if is_surrounded:
        unit["surrounded"] = True
    if record is not None:
        record["eliminated"] = True
        if ctx.counters[uid].side == "british":
            record["surrounded"] = is_surrounded
    refresh_control(ctx, state, around(ctx, where))
