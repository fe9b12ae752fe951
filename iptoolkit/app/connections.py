"""Connections that hold the app hostage: half-sent requests, floods, no descriptor left.

Voila serves with the HTTP server tornado's `Application.listen` makes, which waits an hour
for a request's headers, holds every connection it is offered, and, out of open files,
raises from its accept handler at every turn of the loop: a traceback each time (3.2
million lines in 40 s), no request answered while the flood holds, and a terminal still
scrolling minutes after it ends (issue 44, finding 6). The app's Voila (`app/server.py`)
serves with `GuardedHTTPServer` instead, which keeps the reference server's limits
(`hardening/`):

* a request's line and headers are due within `HEADER_TIMEOUT` seconds (tornado's
  `idle_connection_timeout`, which also closes a kept-alive connection idle that long),
  its body within `BODY_TIMEOUT`, and line plus headers hold at most `MAX_HEADER_BYTES`;
* at most `MAX_CONNECTIONS` connections are held: a new one beyond closes at once the
  oldest one that waits for its request (stalled in its headers or body, or idle), never
  one whose request is being answered; the pages' kernel websockets have left the HTTP
  server and are neither counted nor closed;
* the cap is fitted to the open-file limit (`hardening/open_files.py`), keeping
  `RESERVED_FILES` descriptors for the kernels' channels and their websockets;
* out of descriptors anyway (EMFILE, ENFILE, ENOBUFS, ENOMEM), the accept loop stops for
  `ACCEPT_RETRY_DELAY` seconds and tries again, as asyncio's own does, and says so once a
  minute with a count (`FloodLog`): the app answers again as soon as descriptors are free.
"""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from tornado.http1connection import HTTP1ServerConnection
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.iostream import IOStream
from tornado.web import Application

from ..hardening.flood_log import ACCEPT_FAILED, FloodLog
from ..hardening.h11_protocol import (
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_HEADER_BYTES,
)
from ..hardening.open_files import fit_open_files

__all__ = [
    "HEADER_TIMEOUT",
    "BODY_TIMEOUT",
    "MAX_HEADER_BYTES",
    "MAX_CONNECTIONS",
    "RESERVED_FILES",
    "ACCEPT_RETRY_DELAY",
    "ACCEPT_BATCH",
    "Cap",
    "GuardedHTTPServer",
    "guarded_listen",
]

HEADER_TIMEOUT = DEFAULT_HEADER_TIMEOUT
"""Seconds a connection may wait for its request's line and headers (the reference
server's 10): a browser sends them at once, and reconnects when a kept-alive one closed."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take (the reference server's): the app's bodies are small."""
MAX_HEADER_BYTES = DEFAULT_MAX_HEADER_BYTES
"""Request line plus headers (64 KiB, tornado's own default and the reference server's)."""
MAX_CONNECTIONS = DEFAULT_MAX_CONNECTIONS
"""HTTP connections held at most, before the open-file limit lowers it: a page opens a
handful, so this is room for a team's pages many times over."""
RESERVED_FILES = 256
"""Descriptors kept beside the connections: Voila's own (17 with its pool's kernel) and
about ten for each page's kernel and websocket: room for twenty-odd sessions."""
ACCEPT_RETRY_DELAY = 1.0
"""Seconds the accept loop waits, out of descriptors, before it tries again (asyncio's)."""
ACCEPT_BATCH = 128
"""Connections accepted at a time (tornado's): each beyond the cap sheds one at once, so
the batch adds no descriptor to the cap."""
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


@dataclass(frozen=True)
class Cap:
    """How many connections a server holds, how many it accepts at a time, and where it
    counts what it sheds."""

    max_connections: int
    batch: int
    flood_log: FloodLog


