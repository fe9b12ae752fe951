"""Connections that hold the server hostage: half-sent requests, floods, malformed bytes.

The connection guards are shared with `iptoolkit mcp --http` (`hardening/h11_protocol.py`:
a header deadline, a connection cap fitted to the open-file limit, send deadlines, failed
accepts logged once a minute); here is what only the reference server adds: a malformed
request answers 400 in the error envelope (`malformed_body`), and the body's bounds, an
ASGI middleware (`BodyDeadline`): a request whose body has not arrived `body_timeout`
seconds after its headers answers 408 in the envelope, one whose body exceeds
`MAX_BODY_BYTES` 413 (the forms are a few hundred bytes; Starlette would hold a form of a
thousand 1 MB fields whole).
"""

from __future__ import annotations

import asyncio

import orjson
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..hardening.h11_protocol import MALFORMED
from .error_responses import error_body

__all__ = [
    "DEFAULT_BODY_TIMEOUT",
    "MAX_BODY_BYTES",
    "BodyDeadline",
    "RequestTimeout",
    "BodyTooLarge",
    "malformed_body",
]

DEFAULT_BODY_TIMEOUT = 30.0
"""Seconds a client has, after the headers, to send the whole body."""
MAX_BODY_BYTES = 64 * 1024
"""The largest request body read: every body the API takes is a short form."""


def malformed_body() -> bytes:
    """What a malformed request line or header gets: 400 in the envelope."""
    return orjson.dumps(error_body(400, MALFORMED))


class RequestTimeout(HTTPException):
    """The body did not arrive in time: 408 in the envelope, and the connection closes."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            408,
            f"The request body did not arrive within {seconds:g} s.",
            headers={"Connection": "close"},
        )


class BodyTooLarge(HTTPException):
    """The body is longer than the server reads: 413 in the envelope, and the connection
    closes (the rest of the body is not read)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(
            413,
            f"The request body is larger than {max_bytes:,} bytes.",
            headers={"Connection": "close"},
        )


class BodyDeadline:
    """ASGI middleware: the whole body must arrive within `timeout` seconds of the headers,
    and be at most `max_bytes` long."""

    def __init__(
        self, app: ASGIApp, timeout: float = DEFAULT_BODY_TIMEOUT, max_bytes: int = MAX_BODY_BYTES
    ) -> None:
        if timeout <= 0:
            raise ValueError("the body timeout must be positive")
        self.app = app
        self.timeout = timeout
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.timeout
        body_done = False
        received = 0

        async def receive_in_time() -> Message:
            nonlocal body_done, received
            if body_done:  # later calls wait for a disconnect: no deadline on those
                return await receive()
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.0))
            except TimeoutError:
                raise RequestTimeout(self.timeout) from None
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise BodyTooLarge(self.max_bytes)
            body_done = not message.get("more_body", False)
            return message

        await self.app(scope, receive_in_time, send)
