"""Review probes: attacks on the trust model, the fog of war and the archive.

Every probe that exposes a defect is `xfail(strict=True)` with the defect in `reason`, so the
suite stays green and a fix turns the probe into an XPASS (then drop the mark). Probes of
defences that hold are ordinary tests.

Referee cheats are built with `forge_turn`, which does what a dishonest referee with the
referee key and the chain secret can do: resolve an adjudication with inputs of its choice,
write a turn file and every view, and sign them. `test_forge_turn_honestly_passes_audit`
proves the forger itself produces archives the audit accepts, so an xfail below fails because
of the cheat, not because of the forger.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Mapping

import pytest
import yaml

from pbem.core import chance, ruleset, signing, yamlio
from pbem.core.adjudicator import (AcceptedOrders, DecisionFile, newest_orders, render_views, resolve_adjudication,
                                   turn_document)
from pbem.core.archive import Archive, commit_folder, seq_dir, turn_rel, view_rel
from pbem.core.audit import audit, verify_views
from pbem.core.errors import YamlError
from pbem.core.game import hidden_chain_seed, initial_state, load_game
from pbem.core.position import load_turn
from pbem.demo import DemoGame, setup_demo
from tests.rulesets.duel import Duel
from tests.test_cli_lifecycle import run, secret_of
from tests.test_hostile_input import (  # noqa: F401  (fixtures)
    Table, decision_table, fire_table, reply, request_hash, table)

# --- a dishonest referee's tool ----------------------------------------------------------------------


def forge_turn(game: DemoGame, seq: int, answers: Mapping[int, Any], *,
               accepted: Mapping[str, AcceptedOrders] | None = None,
               records: Mapping[int, DecisionFile] | None = None) -> dict[str, Any]:
    """(Re)write turn `seq` and its views from chosen inputs, signed with the referee key."""
    root = game.root
    loaded = load_game(root)
    archive = Archive(root)
    rules = loaded.ruleset
    if seq == 1:
        state, previous_hash = initial_state(loaded), loaded.hash
    else:
        previous, data = load_turn(archive, loaded, seq - 1)
        state, previous_hash = previous["state"], chance.file_hash(data)
    rules = ruleset.rules_for(loaded.ruleset, state)
    if accepted is None:
        accepted = newest_orders(archive, loaded, seq)
    seed = chance.chain_seed(loaded.id, secret_of(root), loaded.chain_length, seq)
    hidden = hidden_chain_seed(loaded, seq)
    outcome = resolve_adjudication(rules, loaded.id, loaded.sides, seq, state, previous_hash, seed, accepted, answers,
                                   hidden)
    assert outcome.pending is None, outcome.pending
    turn = turn_document(loaded, seq, previous_hash, seed, outcome, accepted, rules.awaiting(state), records or {},
                         rules, hidden)
    turn_bytes = yamlio.dump(turn).encode()
    namespace = loaded.turn_namespace()
    previous_views = {side: chance.file_hash(archive.read(view_rel(seq - 1, side))) for side in loaded.sides}
    files = {"turn.yaml": turn_bytes, "turn.yaml.sig": signing.sign(turn_bytes, game.referee, namespace).encode()}
    for side, data in render_views(rules, loaded, turn, turn_bytes, previous_views).items():
        files[f"{side}.yaml"] = data
        files[f"{side}.yaml.sig"] = signing.sign(data, game.referee, namespace).encode()
    final = root / "turns" / seq_dir(seq)
    if final.exists():
        shutil.rmtree(final)
    commit_folder(final, files)
    return turn


def records_of(game: DemoGame, seq: int) -> dict[int, DecisionFile]:
    """The decision records the honest turn `seq` used, as DecisionFile objects."""
    turn = yamlio.load_bytes((game.root / turn_rel(seq)).read_bytes(), "t").data
    out = {}
    for entry in turn["decisions"]:
        answer = yamlio.load_bytes((game.root / entry["reply"]).read_bytes(), "r").data["answer"]
        out[entry["index"]] = DecisionFile(entry["index"], entry["side"], entry["request"], entry["request_hash"],
                                           entry["reply"], entry["reply_hash"], answer)
    return out


# --- a small ruleset for the probes ----------------------------------------------------------------------


class Probe(ruleset.Ruleset):
    """One phase `go` awaited by `setup.awaits`; optionally asks blue then red the same question [0, 1]."""

    id = "review-probe"
    version = "1"
    title = "review probe (test fixture)"

    def sides(self, scenario: Any) -> list[str]:
        return ["red", "blue"]

    def initial_state(self, context: Any, scenario: Any) -> dict[str, Any]:
        return {"phase": "go", "ask": scenario["setup"]["ask"], "awaits": scenario["setup"]["awaits"], "log": []}

    def phase(self, context: Any, state: dict[str, Any]) -> str:
        return str(state["phase"])

    def phase_names(self) -> list[str]:
        return ["go", "end"]

    def awaiting(self, context: Any, state: dict[str, Any]) -> list[str]:
        return list(state["awaits"]) if state["phase"] == "go" else []

    def result(self, context: Any, state: dict[str, Any]) -> dict[str, Any] | None:
        return {"winner": None, "reason": "done", "section": "P9"} if state["phase"] == "end" else None

    def order_schema(self, phase: str) -> dict[str, Any]:
        return {"type": "array", "maxItems": 0}

    def standing_schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, "properties": {"mood": {"enum": ["calm", "angry"]}}}

    def validate(self, context: Any, view: Any, side: str, orders: list[Any]) -> list[Any]:
        return []

    def resolve(self, context: Any, state: Any, submissions: Any, dice: Any, decisions: Any) -> Any:
        if state["ask"]:
            first = decisions.ask("blue", "pick", "P1", {}, [0, 1])
            second = decisions.ask("red", "pick", "P1", {}, [0, 1])
            state["log"] = [first, second]
        state["phase"] = "end"
        return ruleset.Resolution(state, [{"type": "done", "log": state["log"]}])

    def view(self, context: Any, state: Any, side: str) -> Any:
        return {key: value for key, value in state.items() if key != ruleset.STANDING_KEY}

    def visible(self, context: Any, event: Any, side: str) -> Any:
        return dict(event)


ruleset.register(Probe.id, f"{__name__}:Probe")


def probe_table(tmp_path: Path, *, ask: bool, awaits: list[str]) -> Table:
    scenario = tmp_path / "probe.yaml"
    scenario.write_text(yamlio.dump({"pbem": 1, "kind": "scenario", "ruleset": Probe.id, "title": "probe",
                                     "setup": {"ask": ask, "awaits": awaits}}))
    table = Table(setup_demo(Probe.id, scenario, tmp_path / "work", say=lambda _: None), tmp_path / "mail")
    table.mail.mkdir()
    return table


def request_of(table: Table, seq: int, index: int) -> str:
    return chance.file_hash((table.root / f"decisions/{seq_dir(seq)}/request-{index:03d}.yaml").read_bytes())


def two_decision_game(tmp_path: Path) -> Table:
    """Adjudication 1 of the probe: blue is asked first and answers 0, red second and answers 1."""
    table = probe_table(tmp_path, ask=True, awaits=["red", "blue"])
    game = table.game_id
    table.accept("red", "red.yaml", table.orders("red", []))
    table.accept("blue", "blue.yaml", table.orders("blue", []))
    assert "decision from blue" in table.adjudicate().out
    table.accept("blue", "b.yaml", reply("blue", request_of(table, 1, 0), 0, seq=1, game=game))
    assert "decision from red" in table.adjudicate().out
    table.accept("red", "r.yaml", reply("red", request_of(table, 1, 1), 1, seq=1, game=game))
    assert "adjudication 1 done" in table.adjudicate().out
    assert audit(table.root) == []
    return table


# --- the forger is sound ----------------------------------------------------------------------------------


def test_forge_turn_honestly_passes_audit(tmp_path: Path) -> None:
    table = two_decision_game(tmp_path)
    before = (table.root / turn_rel(1)).read_bytes()
    forge_turn(table.game, 1, {0: 0, 1: 1}, records=records_of(table.game, 1))
    assert (table.root / turn_rel(1)).read_bytes() == before
    assert audit(table.root) == []


def test_forge_turn_with_a_visible_lie_is_caught(tmp_path: Path) -> None:
    """Control: swapping answers where a request's bytes would change is caught by the replay."""
    table = two_decision_game(tmp_path)
    records = records_of(table.game, 1)
    forge_turn(table.game, 1, {0: 1, 1: 1}, records=records)
    assert audit(table.root) != []  # blue's recorded reply says 0, the turn used 1


