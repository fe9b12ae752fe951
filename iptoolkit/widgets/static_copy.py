"""`StaticCopy`: what a notebook keeps of the Explorer, shown where the widget cannot be.

Displayed below the live widget, which hides it while it renders (`HIDE_FALLBACK_CSS`);
on GitHub, nbviewer or in a notebook reopened without its kernel it shows instead: the
counts, the filter, the agent types and the selection's topology as a PNG. The PNG only
feeds this copy, so it is drawn after a pause (debounced again, after the live views)
and cached per filter; the copy is updated in place as the selection changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..support.debounce import Debouncer
from ..viewmodel.diagram import DiagramCache, overview_png, render_png
from ..viewmodel.explorer_html import fallback_html
from ..viewmodel.explorer_model import Selection

if TYPE_CHECKING:
    from IPython.display import DisplayHandle

    from ..topology.view import GroupedViews

__all__ = ["StaticCopy"]


class StaticCopy:
    """The static copy of the selection `selection()` returns; `diagram=False` draws no
    PNG (the counts and the filter still follow), `delay` is the pause before drawing."""

    def __init__(
        self,
        selection: Callable[[], Selection],
        *,
        diagram: bool = True,
        delay: float = 1.0,
        views: Callable[[Selection], GroupedViews] | None = None,
    ) -> None:
        self.png: bytes | None = None
        """The selection's diagram as PNG bytes (None before the first drawing)."""
        self.handle: DisplayHandle | None = None
        """The copy displayed, updated in place (None until displayed)."""
        self._selection = selection
        self._diagram = diagram
        self._views = views
        """The selection's graph and grouped views, shared with the live topology
        (`ExplorerModel.views`); None: built here from the selection."""
        self._pngs: DiagramCache[bytes] = DiagramCache()
        self._drawing = Debouncer(self._draw, delay)

    def display(self) -> None:
        """Display the copy (below the widget), to be updated in place from now on."""
        from IPython.display import HTML, display

        self.handle = display(HTML(self.html()), display_id=True)

    def html(self) -> str:
        selection = self._selection()
        return fallback_html(
            selection.counts_text(),
            selection.filter.describe(),
            selection.estate.summary()["agent_types"],
            self.png,
        )

    def follow(self) -> None:
        """The selection changed: its diagram from the cache, else drawn after the pause;
        without a diagram, the counts and the filter at once."""
        if not self._diagram:
            self._update()
            return
        cached = self._pngs.get(self._selection().filter.to_json())
        if cached is not None:
            self._set(cached)
        else:
            self._drawing.trigger()

    def draw(self) -> None:
        """Draw the diagram now (a drawing pending is cancelled)."""
        self._drawing.cancel()
        self._draw()

    def cancel(self) -> None:
        """Forget a drawing pending."""
        self._drawing.cancel()

    def _draw(self) -> None:
        if not self._diagram:
            return
        selection = self._selection()
        key = selection.filter.to_json()
        png = self._pngs.get(key)
        if png is None:
            if self._views is None:
                png = render_png(selection.estate)
            else:
                png = overview_png(self._views(selection))
            self._pngs.put(key, png)
        self._set(png)

    def _set(self, png: bytes) -> None:
        self.png = png
        self._update()

    def _update(self) -> None:
        if self.handle is not None:
            from IPython.display import HTML

            self.handle.update(HTML(self.html()))
