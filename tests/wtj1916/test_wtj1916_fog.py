"""Spotting is the fog of war (3.4): what a side does not see never reaches it.

Each test builds two situations that differ only in something the British may not know (where an
unspotted German unit stands in a wood, its flags, where a mortar firing on an observer's sighting
stands) and requires the British view, the events it is shown, its picture and its report to be
byte-identical. The converse tests show the same change is seen once the unit is in the open.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from pbem.core import yamlio
from pbem.core.chance import ForcedDice
from pbem.core.ruleset import Decisions, Rules, Submission, start
from pbem.render import map_svg, report_text
from pbem.rulesets.wtj1916 import Wtj1916
from pbem.rulesets.wtj1916.state import normalize
from pbem.testing import assert_no_leak, assert_visible, view_bytes

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "wtj1916" / "scenario.yaml"
GAME = Wtj1916()
SIDES = ["british", "german"]


def rules() -> Rules:
    return start(GAME, yamlio.load_file(SAMPLE).data)[0]


def situation(hidden_at: list[int], *, turn: int = 2, phase: str = "german-move") -> dict[str, Any]:
    """British rifles and a machine gun in the open; German rifles h in the Bois de la Croix
    (unspotted: more than 60 yards from every British base, never fired or moved), German rifles g
    in the open."""
    r = rules()
    units = {"a": {"side": "british", "type": "rifles"}, "m": {"side": "british", "type": "lmg"},
             "h": {"side": "german", "type": "rifles"}, "g": {"side": "german", "type": "rifles"}}
    bases = {"a-a": {"unit": "a", "at": [400, 260], "facing": 0}, "m-a": {"unit": "m", "at": [1000, 260], "facing": 0},
             "h-a": {"unit": "h", "at": list(hidden_at), "facing": 180},
             "g-a": {"unit": "g", "at": [1000, 460], "facing": 180}}
    return normalize(r.context, {"setup": r.setup, "turn": turn, "phase": phase, "units": units, "bases": bases})


def british_sees(state: dict[str, Any]) -> list[str]:
    return sorted(u for u in rules().view(state, "british")["units"] if u in ("h", "g"))


def test_the_unit_in_the_wood_is_unspotted_and_the_one_in_the_open_seen() -> None:
    assert british_sees(situation([150, 700])) == ["g"]
    assert british_sees(situation([400, 450])) == ["g", "h"]


def test_moving_the_unspotted_unit_inside_the_wood_leaves_the_british_view_unchanged() -> None:
    def mutate(state: dict[str, Any], events: list[Any]) -> None:
        state["bases"]["h-a"]["at"] = [120, 680]
        state["bases"]["h-a"]["facing"] = 90
    assert_no_leak(GAME, situation([150, 700]), "british", SIDES, mutate)


def test_the_unspotted_unit_s_flags_never_show() -> None:
    def mutate(state: dict[str, Any], events: list[Any]) -> None:
        state["units"]["h"].update(demoralized=True, bound=True, strength=6)
        state["bases"]["h-a"].update(damaged=True, prone=True)
    assert_no_leak(GAME, situation([150, 700]), "british", SIDES, mutate)


def test_the_same_change_in_the_open_is_seen() -> None:
    def mutate(state: dict[str, Any], events: list[Any]) -> None:
        state["bases"]["h-a"]["at"] = [420, 450]
    assert_visible(GAME, situation([400, 450]), "british", SIDES, mutate)


def resolved_view(state: dict[str, Any], orders: dict[str, list[Any]], dice: list[int]) -> tuple[bytes, str, str]:
    """The British view of the phase resolved with these orders (dice: raw numbers, a die's face
    less one), its picture and its report."""
    r = rules()
    forced = ForcedDice(dice)
    out = r.resolve(copy.deepcopy(state), {s: Submission(s, orders.get(s, [])) for s in SIDES}, forced, Decisions())
    raw = view_bytes(GAME, out.state, "british", SIDES, out.events, [roll.record() for roll in forced.rolls])
    view = yamlio.load_bytes(raw, "view.yaml").data
    return raw, map_svg(view), report_text(view)


def test_a_move_inside_the_wood_reaches_neither_the_view_the_picture_nor_the_report() -> None:
    state = situation([150, 700])
    passing = {"british": [{"pass_fire": "any", "unit": "m"}]}
    one = resolved_view(state, {**passing, "german": [{"move": "h", "to": [160, 700]}]}, [])
    two = resolved_view(state, {**passing, "german": [{"move": "h", "to": [120, 690], "face": 90}]}, [])
    assert one == two
    assert b"h-a" not in one[0] and "h-a" not in one[1] and "h-a" not in one[2]


def test_a_move_into_the_open_is_seen() -> None:
    state = situation([150, 700])
    one = resolved_view(state, {"german": [{"move": "h", "to": [160, 700]}]}, [])
    two = resolved_view(state, {"german": [{"move": "h", "toward": [260, 560], "distance": "max"}]}, [])
    assert one[0] != two[0] and b"h-a" in two[0]


def mortar_situation(mortar_at: list[int]) -> dict[str, Any]:
    """A German light mortar deep in the wood fires on what its observer at the wood's edge sees."""
    r = rules()
    units = {"t": {"side": "british", "type": "rifles"},
             "mo": {"side": "german", "type": "light-mortar", "set_up": True},
             "o": {"side": "german", "type": "rifles"}}
    bases = {"t-a": {"unit": "t", "at": [560, 300], "facing": 0},
             "mo-a": {"unit": "mo", "at": list(mortar_at), "facing": 180},
             "o-a": {"unit": "o", "at": [150, 640], "facing": 180}}
    return normalize(r.context, {"setup": r.setup, "turn": 1, "phase": "fire", "units": units, "bases": bases})


