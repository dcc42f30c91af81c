"""The report of a view in plain words: what happened, where things stand, what comes next."""

from __future__ import annotations

from typing import Any, Mapping

from pbem.mail.report import event_line, next_line

from .adapters import adapter_for


def _sentence(adapter: Any, event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    said = adapter.sentence(event, view) if adapter else None
    return said or event_line(event)


def report(view: Mapping[str, Any], fmt: str = "text") -> str:
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
        lines.append(("Phases resolved: " if not md else "Phases resolved: ") + ", ".join(view["phases"]))

    def section(title: str) -> None:
        lines.append("")
        lines.append(f"## {title}" if md else f"{title}:")

    events = view.get("events") or []
    section("What happened")
    if events:
        lines += [f"- {_sentence(adapter, e, view)}" if md else f"  - {_sentence(adapter, e, view)}" for e in events]
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
    return "\n".join(lines) + "\n"
