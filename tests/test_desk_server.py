"""The desk's server (pbem/desk/server.py) serves only its own page to the holder of its token.

Refused, each with nothing done: a request without the token or with a wrong one, a Host header
other than the server's own (DNS rebinding), a POST from a page of another origin or site, and a
POST that is not JSON (a plain form another site could send without asking).
"""

from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.desk.server import DeskServer
from pbem.desk.session import OrdersDesk
from tests.test_desk_session import DeskGame, play_to


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> DeskGame:
    return play_to(tmp_path_factory.mktemp("desk-server"), "fbsm", "us-setup", "us")


@pytest.fixture()
def server(game: DeskGame, tmp_path: Path) -> Iterator[DeskServer]:
    desk = OrdersDesk(game.view_path("us"), key=game.key("us"), out=tmp_path / "us-orders.yaml")
    running = DeskServer(desk)
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()


def ask(server: DeskServer, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    data = json.dumps(body).encode("utf-8") if body is not None else None
    sent = {"Host": server.host, **({"Content-Type": "application/json"} if data is not None else {}),
            **{name.replace("_", "-"): value for name, value in headers.items()}}
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), payload


def test_bound_to_loopback_with_a_long_random_token(server: DeskServer) -> None:
    assert server.server_address[0] == "127.0.0.1"
    assert len(server.token) >= 32 and server.url == f"http://{server.host}/{server.token}/"
    assert DeskServer(server.desk).token != server.token


def test_the_page_and_its_data_with_the_token(server: DeskServer) -> None:
    status, headers, page = ask(server, "GET", f"/{server.token}/")
    assert status == 200 and b"desk.js" in page
    assert "default-src 'none'" in headers["Content-Security-Policy"] and headers["X-Frame-Options"] == "DENY"
    status, _, data = ask(server, "GET", f"/{server.token}/api/desk")
    described = json.loads(data)
    assert status == 200 and described["side"] == "us" and described["phase"] == "us-setup"
    assert described["svg"].startswith("<svg") or "<svg" in described["svg"][:200]


@pytest.mark.parametrize("path", ["/", "/desk.js", "/api/desk", "/nottoken/api/desk", "/{token}x/api/desk",
                                  "/{short}/api/desk"])
def test_no_token_or_a_wrong_one_is_refused(server: DeskServer, path: str) -> None:
    status, _, body = ask(server, "GET", path.format(token=server.token, short=server.token[:-1]))
    assert status == 403 and b"token" in body and b"us-setup" not in body


@pytest.mark.parametrize("host", ["evil.example:80", "localhost:{port}", "127.0.0.1", "127.0.0.1:1{port}",
                                  "attacker.example:{port}"])
def test_any_other_host_header_is_refused(server: DeskServer, host: str) -> None:
    port = server.server_address[1]
    status, _, body = ask(server, "GET", f"/{server.token}/api/desk", Host=host.format(port=port))
    assert status == 421 and b"us-setup" not in body


def test_a_page_of_another_origin_cannot_save(server: DeskServer) -> None:
    out = server.desk.out
    orders: dict[str, list[Any]] = {"orders": []}
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {"Sec_Fetch_Site": "cross-site"},
                    {"Origin": f"http://localhost:{server.server_address[1]}"}):
        status, _, _ = ask(server, "POST", f"/{server.token}/api/save", orders, **headers)
        assert status == 403 and not out.exists(), headers
    status, _, _ = ask(server, "POST", f"/{server.token}/api/save", None, Content_Type="text/plain")
    assert status == 415 and not out.exists()
    status, _, answer = ask(server, "POST", f"/{server.token}/api/save", orders,
                            Origin=f"http://{server.host}", Sec_Fetch_Site="same-origin")
    assert status == 200 and json.loads(answer)["saved"] and out.exists()


def test_bad_json_and_unknown_actions_are_refused(server: DeskServer) -> None:
    assert ask(server, "POST", f"/{server.token}/api/rm", {})[0] == 404
    assert ask(server, "POST", f"/{server.token}/api/check", [1, 2])[0] == 400
    status, _, answer = ask(server, "POST", f"/{server.token}/api/check", {"orders": "x"})
    assert status == 200 and "orders must be a list" in json.loads(answer)["error"]


def test_the_address_without_its_last_slash_is_sent_to_the_page(server: DeskServer) -> None:
    status, headers, _ = ask(server, "GET", f"/{server.token}")
    assert status == 301 and headers["Location"] == f"/{server.token}/"