# --- 1. fog of war ------------------------------------------------------------------------------------------


def test_opponents_secret_deployment_is_not_recoverable_from_my_view(table: Table) -> None:
    table.accept("red", "red-1.yaml", table.orders("red", [{"place": "hq", "cell": 3}]))
    table.accept("blue", "blue-1.yaml", table.orders("blue", [{"place": "hq", "cell": 4}]))
    table.adjudicate()
    mine = yamlio.load_file(table.root / view_rel(1, "red")).data
    assert "cell" not in mine["state"]["enemy"]  # the rules hide blue's HQ from red
    blue = next(entry for entry in mine["dice"]["inputs"] if entry["side"] == "blue")
    game_hash = chance.file_hash((table.root / "game.yaml").read_bytes())
    recovered = None
    for cell in range(1, mine["state"]["cells"] + 1):
        guess = {"pbem": 2, "kind": "orders", "game": mine["game"], "seq": 1, "side": "blue", "phase": "deploy",
                 "ack": game_hash, "entropy": blue["entropy"], "orders": [{"place": "hq", "cell": cell}]}
        if chance.file_hash(yamlio.dump(guess).encode()) == blue["order_hash"]:
            recovered = cell
    assert recovered is None, f"red learns that blue's HQ is in cell {recovered}"


