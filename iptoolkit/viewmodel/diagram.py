"""The static diagram: the selection's topology as PNG bytes, drawn once per filter (the
Explorer's static copy, and the interactive view's fallback).

PNG in an `Image` widget rather than a figure in an `Output`: swapping the image's bytes
replaces the picture in place (no clear-then-draw flicker, no figure left open for the
inline backend to show again), and the same bytes serve the static fallback. Figures are
closed as soon as they are rendered. Recent pictures are kept, so going back to an earlier
filter costs nothing.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from ..change.estate_diff import EstateDiff
    from ..topology.comparestatus import Comparison
    from ..topology.view import EstateOrGraph, GroupedViews

__all__ = [
    "DIAGRAM_DPI",
    "render_png",
    "diff_png",
    "comparison_png",
    "overview_png",
    "DiagramCache",
]

T = TypeVar("T")

DIAGRAM_DPI = 80
"""Sharp when shrunk to the pane's width, legible at actual size (figures are ~15 in wide)."""


def render_png(
    estate_or_graph: EstateOrGraph, *, dpi: float = DIAGRAM_DPI, **options: Any
) -> bytes:
    """The topology of an estate (or graph) as PNG bytes, `options` as `plot_topology`
    takes them; the figure is closed before returning."""
    from ..plot import plot_topology

    return _png_bytes(plot_topology(estate_or_graph, **options), dpi)


def diff_png(diff: EstateDiff, *, dpi: float = DIAGRAM_DPI) -> bytes:
    """`plot_diff(diff)` as PNG bytes (a diff's view where no widget renders)."""
    from ..plot.diff_diagram import plot_diff

    return _png_bytes(plot_diff(diff), dpi)


def comparison_png(comparison: Comparison, *, dpi: float = DIAGRAM_DPI) -> bytes:
    """`plot_comparison(comparison)` as PNG bytes (a comparison's view where no widget
    renders)."""
    from ..plot.compare_diagram import plot_comparison

    return _png_bytes(plot_comparison(comparison), dpi)


def overview_png(views: GroupedViews, *, dpi: float = DIAGRAM_DPI) -> bytes:
    """`render_png(views.graph)`, the picture of a graph with no options, its grouped view
    taken from `views` (made once, shared with the live overview: at 100,000 profiles a
    grouped view takes seconds); drawn by `plot_topology`'s own drawing path."""
    from ..plot.backend import literal_text
    from ..plot.topology import draw_view, grouping

    graph = views.graph
    key = grouping(graph, None)
    if key is None:  # small enough to draw node by node: nothing to share
        return render_png(graph, dpi=dpi)
    draw = literal_text(draw_view)  # as plot_topology draws
    figure = draw(views.view(key), graph, key, focused=False, ax=None, labels="auto", title=None)
    return _png_bytes(figure, dpi)


def _png_bytes(figure: Any, dpi: float) -> bytes:
    """`figure` as PNG bytes, closed after."""
    from ..plot.backend import pyplot

    try:
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=dpi)
        return buffer.getvalue()
    finally:
        pyplot().close(figure)


class DiagramCache(Generic[T]):
    """The last few pictures (PNG bytes, or the interactive view's data) by filter (its
    JSON), newest last."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._items: OrderedDict[str, T] = OrderedDict()

    def get(self, key: str) -> T | None:
        png = self._items.get(key)
        if png is not None:
            self._items.move_to_end(key)
        return png

    def put(self, key: str, png: T) -> None:
        self._items[key] = png
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __contains__(self, key: str) -> bool:
        return key in self._items
