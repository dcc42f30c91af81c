"""Hostile input is refused by counting work, never by timing it (speed is measured in bench/).

`metered()` wraps the few steps whose cost a hostile file could blow up and counts their work,
the same on any machine however loaded:

- every YAML parse: the events it yields, the nodes among them (scalars, aliases, lists and mappings:
  the node bound stops a parse at `yamlio.MAX_NODES` + 1) and the length of the text handed to it
  (`yamlio.MAX_FILE_BYTES`);
- the orders an orders file hands to its checks: the phase's schema fetched for the items
  (`orders.orders_schema`) and the orders given to the ruleset's `validate`;
- the schema errors `schemas.problems` takes from jsonschema and the problems it explains (both
  stop after `schemas.MAX_PROBLEMS`);
- the lines an armored-block scan walks (`signing._Block.next`: bounded by the scan's budget) and
  the blocks it returns (`signing.MAX_ARMORED_BLOCKS`);
- signature verifications (`signing.verify`);
- the peak of Python memory allocated inside the block (tracemalloc), when asked for.

The tests below prove each counter counts: a meter that saw nothing would make every bound pass.
"""

from __future__ import annotations

import contextlib
import tracemalloc
from dataclasses import dataclass, field
from typing import Any, Iterator

import pytest
import yaml

from pbem.core import orders, ruleset, schemafiles, schemas, signing, yamlio
from pbem.core.errors import SignatureError

MOST_NODES = yamlio.MAX_NODES + 1
"""The most nodes one parse may yield: the builder stops at the first one over `yamlio.MAX_NODES`
(taken when this module is imported, so a test that lifts the bound is still held to it)."""

_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)


@dataclass
class Meter:
    """Work counted while `metered()` was open."""

    parses: int = 0
    events: int = 0  # over all parses
    most_nodes: int = 0  # node events in one parse
    longest_text: int = 0  # characters handed to one parse
    item_schemas: int = 0  # times the phase's schema was fetched to check an orders file's items
    orders_validated: int = 0  # orders handed to a ruleset's validate
    schema_errors: int = 0  # errors taken from jsonschema's iter_errors by schemas.problems
    problems_explained: int = 0  # schema errors turned into sentences
    armored_lines: int = 0  # lines walked by armored-block scans
    most_blocks: int = 0  # blocks one read_armored call returned
    signatures: int = 0  # signature verifications
    peak_bytes: int | None = None  # tracemalloc's peak inside the block (when traced)
    per_parse: list[int] = field(default_factory=list)  # node events of each parse

    def within_bounds(self, what: str) -> None:
        """Assert the bounds every call must keep, whatever its input."""
        assert self.most_nodes <= MOST_NODES, f"{what}: one parse yielded {self.most_nodes} YAML nodes"
        assert self.longest_text <= yamlio.MAX_FILE_BYTES, f"{what}: parsed a text of {self.longest_text} characters"
        assert self.most_blocks <= signing.MAX_ARMORED_BLOCKS + 1, f"{what}: read {self.most_blocks} armored blocks"


