"""The desk's standing answers: the rows the page offers, read off the game's standing schema, and the
`standing:` block of the orders file built from the rows changed.

A topic whose answer is one word (toc's `advance`) is one row named after it. A topic whose answer
maps keys to words (bst's `opfire: {UNIT: TRIGGER}`) is one row per key the game's clicking rules
name (`standing_keys`), named `topic.key`; when one alternative of the value is a mapping of one
whole number (`{within: N}`), the row says so and the page offers a number box for it.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.core.api import UsageError

KeysFor = Callable[[str], list[str] | None]


def words(rule: Mapping[str, Any]) -> list[Any]:
    """The words an answer may be: its `enum`, or the `enum` among its `oneOf` alternatives."""
    if "enum" in rule:
        return list(rule["enum"])
    return next((list(alt["enum"]) for alt in rule.get("oneOf", []) if "enum" in alt), [])


def number(rule: Mapping[str, Any]) -> dict[str, Any] | None:
    """The one-number alternative of an answer (`{within: N}`): its key and bounds, or None."""
    for alt in rule.get("oneOf", []):
        props = alt.get("properties", {})
        if alt.get("type") == "object" and len(props) == 1 and alt.get("required") == list(props):
            (key, inner), = props.items()
            if inner.get("type") == "integer":
                return {"key": key, "minimum": inner.get("minimum"), "maximum": inner.get("maximum")}
    return None


def _per_key(rule: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The value schema of a topic that maps keys to answers, when its answers include words."""
    inner = rule.get("additionalProperties")
    if rule.get("type") == "object" and isinstance(inner, Mapping) and words(inner):
        return inner
    return None


def choices(schema: Mapping[str, Any], held: Mapping[str, Any], keys_for: KeysFor) -> list[dict[str, Any]]:
    """Each row the page offers: its name, words, number box, what it means and what holds now."""
    rows: list[dict[str, Any]] = []
    for topic, rule in schema.get("properties", {}).items():
        described = str(rule.get("description", ""))
        if "enum" in rule:
            rows.append({"name": topic, "topic": topic, "key": None, "values": list(rule["enum"]), "number": None,
                         "description": described, "current": held.get(topic)})
            continue
        inner = _per_key(rule)
        if inner is None:
            continue
        now = held.get(topic)
        now = now if isinstance(now, Mapping) else {}
        for key in keys_for(topic) or []:
            rows.append({"name": f"{topic}.{key}", "topic": topic, "key": key, "values": words(inner),
                         "number": number(inner), "description": described, "current": now.get(key)})
    return rows


def block(changed: Mapping[str, Any], held: Mapping[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    """The file's `standing:` block for the rows changed, topics in the schema's order.

    The referee replaces a side's answer to a topic whole (pbem/core/adjudicator.py), so a per-key
    topic is written with the answers the view holds for its other keys, and its keys sorted: the
    same choices give the same bytes whatever the order of the clicks."""
    out: dict[str, Any] = {}
    for name, answer in changed.items():
        topic, dot, key = name.partition(".")
        if not dot:
            out[name] = answer
            continue
        kept = held.get(topic)
        inner = out.setdefault(topic, dict(kept) if isinstance(kept, Mapping) else {})
        if not isinstance(inner, dict):
            raise UsageError(f"{topic!r} is answered whole and by key at once: send one or the other")
        inner[key] = answer
    order = list(schema.get("properties", {}))
    ranked = sorted(out, key=lambda t: (order.index(t) if t in order else len(order), t))
    return {t: dict(sorted(out[t].items())) if isinstance(out[t], dict) else out[t] for t in ranked}


__all__ = ["block", "choices", "number", "words"]
