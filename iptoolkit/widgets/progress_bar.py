"""`WidgetProgress`: a progress bar inside a live widget, gone when the work is done.

The Explorer's kernel works in two places: in the cell that builds it (the notebook's own
`tqdm` bar shows that, `support.progress`) and later, answering its front end: the width
the page reports, a group opened, another selection. At 100,000 profiles laying the map
out again takes seconds, and the page showed nothing meanwhile. This widget, placed in
the view, is a `Progress`: `stage()` shows what the kernel does (an HTML `<progress>`,
without a value while the step has no count), `advance()` moves it, `close()` hides it.
It shows only once a step has run `IPTOOLKIT_PROGRESS_DELAY` seconds (2 by default), as
every bar of the toolkit: CSS counts the delay in the browser, so no thread is needed.
"""

from __future__ import annotations

import html

import ipywidgets as W

from ..support.progress import delay as progress_delay

__all__ = ["WidgetProgress", "progress_css"]


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
        self.done = 0
        self._shown_step = -1

    @property
    def active(self) -> bool:
        """Whether a step is under way (the bar is in the page)."""
        return bool(self.layout.display != "none")

    def stage(self, name: str, total: int | None = None) -> None:
        """A new step begins: say it (`total`: how many units it has, when known)."""
        self.name, self.total, self.done = name, total, 0
        self._shown_step = -1
        self._draw()
        self.layout.display = None

    def advance(self, n: int = 1) -> None:
        """`n` more units are done (the page is told at each hundredth, not each unit)."""
        self.done += n
        if self.total:
            step = min(100, self.done * 100 // self.total)
            if step != self._shown_step:
                self._draw()

    def close(self) -> None:
        """The work is done: the bar goes (its last words stay in it, hidden)."""
        self.layout.display = "none"

    def _draw(self) -> None:
        if self.total:
            self._shown_step = min(100, self.done * 100 // self.total)
            bar = f"<progress max='{self.total}' value='{min(self.done, self.total)}'"
            said = f"{self.name}: {self.done:,} of {self.total:,}"
        else:
            bar, said = "<progress", f"{self.name}\u2026"
        self.value = (
            f"{self._css}<div class='ipt-progress-line' role='status'>"
            f"{bar} aria-label='{html.escape(self.name)}'></progress>"
            f"<span>{html.escape(said)}</span></div>"
        )
