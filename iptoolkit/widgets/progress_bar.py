"""Progress bars in the page while the Explorer's kernel works, gone when it is done.

The kernel works in two places: in the cell that builds the Explorer (at 100,000 profiles:
reading, indexing, the graph, the map's layout) and later, answering its page (the width
the page reports, another selection). The page showed nothing meanwhile.

- `WidgetProgress`, placed in the topology view, is a `Progress`: `stage()` shows what the
  kernel does (an HTML `<progress>`, without a value while the step has no count),
  `advance()` moves it, `done()` hides it. It shows once the work (its first step on) has
  run `IPTOOLKIT_PROGRESS_DELAY` seconds (2 by default), as every bar of the toolkit: CSS
  counts the delay in the browser from when the bar is put in the page, and the steps
  after the first keep it there, so no thread is needed.
- `CellProgress` is the cell's: a `WidgetProgress` displayed in the cell's output once the
  work has run the delay (a timer: the cell is busy; never before, so a quick cell, and
  nbval's notebooks, keep exactly their outputs), and replaced by nothing when the work
  ends. Not tqdm's: its bar, closed, left an output whose widget was gone ("Error
  displaying widget: model not found" in the app), and left open it stays as a line.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as W

from ..support.progress import NO_PROGRESS, Progress, reported_to, reporting_to, watched
from ..support.progress import delay as progress_delay

__all__ = ["WidgetProgress", "CellProgress", "cell_progress", "progress_css"]


def progress_css(delay: float) -> str:
    """The bar's style: it becomes visible `delay` seconds after it is shown."""
    return f"""<style>
.ipt-progress {{animation: ipt-progress-late 0s linear {delay:g}s both;}}
@keyframes ipt-progress-late {{from {{visibility: hidden;}} to {{visibility: visible;}}}}
.ipt-progress .ipt-progress-line {{display: flex; align-items: center; gap: 10px;
  margin: 4px 0; color: var(--jp-ui-font-color1, #212121);}}
.ipt-progress progress {{width: 220px; height: 12px; flex: none;}}
</style>"""


class WidgetProgress(W.HTML):  # type: ignore[misc]  # ipywidgets has no types: W.HTML is Any
    """A `Progress` drawn in the page: what the kernel does, how far, hidden when done."""

    def __init__(self, *, delay: float | None = None) -> None:
        super().__init__(layout=W.Layout(display="none"))
        self.add_class("ipt-progress")
        self._css = progress_css(progress_delay() if delay is None else delay)
        self.name = ""
        self.total: int | None = None
        self.count = 0
        self._shown_step = -1

    @property
    def active(self) -> bool:
        """Whether a step is under way (the bar is in the page)."""
        return bool(self.layout.display != "none")

    def stage(self, name: str, total: int | None = None) -> None:
        """A new step begins: say it (`total`: how many units it has, when known)."""
        self.name, self.total, self.count = name, total, 0
        self._shown_step = -1
        self._draw()
        self.layout.display = None

    def advance(self, n: int = 1) -> None:
        """`n` more units are done (the page is told at each hundredth, not each unit)."""
        self.count += n
        if self.total:
            step = min(100, self.count * 100 // self.total)
            if step != self._shown_step:
                self._draw()

    def done(self) -> None:
        """The work is done: the bar goes (its last words stay in it, hidden). `close()`
        is the widget's own: its front-end views go away."""
        self.layout.display = "none"

    def _draw(self) -> None:
        if self.total:
            self._shown_step = min(100, self.count * 100 // self.total)
            bar = f"<progress max='{self.total}' value='{min(self.count, self.total)}'"
            said = f"{self.name}: {self.count:,} of {self.total:,}"
        else:
            bar, said = "<progress", f"{self.name}\u2026"
        self.value = (
            f"{self._css}<div class='ipt-progress-line' role='status'>"
            f"{bar} aria-label='{html.escape(self.name)}'></progress>"
            f"<span>{html.escape(said)}</span></div>"
        )


class CellProgress:
    """A `Progress` shown in the cell's output once its work has run `delay` seconds (a
    timer: the cell is busy), and gone, its output emptied, at `close()`."""

    def __init__(self, *, delay: float | None = None) -> None:
        self.delay = progress_delay() if delay is None else delay
        self.bar: WidgetProgress | None = None
        self._step: tuple[str, int | None] = ("", None)
        self._count = 0
        self._handle: Any = None
        self._lock = threading.Lock()
        self._closed = False
        self._timer: threading.Timer | None = None
        if self.delay > 0:
            self._timer = threading.Timer(self.delay, self._appear)
            self._timer.daemon = True
            self._timer.start()

    def stage(self, name: str, total: int | None = None) -> None:
        with self._lock:
            self._step, self._count = (name, total), 0
            if self.bar is not None:
                self.bar.stage(name, total)
        if self.delay <= 0:
            self._appear()

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self._count += n
            if self.bar is not None:
                self.bar.advance(n)

    def close(self) -> None:
        """The work is done: the bar's output becomes empty, its widget is closed."""
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._closed = True
            if self._handle is not None:
                self._handle.update({"text/plain": ""}, raw=True)
                self._handle = None
            if self.bar is not None:
                self.bar.close()
                self.bar = None

    def _appear(self) -> None:
        """Show the bar, at the step the work is in (from the timer's thread, or at once)."""
        with self._lock:
            if self.bar is not None or self._closed:
                return
            from IPython.display import display

            self.bar = WidgetProgress(delay=0)
            self.bar.stage(*self._step)
            self.bar.advance(self._count)
            self._handle = display(self.bar, display_id=True)


@contextmanager
def cell_progress(progress: Progress | bool | None) -> Iterator[Progress]:
    """The progress for work done in a cell: a `Progress` given, as it is (its owner ends
    it); None, the one `report_to` set, else a `CellProgress` in a Jupyter kernel (nowhere
    elsewhere); True, a `CellProgress` at once; False, none. It is the default for the
    block (`reporting_to`: a load inside reports to it); made here, it ends with it."""
    if progress is None:
        progress = reported_to()
    if progress is None or progress is True:
        made = (
            CellProgress(delay=0 if progress is True else None) if progress or watched() else None
        )
        if made is None:
            yield NO_PROGRESS
            return
        try:
            with reporting_to(made):
                yield made
        finally:
            made.close()
    elif progress is False:
        yield NO_PROGRESS
    else:  # the steps inside report to it too
        with reporting_to(progress):
            yield progress
