"""The watch: fetch, add to the archive, diff against the snapshot before, tell people.

One round (`watch_once`) is what `iptoolkit watch --once` runs from cron, a systemd timer
or CI; `iptoolkit watch --every 1h` runs rounds until stopped. A fetch that fails is tried
again with backoff and then reported (exit code 2); nothing is stored. A fetch the platform
refused (`ApiError.final`: a wrong secret's 401, a 403, a 404) is reported at once: trying
again gets the same answer, and each login tried spends the platform's login limit. A
snapshot is stored before anyone is told, so a webhook that fails loses nothing: it is
retried, then logged. A snapshot the archive cannot take (another process holds the file
longer than the archive's `lock_timeout`, or the add fails) is saved beside it
(`pending_folder`) and added, and told, at the start of the next round. Exit codes follow
`iptoolkit diff`: 0 nothing at or above `fail_on`, 1 something, 2 the round could not be
made (no fetch, or a snapshot kept aside).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..change.estate_diff import SEVERITIES
from ..support.names import plural
from .notify import Delivery, message, post, run_command

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate
    from .store import Archive

__all__ = [
    "WatchRound",
    "watch_once",
    "keep_pending",
    "pending_folder",
    "fetch_with_retries",
    "parse_every",
    "EVERY_RANGE",
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
    """One round: add the snapshots kept aside by rounds that found the archive busy
    (`pending_folder`), fetch (with retries), add, diff against the snapshot before, and
    when a change at or above `fail_on` landed, POST to each `notify` URL and run
    `command`. A snapshot the archive cannot take now is kept aside, never dropped."""
    result = WatchRound()
    tell = _Teller(result, wanted_severities(fail_on), notify, command, echo)
    busy = not _add_pending(archive, tell)
    try:
        estate = fetch_with_retries(fetch, attempts=attempts, echo=echo)
    except FetchFailed as exc:
        result.error = str(exc)
        echo(f"error: {exc}; nothing stored")
        return result
    if not busy:
        try:
            tell.added(archive, estate)
            return result
        except Exception as exc:  # noqa: BLE001 - whatever stopped the add, keep the snapshot
            reason = _said(exc)
    else:
        reason = "the archive is in use (see above)"
    try:
        kept = keep_pending(archive, estate)
    except OSError as exc:
        result.error = f"{reason}; nor could the snapshot be kept aside ({_said(exc)})"
    else:
        result.error = f"{reason}; the snapshot is kept in {kept} and added next round"
    echo(f"error: {result.error}")
    return result


def pending_folder(archive: Archive) -> Path:
    """Where the watch keeps the snapshots the archive could not take yet (busy, or
    failing): `estate.duckdb.pending/` beside `estate.duckdb`."""
    return archive.path.with_name(archive.path.name + ".pending")


def keep_pending(archive: Archive, estate: Estate) -> Path:
    """Save `estate` in the pending folder (a snapshot file named by its fetch time, only
    its owner may read it: it holds what the archive holds) and return its path."""
    folder = pending_folder(archive)
    folder.mkdir(mode=0o700, exist_ok=True)
    moment = estate.info.fetched_at or datetime.now(UTC)
    moment = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    stem = f"{moment:%Y%m%dT%H%M%S%fZ}"  # by name is by time
    path = folder / f"{stem}.json.gz"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{number}.json.gz"
    partial = path.with_name(f".partial-{path.name}")  # a crash leaves no half a snapshot
    estate.save(partial)
    partial.chmod(0o600)
    partial.replace(path)
    return path


def _add_pending(archive: Archive, tell: _Teller) -> bool:
    """Add the snapshots kept aside, oldest first, each removed once stored; False when
    the archive was busy (the rest stay for the next round)."""
    from ..core.estate import load
    from .opening import ArchiveLockedError

    folder = pending_folder(archive)
    if not folder.is_dir():
        return True
    for path in sorted(p for p in folder.glob("*.json.gz") if not p.name.startswith(".")):
        try:
            tell.added(archive, load(path))
        except ArchiveLockedError as exc:
            tell.trouble(f"{exc}; {path} stays for the next round")
            return False
        except Exception as exc:  # noqa: BLE001 - one faulty file does not stop the others
            tell.trouble(f"{path}: not added ({_said(exc)}); it stays for the next round")
            continue
        path.unlink()
        tell.echo(f"{path}: kept by an earlier round, now stored")
    with contextlib.suppress(OSError):  # not empty: a file that failed stays
        folder.rmdir()
    return True


def _said(exc: BaseException) -> str:
    """An error as one line (as the command line's policy writes it)."""
    from ..support.redact import redact_text

    return redact_text(" ".join(str(exc).split()) or type(exc).__name__)


@dataclass
class _Teller:
    """What a round does with each snapshot it adds: add it, print its summary, and tell
    people of the changes at or above `wanted` (into `result`)."""

    result: WatchRound
    wanted: tuple[str, ...]
    notify: Sequence[str]
    command: str | None
    echo: Callable[[str], None]

    def trouble(self, text: str) -> None:
        self.result.error = text
        self.echo(f"error: {text}")

    def added(self, archive: Archive, estate: Estate) -> None:
        """Add `estate` (one lock for the add and its diff) and tell of what it changed."""
        result = self.result
        with archive:
            before = len(archive)
            snapshot_id = archive.add(estate)
            new = len(archive) > before
            diff = archive.last_diff(snapshot_id) if new else None
        with contextlib.suppress(OSError):  # busy again: the next add compacts
            archive.compact(if_mostly_free=True)
        result.snapshot_id, result.new, result.diff = snapshot_id, new, diff
        fetched = estate.info.fetched_at
        when = f" fetched {fetched:%Y-%m-%d %H:%M:%S %Z}" if fetched else ""
        if not new:
            self.echo(f"snapshot {snapshot_id}{when}: stored already, nothing new")
            return
        if diff is None:
            self.echo(
                f"snapshot {snapshot_id}{when}: {plural(len(estate), 'profile')}; the first, "
                "nothing to compare"
            )
            return
        self.echo(f"snapshot {snapshot_id}{when}: {diff.summary()}")
        if any(change.severity in self.wanted for change in diff.changes):
            result.alert = True
            self._tell(diff, snapshot_id, estate.info.source_url)

    def _tell(self, diff: EstateDiff, snapshot_id: int, source: str | None) -> None:
        """POST to each `notify` URL and run `command`, recording each delivery."""
        body = message(diff, snapshot_id=snapshot_id, source=source, wanted=self.wanted)
        for url in self.notify:
            delivery = post(url, body)
            self.result.deliveries.append(delivery)
            status = (
                "sent"
                if delivery.ok
                else f"FAILED after {delivery.attempts} attempts ({delivery.error})"
            )
            self.echo(f"notify {delivery.target}: {status}")
        if self.command:
            delivery = run_command(self.command, diff.to_markdown())
            self.result.deliveries.append(delivery)
            self.echo(
                f"exec {delivery.target}: "
                + ("done" if delivery.ok else f"FAILED ({delivery.error})")
            )


_EVERY = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)?\s*")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}


EVERY_RANGE = (1.0, 7 * 86400.0)
"""The seconds `--every` may be: under a second is a tight loop against the platform,
over a week is a job for cron (and a wait long enough overflows `time.sleep`)."""


def parse_every(text: str) -> float:
    """Seconds from `90s`, `15m`, `1h`, `1d` (a bare number is seconds), within
    `EVERY_RANGE`."""
    match = _EVERY.fullmatch(text)
    seconds = float(match.group(1)) * _UNIT[match.group(2)] if match else 0.0
    if not EVERY_RANGE[0] <= seconds <= EVERY_RANGE[1]:
        raise ValueError(
            f"--every {text!r}: write a duration from 1s to 7d, such as 90s, 15m, 1h or 1d"
        )
    return seconds
