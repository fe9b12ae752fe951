"""`plot_topology`: the estate as a layered diagram fit for documentation.

Left to right: profiles | input agents and response units | channels | partners. The way
data comes in is drawn in solid blue, the way it goes out in dashed vermillion; agents point
at their profile (data arrives), response units away from it (data leaves). Inactive items
are faded with a dashed outline, channels named by an id that no profile holds are red
crosses. Up to `MAX_DETAIL_NODES` nodes are drawn one by one; bigger graphs (or any graph
with `group_by=`) are drawn as groups with counts.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Literal

from ._backend import detach, new_figure
from .labels import LabelSpec, fit, place_labels, text_width
from .layout import LayeredLayout, layered_layout
from .legend import legend_handles
from .style import (
    COLUMN_OF_KIND,
    IN_COLOUR,
    KIND_MARKERS,
    LINK_COLOUR,
    OUT_COLOUR,
    PROBLEM_COLOUR,
    UNRESOLVED_COLOUR,
    node_colour,
)
from .view import GROUP_BY, detail_view, focus_set, graph_of, grouped_view

if TYPE_CHECKING:
    import networkx as nx
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_topology", "MAX_DETAIL_NODES"]

MAX_DETAIL_NODES = 300
"""Above this many nodes (and without `group_by`), the diagram groups nodes."""

Labels = Literal["auto", "ids", "none"] | bool

_EDGE_STYLE: dict[str, dict[str, Any]] = {
    "in": {"colors": IN_COLOUR, "linestyles": "solid"},
    "ref": {"colors": IN_COLOUR, "linestyles": (0, (1.0, 1.6))},
    "out": {"colors": OUT_COLOUR, "linestyles": (0, (4.0, 2.0))},
    "link": {"colors": LINK_COLOUR, "linestyles": "solid"},
}
_LEGEND_COLUMNS = 6
_LEGEND_ROW = 0.21  # inches
_FADED = 0.13  # alpha of what a highlight leaves out


class _Geometry:
    """Sizes of one diagram, in points and inches, for a detail or a grouped drawing."""

    def __init__(self, grouped: bool) -> None:
        self.grouped = grouped
        self.font = 8.5 if grouped else 7.5
        self.row = 27.0 if grouped else 12.5  # points per layout row
        self.gap = 3.6 if grouped else 3.3  # inches between columns
        self.left = 2.9  # inches left of the profiles: their labels
        self.right = 2.3  # inches right of the partners: their labels
        self.max_height = 150.0  # inches; beyond, rows shrink and labels thin out
        # set by `_axes` from the axes actually drawn into:
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


def plot_topology(
    estate_or_graph: Any,
    *,
    ax: Axes | None = None,
    layout: str = "layered",
    group_by: str | Literal[False] | None = None,
    highlight: Any = None,
    labels: Labels = "auto",
    title: str | None = None,
) -> Figure:
    """Draw the topology of an estate (or of a graph from `build_graph`) and return the figure.

    - `group_by`: `"group"`, `"agent_type"` or `"partner"` draws groups of profiles with
      counts (agents, responses and channels grouped by type); None groups by profile
      group only when the graph has more than `MAX_DETAIL_NODES` nodes; False never.
    - `highlight`: a node id (its upstream and downstream paths stand out), node ids, a
      graph from `neighbourhood` or an `Impact` from `impact`.
    - `labels`: `"auto"` (names, shortened, left out where they would overlap), `"ids"`
      (node ids instead of names) or `"none"`.
    - `title`: None for a title that counts what is drawn; `""` for none.
    - `ax`: draw into these axes (the figure keeps its size); otherwise a new figure whose
      size grows with the graph.

    The same graph always gives the same picture.
    """
    if layout != "layered":
        raise ValueError(f"layout must be 'layered', not {layout!r}")
    if labels is True:
        labels = "auto"
    elif labels is False:
        labels = "none"
    if labels not in ("auto", "ids", "none"):
        raise ValueError(f"labels must be 'auto', 'ids' or 'none', not {labels!r}")
    if group_by not in (None, False, *GROUP_BY):
        raise ValueError(
            f"group_by must be one of {', '.join(GROUP_BY)}, None or False, not {group_by!r}"
        )
    graph, _ = graph_of(estate_or_graph)
    focus = focus_set(graph, highlight)
    key = group_by or None
    if group_by is None and graph.number_of_nodes() > MAX_DETAIL_NODES:
        key = "group"
    view = grouped_view(graph, key, focus) if key else detail_view(graph, focus)
    geometry = _Geometry(grouped=key is not None)
    band = None
    if geometry.grouped:  # agents above response units: the in and out fans stay apart

        def band(node: Hashable) -> int:
            return 1 if view.nodes[node]["kind"] == "response" else 0

    placed = layered_layout(view, order_key=_order_key(view), band_of=band)

    handles = legend_handles(view, grouped=geometry.grouped, focused=focus is not None)
    legend_rows = -(-len(handles) // _LEGEND_COLUMNS)
    figure, ax = _axes(placed, geometry, ax, title, graph, key, legend_rows)
    _draw_edges(ax, view, placed, geometry, focus is not None)
    sizes = _draw_nodes(ax, view, placed, geometry, focus is not None)
    if labels != "none":
        _draw_labels(ax, view, placed, geometry, sizes, labels == "ids")
    _draw_headers(ax, view, geometry, key)
    _draw_legend(figure, ax, handles, geometry)
    return detach(figure) if geometry.own else figure


# -- the canvas ---------------------------------------------------------------------------


def _axes(
    placed: LayeredLayout,
    geometry: _Geometry,
    ax: Axes | None,
    title: str | None,
    graph: nx.MultiDiGraph,
    key: str | None,
    legend_rows: int,
) -> tuple[Figure, Axes]:
    """A figure sized for the layout, or the caller's axes; measures the room in points."""
    rows = max(placed.rows, 1.0) + 1.0  # half a row of air above and below
    text = _title(graph, key) if title is None else title
    own = geometry.own = ax is None
    if own:
        row_pts = geometry.row
        body = rows * row_pts / 72
        if body > geometry.max_height:
            body = geometry.max_height
            row_pts = body * 72 / rows
        # title, legend, column headers
        top = (0.5 if text else 0.1) + legend_rows * _LEGEND_ROW + 0.38
        bottom = 0.15
        width = geometry.left + 3 * geometry.gap + geometry.right
        height = max(body + top + bottom, 3.0)
        figure = new_figure(width, height)

        ax = figure.add_axes((0.0, bottom / height, 1.0, body / height))
        if text:
            figure.text(0.012, 1 - 0.16 / height, text, fontsize=13, fontweight="bold", va="top")
    else:
        figure = ax.figure
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


