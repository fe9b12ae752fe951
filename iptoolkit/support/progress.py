"""Progress of long work: shown where someone watches, silent everywhere else.

A long function takes `progress: Progress | None` and reports coarse steps: `stage(name,
total)` when a step begins (the total when a loop that already exists knows it), then
`advance(n)` as that loop moves. It never decides whether a bar is shown: `progress_for`
does, once, for the command line (`--progress auto|always|never`) and for `ipt.load` and
`fetch_estate` (None, True, False), so every surface follows one rule.

Auto shows a bar only where someone watches (a Jupyter kernel, or stderr a terminal),
never when the `CI` variable is set, and only once the work has run `delay()` seconds
(`IPTOOLKIT_PROGRESS_DELAY`, default 2; counted from its first step, as a command of five
1-second steps is as long to wait for as one of a 5-second step): quick runs, pipes, logs
and tests stay silent.
A command line command that owns its bars makes them the default (`report_to`) for the
calls it makes (a fetch, a load of the archive), so `--progress never` is heard by all.
Bars are `tqdm.auto`'s (a widget in Jupyter), on stderr; a bar shown stays when its step
ends, as a line saying how long the step took.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, Protocol

from . import env

__all__ = [
    "MODES",
    "DEFAULT_DELAY",
    "Progress",
    "NoProgress",
    "NO_PROGRESS",
    "BarProgress",
    "delay",
    "watched",
    "progress_for",
    "progress_scope",
    "given",
    "report_to",
    "reporting_to",
    "reported_to",
]

Mode = Literal["auto", "always", "never"]
MODES: tuple[Mode, ...] = ("auto", "always", "never")

DEFAULT_DELAY = 2.0
"""Seconds a step runs before an auto bar appears: a bar for a quick step is noise."""

TICK = 0.5
"""Seconds between redraws of a shown bar whose step reports no count (its clock runs)."""


UNCOUNTED = "{desc}: {elapsed}"
"""How a step without a total shows: what it does and for how long (no count, no rate)."""


class Progress(Protocol):
    """What long work reports to: the step it is in and how far it went."""

    def stage(self, name: str, total: int | None = None) -> None:
        """A new step begins (`total`: how many units it has, when known)."""

    def advance(self, n: int = 1) -> None:
        """`n` more units of the current step are done."""


class NoProgress:
    """Reports go nowhere: the default of every function taking a `progress`."""

    def stage(self, name: str, total: int | None = None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


NO_PROGRESS = NoProgress()


class BarProgress:
    """A tqdm bar per step (what, how far, how long left), shown once `delay` seconds have
    passed since the first step (after `close`, the next step is a first one again).

    A step that counts nothing (one long call) is redrawn by a small thread every `TICK`
    seconds once shown, so its clock says the work is alive."""

    def __init__(self, *, delay: float = 0.0) -> None:
        self.delay = delay
        self._began: float | None = None
        self._bar: Any = None
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._ticker: threading.Thread | None = None

    def stage(self, name: str, total: int | None = None) -> None:
        from tqdm.auto import tqdm

        columns, rows = _size()
        now = _clock()
        self._began = now if self._began is None else self._began
        with self._lock:
            self._close_bar()
            self._bar = tqdm(
                desc=name,
                total=total,
                delay=max(0.0, self.delay - (now - self._began)),
                leave=True,
                file=sys.stderr,
                ncols=columns,
                nrows=rows,
                bar_format=None if total is not None else UNCOUNTED,
            )
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._ticker.start()

    def advance(self, n: int = 1) -> None:
        bar = self._bar
        if bar is not None:
            bar.update(n)

    def close(self) -> None:
        """End the current step's bar and the redrawing thread."""
        self._stopped.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None
        with self._lock:
            self._close_bar()
        self._stopped.clear()
        self._began = None

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _tick(self) -> None:
        while not self._stopped.wait(TICK):
            with self._lock:
                bar = self._bar
                if bar is None or bar._time() < bar.start_t + bar.delay:
                    continue
                bar.refresh()
                # tqdm ends on close only a bar it knows it drew (by its last print)
                bar.last_print_t = max(bar.last_print_t, bar.start_t + bar.delay)


def _clock() -> float:
    """Seconds on a clock that only goes forward: when the work began (tests set it)."""
    return time.monotonic()


def _size() -> tuple[int | None, int | None]:
    """Columns and rows for tqdm when stderr is a terminal that reports no size (0 x 0, as
    a fresh pseudo-terminal does): tqdm would draw nothing there. Else None: tqdm asks."""
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, ValueError, OSError):  # not a terminal (Jupyter, a file)
        return None, None
    return (None, None) if size.columns and size.lines else (80, 24)


def delay() -> float:
    """The auto bars' delay: `IPTOOLKIT_PROGRESS_DELAY` seconds (0: at once), else 2."""
    text = os.environ.get(env.PROGRESS_DELAY, "").strip()
    try:
        seconds = float(text)
    except ValueError:
        return DEFAULT_DELAY
    return seconds if seconds >= 0 else DEFAULT_DELAY


def watched() -> bool:
    """True in a Jupyter kernel or when stderr is a terminal; never when `CI` is set."""
    if os.environ.get("CI", "").strip():
        return False
    if "ipykernel" in sys.modules:
        try:
            from IPython import get_ipython

            if getattr(get_ipython(), "kernel", None) is not None:
                return True
        except ImportError:  # pragma: no cover - ipykernel brings IPython
            pass
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # no stderr, or a closed one
        return False


def progress_for(mode: str | bool | None) -> BarProgress | NoProgress:
    """The progress a mode asks for: `always` (True) bars at once, `never` (False) none,
    `auto` (None) bars after `delay()` where someone `watched()`."""
    if mode is True or mode == "always":
        return BarProgress(delay=0.0)
    if mode is False or mode == "never":
        return NO_PROGRESS
    if mode is None or mode == "auto":
        return BarProgress(delay=delay()) if watched() else NO_PROGRESS
    raise ValueError(f"progress must be one of {', '.join(MODES)}, not {mode!r}")


_DEFAULT: ContextVar[Progress | None] = ContextVar("iptoolkit_progress", default=None)


def report_to(progress: Progress | None) -> None:
    """Make `progress` what auto (None) means for the work that follows (None: auto again)."""
    _DEFAULT.set(progress)


def reported_to() -> Progress | None:
    """The progress `report_to` (or `reporting_to`) made the default now, if any."""
    return _DEFAULT.get()


@contextmanager
def reporting_to(progress: Progress | None) -> Iterator[None]:
    """`report_to` for a block: a step that calls a function which reports steps of its
    own (an archive's add loads a file) keeps its bar with `reporting_to(NO_PROGRESS)`."""
    token = _DEFAULT.set(progress)
    try:
        yield
    finally:
        _DEFAULT.reset(token)


@contextmanager
def progress_scope(progress: Progress | str | bool | None) -> Iterator[Progress]:
    """For a function whose callers may pass a mode: a `Progress` given is used as it is
    (its owner ends it); None, the one `report_to` set if any; a mode makes one
    (`progress_for`), ended with the work."""
    default = _DEFAULT.get() if progress is None else None
    if default is not None:
        yield default
    elif progress is None or isinstance(progress, str | bool):
        made = progress_for(progress)
        try:
            yield made
        finally:
            made.close()
    else:
        yield progress


def given(progress: Progress | None) -> Progress:
    """The progress to report to: the one given, else nowhere."""
    return NO_PROGRESS if progress is None else progress
