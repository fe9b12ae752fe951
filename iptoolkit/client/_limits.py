"""What one response may cost: its decoded size and its time, bounded while it streams.

A hostile or broken server can trickle a byte every few seconds (each read is within the
timeout, so httpx waits forever), or send a small gzip that expands to gigabytes. The
client installs the httpx event hooks below, so every response (the listing's, and the
token and login responses inside the auth flows) is read through `_Bounded`:

- it decodes `gzip` and `deflate` itself, in slices of at most `CHUNK` bytes, and counts
  the decoded bytes: past `max_bytes` it stops with `ResponseTooLargeError`, so memory
  stays bounded even for a compression bomb; any other content encoding (we ask for
  `gzip, deflate` only) is a `ResponseParseError`;
- it checks the request's deadline at every chunk; the request hook also shortens each
  of httpx's timeouts to the time left, so a wait for one read cannot outlast it.

The deadline is the absolute monotonic time set by `deadline_scope` around one request
(the drivers in `client.py` open it for each `Send`). A server that trickles its headers
is stopped too: `AsyncClient` cancels the request at the deadline (`anyio.fail_after`),
and a blocking `Client` has its `_watchdog.Watchdog` shut the connection.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpx

from ..support.reading import DEFAULT_MAX_SIZE, format_size
from ._urls import RequestInfo
from .errors import DeadlineExceededError, ResponseParseError, ResponseTooLargeError

__all__ = [
    "MAX_RESPONSE_BYTES",
    "DEFAULT_DEADLINE",
    "ACCEPT_ENCODING",
    "CHUNK",
    "now",
    "deadline_scope",
    "time_left",
    "passed",
    "deadline_error",
    "sync_hooks",
    "async_hooks",
]

MAX_RESPONSE_BYTES = DEFAULT_MAX_SIZE
"""Default cap on one response's decoded body: 1 GiB of JSON, far beyond any page, and the
same as a load's cap (`support/reading.py`), so that a listing fetched in one response
still loads."""
DEFAULT_DEADLINE = 300.0
"""Default total seconds for one request: connecting, sending and the whole response."""
ACCEPT_ENCODING = "gzip, deflate"
"""The encodings we ask for and decode ourselves, with the size cap."""
CHUNK = 1 << 20
"""The most a compressed slice may expand to in one step."""

_clock = time.monotonic


def now() -> float:
    """Monotonic seconds, the clock of every deadline (tests replace `_clock`)."""
    return _clock()


_deadline: ContextVar[float | None] = ContextVar("iptoolkit_request_deadline", default=None)


@contextmanager
def deadline_scope(deadline: float | None) -> Iterator[None]:
    """Requests sent inside must end by `deadline` (monotonic seconds; None: no limit)."""
    token = _deadline.set(deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


def time_left(deadline: float | None) -> float | None:
    """Seconds until `deadline`, never below zero; None when there is no deadline."""
    return None if deadline is None else max(deadline - now(), 0.0)


def passed(deadline: float | None) -> bool:
    """Whether `deadline` has come (within the few milliseconds a timer may fire early)."""
    return deadline is not None and now() >= deadline - 0.01


def deadline_error(request: RequestInfo | None, seconds: float | None) -> DeadlineExceededError:
    """The error for a request that ran past its deadline, saying how to allow more."""
    where = f" ({request})" if request else ""
    allowed = f"{seconds:g} s " if seconds is not None else ""
    return DeadlineExceededError(
        f"no complete response within the {allowed}deadline{where}; the server is too slow "
        "or trickling its answer (raise `deadline` or `fetch_deadline` if it is only slow)",
        request=request,
    )


def sync_hooks(
    max_bytes: int, *, on_request: Callable[[httpx.Request], None] | None = None
) -> dict[str, list[Callable[..., Any]]]:
    """Event hooks bounding every response of an `httpx.Client` (and `on_request`)."""

    def on_response(response: httpx.Response) -> None:
        response.stream = _SyncBounded(_Bounded(response, max_bytes), response.stream)

    extra = [on_request] if on_request else []
    return {"request": [_shorten_timeouts, *extra], "response": [on_response]}


def async_hooks(max_bytes: int) -> dict[str, list[Callable[..., Any]]]:
    """Event hooks bounding every response of an `httpx.AsyncClient`."""

    async def on_request(request: httpx.Request) -> None:
        _shorten_timeouts(request)

    async def on_response(response: httpx.Response) -> None:
        response.stream = _AsyncBounded(_Bounded(response, max_bytes), response.stream)

    return {"request": [on_request], "response": [on_response]}


def _shorten_timeouts(request: httpx.Request) -> None:
    """No single wait of this request may outlast its deadline; past it, do not send."""
    deadline = _deadline.get()
    left = time_left(deadline)
    if left is None:
        return
    if left <= 0:
        raise deadline_error(RequestInfo.of(request), None)
    timeouts = dict(request.extensions.get("timeout") or {})
    for phase in ("connect", "read", "write", "pool"):
        value = timeouts.get(phase)
        timeouts[phase] = left if value is None else min(value, left)
    request.extensions["timeout"] = timeouts


class _Bounded:
    """The decoding, counting and deadline checks of one response's body."""

    def __init__(self, response: httpx.Response, max_bytes: int) -> None:
        self.request = RequestInfo.of(response.request)
        self.status = response.status_code
        self.max_bytes = max_bytes
        self.deadline = _deadline.get()
        self.size = 0
        encodings = [
            value.strip().lower()
            for value in response.headers.get("content-encoding", "").split(",")
            if value.strip() and value.strip().lower() != "identity"
        ]
        unknown = [value for value in encodings if value not in ("gzip", "deflate")]
        if unknown:
            raise ResponseParseError(
                f"{self.status} response in an unsupported content encoding "
                f"{', '.join(unknown)!r} (we ask for {ACCEPT_ENCODING}) ({self.request})",
                request=self.request,
                status_code=self.status,
            )
        # decoded here, in bounded slices; httpx must not decode the result again
        response.headers.pop("content-encoding", None)
        self.decoders = [_Inflater(value) for value in reversed(encodings)]

    def decode(self, raw: bytes) -> Iterator[bytes]:
        """The decoded bytes of one raw chunk, in bounded slices, counted and checked."""
        if self.deadline is not None and now() > self.deadline:
            raise deadline_error(self.request, None)
        for piece in self._inflate(raw, 0):
            self.size += len(piece)
            if self.size > self.max_bytes:
                raise ResponseTooLargeError(
                    f"{self.status} response larger than the client's cap of "
                    f"{format_size(self.max_bytes)} (decoded); stopped reading it "
                    f"({self.request}); raise max_response_bytes if such pages are expected",
                    request=self.request,
                    status_code=self.status,
                )
            yield piece

    def _inflate(self, data: bytes, level: int) -> Iterator[bytes]:
        if level == len(self.decoders):
            if data:
                yield data
            return
        for piece in self.decoders[level].feed(data, self.request, self.status):
            yield from self._inflate(piece, level + 1)


