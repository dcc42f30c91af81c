"""Decision options as players read and give them: numbers and names, YAML, and one stored reply per answer.

`pbem decide REQUEST` lists the options (`N: OPTION  # name`); `--answer` takes the number, the
name or the option itself and the reply always holds the option (docs/protocol.md §4). toc's
whole-hex defensive fire plan in which nobody fires is named `hold`, as docs/toc.md says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import options, yamlio
from pbem.core.errors import PbemError
from pbem.core.players import answer_from_text, option_names, reply_document, request_text
from pbem.core.ruleset import Decisions, get
from tests.test_cli_lifecycle import CliGame, decision_game, make_cli_game, ok, run


def request(topic: str, opts: list[object]) -> dict[str, object]:
    return {"pbem": 2, "kind": "decision-request", "game": "g-1", "seq": 3, "side": "german", "index": 0,
            "topic": topic, "section": "11.2", "question": {}, "options": opts}


PLANS = [{"2907": ["B-NF", "B-SF"]}, {}, {"2908": ["B-NF"], "2907": ["B-SF"]}]


def test_every_option_has_a_number_and_most_a_name() -> None:
    toc = get("toc")
    named = option_names(request("defensive_fire", PLANS), toc)
    assert named == ["2907=B-NF+B-SF", "hold", "2908=B-NF,2907=B-SF"]
    assert option_names(request("defensive_fire", PLANS)) == ["2907=B-NF+B-SF", "none", "2908=B-NF,2907=B-SF"]
    assert options.names([["G07", "G08"], [], "accept", 3, {"B-RF": 1}]) == ["G07+G08", "none", "accept", None,
                                                                              "B-RF=1"]
    # a name two options share, or one that reads as a number of the list, is dropped
    assert options.names(["2", "x", "x"]) == [None, None, None]
    assert options.names(["0101", "0102"]) == ["0101", "0102"]


def test_options_are_shown_as_yaml_never_as_python() -> None:
    lines = options.lines(PLANS, option_names(request("defensive_fire", PLANS), get("toc")))
    assert lines == ['1: {"2907": [B-NF, B-SF]}  # 2907=B-NF+B-SF', "2: {}  # hold",
                     '3: {"2908": [B-NF], "2907": [B-SF]}  # 2908=B-NF,2907=B-SF']
    for line in lines:  # each option reads back, as YAML, as the option itself
        number, _, rest = line.partition(": ")
        text = rest.split("  #")[0]
        assert yamlio.load_bytes(f"x: {text}\n".encode(), "t").data["x"] == PLANS[int(number) - 1]
    shown = request_text(request("defensive_fire", PLANS), get("toc"))
    assert "{'" not in shown and "['" not in shown and "options:\n  1: {" in shown
    assert options.show(["true", "0101", "a b", None, True]) == '["true", "0101", "a b", null, true]'


@pytest.mark.parametrize("typed, expected", [("1", PLANS[0]), ("hold", {}), ("2", {}), ("{}", {}),
                                             ("2907=B-NF+B-SF", PLANS[0]),
                                             ('{"2908": [B-NF], "2907": [B-SF]}', PLANS[2])])
def test_an_answer_by_number_name_or_in_full(typed: str, expected: object) -> None:
    req = request("defensive_fire", PLANS)
    assert answer_from_text(req, typed, get("toc")) == expected


def test_an_answer_that_is_no_option_lists_them() -> None:
    req = request("defensive_fire", PLANS)
    for typed in ("4", "0", "fire-everything", "{2907: []}", "[unclosed"):
        with pytest.raises(PbemError) as raised:
            answer_from_text(req, typed, get("toc"))
        assert "is not one of the options" in str(raised.value) and "2: {}  # hold" in str(raised.value)


def test_hex_ids_are_names_needing_no_quotes() -> None:
    req = request("defensive_fire", ["2907", "2908", "hold"])
    assert answer_from_text(req, "2908", get("toc")) == "2908"
    with pytest.raises(PbemError):  # not a hex of the list, nor (with its leading zero) a number
        answer_from_text(req, "0002", get("toc"))
    assert answer_from_text(req, "3", get("toc")) == "hold"


def test_the_reply_holds_the_option_itself() -> None:
    req = request("when_hit", ["stand", "shift-left"])
    assert reply_document(req, b"request", 2)["answer"] == "shift-left"
    assert reply_document(req, b"request", "stand")["answer"] == "stand"
    with pytest.raises(PbemError, match="answer 3 is not one of the options"):
        reply_document(req, b"request", 3)


def test_decisions_ask_still_lapses_to_the_first_option() -> None:
    asked = Decisions({0: {}})
    assert asked.ask("german", "defensive_fire", "11.2", {}, PLANS) == {}
    with pytest.raises(PbemError) as raised:
        Decisions({0: "hold"}).ask("german", "defensive_fire", "11.2", {}, PLANS)
    assert "answer hold is not one of the options" in str(raised.value)  # replies hold options, not names
    assert "{'" not in str(raised.value)


# --- through the command line ----------------------------------------------------------------------------


@pytest.fixture()
def cli_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliGame:
    monkeypatch.chdir(tmp_path)
    return make_cli_game(tmp_path)


@pytest.fixture()
def asked(cli_game: CliGame) -> Path:
    """Red is asked F3 (stand, shift-left, shift-right)."""
    decision_game(cli_game)
    ok("adjudicate", cli_game.root)
    return cli_game.root / "decisions/0002/request-000.yaml"


def test_decide_lists_the_options(cli_game: CliGame, asked: Path) -> None:
    listed = ok("decide", asked)
    assert "options:\n  1: stand\n  2: shift-left\n  3: shift-right\n" in listed.out
    assert "topic: when_hit" in listed.out and "section: F3" in listed.out
    assert not list(asked.parent.glob("reply*"))


def test_decide_by_number_writes_the_option(cli_game: CliGame, asked: Path) -> None:
    out = cli_game.work / "r.yaml"
    done = ok("decide", asked, "--answer", "2", "--key", cli_game.key("red"), "--out", out)
    assert "(answer: shift-left)" in done.out
    assert yamlio.load_file(out).data["answer"] == "shift-left"
    refused = run("decide", asked, "--answer", "2")
    assert refused.rc == 2 and "--key" in refused.err


def test_the_same_answer_twice_is_stored_once(cli_game: CliGame, asked: Path) -> None:
    first, again = cli_game.work / "r1.yaml", cli_game.work / "r2.yaml"
    ok("decide", asked, "--answer", "shift-left", "--key", cli_game.key("red"), "--out", first)
    ok("submit", cli_game.root, first)
    # the same answer in other bytes (a comment line), signed again
    again.write_bytes(b"# sent twice\n" + first.read_bytes())
    ok("sign", again, "--key", cli_game.key("red"))
    second = ok("submit", cli_game.root, again)
    replies = sorted(p.name for p in asked.parent.glob("reply-*.yaml") if "receipt" not in p.name)
    assert len(replies) == 1, replies
    assert replies[0] in second.out
    # a different answer replaces it; the first file sent again is then refused as a replay
    other = cli_game.work / "r3.yaml"
    ok("decide", asked, "--answer", "3", "--key", cli_game.key("red"), "--out", other)
    ok("submit", cli_game.root, other)
    replayed = run("submit", cli_game.root, first)
    assert replayed.rc == 1 and "reads as a replay" in replayed.out, replayed.text
    assert len([p for p in asked.parent.glob("reply-*.yaml") if "receipt" not in p.name]) == 2


@pytest.mark.parametrize("ruleset_id", ["fbsm", "toc"])
def test_every_decision_topic_is_documented(ruleset_id: str) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / f"{ruleset_id}.md").read_text(encoding="utf-8")
    assert "\n## Decisions\n" in page
    section = page.split("\n## Decisions\n", 1)[1].split("\n## ", 1)[0]
    topics = [name for name, rule in get(ruleset_id).standing_schema()["properties"].items()
              if "ask" in rule.get("enum", [])]
    assert topics
    for topic in topics:
        assert f"| `{topic}`" in section, f"docs/{ruleset_id}.md, Decisions: no row for {topic}"
    assert "pbem decide" in section and "--answer" in section


def test_a_game_s_own_names_work_without_the_game() -> None:
    req = request("defensive_fire", PLANS)
    assert answer_from_text(req, "hold") == {}  # only toc names a plan `hold`: no --game needed
    assert answer_from_text(req, "none") == {}  # the generic name


def test_decide_refuses_another_side_s_key(cli_game: CliGame, asked: Path) -> None:
    out = cli_game.work / "r.yaml"
    refused = run("decide", asked, "--answer", "1", "--key", cli_game.key("blue"), "--out", out,
                  "--game", cli_game.root / "game.yaml")
    assert refused.rc == 2 and "this request asks red, and the key given is blue's" in refused.err, refused.text
    assert not out.exists()
    # without --game the key cannot be checked; the referee then refuses the reply with one error only
    ok("decide", asked, "--answer", "1", "--key", cli_game.key("blue"), "--out", out)
    submitted = run("submit", cli_game.root, out)
    assert submitted.rc == 1 and submitted.out.count("rejected: ") == 1
    assert "signed with blue's key" in submitted.out and submitted.out.strip().splitlines()[1:] == ["1 problem(s)"], \
        submitted.out
