"""What `Client` and `AsyncClient` share: configuration, `from_env`, parsing pages.

Only sending and sleeping differ between the two; both drive the same sans-IO flow
(`_core.listing_flow`). The constructor lives here once; a subclass names its httpx
client class (`_http_class`) and its transport type (the `Transport` parameter).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

import httpx

from .._version import __version__
from ..models import IntegrationProfile, Issue, Listing, ParseError, parse_profiles
from ..support import env
from ..support.arguments import whole_number
from ._core import Deadlines, Flow, listing_flow
from ._limits import ACCEPT_ENCODING, DEFAULT_DEADLINE, MAX_RESPONSE_BYTES
from ._retry import MAX_RETRIES, logger
from ._urls import base_url_of, install_log_filters, listing_url, redact_url
from .auth import BearerToken, ClientCredentials, GuestLogin, SessionCookie, _PlatformAuth
from .errors import ApiError
from .paging import Page

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = [
    "DEFAULT_PROFILES_PATH",
    "DEFAULT_TIMEOUT",
    "PLAIN_HEADERS",
    "ClientBase",
    "auth_from_env",
    "Fetched",
    "parse_page",
    "raw_items",
]

DEFAULT_PROFILES_PATH = "/api/preview/profiles"
"""The listing's path on our reference server; the spec does not name one."""
DEFAULT_TIMEOUT = 30.0
PLAIN_HEADERS = frozenset(
    {"accept", "accept-encoding", "accept-language", "content-type", "user-agent", "cache-control"}
)
"""Headers a caller may give whose values are not credentials: an error quoting them keeps
them (`application/json`); the values of every other header given are masked in errors."""


def _user_agent() -> str:
    return f"iptoolkit/{__version__} httpx/{httpx.__version__}"


def auth_from_env(environ: Mapping[str, str]) -> httpx.Auth:
    """The auth flow the environment describes, first match wins: client id and secret,
    guest token, session cookie, bearer token. Says which variable is missing."""

    def get(name: str) -> str | None:
        return (environ.get(name) or "").strip() or None

    client_id, secret = get(env.CLIENT_ID), get(env.CLIENT_SECRET)
    if client_id and secret:
        logger.debug("from_env: client credentials (%s)", env.CLIENT_ID)
        return ClientCredentials(client_id, secret)
    if client_id or secret:
        have, lack = (
            (env.CLIENT_ID, env.CLIENT_SECRET) if client_id else (env.CLIENT_SECRET, env.CLIENT_ID)
        )
        raise ValueError(f"{lack} is not set ({have} is): the client-credentials flow needs both")
    if token := get(env.GUEST_TOKEN):
        logger.debug("from_env: guest login (%s)", env.GUEST_TOKEN)
        return GuestLogin(token)
    if cookie := get(env.SESSION_COOKIE):
        logger.debug("from_env: session cookie (%s)", env.SESSION_COOKIE)
        return SessionCookie(cookie)
    if token := get(env.BEARER_TOKEN):
        logger.debug("from_env: bearer token (%s)", env.BEARER_TOKEN)
        return BearerToken(token)
    raise ValueError(
        f"no credentials in the environment: set {env.CLIENT_ID} and {env.CLIENT_SECRET}, "
        f"or {env.GUEST_TOKEN}, or {env.SESSION_COOKIE} (name=value), or {env.BEARER_TOKEN}"
    )


def _check_seconds(value: Any, name: str, also: str = "", *, finite: bool = True) -> None:
    """Refuse seconds that are not a positive finite number, None or (when `also` names it,
    as the message will) an `httpx.Timeout`, naming the option and the value: a negative,
    zero or NaN `timeout` was taken and failed only at the first request, deep in the
    socket ("Timeout value out of range"), or as a connection failure. A deadline may be
    infinite (`finite=False`): no socket waits for it."""
    if value is None or (also and isinstance(value, httpx.Timeout)):
        return
    spelled = "a positive number of seconds" + (f", {also}" if also else "")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be {spelled} or None, not {type(value).__name__}: {value!r}")
    if not value > 0 or (finite and value == math.inf):
        raise ValueError(f"{name} must be {spelled} or None, not {value!r}")


Transport = TypeVar("Transport", httpx.BaseTransport, httpx.AsyncBaseTransport)
"""`httpx.BaseTransport` for `Client`, `httpx.AsyncBaseTransport` for `AsyncClient`."""


