"""`topology_svg`: a topology diagram written as SVG directly, with no matplotlib figure.

The docs site draws dozens of diagrams, and matplotlib spent nine tenths of their time
building artists and laying out texts it had already measured (issue 45). This writer
renders the same laid-out view as `plot_topology`: one layout (`plot.topology.lay_out`),
the same marks (`plot/looks.py`), headers and figure size (`canvas.headers`,
`canvas.figure_frame`), written with ElementTree, which escapes every text and attribute:
curves as SVG's own cubic Béziers, markers as shapes, texts as `<text>` in the font
matplotlib names. PNG and PDF, and axes of the caller's, stay with `plot_topology`.

Texts are placed as matplotlib places them (a centred label's baseline sits 0.26 em below
its row, DejaVu Sans' ascent is 0.76 em); the legend is laid out as matplotlib lays out
`figure.legend(ncol=6)`: columns filled top to bottom, each as wide as its longest entry.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Hashable
from pathlib import Path
from typing import TYPE_CHECKING

from ..support.printable import drop_unprintable
from ..topology.view import EstateOrGraph, detail_view, graph_of, grouped_view
from .canvas import LEGEND_COLUMNS, Frame, Geometry, figure_frame, headers, title_text
from .labels import text_width
from .legend import MARKER_SIZE, Entry, legend_entries
from .looks import edge_batches, label_marks, node_batches, node_sizes, rings
from .topology import LabelStyle, check_options, grouping, lay_out

if TYPE_CHECKING:
    from ..topology.layout import LayeredLayout
    from ..topology.view import ViewGraph

__all__ = ["topology_svg", "write_topology_svg", "view_svg"]

FONT_FAMILY = (
    "'DejaVu Sans', 'Bitstream Vera Sans', 'Lucida Grande', Verdana, Geneva, Arial, "
    "Helvetica, sans-serif"
)
"""matplotlib's default sans-serif list: the font the labels were measured in first."""
ASCENT, DESCENT = 0.76, 0.24
"""DejaVu Sans above and below the baseline, in ems (a line is 1 em tall)."""
_LEGEND_FONT = 8.0
_MARKERS: dict[str, tuple[tuple[float, float], ...]] = {
    "<": ((-0.5, 0.0), (0.5, -0.5), (0.5, 0.5)),
    ">": ((0.5, 0.0), (-0.5, 0.5), (-0.5, -0.5)),
    "h": ((0.0, 0.5), (-0.433, 0.25), (-0.433, -0.25), (0.0, -0.5), (0.433, -0.25), (0.433, 0.25)),
    "X": (
        (-0.25, -0.5), (0.0, -0.25), (0.25, -0.5), (0.5, -0.25), (0.25, 0.0), (0.5, 0.25),
        (0.25, 0.5), (0.0, 0.25), (-0.25, 0.5), (-0.5, 0.25), (-0.25, 0.0), (-0.5, -0.25),
    ),
}  # fmt: skip
"""matplotlib's marker outlines at a size of one (squares and circles are drawn as such)."""


def topology_svg(
    estate_or_graph: EstateOrGraph,
    *,
    group_by: str | None = None,
    title: str | None = None,
    labels: LabelStyle = "auto",
) -> str:
    """The estate's (or graph's) topology as an SVG document, as `plot_topology` draws it
    with the same options (grouped when large or by `group_by`; `title` None counts what
    is drawn, `""` is none)."""
    labels = check_options(labels, group_by)
    graph, _ = graph_of(estate_or_graph)
    key = grouping(graph, group_by)
    view = grouped_view(graph, key, None) if key else detail_view(graph, None)
    return view_svg(view, title_text(graph, key, title), key, labels=labels)


def write_topology_svg(
    estate_or_graph: EstateOrGraph, path: Path, *, group_by: str | None = None, title: str
) -> Path:
    """`topology_svg` written to `path` (UTF-8): the same graph gives the same bytes."""
    path.write_text(topology_svg(estate_or_graph, group_by=group_by, title=title), "utf-8")
    return path


