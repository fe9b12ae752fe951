"""`PagedTableWidget`: the anywidget that draws one page and reports clicks to the kernel.

It holds no data of its own: the kernel sets `view` (one page's payload from
`paging.Pager.payload`) and the front end sends back what the analyst asked for as small
messages (`{"action": "sort", "column": ...}`, `page`, `size`, `pick`). Its JavaScript and
CSS are files beside this module (`static/`), shipped in the wheel: no build step, no CDN.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

__all__ = ["PagedTableWidget"]

_STATIC = Path(__file__).with_name("static")


class PagedTableWidget(anywidget.AnyWidget):
    """One page of a table, sortable headers, page navigation; clicks go to the kernel."""

    _esm = _STATIC / "paged_table.js"
    _css = _STATIC / "paged_table.css"
    view = traitlets.Dict().tag(sync=True)
    """The page to draw (see `paging.Pager.payload`); the only data that travels."""
