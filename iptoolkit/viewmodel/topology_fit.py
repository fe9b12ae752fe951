"""Where a view's columns, labels and camera go on a canvas of known size: the spacing rules
that keep the interactive view as legible as `plot_topology`'s diagram.

sigma.js draws labels at a fixed size in pixels while it scales positions to the canvas, so
spacing chosen in "rows" (as the static diagrams do) gives labels that run over the next
column, or over the fan of edges leaving their own node. Here positions are chosen in
pixels of the canvas the view starts in, and the camera (`camera`) is set so that one unit
is one pixel there:

- every column is as far from the next as its longest label needs (measured in pixels with
  the font's own metrics, `label_px`) plus `EDGE_PX` for the edges; when that is wider
  than the canvas, labels are cut rather than the canvas zoomed out, the room going
  where it keeps the most of them (`label_budget`), a count never cut (`cut_to_px`);
- edges leave a node from a *port* just after its label (`port_offset`), so no label is drawn
  over its own fan of edges;
- a canvas that may hold labels on two lines (`Canvas.lines`, the Explorer's) has them
  wrapped where one line would not do (`topology_wrap`: a narrow pane);
- rows are `MIN_ROW_PX` to `MAX_ROW_PX` apart: a view whose tallest column needs more rows
  than the canvas holds at `MIN_ROW_PX` does not `fit`: it is drilled into (`drill.py`),
  or, drawn node by node all the same, laid out `TALL_ROW_PX` a row;
- rows are spaced for labels, circles sized for what they count (a group's up to 11 px a
  radius): where two neighbours in a column would meet, a view's circles shrink towards
  the smallest's size until they are `CIRCLE_GAP_PX` apart (`circles_kept`);
- what does not fit the canvas at that (labels at their shortest, rows at their closest)
  is drawn on a bigger canvas (`Canvas.grown`) that the view scrolls: never smaller type,
  never overlap, nothing cut by the canvas's edge.

The canvas is the one the front end reports (`canvas_width.CanvasWidth`): the view is laid
out again when it is resized.

The camera arithmetic follows sigma 2's `matrixFromCamera`: at camera ratio r, a graph
whose node extent is `gw` x `gh` shows `S * c / (r * max(gw, gh))` pixels per unit, where
`S` is the canvas's smaller side less sigma's 30 px padding and `c` its correction ratio.
"""

from __future__ import annotations

import bisect
import functools
import os
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..support.printable import LABEL_COUNT, count_kept
from .label_glyphs import FONT_PX, advance_px

__all__ = [
    "CHAR_PX",
    "EDGE_PX",
    "MIN_ROW_PX",
    "MAX_ROW_PX",
    "NODE_PX",
    "CIRCLE_GAP_PX",
    "LEFT_PX",
    "RIGHT_PX",
    "Canvas",
    "needed",
    "fits",
    "row_px",
    "label_budget",
    "share_out",
    "label_gaps",
    "label_px",
    "least_px",
    "cut_to_px",
    "cut_apart",
    "column_x",
    "camera",
    "circles_kept",
    "keep_circles_apart",
]

