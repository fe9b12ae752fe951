"""uvicorn's h11 protocol against connections that hold the server hostage.

uvicorn times out idle keep-alive connections but not a request that never finishes its
headers, and `limit_concurrency` answers 503 to everyone once stalled connections fill it.
So the reference server and `iptoolkit mcp --http` run this subclass of uvicorn's h11
protocol (`guarded_uvicorn` gives the `uvicorn.Config` options), which

* closes a connection whose request headers are not complete within `header_timeout`
  seconds of its first byte (or of opening it);
* holds at most `max_connections` open: a new one beyond that closes the oldest
  connection that has no request being answered (stalled or idle), so a flood of stalled
  connections cannot keep normal requests out or use up the open-file limit (the cap is
  fitted to that limit, `open_files`);
* closes a connection whose client reads nothing of a response for `send_timeout`
  seconds (its write buffer full, flow control paused), which frees what was buffered
  for it: a slow or vanished reader cannot hold the server's memory;
* answers a malformed request (garbage request line, bad `Content-Length`, headers beyond
  `max_header_bytes`, uvicorn's `h11_max_incomplete_event_size`) with a JSON body of the
  server's choosing (the reference server: its error envelope) instead of uvicorn's text.

asyncio's own accept loop already survives running out of descriptors (it stops accepting
for a second); `flood_log.install_flood_filter` keeps its traceback per failure out of the
log, which under the MCP SDK's logging ended the loop (issue 44, finding 5).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

from .flood_log import FloodLog, install_flood_filter
from .open_files import fit_open_files

__all__ = [
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_MAX_HEADER_BYTES",
    "DEFAULT_SEND_TIMEOUT",
    "MALFORMED",
    "ConnectionLimits",
    "GuardedH11Protocol",
    "guarded_protocol",
    "guarded_uvicorn",
]

DEFAULT_HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's line and headers."""
DEFAULT_MAX_CONNECTIONS = 1000
"""Open connections at most; `open_files.fit_open_files` lowers it if the open-file limit
cannot hold it and the accept batches that pass it."""
DEFAULT_MAX_HEADER_BYTES = 64 * 1024
"""Request line plus headers, in bytes (h11's own default is 16 KiB)."""
DEFAULT_SEND_TIMEOUT = 30.0
"""Seconds a client may read nothing of a response before the connection is closed."""
MALFORMED = "The request line or headers are malformed or larger than the server accepts."
"""What a malformed request is told (400)."""
_MALFORMED_JSON = json.dumps({"error": MALFORMED}).encode()

_LINGER = 2.0
"""Seconds a connection answered 400 may still send (read and dropped) before it closes:
closing with unread bytes would reset it and could destroy the answer before it is read."""


@dataclass
class ConnectionLimits:
    """What one server allows a connection, and the connections it holds open."""

    header_timeout: float
    max_connections: int
    flood_log: FloodLog
    send_timeout: float = DEFAULT_SEND_TIMEOUT
    malformed: bytes = _MALFORMED_JSON
    """The JSON body of the 400 a malformed request gets."""
    open: dict[GuardedH11Protocol, None] = field(default_factory=dict)
    """Open connections, oldest first (a dict keeps insertion order)."""

    def __post_init__(self) -> None:
        if self.header_timeout <= 0 or self.max_connections < 1 or self.send_timeout <= 0:
            raise ValueError("connection limits must be positive")