def test_a_mortar_firing_on_an_observer_s_sighting_stays_unseen() -> None:
    orders = {"german": [{"fire": "t", "unit": "mo", "moving": True}]}
    for at in ([150, 700], [145, 698]):
        assert rules().validate(rules().view(mortar_situation(at), "german"), "german", orders["german"]) == []
    one = resolved_view(mortar_situation([150, 700]), orders, [4, 4, 3])
    two = resolved_view(mortar_situation([145, 698]), orders, [4, 4, 3])
    assert one == two
    assert b"an unseen unit" in one[0] and b"mo-a" not in one[0]


def test_the_orders_template_lists_own_units_and_only_the_enemy_seen() -> None:
    r = rules()
    state = situation([150, 700], turn=1, phase="fire")
    lines = r.ruleset.order_template(r.context, r.view(state, "british"), "british")
    assert any(line.startswith("a: rifles") for line in lines) and any(line.startswith("m: lmg") for line in lines)
    assert lines[-1] == "enemy units you see (3.4): g"


def test_a_firer_killed_later_in_the_phase_stays_named_to_the_side_that_saw_it_fire() -> None:
    r = rules()
    units = {"a": {"side": "british", "type": "rifles"}, "g": {"side": "german", "type": "rifles"}}
    bases = {"a-a": {"unit": "a", "at": [1000, 260], "facing": 0}, "g-a": {"unit": "g", "at": [1000, 460], "facing": 180}}
    state = normalize(r.context, {"setup": r.setup, "turn": 1, "phase": "fire", "units": units, "bases": bases})
    orders = {"british": [{"fire": "g", "unit": "a"}], "german": [{"fire": "a", "unit": "g"}]}
    out = r.resolve(state, {s: Submission(s, orders[s]) for s in SIDES}, ForcedDice([0, 5]), Decisions())
    assert out.state["units"]["a"]["status"] == "eliminated"
    shown = [r.visible(event, "german") for event in out.events]
    assert [(e["type"], e["unit"]) for e in shown if e] == [("fire", "a"), ("fire", "g")]


def deadly_rules() -> Rules:
    """The sample with a Small Arms Fire chart on which every roll kills (a scenario override),
    so one roll of 1 both triggers a machine gun's jam check and removes its only witness."""
    scenario = dict(yamlio.load_file(SAMPLE).data)
    scenario["tables"] = {"charts": {"small_arms": [[-99, "K"]]}}
    return start(GAME, scenario)[0]


def witness_situation(r: Rules) -> dict[str, Any]:
    """German LMG m inside the Bois de la Croix, unspotted until it fires (70 yards from t, 15 of
    them through the wood); British rifles t in the open south of the wood, the only British base
    in sight of m; British rifles a north of the wood, 130 yards of wood between it and m."""
    units = {"t": {"side": "british", "type": "rifles"}, "a": {"side": "british", "type": "rifles"},
             "m": {"side": "german", "type": "lmg"}}
    bases = {"t-a": {"unit": "t", "at": [150, 560], "facing": 0}, "a-a": {"unit": "a", "at": [150, 790], "facing": 180},
             "m-a": {"unit": "m", "at": [150, 640], "facing": 180}}
    return normalize(r.context, {"setup": r.setup, "turn": 2, "phase": "fire", "units": units, "bases": bases})


def test_an_unseen_machine_gun_s_jam_check_is_hidden_from_its_target() -> None:
    """3.7 jam: the jam check's die is the firer's business. When the target's side does not see
    the gun after its fire, whether the gun jammed (the second die) must not reach that side,
    neither in the event nor in the rolls of its view."""
    r = deadly_rules()
    state = witness_situation(r)
    assert sorted(u for u in r.view(state, "british")["units"] if u == "m") == []
    orders = {"german": [{"fire": "t", "unit": "m"}]}
    views = []
    for jam in (0, 1):  # the jam check's die: a 1 (jammed) or a 2 (not)
        forced = ForcedDice([0, jam])
        out = r.resolve(copy.deepcopy(state), {s: Submission(s, orders.get(s, [])) for s in SIDES}, forced,
                        Decisions())
        assert out.state["units"]["m"]["jammed"] is (jam == 0)
        assert out.state["units"]["t"]["status"] == "eliminated"
        views.append(view_bytes(GAME, out.state, "british", SIDES, out.events, [roll.record() for roll in forced.rolls]))
    assert b"an unseen unit" in views[0]
    assert views[0] == views[1]


