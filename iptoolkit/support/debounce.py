"""Run a callback once things have been quiet for a moment, on the kernel's event loop.

A slider dragged or a word typed sends a change per step; redrawing a diagram for each
would queue seconds of work. Inside a running kernel the call is deferred with
`loop.call_later` (same thread as every widget callback, so no locking); without a running
loop (scripts, tests, benchmarks) it runs at once, which keeps those deterministic.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["Debouncer"]


class Debouncer:
    """Calls `callback` `delay` seconds after the last `trigger()`; `flush()` runs it now."""

    def __init__(self, callback: Callable[[], None], delay: float = 0.25) -> None:
        self.callback = callback
        self.delay = delay
        self._handle: asyncio.TimerHandle | None = None

    def trigger(self) -> None:
        """Ask for a call; an earlier pending call is replaced."""
        self.cancel()
        loop = _running_loop()
        if loop is None or self.delay <= 0:
            self.callback()
            return
        self._handle = loop.call_later(self.delay, self._fire)

    @property
    def pending(self) -> bool:
        return self._handle is not None

    def flush(self) -> None:
        """Run a pending call now (used when the caller needs the result at once)."""
        if self._handle is not None:
            self.cancel()
            self.callback()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _fire(self) -> None:
        self._handle = None
        self.callback()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
