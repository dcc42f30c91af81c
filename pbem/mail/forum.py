"""Forum play: the public post of a turn, what every side may see (a spectator's view).

The core has no spectator side, so the post is computed from what *every* side is shown, and
nothing else:

- an event is posted only if `visible(event, side)` gives the master event itself, unchanged,
  for every side (an event some side sees only in part, or not at all, stays out whole);
- a roll is posted only if every side sees it (no `seen_by`, or `seen_by` naming every side);
- a top-level key of the state is posted only if every side's view holds that key with
  exactly the master state's value (so `turn` or `phase` are posted, but a key such as
  duel's `own`, which means something different in each side's view, never is);
- the dice inputs (seed, phase seed, each side's entropy and order hash), the master file's
  hash and `next` are in every view by construction (core/views.py).

Every fact in the post is therefore a fact each side's own view states in the same words, so
the post cannot tell any side what its view hides. No ruleset hook can widen it: a public
fact is one every view already states.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.api import (STANDING_KEY, ArchiveView, PbemError, Rules, State, file_hash, load_game, public_next,
                        rules_for, seq_dir, turn_record)
from .compose import Part
from .deadlines import schedule
from .markup import FORMATS
from .post import render
from .report import map_picture
from .state import JudgeState, iso


@dataclass(frozen=True)
class PublicTurn:
    game: str
    ruleset: str  # its id
    version: str  # as the views name it (ruleset.version)
    title: str  # the ruleset's title: the game's name
    sides: list[str]
    seq: int
    phases: list[str]
    events: list[dict[str, Any]]
    rolls: list[dict[str, Any]]
    state: dict[str, Any]
    next: dict[str, Any]
    master_hash: str | None
    seed: str | None
    phase_seed: str | None
    orders: list[dict[str, Any]]
    deadline: str | None

    def spectator_doc(self) -> dict[str, Any]:
        """The post's content shaped like a view (side `spectators`), for the words and the map of pbem.render."""
        return {"pbem": 2, "kind": "view", "game": self.game, "ruleset": {"id": self.ruleset, "version": self.version},
                "seq": self.seq, "side": "spectators", "phases": self.phases, "events": self.events,
                "state": self.state, "next": self.next,
                "dice": {"seed": self.seed, "phase_seed": self.phase_seed, "rolls": self.rolls}}


_ABSENT = object()


def public_state(rules: Rules, state: State, sides: list[str]) -> dict[str, Any]:
    views = [rules.view(state, side) for side in sides]
    return {key: value for key, value in state.items()
            if key != STANDING_KEY and all(view.get(key, _ABSENT) == value for view in views)}


def public_events(rules: Rules, events: list[dict[str, Any]], sides: list[str]) -> list[dict[str, Any]]:
    return [event for event in events if all(rules.visible(event, side) == event for side in sides)]


def public_rolls(rolls: list[dict[str, Any]], sides: list[str]) -> list[dict[str, Any]]:
    shown = []
    for roll in rolls:
        seen = roll.get("seen_by")
        if seen is None or set(sides) <= set(seen):
            shown.append({key: roll[key] for key in ("i", "n", "value", "for")})
    return shown


def public_turn(game_dir: Path | str, seq: int | None = None) -> PublicTurn:
    game = load_game(game_dir)
    ruleset = game.ruleset
    latest = ArchiveView(game_dir).latest_seq()
    seq = latest if seq is None else seq
    if not 0 <= seq <= latest:
        raise PbemError(f"adjudication {seq} does not exist (done: {latest})")
    turn, data = turn_record(game, seq)
    state = turn["state"]
    master_hash = file_hash(data) if data is not None else None
    sides = game.sides
    rules = rules_for(ruleset, state)
    orders = [{key: entry[key] for key in ("side", "status", "hash") if key in entry} for entry in turn["orders"]]
    deadline = turn["next"].get("deadline")  # version 2: the deadline the referee signed
    plan = schedule(game.settings())
    opened = JudgeState(game_dir).opened(seq + 1) if plan and deadline is None else None
    if plan and opened and "result" not in turn["next"]:
        deadline = iso(plan.due_at(opened))
    return PublicTurn(game.id, ruleset.id, ruleset.version, getattr(ruleset, "title", ruleset.id), list(sides), seq,
                      list(turn["phases"]), public_events(rules, turn["events"], sides),
                      public_rolls(turn["dice"]["rolls"], sides), public_state(rules, state, sides),
                      public_next(turn["next"]), master_hash, turn["dice"].get("seed"), turn["dice"].get("phase_seed"),
                      orders, deadline)


def picture(turn: PublicTurn) -> Part | None:
    """The public map (pbem.render on the spectator document), or None when the ruleset draws none."""
    return map_picture(turn.spectator_doc(), f"{turn.game}-{seq_dir(turn.seq)}-public-map")


def write_post(game_dir: Path | str, fmt: str, out: Path | None = None, seq: int | None = None) -> tuple[str, list[Path]]:
    """The post's text, and the files written: with `out`, the post and, where the ruleset draws
    one, the public map beside it (the post shows it by that name)."""
    if fmt not in FORMATS:
        raise PbemError(f"format {fmt!r}: use one of {', '.join(FORMATS)}")
    turn = public_turn(game_dir, seq)
    written: list[Path] = []
    name = None
    if out is not None:
        part = picture(turn)
        if part is not None:
            path = out.parent / part.name
            path.write_bytes(part.data)
            written.append(path)
            name = part.name
    text = render(turn, fmt, name)
    if out is not None:
        out.write_text(text, encoding="utf-8")
        written.insert(0, out)
    return text, written


__all__ = ["PublicTurn", "picture", "public_events", "public_rolls", "public_state", "public_turn", "render",
           "write_post"]
