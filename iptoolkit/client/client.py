"""`Client` and `AsyncClient`: list every profile the caller may view, page by page.

Both run the same sans-IO flow (`_core`): paging, retries and error mapping are decided
there; the classes here only send requests and sleep, blocking or with `await`.

    with Client("https://platform.example.com", auth=ClientCredentials(cid, secret)) as c:
        estate = c.fetch_estate()
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import anyio
import httpx

from ..models import IntegrationProfile
from ..support.progress import Progress, progress_scope
from . import _limits, _retry
from ._base import DEFAULT_PROFILES_PATH, ClientBase, Fetched, parse_page, raw_items
from ._core import Flow, Send, Sleep, Steps
from ._urls import RequestInfo, base_url_of, listing_url, redact_url
from ._watchdog import Watchdog
from .errors import ApiError
from .paging import Page

if TYPE_CHECKING:
    from ..core.estate import Estate

__all__ = ["Client", "AsyncClient", "check_endpoint"]


def check_endpoint(base_url: str | httpx.URL, profiles_path: str | None = None) -> None:
    """Refuse, as `Client` would, a malformed base URL or a profile listing on another
    origin than the base URL's (it would receive the bearer token): a ValueError that
    names it, before anything is asked of the user or sent."""
    listing_url(base_url_of(base_url), profiles_path or DEFAULT_PROFILES_PATH)


_SEND_FAILURES = (httpx.TransportError, ApiError)
"""What sending may raise that the flow handles: transport failures, token errors."""


class Client(ClientBase[httpx.BaseTransport]):
    """A blocking client of the integration platform API.

    `base_url` may carry a path prefix (`https://host/platform`); `profiles_path` (default
    `/api/preview/profiles`), token and login paths are resolved under it. `auth` is one of
    `ClientCredentials`, `SessionCookie`, `GuestLogin`, `BearerToken` (or any httpx.Auth).
    `max_retries` applies to safe requests on connection errors, timeouts, 408, 429, 5xx.
    `timeout` bounds each wait (connect, one read); `deadline` (default 300 s) bounds one
    request as a whole, however the server trickles; `fetch_deadline` (default none) one
    whole fetch, all pages and retries. `max_response_bytes` (default 1 GiB) caps one
    response's decoded body, checked as it streams. `transport` replaces the network
    (e.g. `httpx.MockTransport` in tests).

        Client(base_url, *, auth, profiles_path=None, timeout=30.0, max_retries=2,
               verify=True, transport=None, headers=None, deadline=300.0,
               fetch_deadline=None, max_response_bytes=2**30)
    """

    _http_class = httpx.Client
    _http: httpx.Client  # what ClientBase made of _http_class

    def _hooks(self, max_bytes: int) -> dict[str, list[Any]]:
        self._watchdog = Watchdog()
        return _limits.sync_hooks(max_bytes, on_request=self._watchdog.watch)

    def iter_profiles(self, *, max_pages: int | None = None) -> Iterator[list[IntegrationProfile]]:
        """Yield the listing page by page, each page a list of parsed profiles (strict).

        `max_pages` (default `paging.MAX_PAGES`) stops a listing that pages without end.
        """
        for page in self._pages(max_pages):
            yield parse_page(page)

    def list_profiles(self, *, max_pages: int | None = None) -> list[IntegrationProfile]:
        """Every profile the caller may view, all pages, parsed strictly."""
        return [profile for page in self.iter_profiles(max_pages=max_pages) for profile in page]

    def fetch_raw(self, *, max_pages: int | None = None) -> list[Any]:
        """Every profile exactly as received (JSON objects), all pages, unvalidated."""
        return [item for page in self._pages(max_pages) for item in raw_items(page)]

    def fetch_estate(
        self,
        *,
        progress: Progress | bool | None = None,
        strict: bool = False,
        max_pages: int | None = None,
    ) -> Estate:
        """An `Estate` of every profile; a faulty profile becomes one of `estate.problems`.

        `progress`: None shows a bar in Jupyter or a terminal once the fetch has run 2 s
        (`support/progress.py`); True always; False never; or a `Progress` to report to.
        `strict=True` raises `ParseError` on a faulty profile instead.
        """
        fetched_at = datetime.now(UTC)
        fetched = Fetched()
        with progress_scope(progress) as shown:
            for page in self._pages(max_pages):
                _counted(shown, page, fetched)
            shown.stage(INDEXING)  # 3 s at 100k: not a bar left at 100 % meanwhile
            return self._estate(fetched, strict=strict, fetched_at=fetched_at)

    def _pages(self, max_pages: int | None) -> Iterator[Page]:
        return self._drive(self._listing(max_pages))

    def _drive(self, flow: Flow) -> Iterator[Page]:
        """Carry out a flow's commands with blocking I/O, yielding its pages; an error
        leaves with the session's credentials masked (`_masked`)."""
        with self._masked(), Steps(flow) as steps:
            for command in steps:
                if isinstance(command, Send):
                    try:
                        with (
                            _limits.deadline_scope(command.deadline),
                            self._watchdog.armed(command.deadline),
                        ):
                            steps.reply = self._http.request(command.method, command.url)
                    except _SEND_FAILURES as exc:
                        steps.failure = exc
                elif isinstance(command, Sleep):
                    _retry.sleep(command.seconds)
                else:
                    yield command

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncClient(ClientBase[httpx.AsyncBaseTransport]):
    """The same client for `async` code: `await client.list_profiles()` and so on.

    Takes the same arguments as `Client`; `transport` is an `httpx.AsyncBaseTransport`.
    """

    _http_class = httpx.AsyncClient
    _http: httpx.AsyncClient  # what ClientBase made of _http_class

    def _hooks(self, max_bytes: int) -> dict[str, list[Any]]:
        return _limits.async_hooks(max_bytes)

    async def iter_profiles(
        self, *, max_pages: int | None = None
    ) -> AsyncIterator[list[IntegrationProfile]]:
        """Yield the listing page by page, each page a list of parsed profiles (strict)."""
        async for page in self._pages(max_pages):
            yield parse_page(page)

    async def list_profiles(self, *, max_pages: int | None = None) -> list[IntegrationProfile]:
        """Every profile the caller may view, all pages, parsed strictly."""
        return [
            profile async for page in self.iter_profiles(max_pages=max_pages) for profile in page
        ]

    async def fetch_raw(self, *, max_pages: int | None = None) -> list[Any]:
        """Every profile exactly as received (JSON objects), all pages, unvalidated."""
        return [item async for page in self._pages(max_pages) for item in raw_items(page)]

    async def fetch_estate(
        self,
        *,
        progress: Progress | bool | None = None,
        strict: bool = False,
        max_pages: int | None = None,
    ) -> Estate:
        """An `Estate` of every profile; see `Client.fetch_estate`."""
        fetched_at = datetime.now(UTC)
        fetched = Fetched()
        with progress_scope(progress) as shown:
            async for page in self._pages(max_pages):
                _counted(shown, page, fetched)
            shown.stage(INDEXING)
            return self._estate(fetched, strict=strict, fetched_at=fetched_at)

    def _pages(self, max_pages: int | None) -> AsyncIterator[Page]:
        return self._drive(self._listing(max_pages))

    async def _drive(self, flow: Flow) -> AsyncIterator[Page]:
        """Carry out a flow's commands with async I/O, yielding its pages; an error leaves
        with the session's credentials masked (`_masked`)."""
        with self._masked(), Steps(flow) as steps:
            for command in steps:
                if isinstance(command, Send):
                    try:
                        steps.reply = await self._send(command)
                    except _SEND_FAILURES as exc:
                        steps.failure = exc
                elif isinstance(command, Sleep):
                    await _retry.async_sleep(command.seconds)
                else:
                    yield command

    async def _send(self, command: Send) -> httpx.Response:
        """Send, cancelled at the deadline wherever it is (even amid trickled headers)."""
        left = _limits.time_left(command.deadline)
        with _limits.deadline_scope(command.deadline):
            try:
                with anyio.fail_after(left):
                    return await self._http.request(command.method, command.url)
            except TimeoutError:
                request = RequestInfo(command.method, redact_url(command.url))
                raise _limits.deadline_error(request, None) from None

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


INDEXING = "Indexing the profiles fetched"
"""The step after the last page: the estate built of what was fetched."""


def _counted(progress: Progress, page: Page, fetched: Fetched) -> None:
    """Add a page to what was fetched and report it: the first page says the total."""
    if not fetched.raw:
        progress.stage("Fetching profiles", total=page.total)
    fetched.add(page)
    progress.advance(len(page.items))
