"""The Ruleset interface every game implements, decisions, and the registry of rulesets by id.

A ruleset is pure: it never touches files, keys, mail or a random source. The core hands it
the state, the accepted orders, a `Dice` and the decision answers so far; it returns the new
state and the events. The same inputs give the same outputs, byte for byte.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
from abc import ABC, abstractmethod
from functools import lru_cache
from typing import Any, ClassVar, Generic, Mapping, Sequence, TypeVar

from . import options as option_words
from .chance import Dice, canonical_json
from .errors import PbemError, Problem
from .options import same_plain
from .records import FrozenRecord, set_field

State = dict[str, Any]
Event = dict[str, Any]
Context = TypeVar("Context")
STANDING_KEY = "standing"  # reserved top-level state key: side -> {topic: standing answer}


# The records below are hand-written frozen records (`pbem.core.records`), not dataclasses: every
# one-shot command imports this module, and no dataclass on its path means `dataclasses` and
# `inspect` are never imported. Compared, hashed and shown as the frozen dataclasses they were.


class Submission(FrozenRecord):
    """One side's accepted orders for the phase being resolved."""

    __slots__ = ("side", "orders", "standing")
    side: str
    orders: list[Any]
    standing: dict[str, Any]

    def __init__(self, side: str, orders: list[Any], standing: dict[str, Any] | None = None) -> None:
        set_field(self, "side", side)
        set_field(self, "orders", orders)
        set_field(self, "standing", {} if standing is None else standing)


class Resolution(FrozenRecord):
    """What resolving one phase produced."""

    __slots__ = ("state", "events")
    state: State
    events: list[Event]

    def __init__(self, state: State, events: list[Event]) -> None:
        set_field(self, "state", state)
        set_field(self, "events", events)


class DecisionRequest(FrozenRecord):
    """A choice a side must make in the middle of resolution (docs/protocol.md §4, Decisions).

    `question` and `options` go into a file only `side` receives: they must hold nothing the
    rules hide from that side.
    """

    __slots__ = ("index", "side", "topic", "section", "question", "options")
    index: int
    side: str
    topic: str
    section: str
    question: dict[str, Any]
    options: list[Any]

    def __init__(self, index: int, side: str, topic: str, section: str, question: dict[str, Any],
                 options: list[Any]) -> None:
        set_field(self, "index", index)
        set_field(self, "side", side)
        set_field(self, "topic", topic)
        set_field(self, "section", section)
        set_field(self, "question", question)
        set_field(self, "options", options)


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
            named = option_words.names(request.options, topic)
            raise PbemError(Problem(f"answer {option_words.show(answer)} is not one of the options", section=section,
                                    legal=option_words.summary(request.options, named)))
        return answer


def is_option(answer: Any, options: Sequence[Any]) -> bool:
    return any(same_plain(answer, option) for option in options)


def standing_answer(state: State, side: str, topic: str, default: Any = None) -> Any:
    """The standing answer a side gave for a decision topic, or the default."""
    return state.get(STANDING_KEY, {}).get(side, {}).get(topic, default)


