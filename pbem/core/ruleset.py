"""The Ruleset interface every game implements, decisions, and the registry of rulesets by id.

A ruleset is pure: it never touches files, keys, mail or a random source. The core hands it
the state, the accepted orders, a `Dice` and the decision answers so far; it returns the new
state and the events. The same inputs give the same outputs, byte for byte.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, ClassVar, Mapping, Sequence

from .chance import Dice, canonical_json
from .errors import PbemError, Problem

State = dict[str, Any]
Event = dict[str, Any]
STANDING_KEY = "standing"  # reserved top-level state key: side -> {topic: standing answer}


@dataclass(frozen=True)
class Submission:
    """One side's accepted orders for the phase being resolved."""

    side: str
    orders: list[Any]
    standing: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolution:
    """What resolving one phase produced."""

    state: State
    events: list[Event]


@dataclass(frozen=True)
class DecisionRequest:
    """A choice a side must make in the middle of resolution (docs/protocol.md §4, Decisions).

    `question` and `options` go into a file only `side` receives: they must hold nothing the
    rules hide from that side.
    """

    index: int
    side: str
    topic: str
    section: str
    question: dict[str, Any]
    options: list[Any]


class DecisionNeeded(Exception):
    """Raised out of `resolve` when a side must choose and nothing answers for it yet."""

    def __init__(self, request: DecisionRequest) -> None:
        super().__init__(f"decision {request.index} needed from {request.side}: {request.topic}")
        self.request = request


class Decisions:
    """The answers known so far in one adjudication, keyed by the order in which rules asked.

    Because resolution is replayed from the start with the same seed, the j-th question is
    the same question every time, so its answer can be matched by index.
    """

    def __init__(self, answers: Mapping[int, Any] | None = None) -> None:
        self._answers = dict(answers or {})
        self.asked: list[DecisionRequest] = []

    def ask(self, side: str, topic: str, section: str, question: dict[str, Any], options: Sequence[Any]) -> Any:
        """The answer to this question, or DecisionNeeded.

        `options[0]` must be the answer the rules give when the side does not choose (what the
        default standing answer would pick): a request unanswered by its deadline lapses to it.
        """
        if not options:
            raise PbemError(Problem(f"the ruleset asked {side} about {topic} with no option to choose: a ruleset "
                                    "bug; nothing was written", section=section))
        request = DecisionRequest(len(self.asked), side, topic, section, question, list(options))
        self.asked.append(request)
        if request.index not in self._answers:
            raise DecisionNeeded(request)
        answer = self._answers[request.index]
        if not is_option(answer, request.options):
            raise PbemError(Problem(f"answer {answer!r} is not one of the options", section=section,
                                    legal=", ".join(repr(o) for o in request.options)))
        return answer


def same_plain(a: Any, b: Any) -> bool:
    """Equality that tells types apart: `true` is not the option 1, nor `"1"` the option 1."""
    return canonical_json(a) == canonical_json(b)


def is_option(answer: Any, options: Sequence[Any]) -> bool:
    return any(same_plain(answer, option) for option in options)


def standing_answer(state: State, side: str, topic: str, default: Any = None) -> Any:
    """The standing answer a side gave for a decision topic, or the default."""
    return state.get(STANDING_KEY, {}).get(side, {}).get(topic, default)


