"""The API's three ways to a bearer token, plus a ready token, as `httpx.Auth` flows.

Each `auth_flow` is a generator in httpx's style: it yields the token requests it needs,
receives their responses, then yields the API request with `Authorization: Bearer ...`,
and on a 401 fetches one new token and resends once (except `BearerToken`, which cannot).

Token and login paths are resolved against the client's base URL, keeping its path
prefix: with base `https://host/platform`, `/dw/register/oauth/token` means
`https://host/platform/dw/register/oauth/token`. An absolute URL is used as given. Outside
our `Client` (a plain `httpx.Client(auth=...)`), paths resolve against the origin of the
request being authenticated.

Credentials are held as `Secret`s: no repr, str, log line or error message shows them.
A failing token request raises the matching `ApiError` (the client's retry policy then
decides whether the whole request is tried again).
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import AsyncGenerator, Generator, Mapping
from http.cookiejar import CookieJar
from typing import Any, Self

import anyio
import httpx

from ._retry import logger
from ._tokens import (
    TOKEN_KEYS,
    cookie_header,
    cookie_pairs,
    is_header_safe,
    read_token,
    set_cookies,
)
from ._urls import RequestInfo, install_log_filters, join_url
from .errors import AuthenticationError, error_from_response
from .secrets import Secret

__all__ = [
    "Secret",
    "ClientCredentials",
    "SessionCookie",
    "GuestLogin",
    "BearerToken",
    "TOKEN_KEYS",
    "TOKEN_REFRESH_MARGIN",
    "CLIENT_TOKEN_PATH",
    "SESSION_TOKEN_PATH",
    "GUEST_LOGIN_PATH",
]

CLIENT_TOKEN_PATH = "/dw/register/oauth/token"
"""Where client credentials buy a bearer token (POST, form-encoded)."""
SESSION_TOKEN_PATH = "/auth/sessionBearerToken"
"""Where a web session (its cookie) buys a bearer token (GET)."""
GUEST_LOGIN_PATH = "/"
"""Where a guest's `loginToken` opens a web session (GET)."""

TOKEN_REFRESH_MARGIN = 30.0
"""Seconds before `expires_in` runs out at which a token is refreshed (at most 10%)."""

_clock = time.monotonic
"""Monotonic seconds; tests replace it to let a token expire."""

Flow = Generator[httpx.Request, httpx.Response, None]


class _PlatformAuth(httpx.Auth):
    """Shared machinery: base URL binding and the bearer header."""

    _base_url: httpx.URL | None = None

    def _bind(self, base_url: httpx.URL) -> Self:
        """This flow bound to a client's base URL; a copy if bound to another one."""
        if self._base_url is None or self._base_url == base_url:
            self._base_url = base_url
            return self
        clone = copy.copy(self)
        clone._base_url = base_url
        clone._forget()
        return clone

    def _forget(self) -> None:
        """Drop cached tokens and sessions (a clone must not share them)."""

    def secret_values(self) -> tuple[str, ...]:
        """The credentials this flow holds now (secret, login token, cookies, the token it
        bought), for the client to mask where a server echoes one (`ApiError.mask`)."""
        return ()

    def _url(self, request: httpx.Request, path: str) -> httpx.URL:
        base = self._base_url or request.url.copy_with(raw_path=b"/", fragment=None)
        return join_url(base, path)


def _reading(flow: Flow) -> Flow:
    """Pass a flow's requests on, reading each response before the flow sees it."""
    request = next(flow)
    while True:
        response = yield request
        response.read()
        try:
            request = flow.send(response)
        except StopIteration:
            return


class BearerToken(_PlatformAuth):
    """A bearer token you already have; it cannot be refreshed, so a 401 is final."""

    def __init__(self, token: str | Secret) -> None:
        self.token = Secret(token)
        if not is_header_safe(self.token.get_secret_value()):
            raise ValueError("a bearer token must be printable ASCII (value hidden)")

    def auth_flow(self, request: httpx.Request) -> Flow:
        request.headers["Authorization"] = f"Bearer {self.token.get_secret_value()}"
        yield request

    def secret_values(self) -> tuple[str, ...]:
        return (self.token.get_secret_value(),)

    def __repr__(self) -> str:
        return f"BearerToken(token={self.token!r})"


