"""`iptoolkit mcp --http`: the streamable HTTP transport on loopback, for its owner only.

The SDK answers any caller that reaches the port, and on a shared machine that is any
local user; the tools hand over the estate (names, endpoints, findings, the diff). So the
transport keeps the Explorer app's rule (`app/guard.py`):

* a token (256 random bits, as the app's; or `IPTOOLKIT_MCP_TOKEN`, for a client whose
  configuration names one address for good), printed in the address the command prints
  (`/mcp?token=...`), or sent as `Authorization: Bearer <token>` (what MCP clients'
  `headers` settings send);
* a request without it is refused before the SDK sees it: 401 with
  `WWW-Authenticate: Bearer` when no token came, 403 when a wrong one did;
* the SDK's own check of `Host` and `Origin` on loopback stays on (a page that rebinds
  its DNS name to 127.0.0.1 is refused even with the token).

Connections get the reference server's guards (`hardening/h11_protocol.py`), so that
callers without the token cannot take the port down either: 1,300 connections that never
finished their headers once made the command exit, out of open files (issue 44). Headers
are due within 10 s; at most 1,000 connections are held (fewer where the open-file limit
is lower), a new one beyond closes the oldest stalled one; a failed accept is one line a
minute, never the traceback that the SDK's log handler failed to render without a file.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from ..support import env

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["TokenGuard", "serve_http", "token_from_env", "PATH"]

PATH = "/mcp"
"""Where the SDK's transport answers."""

_NO_TOKEN = (
    "this server needs its token: use the address `iptoolkit mcp --http` printed, or an "
    "Authorization: Bearer header"
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def token_from_env() -> str:
    """`IPTOOLKIT_MCP_TOKEN` when set (a client configured once), else a fresh token."""
    from ..app.guard import new_token

    return (os.environ.get(env.MCP_TOKEN) or "").strip() or new_token()


class TokenGuard:
    """An ASGI app that lets a request through to `app` only with `token` (in the query's
    `token`, or an `Authorization: Bearer` header); lifespan events always pass, so the
    SDK's session manager starts and stops as it would alone."""

    def __init__(self, app: App, token: str) -> None:
        self.app = app
        self._token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = _token_of(scope)
        if given is None:
            await _refuse(send, 401, _NO_TOKEN)
        elif not secrets.compare_digest(given.encode(), self._token):
            await _refuse(send, 403, "wrong token")
        else:
            await self.app(scope, receive, send)


def _token_of(scope: Scope) -> str | None:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers", ())  # ASGI: byte pairs
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                return credentials.strip()
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("token")
    return values[-1] if values else None


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="iptoolkit mcp"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _guards() -> dict[str, Any]:
    """uvicorn's options against connection floods, logged by `iptoolkit.mcp`."""
    from ..hardening.h11_protocol import guarded_uvicorn

    return guarded_uvicorn(logging.getLogger("iptoolkit.mcp"))


def serve_http(server: MCPServer, port: int, token: str, announce: Callable[[str], None]) -> None:
    """Serve `server` on 127.0.0.1:`port` (0: a free one) behind the token, telling
    `announce` the working address once the port takes connections (uvicorn started: the
    app's lifespan ran and the socket listens; a bound socket alone refuses); returns when
    stopped."""
    import anyio
    import uvicorn

    app = TokenGuard(server.streamable_http_app(streamable_http_path=PATH, host="127.0.0.1"), token)
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", port))
    bound = listening.getsockname()[1]
    address = f"http://127.0.0.1:{bound}{PATH}?token={token}"

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                announce(address)

    config = uvicorn.Config(app, host="127.0.0.1", port=bound, log_level="warning", **_guards())
    anyio.run(Announcing(config).serve, [listening])