class Ruleset(ABC):
    """One game's rules. Subclass, set the class attributes, implement the methods."""

    id: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]

    # --- set-up ---------------------------------------------------------------------------------
    @abstractmethod
    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        """The sides of this scenario, in the order game.yaml lists them."""

    def scenario_schema(self) -> dict[str, Any]:
        """JSON Schema of the scenario's ruleset part (the `setup` key)."""
        return {"type": "object"}

    @abstractmethod
    def initial_state(self, scenario: Mapping[str, Any]) -> State:
        """The public starting state; anything random or hidden happens in adjudication 1."""

    # --- the sequence ---------------------------------------------------------------------------
    @abstractmethod
    def phase(self, state: State) -> str:
        """The name of the phase to be resolved next (orders name it in `phase`)."""

    @abstractmethod
    def awaiting(self, state: State) -> list[str]:
        """Sides that must submit orders before the next phase resolves; [] for an automatic phase."""

    @abstractmethod
    def result(self, state: State) -> dict[str, Any] | None:
        """The game's result once it is over (winner, reason, rule section); None while it goes on."""

    @abstractmethod
    def phase_names(self) -> list[str]:
        """Every phase name `phase()` can return, in sequence order."""

    # --- orders ---------------------------------------------------------------------------------
    @abstractmethod
    def order_schema(self, phase: str) -> dict[str, Any]:
        """JSON Schema for the `orders` list of this phase."""

    def standing_schema(self) -> dict[str, Any]:
        """JSON Schema for the `standing:` block any orders file may carry."""
        return {"type": "object", "additionalProperties": False}

    def order_kinds(self, phase: str) -> list[str]:
        """One line per legal order kind in this phase, for the orders template's comments."""
        return []

    @abstractmethod
    def validate(self, view: State, side: str, orders: list[Any]) -> list[Problem]:
        """Every rule violation in `orders`, judged from the side's own view state only.

        The referee calls this with the same view the player got, so a rejection can never
        reveal what the view hides. Problems carry `order` (index), `section` and `legal`.
        """

    @abstractmethod
    def resolve(self, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        """Resolve the current phase. Pure: randomness only through `dice`."""

    # --- fog of war -----------------------------------------------------------------------------
    @abstractmethod
    def view(self, state: State, side: str) -> State:
        """What `side` may know of the state, built from an allow-list (no `standing` key)."""

    @abstractmethod
    def visible(self, event: Event, side: str) -> Event | None:
        """The event as `side` may see it, or None."""

    # --- bots -----------------------------------------------------------------------------------
    def bot_orders(self, view: State, side: str, seed: bytes) -> list[Any]:
        """Legal orders for `side` from its view alone; `seed` is the bot's own randomness."""
        return []

    def bot_answer(self, request: Mapping[str, Any], seed: bytes) -> Any:
        """An answer to a decision request, from the request alone."""
        return request["options"][0]


# --- registry -------------------------------------------------------------------------------------

BUILTIN: dict[str, str] = {  # id -> "module:Class" of the shipped games
    "fbsm": "pbem.rulesets.fbsm:Fbsm",
    "toc": "pbem.rulesets.toc:Toc",
}
_loaded: dict[str, Ruleset] = {}
_extra: dict[str, str] = {}


def register(ruleset_id: str, target: str) -> None:
    """Make a ruleset available by id; target is "package.module:ClassName"."""
    _extra[ruleset_id] = target
    _loaded.pop(ruleset_id, None)


def _installed(target: str) -> bool:
    """Whether a target's module exists in this install (without importing it)."""
    module_name = target.partition(":")[0]
    try:
        return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:
        return False


def shipped() -> list[str]:
    """Ids of the built-in rulesets present in this install."""
    return sorted(name for name, target in BUILTIN.items() if _installed(target))


def _targets() -> dict[str, str]:
    targets = {name: BUILTIN[name] for name in shipped()}
    for ep in entry_points(group="pbem.rulesets"):
        targets.setdefault(ep.name, ep.value)
    for item in os.environ.get("PBEM_RULESETS", "").split(","):
        if "=" in item:
            name, target = item.split("=", 1)
            targets[name.strip()] = target.strip()
    targets.update(_extra)
    return targets


def available() -> list[str]:
    return sorted(_targets())


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; PbemError naming the known ids otherwise."""
    if ruleset_id in _loaded:
        return _loaded[ruleset_id]
    targets = _targets()
    if ruleset_id not in targets:
        known = ", ".join(sorted(targets)) or "none"
        raise PbemError(f"unknown ruleset {ruleset_id!r}; known: {known}")
    module_name, _, class_name = targets[ruleset_id].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    instance: Ruleset = cls()
    if instance.id != ruleset_id:
        raise PbemError(f"{targets[ruleset_id]} declares id {instance.id!r}, registered as {ruleset_id!r}")
    _loaded[ruleset_id] = instance
    return instance
