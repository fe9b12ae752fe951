"""The watch: fetch, add to the archive, diff against the snapshot before, tell people.

One round (`watch_once`) is what `iptoolkit watch --once` runs from cron, a systemd timer
or CI; `iptoolkit watch --every 1h` runs rounds until stopped. A fetch that fails is tried
again with backoff and then reported (exit code 2); nothing is stored. A fetch the platform
refused (`ApiError.final`: a wrong secret's 401, a 403, a 404) is reported at once: trying
again gets the same answer, and each login tried spends the platform's login limit. A
snapshot is stored before anyone is told, so a webhook that fails loses nothing: it is
retried, then logged. Exit codes follow `iptoolkit diff`: 0 nothing at or above `fail_on`,
1 something, 2 the round could not be made.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..change.model import SEVERITIES
from .notify import Delivery, message, post, run_command

if TYPE_CHECKING:
    from ..change.model import EstateDiff
    from ..core.estate import Estate
    from .store import Archive

__all__ = [
    "WatchRound",
    "watch_once",
    "fetch_with_retries",
    "parse_every",
    "refused",
    "FetchFailed",
    "sleep",
]

FETCH_ATTEMPTS = 3
FETCH_FIRST_DELAY = 5.0
"""Seconds before the second fetch; doubled for each further one."""
FAIL_ON = ("breaking", "notable", "any")


def sleep(seconds: float) -> None:
    time.sleep(seconds)


class FetchFailed(RuntimeError):
    """Every try to fetch failed; the message names the last error."""


@dataclass
class WatchRound:
    """What one round did."""

    snapshot_id: int | None = None
    new: bool = False
    """False when the fetched snapshot was stored already (same content and time)."""
    diff: EstateDiff | None = None
    alert: bool = False
    deliveries: list[Delivery] = field(default_factory=list)
    error: str = ""

    @property
    def exit_code(self) -> int:
        return 2 if self.error else (1 if self.alert else 0)


def wanted_severities(fail_on: str) -> tuple[str, ...]:
    """The severities at or above `fail_on` (any: every one)."""
    if fail_on == "any":
        return SEVERITIES
    return SEVERITIES[: SEVERITIES.index(fail_on) + 1]


def fetch_with_retries(
    fetch: Callable[[], Estate],
    *,
    attempts: int = FETCH_ATTEMPTS,
    echo: Callable[[str], None] = print,
) -> Estate:
    """`fetch()`, tried `attempts` times with doubling waits; `FetchFailed` after, or at
    once when the platform refused it (`refused`)."""
    error = ""
    for attempt in range(1, attempts + 1):
        try:
            return fetch()
        except Exception as exc:  # noqa: BLE001 - any failure of a fetch is retried, then reported
            from ..support.redact import redact_text

            error = redact_text(" ".join(str(exc).split()) or type(exc).__name__)
            if refused(exc):
                echo(f"fetch failed: {error}; refused, so not tried again")
                raise FetchFailed(f"the platform refused the fetch: {error}") from None
            echo(f"fetch failed (attempt {attempt} of {attempts}): {error}")
            if attempt < attempts:
                sleep(FETCH_FIRST_DELAY * 2 ** (attempt - 1))
    raise FetchFailed(f"the fetch failed {attempts} times; the last error: {error}")


def refused(exc: BaseException) -> bool:
    """Whether a fetch failed because the platform refused it (`ApiError.final`: a wrong
    secret's 401, a 403, a 404), which no later try changes."""
    from ..client.errors import ApiError

    return isinstance(exc, ApiError) and exc.final


def watch_once(
    archive: Archive,
    fetch: Callable[[], Estate],
    *,
    fail_on: str = "breaking",
    notify: Sequence[str] = (),
    command: str | None = None,
    echo: Callable[[str], None] = print,
    attempts: int = FETCH_ATTEMPTS,
) -> WatchRound:
    """One round: fetch (with retries), add, diff against the snapshot before, and when a
    change at or above `fail_on` landed, POST to each `notify` URL and run `command`."""
    result = WatchRound()
    try:
        estate = fetch_with_retries(fetch, attempts=attempts, echo=echo)
    except FetchFailed as exc:
        result.error = str(exc)
        echo(f"error: {exc}; nothing stored")
        return result
    before = len(archive) if archive.path.exists() else 0
    result.snapshot_id = archive.add(estate)
    result.new = len(archive) > before
    result.diff = diff = archive.last_diff(result.snapshot_id) if result.new else None
    fetched = estate.info.fetched_at
    when = f" fetched {fetched:%Y-%m-%d %H:%M:%S %Z}" if fetched else ""
    if not result.new:
        echo(f"snapshot {result.snapshot_id}{when}: stored already, nothing new")
        return result
    if diff is None:
        echo(
            f"snapshot {result.snapshot_id}{when}: {len(estate):,} profiles; the first, "
            "nothing to compare"
        )
        return result
    echo(f"snapshot {result.snapshot_id}{when}: {diff.summary()}")
    wanted = wanted_severities(fail_on)
    result.alert = any(change.severity in wanted for change in diff.changes)
    if not result.alert:
        return result
    body = message(
        diff, snapshot_id=result.snapshot_id, source=estate.info.source_url, wanted=wanted
    )
    for url in notify:
        delivery = post(url, body)
        result.deliveries.append(delivery)
        status = (
            "sent"
            if delivery.ok
            else f"FAILED after {delivery.attempts} attempts ({delivery.error})"
        )
        echo(f"notify {delivery.target}: {status}")
    if command:
        delivery = run_command(command, diff.to_markdown())
        result.deliveries.append(delivery)
        echo(
            f"exec {delivery.target}: " + ("done" if delivery.ok else f"FAILED ({delivery.error})")
        )
    return result


_EVERY = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)?\s*")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}


def parse_every(text: str) -> float:
    """Seconds from `90s`, `15m`, `1h`, `1d` (a bare number is seconds)."""
    match = _EVERY.fullmatch(text)
    if match is None or float(match.group(1)) <= 0:
        raise ValueError(f"--every {text!r}: write a positive duration such as 90s, 15m, 1h or 1d")
    return float(match.group(1)) * _UNIT[match.group(2)]
