"""What each mark of a laid-out topology diagram looks like, as plain data: edges by look,
nodes by look, the labels kept (the column headers are `canvas.headers`). Computed once,
without matplotlib, for the two renderers: `plot/draw.py` (matplotlib: PNG, PDF, the
caller's axes) and `plot/topology_svg.py` (the docs site's SVG, written directly), so the
two never draw a view differently.

Positions are the layout's data coordinates (column, row); lengths are in points.

A view whose nodes and edges carry a diff `status` (`topology.diffstatus`, for
`plot_diff`) is coloured by status instead of by kind and type: added green, removed red
and dashed, changed amber, unchanged faded; the marker still says the kind.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..topology.diffstatus import news_text
from ..topology.finding_marks import SEVERITY_COLOURS
from ..topology.style import (
    BREAKING_COLOUR,
    KIND_MARKERS,
    LINE_COLOURS,
    LINE_DASHES,
    PROBLEM_COLOUR,
    STATUS_COLOURS,
    STATUS_LOOKS,
    UNRESOLVED_COLOUR,
    node_colour,
    pale,
)
from ..topology.view import item_label
from .labels import LabelSpec, place_labels, text_width

if TYPE_CHECKING:
    from ..topology.layout import LayeredLayout
    from ..topology.view import ViewGraph
    from .canvas import Geometry

__all__ = [
    "EdgeBatch",
    "NodeBatch",
    "Ring",
    "LabelMark",
    "edge_batches",
    "node_sizes",
    "node_batches",
    "rings",
    "label_marks",
    "label_text",
    "pale",
]

FADED = 0.13
"""Alpha of what a highlight leaves out."""
DASHED_OUTLINE = (3.7, 1.6)
"""An inactive or removed node's dashed outline, in line widths (matplotlib's `--`)."""


@dataclass(frozen=True)
class EdgeBatch:
    """Edges that look the same: each a cubic curve from `(x0, y0)` to `(x1, y1)` (left to
    right) with both control points halfway across, at the ends' heights."""

    ends: list[tuple[float, float, float, float]]
    widths: list[float]
    colour: str
    dashes: tuple[float, float] | None  # (on, off) in points, whatever the width
    alpha: float
    zorder: float


@dataclass(frozen=True)
class NodeBatch:
    """Nodes that look the same; `sizes` are the markers' diameters in points."""

    nodes: list[Hashable]
    xs: list[float]
    ys: list[float]
    sizes: list[float]
    marker: str  # a matplotlib marker code: s < > o h X
    fill: str
    edge: str
    edge_width: float
    dashed: bool
    alpha: float
    zorder: float
    halo: bool  # highlighted: a halo behind each (`HIGHLIGHT_COLOUR`)


@dataclass(frozen=True)
class Ring:
    """Circles around nodes (a breaking change, a finding's worst severity)."""

    xs: list[float]
    ys: list[float]
    sizes: list[float]  # diameters in points
    colour: str
    width: float
    zorder: float
    gid: str | None = None


@dataclass(frozen=True)
class LabelMark:
    """A label kept: `dx` points left (negative) or right of its node, centred on its row."""

    node: Hashable
    text: str
    x: float
    y: float
    dx: float
    anchor: str  # "end" (left of the node) or "start"
    colour: str
    alpha: float
    italic: bool
    bold: bool
    boxed: bool  # on a white box: labels of the middle columns sit over edges


# -- edges --------------------------------------------------------------------------------