def _title(graph: nx.MultiDiGraph, key: str | None) -> str:
    counts = {"profile": 0, "channel": 0, "partner": 0}
    for _, kind in graph.nodes(data="kind"):
        if kind in counts:
            counts[kind] += 1
    text = (
        f"Integration topology: {_n(counts['profile'], 'profile')}, "
        f"{_n(counts['channel'], 'channel')}, {_n(counts['partner'], 'partner')}"
    )
    if key:
        text += f" (grouped by {key.replace('_', ' ')})"
    return text


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _order_key(view: nx.DiGraph) -> Any:
    """Start order within a column: profiles by group then name; groups biggest first."""
    nodes = view.nodes

    def key(node: Hashable) -> tuple[Any, ...]:
        data = nodes[node]
        if data["count"] > 1 or isinstance(node, tuple):
            return (-data["count"], data["label"])
        return (str(data.get("group") or ""), data["label"], str(node))

    return key


# -- edges --------------------------------------------------------------------------------


def _draw_edges(
    ax: Axes, view: nx.DiGraph, placed: LayeredLayout, geometry: _Geometry, focused: bool
) -> None:
    import numpy as np
    from matplotlib.collections import LineCollection

    pos = placed.pos
    t = np.linspace(0.0, 1.0, 18)[:, None]
    # Bezier weights of a cubic with both control points halfway, at the ends' heights
    b0, b1, b2, b3 = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3
    widest = _widest(view, pos) if geometry.grouped else {}
    batches: dict[tuple[str, bool, bool], tuple[list[Any], list[float]]] = {}
    for u, v, data in view.edges(data=True):
        (x0, y0), (x1, y1) = pos[u], pos[v]
        if x0 > x1:
            (x0, y0), (x1, y1) = (x1, y1), (x0, y0)
        middle = (x0 + x1) / 2
        xs = b0 * x0 + b1 * middle + b2 * middle + b3 * x1
        ys = b0 * y0 + b1 * y0 + b2 * y1 + b3 * y1
        batch = batches.setdefault((data["style"], data["inactive"], data["focus"]), ([], []))
        batch[0].append(np.hstack([xs, ys]))
        if geometry.grouped:
            share = (data["weight"] / widest[_gap(pos, u, v)]) ** 0.5
            batch[1].append(0.5 + 6.0 * share)
        else:
            batch[1].append(0.7 if data["style"] != "link" else 0.6)
    for (style, inactive, in_focus), (segments, widths) in sorted(batches.items()):
        alpha = 0.5 if geometry.grouped else 0.8
        if inactive:
            alpha *= 0.4
        if focused:
            alpha = 0.95 if in_focus else _FADED * alpha
            if in_focus:
                widths = [w * 1.8 for w in widths]
        look = dict(_EDGE_STYLE[style])
        dashes = look.pop("linestyles")
        if isinstance(dashes, tuple):
            # matplotlib stretches dashes with the line width; keep them the same length
            on, off = dashes[1]
            if geometry.grouped:  # long dashes: thick short ones read as a chain
                on, off = 7.0, 2.2
            look["linestyles"] = [(0, (on * 1.4 / w, off * 1.4 / w)) for w in widths]
        else:
            look["linestyles"] = dashes
        collection = LineCollection(
            segments,
            linewidths=widths,
            alpha=alpha,
            zorder=1.5 if in_focus else 1,
            capstyle="butt",
            **look,
        )
        ax.add_collection(collection)


