"""`plot_topology`: the estate as a layered diagram fit for documentation.

Left to right: profiles | input agents and response units | channels | partners. The way
data comes in is drawn in solid blue, the way it goes out in dashed vermillion; agents point
at their profile (data arrives), response units away from it (data leaves). Inactive items
are faded with a dashed outline, channels named by an id that no profile holds are red
crosses. Up to `MAX_DETAIL_NODES` nodes are drawn one by one; bigger graphs (or any graph
with `group_by=`) are drawn as groups with counts.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from ..topology.finding_marks import mark_view, worst_by_node
from ..topology.layout import place_view
from ..topology.view import (
    GROUP_BY,
    EstateOrGraph,
    Highlight,
    detail_view,
    focus_set,
    graph_of,
    grouped_view,
)
from .backend import detach, literal_text, matplotlib_module
from .canvas import LEGEND_COLUMNS, Geometry, draw_headers, draw_legend, make_axes
from .draw import draw_edges, draw_labels, draw_nodes, label_text
from .labels import text_width
from .legend import legend_handles

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..auditing.finding import Finding
    from ..core.estate import Estate
    from ..query.graph import EstateGraph
    from ..topology.layout import LayeredLayout
    from ..topology.view import ViewGraph

__all__ = ["plot_topology", "draw_view", "lay_out", "grouping", "check_options", "MAX_DETAIL_NODES"]

MAX_DETAIL_NODES = 300
"""Above this many nodes (and without `group_by`), the diagram groups nodes."""

MAX_DETAIL_ROWS = 300
"""Above this many rows, a diagram drawn node by node is too tall to read: it warns."""


class LargeDiagramWarning(UserWarning):
    """A diagram drawn node by node with more rows than a reader can follow."""


LabelStyle = Literal["auto", "ids", "none"]
Labels = LabelStyle | bool


@literal_text
def plot_topology(
    estate_or_graph: EstateOrGraph,
    *,
    ax: Axes | None = None,
    layout: str = "layered",
    group_by: str | Literal[False] | None = None,
    highlight: Highlight = None,
    labels: Labels = "auto",
    title: str | None = None,
    findings: bool | Iterable[Finding] = False,
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
    - `findings`: True rings each item the audit's findings name (`ipt.findings`), in
      the colour of the worst severity, with a legend line per severity; or the findings
      to ring (a list from `ipt.findings(...)`, any part of it; needed for a graph).
    - `ax`: draw into these axes (the figure keeps its size); otherwise a new figure whose
      size grows with the graph.

    The same graph always gives the same picture.
    """
    if layout != "layered":
        raise ValueError(f"layout must be 'layered', not {layout!r}")
    _check_axes(ax)
    findings = _checked_findings(findings)
    labels = check_options(labels, group_by)
    graph, estate = graph_of(estate_or_graph)
    focus = focus_set(graph, highlight)
    key = grouping(graph, group_by)
    view = grouped_view(graph, key, focus) if key else detail_view(graph, focus)
    if findings is not False:
        mark_view(view, worst_by_node(_findings_of(findings, estate)))
    return draw_view(view, graph, key, focused=focus is not None, ax=ax, labels=labels, title=title)


def _check_axes(ax: Any) -> None:
    """`ax` None or matplotlib axes: a str or a figure would fail deep in the drawing."""
    if ax is None or isinstance(ax, matplotlib_module("axes").Axes):
        return
    given = type(ax).__name__
    raise TypeError(f"plot_topology: ax must be matplotlib Axes or None, not {given}: {ax!r}"[:200])


def _checked_findings(findings: Any) -> bool | list[Finding]:
    """`findings` as `plot_topology` takes it: True, False, or findings (read once, a
    generator too). `"yes"` is no findings (it would be read letter by letter)."""
    from ..auditing.finding import Finding

    if isinstance(findings, bool):
        return findings
    if isinstance(findings, str | bytes) or not isinstance(findings, Iterable):
        given = f"{type(findings).__name__}: {findings!r}"[:120]
        raise TypeError(f"plot_topology: findings must be True, False or findings, not {given}")
    listed = list(findings)
    for one in listed:
        if not isinstance(one, Finding):
            given = f"{type(one).__name__}: {one!r}"[:120]
            raise TypeError(f"plot_topology: findings must hold Finding objects, not {given}")
    return listed