class ClientBase(Generic[Transport]):
    """Configuration and everything but I/O; see `Client` for the arguments."""

    _http_class: ClassVar[Callable[..., httpx.Client | httpx.AsyncClient]]
    """The httpx client the subclass sends with, built from the options below (`Client`'s
    takes a `BaseTransport`, `AsyncClient`'s an `AsyncBaseTransport`: what `Transport`
    makes the constructor accept, which a class variable cannot say)."""

    def _hooks(self, max_bytes: int) -> dict[str, list[Callable[..., Any]]]:
        """The event hooks (sync or async) that bound every response (`_limits`)."""
        raise NotImplementedError

    def __init__(
        self,
        base_url: str | httpx.URL,
        *,
        auth: httpx.Auth,
        profiles_path: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = MAX_RETRIES,
        verify: Any = True,
        transport: Transport | None = None,
        headers: Mapping[str, str] | None = None,
        deadline: float | None = DEFAULT_DEADLINE,
        fetch_deadline: float | None = None,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
    ) -> None:
        url = base_url_of(base_url)
        if not isinstance(auth, httpx.Auth):
            raise TypeError(
                f"auth must be an httpx.Auth such as ClientCredentials or BearerToken, "
                f"not {type(auth).__name__}"
            )
        whole_number(max_retries, "max_retries", 0)
        _check_seconds(timeout, "timeout", "an httpx.Timeout")
        for name, seconds in (("deadline", deadline), ("fetch_deadline", fetch_deadline)):
            _check_seconds(seconds, name, finite=False)
        whole_number(max_response_bytes, "max_response_bytes", 1)
        install_log_filters()
        self.base_url = url.copy_with(query=None, fragment=None)
        self.auth = auth._bind(self.base_url) if isinstance(auth, _PlatformAuth) else auth
        self._header_values: tuple[str, ...] = tuple(
            value for name, value in (headers or {}).items() if name.lower() not in PLAIN_HEADERS
        )
        self.profiles_path = profiles_path or DEFAULT_PROFILES_PATH
        self.profiles_url = listing_url(self.base_url, self.profiles_path)
        self.max_retries = max_retries
        self.deadlines = Deadlines(deadline, fetch_deadline)
        self.max_response_bytes = max_response_bytes
        self._http: Any = self._http_class(
            auth=self.auth,
            timeout=timeout,
            verify=verify,
            follow_redirects=False,
            transport=transport,
            event_hooks=self._hooks(max_response_bytes),
            headers={
                "User-Agent": _user_agent(),
                "Accept": "application/json",
                "Accept-Encoding": ACCEPT_ENCODING,
                **(headers or {}),
            },
        )

    @classmethod
    def from_env(cls, *, environ: Mapping[str, str] | None = None, **options: Any) -> Self:
        """A client configured by `IPTOOLKIT_*` variables (or the `environ` mapping).

        `IPTOOLKIT_BASE_URL` is required; credentials as in `auth_from_env`;
        `IPTOOLKIT_PROFILES_PATH` optional. Keyword options override the environment.
        """
        variables = os.environ if environ is None else environ
        base_url = (variables.get(env.BASE_URL) or "").strip()
        if not base_url:
            raise ValueError(f"{env.BASE_URL} is not set: {env.ENV_VARS[env.BASE_URL]}")
        if "auth" not in options:
            options["auth"] = auth_from_env(variables)
        if not options.get("profiles_path"):
            options["profiles_path"] = (variables.get(env.PROFILES_PATH) or "").strip() or None
        return cls(base_url, **options)

    @property
    def source_url(self) -> str:
        """The listing's URL as recorded in an estate: credentials masked."""
        return redact_url(self.profiles_url)

    def _listing(self, max_pages: int | None) -> Flow:
        return listing_flow(
            self.profiles_url,
            max_retries=self.max_retries,
            max_pages=max_pages,
            deadlines=self.deadlines,
        )

    def _estate(self, fetched: Fetched, *, strict: bool, fetched_at: datetime) -> Estate:
        """The `Estate` of a finished fetch, recording where and when it was fetched."""
        from ..core.estate import Estate

        return Estate.from_raw(
            Listing(fetched.raw, fetched.issues),
            strict=strict,
            source_url=self.source_url,
            fetched_at=fetched_at,
        )

    @contextmanager
    def _masked(self) -> Iterator[None]:
        """An `ApiError` leaving the block has the session's own credentials masked (the
        secret, cookies or login token given, the token bought, the values of the headers
        given but `PLAIN_HEADERS`), as sent or percent-encoded: a server echoing a request
        quotes them where no name says they are secret (`Ocp-Apim-Subscription-Key`)."""
        try:
            yield
        except ApiError as exc:
            own: tuple[str, ...] = ()
            if isinstance(self.auth, _PlatformAuth):
                own = self.auth.secret_values()
            exc.mask([*own, *self._header_values])
            raise

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={redact_url(self.base_url)!r}, auth={self.auth!r})"


class Fetched:
    """The profiles of a fetch so far, and what the text gave some of them (a key given
    twice), by index in the whole listing, as a file's listing has them."""

    def __init__(self) -> None:
        self.raw: list[Any] = []
        self.issues: dict[int, list[Issue]] = {}

    def add(self, page: Page) -> None:
        offset = len(self.raw)
        for index, found in page.issues.items():
            here = f"$[{offset + index}]"
            self.issues[offset + index] = [
                Issue(here + issue.path.removeprefix(f"$[{index}]"), issue.message)
                for issue in found
            ]
        self.raw.extend(page.items)


def raw_items(page: Page) -> list[Any]:
    """A page's profiles as received, for a reader that takes them unchecked: a key given
    twice would be a value dropped unseen, so it raises (`ResponseParseError`, naming the
    page)."""
    if page.refused is not None:
        raise page.refused
    return page.items


def parse_page(page: Page) -> list[IntegrationProfile]:
    """Strictly parsed profiles of one page; a `ParseError` names the page."""
    if page.refused is not None:
        raise page.refused
    try:
        return parse_profiles(page.items)
    except ParseError as exc:
        raise ParseError(f"page {page.index + 1} ({page.url}): {exc}", issues=exc.issues) from None
