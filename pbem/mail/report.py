"""The plain-text report of a view, and its map picture when the pictures module is installed.

The report is built from the view alone (what the side may know), so mailing it to that side
can never leak. When `pbem.render` (the pictures issue) is present and offers
`report_text(view) -> str` and `map_svg(view) -> str`, the judge uses them; otherwise it writes
the generic report below and sends no picture.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Callable, Mapping

from ..core import yamlio
from .compose import Part


def _render_hook(name: str) -> Callable[..., Any] | None:
    try:
        if importlib.util.find_spec("pbem.render") is None:
            return None
        module = importlib.import_module("pbem.render")
    except Exception:
        return None
    hook = getattr(module, name, None)
    return hook if callable(hook) else None


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
    if "result" in next_:
        result = next_["result"]
        winner = result.get("winner") if isinstance(result, dict) else None
        reason = result.get("reason", "") if isinstance(result, dict) else ""
        return f"Game over: {'winner ' + str(winner) if winner else 'no winner'}" + (f" ({reason})" if reason else "")
    awaiting = ", ".join(next_.get("awaiting", [])) or "nobody"
    return f"Next: phase {next_.get('phase')!r}, orders awaited from {awaiting}"


def generic_report(view: Mapping[str, Any]) -> str:
    lines = [f"Game {view['game']} ({view['ruleset']['id']} {view['ruleset']['version']}), "
             f"adjudication {view['seq']}, as {view['side']} sees it"]
    if view.get("phases"):
        lines.append("Phases resolved: " + ", ".join(view["phases"]))
    events = view.get("events") or []
    if events:
        lines.append("")
        lines.append("What happened:")
        lines += [f"  - {event_line(event)}" for event in events]
    rolls = view.get("dice", {}).get("rolls") or []
    if rolls:
        lines.append("")
        lines.append(f"Rolls you may see (phase seed {view['dice']['phase_seed']}):")
        lines += [f"  #{roll['i']}: {roll['value'] + 1} on 1-{roll['n']} ({roll['for']})" for roll in rolls]
    lines.append("")
    lines.append(next_line(view.get("next", {})))
    lines.append("")
    lines.append("Your position:")
    lines += ["  " + line for line in yamlio.dump(view["state"]).rstrip("\n").splitlines()]
    return "\n".join(lines) + "\n"


def text_report(view: Mapping[str, Any]) -> str:
    hook = _render_hook("report_text")
    if hook is not None:
        try:
            text = hook(dict(view))
            if isinstance(text, str) and text.strip():
                return text if text.endswith("\n") else text + "\n"
        except Exception:
            pass
    return generic_report(view)


def map_picture(view: Mapping[str, Any], stem: str) -> Part | None:
    """`stem.svg` drawn by the pictures module, or None without one (or if it fails)."""
    hook = _render_hook("map_svg")
    if hook is None:
        return None
    try:
        svg = hook(dict(view))
    except Exception:
        return None
    if not isinstance(svg, str) or not svg.strip():
        return None
    return Part(f"{stem}.svg", svg.encode("utf-8"), "image/svg+xml")
