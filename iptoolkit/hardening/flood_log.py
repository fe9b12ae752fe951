"""Floods logged once a minute with a count, never a line (or a traceback) per connection.

A server under a flood sees thousands of events a second: stalled connections closed,
malformed requests, failed accepts. A line for each buries the log (the app once wrote
3.2 million traceback lines in 40 s) and can itself take the server down: asyncio logs a
failed accept with its traceback, and a handler that needs a file to render one (the MCP
SDK's rich handler imports `rich.traceback` on first use) fails once descriptors run out,
and its error ends the event loop. `FloodLog` counts; `install_flood_filter` turns
uvicorn's and asyncio's per-event lines into counts before any handler sees them.
"""

from __future__ import annotations

import logging
import time

__all__ = ["FloodLog", "ACCEPT_FAILED", "install_flood_filter"]

ACCEPT_FAILED = "accepting a connection failed: out of open files or memory"
"""What a failed accept is logged as (a count follows), by asyncio's loop or the app's."""
_ASYNCIO_ACCEPT_FAILED = "socket.accept() out of system resource"
_UVICORN_MALFORMED = "Invalid HTTP request received."


class FloodLog:
    """Logs an event at most once per `interval` seconds, with how often it happened."""

    def __init__(self, logger: logging.Logger, interval: float = 60.0) -> None:
        self.interval = interval
        self._logger = logger
        self._counts: dict[str, int] = {}
        self._last: dict[str, float] = {}

    def note(self, what: str) -> None:
        """Count one event; log it (with the count since the last line) when the time has
        come. A line that cannot be written, out of descriptors (a handler that opens or
        imports on first use), is tried again at the next event: the count is kept, and
        the caller, an accept loop or a timer, goes on."""
        self._counts[what] = self._counts.get(what, 0) + 1
        now = time.monotonic()
        if now - self._last.get(what, -self.interval) < self.interval:
            return
        try:
            self._logger.warning(
                "%s (%d since the last such line; logged at most every %gs)",
                what,
                self._counts[what],
                self.interval,
            )
        except OSError:
            return
        self._counts[what] = 0
        self._last[what] = now


class _PerConnectionWarnings(logging.Filter):
    """Drop uvicorn's line per malformed request: the protocol counts them instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != _UVICORN_MALFORMED


class _AcceptFailures(logging.Filter):
    """asyncio logs a traceback for every failed accept (out of open files: many per
    second in a flood); count them into one line a minute instead."""

    def __init__(self, flood_log: FloodLog, hint: str) -> None:
        super().__init__()
        self.flood_log = flood_log
        self.hint = hint

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith(_ASYNCIO_ACCEPT_FAILED):
            return True
        self.flood_log.note(f"{ACCEPT_FAILED} ({self.hint})")
        return False


def install_flood_filter(flood_log: FloodLog, hint: str = "raise `ulimit -n`") -> None:
    """Keep uvicorn and asyncio from logging a line per malformed request or failed accept:
    a failed accept is counted into `flood_log` (with `hint`, what to do about it). Once a
    process: a second call keeps the first filters."""
    for name, kind, make in (
        ("uvicorn.error", _PerConnectionWarnings, _PerConnectionWarnings),
        ("asyncio", _AcceptFailures, lambda: _AcceptFailures(flood_log, hint)),
    ):
        log = logging.getLogger(name)
        if not any(isinstance(existing, kind) for existing in log.filters):
            log.addFilter(make())
