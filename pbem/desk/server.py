"""The desk's local web server: the standard library's `http.server`, bound to 127.0.0.1 on a free port.

Only the player's own browser may drive it. Every request must carry the random token as the
first part of its path and name the server's own address in its Host header (so a page of
another site, even one whose name resolves to 127.0.0.1, is refused); a request that changes
anything must be a JSON POST and, when the browser says where it comes from (Origin,
Sec-Fetch-Site), come from the desk's own page. Every answer forbids framing, sniffing,
caching and referrers, and the page may load nothing from anywhere else (Content-Security-Policy).
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Callable

from pbem.core.api import PbemError

from .session import DecisionDesk, OrdersDesk

MAX_BODY = 1 << 20  # a phase's orders as JSON are a few kilobytes
IDLE_SECONDS = 30  # a connection silent this long is closed: a slow or idle client cannot hold a thread for ever
STATIC = {"": ("desk.html", "text/html; charset=utf-8"), "desk.js": ("desk.js", "text/javascript; charset=utf-8"),
          "desk.css": ("desk.css", "text/css; charset=utf-8")}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class Refused(Exception):
    """A request the desk will not serve: its status and the reason given back."""

    def __init__(self, status: HTTPStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class DeskServer(ThreadingHTTPServer):
    """One desk (a view's or a decision request's), served to the holder of its token."""

    daemon_threads = True

    def __init__(self, desk: OrdersDesk | DecisionDesk, port: int = 0, token: str | None = None) -> None:
        self.desk = desk
        self.token = token or secrets.token_urlsafe(24)
        self.lock = threading.Lock()  # one request at a time reaches the desk (it writes files)
        super().__init__(("127.0.0.1", port), DeskHandler)

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.server_address[1]}"

    @property
    def url(self) -> str:
        return f"http://{self.host}/{self.token}/"


def _static(name: str) -> bytes:
    return resources.files("pbem.desk").joinpath("static", name).read_bytes()


class DeskHandler(BaseHTTPRequestHandler):
    server: DeskServer
    protocol_version = "HTTP/1.1"
    timeout = IDLE_SECONDS

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # the page's every click would otherwise scroll the player's terminal

    def _route(self) -> str | None:
        """The path after the token (None: the token alone, no slash); Refused unless the Host and the token
        are the desk's own."""
        if self.headers.get("Host") != self.server.host:
            raise Refused(HTTPStatus.MISDIRECTED_REQUEST, f"this desk answers only to {self.server.host}")
        first, slash, rest = self.path.lstrip("/").partition("/")
        if not hmac.compare_digest(first.encode("utf-8"), self.server.token.encode("utf-8")):
            raise Refused(HTTPStatus.FORBIDDEN, "open the desk by the address `pbem desk` printed, token included")
        return rest.partition("?")[0] if slash else None

    def _same_origin(self) -> None:
        origin = self.headers.get("Origin")
        if origin is not None and origin != f"http://{self.server.host}":
            raise Refused(HTTPStatus.FORBIDDEN, "a page of another origin may not drive the desk")
        if self.headers.get("Sec-Fetch-Site") not in (None, "same-origin", "none"):
            raise Refused(HTTPStatus.FORBIDDEN, "a page of another site may not drive the desk")
        if self.headers.get_content_type() != "application/json":
            raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "the desk takes JSON")

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: HTTPStatus, value: Any) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def _refuse(self, refused: Refused) -> None:
        self.close_connection = True
        self._json(refused.status, {"error": str(refused)})

    def do_GET(self) -> None:
        try:
            route = self._route()
            if route is None:  # the address typed without its last slash: the page's links need it
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", f"/{self.server.token}/")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif route in STATIC:
                name, content_type = STATIC[route]
                self._send(HTTPStatus.OK, _static(name), content_type)
            elif route == "api/desk":
                with self.server.lock:
                    self._json(HTTPStatus.OK, self.server.desk.describe())
            else:
                raise Refused(HTTPStatus.NOT_FOUND, f"no such page: {route}")
        except Refused as refused:
            self._refuse(refused)

    def do_POST(self) -> None:
        try:
            route = self._route()
            self._same_origin()
            action = self._action(route or "")
            body = self._body()
            with self.server.lock:
                try:
                    answer = action(body)
                except PbemError as error:
                    answer = {"error": str(error)}
                except Exception as error:  # noqa: BLE001 - a bug in a game's hooks: say so, keep serving
                    traceback.print_exc(file=sys.stderr)
                    raise Refused(HTTPStatus.INTERNAL_SERVER_ERROR, f"the desk failed on this request "
                                  f"({type(error).__name__}); the terminal running `pbem desk` shows where") from None
            self._json(HTTPStatus.OK, answer)
        except Refused as refused:
            self._refuse(refused)

    def _body(self) -> dict[str, Any]:
        """The request's JSON object; Refused when its length is not a number up to MAX_BODY, or it is not
        one JSON object (too deep for the parser counts as not JSON)."""
        length_text = self.headers.get("Content-Length") or "0"
        if not (length_text.isascii() and length_text.isdigit()):
            raise Refused(HTTPStatus.BAD_REQUEST, "Content-Length must be a number of bytes")
        length = int(length_text)
        if length > MAX_BODY:
            raise Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"at most {MAX_BODY} bytes")
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, RecursionError):
            raise Refused(HTTPStatus.BAD_REQUEST, "not JSON") from None
        if not isinstance(body, dict):
            raise Refused(HTTPStatus.BAD_REQUEST, "a JSON object, please")
        return body

    def _action(self, route: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
        desk = self.server.desk
        actions: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {"api/armor": lambda body: desk.armor()}
        if isinstance(desk, OrdersDesk):
            actions.update({"api/draft": desk.draft, "api/check": desk.check, "api/save": desk.save})
        else:
            actions["api/answer"] = desk.answer
        if route not in actions:
            raise Refused(HTTPStatus.NOT_FOUND, f"no such action: {route}")
        return actions[route]
