"""The follow-ups of the newcomer's message findings (tests/test_messages_newcomer2.py).

1. the "did you mean" guesses live in a module of their own, `pbem.core.guesses`, which loads
   difflib only when it has a misspelt name to rank;
2. every message citing a section a ruleset or a page gives says `see docs/...` for a page of
   ours and `rule N` for a rulebook's section: the status and result lines, a decision request as
   a player and a mail reader see it, and the fbsm desk's notes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


# --- 1. the guesses' own module ------------------------------------------------------------------------------


def test_the_guesses_module_ranks_names_and_loads_difflib_only_to_rank_a_misspelt_one() -> None:
    code = ("import sys\nfrom pbem.core import guesses, orders\n"
            "print('difflib' in sys.modules)\n"
            "print(guesses.close_names('GO1', ['G01', 'G91']), guesses.close_names('G-IR121', ['G-IR12', 'B-RF']))\n"
            "print('difflib' in sys.modules, orders.close_names is guesses.close_names)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert out == ["False", "['G01'] ['G-IR12']", "True True"]


def test_a_refusal_gets_a_guess_only_when_it_refuses_the_id_at_its_path() -> None:
    from pbem.core.guesses import with_a_guess

    view = {"units": {"G01": {"side": "german"}, "U01": {"side": "us"}}}
    assert with_a_guess("GO1 is not a german unit on the map", "GO1", None, view, "german") == \
        "GO1 is not a german unit on the map: did you mean G01?"
    assert "U01" not in with_a_guess("UO1 is not a german unit on the map", "UO1", None, view, "german")  # not ours
    assert with_a_guess("GO1 is out of range", "GO1", None, view, "german") == "GO1 is out of range"
    assert with_a_guess("de11 is not one of the side's bases", ["de1", "de11"], "de1, de2", {}, "axis") == \
        "de11 is not one of the side's bases: did you mean de1?"