def _gap(pos: dict[Hashable, tuple[float, float]], u: Hashable, v: Hashable) -> float:
    return min(pos[u][0], pos[v][0])


def _widest(view: nx.DiGraph, pos: dict[Hashable, tuple[float, float]]) -> dict[float, float]:
    """The heaviest edge between each pair of columns: line widths scale within a gap."""
    widest: dict[float, float] = {}
    for u, v, weight in view.edges(data="weight"):
        gap = _gap(pos, u, v)
        widest[gap] = max(widest.get(gap, 1.0), float(weight))
    return widest


# -- nodes --------------------------------------------------------------------------------


def _draw_nodes(
    ax: Axes, view: nx.DiGraph, placed: LayeredLayout, geometry: _Geometry, focused: bool
) -> dict[Hashable, float]:
    """Scatter the nodes, one call per look; returns each marker's size in points."""
    pos = placed.pos
    biggest: dict[str, int] = {}
    for data in view.nodes.values():
        biggest[data["kind"]] = max(biggest.get(data["kind"], 1), _weight(data))
    batches: dict[tuple[Any, ...], list[Hashable]] = {}
    sizes: dict[Hashable, float] = {}
    for node, data in view.nodes(data=True):
        kind = data["kind"]
        if geometry.grouped:
            share = (_weight(data) / biggest[kind]) ** 0.5
            biggest_pts = max(min(geometry.row, geometry.row_pts) * 0.78, 8.0)
            diameter = 6.0 + (biggest_pts - 6.0) * share
        else:
            diameter = {"profile": 6.5, "channel": 8.0, "partner": 9.5}.get(kind, 7.5)
        sizes[node] = diameter
        inactive = data["inactive"] >= data["count"]
        look = (
            kind,
            data["type"] if kind == "channel" else None,
            inactive,
            data["unresolved"],
            data["problem"],
            data["focus"] if focused else True,
        )
        batches.setdefault(look, []).append(node)
    for look, nodes in sorted(batches.items(), key=lambda item: repr(item[0])):
        kind, type_name, inactive, unresolved, problem, in_focus = look
        xs = [pos[n][0] for n in nodes]
        ys = [pos[n][1] for n in nodes]
        area = [sizes[n] ** 2 for n in nodes]
        colour = node_colour(kind, type_name)
        style: dict[str, Any] = {
            "marker": KIND_MARKERS.get(kind, "o"),
            "c": colour,
            "edgecolors": "white",
            "linewidths": 0.6,
            "alpha": 1.0,
        }
        if unresolved:
            style.update(marker="X", c=UNRESOLVED_COLOUR, edgecolors=UNRESOLVED_COLOUR)
        elif problem:
            style.update(c="white", edgecolors=PROBLEM_COLOUR, linewidths=1.4)
        elif inactive:
            style.update(c=_pale(colour), edgecolors=colour, linewidths=0.9, linestyles="--")
        if not in_focus:
            style["alpha"] = 0.25
        ax.scatter(xs, ys, s=area, zorder=3, **style)
        if focused and in_focus:
            halo = [(sizes[n] + 7) ** 2 for n in nodes]
            ax.scatter(xs, ys, s=halo, marker="o", c="#FFD34D", alpha=0.55, zorder=2.5, lw=0)
    return sizes


def _weight(data: dict[str, Any]) -> int:
    """What a grouped node's size shows: how many profiles reach it (at least one)."""
    return max(int(data.get("reach", data["count"])), 1)


def _pale(colour: str) -> str:
    """The colour mixed with white: an inactive item's fill."""
    from matplotlib.colors import to_hex, to_rgb

    r, g, b = to_rgb(colour)
    return to_hex((0.3 * r + 0.7, 0.3 * g + 0.7, 0.3 * b + 0.7))


