"""A finished game's result in `pbem status` (and `pbem demo`, which prints `result_text`): one short
line with the winner, the reason and the rule, its flat scores beside it; a long tally (toc 4.3 names
every dead, surrounded and exited British unit) is left out of that line, and the next line names the
view files that hold the result in full.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core import yamlio
from pbem.core.game import load_game
from pbem.core.position import current_position
from pbem.core.status import result_left_out, result_pointer, result_text, status

ROOT = Path(__file__).resolve().parent.parent
TOC_GAME = ROOT / "samples" / "toc" / "game"
SHORT = 100  # characters: what a status line may run to (the headline of toc's 4.3 is 93)


def toc_result() -> dict[str, object]:
    result = current_position(load_game(TOC_GAME)).next()["result"]
    assert isinstance(result, dict) and result["section"] == "4.3" and "tally" in result
    return result


def test_the_toc_result_is_one_short_sentence_with_winner_margin_and_rule() -> None:
    result = toc_result()
    text = result_text(result)
    assert text == f"{result['winner']} wins: {result['reason']} (rule 4.3)"
    assert "victory points" in text and len(text) <= SHORT
    assert "B-" not in text and "tally" not in text  # no unit of the dead pile
    assert result_left_out(result) == ["tally"]


def test_flat_scores_stay_in_the_line_and_lists_or_tallies_go() -> None:
    result = {"winner": "red", "section": "9.1", "reason": "more points", "scores": {"red": 4, "blue": 2},
              "turns": 6, "lost": ["r1", "r2"], "tally": {"dead": ["b1"], "total": 1}}
    assert result_text(result) == "red wins: more points (rule 9.1); scores {red: 4, blue: 2}, turns 6"
    assert result_left_out(result) == ["lost", "tally"]
    assert result_left_out({"winner": "red", "section": "9.1", "reason": "more points"}) == []
    assert result_pointer(result, 7) == ("the result in full (lost, tally): next.result in every side's last view, "
                                         "turns/0007/<side>.yaml")
    assert result_pointer({"winner": "red", "section": "9.1", "reason": "more points", "turns": 6}, 7) is None


def test_status_says_the_toc_result_briefly_and_where_it_is_in_full() -> None:
    result = toc_result()
    for public in (False, True):
        lines = status(TOC_GAME, public=public).splitlines()
        over = next(n for n, line in enumerate(lines) if line.startswith("game over: "))
        assert lines[over] == f"game over: {result_text(result)}"
        assert all(len(line) <= SHORT for line in lines), lines
        pointer = lines[over + 1]
        assert "(tally)" in pointer and "next.result" in pointer
        template = pointer.split(", ")[-1]
        assert "<side>" in template
        for side in load_game(TOC_GAME).sides:  # the file named holds the whole result, tally and all
            view = yamlio.load_file(TOC_GAME / template.replace("<side>", side)).data
            assert view["side"] == side and view["next"]["result"] == result


def test_a_result_without_a_long_field_has_no_pointer_line() -> None:
    lines = status(ROOT / "samples" / "fbsm" / "game").splitlines()
    assert lines[-1].startswith("game over: ") and "in full" not in "\n".join(lines)
