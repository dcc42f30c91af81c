"""A view in plain words: one line per event, the line for what comes next, and the report.

The report is built from the view alone (what the side may know), so mailing it to that side
can never leak. A ruleset with pictures (`Ruleset.picture`) may say an event in its own
sentence and the state in its own lines; every other event, and every view of a ruleset
without pictures, gets the generic line: its type, its fields, its rule section.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.api import yamlio

from .adapters import Adapter, adapter_for


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, (dict, list)):
        return yamlio.dump(value).strip().replace("\n", "; ") if value else "[]" if isinstance(value, list) else "{}"
    return str(value)


def event_line(event: Mapping[str, Any]) -> str:
    """One event as a line: its type, then its fields, then its rule section."""
    kind = event.get("type", "event")
    fields = ", ".join(f"{key} {_value(value)}" for key, value in event.items() if key not in ("type", "section"))
    section = f" ({event['section']})" if event.get("section") else ""
    return f"{kind}: {fields}{section}" if fields else f"{kind}{section}"


def next_line(next_: Mapping[str, Any]) -> str:
    """The `next` block of a view as a line: the phase and who owes orders, or the result."""
    if "result" in next_:
        result = next_["result"]
        winner = result.get("winner") if isinstance(result, dict) else None
        reason = result.get("reason", "") if isinstance(result, dict) else ""
        return f"Game over: {'winner ' + str(winner) if winner else 'no winner'}" + (f" ({reason})" if reason else "")
    awaiting = ", ".join(next_.get("awaiting", [])) or "nobody"
    return f"Next: phase {next_.get('phase')}, orders awaited from {awaiting}"


def deadline_line(next_: Mapping[str, Any]) -> str | None:
    """When the orders of the next phase are due (docs/protocol.md §4a), as the view states it; None without one."""
    deadline = next_.get("deadline")
    if deadline is None or "result" in next_:
        return None
    return f"Deadline: {deadline} (UTC); orders that arrive later do not count (docs/protocol.md §10)"


def _sentence(adapter: Adapter | None, event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    said = adapter.sentence(event, view) if adapter else None
    return said or event_line(event)


def report(view: Mapping[str, Any], fmt: str = "text") -> str:
    """The last adjudication as sentences citing rule sections, the state in a few lines, what is next."""
    if fmt not in ("text", "markdown"):
        raise ValueError(f"unknown report format {fmt!r} (text or markdown)")
    adapter = adapter_for(view)
    md = fmt == "markdown"
    side = adapter.side_name(view.get("side")) if adapter else str(view.get("side"))
    ruleset = view.get("ruleset") or {}
    head = (f"{view.get('game')}: adjudication {view.get('seq')} as the {side} side sees it "
            f"({ruleset.get('id')} {ruleset.get('version')})")
    lines = [f"# {head}" if md else head]
    if view.get("phases"):
        lines.append("Phases resolved: " + ", ".join(view["phases"]))

    def section(title: str) -> None:
        lines.append("")
        lines.append(f"## {title}" if md else f"{title}:")

    said = [_sentence(adapter, e, view) for e in view.get("events") or []] + (adapter.seen(view) if adapter else [])
    section("What happened")
    if said:
        lines += [f"- {line}" if md else f"  - {line}" for line in said]
    else:
        lines.append("Nothing happened that you may see." if md else "  Nothing happened that you may see.")
    section("Where things stand")
    state_lines = adapter.state_lines(view) if adapter else []
    if not state_lines:
        state = view.get("state") or {}
        state_lines = [f"{k}: {state[k]}" for k in ("turn", "phase") if k in state]
    lines += [f"- {line}" if md else f"  {line}" for line in state_lines]
    section("What comes next")
    nxt = next_line(view.get("next") or {})
    lines.append(nxt if md else f"  {nxt}")
    deadline = deadline_line(view.get("next") or {})
    if deadline:
        lines.append(f"\n{deadline}" if md else f"  {deadline}")
    return "\n".join(lines) + "\n"


__all__ = ["deadline_line", "event_line", "next_line", "report"]
