"""Sending a large body (the whole listing, ~30 MB for 10,000 profiles) to any client.

Handed to the server in one piece, a body is copied into the connection's write buffer
whole, for every client, and stays there as long as the client does not read: forty
abandoned downloads held over a gigabyte. `ChunkedBody` sends the (shared, immutable)
body in slices of `CHUNK_BYTES`, each after the server's flow control lets it
(back-pressure: per connection at most a slice beyond the transport's high-water mark is
buffered). A client that reads nothing for the send timeout is disconnected by the
connection guard (`connections.GuardedH11Protocol`), which frees that buffer.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

__all__ = ["ChunkedBody", "CHUNK_BYTES"]

CHUNK_BYTES = 64 * 1024
"""Bytes handed to the server at a time."""


class ChunkedBody(Response):
    """A response with a known length whose body is sent a slice at a time."""

    def __init__(self, content: bytes, *, media_type: str | None = None) -> None:
        super().__init__(b"", media_type=media_type)
        self.payload = memoryview(content)
        self.headers["content-length"] = str(len(content))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        start_message = {
            "type": "http.response.start",
            "status": self.status_code,
            "headers": self.raw_headers,
        }
        await send(start_message)
        total = len(self.payload)
        if total == 0:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        for start in range(0, total, CHUNK_BYTES):
            end = min(start + CHUNK_BYTES, total)
            # uvicorn's `send` waits while the client's buffer is full (flow control)
            body = bytes(self.payload[start:end])
            await send({"type": "http.response.body", "body": body, "more_body": end < total})