class GuardedHTTPServer(HTTPServer):
    """tornado's HTTP server with a connection cap and an accept loop that survives running
    out of descriptors; `guarded_listen` makes one with the deadlines and size limits."""

    cap: Cap
    """Set before the server listens (`guarded_listen`)."""

    def initialize(self, *args: Any, **kwargs: Any) -> None:
        super().initialize(*args, **kwargs)
        self._held: dict[IOStream, None] = {}
        """The connections' streams, oldest first (a dict keeps insertion order)."""

    def add_sockets(self, sockets: Iterable[socket.socket]) -> None:
        for sock in sockets:
            self._sockets[sock.fileno()] = sock
            acceptor = _Acceptor(sock, self._handle_connection, self.cap)
            self._handlers[sock.fileno()] = acceptor.remove

    def handle_stream(self, stream: IOStream, address: tuple[Any, ...]) -> None:
        self._held[stream] = None
        super().handle_stream(stream, address)
        if len(self._held) > self.cap.max_connections:
            self._shed()

    def on_close(self, server_conn: object) -> None:
        """A connection's requests are over: closed, timed out, or taken by a websocket."""
        self._held.pop(cast(HTTP1ServerConnection, server_conn).stream, None)
        super().on_close(server_conn)

    def _shed(self) -> None:
        """Close the oldest connection waiting for its request, to hold no more than the
        cap (a new connection's request loop starts on the next turn: it is not waiting
        yet, and is closed itself only if nothing else waits)."""
        for stream in [s for s in self._held if s.closed()]:
            del self._held[stream]
        if len(self._held) <= self.cap.max_connections:
            return
        newest = next(reversed(self._held))
        victim = next((s for s in self._held if s.reading()), newest)
        del self._held[victim]
        self.cap.flood_log.note(
            f"connections beyond the cap of {self.cap.max_connections}: closed the oldest "
            "stalled or idle one"
        )
        victim.close()


class _Acceptor:
    """tornado's accept handler (`netutil.add_accept_handler`), which stops for a moment
    instead of raising when no descriptor is left."""

    def __init__(
        self, sock: socket.socket, callback: Callable[[socket.socket, Any], None], cap: Cap
    ) -> None:
        self.sock = sock
        self.callback = callback
        self.cap = cap
        self.loop = IOLoop.current()
        self.removed = False
        self.retry: object | None = None
        self.loop.add_handler(sock, self.on_readable, IOLoop.READ)

    def on_readable(self, fd: Any, events: int) -> None:
        for _ in range(self.cap.batch):
            if self.removed:
                return
            try:
                connection, address = self.sock.accept()
            except BlockingIOError:  # every waiting connection taken
                return
            except ConnectionAbortedError:  # closed while in the queue
                continue
            except OSError as exc:
                if exc.errno not in _OUT_OF_RESOURCES:
                    raise
                self.pause()
                return
            self.callback(connection, address)

    def pause(self) -> None:
        """Out of descriptors: accept nothing for `ACCEPT_RETRY_DELAY` seconds."""
        self.cap.flood_log.note(f"{ACCEPT_FAILED} (raise `ulimit -n`)")
        self.loop.remove_handler(self.sock)
        self.retry = self.loop.call_later(ACCEPT_RETRY_DELAY, self.resume)

    def resume(self) -> None:
        self.retry = None
        if not self.removed:
            self.loop.add_handler(self.sock, self.on_readable, IOLoop.READ)

    def remove(self) -> None:
        """Stop accepting for good (`TCPServer.stop`)."""
        if self.removed:
            return
        self.removed = True
        if self.retry is not None:
            self.loop.remove_timeout(self.retry)
        else:
            self.loop.remove_handler(self.sock)


def guarded_listen(
    app: Application,
    port: int,
    address: str | None = None,
    *,
    logger: logging.Logger,
    max_connections: int = MAX_CONNECTIONS,
    reserved: int = RESERVED_FILES,
    header_timeout: float = HEADER_TIMEOUT,
) -> GuardedHTTPServer:
    """Serve `app` on `port` with a `GuardedHTTPServer` (what `Application.listen` does with
    tornado's own), its cap fitted to the open-file limit; floods logged to `logger`."""
    fitted = fit_open_files(max_connections, logger, reserved=reserved, accept_batches=0)
    server = GuardedHTTPServer(
        app,
        idle_connection_timeout=header_timeout,
        body_timeout=BODY_TIMEOUT,
        max_header_size=MAX_HEADER_BYTES,
    )
    server.cap = Cap(fitted.max_connections, ACCEPT_BATCH, FloodLog(logger))
    server.listen(port, address, backlog=fitted.backlog)
    return server
