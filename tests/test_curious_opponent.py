"""The curious opponent (docs/protocol.md §3, §4): from one side's own views and the public
posts, try to compute every roll hidden from that side, and fail.

The recorded fbsm sample draws German reinforcements blindly from the holding container
(fbsm 7.5, 7.7, 8.3): the US must not learn which units came, nor so which units lie under
German stack tops. Under version 1 the public stream gave those draws away; the same attack on
the version 1 fixture must succeed, which proves the attack is a real one.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from pbem.core import chance, yamlio
from pbem.core.archive import Archive, turn_rel, view_rel
from pbem.mail.forum import public_turn, render
from pbem.testing import ENOUGH_CHANCE, computable_rolls

ROOT = Path(__file__).resolve().parent.parent
FBSM = ROOT / "samples" / "fbsm" / "game"
V1_DUEL = Path(__file__).resolve().parent / "fixtures" / "v1-duel"


def _doc(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yamlio.load_bytes(path.read_bytes(), str(path)).data
    return data


def what_a_side_holds(game: Path, side: str) -> tuple[str, list[int]]:
    """The text of every view of `side` before the result, and every public post; the seqs."""
    seqs = Archive(game).turn_seqs()
    texts = [(game / view_rel(0, side)).read_text(encoding="utf-8")]
    for seq in seqs:
        view = (game / view_rel(seq, side)).read_text(encoding="utf-8")
        if "hidden_seed" not in view:  # the view that announces the result reveals t_K by design
            texts.append(view)
        texts.append(render(public_turn(game, seq), "markdown"))
    return "\n".join(texts), seqs


def hidden_rolls(turn: dict[str, Any], side: str) -> list[dict[str, Any]]:
    return [roll for roll in turn["dice"]["rolls"] if "seen_by" in roll and side not in roll["seen_by"]]


def test_the_sample_really_has_rolls_hidden_from_the_us() -> None:
    turns = [_doc(FBSM / turn_rel(seq)) for seq in Archive(FBSM).turn_seqs()]
    hidden = [roll for turn in turns for roll in hidden_rolls(turn, "us")]
    assert _doc(FBSM / "game.yaml")["pbem"] == 2
    assert len(hidden) >= 10
    assert all("key" in roll and roll["seen_by"] == ["german"] for roll in hidden)
    assert math.prod(roll["n"] for roll in hidden) >= ENOUGH_CHANCE


def test_no_key_and_no_hidden_seed_reach_the_us_before_the_end() -> None:
    text, seqs = what_a_side_holds(FBSM, "us")
    leaked = []
    for seq in seqs:
        turn = _doc(FBSM / turn_rel(seq))
        if "result" not in turn["next"] and turn["dice"]["hidden_seed"] in text:
            leaked.append(f"t_{seq}")
        leaked += [f"key of roll {roll['i']} in {seq}" for roll in hidden_rolls(turn, "us") if roll["key"] in text]
    assert leaked == []


def test_the_us_cannot_compute_the_german_blind_draws() -> None:
    text, seqs = what_a_side_holds(FBSM, "us")
    attacked, found = 0, []
    all_hidden, phase_seeds = [], {}
    for seq in seqs:
        turn = _doc(FBSM / turn_rel(seq))
        hidden = hidden_rolls(turn, "us")
        if not hidden:
            continue
        view = _doc(FBSM / view_rel(seq, "us"))
        phase_seed = bytes.fromhex(view["dice"]["phase_seed"])  # what the US holds, not the master's
        phase_seeds[seq] = phase_seed
        all_hidden += [(seq, roll) for roll in hidden]
        if math.prod(roll["n"] for roll in hidden) >= ENOUGH_CHANCE:
            attacked += 1
            found += [f"seq {seq}: {attack}" for attack in computable_rolls(text, "demo-fbsm", seq, phase_seed,
                                                                            hidden)]
    # Version 1's attack over the whole game at once: the public stream at each hidden index.
    public_hits = sum(chance.uniform(phase_seeds[seq], roll["n"], roll["i"]) == roll["value"]
                      for seq, roll in all_hidden)
    assert found == []
    assert public_hits < len(all_hidden), "the public stream gives every hidden draw"
    assert attacked + len(all_hidden) > 0


def test_the_same_attack_breaks_a_version_1_game() -> None:
    # Proof that the attack above can succeed: version 1 drew hidden rolls from the public stream.
    import tests.conftest  # noqa: F401  (registers the duel fixture ruleset)

    game = V1_DUEL
    assert _doc(game / "game.yaml")["pbem"] == 1
    hits, total = 0, 0
    for seq in Archive(game).turn_seqs():
        turn = _doc(game / turn_rel(seq))
        view = _doc(game / view_rel(seq, "red"))
        phase_seed = bytes.fromhex(view["dice"]["phase_seed"])
        for roll in hidden_rolls(turn, "red"):
            total += 1
            hits += chance.uniform(phase_seed, roll["n"], roll["i"]) == roll["value"]
    assert total >= 5
    assert hits == total


@pytest.mark.parametrize("side", ["us", "german"])
def test_the_final_view_lets_each_side_check_every_hidden_key(side: str) -> None:
    seqs = Archive(FBSM).turn_seqs()
    final = _doc(FBSM / view_rel(seqs[-1], side))
    t_last = bytes.fromhex(final["dice"]["hidden_seed"])
    anchor = bytes.fromhex(_doc(FBSM / "game.yaml")["hidden_chain"]["anchor"])
    assert chance.on_chain("demo-fbsm", t_last, seqs[-1], anchor, chance.HIDDEN_CHAIN_LABEL)
    t = t_last
    for seq in reversed(seqs):
        for roll in _doc(FBSM / turn_rel(seq))["dice"]["rolls"]:
            if "key" in roll:
                assert roll["key"] == chance.hidden_key("demo-fbsm", seq, t, roll["i"]).hex()
        t = chance.chain_step("demo-fbsm", t, chance.HIDDEN_CHAIN_LABEL)