CHAR_PX = 6.6
"""Width of a wide label character in pixels (sigma's 12 px sans-serif, digits and
capitals): the unit of `MIN_LABEL_CHARS`; labels themselves are measured (`label_px`)."""
LABEL_FONT_PX = FONT_PX
"""sigma's label size (`label_glyphs` measures it); the font is DejaVu Sans, which Chromium
uses for sans-serif on Linux (wider than Arial or Helvetica elsewhere, so what fits here
fits there)."""
MISSING_GLYPH_PX = 12.0
"""A character the font lacks (the partner's hexagon): drawn from another font, about
a square."""
LABEL_OFFSET_PX = 16.0
"""From a node's centre to the end of its glyph and the start of its text, about."""
PORT_GAP_PX = 4.0
"""From the end of a label to where its edges leave."""
EDGE_PX = 40.0
"""Room left for the edges between one column's labels and the next column."""
MIN_ROW_PX = 15.0
"""Closest rows: labels of 12 px, with room between them (no two touch)."""
MAX_ROW_PX = 44.0
"""Farthest rows: a few groups are not spread over the whole height."""
TALL_ROW_PX = 15.0
"""Rows of a view taller than the canvas (drawn on a taller canvas the view scrolls)."""
NODE_PX = 12.0
"""Room left of the first column for its nodes (the biggest grouped node's radius, and
a little): the nodes one clicks to open a group are never cut by the canvas's edge."""
CIRCLE_GAP_PX = 2.0
"""Kept free between the circles of two neighbours in a column: closer, their white borders
meet and two groups read as one."""
PADDING_PX = 30.0
"""sigma's `stagePadding`."""
MARGIN_PX = 16.0
"""Kept free inside the padding, above and below what is drawn."""
LEFT_PX = 46.0
"""Kept free left of what is drawn: ipysigma's zoom and full-screen buttons stand at the
canvas's top left (10 to 42 px in), over the first column's top rows."""
RIGHT_PX = 12.0
"""Kept free right of what is drawn. The camera makes one unit one pixel (`camera`), so
sigma's padding, which only shrinks its own fit, costs no width: the labels take the
canvas but for `LEFT_PX` and this (with the padding and `MARGIN_PX` on both sides, some
35 px more were left empty, and labels were cut instead)."""
TOP_PX = 36.0
"""Kept free above what is drawn, for sigma's search box (top right of the canvas)."""
MIN_LABEL_CHARS = 16
"""Labels keep at least this many wide characters a column: a canvas narrower than that
needs is grown (and scrolls); the room is then shared out as `label_budget` says."""
SHORTEST_NAME_CHARS = 8
"""No label is cut to fewer characters of its name than this (its glyph included, counts
kept whole) to lengthen another's (`label_budget`)."""
SCROLL_PAGES = 2.0
"""A view whose rows fill up to this many canvases is drawn node by node all the same, on a
taller canvas that scrolls, rather than grouped (a small selection, a group of 20)."""
SCROLLBAR_PX = 16
"""Kept free on the right of a canvas taller than the view: its panel's scroll bar."""


