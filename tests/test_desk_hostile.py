"""The desk under attack (issue #18, round two): what a hostile client, a hostile page or another local
user could send it, each refused with a clear answer and the desk still serving afterwards.

- a body nested too deep for the JSON parser, a Content-Length that is not a number, an order
  nesting deeper than any game's orders: 400 or an error naming the limit, never a dropped connection;
- a draft the game's clicking rules choke on: a 500 naming the failure, and the next request served;
- a client that connects and sends nothing (slowloris): its connection is closed, not kept for ever;
- the browser is opened on a private launch page, so the token is never on a command line another
  local user can read (`ps`).
"""

from __future__ import annotations

import json
import os
import socket
import stat
import threading
from pathlib import Path
from typing import Iterator

import pytest

from pbem.desk import server as desk_server
from pbem.desk.launch import open_in_browser
from pbem.desk.server import DeskServer
from pbem.desk.session import OrdersDesk
from tests.test_desk_server import ask
from tests.test_desk_session import DeskGame, play_to


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> DeskGame:
    return play_to(tmp_path_factory.mktemp("desk-hostile"), "toc", "german-movement", "german")


@pytest.fixture()
def server(game: DeskGame, tmp_path: Path) -> Iterator[DeskServer]:
    running = DeskServer(OrdersDesk(game.view_path("german"), out=tmp_path / "o.yaml"))
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()


def post_raw(server: DeskServer, route: str, raw: bytes, length: str | None = None) -> tuple[int, bytes]:
    """A POST with exactly these bytes and this Content-Length; (status, body), or (0, b"") when the desk
    hung up without answering."""
    head = (f"POST /{server.token}/{route} HTTP/1.1\r\nHost: {server.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length if length is not None else len(raw)}\r\nConnection: close\r\n\r\n")
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=30) as sock:
        sock.sendall(head.encode("latin-1") + raw)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    if not answer:
        return 0, b""
    status = int(answer.split(b" ", 2)[1])
    return status, answer.partition(b"\r\n\r\n")[2]


def still_serving(server: DeskServer) -> bool:
    status, _, body = ask(server, "POST", f"/{server.token}/api/check", {"orders": []})
    return status == 200 and json.loads(body)["ok"] in (True, False)


def test_json_nested_too_deep_for_the_parser_is_refused(server: DeskServer) -> None:
    status, body = post_raw(server, "api/check", b"[" * 200_000 + b"]" * 200_000)
    assert status == 400 and b"not JSON" in body
    assert still_serving(server)


@pytest.mark.parametrize("length", ["abc", "-1", "1e3", "\u00b2"])
def test_a_content_length_that_is_not_a_number_is_refused(server: DeskServer, length: str) -> None:
    status, body = post_raw(server, "api/check", b"{}", length=length)
    assert status == 400 and b"Content-Length" in body
    assert still_serving(server)


def test_an_order_nested_deeper_than_any_games_is_refused_by_name(server: DeskServer) -> None:
    deep: object = "G-IR12"
    for _ in range(60):
        deep = [deep]
    status, _, body = ask(server, "POST", f"/{server.token}/api/check", {"orders": [{"move": deep, "path": []}]})
    assert status == 200 and "nests at most" in json.loads(body)["error"]
    status, _, body = ask(server, "POST", f"/{server.token}/api/draft", {"kind": "move", "order": {"move": deep},
                                                                      "orders": []})
    assert status == 200 and "nests at most" in json.loads(body)["error"]


@pytest.mark.parametrize("draft", [{"kind": "move", "order": {"move": 5}, "orders": []},
                                   {"kind": "move", "order": {"move": ["G-IR12"], "path": 5}, "orders": []},
                                   {"kind": "move", "order": {}, "orders": [{"move": 5}]}])
def test_a_draft_the_games_code_chokes_on_gets_an_answer(server: DeskServer, draft: dict[str, object],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    status, _, body = ask(server, "POST", f"/{server.token}/api/draft", draft)
    assert status == 500 and "the desk failed on this request" in json.loads(body)["error"]
    assert still_serving(server)
    assert "Traceback" in capsys.readouterr().err  # the player's terminal shows where, for a bug report


def test_a_client_that_sends_nothing_is_cut_off(server: DeskServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(desk_server.DeskHandler, "timeout", 1)
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=20) as sock:
        sock.sendall(b"GET /")  # and then nothing more
        assert sock.recv(1024) == b""  # closed by the desk, after its idle limit, not by this test's timeout
    assert still_serving(server)


def test_the_browser_is_opened_without_the_token_on_its_command_line(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    url = "http://127.0.0.1:8123/SeCrEtToKeN-0123456789abcdef/"
    opened: list[str] = []

    def opener(address: str) -> bool:
        opened.append(address)
        return True

    address = open_in_browser(url, private, opener=opener)
    assert opened == [address] and "SeCrEtToKeN" not in address and address.startswith("file://")
    page = Path(address.removeprefix("file://"))
    assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
    assert f'url={url}"' in page.read_text(encoding="utf-8")


def test_save_replaces_a_link_planted_where_the_orders_go(game: DeskGame, tmp_path: Path) -> None:
    """Another user of a shared folder plants links named as the orders file and its signature: Save puts
    the orders in their place and leaves the files they point to as they were."""
    victim, victim_sig = tmp_path / "victim", tmp_path / "victim-sig"
    victim.write_text("keep me\n")
    victim_sig.write_text("keep me too\n")
    out = tmp_path / "german-orders.yaml"
    out.symlink_to(victim)
    out.with_name(out.name + ".sig").symlink_to(victim_sig)
    desk = OrdersDesk(game.view_path("german"), key=game.key("german"), out=out)
    assert desk.save({"orders": []})["saved"]
    assert victim.read_text() == "keep me\n" and victim_sig.read_text() == "keep me too\n"
    assert not out.is_symlink() and out.read_bytes() == desk.document([])
    assert "SSH SIGNATURE" in out.with_name(out.name + ".sig").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["german-orders.yaml", "german-orders.yaml.sig", "victim",
                                                          "victim-sig"]
