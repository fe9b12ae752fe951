"""Drawing a view onto axes: edges as a few line collections, nodes as a few scatters,
labels where they fit. Batching by look keeps a thousand-node diagram fast to draw and
small to save.

A view whose nodes and edges carry a diff `status` (`topology.diffstatus`, for
`plot_diff`) is coloured by status instead of by kind and type: added green, removed red
and dashed, changed amber, unchanged faded; the marker still says the kind.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from ..topology.layout import LayeredLayout
from ..topology.style import (
    BREAKING_COLOUR,
    KIND_MARKERS,
    LINE_COLOURS,
    LINE_DASHES,
    PROBLEM_COLOUR,
    STATUS_COLOURS,
    UNCHANGED_NODE,
    UNRESOLVED_COLOUR,
    node_colour,
)
from ..topology.view import item_label
from .backend import matplotlib_module
from .canvas import Geometry
from .labels import LabelSpec, place_labels, text_width

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..topology.view import ViewGraph

__all__ = ["draw_edges", "draw_nodes", "draw_labels"]

_EDGE_STYLE: dict[str, dict[str, Any]] = {
    style: {
        "colors": colour,
        "linestyles": (0, LINE_DASHES[style]) if style in LINE_DASHES else "solid",
    }
    for style, colour in LINE_COLOURS.items()
}
_FADED = 0.13  # alpha of what a highlight leaves out


# -- edges --------------------------------------------------------------------------------


def draw_edges(
    ax: Axes, view: ViewGraph, placed: LayeredLayout, geometry: Geometry, focused: bool
) -> None:
    import numpy as np

    artists = matplotlib_module("collections")

    pos = placed.pos
    t = np.linspace(0.0, 1.0, 18)[:, None]
    # Bezier weights of a cubic with both control points halfway, at the ends' heights
    b0, b1, b2, b3 = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3
    widest = _widest(view, pos) if geometry.grouped else {}
    batches: dict[tuple[str, bool, bool, str, bool], tuple[list[Any], list[float]]] = {}
    for u, v, data in view.edges(data=True):
        (x0, y0), (x1, y1) = pos[u], pos[v]
        if x0 > x1:
            (x0, y0), (x1, y1) = (x1, y1), (x0, y0)
        middle = (x0 + x1) / 2
        xs = b0 * x0 + b1 * middle + b2 * middle + b3 * x1
        ys = b0 * y0 + b1 * y0 + b2 * y1 + b3 * y1
        look_key = (
            data["style"],
            data["inactive"],
            data["focus"],
            data.get("status") or "",
            bool(data.get("breaking")),
        )
        batch = batches.setdefault(look_key, ([], []))
        batch[0].append(np.hstack([xs, ys]))
        if geometry.grouped:
            share = (data["weight"] / widest[_gap(pos, u, v)]) ** 0.5
            batch[1].append(0.5 + 6.0 * share)
        else:
            batch[1].append(0.7 if data["style"] != "link" else 0.6)
    for (style, inactive, in_focus, status, breaking), (segments, widths) in sorted(
        batches.items()
    ):
        alpha = 0.5 if geometry.grouped else 0.8
        if inactive:
            alpha *= 0.4
        if focused:
            alpha = 0.95 if in_focus else _FADED * alpha
            if in_focus:
                widths = [w * 1.8 for w in widths]
        look = dict(_EDGE_STYLE[style])
        if status:
            look, alpha, widths = _status_edges(status, widths, geometry.grouped)
        if breaking:  # what stops an active profile: heavier and in the breaking colour
            look["colors"] = BREAKING_COLOUR
            alpha, widths = 0.95, [max(w * 1.6, 2.4) for w in widths]
        dashes = look.pop("linestyles")
        if isinstance(dashes, tuple):
            # matplotlib stretches dashes with the line width; keep them the same length
            on, off = dashes[1]
            if geometry.grouped:  # long dashes: thick short ones read as a chain
                on, off = 7.0, 2.2
            look["linestyles"] = [(0, (on * 1.4 / w, off * 1.4 / w)) for w in widths]
        else:
            look["linestyles"] = dashes
        collection = artists.LineCollection(
            segments,
            linewidths=widths,
            alpha=alpha,
            zorder=1.6 if breaking else 1.5 if in_focus or status not in ("", "unchanged") else 1,
            capstyle="butt",
            **look,
        )
        ax.add_collection(collection)


def _status_edges(
    status: str, widths: list[float], grouped: bool
) -> tuple[dict[str, Any], float, list[float]]:
    """Colour, dashes, alpha and widths of links with a diff status: news stand out."""
    look: dict[str, Any] = {
        "colors": STATUS_COLOURS[status],
        "linestyles": (0, LINE_DASHES["out"]) if status == "removed" else "solid",
    }
    if status == "unchanged":
        return look, 0.45 if grouped else 0.55, widths
    return look, 0.85, [max(w, 1.3) for w in widths]


def _gap(pos: dict[Hashable, tuple[float, float]], u: Hashable, v: Hashable) -> float:
    return min(pos[u][0], pos[v][0])


def _widest(view: ViewGraph, pos: dict[Hashable, tuple[float, float]]) -> dict[float, float]:
    """The heaviest edge between each pair of columns: line widths scale within a gap."""
    widest: dict[float, float] = {}
    edges: Iterable[tuple[Hashable, Hashable, int]] = view.edges(data="weight")  # counts
    for u, v, weight in edges:
        gap = _gap(pos, u, v)
        widest[gap] = max(widest.get(gap, 1.0), float(weight))
    return widest


# -- nodes --------------------------------------------------------------------------------


def draw_nodes(
    ax: Axes, view: ViewGraph, placed: LayeredLayout, geometry: Geometry, focused: bool
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
            data.get("status") or "",
        )
        batches.setdefault(look, []).append(node)
    for look, nodes in sorted(batches.items(), key=lambda item: repr(item[0])):
        kind, type_name, inactive, unresolved, problem, in_focus, status = look
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
        if status:
            style.update(_status_nodes(status, unresolved))
        elif unresolved:
            style.update(marker="X", c=UNRESOLVED_COLOUR, edgecolors=UNRESOLVED_COLOUR)
        elif problem:
            style.update(c="white", edgecolors=PROBLEM_COLOUR, linewidths=1.4)
        elif inactive:
            style.update(c=_pale(colour), edgecolors=colour, linewidths=0.9, linestyles="--")
        if not in_focus:
            style["alpha"] = 0.25
        ax.scatter(xs, ys, s=area, zorder=3 if status in ("", "unchanged") else 3.2, **style)
        if focused and in_focus:
            halo = [(sizes[n] + 7) ** 2 for n in nodes]
            ax.scatter(xs, ys, s=halo, marker="o", c="#FFD34D", alpha=0.55, zorder=2.5, lw=0)
    breaking = [node for node, data in view.nodes(data=True) if data.get("breaking")]
    if breaking:  # a ring around what a breaking change names
        ax.scatter(
            [pos[n][0] for n in breaking],
            [pos[n][1] for n in breaking],
            s=[(sizes[n] + 8) ** 2 for n in breaking],
            marker="o",
            facecolors="none",
            edgecolors=BREAKING_COLOUR,
            linewidths=2.0,
            zorder=3.3,
        )
    _draw_finding_rings(ax, view, pos, sizes)
    return sizes


def _draw_finding_rings(
    ax: Axes, view: ViewGraph, pos: dict[Hashable, Any], sizes: dict[Hashable, float]
) -> None:
    """A ring around each item a finding names, coloured by the worst severity
    (`topology.finding_marks`); labels keep clear of it (`draw_labels`), as of a
    breaking change's."""
    from ..topology.finding_marks import SEVERITY_COLOURS

    by_severity: dict[str, list[Hashable]] = {}
    for node, data in view.nodes(data=True):
        if data.get("finding"):
            by_severity.setdefault(data["finding"], []).append(node)
    for severity, nodes in by_severity.items():
        ax.scatter(
            [pos[n][0] for n in nodes],
            [pos[n][1] for n in nodes],
            s=[(sizes[n] + 7) ** 2 for n in nodes],
            marker="o",
            facecolors="none",
            edgecolors=SEVERITY_COLOURS[severity],
            linewidths=1.6,
            zorder=3.4,
            gid=f"findings-{severity}",
        )