class Ruleset(ABC, Generic[Context]):
    """One game's rules. Subclass, set the class attributes, implement the methods.

    A game's fixed data (map, tables, unit types) is prepared once: `setup(scenario)` gives the
    plain document every state and view of the game carries under `setup`, and `prepare(setup)`
    turns it into the ruleset's context, which the core passes back into every call that reads a
    state. A ruleset keeps no cache of its own between calls; what it derives lives in its context.
    """

    id: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    # The rule section that says which orders each phase takes: cited when an order is given in a
    # phase that does not take its kind (None: such problems cite no section).
    sequence_section: ClassVar[str | None] = None

    # --- set-up ---------------------------------------------------------------------------------
    @abstractmethod
    def sides(self, scenario: Mapping[str, Any]) -> list[str]:
        """The sides of this scenario, in the order game.yaml lists them."""

    def scenario_schema(self) -> dict[str, Any]:
        """JSON Schema of the scenario's ruleset part (the `setup` key)."""
        return {"type": "object"}

    def tables_schema(self) -> dict[str, Any] | None:
        """JSON Schema of the scenario's `tables:` overrides; None when the ruleset takes none."""
        return None

    def setup(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        """The plain setup a game carries in its states and views (under `setup`); {} for none.

        Called on a scenario the schemas accepted; raise PbemError for what they cannot check.
        """
        return {}

    def prepare(self, setup: Mapping[str, Any]) -> Context:
        """The context every other call receives, built once per game from its setup."""
        return None  # type: ignore[return-value]

    @abstractmethod
    def initial_state(self, context: Context, scenario: Mapping[str, Any]) -> State:
        """The public starting state; anything random or hidden happens in adjudication 1."""

    # --- the sequence ---------------------------------------------------------------------------
    @abstractmethod
    def phase(self, context: Context, state: State) -> str:
        """The name of the phase to be resolved next (orders name it in `phase`)."""

    @abstractmethod
    def awaiting(self, context: Context, state: State) -> list[str]:
        """Sides that must submit orders before the next phase resolves; [] for an automatic phase."""

    @abstractmethod
    def result(self, context: Context, state: State) -> dict[str, Any] | None:
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

    def misplaced(self, view: Mapping[str, Any] | None, orders: Sequence[Any], phase: str, tag: str,
                  within: str | None = None) -> Problem | None:
        """What to say of an order of kind `tag` in `phase`, whose schema takes no such kind; None: the core's words.

        Asked by `order_shapes` before it says "a TAG order is not allowed in PHASE" (with `sequence_section`).
        `orders` is the side's whole orders list and `view` its own view state (None when the caller has none);
        `within` is the kind of the order whose list holds this one (None: a top-level order). Only the
        answer's `message`, `section` and `legal` are read: the core locates it at the order's key. Judged
        from these alone, it can tell nothing the side's view hides.
        """
        return None

    def order_template(self, context: Context, view: State, side: str) -> list[str]:
        """The orders template's comment lines for `side`, which owes orders now (the core asks no other).

        Only what that side may order now: its order kinds with its own unit ids, and the legal hexes
        where they are few, all read from its own view. The default lists `order_kinds` of the phase.
        """
        return self.order_kinds(self.phase(context, view))

    @abstractmethod
    def validate(self, context: Context, view: State, side: str, orders: list[Any]) -> list[Problem]:
        """Every rule violation in `orders`, judged from the side's own view state only.

        The referee calls this with the same view the player got, so a rejection can never
        reveal what the view hides. Problems carry `order` (index), `section` and `legal`.
        """

    @abstractmethod
    def resolve(self, context: Context, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        """Resolve the current phase. Pure: randomness only through `dice`."""

    # --- fog of war -----------------------------------------------------------------------------
    @abstractmethod
    def view(self, context: Context, state: State, side: str) -> State:
        """What `side` may know of the state, built from an allow-list (no `standing` key)."""

    @abstractmethod
    def visible(self, context: Context, event: Event, side: str) -> Event | None:
        """The event as `side` may see it, or None."""

    # --- bots -----------------------------------------------------------------------------------
    def bot_orders(self, context: Context, view: State, side: str, seed: bytes) -> list[Any]:
        """Legal orders for `side` from its view alone; `seed` is the bot's own randomness."""
        return []

    def bot_answer(self, request: Mapping[str, Any], seed: bytes) -> Any:
        """An answer to a decision request, from the request alone (so it needs no context)."""
        return request["options"][0]

    # --- decisions ------------------------------------------------------------------------------
    def option_name(self, topic: str, option: Any) -> str | None:
        """A short name a player may answer with instead of the option (None: its number only).

        Read from the request alone. The core drops a name two options share or one that reads as
        a number of the list (`pbem.core.options`).
        """
        return option_words.default_name(option)

    # --- pictures and words ---------------------------------------------------------------------
    def picture(self, context: Context) -> Any:
        """The ruleset's picture adapter (`pbem.render.adapters.Adapter`), or None for no pictures."""
        return None


class Rules(FrozenRecord):
    """A ruleset bound to one game's prepared context: what the core calls once the setup is known."""

    __slots__ = ("ruleset", "setup", "context")
    ruleset: Ruleset[Any]
    setup: dict[str, Any]
    context: Any

    def __init__(self, ruleset: Ruleset[Any], setup: dict[str, Any], context: Any) -> None:
        set_field(self, "ruleset", ruleset)
        set_field(self, "setup", setup)
        set_field(self, "context", context)

    @property
    def id(self) -> str:
        return self.ruleset.id

    @property
    def version(self) -> str:
        return self.ruleset.version

    def start(self, scenario: Mapping[str, Any]) -> State:
        return self.ruleset.initial_state(self.context, scenario)

    def phase(self, state: State) -> str:
        return self.ruleset.phase(self.context, state)

    def awaiting(self, state: State) -> list[str]:
        return self.ruleset.awaiting(self.context, state)

    def result(self, state: State) -> dict[str, Any] | None:
        return self.ruleset.result(self.context, state)

    def validate(self, view: State, side: str, orders: list[Any]) -> list[Problem]:
        return self.ruleset.validate(self.context, view, side, orders)

    def resolve(self, state: State, submissions: Mapping[str, Submission | None], dice: Dice,
                decisions: Decisions) -> Resolution:
        return self.ruleset.resolve(self.context, state, submissions, dice, decisions)

    def view(self, state: State, side: str) -> State:
        return self.ruleset.view(self.context, state, side)

    def visible(self, event: Event, side: str) -> Event | None:
        return self.ruleset.visible(self.context, event, side)

    def bot_orders(self, view: State, side: str, seed: bytes) -> list[Any]:
        return self.ruleset.bot_orders(self.context, view, side, seed)

    def order_template(self, view: State, side: str) -> list[str]:
        return self.ruleset.order_template(self.context, view, side)

    def picture(self) -> Any:
        return self.ruleset.picture(self.context)


SETUP_KEY = "setup"  # reserved top-level key of states and views: the game's setup, the same in each


def bind(ruleset: Ruleset[Any], setup: Mapping[str, Any] | None) -> Rules:
    """The ruleset prepared for this setup (prepared once per distinct setup in a process)."""
    plain = dict(setup or {})
    return _bound(ruleset.id, ruleset.version, canonical_json(plain).decode("utf-8"), ruleset)


@lru_cache(maxsize=16)
def _bound(ruleset_id: str, version: str, setup_json: str, ruleset: Ruleset[Any]) -> Rules:
    setup = json.loads(setup_json)
    return Rules(ruleset, setup, ruleset.prepare(setup))


def rules_for(ruleset: Ruleset[Any], state: Mapping[str, Any]) -> Rules:
    """The ruleset bound to the setup a state or a view carries."""
    found = state.get(SETUP_KEY)
    return bind(ruleset, found if isinstance(found, Mapping) else None)


def start(ruleset: Ruleset[Any], scenario: Mapping[str, Any]) -> tuple[Rules, State]:
    """A scenario's rules and its initial state."""
    rules = bind(ruleset, ruleset.setup(scenario))
    return rules, rules.start(scenario)


# --- registry -------------------------------------------------------------------------------------

BUILTIN: dict[str, str] = {  # id -> "module:Class" of the shipped games
    "fbsm": "pbem.rulesets.fbsm:Fbsm",
    "toc": "pbem.rulesets.toc:Toc",
    "bob": "pbem.rulesets.bob:Bob",
    "bst": "pbem.rulesets.bst:Bst",
    "wtj1916": "pbem.rulesets.wtj1916:Wtj1916",
}
_loaded: dict[str, Ruleset[Any]] = {}
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
    from importlib.metadata import entry_points  # reads every installed package's metadata: only when asked

    targets = {name: BUILTIN[name] for name in shipped()}
    for ep in entry_points(group="pbem.rulesets"):
        targets.setdefault(ep.name, ep.value)
    for item in os.environ.get("PBEM_RULESETS", "").split(","):
        if "=" in item:
            name, target = item.split("=", 1)
            targets[name.strip()] = target.strip()
    targets.update(_extra)
    return targets


def _target_of(ruleset_id: str) -> dict[str, str]:
    """`_targets()`, or just the one entry for `ruleset_id` when the rest cannot change it.

    A built-in ruleset present in this install is only ever replaced by PBEM_RULESETS or
    `register`, never by an installed package's entry point, so for it the packages' metadata
    need not be read.
    """
    named = {name.strip(): target.strip() for name, _, target in
             (item.partition("=") for item in os.environ.get("PBEM_RULESETS", "").split(",") if "=" in item)}
    if ruleset_id in _extra:
        return {ruleset_id: _extra[ruleset_id]}
    if ruleset_id in named:
        return {ruleset_id: named[ruleset_id]}
    if ruleset_id in BUILTIN and _installed(BUILTIN[ruleset_id]):
        return {ruleset_id: BUILTIN[ruleset_id]}
    return _targets()


def available() -> list[str]:
    return sorted(_targets())


def get(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset with this id; PbemError naming the known ids otherwise."""
    if ruleset_id in _loaded:
        return _loaded[ruleset_id]
    targets = _target_of(ruleset_id)
    if ruleset_id not in targets:
        known = ", ".join(sorted(targets)) or "none"
        raise PbemError(f"unknown ruleset {ruleset_id!r}; known: {known}")
    module_name, _, class_name = targets[ruleset_id].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    instance: Ruleset[Any] = cls()
    if instance.id != ruleset_id:
        raise PbemError(f"{targets[ruleset_id]} declares id {instance.id!r}, registered as {ruleset_id!r}")
    _loaded[ruleset_id] = instance
    return instance