def guarded_uvicorn(
    logger: logging.Logger,
    *,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    send_timeout: float = DEFAULT_SEND_TIMEOUT,
    max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES,
    malformed: bytes = _MALFORMED_JSON,
    hint: str = "raise `ulimit -n`",
) -> dict[str, Any]:
    """The `uvicorn.Config` options of a server guarded so (the protocol, the accept batch,
    the header size), its cap fitted to the open-file limit; floods are logged to `logger`
    once a minute (a failed accept with `hint`, what to do about it)."""
    flood_log = FloodLog(logger)
    install_flood_filter(flood_log, hint)
    fitted = fit_open_files(max_connections, logger)
    limits = ConnectionLimits(
        header_timeout, fitted.max_connections, flood_log, send_timeout, malformed
    )
    return {
        "http": guarded_protocol(limits),
        "backlog": fitted.backlog,
        "h11_max_incomplete_event_size": max_header_bytes,
    }


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a connection cap and JSON 400s."""

    limits: ClassVar[ConnectionLimits]

    def __init__(self, config: Any, server_state: Any, app_state: Any, **kwargs: Any) -> None:
        super().__init__(config, server_state, app_state, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._discarding = False

    def connection_made(  # type: ignore[override]  # an asyncio.Transport, as uvicorn's own
        self, transport: asyncio.Transport
    ) -> None:
        super().connection_made(transport)
        open_ = self.limits.open
        open_[self] = None
        if len(open_) > self.limits.max_connections:
            victim = next((c for c in open_ if c._may_be_dropped()), self)
            self.limits.flood_log.note(
                f"connections beyond the cap of {self.limits.max_connections}: "
                "closed the oldest stalled or idle one"
            )
            victim._drop()
            if victim is self:
                return
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.limits.open.pop(self, None)
        self._cancel_header_timer()
        self._cancel_send_timer()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The client's buffer is full: it has `send_timeout` seconds to read some."""
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.limits.send_timeout, self._reader_late)

    def resume_writing(self) -> None:
        self._cancel_send_timer()
        super().resume_writing()

    def _cancel_send_timer(self) -> None:
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _reader_late(self) -> None:
        self._send_timer = None
        if not self.transport.is_closing() or self.transport.get_write_buffer_size():
            self.limits.flood_log.note(
                f"connections closed: the client read nothing of a response for "
                f"{self.limits.send_timeout:g}s"
            )
            self._drop(force=True)

    def data_received(self, data: bytes) -> None:
        if self._discarding:
            return
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            if self._header_timer is None:
                self._arm_header_timer()  # a new request has begun: its headers are due
        else:
            self._cancel_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._cancel_header_timer()  # idle now: uvicorn's keep-alive timeout applies

    def send_400_response(self, msg: str) -> None:
        """A malformed request: the server's JSON body, and the connection closes (as
        uvicorn's does)."""
        self.limits.flood_log.note("malformed requests answered 400")
        body = self.limits.malformed
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        try:
            output = self.conn.send(h11.Response(status_code=400, headers=headers))
            output += self.conn.send(h11.Data(data=body)) or b""
            output += self.conn.send(h11.EndOfMessage()) or b""
            self.transport.write(output or b"")
        except h11.LocalProtocolError:  # a response had already begun: just close
            self.transport.close()
            return
        self._linger()

    def _linger(self) -> None:
        """Half-close, drop whatever else arrives, and close for good after `_LINGER` s."""
        self._discarding = True
        self._cancel_header_timer()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(_LINGER, self.transport.close)

    def _may_be_dropped(self) -> bool:
        """Stalled or idle: no request is being answered on this connection."""
        cycle: RequestResponseCycle | None = self.cycle  # uvicorn says always set: not so
        return cycle is None or cycle.response_complete or self._receiving()

    def _receiving(self) -> bool:
        return self.conn.their_state is h11.SEND_BODY

    def _drop(self, *, force: bool = False) -> None:
        """Abort the connection (`force`: even one already closing, whose buffer would
        otherwise wait for a reader that never comes)."""
        self._cancel_header_timer()
        self.limits.open.pop(self, None)
        if force or not self.transport.is_closing():
            self.transport.abort()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.limits.header_timeout, self._headers_late)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.limits.flood_log.note(
                f"connections closed: request headers not complete within "
                f"{self.limits.header_timeout:g}s"
            )
            self._drop()


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """The protocol class for one server (uvicorn's `http=`), bound to its limits."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": limits})
