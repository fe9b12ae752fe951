"""`plot_diff`: what changed between two snapshots, drawn on the union of their topologies.

The same layered diagram as `plot_topology` (same views, layout and drawing), coloured by
diff status instead of by kind: added items green, removed ones red and dashed, changed
ones amber, unchanged ones faded grey; the markers keep their kind's shape. Large estates
are drawn as groups with counts, each label saying how many members were added (+),
removed (−) and changed (~).

>>> fig = ipt.plot_diff(ipt.diff(last_week, today))  # doctest: +SKIP
>>> fig.savefig("changes.png")  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..query.graph import release
from ..query.reach import induced_subgraph
from ..topology.diffstatus import diff_graph, mark_view
from ..topology.view import detail_view, grouped_view
from .backend import literal_text
from .topology import Labels, check_options, draw_view, grouping

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..change.estate_diff import EstateDiff
    from ..core.estate import Estate
    from ..query.graph import EstateGraph
    from ..topology.view import ViewGraph

__all__ = ["plot_diff", "diff_svg", "diff_view", "diff_title", "diff_heading"]


@literal_text
def plot_diff(
    diff: EstateDiff,
    *,
    ax: Axes | None = None,
    group_by: str | Literal[False] | None = None,
    only_changed: bool = False,
    labels: Labels = "auto",
    title: str | None = None,
) -> Figure:
    """Draw what changed from `diff.old` to `diff.new` and return the figure.

    - `group_by`: as in `plot_topology` (None groups by profile group when the union graph
      is too big to draw node by node; False never groups).
    - `only_changed`: draw only the items that changed and their neighbours (a profile
      with its agent and response units), so a handful of changes in a large estate is
      drawn node by node.
    - `labels`, `ax`: as in `plot_topology`; `title`: None for one naming the two snapshots
      and counting the changes, `""` for none.
    """
    labels = check_options(labels, group_by)
    view, graph, key = diff_view(diff, group_by=group_by, only_changed=only_changed)
    return draw_view(
        view,
        graph,
        key,
        focused=False,
        ax=ax,
        labels=labels,
        title=diff_title(diff) if title is None else title,
        empty=_empty(only_changed),
    )


def diff_svg(
    diff: EstateDiff,
    *,
    group_by: str | Literal[False] | None = None,
    only_changed: bool = False,
    title: str | None = None,
    graphs: tuple[EstateGraph, EstateGraph] | None = None,
) -> str:
    """`plot_diff`'s picture (same options) as an SVG document, written directly
    (`plot.topology_svg`: the docs site's changelog, without a matplotlib figure);
    `graphs`: both estates' graphs (old, new) when built already, left as they are."""
    from .canvas import title_text
    from .topology_svg import view_svg

    check_options("auto", group_by)
    view, graph, key = diff_view(diff, group_by=group_by, only_changed=only_changed, graphs=graphs)
    text = title_text(graph, key, diff_title(diff) if title is None else title)
    svg = view_svg(view, text, key, labels="auto", empty=_empty(only_changed))
    release(graph)  # both estates' graphs in one, dropped: no cycle for the collector
    return svg


def diff_view(
    diff: EstateDiff,
    *,
    group_by: str | Literal[False] | None,
    only_changed: bool,
    graphs: tuple[EstateGraph, EstateGraph] | None = None,
) -> tuple[ViewGraph, EstateGraph, str | None]:
    """The view a diff diagram draws (grouped as `plot_topology` groups), marked with each
    item's status; the union graph it shows (of `graphs`, old and new, when given:
    `diff_graph`); what it is grouped by."""
    from ..change.estate_diff import EstateDiff

    if not isinstance(diff, EstateDiff):
        raise TypeError(f"plot_diff: expected an EstateDiff (from ipt.diff), not {diff!r:.80}")
    marked = diff_graph(diff, graphs)
    graph = marked.graph
    if only_changed:
        graph = induced_subgraph(graph, _changed_and_around(graph, marked.nodes))
    key = grouping(graph, group_by)
    view = grouped_view(graph, key) if key else detail_view(graph)
    mark_view(view, marked)
    return view, graph, key


def _empty(only_changed: bool) -> str:
    return "Nothing changed" if only_changed else "Nothing to draw: both estates are empty"


def _changed_and_around(graph: EstateGraph, status: dict[str, str]) -> set[str]:
    """Changed nodes, their neighbours, and the profile of every agent or unit drawn."""
    chosen = {node for node, state in status.items() if state != "unchanged"}
    for node in list(chosen):
        chosen.update(graph.pred[node])
        chosen.update(graph.succ[node])
    for node in list(chosen):
        if graph.nodes[node].get("kind") in ("agent", "response"):
            chosen.update(graph.pred[node])
    return chosen


def diff_heading(diff: EstateDiff) -> str:
    """`Changes: 2026-11-16 10:00 → 2026-11-23 10:00`: the title of a page whose next line
    counts the changes (an HTML file's: the counts twice pushed its map below the fold)."""
    return f"Changes: {_when(diff.old, 'old')} → {_when(diff.new, 'new')}"


def diff_title(diff: EstateDiff) -> str:
    """`Changes: 2026-11-16 10:00 → 2026-11-23 10:00: profiles 3 added, 1 changed; 2 breaking`."""
    counts = diff.counts()
    parts = []
    for kind in ("profile", "channel", "partner"):
        done = [f"{n:,} {op}" for op, n in counts[kind].items() if n]
        if done:
            parts.append(f"{kind}s {', '.join(done)}")
    breaking = counts["severity"]["breaking"]
    summary = "; ".join(parts) if parts else "no change"
    if breaking:
        summary += f"; {breaking:,} breaking"
    return f"{diff_heading(diff)}: {summary}"


def _when(estate: Estate, fallback: str) -> str:
    fetched = estate.info.fetched_at
    return fetched.strftime("%Y-%m-%d %H:%M") if fetched else f"{fallback} snapshot"
