"""The canvas of a topology diagram: its size, title, column headers and legend.

A diagram of our own gets a figure sized for the layout (rows of fixed height, so the figure
grows with the graph); axes passed in keep their size, and the room they offer, measured in
points, decides font size, label length and which labels fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..support.names import plural, unresolved_note
from ..support.printable import drop_unprintable
from ..topology.layout import LayeredLayout
from ..topology.style import COLUMN_OF_KIND
from ..topology.view import channel_counts
from .backend import new_figure
from .labels import fit, text_width

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..query.graph import EstateGraph
    from ..topology.view import ViewGraph

__all__ = [
    "Geometry",
    "Frame",
    "figure_frame",
    "title_text",
    "make_axes",
    "Header",
    "headers",
    "draw_headers",
    "draw_legend",
    "LEGEND_COLUMNS",
]

LEGEND_COLUMNS = 6
_LEGEND_ROW = 0.21  # inches


class Geometry:
    """Sizes of one diagram, in points and inches, for a detail or a grouped drawing."""

    def __init__(self, grouped: bool) -> None:
        self.grouped = grouped
        self.font = 8.5 if grouped else 7.5
        self.row = 27.0 if grouped else 12.5  # points per layout row
        self.gap = 3.6 if grouped else 3.3  # inches between columns
        self.left = 2.9  # inches left of the profiles: their labels
        self.right = 2.3  # inches right of the partners: their labels
        self.max_height = 150.0  # inches; beyond, rows shrink and labels thin out
        # set by `make_axes` from the axes actually drawn into:
        self.row_pts = self.row  # points per layout row
        self.x_pts = self.gap * 72  # points per column step
        self.own = True  # a figure of our own (not the caller's axes)

    @property
    def x_low(self) -> float:
        return -self.left / self.gap

    @property
    def x_high(self) -> float:
        return 3 + self.right / self.gap

    def room(self, column: int) -> float:
        """Points of horizontal room for the labels of a column."""
        if column == 0:
            return -self.x_low * self.x_pts
        if column == 3:
            return (self.x_high - 3) * self.x_pts
        return self.x_pts * (0.7 if self.grouped else 0.66)


@dataclass(frozen=True)
class Frame:
    """A diagram of our own: the figure's size and the axes' place in it, in inches."""

    width: float
    height: float
    top: float  # above the axes: title, legend, column headers
    body: float  # the axes
    rows: float  # layout rows the axes show (half a row of air above and below)
    row_pts: float  # points per layout row


def figure_frame(
    placed: LayeredLayout, geometry: Geometry, titled: bool, legend_rows: int
) -> Frame:
    """The figure's size for the layout: rows of fixed height, fewer points a row past
    `max_height`, room above for the title (when `titled`), the legend and the headers."""
    rows = max(placed.rows, 1.0) + 1.0  # half a row of air above and below
    row_pts = geometry.row
    body = rows * row_pts / 72
    if body > geometry.max_height:
        body = geometry.max_height
        row_pts = body * 72 / rows
    top = (0.5 if titled else 0.1) + legend_rows * _LEGEND_ROW + 0.38
    width = geometry.left + 3 * geometry.gap + geometry.right
    height = max(body + top + 0.15, 3.0)  # a short diagram sits under its legend, air below
    return Frame(width, height, top, body, rows, row_pts)


def title_text(graph: EstateGraph, key: str | None, title: str | None) -> str:
    """The title drawn: the one given (`""`: none) or one counting what is drawn, on one
    line with no control character (no font draws a NUL)."""
    text = _title(graph, key) if title is None else title
    return " ".join(drop_unprintable(text).split()) if text else text


def make_axes(
    placed: LayeredLayout,
    geometry: Geometry,
    ax: Axes | None,
    title: str | None,
    graph: EstateGraph,
    key: str | None,
    legend_rows: int,
) -> tuple[Figure, Axes]:
    """A figure sized for the layout, or the caller's axes; measures the room in points."""
    rows = max(placed.rows, 1.0) + 1.0  # half a row of air above and below
    text = title_text(graph, key, title)
    own = geometry.own = ax is None
    if ax is None:
        frame = figure_frame(placed, geometry, bool(text), legend_rows)
        row_pts, height = frame.row_pts, frame.height
        figure = new_figure(frame.width, height)
        bottom = height - frame.body - frame.top
        ax = figure.add_axes((0.0, bottom / height, 1.0, frame.body / height))
        if text:
            figure.text(0.012, 1 - 0.16 / height, text, fontsize=13, fontweight="bold", va="top")
    else:  # a SubFigure's axes give the SubFigure, drawn into and handed back as it is
        figure = cast("Figure", ax.figure)
    ax.set_xlim(geometry.x_low, geometry.x_high)
    ax.set_ylim(rows - 0.5, -0.5)  # rows grow downwards
    ax.set_axis_off()
    if not own:
        bbox = ax.get_window_extent()
        row_pts = bbox.height * 72 / figure.dpi / rows
        geometry.x_pts = bbox.width * 72 / figure.dpi / (geometry.x_high - geometry.x_low)
        # narrow axes: a smaller font, within reason
        shrink = min(1.0, geometry.x_pts / (geometry.gap * 72)) ** 0.5
        geometry.font = max(geometry.font * shrink, 5.5)
        if text:
            size = min(11.0, geometry.font + 3)
            width = bbox.width * 72 / figure.dpi
            text = fit(text, width, lambda t: text_width(t, size) * 1.08)
            ax.set_title(text, fontsize=size, fontweight="bold", loc="left", pad=size * 2.2)
    geometry.row_pts = row_pts
    return figure, ax


