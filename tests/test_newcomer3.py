"""What a newcomer's third fresh-clone run found in the player's commands, each as the player reads it.

1. `pbem check` against an older view than the ledger holds: that one cause, and the view to use;
2. `pbem orders`/`pbem sign` on a superseded view: the wrong file first, a rewind only second;
3. `pbem check` given its files in the wrong order, or game.yaml for the view: said from `kind:`;
4. the orders deadline in `status` (both), `report` and the orders template;
5. the template's check line names --game;
6. `check`'s count of problems comes after them, on their stream;
7. a bad game id is explained in words;
8. `decide` names its reply after the request's seq and index;
9. the file that counts, sent again: "already received", with the same receipt.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core import signing, yamlio
from pbem.core.intake import submit
from tests.test_cli_lifecycle import run
from tests.test_ledger import deployed
from tests.test_verify_view_v2 import Play, new_play

PROTOCOL_4A = "(see docs/protocol.md §4a)"


def red_on_view_1(tmp_path: Path) -> tuple[Play, Path, Path, Path]:
    """Red has views 0 and 1, its ledger holds view 1 (kept by `pbem orders --game`), and orders built on view 1."""
    play = deployed(tmp_path)
    view0, view1 = play.views("red")
    orders = play.folder("red") / "orders-0002.yaml"
    made = run("orders", view1, "--game", play.game_file, "--ledger", play.ledger("red"), "--out", orders)
    assert made.rc == 0, made.text
    return play, view0, view1, orders


# --- 1. check against an old view ----------------------------------------------------------------------------


def test_check_against_an_older_view_than_the_ledger_holds_says_so_as_the_one_cause(tmp_path: Path) -> None:
    play, view0, view1, orders = red_on_view_1(tmp_path)
    result = run("check", view0, orders, "--game", play.game_file, "--ledger", play.ledger("red"))
    assert result.rc == 1, result.text
    problem, count = result.out.splitlines()
    assert problem.startswith(f"{view0} is not your latest view: your ledger holds view 1 of red ("), problem
    assert "view-0001-red-" in problem and "; check against that one" in problem and PROTOCOL_4A in problem, problem
    assert "ahead of the game" not in result.out and "awaited" not in result.out and "ack" not in result.out
    assert count == "1 problem(s)"
    # the control: against view 1 itself, nothing is said about views
    assert "latest view" not in run("check", view1, orders, "--game", play.game_file, "--ledger",
                                    play.ledger("red")).text


def test_without_the_game_the_ledger_is_found_through_the_view(tmp_path: Path) -> None:
    play, view0, _, orders = red_on_view_1(tmp_path)
    result = run("check", view0, orders, "--ledger", play.ledger("red"))
    assert result.rc == 1 and f"{view0} is not your latest view" in result.out, result.text
    fresh = run("check", view0, orders, "--ledger", tmp_path / "fresh")  # a ledger without view 1 knows nothing
    assert "latest view" not in fresh.text and "ahead" in fresh.out, fresh.text


# --- 2. orders and sign on an old view -----------------------------------------------------------------------


def test_orders_on_an_older_view_say_first_which_view_is_the_latest(tmp_path: Path) -> None:
    play, view0, _, _ = red_on_view_1(tmp_path)
    result = run("orders", view0, "--game", play.game_file, "--ledger", play.ledger("red"))
    assert result.rc == 2, result.text
    err = result.err
    assert f"{view0}: this is not your latest view (view 1 is, at " in err and "build your orders on it" in err, err
    assert err.index("not your latest view") < err.index("rewound") < err.index("signed proof"), err
    assert "only if the referee really asked you for orders for seq 1 again" in err.lower(), err
    assert "legal: orders for seq 2, built on view 1 of red" in err, err


def test_sign_of_orders_on_an_older_view_names_the_view_they_are_built_on(tmp_path: Path) -> None:
    from tests.test_ledger import play_orders_on

    play, view0, _, _ = red_on_view_1(tmp_path)
    stale = play.folder("red") / "stale.yaml"
    stale.write_bytes(play_orders_on(view0))
    result = run("sign", stale, "--key", play.work / "keys" / "red", "--game", play.game_file,
                 "--ledger", play.ledger("red"))
    assert result.rc == 2 and not Path(str(stale) + ".sig").exists(), result.text
    assert f"{stale}: these orders are built on view 0 of red, which is not your latest view (view 1 is, at " \
        in result.err, result.err
    assert result.err.index("build your orders on it") < result.err.index("rewound"), result.err


# --- 3. check's files in the wrong order ---------------------------------------------------------------------


def test_check_with_its_files_swapped_says_which_goes_first(tmp_path: Path) -> None:
    play, _, view1, orders = red_on_view_1(tmp_path)
    result = run("check", orders, view1, "--game", play.game_file)
    assert result.rc == 2, result.text
    [line] = result.err.splitlines()
    assert f"the first argument must be your view (kind: view); {orders.name} is an orders file: give the view " \
           "first, then the orders" in line, line
    kind_line = 1 + orders.read_text(encoding="utf-8").splitlines().index("kind: orders")
    assert f"{orders}:{kind_line}:7: at kind: " in line and f"legal: pbem check {view1} {orders}" in line, line


def test_check_given_the_game_file_for_the_view_points_at_the_latest_view(tmp_path: Path) -> None:
    play, _, view1, orders = red_on_view_1(tmp_path)  # orders for seq 2: built on view 1
    result = run("check", play.game_file, orders, "--ledger", tmp_path / "no-ledger")
    assert result.rc == 2, result.text
    [line] = result.err.splitlines()
    assert "game.yaml is the game file; for your orders for seq 2 check against view 1 of red " \
           "(turns/0001/red.yaml as the referee sent it)" in line, line
    kept = run("check", play.game_file, orders, "--ledger", play.ledger("red")).err  # the ledger holds view 1
    assert "check against your latest view, " in kept and "view-0001-red-" in kept, kept
    assert "missing required" not in result.err


def test_check_given_a_view_for_the_orders_says_so(tmp_path: Path) -> None:
    _, view0, view1, _ = red_on_view_1(tmp_path)
    result = run("check", view1, view0)
    assert result.rc == 2 and len(result.err.splitlines()) == 1, result.text
    assert f"the second argument must be your orders file (kind: orders); {view0.name} is a view file" in result.err


# --- 4. and 5. the deadline, and the template's check line ------------------------------------------------------


def test_the_deadline_is_shown_by_status_report_and_the_template(tmp_path: Path) -> None:
    play = new_play(tmp_path, settings={"deadline": "72h"})
    view = play.views("red")[0]
    deadline = yamlio.load_file(view).data["next"]["deadline"]
    for public in ((), ("--public",)):
        status = run("status", play.root, *public)
        assert f"deadline for these orders: {deadline} (UTC)" in status.out.splitlines(), status.text
    report = run("report", view)
    assert f"  Deadline: {deadline} (UTC)" in report.out, report.text
    template = run("orders", view, "--game", play.game_file, "--ledger", play.ledger("red"))
    assert f"# Deadline: {deadline} (UTC)" in template.out, template.text
    assert "# Check with: pbem check VIEW.yaml THIS.yaml --game game.yaml " in template.out
    # the control: a game without a deadline says none
    plain = new_play(tmp_path / "plain")
    assert "eadline" not in run("status", plain.root).out + run("report", plain.views("red")[0]).out


# --- 6. the count after the problems ---------------------------------------------------------------------------


def test_the_count_of_problems_follows_them_on_their_stream(tmp_path: Path) -> None:
    play, _, view1, orders = red_on_view_1(tmp_path)
    doc = yamlio.load_file(orders).data
    doc["orders"] = [{"place": "nobody", "cell": 99}, {"bogus": 1}]
    orders.write_bytes(yamlio.dump(doc).encode("utf-8"))
    result = run("check", view1, orders, "--game", play.game_file)
    assert result.rc == 1, result.text
    lines = result.out.splitlines()
    assert len(lines) >= 3 and lines[-1] == f"{len(lines) - 1} problem(s)", result.out
    assert "problem(s)" not in result.err


# --- 7. a game id ---------------------------------------------------------------------------------------------


def test_a_bad_game_id_is_explained_in_words(tmp_path: Path) -> None:
    play = new_play(tmp_path / "any")
    keys = play.work / "keys"
    result = run("new", play.root / "scenario.yaml", "--id", "w1",
                 "--referee-key", keys / "referee", "--side", f"red={keys / 'red.pub'}",
                 "--side", f"blue={keys / 'blue.pub'}", "--dir", tmp_path / "w1")
    assert result.rc == 2, result.text
    assert ("game id 'w1': a game id is 3 to 64 characters: lowercase letters, digits and hyphens, starting with a "
            "letter or digit (docs/protocol.md §3)") in result.err, result.err
    assert "[a-z0-9]" not in result.err


# --- 8. the reply's name ----------------------------------------------------------------------------------------


def test_decide_names_the_reply_after_the_requests_seq_and_index(tmp_path: Path) -> None:
    signing.write_keypair("red", tmp_path)
    doc = {"pbem": 2, "kind": "decision-request", "game": "demo-duel", "seq": 6, "side": "red", "index": 0,
           "topic": "hit", "section": "F3", "question": {"cell": 2}, "options": ["stand", "shift-left"],
           "master_previous": "sha256:" + "ab" * 32, "deadline": "2026-03-04T12:00:00Z"}
    request = tmp_path / "request-000.yaml"
    request.write_bytes(yamlio.dump(doc).encode("utf-8"))
    result = run("decide", request, "--answer", "stand", "--key", tmp_path / "red")
    assert result.rc == 0, result.text
    assert (tmp_path / "reply-0006-000.yaml").is_file() and (tmp_path / "reply-0006-000.yaml.sig").is_file()
    assert not (tmp_path / "reply-000.yaml").exists()


# --- 9. the same file again -----------------------------------------------------------------------------------


def test_the_file_that_counts_sent_again_is_already_received_with_its_receipt(tmp_path: Path) -> None:
    play = new_play(tmp_path)
    first = play.send("red", play.orders("red", [{"place": "hq", "cell": 3}]), "o.yaml")
    assert str(first).startswith("accepted orders of red for seq 1: orders/0001/red-0001.yaml ")
    again = submit(play.root, play.work / "mail" / "o.yaml", referee_key=play.game.referee, now=play.game.clock)
    (receipt,) = again.receipts
    assert str(receipt).startswith("already received as orders/0001/red-0001.yaml (the same receipt): orders of "
                                   "red for seq 1, sha256:"), str(receipt)
    assert receipt.signed == first.signed and f"signed receipt {first.signed}" in str(receipt)
    assert "still awaited: blue" in receipt.for_referee()
    assert len(list((play.root / "orders" / "0001").glob("red-*[0-9].yaml"))) == 1


# --- 10. a list written as a string or a mapping ---------------------------------------------------------------

TOC_VIEW_0 = Path(__file__).resolve().parent.parent / "samples" / "toc" / "game" / "views" / "0000" / "german.yaml"


def toc_orders(tmp_path: Path, body: str) -> Path:
    """The German template for seq 1 with `body` in place of `orders: []`."""
    orders = tmp_path / "o.yaml"
    made = run("orders", TOC_VIEW_0, "--ledger", tmp_path / "ledger", "--out", orders)
    assert made.rc == 0, made.text
    orders.write_text(orders.read_text(encoding="utf-8").replace("orders: []\n", body), encoding="utf-8")
    return orders


def test_a_path_written_as_one_string_is_answered_with_the_list_to_write(tmp_path: Path) -> None:
    orders = toc_orders(tmp_path, 'orders:\n- {move: [G-IR12], path: "3100, 3001"}\n')
    result = run("check", TOC_VIEW_0, orders, "--ledger", tmp_path / "ledger")
    assert result.rc == 1, result.text
    assert ('order 1: at orders[0].path: expected a list, got the string "3100, 3001": write ["3100", "3001"]'
            in result.out), result.out
    orders.write_text(orders.read_text(encoding="utf-8").replace('"3100, 3001"', '["3100", "3001"]'), encoding="utf-8")
    assert "expected a list" not in run("check", TOC_VIEW_0, orders, "--ledger", tmp_path / "ledger").out


def test_orders_written_as_a_mapping_are_told_to_start_each_with_a_dash(tmp_path: Path) -> None:
    orders = toc_orders(tmp_path, 'orders:\n  move: [G-IR12]\n  path: ["3100", "3001"]\n')
    result = run("check", TOC_VIEW_0, orders, "--ledger", tmp_path / "ledger")
    assert result.rc == 1, result.text
    assert "at orders: expected a list, got a mapping: start each order with `- `" in result.out, result.out


def test_the_list_hint_quotes_each_item_and_leaves_what_it_cannot_split() -> None:
    from pbem.core.list_hints import list_hint, with_list_hint

    assert list_hint('say "hi", 0101 ,', ("orders", 0, "path")) == 'write ["say \\"hi\\"", "0101"]'
    assert list_hint({"a": 1}, ("standing",)) == "start each item with `- `"
    assert list_hint("x" * 201, ("path",)) is None and list_hint(" , ", ("path",)) is None
    assert with_list_hint("expected a string, got a list", [1], ("x",)) == "expected a string, got a list"
