"""The selection's table: itables' `ITable` widget, with a plain HTML fallback.

Why itables: DataTables pages, sorts and searches in the browser, so 10,000 rows stay
responsive (one JSON payload per filter change, ~0.2 s to build at 10k rows); its widget
ships its JavaScript inside the Python package (anywidget), so it renders offline, on
Binder, in VS Code and in exported HTML; and row selection syncs back to Python
(`selected_rows`), which opens the detail pane. ipydatagrid has open slowness reports,
qgrid is unmaintained. Downsampling is off (`maxBytes=0`): an analyst paging through a
selection must see every row, and the table's columns are kept short for that reason.

Without anywidget (`pip install "itables[widget]"`) the first rows show as plain HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

if TYPE_CHECKING:
    import pandas

__all__ = ["SelectionTable", "has_itables_widget"]

PAGE_LENGTH = 10
_FALLBACK_ROWS = 25


def has_itables_widget() -> bool:
    """True when itables' widget (it needs anywidget) can be used."""
    try:
        import anywidget  # noqa: F401
        from itables.widget import ITable  # noqa: F401
    except ImportError:
        return False
    return True


class SelectionTable:
    """Shows a profiles frame; calls `on_pick(row)` when the analyst selects a row."""

    def __init__(self, on_pick: Callable[[int], None]) -> None:
        self._on_pick = on_pick
        self._quiet = False
        self.interactive = has_itables_widget()
        self.frame: pandas.DataFrame | None = None
        if self.interactive:
            from itables.widget import ITable

            self._table: Any = ITable(
                None,
                pageLength=PAGE_LENGTH,
                lengthMenu=[10, 25, 50, 100],
                select={"style": "single"},
                maxBytes=0,
                classes="display nowrap compact",
                style="width:100%;margin:0",
                showIndex=False,
            )
            self._table.observe(self._selected, "selected_rows")
            # the table's row scrolls sideways (CSS in explorer.py), not DataTables: its
            # `scrollX` splits header from body, misaligned when drawn inside a hidden tab
            self.widget: W.Widget = W.Box([self._table], layout=W.Layout(width="100%"))
            self.widget.add_class("ipt-table-box")
        else:
            self._table = W.HTML()
            self.widget = self._table
        self._table.add_class("ipt-table")

    def show(self, frame: pandas.DataFrame) -> None:
        """Replace the rows (selection cleared: row numbers change with the filter)."""
        self.frame = frame
        if self.interactive:
            self._quiet = True
            try:
                # options that shape the data are not remembered by `update`: pass them again
                self._table.update(frame, selected_rows=[], maxBytes=0, showIndex=False)
            finally:
                self._quiet = False
        else:
            self._table.value = _plain_html(frame)

    def _selected(self, change: dict[str, Any]) -> None:
        rows = change["new"] or []
        if not self._quiet and rows:
            self._on_pick(int(rows[0]))


def _plain_html(frame: pandas.DataFrame) -> str:
    head = frame.head(_FALLBACK_ROWS).to_html(index=False, na_rep="", border=0)
    more = len(frame) - _FALLBACK_ROWS
    note = (
        f"<p>… and {more:,} more rows. Install <code>itables[widget]</code> for a paged, "
        "sortable table.</p>"
        if more > 0
        else ""
    )
    return f"<div class='ipt-plain-table'>{head}{note}</div>"