class _Inflater:
    """One gzip or deflate layer, decoded at most `CHUNK` bytes at a time."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.raw_deflate = False
        self.started = False
        self.inflater = zlib.decompressobj(zlib.MAX_WBITS | 16 if encoding == "gzip" else 15)

    def feed(self, data: bytes, request: RequestInfo, status: int) -> Iterator[bytes]:
        while data:
            try:
                piece = self.inflater.decompress(data, CHUNK)
            except zlib.error as exc:
                if self.encoding == "deflate" and not self.started and not self.raw_deflate:
                    self.raw_deflate = True  # deflate without the zlib header, as some send
                    self.inflater = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise ResponseParseError(
                    f"{status} response: its {self.encoding} body cannot be decoded: {exc} "
                    f"({request})",
                    request=request,
                    status_code=status,
                ) from None
            self.started = True
            data = self.inflater.unconsumed_tail
            if piece:
                yield piece


class _SyncBounded(httpx.SyncByteStream):
    def __init__(self, bounded: _Bounded, stream: Any) -> None:
        self.bounded, self.stream = bounded, stream

    def __iter__(self) -> Iterator[bytes]:
        for raw in self.stream:
            yield from self.bounded.decode(raw)

    def close(self) -> None:
        self.stream.close()


class _AsyncBounded(httpx.AsyncByteStream):
    def __init__(self, bounded: _Bounded, stream: Any) -> None:
        self.bounded, self.stream = bounded, stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for raw in self.stream:
            for piece in self.bounded.decode(raw):
                yield piece

    async def aclose(self) -> None:
        await self.stream.aclose()
