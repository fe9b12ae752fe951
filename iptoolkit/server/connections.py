"""Connections that hold the server hostage: half-sent requests, floods, malformed bytes.

uvicorn times out idle keep-alive connections but not a request that never finishes its
headers, and `limit_concurrency` answers 503 to everyone once stalled connections fill it.
So the server runs its own subclass of uvicorn's h11 protocol that

* closes a connection whose request headers are not complete within `header_timeout`
  seconds of its first byte (or of opening it);
* holds at most `max_connections` open: a new one beyond that closes the oldest
  connection that has no request being answered (stalled or idle), so a flood of stalled
  connections cannot keep normal requests out or use up the open-file limit;
* closes a connection whose client reads nothing of a response for `send_timeout`
  seconds (its write buffer full, flow control paused), which frees what was buffered
  for it: a slow or vanished reader cannot hold the server's memory (large bodies are
  sent in slices under back-pressure, see `streaming`);
* answers a malformed request (garbage request line, bad `Content-Length`, headers beyond
  uvicorn's `h11_max_incomplete_event_size`, which `running` and `serve` set to
  `max_header_bytes`) with the error envelope instead of uvicorn's plain text.

The body's deadline is an ASGI middleware (`BodyDeadline`): a request whose body has not
arrived `body_timeout` seconds after its headers answers 408 in the envelope. Floods are
logged once a minute with a count (`FloodLog`), never a line per connection.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import h11
import orjson
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

from .error_responses import error_body

__all__ = [
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_MAX_HEADER_BYTES",
    "DEFAULT_SEND_TIMEOUT",
    "ConnectionLimits",
    "FloodLog",
    "install_flood_filter",
    "BodyDeadline",
    "guarded_protocol",
]

DEFAULT_HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's line and headers."""
DEFAULT_BODY_TIMEOUT = 30.0
"""Seconds a client has, after the headers, to send the whole body."""
DEFAULT_MAX_CONNECTIONS = 1000
"""Open connections at most; `openfiles.fit_open_files` lowers it if the open-file limit
cannot hold it and the accept batches that pass it."""
DEFAULT_MAX_HEADER_BYTES = 64 * 1024
DEFAULT_SEND_TIMEOUT = 30.0
"""Seconds a client may read nothing of a response before the connection is closed."""
"""Request line plus headers, in bytes (h11's own default is 16 KiB)."""

_LINGER = 2.0
"""Seconds a connection answered 400 may still send (read and dropped) before it closes:
closing with unread bytes would reset it and could destroy the answer before it is read."""

_logger = logging.getLogger("iptoolkit.server")


class FloodLog:
    """Logs an event at most once per `interval` seconds, with how often it happened."""

    def __init__(self, interval: float = 60.0, logger: logging.Logger = _logger) -> None:
        self.interval = interval
        self._logger = logger
        self._counts: dict[str, int] = {}
        self._last: dict[str, float] = {}

    def note(self, what: str) -> None:
        """Count one event; log it (with the count since the last line) when the time has come."""
        self._counts[what] = self._counts.get(what, 0) + 1
        now = time.monotonic()
        if now - self._last.get(what, -self.interval) >= self.interval:
            count, self._counts[what] = self._counts[what], 0
            self._last[what] = now
            self._logger.warning(
                "%s (%d since the last such line; logged at most every %gs)",
                what,
                count,
                self.interval,
            )


class _PerConnectionWarnings(logging.Filter):
    """Drop uvicorn's line per malformed request: `send_400_response` counts them instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "Invalid HTTP request received."


_ACCEPT_FAILED = "socket.accept() out of system resource"


class _AcceptFailures(logging.Filter):
    """asyncio logs a traceback for every failed accept (out of open files: many per
    second in a flood); count them into one line a minute instead."""

    def __init__(self, flood_log: FloodLog) -> None:
        super().__init__()
        self.flood_log = flood_log

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith(_ACCEPT_FAILED):
            return True
        self.flood_log.note(
            "accepting a connection failed: out of open files or memory (raise `ulimit -n`, "
            "or lower --max-connections)"
        )
        return False


def install_flood_filter() -> None:
    """Keep uvicorn and asyncio from logging a line per malformed request or failed accept
    (a flood is logged once a minute)."""
    for name, kind, make in (
        ("uvicorn.error", _PerConnectionWarnings, _PerConnectionWarnings),
        ("asyncio", _AcceptFailures, lambda: _AcceptFailures(FloodLog())),
    ):
        log = logging.getLogger(name)
        if not any(isinstance(existing, kind) for existing in log.filters):
            log.addFilter(make())


@dataclass
class ConnectionLimits:
    """What one server allows a connection, and the connections it holds open."""

    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    flood_log: FloodLog = field(default_factory=FloodLog)
    send_timeout: float = DEFAULT_SEND_TIMEOUT
    open: dict[GuardedH11Protocol, None] = field(default_factory=dict)
    """Open connections, oldest first (a dict keeps insertion order)."""

    def __post_init__(self) -> None:
        if self.header_timeout <= 0 or self.max_connections < 1 or self.send_timeout <= 0:
            raise ValueError("connection limits must be positive")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a connection cap and enveloped 400s."""

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
        """A malformed request: the envelope, and the connection closes (as uvicorn's does)."""
        self.limits.flood_log.note("malformed requests answered 400")
        text = "The request line or headers are malformed or larger than the server accepts."
        body = _envelope_bytes(400, text)
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


def _envelope_bytes(status: int, text: str) -> bytes:
    return orjson.dumps(error_body(status, text))


class RequestTimeout(HTTPException):
    """The body did not arrive in time: 408 in the envelope, and the connection closes."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            408,
            f"The request body did not arrive within {seconds:g} s.",
            headers={"Connection": "close"},
        )


class BodyDeadline:
    """ASGI middleware: the whole body must arrive within `timeout` seconds of the headers."""

    def __init__(self, app: ASGIApp, timeout: float = DEFAULT_BODY_TIMEOUT) -> None:
        if timeout <= 0:
            raise ValueError("the body timeout must be positive")
        self.app = app
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.timeout
        body_done = False

        async def receive_in_time() -> Message:
            nonlocal body_done
            if body_done:  # later calls wait for a disconnect: no deadline on those
                return await receive()
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.0))
            except TimeoutError:
                raise RequestTimeout(self.timeout) from None
            body_done = not message.get("more_body", False)
            return message

        await self.app(scope, receive_in_time, send)