def edge_batches(
    view: ViewGraph, placed: LayeredLayout, geometry: Geometry, focused: bool
) -> list[EdgeBatch]:
    """The edges by look, in drawing order (each batch's `zorder` decides first)."""
    pos = placed.pos
    widest = _widest(view, pos) if geometry.grouped else {}
    batches: dict[tuple[str, bool, bool, str, bool], tuple[list[Any], list[float]]] = {}
    for u, v, data in view.edges(data=True):
        (x0, y0), (x1, y1) = pos[u], pos[v]
        if x0 > x1:
            (x0, y0), (x1, y1) = (x1, y1), (x0, y0)
        look_key = (
            data["style"],
            data["inactive"],
            data["focus"],
            data.get("status") or "",
            bool(data.get("breaking")),
        )
        batch = batches.setdefault(look_key, ([], []))
        batch[0].append((x0, y0, x1, y1))
        if geometry.grouped:
            share = (data["weight"] / widest[_gap(pos, u, v)]) ** 0.5
            batch[1].append(0.5 + 6.0 * share)
        else:
            batch[1].append(0.7 if data["style"] != "link" else 0.6)
    out: list[EdgeBatch] = []
    for (style, inactive, in_focus, status, breaking), (ends, widths) in sorted(batches.items()):
        alpha = 0.5 if geometry.grouped else 0.8
        if inactive:
            alpha *= 0.4
        if focused:
            alpha = 0.95 if in_focus else FADED * alpha
            if in_focus:
                widths = [w * 1.8 for w in widths]
        colour = LINE_COLOURS[style]
        dashes = LINE_DASHES.get(style)
        if status:
            colour, dashes, alpha, widths = _status_edges(status, widths, geometry.grouped)
        if breaking:  # what stops an active profile: heavier and in the breaking colour
            colour = BREAKING_COLOUR
            alpha, widths = 0.95, [max(w * 1.6, 2.4) for w in widths]
        if dashes is not None:
            on, off = dashes
            if geometry.grouped:  # long dashes: thick short ones read as a chain
                on, off = 7.0, 2.2
            dashes = (on * 1.4, off * 1.4)
        zorder = 1.6 if breaking else 1.5 if in_focus or status not in ("", "unchanged") else 1
        out.append(EdgeBatch(ends, widths, colour, dashes, alpha, zorder))
    return out


def _status_edges(
    status: str, widths: list[float], grouped: bool
) -> tuple[str, tuple[float, float] | None, float, list[float]]:
    """Colour, dashes, alpha and widths of links with a diff status: news stand out."""
    colour = STATUS_COLOURS[status]
    dashes = LINE_DASHES["out"] if status == "removed" else None
    if status == "unchanged":
        return colour, dashes, 0.45 if grouped else 0.55, widths
    return colour, dashes, 0.85, [max(w, 1.3) for w in widths]


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


def node_sizes(view: ViewGraph, geometry: Geometry) -> dict[Hashable, float]:
    """Each node's marker diameter in points: by kind, or by weight when grouped."""
    biggest: dict[str, int] = {}
    for data in view.nodes.values():
        biggest[data["kind"]] = max(biggest.get(data["kind"], 1), _weight(data))
    sizes: dict[Hashable, float] = {}
    biggest_pts = max(min(geometry.row, geometry.row_pts) * 0.78, 8.0)
    for node, data in view.nodes(data=True):
        kind = data["kind"]
        if geometry.grouped:
            share = (_weight(data) / biggest[kind]) ** 0.5
            sizes[node] = 6.0 + (biggest_pts - 6.0) * share
        else:
            sizes[node] = {"profile": 6.5, "channel": 8.0, "partner": 9.5}.get(kind, 7.5)
    return sizes


def node_batches(
    view: ViewGraph, placed: LayeredLayout, sizes: dict[Hashable, float], focused: bool
) -> list[NodeBatch]:
    """The nodes by look, in drawing order."""
    pos = placed.pos
    batches: dict[tuple[Any, ...], list[Hashable]] = {}
    for node, data in view.nodes(data=True):
        kind = data["kind"]
        look = (
            kind,
            data["type"] if kind == "channel" else None,
            data["inactive"] >= data["count"],
            data["unresolved"],
            data["problem"],
            data["focus"] if focused else True,
            data.get("status") or "",
        )
        batches.setdefault(look, []).append(node)
    out: list[NodeBatch] = []
    for look, nodes in sorted(batches.items(), key=lambda item: repr(item[0])):
        kind, type_name, inactive, unresolved, problem, in_focus, status = look
        colour = node_colour(kind, type_name)
        style: dict[str, Any] = {
            "marker": KIND_MARKERS.get(kind, "o"),
            "fill": colour,
            "edge": "white",
            "edge_width": 0.6,
            "dashed": False,
        }
        if status:
            style.update(_status_nodes(status, unresolved))
        elif unresolved:
            style.update(marker="X", fill=UNRESOLVED_COLOUR, edge=UNRESOLVED_COLOUR)
        elif problem:
            style.update(fill="white", edge=PROBLEM_COLOUR, edge_width=1.4)
        elif inactive:
            style.update(fill=pale(colour), edge=colour, edge_width=0.9, dashed=True)
        out.append(
            NodeBatch(
                nodes=nodes,
                xs=[pos[n][0] for n in nodes],
                ys=[pos[n][1] for n in nodes],
                sizes=[sizes[n] for n in nodes],
                alpha=1.0 if in_focus else 0.25,
                zorder=3 if status in ("", "unchanged") else 3.2,
                halo=focused and in_focus,
                **style,
            )
        )
    return out


