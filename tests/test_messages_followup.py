"""The follow-ups of the newcomer's message findings (tests/test_messages_newcomer2.py).

1. the "did you mean" guesses live in a module of their own, `pbem.core.guesses`, which loads
   difflib only when it has a misspelt name to rank;
2. every message citing a section a ruleset or a page gives says `see docs/...` for a page of
   ours and `rule N` for a rulebook's section: the status and result lines, a decision request as
   a player and a mail reader see it, and the fbsm desk's notes; a fault of the scenario is no rule.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.core import ruleset
from pbem.core.cases import situation
from pbem.core.errors import PbemError, citation
from pbem.core.players import request_text
from pbem.core.status import result_headline
from pbem.desk.session import OrdersDesk
from tests.test_hostile_input import TwoAsks
from tests.test_mail_kit import body_text, make_world, maildir_judge, parse_mail, take_outbox, welcome_then_mail_empty_orders

REPO = Path(__file__).resolve().parent.parent
FBSM_GAME = REPO / "samples" / "fbsm" / "game"


# --- 1. the guesses' own module ------------------------------------------------------------------------------


def test_the_guesses_module_ranks_names_and_loads_difflib_only_to_rank_a_misspelt_one() -> None:
    code = ("import sys\nfrom pbem.core import guesses, orders\n"
            "print('difflib' in sys.modules)\n"
            "print(guesses.close_names('GO1', ['G01', 'G91']), guesses.close_names('G-IR121', ['G-IR12', 'B-RF']))\n"
            "print('difflib' in sys.modules, 'close_names' not in vars(orders))")
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


# --- 2. a section cited as a rule, or as a page of ours to see ------------------------------------------------

PAGE = "docs/two.md §2"  # a section a ruleset may cite where its rulebook says nothing: a page of its own


class AskedByPage(TwoAsks):
    """TwoAsks whose first question and whose result cite a page of the game's own notes, not its rulebook."""

    id = "page-asks"

    def result(self, context: Any, state: dict[str, Any]) -> dict[str, Any] | None:
        return {"winner": "red", "reason": "done", "section": PAGE} if state["phase"] == "end" else None

    def resolve(self, context: Any, state: Any, submissions: Any, dice: Any, decisions: Any) -> Any:
        first = decisions.ask("blue", "retreat", PAGE, {}, ["left", "right"])
        state["log"], state["phase"] = [first], "end"
        return ruleset.Resolution(state, [{"type": "done", "log": [first]}])


ruleset.register(AskedByPage.id, f"{__name__}:AskedByPage")


def test_a_result_line_cites_a_page_as_a_page_and_a_rule_as_a_rule() -> None:
    assert result_headline({"winner": "red", "reason": "done", "section": PAGE}) == f"red wins: done (see {PAGE})"
    assert result_headline({"winner": "us", "reason": "held", "section": "4.4"}) == "us wins: held (rule 4.4)"


def test_a_decision_request_as_a_player_reads_it_cites_its_page() -> None:
    request = {"game": "g", "seq": 3, "side": "blue", "index": 0, "topic": "retreat", "section": PAGE,
               "question": {}, "options": ["left", "right"]}
    assert request_text(request).startswith(f"# decision 0 of seq 3 for blue: retreat (see {PAGE})\n")
    assert request_text({**request, "section": "12.13"}).startswith("# decision 0 of seq 3 for blue: retreat "
                                                                    "(rule 12.13)\n")


def test_the_judges_request_mail_cites_the_requests_page_once(tmp_path: Path) -> None:
    scenario = tmp_path / "page.yaml"
    scenario.write_text(f"pbem: 1\nkind: scenario\nruleset: {AskedByPage.id}\ntitle: page asks\nsetup: {{}}\n")
    world = make_world(tmp_path, ruleset_scenario=scenario, game_id="page-mail")
    maildir = tmp_path / "Maildir"
    judge = maildir_judge(world, maildir)
    welcome_then_mail_empty_orders(world, maildir, judge)
    judge.run(once=True)
    [asked] = [m for m in take_outbox(maildir) if "your decision is needed" in parse_mail(m)["Subject"]]
    body = body_text(asked)
    assert body.startswith("Adjudication 1 of game page-mail needs a decision from blue:\n\n"
                           f"    # decision 0 of seq 1 for blue: retreat (see {PAGE})\n"), body
    assert "(rule " not in body and body.count(PAGE) == 2, body  # cited once, and once in the request's fields


def test_the_fbsm_desk_tells_a_step_refused_with_its_rule_and_what_is_legal(tmp_path: Path) -> None:
    """G01 at 4131 in the sample's german-movement view, drafted straight to 4228, two hexes away (9.1)."""
    desk = OrdersDesk(FBSM_GAME / "turns" / "0003" / "german.yaml", out=tmp_path / "o.yaml")
    notes = desk.draft({"kind": "move", "orders": [], "order": {"move": "G01", "path": ["4228"]}})["notes"]
    assert notes[1:] == ["4228 is not adjacent to 4131 (rule 9.1); legal: 4130, 4231, 4232, 4132, 4032, 4031"]
    walked = desk.draft({"kind": "move", "orders": [], "order": {"move": "G01", "path": ["4130", "4129"]}})["notes"]
    assert len(walked) == 1 and "movement points left" in walked[0]  # the control: a legal walk, no refusal


def test_a_fault_of_the_scenario_is_not_cited_as_a_rule() -> None:
    """Rulesets file a scenario's faults (an unknown map, a unit type of the wrong side) under "scenario"."""
    with pytest.raises(PbemError) as raised:
        situation({"scenario": "samples/fbsm/scenario.yaml", "state": {"setup": {"map": "nowhere"}}}, REPO)
    assert str(raised.value) == "unknown map 'nowhere' (in the scenario); legal: second-marne"
    assert citation("9.13") == "rule 9.13" and citation("docs/protocol.md §4") == "see docs/protocol.md §4"
