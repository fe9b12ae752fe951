"""Labels on two lines, for a canvas too narrow for them on one: a pane of 500-800 px
(JupyterLab beside its file browser) holds the overview's four columns only with labels
cut to a few characters, or on a canvas wider than the pane, which scrolls sideways.

Where the canvas allows it (`Canvas.lines`: the Explorer's, whose sigma draws what it is
given; a fixed page keeps one line) and one line would not do, each label breaks after a
word (`wrap_to_px`): the count never split nor cut, a name kept on the first line and the
rest on the second, cut there only if it must be (in the middle where two would read the
same, as `cut_apart` cuts). The columns then share the width as two lines need it
(`wrapped_budget`), `WRAPPED_EDGE_PX` apart, and the rows are `WRAPPED_ROW_PX` or more
apart, so the view may grow taller (never wider: its panel then holds the canvas whole,
`two_lines`, and the page scrolls, not the panel). sigma draws a label on one line: the
second is the label of an invisible node `LINE_PX` below its node (`second_line_nodes`),
of kind "port" as the edges' ports are, so that nothing names it. Zooming in moves it
away from its first line as it moves the rows apart; zooming out is stopped at the start.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..support.printable import LABEL_COUNT
from .topology_fit import (
    MAX_ROW_PX,
    Canvas,
    column_x,
    cut_apart,
    cut_to_px,
    label_gaps,
    label_px,
    share_out,
)

__all__ = [
    "LABEL_LINES",
    "LINE_PX",
    "WRAPPED_ROW_PX",
    "WRAPPED_EDGE_PX",
    "Wrapped",
    "wrapped_labels",
    "wrapped_budget",
    "wrap_px",
    "wrap_to_px",
    "second_line_nodes",
    "two_lines",
]

LABEL_LINES = 2
"""The lines a label of the Explorer's map may take where one would not do (a narrow pane);
the app's first view draws it as the live map does."""

LINE_PX = 13.0
"""From the first line of a label wrapped onto two (`wrap_to_px`) to its second."""
WRAPPED_ROW_PX = 31.0
"""Closest rows whose labels may take two lines: two lines of 12 px a pixel apart, and
six pixels between one label and the next, so that a label's two lines read as one."""
WRAPPED_EDGE_PX = 20.0
"""Room for the edges between columns whose labels take two lines: a narrow pane's pixels
go to the labels (each fan of edges is still seen leaving its port)."""
SHORTEST_LINE_CHARS = 5
"""No name on two lines is cut to fewer characters than this on its first (its count on
the second): four columns in 500 px keep every label's beginning and count."""
WRAPPED_PAGES = 4.0
"""A view whose labels would scroll sideways on one line takes two up to this many canvases
tall (a list of 50 profiles node by node in a narrow pane): the page scrolls down."""
LINE_SUFFIX = " \u21b5"
"""A label's second line's key: its node's key and a return arrow (`partner:1001 ↵`)."""


@dataclass(frozen=True)
class Wrapped:
    """Labels on two lines: `first` and `second` (node -> its lines; no second: one line),
    `budget` (column -> the pixels a line may take), `x_of` (column -> x), `step` (pixels
    between rows) and the `canvas` laid out on."""

    first: dict[Hashable, str]
    second: dict[Hashable, str]
    budget: dict[float, float]
    x_of: dict[float, float]
    step: float
    canvas: Canvas


def wrapped_labels(
    said: Mapping[Hashable, str],
    glyph_px: Mapping[Hashable, float],
    column_of: Mapping[Hashable, float],
    rows: float,
    single: Mapping[float, float],
    canvas: Canvas,
) -> Wrapped | None:
    """The labels `said` (node -> its name, after a glyph `glyph_px` wide) on two lines,
    when the canvas allows it and one line (`single`: column -> the room `label_budget`
    gives) would not do: it cuts a label and needs a canvas wider than this one (it would
    scroll sideways), or two lines fit the canvas's height. None: one line does, or two
    lines would not fit `WRAPPED_PAGES` canvases' height, or the width at all."""
    cut = any(label_px(said[n]) > single[c] - glyph_px[n] for n, c in column_of.items())
    if canvas.lines < 2 or not cut:
        return None
    height = max(rows - 1, 0) * WRAPPED_ROW_PX + LINE_PX
    wider = sum(single.values()) > canvas.inner_width - label_gaps(len(single)) + 0.5
    if height > canvas.inner_height * (WRAPPED_PAGES if wider else 1.0):
        return None
    needs: dict[float, list[tuple[float, float]]] = {}
    for node, column in column_of.items():
        text, indent = said[node], glyph_px[node]
        needs.setdefault(column, []).append((indent + wrap_px(text), indent + _least_px(text)))
    budget = wrapped_budget(needs, canvas)
    if budget is None:
        return None
    first: dict[Hashable, str] = {}
    rests: dict[Hashable, str] = {}
    rooms = {node: budget[column] - glyph_px[node] for node, column in column_of.items()}
    for node in column_of:
        first[node], rest = _split(said[node], rooms[node])
        if rest:
            rests[node] = rest
    alone = {n: said[n] for n in column_of if n not in rests and first[n] != said[n]}
    first.update(cut_apart(alone, rooms))  # on one line, cut: told apart as on one line
    counts = {node: rest for node, rest in rests.items() if LABEL_COUNT.fullmatch(" " + rest)}
    # cut apart where two would read the same (eight "Inbound customer pa…" profiles):
    # among the labels whose first lines are the same, the others read apart already
    alike: dict[str, dict[Hashable, str]] = {}
    for node, rest in rests.items():
        if node not in counts:
            alike.setdefault(first[node], {})[node] = rest
    second: dict[Hashable, str] = {}
    for group in alike.values():
        second.update(cut_apart(group, rooms))
    second.update({node: _second_line(rest, rooms[node]) for node, rest in counts.items()})
    spread = canvas.inner_height / max(rows - 1, 1)
    step = max(WRAPPED_ROW_PX, min(MAX_ROW_PX, spread))
    return Wrapped(first, second, budget, column_x(budget, WRAPPED_EDGE_PX), step, canvas)


