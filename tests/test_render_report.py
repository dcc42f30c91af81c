"""The report in plain words (pbem.render.report_text): a sentence per fbsm event, citing its section."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core import yamlio
from pbem.render import report_text
from pbem.render.adapters import adapter_for
from pbem.rulesets.fbsm import Fbsm, selfplay
from pbem.testing import view_bytes

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = yamlio.load_file(ROOT / "samples" / "fbsm" / "scenario.yaml").data
RULESET = Fbsm()
SIDES = ["us", "german"]
STATE = next(s for i, s in enumerate(selfplay.games_states(SCENARIO, b"report")) if i == 12)

EVENTS: list[dict[str, Any]] = [
    {"type": "us-setup", "section": "3.2", "units": [{"hex": "3827", "unit": "HW01", "zone": "forward"}]},
    {"type": "german-setup", "section": "3.6", "units": [{"hex": "4232", "unit": "G81"}]},
    {"type": "turn", "section": "5.3", "turn": 2},
    {"type": "random-event", "section": "7.6", "dice": [3, 4], "roll": 7, "event": "us-rally", "rally": "accept"},
    {"type": "reinforcements", "section": "8.3", "dice": [1, 6], "count": 7},
    {"type": "reinforcements", "section": "8.4", "count": 0, "note": "the holding container is empty"},
    {"type": "breakthrough", "section": "7.5", "kind": "breakthrough-west", "dice": [6], "count": 6},
    {"type": "breakthrough", "section": "7.7", "kind": "breakthrough-east", "thwarted": True},
    {"type": "drawn", "side": "german", "section": "8.3", "kind": "reinforcement", "rolled": 2, "count": 2,
     "units": ["G03", "G04"]},
    {"type": "placed", "side": "german", "section": "8.3", "kind": "reinforcement",
     "units": [{"unit": "G03", "hex": "3931"}]},
    {"type": "markers-drawn", "side": "german", "section": "13.4", "roll": 4, "markers": ["heavy-1", "light-2"]},
    {"type": "move", "side": "german", "section": "9.1", "unit": "G01", "from": "2236", "path": ["2235", "2234"],
     "mp_half": 4},
    {"type": "move", "side": "us", "section": "9.1", "unit": "US02", "from": "2001", "path": ["2000"],
     "mp_half": 2, "exit": True},
    {"type": "order-void", "side": "us", "section": "9.2", "unit": "US03", "reason": "the path leaves the map"},
    {"type": "order-void", "side": "german", "section": "10.2", "target": "2234", "reason": "2234 is empty"},
    {"type": "fire", "side": "german", "section": "10.10", "target": "2232", "firers": ["G01", "G02"],
     "from": ["2236"], "strength": 6, "defense": 2, "odds": 3, "close_assault": False,
     "results": [{"unit": "US12", "side": "us", "roll": 3, "eliminated": True}]},
    {"type": "fire", "side": "us", "section": "10.10", "target": "2236", "firers": ["US05"], "from": ["2235"],
     "strength": 1, "defense": 2, "odds": 0, "close_assault": True,
     "results": [{"unit": "G01", "side": "german", "roll": None, "eliminated": False}]},
    {"type": "advance", "side": "german", "section": "10.12", "into": "2232",
     "units": [{"unit": "G01", "from": "2236"}]},
    {"type": "bombard", "side": "german", "section": "11.2", "target": "2234", "markers": ["heavy-1"],
     "spotter": "G05"},
    {"type": "drift", "side": "german", "section": "11.3", "marker": "heavy-1", "target": "2234", "roll": 4,
     "drift": 2, "final": "2232", "lost": False},
    {"type": "drift", "side": "german", "section": "11.3", "marker": "light-2", "target": "2201", "roll": 6,
     "drift": 3, "final": None, "lost": True},
    {"type": "bombardment", "side": "german", "section": "11.4", "hex": "2232", "markers": ["heavy-1"],
     "strength": 8, "defense": 2, "odds": 4,
     "results": [{"unit": "US12", "side": "us", "roll": 5, "eliminated": False}]},
    {"type": "concede", "side": "german", "section": "4.5"},
    {"type": "victory", "section": "4.4", "winner": "us", "reason": "no German unit is left"},
]


def view_of(side: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    return dict(yamlio.load_bytes(view_bytes(RULESET, STATE, side, SIDES, events), "view.yaml").data)


def test_the_events_cover_every_fbsm_event_type() -> None:
    sources = "".join(p.read_text() for p in (ROOT / "pbem" / "rulesets" / "fbsm").glob("*.py"))
    kinds = set(re.findall(r'"type": "([a-z-]+)", "(?:side|section)"', sources))
    assert kinds and kinds <= {e["type"] for e in EVENTS}


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("index", range(len(EVENTS)))
def test_each_event_is_a_sentence_citing_its_section(side: str, index: int) -> None:
    view = view_of(side, [EVENTS[index]])
    adapter = adapter_for(view)
    assert adapter is not None
    shown = view["events"]
    if not shown:  # the fog kept it from this side entirely
        assert "Nothing happened" in report_text(view)
        return
    event = shown[0]
    sentence = adapter.sentence(event, view)
    assert sentence is not None, f"no sentence for {event['type']}"
    assert sentence.endswith(f"({event['section']}).")
    assert sentence[0].isupper()
    assert "{" not in sentence and "None" not in sentence
    assert sentence in report_text(view)


def test_the_example_sentence_reads_as_a_person_would_say_it() -> None:
    view = view_of("us", [EVENTS[15]])
    text = report_text(view)
    assert "US unit US12 in 2232 was eliminated, rolled 3" in text
    assert "odds 3:1" in text and "(10.10)" in text
    assert "G01" not in text and "G02" not in text  # the US side does not know who fired
    assert "German fire from 2236 (2 units) into 2232" in text


def test_the_report_has_the_state_and_what_is_next() -> None:
    view = view_of("us", [])
    text = report_text(view)
    assert f"Turn {view['state']['turn']}, phase {view['state']['phase']}." in text
    assert "What comes next:" in text
    assert str(view["next"].get("phase")) in text.split("What comes next:")[1]
    md = report_text(view, "markdown")
    assert md.startswith("# ") and "## What happened" in md and "## Where things stand" in md
    with pytest.raises(ValueError):
        report_text(view, "html")


def test_mail_judge_uses_the_hooks() -> None:
    from pbem.mail.report import map_picture, text_report

    view = view_of("us", [EVENTS[15]])
    assert text_report(view) == report_text(view)
    part = map_picture(view, "map")
    assert part is not None and part.name == "map.svg" and part.content_type == "image/svg+xml"
    assert b"<svg" in part.data and b'id="unit-' in part.data
