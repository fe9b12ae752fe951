"""A misbehaving HTTP server for the client's tests: real sockets on 127.0.0.1.

`hostile_server(respond)` runs a threaded stdlib server on a free port; every request
calls `respond(handler)`, which writes whatever it likes (raw bytes, trickled, endless)
with `handler.wfile`. The server records each request and when each answer ended, and
is stopped (its trickling answers cut off) when the `with` block ends.
"""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

Respond = Callable[[http.server.BaseHTTPRequestHandler], None]


@dataclass
class Hostile:
    """The running server: its base URL and what it saw."""

    url: str
    requests: list[str] = field(default_factory=list)
    """`METHOD path` of every request, in order."""
    bodies: list[bytes] = field(default_factory=list)
    """The body of every request, in order (empty when it had none)."""
    ended: list[float] = field(default_factory=list)
    """`time.monotonic()` when each answer stopped (finished, or the client hung up)."""
    stop: threading.Event = field(default_factory=threading.Event)
    """Set when the test is over: trickling answers should stop."""


def send_head(
    handler: http.server.BaseHTTPRequestHandler, status: int = 200, **headers: str | int
) -> None:
    """Write a status line and headers (`Content_Type` -> `Content-Type`), raw."""
    lines = [f"HTTP/1.1 {status} X"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    handler.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    handler.wfile.flush()


def trickle(hostile: Hostile, handler: http.server.BaseHTTPRequestHandler, data: bytes) -> None:
    """Write `data` one piece every 0.1 s (well within any read timeout) for 8 s, or until
    the client hangs up or the test ends; a client without a deadline waits it all out."""
    for _ in range(80):
        if hostile.stop.wait(0.1):
            return
        handler.wfile.write(data)
        handler.wfile.flush()


@contextmanager
def hostile_server(
    respond: Callable[[Hostile, http.server.BaseHTTPRequestHandler], None],
) -> Iterator[Hostile]:
    """Serve `respond(hostile, handler)` for every request on 127.0.0.1, a free port."""
    hostile = Hostile(url="")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_one_request(self) -> None:
            self.raw_requestline = self.rfile.readline(65537)
            if not self.raw_requestline or not self.parse_request():
                self.close_connection = True
                return
            hostile.requests.append(f"{self.command} {self.path}")
            length = int(self.headers.get("Content-Length") or 0)
            hostile.bodies.append(self.rfile.read(length) if length else b"")
            try:
                respond(hostile, self)
            except OSError:  # the client hung up: that is what the tests want to see
                self.close_connection = True
            finally:
                hostile.ended.append(time.monotonic())

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.block_on_close = False
    hostile.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hostile
    finally:
        hostile.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