def _counted(meter: Meter, name: str, real: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        setattr(meter, name, getattr(meter, name) + 1)
        return real(*args, **kwargs)
    return wrapper


@contextlib.contextmanager
def metered(*, memory: bool = False) -> Iterator[Meter]:
    """Count the work of the block (see the module's docstring); `memory` also traces allocations."""
    meter = Meter()
    real_parse = yaml.parse

    def parse(stream: Any, Loader: Any = yaml.SafeLoader) -> Iterator[Any]:  # noqa: N803 - PyYAML's name
        meter.parses += 1
        meter.longest_text = max(meter.longest_text, len(stream))
        meter.per_parse.append(0)
        for event in real_parse(stream, Loader=Loader):
            meter.events += 1
            if isinstance(event, _NODE_EVENTS):
                meter.per_parse[-1] += 1
                meter.most_nodes = max(meter.most_nodes, meter.per_parse[-1])
            yield event

    real_validate = ruleset.Rules.validate

    def validate(self: ruleset.Rules, view: Any, side: str, given: list[Any]) -> Any:
        meter.orders_validated += len(given)
        return real_validate(self, view, side, given)

    real_explain = schemas._explain

    def explain(*args: Any, **kwargs: Any) -> Any:
        found = list(real_explain(*args, **kwargs))
        meter.problems_explained += len(found)
        return found

    real_leaves = schemas._leaves

    def leaves(error: Any) -> Any:
        meter.schema_errors += 1
        return real_leaves(error)

    real_next = signing._Block.next

    def walk(self: Any) -> bytes:
        meter.armored_lines += 1
        return real_next(self)

    real_read_armored = signing.read_armored

    def read_armored(*args: Any, **kwargs: Any) -> list[signing.ArmoredBlock]:
        blocks = real_read_armored(*args, **kwargs)
        meter.most_blocks = max(meter.most_blocks, len(blocks))
        return blocks

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yaml, "parse", parse)
        patch.setattr(orders, "orders_schema", _counted(meter, "item_schemas", schemafiles.orders_schema))
        patch.setattr(ruleset.Rules, "validate", validate)
        patch.setattr(schemas, "_explain", explain)
        patch.setattr(schemas, "_leaves", leaves)
        patch.setattr(signing._Block, "next", walk)
        patch.setattr(signing, "read_armored", read_armored)
        patch.setattr(signing, "verify", _counted(meter, "signatures", signing.verify))
        if not memory:
            yield meter
            return
        tracing = tracemalloc.is_tracing()
        if not tracing:
            tracemalloc.start()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            yield meter
        finally:
            meter.peak_bytes = tracemalloc.get_traced_memory()[1] - base
            if not tracing:
                tracemalloc.stop()


# --- the meter counts ------------------------------------------------------------------------------------


def test_the_meter_counts_parses_events_and_text() -> None:
    with metered() as meter:
        yamlio.load_bytes(b"a: [1, 2]\nb: x\n", "t.yaml")
    assert meter.parses == 1 and meter.longest_text == len("a: [1, 2]\nb: x\n")
    # 13 events: stream, document, mapping start and end, a, sequence start, 1, 2, sequence end, b, x, document end,
    # stream end; 7 of them nodes (the mapping, a, the list, 1, 2, b, x)
    assert meter.events == 13 and meter.most_nodes == 7
    meter.within_bounds("a small file")


def test_the_meter_sees_a_parse_over_the_node_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    flood = b"# a flood\n" + b"- 1\n" * (yamlio.MAX_NODES + 10)  # a comment: no canonical text, so parsed
    monkeypatch.setattr(yamlio, "MAX_NODES", 10**9)  # the bound removed: a parse may yield any number of events
    with metered() as meter:
        yamlio.load_bytes(flood, "flood.yaml", max_bytes=len(flood))
    assert meter.most_nodes == MOST_NODES + 10  # the items and their list
    with pytest.raises(AssertionError, match="YAML nodes"):
        meter.within_bounds("the flood")


def test_the_meter_counts_schema_problems_and_armored_lines_and_signatures() -> None:
    doc = yamlio.load_bytes(b"items: [1, 2, 3]\n", "x.yaml")
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}}
    carrier = b"-----BEGIN PBEM SIGNED FILE-----\n\nx: 1\n-----BEGIN SSH SIGNATURE-----\nAAAA\n" \
              b"-----END SSH SIGNATURE-----\n-----END PBEM SIGNED FILE-----\n"
    with metered(memory=True) as meter:
        assert len(schemas.problems(doc, schema)) == 3
        [block] = signing.read_armored(carrier)
        with pytest.raises(SignatureError):
            signing.verify(block.text, "not a signature", "pbem-orders@some-game", {})
    assert meter.schema_errors == meter.problems_explained == 3
    assert meter.armored_lines == 6 and meter.most_blocks == 1
    assert meter.signatures == 1
    assert meter.peak_bytes is not None and meter.peak_bytes > 0
