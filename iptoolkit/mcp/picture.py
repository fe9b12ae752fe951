"""The `draw_topology` tool's picture: a selection's diagram as PNG bytes an assistant shows.

Drawn by `plot_topology` like every other diagram (grouped with counts when the selection
is large), at a resolution that keeps the longer side near `MAX_PIXELS`: big enough to read,
small enough to send. matplotlib's figures are not safe to draw from two threads at once,
and the SDK runs tools on worker threads, so drawing takes a lock.
"""

from __future__ import annotations

import io
import struct
import threading
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..topology.view import EstateOrGraph

__all__ = ["MAX_PIXELS", "render_png", "png_size"]

MAX_PIXELS = 2000
_DPI = 90
_LOCK = threading.Lock()

GroupBy = Literal["group", "agent_type", "partner", "none"] | None


def render_png(
    estate: EstateOrGraph, *, highlight: str | None = None, group_by: GroupBy = None
) -> tuple[bytes, tuple[int, int]]:
    """The diagram of `estate` (or its graph) as PNG bytes and its size in pixels (width, height).

    `group_by`: None groups only large selections (as `plot_topology`), "none" never."""
    from ..plot import plot_topology
    from ..plot.backend import pyplot

    grouping = False if group_by == "none" else group_by
    with _LOCK:
        figure = plot_topology(estate, highlight=highlight, group_by=grouping)
        try:
            width, height = figure.get_size_inches()
            dpi = min(_DPI, MAX_PIXELS / max(width, height))
            buffer = io.BytesIO()
            figure.savefig(buffer, format="png", dpi=dpi)
            png = buffer.getvalue()
            return png, png_size(png)
        finally:
            pyplot().close(figure)


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height a PNG states (its IHDR chunk, always first): the size the
    picture has, where inches times dpi, rounded, may be a pixel off the one Agg wrote."""
    width, height = struct.unpack(">II", png[16:24])
    return width, height
