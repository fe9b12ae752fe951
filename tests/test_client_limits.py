"""Issue 14, finding 8: a deadline per request and per fetch, and a cap on the decoded size
of a response, enforced while it streams, against a hostile server on a real socket."""

from __future__ import annotations

import json
import time
import tracemalloc
import zlib
from typing import Any

import pytest

from iptoolkit.client import (
    ApiError,
    AsyncClient,
    BearerToken,
    Client,
    ClientCredentials,
    DeadlineExceededError,
    ResponseParseError,
    ResponseTooLargeError,
)

from .hostile_server import Hostile, hostile_server, send_head, trickle

LISTING = "/api/preview/profiles"
MiB = 1 << 20


def gzip_of_zeros(size: int) -> bytes:
    """A gzip stream that expands to `size` bytes of '0' (about a thousandth as big)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = b"0" * MiB
    parts = [packer.compress(block) for _ in range(size // MiB)]
    return b"".join(parts) + packer.flush()


def listing(start: int, count: int = 2) -> bytes:
    ids = [{"class": "core:IntegrationProfile", "id": f"P{start + i}"} for i in range(count)]
    return json.dumps({"content": ids, "next": f"{LISTING}?from={start + count}"}).encode()


def client(hostile: Hostile, **options: Any) -> Client:
    options.setdefault("max_retries", 0)
    return Client(hostile.url, auth=BearerToken("t"), **options)


def async_client(hostile: Hostile, **options: Any) -> AsyncClient:
    return AsyncClient(hostile.url, auth=BearerToken("t"), max_retries=0, **options)


def trickled_body(hostile: Hostile, handler: Any) -> None:
    send_head(handler, Content_Type="application/json", Content_Length=10_000)
    trickle(hostile, handler, b" ")


def trickled_headers(hostile: Hostile, handler: Any) -> None:
    handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
    trickle(hostile, handler, b"X-Slow: 1\r\n")


# -- deadlines -------------------------------------------------------------------------


def test_trickled_headers_stop_at_the_request_deadline_of_a_blocking_client() -> None:
    """httpcore takes one read timeout for the whole header phase; the watchdog shuts
    the connection at the deadline, and the server sees it."""
    with hostile_server(trickled_headers) as hostile:
        started = time.monotonic()
        with client(hostile, timeout=2.0, deadline=1.0, max_retries=2) as c:
            with pytest.raises(DeadlineExceededError, match="deadline"):
                c.fetch_raw()
        failed = time.monotonic()
        assert failed - started < 5.0  # the trickle lasts 8 s: margins of seconds either way
        assert len(hostile.requests) == 1  # a deadline is final: not retried
        while not hostile.ended and time.monotonic() < failed + 5:
            time.sleep(0.05)
        assert hostile.ended and hostile.ended[0] - failed < 4.0  # the server saw us hang up


def test_a_trickled_body_stops_at_the_request_deadline() -> None:
    """Every byte arrives within the read timeout; the deadline still ends the request,
    and the connection is closed, so the server stops sending soon after."""
    with hostile_server(trickled_body) as hostile:
        started = time.monotonic()
        with (
            client(hostile, timeout=2.0, deadline=1.0, max_retries=2) as c,
            pytest.raises(DeadlineExceededError) as caught,
        ):
            c.fetch_raw()
        failed = time.monotonic()
        assert failed - started < 5.0  # the trickle lasts 8 s: margins of seconds either way
        deadline = time.monotonic() + 5
        while not hostile.ended and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hostile.ended and hostile.ended[0] - failed < 4.0  # the server saw us hang up
    assert "deadline" in str(caught.value) and LISTING in str(caught.value)
    assert isinstance(caught.value, ApiError)
    assert hostile.requests == [f"GET {LISTING}"]  # a deadline is final: not retried


@pytest.mark.anyio
@pytest.mark.parametrize("respond", [trickled_body, trickled_headers], ids=["body", "headers"])
async def test_the_async_client_cancels_at_the_deadline_even_amid_trickled_headers(
    respond: Any,
) -> None:
    with hostile_server(respond) as hostile:
        started = time.monotonic()
        async with async_client(hostile, timeout=2.0, deadline=1.0) as c:
            with pytest.raises(DeadlineExceededError, match="deadline"):
                await c.fetch_raw()
        assert time.monotonic() - started < 5.0  # the trickle lasts 8 s


def test_the_fetch_deadline_bounds_a_listing_of_quick_but_endless_pages() -> None:
    def endless(hostile: Hostile, handler: Any) -> None:
        start = int(handler.path.partition("from=")[2] or 0)
        time.sleep(0.2)
        body = listing(start)
        send_head(handler, Content_Type="application/json", Content_Length=len(body))
        handler.wfile.write(body)

    with hostile_server(endless) as hostile:
        started = time.monotonic()
        with client(hostile, fetch_deadline=1.0) as c, pytest.raises(DeadlineExceededError):
            c.fetch_raw(max_pages=1000)
        assert time.monotonic() - started < 5.0  # without the deadline: 1000 pages, 200 s
        assert 1 <= len(hostile.requests) <= 8


@pytest.mark.usefixtures("no_sleep")
def test_a_silent_server_is_given_up_at_the_deadline_not_the_longer_timeout() -> None:
    """The read timeout is shortened to the time left; the deadline is final (retrying
    would give the server a fresh deadline each time)."""

    def silent(hostile: Hostile, handler: Any) -> None:
        hostile.stop.wait(30)

    with hostile_server(silent) as hostile:
        started = time.monotonic()
        with client(hostile, timeout=10.0, deadline=1.0, max_retries=2) as c:
            with pytest.raises(DeadlineExceededError):
                c.fetch_raw()
        assert time.monotonic() - started < 6.0  # the read timeout is 10 s
        assert len(hostile.requests) == 1


@pytest.mark.usefixtures("no_sleep")
def test_a_retry_whose_wait_would_outlast_the_fetch_deadline_is_not_made() -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, 503, Retry_After=30, Content_Length=0)

    with hostile_server(respond) as hostile:
        with client(hostile, fetch_deadline=10.0, max_retries=2) as c:
            with pytest.raises(ApiError) as caught:
                c.fetch_raw()
    assert caught.value.status_code == 503
    assert len(hostile.requests) == 1


@pytest.mark.parametrize(
    ("option", "value"),
    [("deadline", 0), ("fetch_deadline", -1.0), ("max_response_bytes", 0)],
)
def test_limits_must_be_positive(option: str, value: float) -> None:
    with pytest.raises(ValueError, match=option):
        limit: dict[str, Any] = {option: value}
        Client("http://127.0.0.1:9", auth=BearerToken("t"), **limit)


# -- size ------------------------------------------------------------------------------


def test_a_gzip_bomb_is_stopped_at_the_cap_with_memory_bounded() -> None:
    """64 MiB of decoded body behind 64 KiB on the wire; the cap is 1 MiB: the client
    stops there, and never holds much more than the cap."""
    bomb = gzip_of_zeros(64 * MiB)
    assert len(bomb) < MiB

    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, Content_Encoding="gzip", Content_Length=len(bomb))
        handler.wfile.write(bomb)

    with hostile_server(respond) as hostile, client(hostile, max_response_bytes=MiB) as c:
        tracemalloc.start()
        try:
            with pytest.raises(ResponseTooLargeError) as caught:
                c.fetch_raw()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 8 * MiB, f"peak {peak / MiB:.1f} MiB"
    message = str(caught.value)
    assert "cap of 1 MiB (decoded)" in message and "max_response_bytes" in message
    assert caught.value.status_code == 200


def test_a_plain_body_over_the_cap_is_not_read_to_its_end() -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, Content_Length=64 * MiB)
        for _ in range(64):
            handler.wfile.write(b"0" * MiB)

    with hostile_server(respond) as hostile, client(hostile, max_response_bytes=MiB) as c:
        with pytest.raises(ResponseTooLargeError):
            c.fetch_raw()


def test_a_body_under_the_cap_is_read_and_decoded() -> None:
    body = zlib.compress(listing(0, 3).replace(b'"next"', b'"ignored"'))

    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, Content_Encoding="deflate", Content_Length=len(body))
        handler.wfile.write(body)

    with hostile_server(respond) as hostile, client(hostile, max_response_bytes=MiB) as c:
        assert [item["id"] for item in c.fetch_raw()] == ["P0", "P1", "P2"]


def test_a_token_response_bomb_is_capped_too() -> None:
    """The auth flow's own responses (token, login) go through the same cap."""
    bomb = gzip_of_zeros(32 * MiB)

    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, Content_Encoding="gzip", Content_Length=len(bomb))
        handler.wfile.write(bomb)

    with hostile_server(respond) as hostile:
        auth = ClientCredentials("cid", "secret")
        with Client(hostile.url, auth=auth, max_response_bytes=MiB, max_retries=0) as c:
            with pytest.raises(ResponseTooLargeError, match="oauth/token"):
                c.fetch_raw()


@pytest.mark.anyio
async def test_the_async_client_caps_a_gzip_bomb() -> None:
    bomb = gzip_of_zeros(16 * MiB)

    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, Content_Encoding="gzip", Content_Length=len(bomb))
        handler.wfile.write(bomb)

    with hostile_server(respond) as hostile:
        async with async_client(hostile, max_response_bytes=MiB) as c:
            with pytest.raises(ResponseTooLargeError):
                await c.fetch_raw()


@pytest.mark.parametrize(
    ("encoding", "body", "why"),
    [("gzip", b"not gzip at all", "cannot be decoded"), ("br", b"\x0b", "unsupported")],
)
def test_a_body_that_cannot_be_decoded_is_a_response_parse_error(
    encoding: str, body: bytes, why: str
) -> None:
    def respond(hostile: Hostile, handler: Any) -> None:
        send_head(handler, Content_Encoding=encoding, Content_Length=len(body))
        handler.wfile.write(body)

    with hostile_server(respond) as hostile, client(hostile) as c:
        with pytest.raises(ResponseParseError, match=why):
            c.fetch_raw()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