def _findings_of(findings: bool | Iterable[Finding], estate: Estate | None) -> Iterable[Finding]:
    """The findings `plot_topology(findings=...)` rings: the audit's of the estate drawn
    (True), or those given."""
    if findings is False:
        return ()
    if findings is not True:
        return findings
    if estate is None:
        raise ValueError(
            "findings=True needs an estate to audit: draw the estate, or pass "
            "findings=ipt.findings(estate)"
        )
    from ..auditing import findings as audit_findings

    return audit_findings(estate)


def check_options(labels: Labels, group_by: str | Literal[False] | None) -> LabelStyle:
    """The labels option in its one spelling; a clear error for a wrong one."""
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
    return labels


def grouping(graph: EstateGraph, group_by: str | Literal[False] | None) -> str | None:
    """What to group profiles by: the choice, or `group` when the graph is too big to draw
    node by node."""
    if group_by is None and graph.number_of_nodes() > MAX_DETAIL_NODES:
        return "group"
    return group_by or None


_MOST_ROOM = 4.2
"""Inches at most beside an outer column for its labels; a longer one is shortened."""


def _label_room(
    view: ViewGraph, placed: Any, geometry: Geometry, ids: bool, column: int, least: float
) -> float:
    """Inches beside an outer column (0: profiles, 3: partners) for its labels: enough for
    the longest (none cut at the figure's edge), at least `least`, at most `_MOST_ROOM`."""
    widest = max(
        (
            text_width(label_text(node, data, ids, geometry.grouped), geometry.font)
            for node, data in view.nodes(data=True)
            if placed.pos[node][0] == column
        ),
        default=0.0,
    )
    return min(max(least, (widest * 1.08 + 30) / 72), _MOST_ROOM)


def lay_out(
    view: ViewGraph, key: str | None, labels: LabelStyle, *, stacklevel: int = 3
) -> tuple[Geometry, LayeredLayout]:
    """The view placed (`place_view`), with room beside the outer columns for their labels:
    what both renderers draw (`draw_view`, `topology_svg.view_svg`). A detailed view too
    tall to read warns (`LargeDiagramWarning`, at the caller `stacklevel` frames up)."""
    geometry = Geometry(grouped=key is not None)
    placed = place_view(view, grouped=geometry.grouped)
    if not geometry.grouped and placed.rows > MAX_DETAIL_ROWS:
        warnings.warn(
            f"the diagram draws {placed.rows:,.0f} rows one node each (more than "
            f"{MAX_DETAIL_ROWS}), too many to read: group_by='group', 'agent_type' or "
            "'partner' (--group-by on the command line) draws groups with counts",
            LargeDiagramWarning,
            stacklevel=stacklevel,
        )
    if labels != "none":
        geometry.left = _label_room(view, placed, geometry, labels == "ids", 0, geometry.left)
        geometry.right = _label_room(view, placed, geometry, labels == "ids", 3, geometry.right)
    return geometry, placed


def draw_view(
    view: ViewGraph,
    graph: EstateGraph,
    key: str | None,
    *,
    focused: bool,
    ax: Axes | None,
    labels: LabelStyle,
    title: str | None,
    empty: str = "Nothing to draw: no profiles in this selection",
) -> Figure:
    """Lay a view out and draw it: the one drawing path of topology and diff diagrams."""
    geometry, placed = lay_out(view, key, labels, stacklevel=4)
    handles = legend_handles(view, grouped=geometry.grouped, focused=focused)
    legend_rows = -(-len(handles) // LEGEND_COLUMNS)
    figure, ax = make_axes(placed, geometry, ax, title, graph, key, legend_rows)
    draw_edges(ax, view, placed, geometry, focused)
    sizes = draw_nodes(ax, view, placed, geometry, focused)
    if labels != "none":
        draw_labels(ax, view, placed, geometry, sizes, labels == "ids")
    draw_headers(ax, view, geometry, key)
    if not view.number_of_nodes():  # a filter that selects nothing: say so
        ax.text(
            0.5,
            0.5,
            empty,
            transform=ax.transAxes,
            ha="center",
            va="center",
            fontsize=geometry.font + 2,
            color="#777777",
        )
    draw_legend(figure, ax, handles, geometry)
    return detach(figure) if geometry.own else figure