class _TokenAuth(_PlatformAuth):
    """A flow that obtains its bearer token, caches it, and renews it once on a 401.

    One renewal at a time: concurrent requests (tasks of an `AsyncClient`, threads sharing
    a `Client`) that find the token missing, expired or refused wait for the one renewal
    under way and reuse its token. httpx drives `sync_auth_flow` or `async_auth_flow`;
    both run the same sans-IO steps (`_renew`, `_needs_token`) and differ only in the
    lock they hold and how they read a response.
    """

    requires_request_body = True  # a resend after a 401 needs the body again
    _what = "token request"

    def __init__(self) -> None:
        install_log_filters()  # httpx logs URLs (loginToken), httpcore logs Set-Cookie
        self._token: Secret | None = None
        self._expires_at: float | None = None
        self._new_locks()

    def _new_locks(self) -> None:
        self._thread_lock = threading.Lock()
        self._task_lock = anyio.Lock()

    def _bind(self, base_url: httpx.URL) -> Self:
        bound = super()._bind(base_url)
        if bound is not self:
            bound._new_locks()  # a clone renews its own token
        return bound

    def _forget(self) -> None:
        self._token, self._expires_at = None, None

    def secret_values(self) -> tuple[str, ...]:
        token = self._token
        return (*self._credentials(), *((token.get_secret_value(),) if token else ()))

    def _credentials(self) -> tuple[str, ...]:
        """The credentials the flow was given (a subclass's secret, cookies, login token)."""
        return ()

    def _needs_token(self, used: Secret | None) -> bool:
        """No token, an expired one, or still the one the server just refused (`used`)."""
        if self._token is None or self._token is used:
            return True
        return self._expires_at is not None and _clock() >= self._expires_at

    def _renew(self, request: httpx.Request) -> Flow:
        """The token requests of one renewal (the caller holds the lock). The old token
        stays until the new one is stored: a thread that passed `_needs_token` a moment
        ago still has a token to send (at worst refused, and then renewed)."""
        if self._token is not None:
            logger.debug("%s: renewing the token", type(self).__name__)
        yield from self._acquire(request)

    def _refused(self, request: httpx.Request) -> None:
        logger.debug(
            "%s: 401 from %s; fetching a new token (unless already renewed) and resending once",
            type(self).__name__,
            RequestInfo.of(request),
        )

    def sync_auth_flow(self, request: httpx.Request) -> Flow:
        request.read()
        used: Secret | None = None
        for attempt in range(2):
            if self._needs_token(used):
                with self._thread_lock:
                    if self._needs_token(used):
                        yield from _reading(self._renew(request))
            used = self._token
            self._set_bearer(request)
            response = yield request
            if response.status_code != 401 or attempt:
                return
            response.read()  # bounded by the client's hooks
            self._refused(request)

    async def async_auth_flow(
        self, request: httpx.Request
    ) -> AsyncGenerator[httpx.Request, httpx.Response]:
        await request.aread()
        used: Secret | None = None
        for attempt in range(2):
            if self._needs_token(used):
                async with self._task_lock:
                    if self._needs_token(used):
                        renewal = self._renew(request)
                        token_request = next(renewal)
                        while True:
                            response = yield token_request
                            await response.aread()
                            try:
                                token_request = renewal.send(response)
                            except StopIteration:
                                break
            used = self._token
            self._set_bearer(request)
            response = yield request
            if response.status_code != 401 or attempt:
                return
            await response.aread()
            self._refused(request)

    def auth_flow(self, request: httpx.Request) -> Flow:
        """`sync_auth_flow`, for anyone driving `auth_flow` directly (httpx itself calls
        `sync_auth_flow` or `async_auth_flow`)."""
        yield from self.sync_auth_flow(request)

    def _acquire(self, request: httpx.Request) -> Flow:
        """Yield the requests that obtain a token; end with `self._store(response)`."""
        raise NotImplementedError
        yield request  # pragma: no cover - makes this a generator

    def _set_bearer(self, request: httpx.Request) -> None:
        assert self._token is not None
        request.headers["Authorization"] = f"Bearer {self._token.get_secret_value()}"

    def _token_request(
        self, request: httpx.Request, method: str, url: httpx.URL, label: str = "", **kw: Any
    ) -> httpx.Request:
        """A request of ours, with the API request's timeout and user agent."""
        headers = {"Accept": "application/json, text/plain;q=0.9"}
        if "user-agent" in request.headers:
            headers["User-Agent"] = request.headers["user-agent"]
        headers.update(kw.pop("headers", {}))
        token_request = httpx.Request(method, url, headers=headers, **kw)
        if "timeout" in request.extensions:
            token_request.extensions["timeout"] = request.extensions["timeout"]
        logger.debug("%s: %s", label or self._what, RequestInfo.of(token_request))
        return token_request

    def _check(self, response: httpx.Response, what: str) -> None:
        """Raise the matching error for a failed token or login response."""
        if response.is_success:
            return
        error = error_from_response(response, context=what)
        if response.is_redirect:  # typically a redirect to a login page
            error = AuthenticationError(
                error.message, request=error.request, status_code=error.status_code
            )
        raise error

    def _store(self, response: httpx.Response) -> None:
        """Read and cache the token of a successful token response."""
        self._check(response, self._what)
        self._token, expires_in = read_token(response, self._what)
        self._expires_at = None
        if expires_in is not None:
            margin = min(TOKEN_REFRESH_MARGIN, expires_in / 10)
            self._expires_at = _clock() + expires_in - margin
        logger.debug(
            "%s: token received%s",
            type(self).__name__,
            f"; valid for {expires_in:.0f} s" if expires_in is not None else "; no expiry given",
        )