@dataclass(frozen=True)
class Canvas:
    """The canvas a view starts in: `height` in pixels, `aspect` = width / height."""

    height: int = 620
    aspect: float = 1.6
    lines: int = 1
    """How many lines a label may take: 2 where the front end draws a label's second line
    (the Explorer's canvas, see `wrapped_budget`); 1 keeps the layout of a fixed page."""

    @property
    def width(self) -> float:
        return self.height * self.aspect

    @property
    def inner_height(self) -> float:
        return self.height - 2 * (PADDING_PX + MARGIN_PX) - TOP_PX

    @property
    def inner_width(self) -> float:
        return self.width - LEFT_PX - RIGHT_PX

    @classmethod
    def of(cls, width: float, height: int, *, lines: int = 1) -> Canvas:
        """The canvas `width` x `height` pixels (its labels on at most `lines` lines)."""
        return cls(height, max(width, 1.0) / max(height, 1), lines)

    def grown(self, width: float, height: float) -> Canvas:
        """This canvas, grown to hold what is drawn: `width` x `height` pixels of it
        (its margins included; `needed`), never smaller than it is."""
        tall = max(self.height, int(-(-height // 1)))
        wide = max(self.width, float(int(-(-width // 1))))
        return Canvas(tall, wide / tall, self.lines)


def needed(left: float, right: float, rows: float, step: float) -> tuple[float, float]:
    """The canvas's width and height in pixels that hold what spans `left`..`right` and
    `rows` rows `step` apart, with sigma's padding and the margins above and below, the
    room on top, and `LEFT_PX` and `RIGHT_PX` either side."""
    width = right - left + NODE_PX + LEFT_PX + RIGHT_PX
    height = max(rows - 1, 0) * step + 2 * (PADDING_PX + MARGIN_PX) + TOP_PX
    return width, height


def fits(rows: float, canvas: Canvas, *, pages: float = 1.0) -> bool:
    """True when `rows` rows fit the canvas's height (`pages` times it: a panel scrolled
    through) at `MIN_ROW_PX` or more apart."""
    return rows <= 1 or (rows - 1) * MIN_ROW_PX <= canvas.inner_height * pages


def row_px(rows: float, canvas: Canvas) -> float:
    """Pixels between two rows: the canvas's height shared out, within the limits."""
    if rows <= 1:
        return MAX_ROW_PX
    if not fits(rows, canvas):
        return TALL_ROW_PX
    return max(MIN_ROW_PX, min(MAX_ROW_PX, canvas.inner_height / (rows - 1)))


@functools.lru_cache(maxsize=1 << 16)
def label_px(text: str) -> float:
    """The width in pixels of `text` drawn as a sigma label (see `LABEL_FONT_PX`); kept for
    the texts met again (an offline file measures each name in every level drawing it)."""
    return sum(map(_advance, text))


TOLD_APART = " \u00b7 "
"""Between a label and what tells it apart from its namesakes (`AS2 agent · P-000047`)."""


def cut_to_px(text: str, room: float) -> str:
    """`text`, cut with "…" to `room` pixels when it is wider (whole when it fits): its count
    (`LABEL_COUNT`) is kept whole and the name before it cut; a label told apart from its
    namesakes keeps what tells it apart (its end after `TOLD_APART`) while there is room."""
    if label_px(text) <= room:
        return text
    kept = count_kept(text, room, label_px)
    if kept is not None:
        name, count = kept
        return _cut(name, room - label_px(count)) + count
    head, sep, tail = text.rpartition(TOLD_APART)
    if sep and head:  # its head cut first, down to 30% of the room
        end = min(label_px(sep + tail), room * 0.7)
        return _cut(head, room - end) + _cut(sep + tail, end)
    return _cut(text, room)


def cut_apart(texts: Mapping[Any, str], rooms: Mapping[Any, float]) -> dict[Any, str]:
    """Each of `texts` cut to its room (`cut_to_px`); where two different texts would read
    the same once cut (three "Oberland Retail…" channels), each is cut in the middle instead
    so that it keeps where it differs from its nearest namesake (`Oberland…invoices`,
    `Archive (cu…#43`): the part that tells them apart (`_cut_around`)."""
    drawn = {key: cut_to_px(text, rooms[key]) for key, text in texts.items()}
    readers: dict[str, set[str]] = {}
    for key, text in texts.items():
        readers.setdefault(drawn[key], set()).add(text)
    for key, text in texts.items():
        namesakes = readers[drawn[key]] - {text}
        if namesakes and drawn[key] != text:
            differs = max(len(os.path.commonprefix([text, other])) for other in namesakes)
            drawn[key] = _cut_around(text, differs, rooms[key])
    return drawn


def _cut_around(text: str, differs: int, room: float) -> str:
    """`text` cut to `room` so that it keeps the word in which it differs from a namesake
    (from `differs` on): as much of its beginning as the room leaves, "…", then the rest
    from that word (itself cut at its end if it is wider still)."""
    start = text.rfind(" ", 0, differs) + 1  # the word the difference is in
    if start == 0:
        return cut_to_px(text, room)
    ellipsis = _advance("\u2026")
    rest = text[start:]
    head_room = max(room - ellipsis - label_px(rest), room * HEAD_SHARE)
    head = _fitting(text[:start], head_room).rstrip()
    return head + "\u2026" + _cut(rest, room - ellipsis - label_px(head))


HEAD_SHARE = 0.3
"""The least share of a label cut around its difference that its beginning keeps."""


def _fitting(text: str, room: float) -> str:
    """The longest beginning of `text` no wider than `room` pixels."""
    width = 0.0
    for end, character in enumerate(text):
        width += _advance(character)
        if width > room:
            return text[:end]
    return text


def _cut(text: str, room: float) -> str:
    if label_px(text) <= room:
        return text
    head = _fitting(text, room - _advance("\u2026"))
    return text[: max(len(head), 1)].rstrip() + "\u2026"


@functools.lru_cache(maxsize=4096)
def _advance(character: str) -> float:
    """A character's advance in the labels' font (`label_glyphs`), or `MISSING_GLYPH_PX`."""
    found = advance_px(character)
    return MISSING_GLYPH_PX if found is None else found


def label_gaps(columns: int, edge: float = EDGE_PX) -> float:
    """The pixels `columns` columns take besides their labels (as `column_x` places them:
    each label's offset and port, the edges between columns, the first column's nodes)."""
    return columns * (LABEL_OFFSET_PX + PORT_GAP_PX) + max(columns - 1, 0) * edge + NODE_PX


def label_budget(labels: Mapping[float, Sequence[str]], canvas: Canvas) -> dict[float, float]:
    """Column -> the pixels its labels may take (`labels`: each column's, as drawn whole) so
    that every column, its labels and the edges fit the canvas's width: each column gets
    what its widest label needs, unless the whole is too wide. Then the room is shared out
    where it keeps the most characters: each column starts where every name in it keeps
    its first `SHORTEST_NAME_CHARS` (`least_px`), and a pixel more for a column is a pixel
    more for each of its labels still cut, so the column with the largest share of its
    labels still cut is widened first (until its next label is whole; `share_out`), not
    every column alike: twenty agents all cut gain before one cut name among twenty. A canvas
    too narrow to give every column `MIN_LABEL_CHARS` is grown to (`Canvas.grown`)."""
    columns = sorted(labels)
    room = max(canvas.inner_width - label_gaps(len(columns)), 0.0)  # pixels for every label
    ordered = {c: sorted(label_px(text) for text in labels[c]) for c in columns}
    want = {c: (ordered[c][-1] if ordered[c] else 0.0) for c in columns}
    if sum(want.values()) <= room:
        return want
    cap = {c: min(want[c], max((least_px(t) for t in labels[c]), default=0.0)) for c in columns}
    grown = sum(max(cap[c], min(want[c], MIN_LABEL_CHARS * CHAR_PX)) for c in columns)
    spare = max(room, grown) - sum(cap.values())
    return share_out(ordered, cap, spare)


def share_out(
    ordered: Mapping[float, Sequence[float]], cap: dict[float, float], spare: float
) -> dict[float, float]:
    """`cap` (column -> the pixels its labels may take) grown by `spare` pixels where they
    keep the most characters (`ordered`: each column's labels' whole widths, sorted): the
    column with the largest share of labels still cut first (then the narrower, then the
    first of equals), until its next label is whole or `CHAR_PX` more, and again."""
    columns = sorted(ordered)

    def still_cut(column: float) -> int:
        return len(ordered[column]) - bisect.bisect_right(ordered[column], cap[column])

    # each column's rank, kept as it changes: a step is at most `CHAR_PX`, so there are
    # many steps and only the column widened changes at each
    cut = {c: still_cut(c) for c in columns}
    rank = {c: (cut[c] / max(len(ordered[c]), 1), -cap[c], -n) for n, c in enumerate(columns)}
    while spare > 1e-9 and columns:
        column = columns[-max(rank.values())[2]]
        if cut[column] == 0:
            break
        step = min(ordered[column][-cut[column]] - cap[column], spare, CHAR_PX)
        cap[column] += step
        spare -= step
        cut[column] = still_cut(column)
        rank[column] = (cut[column] / max(len(ordered[column]), 1), -cap[column], rank[column][2])
    return cap


def least_px(text: str) -> float:
    """The narrowest a label is cut to (`cut_to_px`): its first `SHORTEST_NAME_CHARS`
    characters, "…" and its count (`(90)` of `(90, 8 inactive)`), whole when shorter."""
    count = LABEL_COUNT.search(text)
    name, tail = (text[: count.start()], f" ({count.group(1)})") if count else (text, "")
    if len(name) <= SHORTEST_NAME_CHARS:
        return label_px(text)
    return label_px(name[:SHORTEST_NAME_CHARS].rstrip() + "\u2026" + tail)


def column_x(widths: Mapping[float, float], edge: float = EDGE_PX) -> dict[float, float]:
    """Column -> x in pixels: each column after the previous one's labels (`widths`, in
    pixels) and `edge` (`EDGE_PX`; `WRAPPED_EDGE_PX` for labels on two lines)."""
    x_of: dict[float, float] = {}
    x = 0.0
    for column in sorted(widths):
        x_of[column] = x
        x += port_offset(widths[column]) + edge
    return x_of


def port_offset(width: float) -> float:
    """From a node to where its edges leave (just after a label `width` pixels wide)."""
    return LABEL_OFFSET_PX + width + PORT_GAP_PX if width else 0.0


def camera(xs: list[float], ys: list[float], right: float, canvas: Canvas) -> dict[str, float]:
    """sigma's `camera_state` showing one unit as one pixel, centred on what is drawn
    with its margins (`LEFT_PX`, `RIGHT_PX`): the nodes at (`xs`, `ys`), every node sigma
    fits, and labels reaching `right` (in the same units)."""
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
    centre_x = (min_x - NODE_PX - LEFT_PX + max(right, max_x) + RIGHT_PX) / 2
    centre_y = (min_y + max_y) / 2 + TOP_PX / 2  # what is drawn sits lower: room on top
    if max_y - min_y > canvas.inner_height:  # too tall: start at its top
        centre_y = max_y - (canvas.height / 2 - PADDING_PX - MARGIN_PX - TOP_PX)
    return {
        "x": 0.5 + (centre_x - (min_x + max_x) / 2) / extent,
        "y": 0.5 + (centre_y - (min_y + max_y) / 2) / extent,
        "ratio": ratio,
        "angle": 0.0,
    }


def circles_kept(columns: Iterable[Iterable[tuple[float, float]]], least: float) -> float:
    """The share of each radius above `least` that every circle keeps so that no two
    neighbours in a column (each column: its nodes' y and radius, in pixels) come closer
    than `CIRCLE_GAP_PX`: 1 where they are that far apart already. Rows are `MIN_ROW_PX`
    apart or more, room for a label; radii are not: 21 rows in the docs' 460 px canvas are
    17 px apart, and two groups of 11 px overlapped. One share for the whole view, so that
    the biggest circle is still the biggest; none smaller than `least` (nor shrunk to it)."""
    kept = 1.0
    for column in columns:
        ordered = sorted(column)
        for (y0, r0), (y1, r1) in zip(ordered, ordered[1:], strict=False):
            over = max(r0 - least, 0.0) + max(r1 - least, 0.0)
            room = y1 - y0 - CIRCLE_GAP_PX - min(r0, least) - min(r1, least)
            if over > 0 and room < over:
                kept = min(kept, max(room, 0.0) / over)
    return kept


def keep_circles_apart(nodes: Iterable[MutableMapping[str, Any]], least: float) -> None:
    """Nodes laid out in pixels (`x`, `y`, their radius `size`), their sizes shrunk towards
    `least` as `circles_kept` says, in place."""
    nodes = list(nodes)
    columns: dict[float, list[tuple[float, float]]] = {}
    for data in nodes:
        columns.setdefault(float(data["x"]), []).append((float(data["y"]), float(data["size"])))
    kept = circles_kept(columns.values(), least)
    if kept < 1.0:
        for data in nodes:
            if data["size"] > least:
                data["size"] = round(least + (data["size"] - least) * kept, 2)
