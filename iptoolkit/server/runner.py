"""Running the reference server: in a background thread for notebooks and tests, or in the
foreground for `iptoolkit serve`.

    with ipt.server.running(estate) as srv:      # a free loopback port
        client = ipt.Client(srv.base_url, auth=ipt.ClientCredentials(srv.client_id,
                                                                     srv.client_secret))

uvicorn's access log is off: a guest's login token travels in the query string, and the
access log would write it down. Secrets are printed once by `serve`, never logged.
"""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from os import PathLike
from typing import Any, TextIO

import httpx
import uvicorn
from fastapi import FastAPI

from ..hardening.h11_protocol import guarded_uvicorn
from ..support import env
from ..support.redact import redact_query
from .app import PROFILES_PATH, TOKEN_PATH, create_app
from .connections import malformed_body
from .demo_callers import DemoCredentials, demo_principals
from .principals import Principals
from .settings import ServerLimits
from .tokens import DEFAULT_SESSION_TTL, DEFAULT_TOKEN_TTL

__all__ = ["RunningServer", "running", "serve", "build_app", "DEFAULT_PORT", "LOOPBACK_HOSTS"]

DEFAULT_PORT = 8765
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_START_TIMEOUT = 15.0
_STOP_TIMEOUT = 5.0
_logger = logging.getLogger("iptoolkit.server")
"""Where floods are logged, once a minute (docs/server.md)."""

EstateSource = Any
"""An `Estate`, a list of raw profiles, a snapshot path, or None for the demo estate."""
PrincipalsSource = Principals | Mapping[str, Any] | str | PathLike[str] | None
"""`Principals`, their JSON as a dict, a principals file, or None for demo principals."""


class _Credential:
    """A shortcut to the field of the demo credentials of the same name (None when the
    server was given its own principals)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, server: RunningServer | None, owner: type | None = None) -> str | None:
        if server is None or server.credentials is None:
            return None
        value: str | None = getattr(server.credentials, self.name)
        return value


@dataclass(frozen=True, repr=False)
class RunningServer:
    """A server started by `running`: where it listens and, for demo principals, who may call.

    The credential properties are None when the server was given its own principals.
    """

    base_url: str
    host: str
    port: int
    app: FastAPI = field(compare=False)
    credentials: DemoCredentials | None = None

    client_id = _Credential()
    client_secret = _Credential()
    guest_token = _Credential()
    username = _Credential()
    password = _Credential()

    @property
    def profiles_url(self) -> str:
        return self.base_url + PROFILES_PATH

    def __repr__(self) -> str:
        return (
            f"RunningServer(base_url={self.base_url!r}, client_id={self.client_id!r}, "
            f"username={self.username!r})"
        )


def build_app(
    estate: EstateSource = None,
    principals: PrincipalsSource = None,
    *,
    token_ttl: float = DEFAULT_TOKEN_TTL,
    session_ttl: float = DEFAULT_SESSION_TTL,
    secure_cookies: bool | None = None,
    limits: ServerLimits | None = None,
) -> tuple[FastAPI, DemoCredentials | None]:
    """The app for an estate and principals, each given in any form `running` accepts."""
    credentials: DemoCredentials | None = None
    if principals is None:
        principals, credentials = demo_principals()
    elif isinstance(principals, Mapping):
        principals = Principals.model_validate(principals)
    elif not isinstance(principals, Principals):
        principals = Principals.load(principals)
    app = create_app(
        _estate(estate),
        principals,
        token_ttl=token_ttl,
        session_ttl=session_ttl,
        secure_cookies=secure_cookies,
        limits=limits,
    )
    return app, credentials


@contextmanager
def running(
    estate: EstateSource = None,
    principals: PrincipalsSource = None,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    token_ttl: float = DEFAULT_TOKEN_TTL,
    session_ttl: float = DEFAULT_SESSION_TTL,
    secure_cookies: bool | None = None,
    limits: ServerLimits | None = None,
) -> Iterator[RunningServer]:
    """Serve `estate` in a background thread until the block ends (port 0: a free one).

    Without `principals`, demo principals with fresh random secrets; the yielded object
    carries them. The block starts once the server answers HTTP. `limits` bound guessing,
    tokens and connections (see `ServerLimits`); `secure_cookies` as for `serve`.
    """
    app, credentials, limits, sock = _app_on_socket(
        estate, principals, host, port, limits, token_ttl, session_ttl, secure_cookies
    )
    bound_port = sock.getsockname()[1]
    server = uvicorn.Server(_config(app, host, bound_port, limits, log_config=None))
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="iptoolkit-server", daemon=True
    )
    thread.start()
    try:
        base_url = _base_url(host, bound_port)
        _wait_until_answering(base_url, server, thread)
        yield RunningServer(base_url, host, bound_port, app, credentials)
    finally:
        server.should_exit = True
        thread.join(_STOP_TIMEOUT)
        if thread.is_alive():  # connections that would not close: stop without waiting
            server.force_exit = True
            thread.join(_STOP_TIMEOUT)
        sock.close()


def serve(
    estate: EstateSource = None,
    principals: PrincipalsSource = None,
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    token_ttl: float = DEFAULT_TOKEN_TTL,
    session_ttl: float = DEFAULT_SESSION_TTL,
    secure_cookies: bool | None = None,
    limits: ServerLimits | None = None,
    out: TextIO | None = None,
) -> None:
    """Serve in the foreground until interrupted; print the demo credentials once, at start.

    `secure_cookies` None: `Secure` session cookies on a non-loopback `host`, and on any
    request that came over HTTPS; True or False: always or never.
    """
    out = out if out is not None else sys.stdout
    app, credentials, limits, sock = _app_on_socket(
        estate, principals, host, port, limits, token_ttl, session_ttl, secure_cookies
    )
    base_url = _base_url(host, sock.getsockname()[1])
    print(_banner(app, base_url, host, credentials), file=out, flush=True)
    server = uvicorn.Server(_config(app, host, sock.getsockname()[1], limits))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl+C it handled: a normal stop
        pass
    finally:
        sock.close()


def _app_on_socket(
    estate: EstateSource,
    principals: PrincipalsSource,
    host: str,
    port: int,
    limits: ServerLimits | None,
    token_ttl: float,
    session_ttl: float,
    secure_cookies: bool | None,
) -> tuple[FastAPI, DemoCredentials | None, ServerLimits, socket.socket]:
    """What `running` and `serve` start from: the app (and the demo credentials when no
    principals were given), its limits, and the bound listening socket."""
    limits = limits if limits is not None else ServerLimits()
    app, credentials = build_app(
        estate,
        principals,
        token_ttl=token_ttl,
        session_ttl=session_ttl,
        secure_cookies=_secure_default(secure_cookies, host),
        limits=limits,
    )
    return app, credentials, limits, _bind(host, port)


def _estate(estate: EstateSource) -> Any:
    if estate is None:
        from ..demo import demo_estate

        return demo_estate()
    if isinstance(estate, list | tuple):
        return estate  # raw profiles, served as given
    from ..core.estate import as_estate

    return as_estate(estate, "the served estate")


class _RedactAccessLog(logging.Filter):
    """Mask credentials in uvicorn's access lines, should any be written.

    `access_log=False` is not the whole story: uvicorn still writes access lines when the
    `uvicorn.access` logger has handlers of its own (pytest's caplog adds some).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact_query(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


def _install_access_log_filter() -> None:
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(existing, _RedactAccessLog) for existing in access.filters):
        access.addFilter(_RedactAccessLog())


