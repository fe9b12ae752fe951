"""The selection's table: paged and sorted in the kernel, one page drawn by an anywidget.

Why this design: a table that pages in the browser (itables/DataTables, as before) needs
the whole selection there, so every filter change sent all 10,000 rows (about 2.4 MB of
JSON, 0.14 s to build, more to parse and draw) before the view settled. Here the kernel
keeps the selection, sorts it with pandas (`table_pages.Pager`) and sends only the page on
view (25 rows by default, a few kB); paging and sorting are one small message each way.
The widget is a few lines of JavaScript in the package (anywidget: offline, no build
step), so header cells can be whole buttons (a click anywhere sorts, again turns the
direction; keyboard reachable), and it is styled with JupyterLab's own CSS variables (light
and dark themes alike).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from ..support.shown_tab import ShownTab
from ..viewmodel.table_pages import Pager

if TYPE_CHECKING:
    import pandas

__all__ = ["SelectionTable", "PagedTableWidget"]

PAGE_SIZE = 25
_STATIC = Path(__file__).with_name("static")


class PagedTableWidget(anywidget.AnyWidget):
    """One page of a table, sortable headers, page navigation; clicks go to the kernel."""

    _esm = _STATIC / "paged_table.js"
    _css = _STATIC / "paged_table.css"
    view = traitlets.Dict().tag(sync=True)
    """The page to draw (see `table_pages.Pager.payload`); the only data that travels."""


class SelectionTable:
    """Shows a profiles frame a page at a time; calls `on_pick(row)` when a row is clicked,
    `row` being that row's position in the frame given to `show` (whatever the sort)."""

    def __init__(self, on_pick: Callable[[int], None], *, page_size: int = PAGE_SIZE) -> None:
        self._on_pick = on_pick
        self.pager = Pager(page_size)
        self._answers = 0
        self._rows: Callable[[], pandas.DataFrame] | None = None
        self.widget = PagedTableWidget()
        self.widget.on_msg(self._message)
        self.widget.add_class("ipt-table")
        self.tab = ShownTab(self._draw, visible=True, stale=False)
        """Shown unless told otherwise (the Explorer: while its tab is, `set_visible`)."""

    @property
    def frame(self) -> pandas.DataFrame | None:
        """The frame last shown (None before the first `show`); one waiting for the tab
        to be shown is made now."""
        self._ready()
        return self.pager.frame if self.pager.version else None

    def show(self, frame: pandas.DataFrame | Callable[[], pandas.DataFrame]) -> None:
        """Replace the rows: back to page 1, the sort kept (row numbers change with it).
        `frame`: the rows, or what makes them once the table is shown (at 100,000
        profiles the Explorer's first frame takes a second, and its tab starts hidden)."""
        self._rows = frame if callable(frame) else lambda: frame
        self.tab.invalidate()

    def _draw(self) -> None:
        rows, self._rows = self._rows, None
        if rows is not None:
            self.pager.show(rows())
            self._send()

    def _ready(self) -> None:
        if self.tab.stale:
            self.tab.draw()

    # what the front end asks for; public so that code (and tests) can drive it the same way

    def sort_by(self, column: str) -> None:
        """Sort by `column` (again: the other direction), as a click on its header does."""
        self._ready()
        self.pager.sort_by(column)
        self._send()

    def go(self, page: int) -> None:
        """Show page `page` (0-based, clamped), as the navigation buttons do."""
        self._ready()
        self.pager.go(page)
        self._send()

    def resize(self, size: int) -> None:
        """Show `size` rows a page (10, 25, 50 or 100), as the page-size choice does."""
        self._ready()
        self.pager.resize(size)
        self._send()

    def pick(self, at: int, version: int | None = None) -> None:
        """The row at frame position `at` was clicked: highlight it and call `on_pick`.

        `version` is the frame the click was made on; a click on an older frame (the
        filter changed while the message travelled) is ignored.
        """
        self._ready()
        if version is not None and version != self.pager.version:
            return
        if not 0 <= at < len(self.pager.frame):
            raise IndexError(f"row {at} is outside the table's {len(self.pager.frame)} rows")
        self.pager.picked = at
        self._send()
        self._on_pick(at)

    def _message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        answered = self._answers
        try:
            action = content.get("action")
            if action == "sort":
                self.sort_by(str(content["column"]))
            elif action == "page":
                self.go(int(content["page"]))
            elif action == "size":
                self.resize(int(content["size"]))
            elif action == "pick":
                self.pick(int(content["at"]), content.get("version"))
            else:
                raise ValueError(f"unknown table action {action!r} in message {content!r}")
        finally:
            if self._answers == answered:  # ignored (a stale click): the page still waits
                self._send()

    def _send(self) -> None:
        """Send the page on view. Every answer is numbered, so that it is a change even when
        the page is the same (the same row clicked twice): the page waits for an answer."""
        self._answers += 1
        self.widget.view = {**self.pager.payload(), "answer": self._answers}
