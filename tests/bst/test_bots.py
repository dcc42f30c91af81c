"""The bots (pbem/rulesets/bst/bots.py): they lead with platoon leaders (L1), call mortars (W6)
and put HMGs on sustained fire (W4) when it makes sense, from their own view only.

The crew scenario is the sample plus a mortar team for the US platoon leader and an HMG team
for the German one, set behind the Bois Carre where it sees no enemy at first.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

from pbem.core import yamlio
from pbem.core.ruleset import STANDING_KEY, Rules, start
from pbem.rulesets.bst import Bst
from pbem.rulesets.bst.context import prepare
from pbem.testing import bot_game_events

ROOT = Path(__file__).resolve().parents[2]
BST = Bst()


def crew_scenario() -> dict[str, Any]:
    doc: dict[str, Any] = copy.deepcopy(dict(yamlio.load_file(ROOT / "samples" / "bst" / "scenario.yaml").data))
    units = doc["setup"]["units"]
    units["usp"]["leads"] = ["us1", "us2", "usm"]
    units["usm"] = {"side": "allies", "card": "TD", "command": "C", "bases": {
        "usma": {"at": [620, 60], "facing": 0, "weapon": "mortar"},
        "usmb": {"at": [660, 60], "facing": 0, "weapon": "rifles"}}}
    units["dep"]["leads"] = ["de1", "de2", "deh"]
    units["deh"] = {"side": "axis", "card": "TC", "command": "C", "bases": {
        "deha": {"at": [380, 1140], "facing": 180, "weapon": "hmg"},
        "dehb": {"at": [420, 1140], "facing": 180, "weapon": "rifles"}}}
    return doc


def test_bot_games_lead_call_mortars_and_sustain_fire() -> None:
    counts: Counter[str] = Counter()
    for n in (2, 3):  # two seeds whose games bring the leader within reach of its mortar
        counts.update(event["type"] for _, event in bot_game_events(BST, crew_scenario(), b"bots %d" % n,
                                                                     max_phases=2000))
    assert counts["lead"] > 0 and counts["mortar-called"] > 0 and counts["sustained"] > 0, counts
    assert counts["bomb"] > 0, counts  # the calls were not all aimed where the order lapses at once


def at_card(card: str, moves: dict[str, list[int]]) -> tuple[Rules, dict[str, Any]]:
    """The crew scenario's first turn with `card` drawn, some bases placed elsewhere."""
    rules, state = start(BST, crew_scenario())
    state = copy.deepcopy(state)
    side = rules.context.side_of(rules.context.cards[card])
    state.update(card=card, awaiting=side)
    state["deck"]["left"] = sorted(c for c in state["deck"]["left"] if c != card)
    state["deck"]["drawn"] = [card]
    for bid, at in moves.items():
        state["bases"][bid]["at"] = at
    return rules, state


def bot(rules: Rules, state: dict[str, Any], seed: bytes = b"bot") -> list[dict[str, Any]]:
    side = state["awaiting"]
    view = rules.view(state, side)
    orders: list[dict[str, Any]] = rules.bot_orders(view, side, seed)
    assert rules.validate(view, side, orders) == []
    return orders


def test_a_leader_leads_the_section_in_its_command_on_its_second_card() -> None:
    rules, state = at_card("JH", {"uspa": [740, 140]})  # touching us1b: us1 is in its command
    first = bot(rules, state)[0]
    assert first["act"] == "lead" and first["unit"] == "usp" and set(first["bases"]) >= {"us1a", "us1b", "us1c"}


def test_a_leader_with_no_one_in_command_holds_its_second_card() -> None:
    rules, state = at_card("JH", {})
    assert bot(rules, state)[0] == {"unit": "usp", "act": "hold"}


def test_a_leader_calls_its_mortar_on_an_enemy_it_sees() -> None:
    rules, state = at_card("JD", {"de1a": [620, 600], "uspa": [620, 160]})
    first = bot(rules, state)[0]
    assert first["act"] == "call-mortar" and first["mortar"] == "usma", first
    assert first["aim"] == [620, 600] and first["rounds"] == ["he"]


def test_no_mortar_call_on_an_enemy_next_to_a_friend() -> None:
    rules, state = at_card("JD", {"de1a": [620, 600], "uspa": [620, 160], "us3a": [620, 680]})
    for bid in ("de1b", "de1c", "de2a", "de2b", "de2c", "depa", "deha", "dehb"):  # no other enemy in sight
        del state["bases"][bid]
    assert all(order["act"] != "call-mortar" for order in bot(rules, state))


def test_an_hmg_with_no_target_sustains_its_fire() -> None:
    rules, state = at_card("TC", {})
    orders = [o for o in bot(rules, state) if o["unit"] == "deh" and not o.get("queued")]
    assert {"unit": "deh", "act": "sustain", "bases": ["deha"]} in orders, orders


def test_no_sustained_fire_with_a_friend_of_another_unit_in_the_arc() -> None:
    rules, state = at_card("TC", {"de1a": [380, 900]})  # a German base south of the HMG, in its arc
    orders = [o for o in bot(rules, state) if o["unit"] == "deh" and not o.get("queued")]
    assert all(o["act"] != "sustain" for o in orders), orders


def test_the_bots_orders_do_not_depend_on_what_the_other_side_hides() -> None:
    """The bot plays from its view: the Germans' standing answers and a fire order of theirs
    (W6: shown to their own side only) change nothing in the allies' orders."""
    rules, state = at_card("AD", {})
    hiding = copy.deepcopy(state)
    hiding[STANDING_KEY] = {"axis": {"opfire": {"de1": "hold"}, "close_combat": {"de2": "fire"}}}
    hiding["mortars"] = {"deha": {"aim": [700, 100], "rounds": ["he", "he"]}}
    assert rules.view(hiding, "allies") == rules.view(state, "allies")
    assert bot(rules, hiding) == bot(rules, state)


def test_the_bench_table_has_30_bases_a_side() -> None:
    doc = yamlio.load_file(ROOT / "bench" / "scenarios" / "bst-30.yaml").data
    context = prepare(BST.setup(doc))
    sides = Counter(context.side_of(unit) for unit in context.units for _ in doc["setup"]["units"][unit]["bases"])
    assert sides == {"allies": 30, "axis": 30}
