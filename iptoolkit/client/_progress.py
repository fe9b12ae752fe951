"""A progress bar for fetches that take a while, and silence for those that do not.

`progress=None` (auto) shows a bar once a fetch spans several pages or has run longer
than `PROGRESS_DELAY`, and only where someone watches: a Jupyter kernel or a terminal.
`True` always shows one, `False` never. `tqdm.auto` picks the notebook widget in Jupyter.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from .paging import Page

__all__ = ["PROGRESS_DELAY", "FetchProgress"]

PROGRESS_DELAY = 1.0
"""Seconds after which an auto progress bar appears even for a single page."""


class FetchProgress:
    """Counts profiles as pages arrive; opens a tqdm bar lazily, when it is worth it."""

    def __init__(self, mode: bool | None) -> None:
        self.mode = mode
        self.count = 0
        self._started = time.monotonic()
        self._bar: Any = None

    def update(self, page: Page) -> None:
        self.count += len(page.items)
        if self._bar is not None:
            self._bar.update(len(page.items))
        elif self._wanted(page):
            from tqdm.auto import tqdm

            self._bar = tqdm(
                total=page.total,
                initial=self.count,
                desc="Fetching profiles",
                unit=" profiles",
                leave=True,
            )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> FetchProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _wanted(self, page: Page) -> bool:
        if self.mode is not None:
            return self.mode
        slow = time.monotonic() - self._started > PROGRESS_DELAY
        return (page.next_url is not None or slow) and _watched()


def _watched() -> bool:
    """True in a Jupyter kernel or when stderr is a terminal (not in CI, not in pytest)."""
    if "ipykernel" in sys.modules:
        try:
            from IPython import get_ipython

            if getattr(get_ipython(), "kernel", None) is not None:
                return True
        except ImportError:  # pragma: no cover
            pass
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
