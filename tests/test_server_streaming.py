"""The whole listing streamed under back-pressure; a reader that stops is disconnected
(issue 22, finding 3), over real HTTP."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from iptoolkit.server import RunningServer, running
from iptoolkit.server.app import PROFILES_PATH
from iptoolkit.server.settings import ServerLimits
from iptoolkit.server.streaming import CHUNK_BYTES

from .server_data import make_principals, request_token

SEND_TIMEOUT = 1.0


def _big_profiles(count: int = 3000) -> list[dict[str, Any]]:
    """Enough profiles (~3 MB) that the listing fills any socket buffer."""
    return [
        {
            "class": "core:IntegrationProfile",
            "id": f"P{n}",
            "name": f"Profile {n} " + "x" * 900,
            "group": "Finance",
        }
        for n in range(count)
    ]


@pytest.fixture(scope="module")
def srv() -> Iterator[RunningServer]:
    with running(
        _big_profiles(), make_principals(), limits=ServerLimits(send_timeout=SEND_TIMEOUT)
    ) as server:
        yield server


@pytest.fixture(scope="module")
def token(srv: RunningServer) -> str:
    with httpx.Client(base_url=srv.base_url, timeout=10) as http:
        return str(request_token(http, "analytics").json()["access_token"])


def test_the_listing_arrives_whole_in_slices(srv: RunningServer, token: str) -> None:
    with httpx.Client(base_url=srv.base_url, timeout=30) as http:
        with http.stream("GET", PROFILES_PATH, headers={"Authorization": f"Bearer {token}"}) as r:
            assert r.status_code == 200
            length = int(r.headers["content-length"])
            body = b"".join(r.iter_raw())
    assert len(body) == length > 20 * CHUNK_BYTES
    assert [p["id"] for p in httpx.Response(200, content=body).json()][:2] == ["P0", "P1"]


def test_a_reader_that_stops_is_disconnected_after_the_send_timeout(
    srv: RunningServer, token: str
) -> None:
    """The client reads the headers, then nothing: the server drops it once its buffer has
    been full for the send timeout, instead of holding the rest of the body for it."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect((srv.host, srv.port))
        request = (
            f"GET {PROFILES_PATH} HTTP/1.1\r\nHost: {srv.host}\r\n"
            f"Authorization: Bearer {token}\r\n\r\n"
        )
        sock.sendall(request.encode())
        head = sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 200")
        time.sleep(SEND_TIMEOUT * 4)  # reads nothing: the server's buffer fills and waits
        sock.settimeout(10)
        received, closed = len(head), False
        try:
            while chunk := sock.recv(65536):
                received += len(chunk)
            closed = True
        except ConnectionResetError:
            closed = True
        length = int(head.split(b"content-length: ")[1].split(b"\r\n")[0])
    assert closed
    assert received < length  # the rest was dropped with the connection