def rings(view: ViewGraph, placed: LayeredLayout, sizes: dict[Hashable, float]) -> list[Ring]:
    """A ring around what a breaking change names, and around each item a finding names,
    coloured by the worst severity (`topology.finding_marks`); labels keep clear of them."""
    pos = placed.pos

    def ring(nodes: list[Hashable], grow: float, **look: Any) -> Ring:
        return Ring(
            xs=[pos[n][0] for n in nodes],
            ys=[pos[n][1] for n in nodes],
            sizes=[sizes[n] + grow for n in nodes],
            **look,
        )

    out: list[Ring] = []
    breaking = [node for node, data in view.nodes(data=True) if data.get("breaking")]
    if breaking:
        out.append(ring(breaking, 8, colour=BREAKING_COLOUR, width=2.0, zorder=3.3))
    by_severity: dict[str, list[Hashable]] = {}
    for node, data in view.nodes(data=True):
        if data.get("finding"):
            by_severity.setdefault(data["finding"], []).append(node)
    for severity, nodes in by_severity.items():
        colour = SEVERITY_COLOURS[severity]
        out.append(ring(nodes, 7, colour=colour, width=1.6, zorder=3.4, gid=f"findings-{severity}"))
    return out


def _status_nodes(status: str, unresolved: bool) -> dict[str, Any]:
    """Fill and outline of nodes with a diff status (the marker stays the kind's)."""
    colour = STATUS_COLOURS[status]
    fill, edge = STATUS_LOOKS[status]
    style: dict[str, Any] = {"fill": fill, "edge": edge, "edge_width": 0.6}
    if status == "unchanged":
        style.update(edge_width=0.8)
    elif status == "removed":
        style.update(edge_width=1.2, dashed=True)
    if unresolved:
        style.update(marker="X", edge=style["fill"] if status == "unchanged" else colour)
    return style


def _weight(data: dict[str, Any]) -> int:
    """What a grouped node's size shows: how many profiles reach it (at least one)."""
    return max(int(data.get("reach", data["count"])), 1)


# -- labels -------------------------------------------------------------------------------


def label_marks(
    view: ViewGraph,
    placed: LayeredLayout,
    geometry: Geometry,
    sizes: dict[Hashable, float],
    ids: bool,
) -> list[LabelMark]:
    """The labels kept (`labels.place_labels`: shortened to their room, none overlapping),
    each with its colour and style."""
    specs = []
    for node, data in view.nodes(data=True):
        column, row = placed.pos[node]
        room = geometry.room(int(column))
        specs.append(
            LabelSpec(
                node=node,
                text=label_text(node, data, ids, geometry.grouped),
                column=int(column),
                row=row,
                side="left" if column == 0 else "right",
                room_pts=room - sizes[node] / 2 - 8,
                priority=(0 if data["focus"] else 1, -view.degree(node, weight="weight"), row),
            )
        )

    def measure(text: str) -> float:
        return text_width(text, geometry.font)

    marks: list[LabelMark] = []
    kept = place_labels(specs, row_pts=geometry.row_pts, font_pts=geometry.font, measure=measure)
    for spec, text in kept:
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
        x, y = placed.pos[spec.node]
        marks.append(
            LabelMark(
                node=spec.node,
                text=text,
                x=x,
                y=y,
                dx=-offset if spec.side == "left" else offset,
                anchor="end" if spec.side == "left" else "start",
                colour=colour,
                alpha=1.0 if data["focus"] else 0.35,
                italic=faded and not status,
                bold=status in ("added", "removed", "changed") or bool(data.get("breaking")),
                boxed=0 < spec.column < 3,
            )
        )
    return marks


_STATUS_TEXT = {"added": "#00704F", "removed": "#A32100", "changed": "#1F2328"}
"""Label colours of changed items: darker than the marker, readable on white."""


def label_text(node: Hashable, data: dict[str, Any], ids: bool, grouped: bool) -> str:
    if not grouped:
        return str(node) if ids else str(data["label"])
    count = data["count"]
    tally = data.get("tally")
    if tally is not None:  # a diff: how many members were added, removed, changed
        news = news_text(tally, int(data.get("breaking") or 0))
        if data["kind"] == "partner" and count == 1:
            return str(data["label"])
        return f"{data['label']} ({count:,}{': ' + news if news else ''})"
    return item_label(data)
