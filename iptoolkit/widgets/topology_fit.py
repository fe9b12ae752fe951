"""Where a view's columns, labels and camera go on a canvas of known size: the spacing rules
that keep the interactive view as legible as `plot_topology`'s diagram.

sigma.js draws labels at a fixed size in pixels while it scales positions to the canvas, so
spacing chosen in "rows" (as the static diagrams do) gives labels that run over the next
column, or over the fan of edges leaving their own node. Here positions are chosen in
pixels of the canvas the view starts in, and the camera (`camera`) is set so that one unit
is one pixel there:

- every column is as far from the next as its longest label needs (`CHAR_PX` a character)
  plus `EDGE_PX` for the edges; when that is wider than the canvas, labels are cut
  (`label_budget`, the longest first) rather than the canvas zoomed out;
- edges leave a node from a *port* just after its label (`port_x`), so no label is drawn
  over its own fan of edges;
- rows are `MIN_ROW_PX` to `MAX_ROW_PX` apart: a view whose tallest column needs more rows
  than the canvas holds at `MIN_ROW_PX` does not `fit`: it is drilled into (`drill.py`),
  or, drawn node by node all the same, laid out `TALL_ROW_PX` a row and started at its top.

The camera arithmetic follows sigma 2's `matrixFromCamera`: at camera ratio r, a graph
whose node extent is `gw` x `gh` shows `S * c / (r * max(gw, gh))` pixels per unit, where
`S` is the canvas's smaller side less sigma's 30 px padding and `c` its correction ratio.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "CHAR_PX",
    "EDGE_PX",
    "MIN_ROW_PX",
    "MAX_ROW_PX",
    "Canvas",
    "fits",
    "row_px",
    "label_budget",
    "column_x",
    "camera",
]

CHAR_PX = 6.3
"""Width of one label character in pixels: sigma's 12 px sans-serif (DejaVu Sans on Linux,
narrower elsewhere) averages 6.2 px a character over the grouped overview's labels and 6.5
over names drawn node by node (measured with the font's metrics); a label of capitals may
run a few pixels into `EDGE_PX`, which is better than cutting every long one."""
LABEL_OFFSET_PX = 16.0
"""From a node's centre to the end of its glyph and the start of its text, about."""
EDGE_PX = 52.0
"""Room left for the edges between one column's labels and the next column."""
MIN_ROW_PX = 10.0
"""Closest rows: labels of 12 px still read (sigma hides those that would collide)."""
MAX_ROW_PX = 44.0
"""Farthest rows: a few groups are not spread over the whole height."""
TALL_ROW_PX = 15.0
"""Rows of a view taller than the canvas (it starts at its top; the reader pans down)."""
PADDING_PX = 30.0
"""sigma's `stagePadding`."""
MARGIN_PX = 16.0
"""Kept free inside the padding, around what is drawn."""
TOP_PX = 36.0
"""Kept free above what is drawn, for sigma's search box (top right of the canvas)."""
MIN_LABEL_CHARS = 12


@dataclass(frozen=True)
class Canvas:
    """The canvas a view starts in: `height` in pixels, `aspect` = width / height."""

    height: int = 620
    aspect: float = 1.6

    @property
    def width(self) -> float:
        return self.height * self.aspect

    @property
    def inner_height(self) -> float:
        return self.height - 2 * (PADDING_PX + MARGIN_PX) - TOP_PX

    @property
    def inner_width(self) -> float:
        return self.width - 2 * (PADDING_PX + MARGIN_PX)


def fits(rows: float, canvas: Canvas) -> bool:
    """True when `rows` rows fit the canvas's height at `MIN_ROW_PX` or more apart."""
    return rows <= 1 or (rows - 1) * MIN_ROW_PX <= canvas.inner_height


def row_px(rows: float, canvas: Canvas) -> float:
    """Pixels between two rows: the canvas's height shared out, within the limits."""
    if rows <= 1:
        return MAX_ROW_PX
    if not fits(rows, canvas):
        return TALL_ROW_PX
    return max(MIN_ROW_PX, min(MAX_ROW_PX, canvas.inner_height / (rows - 1)))


def label_budget(longest: Mapping[float, int], canvas: Canvas) -> dict[float, int]:
    """Column -> the characters its labels may take so that every column, its labels and
    the edges fit the canvas's width: each column gets what it needs, unless the whole is
    too wide; then the longest labels are cut first (down to `MIN_LABEL_CHARS`)."""
    columns = sorted(longest)
    gaps = max(len(columns) - 1, 0) * (EDGE_PX + LABEL_OFFSET_PX) + LABEL_OFFSET_PX
    room = max(canvas.inner_width - gaps, 0) / CHAR_PX  # characters for every label
    want = {column: max(int(longest[column]), 0) for column in columns}
    if sum(want.values()) <= room:
        return want
    # water-filling: a common cap, lowered until the labels fit
    cap = max(want.values(), default=0)
    while cap > MIN_LABEL_CHARS and sum(min(w, cap) for w in want.values()) > room:
        cap -= 1
    return {column: min(w, cap) for column, w in want.items()}


def column_x(chars: Mapping[float, int]) -> dict[float, float]:
    """Column -> x in pixels: each column after the previous one's labels and `EDGE_PX`."""
    x_of: dict[float, float] = {}
    x = 0.0
    for column in sorted(chars):
        x_of[column] = x
        x += port_offset(chars[column]) + EDGE_PX
    return x_of


def port_offset(chars: int) -> float:
    """From a node to where its edges leave (just after a label of `chars` characters)."""
    return LABEL_OFFSET_PX + chars * CHAR_PX + 4.0 if chars else 0.0


def camera(xs: list[float], ys: list[float], right: float, canvas: Canvas) -> dict[str, float]:
    """sigma's `camera_state` showing one unit as one pixel, centred on what is drawn:
    the nodes at (`xs`, `ys`) and labels reaching `right` (in the same units)."""
    if not xs:
        return {"x": 0.5, "y": 0.5, "ratio": 1.0, "angle": 0.0}
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    gw, gh = max(max_x - min_x, 1e-9), max(max_y - min_y, 1e-9)
    extent = max(gw, gh)
    smallest = min(canvas.width, canvas.height) - 2 * PADDING_PX
    viewport_ratio = canvas.height / canvas.width
    graph_ratio = gh / gw
    if (viewport_ratio < 1 < graph_ratio) or (graph_ratio < 1 < viewport_ratio):
        correction = 1.0
    else:
        correction = min(max(graph_ratio, 1 / graph_ratio), max(viewport_ratio, 1 / viewport_ratio))
    ratio = smallest * correction / extent  # pixels per unit at ratio 1, so: ratio for 1
    centre_x = (min_x + max(right, max_x)) / 2
    centre_y = (min_y + max_y) / 2 + TOP_PX / 2  # what is drawn sits lower: room on top
    if max_y - min_y > canvas.inner_height:  # too tall: start at its top
        centre_y = max_y - (canvas.height / 2 - PADDING_PX - MARGIN_PX - TOP_PX)
    return {
        "x": 0.5 + (centre_x - (min_x + max_x) / 2) / extent,
        "y": 0.5 + (centre_y - (min_y + max_y) / 2) / extent,
        "ratio": ratio,
        "angle": 0.0,
    }