def _status_nodes(status: str, unresolved: bool) -> dict[str, Any]:
    """Fill and outline of nodes with a diff status (the marker stays the kind's)."""
    colour = STATUS_COLOURS[status]
    style: dict[str, Any] = {"c": colour, "edgecolors": "white", "linewidths": 0.6}
    if status == "unchanged":
        style.update(c=UNCHANGED_NODE, edgecolors=colour, linewidths=0.8)
    elif status == "removed":
        style.update(c=_pale(colour), edgecolors=colour, linewidths=1.2, linestyles="--")
    if unresolved:
        style.update(marker="X", edgecolors=style["c"] if status == "unchanged" else colour)
    return style


def _weight(data: dict[str, Any]) -> int:
    """What a grouped node's size shows: how many profiles reach it (at least one)."""
    return max(int(data.get("reach", data["count"])), 1)


def _pale(colour: str) -> str:
    """The colour mixed with white: an inactive item's fill."""
    colors = matplotlib_module("colors")
    r, g, b = colors.to_rgb(colour)
    pale: str = colors.to_hex((0.3 * r + 0.7, 0.3 * g + 0.7, 0.3 * b + 0.7))
    return pale


# -- labels -------------------------------------------------------------------------------


def draw_labels(
    ax: Axes,
    view: ViewGraph,
    placed: LayeredLayout,
    geometry: Geometry,
    sizes: dict[Hashable, float],
    ids: bool,
) -> None:
    specs = []
    for node, data in view.nodes(data=True):
        column, row = placed.pos[node]
        text = label_text(node, data, ids, geometry.grouped)
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
        status = data.get("status")
        if status:  # a diff: the news in dark text, the context faded
            faded = status == "unchanged"
            colour = "#8A8F96" if faded else _STATUS_TEXT.get(status, "#1F2328")
            if data.get("breaking"):
                colour, faded = BREAKING_COLOUR, False
        ring = data.get("breaking") or data.get("finding")
        offset = sizes[spec.node] / 2 + (8 if ring else 3)  # clear of a ring
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
            fontstyle="italic" if faded and not status else "normal",
            fontweight=(
                "bold"
                if status in ("added", "removed", "changed") or data.get("breaking")
                else "normal"
            ),
            zorder=4,
            annotation_clip=False,
            bbox=(
                {"boxstyle": "square,pad=0.08", "fc": "white", "ec": "none", "alpha": 0.78}
                if 0 < spec.column < 3
                else None
            ),
        )


_STATUS_TEXT = {"added": "#00704F", "removed": "#A32100", "changed": "#1F2328"}
"""Label colours of changed items: darker than the marker, readable on white."""
_TALLY_SIGNS = (("added", "+"), ("removed", "−"), ("changed", "~"))


def label_text(node: Hashable, data: dict[str, Any], ids: bool, grouped: bool) -> str:
    if not grouped:
        return str(node) if ids else str(data["label"])
    count = data["count"]
    tally = data.get("tally")
    if tally is not None:  # a diff: how many members were added, removed, changed
        news = " ".join(
            f"{sign}{tally[status]:,}" for status, sign in _TALLY_SIGNS if tally[status]
        )
        if data.get("breaking"):
            news += f" !{data['breaking']:,}"
        if data["kind"] == "partner" and count == 1:
            return str(data["label"])
        return f"{data['label']} ({count:,}{': ' + news if news else ''})"
    return item_label(data)
