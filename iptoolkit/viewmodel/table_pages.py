"""The table's pages, computed in the kernel: sort order, page bounds, one page's payload.

No widget here: `Pager` holds a frame, a sort and a page, and turns them into the small
JSON payload the front end draws (one page of text cells), so the paging and sorting rules
are tested and benchmarked without a browser. The whole selection stays in the kernel;
sorting it is one pandas `sort_values` (a few milliseconds at 10,000 rows), and every page
after that is a slice of the sorted positions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy
    import pandas

__all__ = ["CELL_CHARS", "PAGE_SIZES", "Pager", "Span", "cell_text", "page_span", "sort_order"]

PAGE_SIZES = (10, 25, 50, 100)
CELL_CHARS = 60
"""A cell longer than this is cut (with "…") and carries its whole text as a title."""


@dataclass(frozen=True)
class Span:
    """Which rows one page shows: `start` (inclusive) to `stop` (exclusive), 0-based."""

    page: int
    """The page shown (0-based), clamped to the pages there are."""
    pages: int
    """How many pages (1 for an empty frame: an empty page is still a page)."""
    start: int
    stop: int
    total: int

    def label(self) -> str:
        """ "rows 26–50 of 9,214" (1-based, as people count), "row 51 of 51" or "no rows"."""
        if self.total == 0:
            return "no rows"
        if self.stop - self.start == 1:
            return f"row {self.stop:,} of {self.total:,}"
        return f"rows {self.start + 1:,}–{self.stop:,} of {self.total:,}"


def page_span(total: int, size: int, page: int) -> Span:
    """The rows of page `page` (0-based; out of range is clamped) of `total` rows."""
    if size < 1:
        raise ValueError(f"page size must be at least 1, got {size}")
    pages = max(1, math.ceil(total / size))
    page = min(max(page, 0), pages - 1)
    start = page * size
    return Span(page, pages, start, min(start + size, total), total)


def sort_order(frame: pandas.DataFrame, column: str | None, ascending: bool) -> numpy.ndarray:
    """Positions of `frame`'s rows sorted by `column` (None: the frame's own order).

    Text sorts without regard to case; missing values (None, NaN, NA, NaT) come last in
    both directions; ties keep the frame's order (a stable sort), so sorting twice by two
    columns behaves as people expect. A column of mixed types sorts by its text.
    """
    import numpy as np
    import pandas as pd

    if column is None:
        return np.arange(len(frame))
    if column not in frame.columns:
        raise KeyError(f"no column {column!r} to sort by; columns: {list(frame.columns)}")
    values = frame[column].reset_index(drop=True)
    if pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values):
        values = values.map(_sort_text, na_action="ignore")
    try:
        ordered = values.sort_values(ascending=ascending, na_position="last", kind="stable")
    except TypeError:  # mixed types (numbers and text, say): compare as text
        as_text = values.map(lambda value: str(value).casefold(), na_action="ignore")
        ordered = as_text.sort_values(ascending=ascending, na_position="last", kind="stable")
    return ordered.index.to_numpy()


def _sort_text(value: Any) -> Any:
    return value.casefold() if isinstance(value, str) else value


def cell_text(value: Any) -> str:
    """A cell as the table shows it: missing as "", dates as ISO text, whole floats whole."""
    import pandas as pd

    if value is None or (not isinstance(value, (list, tuple, dict)) and pd.isna(value)):
        return ""
    if isinstance(value, pd.Timestamp):
        if value == value.normalize():
            return value.strftime("%Y-%m-%d")
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return ", ".join(cell_text(item) for item in value)
    return str(value)


class Pager:
    """A frame seen one page at a time, sorted by one column; the source of every payload.

    `version` grows with every new frame, so a row click that the front end sent about an
    earlier frame (the filter changed meanwhile) is recognised and ignored.
    """

    def __init__(self, size: int = 25) -> None:
        import pandas as pd

        self.frame: pandas.DataFrame = pd.DataFrame()
        self.size = _checked_size(size)
        self.page = 0
        self.column: str | None = None
        self.ascending = True
        self.picked: int | None = None
        """The frame position of the row last clicked, highlighted while it is on view."""
        self.version = 0
        self._order = sort_order(self.frame, None, True)

    def show(self, frame: pandas.DataFrame) -> None:
        """A new frame: back to page 1, the sort kept (when the column still exists)."""
        self.frame = frame
        if self.column not in frame.columns:
            self.column, self.ascending = None, True
        self.page = 0
        self.picked = None
        self.version += 1
        self._order = sort_order(frame, self.column, self.ascending)

    def sort_by(self, column: str) -> None:
        """Sort by `column`; the same column again turns the direction. Back to page 1."""
        if column not in self.frame.columns:
            raise KeyError(f"no column {column!r} to sort by; columns: {list(self.frame.columns)}")
        self.ascending = not self.ascending if column == self.column else True
        self.column = column
        self.page = 0
        self._order = sort_order(self.frame, column, self.ascending)

    def go(self, page: int) -> None:
        """Show page `page` (0-based); beyond either end shows the first or last page."""
        self.page = page_span(len(self.frame), self.size, page).page

    def resize(self, size: int) -> None:
        """Show `size` rows a page, keeping the first row shown now on view."""
        first = self.page * self.size
        self.size = _checked_size(size)
        self.page = first // self.size

    def span(self) -> Span:
        return page_span(len(self.frame), self.size, self.page)

    def payload(self) -> dict[str, Any]:
        """What the front end draws: the columns, this page's rows as text, where we are.

        Each row carries its frame position (`at`), which a click sends back; a cut cell
        carries its whole text in `titles` (column index -> text).
        """
        span = self.span()
        positions = self._order[span.start : span.stop]
        columns = [str(name) for name in self.frame.columns]
        rows = []
        for at, values in zip(
            positions.tolist(),
            self.frame.iloc[positions].itertuples(index=False, name=None),
            strict=True,
        ):
            cells, titles = [], {}
            for index, value in enumerate(values):
                text = cell_text(value)
                if len(text) > CELL_CHARS:
                    titles[str(index)] = text
                    text = text[: CELL_CHARS - 1] + "…"
                cells.append(text)
            row: dict[str, Any] = {"at": at, "cells": cells}
            if titles:
                row["titles"] = titles
            rows.append(row)
        return {
            "version": self.version,
            "columns": columns,
            "rows": rows,
            "sort": self.column,
            "ascending": self.ascending,
            "page": span.page,
            "pages": span.pages,
            "size": self.size,
            "sizes": list(PAGE_SIZES),
            "label": span.label(),
            "picked": self.picked,
        }


def _checked_size(size: int) -> int:
    if size not in PAGE_SIZES:
        raise ValueError(f"page size must be one of {list(PAGE_SIZES)}, got {size}")
    return size
