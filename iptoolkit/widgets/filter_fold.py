"""The Explorer's filter panel folded away where the page is too narrow for it and the map.

On a laptop (JupyterLab beside its file browser, a window of 1,000-1,280 px) the panel
beside the tabs left the topology too little width, so the tabs went below it and the map
started a screen down. The panel is now open by default only where the Explorer is at
least `OPEN_FROM_PX` wide: a CSS container query decides it in the browser, so the first
paint is already right (no panel that appears, then goes). A button in the header shows or
hides it whatever the width; the page's width, reported by its front end, tells the button
what the default shows, so that it says what a click will do.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W

from ..viewmodel.explorer_html import FILTERS_OPEN_FROM_PX
from .topology.canvas_width import CanvasWidth

__all__ = ["OPEN_FROM_PX", "FOLD_CSS", "FilterFold"]

OPEN_FROM_PX = FILTERS_OPEN_FROM_PX

FOLD_CSS = f"""
.ipt-explorer {{container: ipt-explorer / inline-size;}}
.ipt-explorer.ipt-filters-shut .ipt-filters {{display: none !important;}}
@container ipt-explorer (max-width: {OPEN_FROM_PX - 1}px) {{
  .ipt-explorer.ipt-filters-auto .ipt-filters {{display: none !important;}}
}}
.ipt-explorer .ipt-fold {{flex: none; margin: 4px 12px 0 0;}}
"""
"""The panel's states as classes of the Explorer's root (`FilterFold.classes`)."""

_STATES = ("ipt-filters-auto", "ipt-filters-open", "ipt-filters-shut")


class FilterFold:
    """The fold's state (`open`: None for the width's default, else what a click chose),
    its button and the page-width reporter; `apply` puts the state on the root widget."""

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self.open: bool | None = None
        self.button = W.Button(icon="filter", layout=W.Layout(width="auto"))
        self.button.add_class("ipt-fold")
        self.width = CanvasWidth()
        """The Explorer's width as its front end draws it (0 until it is shown)."""
        self._root: W.DOMWidget | None = None
        self._on_change = on_change
        self.button.on_click(lambda _: self.toggle())
        self.width.observe(lambda _: self._say(), "width")
        self._say()

    def shown(self) -> bool:
        """Whether the panel shows: what a click chose, else the width's default (open
        while the width is not known: a page with no front end has no narrow screen)."""
        if self.open is not None:
            return self.open
        return not self.width.width or self.width.width >= OPEN_FROM_PX

    def toggle(self) -> None:
        """Show the panel if it is hidden, hide it if it shows."""
        self.open = not self.shown()
        self.apply()
        if self._on_change is not None:
            self._on_change()

    def attach(self, root: W.DOMWidget) -> None:
        """The Explorer's root widget, whose classes carry the state."""
        self._root = root
        self.apply()

    def apply(self) -> None:
        state = "ipt-filters-auto" if self.open is None else _STATES[1 if self.open else 2]
        if self._root is not None:
            for name in _STATES:
                self._root.remove_class(name)
            self._root.add_class(state)
        self._say()

    def _say(self) -> None:
        shown = self.shown()
        self.button.description = "Hide filters" if shown else "Show filters"
        self.button.tooltip = (
            "Fold the filters away: the map takes their room"
            if shown
            else "Show the filters beside the map"
        )