class ClientCredentials(_TokenAuth):
    """Machine-to-machine: client id and secret, exchanged for a token by a form POST.

    >>> ClientCredentials("reporting", "s3cr3t")
    ClientCredentials(client_id='reporting', client_secret=Secret('**********'))
    """

    _what = "client-credentials token request"

    def __init__(
        self,
        client_id: str,
        client_secret: str | Secret,
        token_path: str = CLIENT_TOKEN_PATH,
    ) -> None:
        super().__init__()
        self.client_id = client_id
        self.client_secret = Secret(client_secret)
        self.token_path = token_path

    def _credentials(self) -> tuple[str, ...]:
        return (self.client_secret.get_secret_value(),)

    def _acquire(self, request: httpx.Request) -> Flow:
        form = {
            "grant_type": "client_credentials",
            "client_id": self.client_id,
            "client_secret": self.client_secret.get_secret_value(),
        }
        url = self._url(request, self.token_path)
        response = yield self._token_request(request, "POST", url, data=form)
        self._store(response)

    def __repr__(self) -> str:
        return (
            f"ClientCredentials(client_id={self.client_id!r}, client_secret={self.client_secret!r})"
        )


class SessionCookie(_TokenAuth):
    """A session established in the web UI: its cookie buys a bearer token.

    `cookies` is a name -> value mapping, a `"name=value"` string (several joined by `;`,
    as in a Cookie header or `IPTOOLKIT_SESSION_COOKIE`), or an httpx / http.cookiejar jar.
    """

    _what = "session bearer token request"

    def __init__(
        self,
        cookies: Mapping[str, str] | str | CookieJar | httpx.Cookies,
        token_path: str = SESSION_TOKEN_PATH,
    ) -> None:
        super().__init__()
        self.cookies = cookie_pairs(cookies)
        if not self.cookies:
            raise ValueError("SessionCookie needs at least one cookie (name=value)")
        if not all(
            is_header_safe(name + value.get_secret_value()) for name, value in self.cookies.items()
        ):
            raise ValueError("session cookies must be printable ASCII (values hidden)")
        self.token_path = token_path

    def _credentials(self) -> tuple[str, ...]:
        return tuple(value.get_secret_value() for value in self.cookies.values())

    def _acquire(self, request: httpx.Request) -> Flow:
        url = self._url(request, self.token_path)
        headers = {"Cookie": cookie_header(self.cookies)}
        response = yield self._token_request(request, "GET", url, headers=headers)
        if response.status_code == 401:
            logger.debug("SessionCookie: the session was refused; it has probably expired")
        self._store(response)

    def __repr__(self) -> str:
        return f"SessionCookie(cookies={self.cookies!r})"


class GuestLogin(_TokenAuth):
    """A guest user's login token: `GET /?loginToken=...` opens a session, whose cookie
    then buys a bearer token. When the bearer is refused, both steps are done again."""

    _what = "guest session bearer token request"

    def __init__(
        self,
        login_token: str | Secret,
        token_path: str = SESSION_TOKEN_PATH,
        login_path: str = GUEST_LOGIN_PATH,
    ) -> None:
        super().__init__()
        self.login_token = Secret(login_token)
        self.token_path = token_path
        self.login_path = login_path

    def _credentials(self) -> tuple[str, ...]:
        return (self.login_token.get_secret_value(),)

    def _acquire(self, request: httpx.Request) -> Flow:
        url = self._url(request, self.login_path)
        url = url.copy_add_param("loginToken", self.login_token.get_secret_value())
        login = yield self._token_request(request, "GET", url, "guest login")
        if not (login.is_success or login.is_redirect):
            self._check(login, "guest login")
        cookies = set_cookies(login)
        if not cookies:
            logger.debug("GuestLogin: the login response set no cookie; trying anyway")
        headers = {"Cookie": cookie_header(cookies)} if cookies else {}
        url = self._url(request, self.token_path)
        response = yield self._token_request(request, "GET", url, headers=headers)
        self._store(response)

    def __repr__(self) -> str:
        return f"GuestLogin(login_token={self.login_token!r})"