def _secure_default(secure_cookies: bool | None, host: str) -> bool | None:
    """Beyond loopback, cookies are `Secure` unless told otherwise (None: per request)."""
    if secure_cookies is None and host not in LOOPBACK_HOSTS:
        return True
    return secure_cookies


def _config(
    app: FastAPI, host: str, port: int, limits: ServerLimits, **options: Any
) -> uvicorn.Config:
    _install_access_log_filter()
    guarded = guarded_uvicorn(
        _logger,
        header_timeout=limits.header_timeout,
        max_connections=limits.max_connections,
        send_timeout=limits.send_timeout,
        max_header_bytes=limits.max_header_bytes,
        malformed=malformed_body(),
        hint="raise `ulimit -n`, or lower --max-connections",
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        **guarded,
        access_log=False,  # a guest's loginToken is in the query string: never log requests
        lifespan="off",
        ws="none",
        timeout_graceful_shutdown=int(_STOP_TIMEOUT),
        **options,
    )


def _bind(host: str, port: int) -> socket.socket:
    """Bind the listening socket ourselves, so port 0 gives a known free port and no race."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _base_url(host: str, port: int) -> str:
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def _wait_until_answering(base_url: str, server: uvicorn.Server, thread: threading.Thread) -> None:
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline:
        if not thread.is_alive():
            raise RuntimeError("the reference server stopped while starting; see the log")
        if server.started:
            try:
                httpx.get(base_url + "/", timeout=1.0)
                return
            except httpx.TransportError:
                pass
        time.sleep(0.01)
    server.should_exit = True
    raise RuntimeError(
        f"the reference server did not answer at {base_url} within {_START_TIMEOUT:g} s"
    )


def _banner(app: FastAPI, base_url: str, host: str, creds: DemoCredentials | None) -> str:
    count = len(app.state.server.catalogue)
    lines = [f"iptoolkit reference server: {count} profiles at {base_url}"]
    if host not in LOOPBACK_HOSTS:
        lines.append(f"  Note: listening on {host}, beyond this machine, over plain HTTP.")
    lines += [
        f"  API description: {base_url}/openapi.json (browse: {base_url}/docs)",
        f"  Profiles:        GET {base_url}{PROFILES_PATH} with Authorization: Bearer <token>",
    ]
    if creds is None:
        lines.append("  Principals from the given file. Stop with Ctrl+C.")
        return "\n".join(lines)
    lines += [
        "",
        "Demo credentials (new on every start; shown only here):",
        f"  API client:  client_id={creds.client_id}  client_secret={creds.client_secret}",
        f"               POST {base_url}{TOKEN_PATH}",
        f"  UI user:     username={creds.username}  password={creds.password}"
        f"  (sign in at {base_url}/)",
        f"  Guest link:  {base_url}/?loginToken={creds.guest_token}"
        f"  (sees groups {', '.join(creds.guest_groups)})",
        f"  No access:   client_id={creds.denied_client_id}  "
        f"client_secret={creds.denied_client_secret}  (lacks profiles:view: 403)",
        "",
        "From Python:",
        "  import iptoolkit as ipt",
        f"  client = ipt.Client({base_url!r},",
        f"      auth=ipt.ClientCredentials({creds.client_id!r}, {creds.client_secret!r}))",
        "  estate = client.fetch_estate()",
        "",
        "From the shell (or `ipt.Client.from_env()`):",
        f"  export {env.BASE_URL}={base_url} {env.CLIENT_ID}={creds.client_id} "
        f"{env.CLIENT_SECRET}={creds.client_secret}",
        "  iptoolkit fetch -o snapshot.json",
        "",
        "Stop with Ctrl+C.",
    ]
    return "\n".join(lines)