def view_svg(
    view: ViewGraph,
    title: str,
    key: str | None,
    *,
    labels: LabelStyle,
    empty: str = "Nothing to draw: no profiles in this selection",
) -> str:
    """A view (of a topology or a diff) laid out and written as SVG, under `title` (`""`:
    none); `empty` says why an empty view shows nothing."""
    geometry, placed = lay_out(view, key, labels)
    items = legend_entries(view, grouped=geometry.grouped, focused=False)
    frame = figure_frame(placed, geometry, bool(title), -(-len(items) // LEGEND_COLUMNS))
    geometry.row_pts = frame.row_pts
    canvas = _Canvas(frame, geometry)
    svg = canvas.root
    if title:
        ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "rect", width="100%", height="100%", fill="#ffffff")
    _edges(canvas, view, placed, geometry)
    sizes = node_sizes(view, geometry)
    _nodes(canvas, view, placed, sizes)
    _rings(canvas, view, placed, sizes)
    if labels != "none":
        _labels(canvas, view, placed, geometry, sizes, labels == "ids")
    _headers(canvas, view, geometry, key)
    if not view.number_of_nodes():
        y = (frame.top + frame.body / 2) * 72 + (ASCENT - DESCENT) / 2 * (geometry.font + 2)
        canvas.text(svg, empty, frame.width * 36, y, geometry.font + 2, "middle", fill="#777777")
    if title:
        y = 0.16 * 72 + ASCENT * 13
        x = frame.width * 72 * 0.012
        canvas.text(svg, title, x, y, 13, "start", **{"class": "title", "font-weight": "700"})
    _legend(canvas, items, (0.5 if title else 0.1) * 72)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(svg, encoding="unicode")


class _Canvas:
    """The document being written and its coordinates: points, y growing downwards."""

    def __init__(self, frame: Frame, geometry: Geometry) -> None:
        self.width, self.height = frame.width * 72, frame.height * 72
        self.top, self.body, self.rows = frame.top * 72, frame.body * 72, frame.rows
        self.x_low, self.x_span = geometry.x_low, geometry.x_high - geometry.x_low
        self.root = ET.Element(
            "svg",
            xmlns="http://www.w3.org/2000/svg",
            version="1.1",
            width=f"{_n(self.width)}pt",
            height=f"{_n(self.height)}pt",
            viewBox=f"0 0 {_n(self.width)} {_n(self.height)}",
            role="img",
        )
        self.root.set("font-family", FONT_FAMILY)

    def x(self, column: float) -> float:
        return (column - self.x_low) / self.x_span * self.width

    def y(self, row: float) -> float:
        return self.top + (row + 0.5) / self.rows * self.body

    def text(
        self, parent: ET.Element, text: str, x: float, y: float, size: float, anchor: str,
        **style: str,
    ) -> ET.Element:  # fmt: skip
        """A line of text, its baseline at `y`."""
        element = ET.SubElement(parent, "text", {"x": _n(x), "y": _n(y), **style})
        element.set("font-size", _n(size))
        if anchor != "start":
            element.set("text-anchor", anchor)
        element.text = drop_unprintable(text)
        return element


def _edges(canvas: _Canvas, view: ViewGraph, placed: LayeredLayout, geometry: Geometry) -> None:
    """Each batch a group of cubic curves, in matplotlib's order (by zorder, then made)."""
    batches = sorted(edge_batches(view, placed, geometry, False), key=lambda b: b.zorder)
    for batch in batches:
        group = ET.SubElement(canvas.root, "g", {"class": "edges", "fill": "none"})
        group.set("stroke", batch.colour)
        group.set("stroke-opacity", _n(batch.alpha))
        if batch.dashes is not None:
            group.set("stroke-dasharray", " ".join(_n(d) for d in batch.dashes))
        for (x0, y0, x1, y1), width in zip(batch.ends, batch.widths, strict=True):
            ax0, ax1, am = canvas.x(x0), canvas.x(x1), canvas.x((x0 + x1) / 2)
            ay0, ay1 = canvas.y(y0), canvas.y(y1)
            path = f"M{_n(ax0)} {_n(ay0)}C{_n(am)} {_n(ay0)} {_n(am)} {_n(ay1)} {_n(ax1)} {_n(ay1)}"
            ET.SubElement(group, "path", d=path).set("stroke-width", _n(width))


def _nodes(
    canvas: _Canvas, view: ViewGraph, placed: LayeredLayout, sizes: dict[Hashable, float]
) -> None:
    """Each batch of nodes a group of shapes."""
    for batch in sorted(node_batches(view, placed, sizes, False), key=lambda b: b.zorder):
        group = ET.SubElement(canvas.root, "g", {"class": "nodes", "fill": batch.fill})
        group.set("stroke", batch.edge)
        group.set("stroke-width", _n(batch.edge_width))
        group.set("stroke-linejoin", "miter")
        if batch.dashed:  # matplotlib's "--", in line widths
            group.set(
                "stroke-dasharray", f"{_n(3.7 * batch.edge_width)} {_n(1.6 * batch.edge_width)}"
            )
        if batch.alpha < 1:
            group.set("fill-opacity", _n(batch.alpha))
            group.set("stroke-opacity", _n(batch.alpha))
        for x, y, size in zip(batch.xs, batch.ys, batch.sizes, strict=True):
            _marker(group, batch.marker, canvas.x(x), canvas.y(y), size)


def _rings(
    canvas: _Canvas, view: ViewGraph, placed: LayeredLayout, sizes: dict[Hashable, float]
) -> None:
    """Rings around what a breaking change or a finding names."""
    for ring in rings(view, placed, sizes):
        group = ET.SubElement(canvas.root, "g", {"class": "rings", "fill": "none"})
        group.set("stroke", ring.colour)
        group.set("stroke-width", _n(ring.width))
        for x, y, size in zip(ring.xs, ring.ys, ring.sizes, strict=True):
            ET.SubElement(group, "circle", cx=_n(canvas.x(x)), cy=_n(canvas.y(y)), r=_n(size / 2))


def _marker(parent: ET.Element, marker: str, x: float, y: float, size: float) -> None:
    """One marker of `size` points centred on (x, y)."""
    if marker == "s":
        half = size / 2
        ET.SubElement(
            parent, "rect", x=_n(x - half), y=_n(y - half), width=_n(size), height=_n(size)
        )
    elif marker in _MARKERS:  # matplotlib's y grows upwards
        points = " ".join(f"{_n(x + u * size)},{_n(y - v * size)}" for u, v in _MARKERS[marker])
        ET.SubElement(parent, "polygon", points=points)
    else:
        ET.SubElement(parent, "circle", cx=_n(x), cy=_n(y), r=_n(size / 2))


def _labels(
    canvas: _Canvas,
    view: ViewGraph,
    placed: LayeredLayout,
    geometry: Geometry,
    sizes: dict[Hashable, float],
    ids: bool,
) -> None:
    """The labels kept, each on its white box in the middle columns."""
    font = geometry.font
    group = ET.SubElement(canvas.root, "g", {"class": "labels", "font-size": _n(font)})
    for mark in label_marks(view, placed, geometry, sizes, ids):
        x, y = canvas.x(mark.x) + mark.dx, canvas.y(mark.y)
        if mark.boxed:
            width = text_width(mark.text, font) * (1.08 if mark.bold else 1.0)
            pad = 0.08 * font
            left = x - width - pad if mark.anchor == "end" else x - pad
            box = ET.SubElement(
                group, "rect", x=_n(left), y=_n(y - font / 2 - pad), fill="#ffffff",
                width=_n(width + 2 * pad), height=_n(font + 2 * pad),
            )  # fmt: skip
            box.set("fill-opacity", "0.78")
        text = ET.SubElement(group, "text", x=_n(x), y=_n(y + (ASCENT - DESCENT) / 2 * font))
        text.text = drop_unprintable(mark.text)
        text.set("fill", mark.colour)
        if mark.anchor != "start":
            text.set("text-anchor", mark.anchor)
        if mark.alpha < 1:
            text.set("fill-opacity", _n(mark.alpha))
        if mark.italic:
            text.set("font-style", "italic")
        if mark.bold:
            text.set("font-weight", "700")


def _headers(canvas: _Canvas, view: ViewGraph, geometry: Geometry, key: str | None) -> None:
    """Column titles, their lowest point 4 points above the diagram."""
    group = ET.SubElement(canvas.root, "g", {"class": "headers", "fill": "#3a4048"})
    group.set("font-weight", "700")
    for header in headers(view, geometry, key):
        y = canvas.top - 4 - DESCENT * header.size
        canvas.text(group, header.text, canvas.x(header.column), y, header.size, "middle")


def _legend(canvas: _Canvas, items: list[Entry], top: float) -> None:
    """The entries in `LEGEND_COLUMNS` columns filled top to bottom (the first ones one
    longer), each column as wide as its longest entry, as matplotlib's legend."""
    if not items:
        return
    size = _LEGEND_FONT
    handle, pad, spacing = 2.6 * size, 0.8 * size, 1.8 * size
    count, extra = divmod(len(items), LEGEND_COLUMNS)
    group = ET.SubElement(canvas.root, "g", {"class": "legend", "font-size": _n(size)})
    x, start = canvas.width * 0.012 + 0.4 * size, 0
    for column in range(LEGEND_COLUMNS):
        entries = items[start : start + count + (column < extra)]
        start += len(entries)
        if not entries:
            break
        for row, item in enumerate(entries):
            row_top = top + 0.4 * size + row * 1.5 * size
            _legend_handle(group, item, x, row_top + 0.41 * size, handle)
            canvas.text(group, item.label, x + handle + pad, row_top + ASCENT * size, size, "start")
        x += handle + pad + max(text_width(item.label, size) for item in entries) + spacing


def _legend_handle(parent: ET.Element, entry: Entry, x: float, y: float, length: float) -> None:
    """An entry's line (`length` long) and marker, centred on `y`: as matplotlib draws it."""
    if entry.line is not None:
        line = ET.SubElement(
            parent, "line", x1=_n(x), y1=_n(y), x2=_n(x + length), y2=_n(y), stroke=entry.line
        )
        line.set("stroke-width", _n(entry.width))
        if entry.dashes:  # matplotlib scales a line's dashes by its width
            line.set("stroke-dasharray", " ".join(_n(d * entry.width) for d in entry.dashes))
        else:
            line.set("stroke-linecap", "square")
    if entry.marker is not None:
        group = ET.SubElement(parent, "g", fill=entry.fill, stroke=entry.edge)
        group.set("stroke-width", _n(entry.edge_width if entry.edge_width is not None else 1.0))
        group.set("stroke-linejoin", "miter")
        _marker(group, entry.marker, x + length / 2, y, MARKER_SIZE)


def _n(value: float) -> str:
    """A number as SVG reads it: two decimals at most, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