def test_referee_cannot_pick_an_older_decision_reply(decision_table: Table) -> None:
    table = decision_table
    table.accept("red", "stand.yaml", reply("red", request_hash(table), "stand"))
    newest = table.accept("red", "shift.yaml", reply("red", request_hash(table), "shift-left"))
    rel = next(word for word in newest.out.split() if word.startswith("decisions/"))
    hidden = table.root.parent / "hidden"
    hidden.mkdir()
    for suffix in ("", ".sig"):
        shutil.move(table.root / (rel + suffix), hidden / (Path(rel).name + suffix))
    assert "adjudication 2 done" in table.adjudicate().out  # resolved with "stand"
    for suffix in ("", ".sig"):
        shutil.move(hidden / (Path(rel).name + suffix), table.root / (rel + suffix))
    assert audit(table.root) != [], "the turn used red's older reply although a newer one is archived"


def test_referee_cannot_send_a_request_with_fewer_options(decision_table: Table) -> None:
    table = decision_table
    game = load_game(table.root)
    honest = yamlio.load_bytes((table.root / "decisions/0002/request-000.yaml").read_bytes(), "r").data
    assert honest["options"] == ["stand", "shift-left", "shift-right"]
    forged = yamlio.dump({**honest, "options": ["stand"]}).encode()
    forged_rel = "decisions/0002/sent-request.yaml"
    Archive(table.root).write_signed_rel(forged_rel, forged, signing.sign(forged, table.game.referee,
                                                                           game.turn_namespace()))
    answer = reply("red", chance.file_hash(forged), "stand")  # red had no other choice
    reply_rel = "decisions/0002/red-reply.yaml"
    Archive(table.root).write_signed_rel(reply_rel, answer, signing.sign(answer, table.key("red"),
                                                                          game.orders_namespace()))
    record = DecisionFile(0, "red", forged_rel, chance.file_hash(forged), reply_rel, chance.file_hash(answer), "stand")
    forge_turn(table.game, 2, {0: "stand"}, records={0: record})
    assert audit(table.root) != [], "red answered a request whose options differ from the one the replay asks"


def test_referee_cannot_swap_answers_between_sides(tmp_path: Path) -> None:
    table = two_decision_game(tmp_path)
    honest = records_of(table.game, 1)
    swapped = {0: DecisionFile(0, "red", *[getattr(honest[1], f) for f in
                                           ("request_rel", "request_hash", "reply_rel", "reply_hash", "answer")]),
               1: DecisionFile(1, "blue", *[getattr(honest[0], f) for f in
                                            ("request_rel", "request_hash", "reply_rel", "reply_hash", "answer")])}
    turn = forge_turn(table.game, 1, {0: 1, 1: 0}, records=swapped)
    assert turn["state"]["log"] == [1, 0]  # blue said 0 and red said 1; the turn says otherwise
    assert audit(table.root) != []


