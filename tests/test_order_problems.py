"""Order problems said as rules, all of a file's problems in one answer, and late orders named as such.

`pbem check` (the player's pre-check) and `pbem submit` (the referee's intake) share these
checks, so each case is run through `check_orders` on a recorded view, and the late-orders
cases through the intake of a game with a deadline.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from pbem.core import signing, yamlio
from pbem.core.clock import StepClock
from pbem.core.game import new_game
from pbem.core.intake import submit
from pbem.core.players import check_orders, orders_document, read_view
from pbem.core.adjudicator import adjudicate
from tests.conftest import DUEL_SCENARIO

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
US_SETUP = SAMPLES / "fbsm" / "game" / "views" / "0000" / "us.yaml"
GERMAN_ENTRY = SAMPLES / "toc" / "game" / "views" / "0000" / "german.yaml"


def checked(view_path: Path, tmp_path: Path, orders: list[Any]) -> list[str]:
    view = read_view(view_path)
    path = tmp_path / "orders.yaml"
    path.write_text(yamlio.dump(orders_document(view, orders)), encoding="utf-8")
    return [str(problem) for problem in check_orders(view, path)]


def test_an_order_of_another_phase_is_named_with_the_sequence_rule(tmp_path: Path) -> None:
    [found] = checked(US_SETUP, tmp_path, [{"move": "US01", "path": ["2717"]}])
    assert "a move order is not allowed in us-setup (rule 5.1); legal: setup, concede" in found, found
    assert "matches none of the allowed forms" not in found and '"concede"' not in found
    [found] = checked(GERMAN_ENTRY, tmp_path, [{"sequence": "fight-move"}])
    assert "a sequence order is not allowed in german-movement (rule 5.2); legal: move, top, next_phase, concede" \
        in found, found


def test_a_misspelt_key_gets_a_suggestion(tmp_path: Path) -> None:
    found = checked(US_SETUP, tmp_path, [{"setup": "US01", "hxe": "2717"}])
    assert any('unknown key "hxe" in a setup order (did you mean "hex"?)' in line for line in found), found
    assert any('missing required key "hex" in a setup order' in line for line in found), found
    [found_kind] = checked(US_SETUP, tmp_path, [{"stup": "US01", "hex": "2717"}])
    assert '"stup" is no kind of order: did you mean "setup"?' in found_kind and "(rule 5.1)" in found_kind


def test_an_order_is_judged_by_the_kind_it_names_first(tmp_path: Path) -> None:
    [found] = checked(US_SETUP, tmp_path, [{"setup": "US01", "hex": "2717", "concede": True}])
    assert 'unknown key "concede" in a setup order' in found, found


def test_schema_and_rule_problems_come_in_one_answer(tmp_path: Path) -> None:
    found = checked(US_SETUP, tmp_path, [{"move": "US01", "path": ["2717"]},  # wrong kind for the phase
                                         {"setup": "US02", "hex": "0101"},  # a rule: not on the map
                                         {"setup": "HW01", "hxe": "2718"}])  # a typo
    assert len(found) == 4, found
    assert "order 1:" in found[0] and "not allowed in us-setup" in found[0]
    assert "order 2:" in found[1] and "0101 is not on the map (rule 3.2)" in found[1]
    assert all("order 3:" in line for line in found[2:])
    lines = [int(line.split(":")[1]) for line in found]
    assert lines == sorted(lines)  # in the order of the file


def test_the_generic_words_serve_a_ruleset_without_a_sequence_section(tmp_path: Path) -> None:
    root = duel_game(tmp_path, None)
    view = read_view(root / "views" / "0000" / "red.yaml")
    path = tmp_path / "o.yaml"
    path.write_text(yamlio.dump(orders_document(view, [{"fire": 2}])), encoding="utf-8")
    [found] = [str(p) for p in check_orders(view, path)]
    assert "a fire order is not allowed in deploy; legal: place" in found and "(rule" not in found, found


# --- late orders --------------------------------------------------------------------------------------------


def duel_game(tmp_path: Path, deadline: str | None) -> Path:
    for name in ("referee", "red", "blue"):
        signing.write_keypair(name, tmp_path / "keys")
    keys = keys_of(tmp_path)
    root = tmp_path / "game"
    new_game(DUEL_SCENARIO, "late-duel", keys["referee"], {s: keys[s].public_line for s in ("red", "blue")}, root,
             settings={"deadline": deadline} if deadline else None, now=StepClock())
    return root


def keys_of(tmp_path: Path) -> dict[str, signing.SigningKey]:
    return {name: signing.load_signing_key(tmp_path / "keys" / name, passphrase=b"")
            for name in ("referee", "red", "blue")}


def send(root: Path, tmp_path: Path, side: str, cell: int, when: str, name: str) -> list[str]:
    key = keys_of(tmp_path)[side]
    view = read_view(root / "views" / "0000" / f"{side}.yaml")
    data = yamlio.dump(orders_document(view, [{"place": "hq", "cell": cell}])).encode("utf-8")
    path = tmp_path / name
    path.write_bytes(data)
    path.with_name(name + ".sig").write_text(signing.sign(data, key, signing.namespace("orders", "late-duel")))
    moment = datetime.datetime.fromisoformat(when.replace("Z", "+00:00"))
    result = submit(root, path, referee_key=keys_of(tmp_path)["referee"], now=lambda: moment)
    return [str(error) for error in result.errors]


def test_orders_after_the_deadline_say_so(tmp_path: Path) -> None:
    root = duel_game(tmp_path, "1h")
    assert send(root, tmp_path, "red", 2, "2026-01-01T00:10:00Z", "red.yaml") == []
    assert send(root, tmp_path, "blue", 3, "2026-01-01T00:20:00Z", "blue.yaml") == []
    adjudicate(root, keys_of(tmp_path)["referee"], now=StepClock("2026-01-01T00:30:00Z"))
    # blue's second thoughts for seq 1, sent after seq 1's deadline (00:00 plus an hour)
    [error] = send(root, tmp_path, "blue", 4, "2026-01-01T02:00:00Z", "blue-late.yaml")
    assert "these orders for seq 1 arrived at 2026-01-01T02:00:00Z, after its deadline" in error, error
    assert "replayed" not in error and "the game now awaits seq 2" in error


def test_orders_after_their_turn_without_a_deadline_are_too_late(tmp_path: Path) -> None:
    root = duel_game(tmp_path, None)
    assert send(root, tmp_path, "red", 2, "2026-01-01T00:10:00Z", "red.yaml") == []
    assert send(root, tmp_path, "blue", 3, "2026-01-01T00:20:00Z", "blue.yaml") == []
    adjudicate(root, keys_of(tmp_path)["referee"], now=StepClock("2026-01-01T00:30:00Z"))
    [error] = send(root, tmp_path, "blue", 4, "2026-01-01T00:40:00Z", "blue-late.yaml")
    assert "came after seq 1 was adjudicated: they are too late" in error and "replayed" not in error, error
    # the very file taken for seq 1, sent again, is a replay
    moment = datetime.datetime(2026, 1, 1, 0, 50, tzinfo=datetime.timezone.utc)
    again = submit(root, tmp_path / "red.yaml", referee_key=keys_of(tmp_path)["referee"], now=lambda: moment)
    assert "seq 1 is an old file (replayed?)" in str(again.errors[0])


def test_orders_signed_with_another_side_s_key_get_that_one_error(tmp_path: Path) -> None:
    root = duel_game(tmp_path, None)
    keys = keys_of(tmp_path)
    assert send(root, tmp_path, "red", 2, "2026-01-01T00:10:00Z", "red.yaml") == []
    assert send(root, tmp_path, "blue", 3, "2026-01-01T00:20:00Z", "blue.yaml") == []
    adjudicate(root, keys["referee"], now=StepClock("2026-01-01T00:30:00Z"))
    # red's seq-2 orders (acking red's own view 1) signed with blue's key: blue's ack would differ too
    view = read_view(root / "turns" / "0001" / "red.yaml")
    data = yamlio.dump(orders_document(view, [{"fire": 3}])).encode("utf-8")
    path = tmp_path / "red-2.yaml"
    path.write_bytes(data)
    path.with_name("red-2.yaml.sig").write_text(signing.sign(data, keys["blue"],
                                                             signing.namespace("orders", "late-duel")))
    moment = datetime.datetime(2026, 1, 1, 0, 40, tzinfo=datetime.timezone.utc)
    result = submit(root, path, referee_key=keys["referee"], now=lambda: moment)
    [error] = result.errors
    assert [p.message for p in error.problems] == ["wrong key: signed with blue's key, but this file says side "
                                                   "'red' and must be signed with red's key"]


def test_orders_inside_next_phase_get_the_same_words(tmp_path: Path) -> None:
    found = checked(GERMAN_ENTRY, tmp_path, [{"move": ["G-IR12"], "path": ["3100", "3001"], "mrach": True},
                                            {"next_phase": [{"bombard": "3122", "with": ["G-HA2"], "losse": []},
                                                            {"melle": "3122", "with": ["G-IR12"]}]}])
    text = "\n".join(found)
    assert 'unknown key "mrach" in a move order (did you mean "march"?)' in text, text
    assert 'at orders[1].next_phase[0].losse: unknown key "losse" (did you mean "losses"?)' in text, text
    assert 'at orders[1].next_phase[1].melle: unknown key "melle": did you mean "melee"?' in text, text
    assert "matches none of the allowed forms" not in text and "Additional properties" not in text
