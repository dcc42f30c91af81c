"""The picture of a side's view (`picture.py`): every base and its markers, the last moves and
attacks, sentences citing their heading; and nothing hidden changes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.core import yamlio
from pbem.core.ruleset import STANDING_KEY, bind
from pbem.render.adapters import TablePicture
from pbem.rulesets.bst import Bst

ROOT = Path(__file__).resolve().parents[2]
LAST = sorted((ROOT / "samples" / "bst" / "game" / "turns").iterdir())[-2]


def view_of(side: str) -> dict[str, Any]:
    data: dict[str, Any] = yamlio.load_file(LAST / f"{side}.yaml").data
    return data


def adapter(view: dict[str, Any]) -> Any:
    rules = bind(Bst(), view["state"]["setup"])
    return rules.picture()


def test_every_base_is_drawn_with_its_markers() -> None:
    view = view_of("allies")
    picture = adapter(view).picture(view)
    assert isinstance(picture, TablePicture)
    bases = view["state"]["bases"]
    assert sorted(f.uid for f in picture.figures) == sorted(bases)
    assert all(f.own == (f.side == "allies") for f in picture.figures)
    fire = {m.on: m.count for m in picture.marks if m.kind == "fire"}
    assert fire == {bid: b["markers"] for bid, b in bases.items() if b["markers"]}
    statuses = {m.on: m.kind for m in picture.marks if m.kind in ("pinned", "suppressed")}
    assert statuses == {bid: b["status"] for bid, b in bases.items() if b["status"] != "ok"}


def test_every_event_of_the_sample_reads_as_a_sentence_citing_its_heading() -> None:
    for turn in sorted((ROOT / "samples" / "bst" / "game" / "turns").iterdir()):
        view: dict[str, Any] = yamlio.load_file(turn / "axis.yaml").data
        for event in view.get("events", []):
            line = adapter(view).sentence(event, view)
            assert line and line.endswith(f"({event['section']})"), event


def test_standing_answers_do_not_change_the_picture() -> None:
    view = view_of("axis")
    before = adapter(view).picture(view)
    changed = dict(view)
    changed["state"] = {**view["state"], STANDING_KEY: {"allies": {"opfire": {"us1": "hold"}}}}
    changed["state"] = Bst().view(bind(Bst(), view["state"]["setup"]).context, changed["state"], "axis")
    after = adapter(changed).picture(changed)
    assert (before.figures, before.marks, before.actions) == (after.figures, after.marks, after.actions)


def test_every_event_type_has_its_sentence() -> None:
    from pbem.rulesets.bst.events import EVENTS
    from pbem.rulesets.bst.picture import SENTENCES

    assert sorted(EVENTS.events) == sorted(SENTENCES)


def test_a_tank_is_drawn_with_the_armour_symbol() -> None:
    """Part III: a vehicle base is an `armour` figure (the table draws its symbol and a legend
    row); infantry bases are not."""
    view = view_of("allies")
    picture = adapter(view).picture(view)
    bases = view["state"]["bases"]
    kinds = {f.uid: f.kind for f in picture.figures}
    tanks = {bid for bid, b in bases.items() if b.get("vehicle")}
    assert tanks, "the sample has a tank a side"
    assert {bid for bid, kind in kinds.items() if kind == "armour"} == tanks
    from pbem.render import map_svg
    assert 'class="symbol-armour"' in map_svg(view)