def test_referee_cannot_drop_standing_only_orders(tmp_path: Path) -> None:
    table = probe_table(tmp_path, ask=False, awaits=["red"])
    table.accept("red", "red.yaml", table.orders("red", []))
    table.accept("blue", "blue.yaml", table.orders("blue", [], standing={"mood": "angry"}))
    accepted = newest_orders(Archive(table.root), load_game(table.root), 1)
    assert set(accepted) == {"red", "blue"}
    turn = forge_turn(table.game, 1, {}, accepted={"red": accepted["red"]})
    assert turn["orders"][1] == {"side": "blue", "status": "not-awaited"}
    assert turn["state"]["standing"]["blue"] == {}
    assert audit(table.root) != [], "blue's accepted orders were silently dropped"


def test_an_abandoned_decision_request_is_flagged(decision_table: Table) -> None:
    table = decision_table
    request = table.root / "decisions/0002/request-000.yaml"
    aside = table.root.parent / "aside"
    aside.mkdir()
    for suffix in ("", ".sig"):
        shutil.move(Path(str(request) + suffix), aside / ("request-000.yaml" + suffix))
    table.accept("blue", "blue-again.yaml", table.orders("blue", [{"fire": 1}]))  # orders reopened
    assert "adjudication 2 done" in table.adjudicate().out
    for suffix in ("", ".sig"):
        shutil.move(aside / ("request-000.yaml" + suffix), Path(str(request) + suffix))
    assert audit(table.root) != [], "red holds a signed request for seq 2 that the turn pretends never existed"


def test_referee_dropping_awaited_orders_is_caught(tmp_path: Path) -> None:
    """Defence that holds: the same cheat against an awaited side is flagged."""
    table = probe_table(tmp_path, ask=False, awaits=["red", "blue"])
    table.accept("red", "red.yaml", table.orders("red", []))
    table.accept("blue", "blue.yaml", table.orders("blue", []))
    accepted = newest_orders(Archive(table.root), load_game(table.root), 1)
    forge_turn(table.game, 1, {}, accepted={"red": accepted["red"]})
    assert any("treats it as missing" in item.message for item in audit(table.root))


def test_verify_view_binds_the_previous_hash(table: Table) -> None:
    table.accept("red", "red-1.yaml", table.orders("red", [{"place": "hq", "cell": 3}]))
    table.accept("blue", "blue-1.yaml", table.orders("blue", [{"place": "hq", "cell": 4}]))
    table.adjudicate()
    path = table.root / view_rel(1, "red")
    view = yamlio.load_file(path).data
    view["dice"]["previous"] = "sha256:" + "ab" * 32  # any value the referee likes
    from pbem.core.views import recompute_phase_seed
    phase_seed = recompute_phase_seed(view, view["game"])
    view["dice"]["phase_seed"] = phase_seed.hex()
    for roll in view["dice"]["rolls"]:
        roll["value"] = chance.uniform(phase_seed, roll["n"], roll["i"])
    data = yamlio.dump(view).encode()
    forged = table.root.parent / "red-1.yaml"
    forged.write_bytes(data)
    forged.with_name("red-1.yaml.sig").write_text(signing.sign(data, table.game.referee,
                                                               load_game(table.root).turn_namespace()))
    assert verify_views([forged], table.root / "game.yaml") != []


# --- 3. player attacks ---------------------------------------------------------------------------------------


def test_a_replayed_superseded_orders_file_does_not_become_newest(fire_table: Table) -> None:
    table = fire_table
    first = table.file("red-a.yaml", table.orders("red", [{"fire": 5}]), "red")
    assert run("submit", table.root, first).rc == 0
    table.accept("red", "red-b.yaml", table.orders("red", [{"fire": 1}]))  # red changes its mind
    replayed = table.mail / "copy.yaml"  # blue re-sends red's first file, signature and all
    replayed.write_bytes(first.read_bytes())
    replayed.with_name("copy.yaml.sig").write_bytes(first.with_name("red-a.yaml.sig").read_bytes())
    run("submit", table.root, replayed)
    newest = newest_orders(Archive(table.root), load_game(table.root), 2)["red"]
    assert newest.orders == [{"fire": 1}]


