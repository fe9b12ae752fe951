"""The client's logic as a generator that does no I/O, so sync and async share it.

A flow yields commands: `Send` (send this GET by this deadline, send me the response or
throw the failure into me), `Sleep` (wait before a retry) and `Page` (hand this page to
the caller). A driver
(`Client._drive`, `AsyncClient._drive`) carries them out with blocking or async I/O; that
is all that differs between the two clients. `Steps` does the driver's bookkeeping (what
goes back into the flow, closing it), so a driver only does the I/O.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import httpx

from . import _limits, _retry
from ._urls import RequestInfo, redact_url
from .errors import ApiError, error_from_response, error_from_transport
from .paging import Page, Pager

__all__ = [
    "Send",
    "Sleep",
    "Command",
    "Flow",
    "Steps",
    "Deadlines",
    "request_flow",
    "listing_flow",
]


@dataclass(frozen=True)
class Send:
    """Send `method url`; the driver replies with the response or throws the failure.

    The whole exchange (token requests included) must end by `deadline` (monotonic
    seconds; None: no limit): the driver opens `_limits.deadline_scope` for it.
    """

    method: str
    url: httpx.URL
    deadline: float | None = None


@dataclass(frozen=True)
class Sleep:
    """Wait this many seconds before retrying."""

    seconds: float


Command = Send | Sleep | Page
Flow = Generator[Command, Any, None]


class Steps:
    """A flow's commands, one by one, for a driver; closes the flow when used as a context.

    After a `Send`, the driver sets `reply` to the response or `failure` to what sending
    raised; the next step sends the reply into the flow or throws the failure into it.

        with Steps(flow) as steps:
            for command in steps:
                ...
    """

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.reply: Any = None
        self.failure: BaseException | None = None

    def __iter__(self) -> Steps:
        return self

    def __next__(self) -> Command:
        reply, failure = self.reply, self.failure
        self.reply, self.failure = None, None
        if failure is not None:
            return self.flow.throw(failure)
        return self.flow.send(reply)

    def __enter__(self) -> Steps:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flow.close()


@dataclass(frozen=True)
class Deadlines:
    """Seconds one request (each attempt) and one whole fetch may take; None: no limit."""

    request: float | None = _limits.DEFAULT_DEADLINE
    fetch: float | None = None

    def start(self) -> float | None:
        """The monotonic time by which a fetch starting now must end."""
        return None if self.fetch is None else _limits.now() + self.fetch

    def for_request(self, fetch_ends: float | None, method: str, url: httpx.URL) -> float | None:
        """The deadline of an attempt starting now; raises once the fetch is out of time."""
        now = _limits.now()
        if fetch_ends is not None and now >= fetch_ends:
            raise _limits.deadline_error(RequestInfo(method, redact_url(url)), self.fetch)
        ends = None if self.request is None else now + self.request
        if fetch_ends is not None:
            ends = fetch_ends if ends is None else min(ends, fetch_ends)
        return ends


def request_flow(
    method: str,
    url: httpx.URL,
    *,
    max_retries: int,
    deadlines: Deadlines = Deadlines(),
    fetch_ends: float | None = None,
) -> Generator[Send | Sleep, Any, httpx.Response]:
    """Send once, and again while the retry policy allows; return a 2xx response or raise.

    The driver throws `httpx.TransportError`s and our `ApiError`s (from a token request in
    the auth flow, or a limit of `_limits`) into this generator at the `yield Send`. A
    retry that would start after the fetch's deadline is not made.
    """
    retries = 0
    while True:
        try:
            deadline = deadlines.for_request(fetch_ends, method, url)
            response: httpx.Response = yield Send(method, url, deadline)
        except httpx.TransportError as exc:
            error: ApiError = error_from_transport(exc)
            if _limits.passed(deadline):  # a shortened timeout, or a watchdog's cut
                error = _limits.deadline_error(error.request, None)
            error.__cause__ = exc
        except ApiError as exc:
            error = exc
        else:
            if response.is_success:
                return response
            error = error_from_response(response)
        delay = _retry.retry_delay(method, error, retries, max_retries)
        if delay is None:
            raise error
        if fetch_ends is not None and _limits.now() + delay >= fetch_ends:
            raise error
        retries += 1
        yield Sleep(delay)


def listing_flow(
    start_url: httpx.URL,
    *,
    max_retries: int,
    max_pages: int | None,
    deadlines: Deadlines = Deadlines(),
) -> Flow:
    """Fetch every page of the listing at `start_url`, yielding each as a `Page`."""
    pager = Pager(start_url, max_pages=max_pages)
    fetch_ends = deadlines.start()
    url: httpx.URL | None = start_url
    while url is not None:
        response = yield from request_flow(
            "GET", url, max_retries=max_retries, deadlines=deadlines, fetch_ends=fetch_ends
        )
        page = pager.read(response)
        yield page
        url = page.next_url