def refusals(state: dict[str, Any], side: str, orders: list[Any]) -> list[tuple[Any, ...]]:
    r = rules()
    return [(p.order, p.path, p.section, p.message, p.legal) for p in r.validate(r.view(state, side), side, orders)]


def test_naming_a_hidden_unit_is_refused_exactly_as_naming_no_unit() -> None:
    """The curious opponent probes with `pbem check`: every order naming the unspotted German
    unit h gets the refusal an order naming a unit that does not exist gets, word for word."""
    state = situation([150, 700], turn=1, phase="fire")
    for template in ({"fire": "NAME", "unit": "a"}, {"fire": "g", "unit": "a", "then": ["NAME"]},
                     {"unjam": "NAME"}, {"fire": "g", "unit": "NAME"}):
        def order(name: str) -> dict[str, Any]:
            return {k: (name if v == "NAME" else [name] if v == ["NAME"] else v) for k, v in template.items()}
        hidden = refusals(state, "british", [order("h")])
        absent = refusals(state, "british", [order("zz")])
        assert hidden, template
        assert repr(hidden).replace("'h'", "'zz'").replace("h ", "zz ") == repr(absent), template


def test_a_hidden_unit_in_the_line_of_fire_neither_masks_nor_changes_the_refusals() -> None:
    """An unspotted base standing in the line from a firer to its target changes nothing the firing
    side is told: the same orders get the same refusals, and the fire the same firing bases, die and
    modifiers, wherever the hidden unit stands in the shell holes (cover, 110 yards from a)."""
    def placed(hidden_at: list[int]) -> dict[str, Any]:
        state = situation(hidden_at, turn=1, phase="fire")
        state["bases"]["a-a"]["at"] = [400, 240]
        state["bases"]["g-a"]["at"] = [400, 480]
        return state
    far, between = placed([320, 400]), placed([400, 360])
    assert british_sees(far) == british_sees(between) == ["g"]
    for orders in ([{"fire": "g", "unit": "a"}], [{"fire": "g", "unit": "m"}], [{"fire": "h", "unit": "a"}]):
        assert refusals(far, "british", orders) == refusals(between, "british", orders)
    assert refusals(between, "british", [{"fire": "g", "unit": "a"}]) == []
    one = resolved_view(far, {"british": [{"fire": "g", "unit": "a"}]}, [3])
    two = resolved_view(between, {"british": [{"fire": "g", "unit": "a"}]}, [3])
    assert one == two


def test_an_air_strike_over_the_wood_does_not_show_the_striker_who_hides_there() -> None:
    """3.7 air strikes roll for every enemy base in the zone, the unspotted ones too; the striker
    is told of the bases it sees only: where the unspotted unit h stands in the zone, its flags and
    what the strike did to it leave the British view, picture and report unchanged (a kill would
    show in the public score, F3)."""
    state = situation([150, 700], turn=1, phase="fire")
    state["air_strikes"] = {"british": 1, "german": 0}
    strike = {"british": [{"air_strike": {"at": [150, 600], "facing": 0}}]}
    one = resolved_view(state, strike, [5])  # h-a rolls a 6, less 1 for the wood: damaged
    moved = copy.deepcopy(state)
    moved["bases"]["h-a"]["at"] = [170, 690]
    moved["units"]["h"]["demoralized"] = True
    two = resolved_view(moved, strike, [5])
    assert one == two
    assert b"h-a" not in one[0] and "h-a" not in one[1] and "h-a" not in one[2]


def test_an_air_strike_shows_the_striker_the_bases_it_sees() -> None:
    state = situation([150, 700], turn=1, phase="fire")
    state["air_strikes"] = {"british": 1, "german": 0}
    view, _, report = resolved_view(state, {"british": [{"air_strike": {"at": [1000, 400], "facing": 0}}]}, [0])
    assert b"base: g-a" in view and "1 bases rolled for" in report


def test_an_air_strike_names_a_resurrection_s_donor_to_the_target_side_only() -> None:
    event = {"type": "air-strike", "side": "british", "at": [500, 500], "facing": 0, "zone": [], "section": "3.7",
             "rolls": [{"base": "gm-a", "unit": "gm", "roll": 6, "cover": "none", "result": "K",
                        "hits": [{"base": "gm-a", "result": "killed", "how": "K", "resurrected_from": "h-a",
                                  "section": "3.3"}]}]}
    striker, target = GAME.visible(rules().context, event, "british"), GAME.visible(rules().context, event, "german")
    assert striker is not None and target is not None
    assert "h-a" not in repr(striker) and "gm-a" in repr(striker)
    assert target["rolls"][0]["hits"][0]["resurrected_from"] == "h-a"