def wrapped_budget(
    needs: Mapping[float, Sequence[tuple[float, float]]], canvas: Canvas
) -> dict[float, float] | None:
    """Column -> the pixels each line of its labels may take, so that the columns fit the
    canvas's width (`needs`: each column's labels, each as the room it needs whole on two
    lines and the least it is cut to, `_least_px`, glyphs included). Shared out as
    `topology_fit.label_budget` does: from each column's least, the column with the most
    labels still cut widened first. None when the least do not fit: too narrow even so."""
    columns = sorted(needs)
    room = max(canvas.inner_width - label_gaps(len(columns), WRAPPED_EDGE_PX), 0.0)
    ordered = {c: sorted(whole for whole, _ in needs[c]) for c in columns}
    want = {c: (ordered[c][-1] if ordered[c] else 0.0) for c in columns}
    if sum(want.values()) <= room:
        return want
    cap = {c: max((min(whole, least) for whole, least in needs[c]), default=0.0) for c in columns}
    spare = room - sum(cap.values())
    if spare < 0:
        return None
    return share_out(ordered, cap, spare)


def wrap_px(text: str) -> float:
    """The narrowest room in pixels that holds `text` whole on two lines (`wrap_to_px`)."""
    best = label_px(text)
    for line, rest in _breaks(text):
        best = min(best, max(label_px(line), label_px(rest)))
    return best


def _least_px(text: str) -> float:
    """The narrowest a label on two lines is cut to: its name's first `SHORTEST_LINE_CHARS`
    characters and "…" on one line, its count on the other (whole when narrower)."""
    count = LABEL_COUNT.search(text)
    name = text[: count.start()] if count else text
    head = name if len(name) <= SHORTEST_LINE_CHARS else name[:SHORTEST_LINE_CHARS] + "\u2026"
    tail = count.group().strip() if count else ""
    return min(wrap_px(text), max(label_px(head.rstrip()), label_px(tail)))


def wrap_to_px(text: str, room: float) -> tuple[str, str]:
    """`text` on at most two lines of `room` pixels: (`text`, "") when it fits one; else the
    first line ends after the last word that fits and the second holds the rest, cut as
    `cut_to_px` cuts (its count whole). A first word wider than the room is cut on the
    first line, the rest on the second (`Bergm…` / `Chemicals B.V.`)."""
    line, rest = _split(text, room)
    return line, _second_line(rest, room) if rest else ""


def _split(text: str, room: float) -> tuple[str, str]:
    """`text`'s first line in `room` pixels and the rest, uncut (see `wrap_to_px`)."""
    if label_px(text) <= room:
        return text, ""
    breaks = _breaks(text)
    fitting = [(line, rest) for line, rest in breaks if label_px(line) <= room]
    if fitting:
        return fitting[-1]
    if not breaks:
        return cut_to_px(text, room), ""
    word, rest = breaks[0]  # its first word cut, the rest on the second line
    return cut_to_px(word, room), rest


def _second_line(rest: str, room: float) -> str:
    """The rest of a label on its second line, cut to `room` as `cut_to_px` cuts; a count
    alone there is never cut: too wide, it keeps its first number (`(90)` of `(90, 8
    inactive)`), as `cut_to_px` does."""
    count = LABEL_COUNT.fullmatch(" " + rest)
    if count is None or label_px(rest) <= room:
        return cut_to_px(rest, room)
    return f"({count.group(1)})"


def _breaks(text: str) -> list[tuple[str, str]]:
    """Where `text` may break onto a second line: at each space of its name, or before its
    count (`LABEL_COUNT`, never broken itself), the first break first."""
    count = LABEL_COUNT.search(text)
    end = count.start() if count is not None else len(text)
    return [
        (text[:at].rstrip(), text[at + 1 :])
        for at in range(1, min(end + 1, len(text)))
        if text[at] == " " and text[:at].strip()
    ]


def second_line_nodes(
    lines: Mapping[str, tuple[str, float]], nodes: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The invisible nodes that draw second lines: key -> attributes, for `lines` (a node's
    key -> its second line and its first line's indent: the node's radius in pixels and its
    glyph) and `nodes` (the sigma graph's nodes: where each is, its label's colour). sigma
    starts a label 3 px right of its node: an invisible node's label starts under the name."""
    out: dict[str, dict[str, Any]] = {}
    for key, (text, indent) in lines.items():
        node = nodes[key]
        out[key + LINE_SUFFIX] = {
            "x": float(node["x"]) + indent,
            "y": float(node["y"]) - LINE_PX,
            "label": text,
            "name": "",
            "crumb": "",
            "color": _INVISIBLE,
            "border": _INVISIBLE,
            "label_color": node["label_color"],
            "size": 0.01,
            "halo": 0.0,
            "zindex": node["zindex"],
            "kind": "port",
        }
    return out


_INVISIBLE = "rgba(255,255,255,0)"


def two_lines(keys: Iterable[str]) -> bool:
    """True when a view whose graph has these node `keys` draws labels on two lines (its
    canvas then as tall as it needs)."""
    return any(key.endswith(LINE_SUFFIX) for key in keys)