def _title(graph: EstateGraph, key: str | None) -> str:
    profiles = partners = 0
    for _, data in graph.nodes(data=True):
        profiles += data.get("kind") == "profile"
        partners += data.get("kind") == "partner"
    channels, unresolved = channel_counts(graph)  # an unresolved id is not a channel
    text = (
        f"Integration topology: {plural(profiles, 'profile')}, "
        f"{plural(channels, 'channel')}{unresolved_note(unresolved)}, "
        f"{plural(partners, 'partner')}"
    )
    if key:
        text += f" (grouped by {key.replace('_', ' ')})"
    return text


@dataclass(frozen=True)
class Header:
    """A column title, centred over its column."""

    column: int
    text: str
    size: float


def headers(view: ViewGraph, geometry: Geometry, key: str | None) -> list[Header]:
    """Column titles with counts; a shorter wording when the column is narrow."""
    counts: dict[str, int] = {}
    for data in view.nodes.values():
        if data.get("unresolved"):
            continue  # drawn in the channels column, but an unresolved id is not a channel
        counts[data["kind"]] = counts.get(data["kind"], 0) + data["count"]
    n = {kind: f"{counts.get(kind, 0):,}" for kind in COLUMN_OF_KIND}
    by = f" by {key.replace('_', ' ')}" if key else ""
    choices = [
        (f"Profiles{by} ({n['profile']})", f"Profiles ({n['profile']})"),
        (f"Agents ({n['agent']}) · responses ({n['response']})",),  # one wording at any size
        (f"Channels ({n['channel']})",),
        (f"Partners ({n['partner']})",),
    ]
    size = geometry.font + 1.5
    room = geometry.x_pts * 0.95

    def measure(text: str) -> float:
        return text_width(text, size) * 1.08  # bold runs wider

    out: list[Header] = []
    for column, wordings in enumerate(choices):
        fitting = [text for text in wordings if measure(text) <= room]
        text = fitting[0] if fitting else fit(wordings[-1], room / 1.08, measure)
        out.append(Header(column, text, size))
    return out


def draw_headers(ax: Axes, view: ViewGraph, geometry: Geometry, key: str | None) -> None:
    """Column titles with counts (`looks.headers`), above the axes."""
    for header in headers(view, geometry, key):
        ax.annotate(
            header.text,
            xy=(header.column, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=header.size,
            fontweight="bold",
            color="#3A4048",
            annotation_clip=False,
        )


def draw_legend(figure: Figure, ax: Axes, handles: list[Any], geometry: Geometry) -> None:
    if not handles:
        return
    options: dict[str, Any] = {
        "handles": handles,
        "frameon": False,
        "handlelength": 2.6,
        "columnspacing": 1.8,
        "borderaxespad": 0.0,
    }
    if geometry.own:
        top = 0.5 if figure.texts else 0.1
        figure.legend(
            loc="upper left",
            bbox_to_anchor=(0.012, 1 - top / figure.get_figheight()),
            ncol=LEGEND_COLUMNS,
            fontsize=8,
            **options,
        )
    else:
        size = min(8.0, geometry.font + 0.5)
        width = ax.get_window_extent().width * 72 / figure.dpi
        columns = max(1, min(LEGEND_COLUMNS, int(width // (size * 22))))
        ax.legend(
            loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=columns, fontsize=size, **options
        )