def test_arrival_ten_thousand_is_not_lost(table: Table) -> None:
    table.accept("red", "red-1.yaml", table.orders("red", [{"place": "hq", "cell": 3}]))
    orders = table.root / "orders/0001"
    for suffix in ("", ".sig"):  # stands for 9998 earlier accepted submissions
        (orders / f"red-0001.yaml{suffix}").rename(orders / f"red-9999.yaml{suffix}")
    receipt = table.accept("blue", "blue-1.yaml", table.orders("blue", [{"place": "hq", "cell": 4}]))
    assert "accepted" in receipt.out
    assert "blue" in {side for side, _, _ in Archive(table.root).orders_files(1)}


def test_bool_answer_is_not_taken_for_an_integer_option(tmp_path: Path) -> None:
    table = probe_table(tmp_path, ask=True, awaits=["red", "blue"])
    table.accept("red", "red.yaml", table.orders("red", []))
    table.accept("blue", "blue.yaml", table.orders("blue", []))
    table.adjudicate()
    result = run("submit", table.root, table.file("b.yaml", reply("blue", request_of(table, 1, 0), True, seq=1,
                                                                  game=table.game_id), "blue"))
    assert result.rc != 0, result.text


def test_name_header_control_characters_are_not_echoed(table: Table) -> None:
    data = table.orders("red", [{"place": "hq", "cell": 3}], seq=7)
    signature = signing.sign(data, table.key("red"), f"pbem-orders@{table.game_id}")
    text = signing.armor(data, signature).replace("-----\n\n", "-----\nName: x\x1b[2Jy\n\n", 1)
    mail = table.mail / "mail.txt"
    mail.write_text(text)
    result = run("submit", table.root, mail)
    assert result.rc == 1
    assert "\x1b" not in result.err


def test_name_header_cannot_steer_where_a_file_is_stored(table: Table) -> None:
    """Defence that holds: the stored path comes from the signer and arrival number, never from Name:."""
    data = table.orders("red", [{"place": "hq", "cell": 3}])
    signature = signing.sign(data, table.key("red"), f"pbem-orders@{table.game_id}")
    mail = table.mail / "mail.txt"
    mail.write_text(signing.armor(data, signature, name="../../game.yaml"))
    game_before = (table.root / "game.yaml").read_bytes()
    result = run("submit", table.root, mail)
    assert result.rc == 0, result.text
    assert "orders/0001/red-0001.yaml" in result.out
    assert (table.root / "game.yaml").read_bytes() == game_before
    assert audit(table.root) == []


# --- 4. robustness and determinism ----------------------------------------------------------------------------


def test_dump_is_the_same_with_and_without_libyaml() -> None:
    pure = yamlio._make_dumper(yaml.SafeDumper)
    doc = {"unit": "Kampfgruppe \U0001F985", "note": "é"}
    assert yamlio.dump(doc) == yaml.dump(doc, Dumper=pure, default_flow_style=False, sort_keys=False,
                                         allow_unicode=True, width=yamlio._NO_WRAP, indent=2, line_break="\n")


def test_lone_surrogate_is_refused_by_the_pure_python_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "_Loader", yaml.SafeLoader)
    with pytest.raises(YamlError):
        yamlio.load_bytes(b'name: "\\ud800"\n', "o.yaml")


def test_numeric_side_names_are_listed(tmp_path: Path) -> None:
    folder = tmp_path / "orders/0001"
    folder.mkdir(parents=True)
    for name in ("red-0001.yaml", "0012-0002.yaml"):
        (folder / name).write_text("x")
        (folder / (name + ".sig")).write_text("x")
    assert [side for side, _, _ in Archive(tmp_path).orders_files(1)] == ["red", "0012"]


def test_adjudicate_refuses_a_different_ruleset_version(fire_table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    table = fire_table
    table.accept("red", "r.yaml", table.orders("red", [{"fire": 5}]))
    table.accept("blue", "b.yaml", table.orders("blue", [{"fire": 1}]))
    monkeypatch.setattr(Duel, "version", "2")
    result = run("adjudicate", table.root, "--key", table.root.parent / "keys" / "referee")
    assert result.rc != 0 and "version" in result.err, result.text
