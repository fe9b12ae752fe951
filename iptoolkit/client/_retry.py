"""When to retry, and how long to wait: every constant and decision in one place.

Safe requests (GET, and the token requests made while serving one) are retried on
connection failures, timeouts, 408, 429 and 5xx, with exponential back-off and jitter. A
`Retry-After` (seconds or an HTTP date) is honoured when it is at most `MAX_RETRY_AFTER`;
a longer one is not waited out silently: the error is raised at once and carries it. 400,
401, 403 and 404 are final (`ApiError.final`): the server answered, and asking again gets
the same answer. A token request refused (a wrong secret's 401) fails at once; a 401 on an
API request gets one token renewal in the auth flow, not here, and is then final too, so a
wrong secret costs one login, never a back-off.
Every decision is logged at DEBUG on the `iptoolkit.client` logger.

`sleep` and `async_sleep` are the only places that wait; tests replace them.
"""

from __future__ import annotations

import logging
import math
import random
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import anyio
import httpx

from .errors import ApiError, ApiTransportError, DeadlineExceededError

__all__ = [
    "MAX_RETRIES",
    "INITIAL_RETRY_DELAY",
    "MAX_RETRY_DELAY",
    "MAX_RETRY_AFTER",
    "JITTER",
    "RETRY_METHODS",
    "logger",
    "sleep",
    "async_sleep",
    "backoff_delay",
    "parse_retry_after",
    "retry_delay",
]

MAX_RETRIES = 2
"""Default number of retries after the first attempt."""
INITIAL_RETRY_DELAY = 0.5
"""Seconds before the first retry; doubled for each further one."""
MAX_RETRY_DELAY = 8.0
"""Ceiling of the exponential back-off, in seconds."""
MAX_RETRY_AFTER = 60.0
"""The longest `Retry-After` we wait out; beyond it the error is raised at once."""
JITTER = 0.25
"""Back-off delays are shortened by up to this fraction, at random, to spread clients."""
RETRY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that are safe to send again."""

_RETRY_TRANSPORT = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)

logger = logging.getLogger("iptoolkit.client")


def sleep(seconds: float) -> None:
    """Wait before a retry (sync)."""
    time.sleep(seconds)


async def async_sleep(seconds: float) -> None:
    """Wait before a retry (async; works under asyncio and trio)."""
    await anyio.sleep(seconds)


def backoff_delay(retries_done: int) -> float:
    """Exponential back-off with jitter for the retry after `retries_done` retries."""
    delay = min(INITIAL_RETRY_DELAY * 2.0**retries_done, MAX_RETRY_DELAY)
    return delay * (1 - JITTER * random.random())


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` header (delta-seconds or HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:  # float() also reads "nan" and "inf", which no sleep accepts: a malformed header
        return max(seconds, 0.0) if math.isfinite(seconds) else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)


def retry_delay(method: str, error: ApiError, retries_done: int, max_retries: int) -> float | None:
    """Seconds to wait before retrying after `error`, or None to raise it; logs why.

    The log names the request that failed, which is not `method`'s when a token request
    (a POST inside the auth flow) failed on the way to the request being retried."""
    where = str(error.request) if error.request else method
    what = _describe(error)
    if method.upper() not in RETRY_METHODS:
        logger.debug("%s: %s; not retrying a %s request", where, what, method)
        return None
    if not _retryable(error):
        logger.debug("%s: %s is final; not retrying", where, what)
        return None
    if retries_done >= max_retries:
        logger.debug("%s: %s; giving up after %d retries", where, what, retries_done)
        return None
    delay = backoff_delay(retries_done)
    wait = parse_retry_after(error.retry_after)
    if wait is not None:
        if wait > MAX_RETRY_AFTER:
            logger.debug(
                "%s: %s; Retry-After %.0f s exceeds the %.0f s cap; not retrying",
                where,
                what,
                wait,
                MAX_RETRY_AFTER,
            )
            return None
        delay = wait
    logger.debug(
        "%s: %s; retrying in %.2f s (retry %d of %d%s)",
        where,
        what,
        delay,
        retries_done + 1,
        max_retries,
        ", as Retry-After asks" if wait is not None else "",
    )
    return delay


def _retryable(error: ApiError) -> bool:
    if isinstance(error, DeadlineExceededError):
        return False
    if isinstance(error, ApiTransportError):
        return isinstance(error.__cause__, _RETRY_TRANSPORT)
    status = error.status_code
    return status is not None and (status in (408, 429) or status >= 500)


def _describe(error: ApiError) -> str:
    if error.status_code is not None:
        return str(error.status_code)
    cause = error.__cause__
    return type(cause).__name__ if cause is not None else type(error).__name__
