"""`pbem orders`: the template lists only what that side may order now, with its own unit ids.

Walked over every view of the recorded bot games (samples/fbsm, samples/toc): a side's template
never names an enemy unit id nor an order kind only the enemy has, and the side that gives no
orders in the phase gets no order kinds at all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core.players import orders_template, read_view

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
ENEMY_IDS = {
    ("fbsm", "us"): re.compile(r"\bG\d+\b"),
    ("fbsm", "german"): re.compile(r"\b(US|HW)\d+\b"),
    ("toc", "british"): re.compile(r"\bG-[A-Z0-9]+\b"),
    ("toc", "german"): re.compile(r"\bB-[A-Z0-9]+\b"),
}
ENEMY_ONLY = {  # order kinds and hints the other side alone may use
    ("fbsm", "us"): ("heavy_mg", "exit: true"),
    ("fbsm", "german"): ("setup:",),
    ("toc", "british"): ("may enter now",),
    ("toc", "german"): ("sequence:", '"off"'),
}
OWN_IDS = {"us": r"\b(US|HW)\d+\b", "german": r"\bG-?[A-Z]*\d+\b", "british": r"\bB-[A-Z0-9]+\b"}


def hints(path: Path) -> tuple[str, str, bool, list[str]]:
    """(ruleset, side, whether the side owes orders, the template's comment lines after the heading)."""
    view = read_view(path)
    text = orders_template(view)
    lines = [line for line in text.splitlines() if line.startswith("#")][2:]  # the title and the signing line
    return view.doc["ruleset"]["id"], view.doc["side"], view.doc["side"] in view.doc["next"]["awaiting"], lines


def views(ruleset_id: str) -> list[Path]:
    game = SAMPLES / ruleset_id / "game"
    found = sorted(game.glob("views/0000/*.yaml")) + sorted(game.glob("turns/*/*.yaml"))
    return [path for path in found if path.name != "turn.yaml"]


@pytest.mark.parametrize("ruleset_id", ["fbsm", "toc"])
def test_no_template_names_the_enemy(ruleset_id: str) -> None:
    owing = 0
    for path in views(ruleset_id):
        if "result" in read_view(path).doc["next"]:
            continue
        game, side, owes, lines = hints(path)
        text = "\n".join(lines)
        if not owes:
            assert len(lines) == 1 and "gives no orders in this phase" in lines[0], (path, text)
            continue
        owing += 1
        assert lines[0] == f"# What {side} may order now:", (path, text)
        enemy = ENEMY_IDS[(game, side)].search(text)
        assert enemy is None, f"{path}: the {side} template names {enemy.group(0) if enemy else ''}:\n{text}"
        for kind in ENEMY_ONLY[(game, side)]:
            assert kind not in text, f"{path}: the {side} template offers {kind}:\n{text}"
        assert re.search(OWN_IDS[side], text) or "send orders: []" in text, (path, text)
    assert owing > 20  # the walk met many phases in which a side owed orders


def test_the_us_setup_lists_the_us_units_and_the_zone_quotas() -> None:
    _, side, owes, lines = hints(SAMPLES / "fbsm" / "game" / "views" / "0000" / "us.yaml")
    text = "\n".join(lines)
    assert side == "us" and owes
    assert "infantry to set up: US01-US48" in text and "heavy weapons emplacements to set up: HW01-HW09" in text
    assert "forward zone (3.3" in text and "rear zone (3.4" in text
    _, side, owes, lines = hints(SAMPLES / "fbsm" / "game" / "views" / "0000" / "german.yaml")
    assert side == "german" and not owes and "setup" not in "\n".join(lines)


def test_a_german_placement_lists_the_drawn_units_and_free_entry_hexes() -> None:
    for path in views("fbsm"):
        view = read_view(path)
        if view.doc["side"] == "german" and view.doc["next"].get("phase") == "german-placement":
            text = "\n".join(hints(path)[3])
            drawn = view.doc["state"]["pending"]["units"]
            assert f"{{place: {drawn[0]}, hex:" in text and "drawn units to place: " in text, text
            assert "entry hexes free of US units: " in text
            return
    pytest.fail("the sample has no German placement phase")


def test_toc_german_entries_name_their_hexes() -> None:
    _, side, owes, lines = hints(SAMPLES / "toc" / "game" / "views" / "0000" / "german.yaml")
    text = "\n".join(lines)
    assert side == "german" and owes
    assert re.search(r"may enter now, the path starting at the entry hex \(8\.2-8\.4\): G-[A-Z0-9-]+.* by \d{4}", text), text
    assert "{sequence:" not in text and "British exit hex" not in text
