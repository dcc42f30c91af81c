"""Where a game stands: the last committed turn (or the start), what it awaits, what is in."""

from __future__ import annotations

from typing import Any, NamedTuple

from . import chance
from .archive import Archive, turn_rel, view_rel
from .doccache import load_checked, verified_signer
from .game import Game, initial_state, next_block
from .orders import Expectation
from .ruleset import Ruleset, Rules, State, rules_for


def load_turn(archive: Archive, game: Game, seq: int) -> tuple[dict[str, Any], bytes]:
    """Turn file `seq`, its referee signature checked."""
    stored = archive.read_signed(turn_rel(seq))
    verified_signer(stored.data, stored.signature, game.turn_namespace(), {"referee": game.referee_key},
                    file=stored.rel)
    return load_checked(stored.data, stored.rel, "turn"), stored.data


class Position(NamedTuple):  # not a dataclass: a tenth of the cost to create at import
    """The game after its last committed adjudication."""

    game: Game
    seq: int  # last committed adjudication (0 before the first)
    state: State
    previous_hash: str  # file hash of turn `seq` (game.yaml for 0): `previous` of the next turn
    deadline: str | None = None  # the orders deadline its views announced (docs/protocol.md §4a), if any

    @property
    def ruleset(self) -> Ruleset[Any]:
        return self.game.ruleset

    @property
    def rules(self) -> Rules:
        return rules_for(self.game.ruleset, self.state)

    @property
    def next_seq(self) -> int:
        return self.seq + 1

    def next(self) -> dict[str, Any]:
        return next_block(self.rules, self.state)

    def over(self) -> bool:
        return self.rules.result(self.state) is not None

    def awaiting(self) -> list[str]:
        return [] if self.over() else self.rules.awaiting(self.state)

    def view_hash(self, side: str) -> str:
        """What the side's next orders must ack: its view `seq`, or game.yaml before any turn."""
        if self.seq == 0:
            return self.game.hash
        return chance.file_hash(Archive(self.game.root).read(view_rel(self.seq, side)))

    def expectation(self, side: str) -> Expectation:
        archive = Archive(self.game.root)
        closed = None
        if self.over():
            closed = "the game is over; no more orders are taken"
        elif self.next_seq > self.game.chain_length:
            closed = (f"the seed chain's {self.game.chain_length} links are all used: the game cannot go on "
                      "(docs/protocol.md §3)")
        elif archive.decision_requests(self.next_seq):
            closed = (f"adjudication {self.next_seq} is under way (waiting for a decision); "
                      "orders for it can no longer change")
        return Expectation(self.game.id, self.next_seq, side, "" if self.over() else self.rules.phase(self.state),
                           self.view_hash(side), tuple(self.awaiting()), closed)


def current_position(game: Game, latest: int | None = None, archive: Archive | None = None) -> Position:
    """`latest`: the last committed seq, if the caller listed it under the referee lock (`Archive.locked`);
    `archive`: the caller's `Archive` of the game, if it has one."""
    archive = Archive(game.root) if archive is None else archive
    seq = archive.latest_seq() if latest is None else latest
    if seq == 0:
        return Position(game, 0, initial_state(game), game.hash, announced_deadline(archive, game))
    turn, data = load_turn(archive, game, seq)
    return Position(game, seq, turn["state"], chance.file_hash(data), turn["next"].get("deadline"))


def orders_deadline(game: Game, seq: int) -> str | None:
    """The deadline announced for the orders of adjudication `seq`: by view 0 for seq 1, else by turn seq-1."""
    archive = Archive(game.root)
    if seq <= 1:
        return announced_deadline(archive, game)
    deadline = load_turn(archive, game, seq - 1)[0]["next"].get("deadline")
    return str(deadline) if deadline is not None else None


def announced_deadline(archive: Archive, game: Game) -> str | None:
    """The deadline view 0 announced for the first orders (every side's view 0 says the same)."""
    rel = view_rel(0, game.sides[0])
    stored = archive.read_signed(rel)
    verified_signer(stored.data, stored.signature, game.turn_namespace(), {"referee": game.referee_key}, file=rel)
    deadline = load_checked(stored.data, rel, "view")["next"].get("deadline")
    return str(deadline) if deadline is not None else None
