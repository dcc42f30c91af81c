"""The Random Events Phase (7.1-7.10), every turn after the first (5.2).

Two dice, read on the `random_events` table. The breakthroughs (7.5, 7.7) happen once per
game: a later roll of one is No Event. The US rally (7.6) may be declined - then it may come
again; once accepted it never recurs. The US standing answer `rally` (accept, the default;
decline; ask) gives that choice without an extra exchange unless the player wants to be asked.
Every other event may recur. The effects last for the turn (`state.effects`).
"""

from __future__ import annotations

from typing import Any

from pbem.core.chance import Dice
from pbem.core.ruleset import Decisions, State, standing_answer

from .context import Context
from .state import NO_EFFECTS
from . import reinforcements

SECTIONS = {"us-artillery-problems": "7.2", "german-artillery-problems": "7.3", "gas": "7.4",
            "breakthrough-west": "7.5", "us-rally": "7.6", "breakthrough-east": "7.7", "german-heavy-mg": "7.8",
            "german-rally": "7.9", "superb-spotting": "7.10"}


def resolve(cfg: Context, state: State, dice: Dice, decisions: Decisions, events: list[dict[str, Any]]) -> None:
    effects = dict(NO_EFFECTS)
    rolls = dice.dice(2, 6, f"7.1 random events of turn {state['turn']}")
    total = sum(rolls)
    name = str(cfg.tables["random_events"][str(total)])
    event: dict[str, Any] = {"type": "random-event", "section": SECTIONS.get(name, "7.1"), "dice": rolls,
                             "roll": total, "event": name}
    events.append(event)
    happened = name
    once = state["once"]
    if name in ("breakthrough-west", "breakthrough-east", "us-rally") and once.get(name):
        happened = "no-event"
        event["note"] = "this event may happen once per game; it already has"
    elif name in ("breakthrough-west", "breakthrough-east"):
        once[name] = True
        reinforcements.breakthrough(cfg, state, name, dice, events)
    elif name == "us-rally":
        answer = standing_answer(state, "us", "rally", "accept")
        if answer not in ("accept", "decline"):
            answer = decisions.ask("us", "rally", "7.6", {"turn": state["turn"], "event": "us-rally",
                                                          "note": "accept or decline the US rally this turn"},
                                   ["accept", "decline"])
        event["rally"] = answer
        if answer == "accept":
            once["us-rally"] = True
            effects["us_rally"] = True
        else:
            happened = "no-event"
    elif name == "gas":
        effects["gas"] = True
    elif name == "us-artillery-problems":
        effects["us_problems"] = True
    elif name == "german-artillery-problems":
        effects["german_problems"] = True
    elif name == "german-heavy-mg":
        effects["heavy_mg"] = True
    elif name == "german-rally":
        effects["german_rally"] = True
    elif name == "superb-spotting":
        roll = dice.die(6, "7.10 superb artillery spotting: odd for the German, even for the US")
        effects["no_drift"] = "german" if roll % 2 else "us"
        event["spotting_roll"] = roll
        event["favours"] = effects["no_drift"]
    effects["event"] = happened
    effects["roll"] = total
    state["effects"] = effects