# -- labels -------------------------------------------------------------------------------


def _draw_labels(
    ax: Axes,
    view: nx.DiGraph,
    placed: LayeredLayout,
    geometry: _Geometry,
    sizes: dict[Hashable, float],
    ids: bool,
) -> None:
    specs = []
    for node, data in view.nodes(data=True):
        column, row = placed.pos[node]
        text = _label_text(node, data, ids, geometry.grouped)
        side = "left" if column == 0 else "right"
        room = geometry.room(int(column))
        specs.append(
            LabelSpec(
                node=node,
                text=text,
                column=int(column),
                row=row,
                side=side,
                room_pts=room - sizes[node] / 2 - 8,
                priority=(
                    0 if data["focus"] else 1,
                    -view.degree(node, weight="weight"),
                    row,
                ),
            )
        )

    def measure(text: str) -> float:
        return text_width(text, geometry.font)

    placed_labels = place_labels(
        specs, row_pts=geometry.row_pts, font_pts=geometry.font, measure=measure
    )
    for spec, text in placed_labels:
        data = view.nodes[spec.node]
        faded = data["inactive"] >= data["count"] and not data["unresolved"]
        colour = "#8A8F96" if faded else "#1F2328"
        if data["unresolved"] or data["problem"]:
            colour = UNRESOLVED_COLOUR
        offset = sizes[spec.node] / 2 + 3
        ax.annotate(
            text,
            xy=placed.pos[spec.node],
            xytext=(-offset if spec.side == "left" else offset, 0),
            textcoords="offset points",
            ha="right" if spec.side == "left" else "left",
            va="center",
            fontsize=geometry.font,
            color=colour,
            alpha=1.0 if data["focus"] else 0.35,
            fontstyle="italic" if faded else "normal",
            zorder=4,
            annotation_clip=False,
            bbox=(
                {"boxstyle": "square,pad=0.08", "fc": "white", "ec": "none", "alpha": 0.78}
                if 0 < spec.column < 3
                else None
            ),
        )


def _label_text(node: Hashable, data: dict[str, Any], ids: bool, grouped: bool) -> str:
    if not grouped:
        return str(node) if ids else str(data["label"])
    count, inactive = data["count"], data["inactive"]
    if data["kind"] == "partner" and count == 1:
        return str(data["label"])
    if data["unresolved"] or inactive == 0:
        detail = f"{count:,}"
    elif inactive >= count:
        detail = f"{count:,}, all inactive"
    else:
        detail = f"{count:,}, {inactive:,} inactive"
    return f"{data['label']} ({detail})"


# -- headers and legend -------------------------------------------------------------------


def _draw_headers(ax: Axes, view: nx.DiGraph, geometry: _Geometry, key: str | None) -> None:
    """Column titles with counts; a shorter wording when the column is narrow."""
    counts: dict[str, int] = {}
    for data in view.nodes.values():
        counts[data["kind"]] = counts.get(data["kind"], 0) + data["count"]
    n = {kind: f"{counts.get(kind, 0):,}" for kind in COLUMN_OF_KIND}
    by = f" by {key.replace('_', ' ')}" if key else ""
    choices = [
        (f"Profiles{by} ({n['profile']})", f"Profiles ({n['profile']})"),
        (
            f"Input agents ({n['agent']}) · response units ({n['response']})",
            f"Agents ({n['agent']}) · responses ({n['response']})",
        ),
        (f"Channels ({n['channel']})",),
        (f"Partners ({n['partner']})",),
    ]
    size = geometry.font + 1.5
    room = geometry.x_pts * 0.95
    for column, wordings in enumerate(choices):
        fitting = [text for text in wordings if text_width(text, size) * 1.08 <= room]
        text = fitting[0] if fitting else fit(wordings[-1], room / 1.08, _measure(size))
        ax.annotate(
            text,
            xy=(column, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=size,
            fontweight="bold",
            color="#3A4048",
            annotation_clip=False,
        )


def _measure(size: float) -> Any:
    def measure(text: str) -> float:
        return text_width(text, size) * 1.08  # bold runs wider

    return measure


def _draw_legend(figure: Figure, ax: Axes, handles: list[Any], geometry: _Geometry) -> None:
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
            ncol=_LEGEND_COLUMNS,
            fontsize=8,
            **options,
        )
    else:
        size = min(8.0, geometry.font + 0.5)
        width = ax.get_window_extent().width * 72 / figure.dpi
        columns = max(1, min(_LEGEND_COLUMNS, int(width // (size * 22))))
        ax.legend(
            loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=columns, fontsize=size, **options
        )
