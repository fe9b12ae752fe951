"""Which view the interactive topology draws next: the overview, a group opened, an item's
neighbourhood. Plain data (`ViewData`), no widget.

- **auto**: a graph is drawn node by node when its tallest column fits the canvas, or a
  taller one of `SCROLL_PAGES` canvases that scrolls (`topology_fit.fits`), else grouped
  by the first of `DRILL_ORDER` that splits its profiles into more than one group:
  subgroups first (`Finance` -> `Finance/AP`, `Finance/AR`...), then input agent type,
  then partner, and last consecutive names (`by_name_ranges`).
- **drill**: opening a group draws its members and everything on their paths (`group_graph`)
  the same way, so a 2,337-profile group opens on its subgroups, and each click goes one
  level down until a group is small enough to draw node by node.
- **neighbourhood**: the items within `depth` steps of one item (edges followed either way),
  and `expand` adds one item's neighbours to what is shown.
- **paths**: how one item reaches another (`query.paths`): the nodes on the paths, and
  around them, faded, their neighbours while few (`PATH_CONTEXT`); the two ends ringed.
"""

from __future__ import annotations

import operator
import weakref
from collections import Counter
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from ..query.paths import Paths
from ..query.reach import group_graph
from ..topology.style import COLUMN_OF_KIND
from .topology_data import ViewData, grouped_data, view_data
from .topology_fit import MIN_ROW_PX, SCROLL_PAGES, Canvas, fits

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from ..topology.view import GroupedViews

__all__ = [
    "DRILL_ORDER",
    "tallest_column",
    "auto_view",
    "drill_view",
    "neighbourhood_nodes",
    "expand_nodes",
    "neighbourhood_view",
    "PATH_CONTEXT",
    "paths_view",
]

DRILL_ORDER = ("group", "agent_type", "partner")
"""What a view too tall to draw node by node is grouped by, first that splits it."""
_SLACK = 1.1
"""The layout needs a few rows more than its tallest column (nodes placed near their
neighbours leave gaps)."""


def tallest_column(graph: EstateGraph) -> int:
    """Nodes in the fullest column of the graph drawn node by node (counted once a graph:
    a walk over every node, which each layout of a view asked for again, and which in a
    kernel forked from the app's zygote copies every page the nodes sit on)."""
    known = _TALLEST.get(graph)
    if known is None:
        nodes: Any = graph  # its node dicts read as networkx keeps them, not through a view
        counts: Counter[int] = Counter()
        for kind, count in Counter(map(_KIND, nodes._node.values())).items():  # no frame
            counts[COLUMN_OF_KIND.get(str(kind), 1)] += count  # per node: a tenth of a level
        known = _TALLEST[graph] = max(counts.values(), default=0)
    return known


_KIND = operator.methodcaller("get", "kind")
_TALLEST: weakref.WeakKeyDictionary[EstateGraph, int] = weakref.WeakKeyDictionary()
"""`tallest_column` of each graph alive (a graph is not changed once built)."""


def auto_view(
    graph: EstateGraph,
    *,
    canvas: Canvas,
    focus: set[Hashable] | None = None,
    order: Iterable[str] = DRILL_ORDER,
    views: GroupedViews | None = None,
) -> ViewData:
    """Node by node if it fits `canvas`, else grouped by the first of `order` that makes
    more than one profile group (see the module docstring). `views`: the graph's grouped
    views made once, shared (`topology_data.grouped_data`): the Explorer's static copy and
    a docs page's SVG draw them too."""
    if fits(tallest_column(graph) * _SLACK, canvas, pages=SCROLL_PAGES):
        return view_data(graph, group_by=None, focus=focus, canvas=canvas)
    for group_by in order:
        data = grouped_data(
            graph, group_by=group_by, focus=focus, canvas=canvas, min_profile_groups=2, views=views
        )
        if data is not None:
            return data
    ranges = by_name_ranges(graph, canvas)
    if ranges is not None:
        return view_data(ranges, group_by="group", focus=focus, canvas=canvas)
    return view_data(graph, group_by=None, focus=focus, canvas=canvas)


def by_name_ranges(graph: EstateGraph, canvas: Canvas) -> EstateGraph | None:
    """The last resort when no group, agent type or partner splits the profiles: a copy of
    the graph whose profiles are put in groups of consecutive names, each small enough to
    draw node by node (`profiles 1-40 by name`); None when one such group holds them all."""
    profiles = sorted(
        (node for node, data in graph.nodes(data=True) if data.get("kind") == "profile"),
        key=lambda node: (str(graph.nodes[node].get("name") or "").lower(), str(node)),
    )
    tallest = max(tallest_column(graph), 1)
    rows = max(int(canvas.inner_height * SCROLL_PAGES / MIN_ROW_PX / _SLACK), 1)
    per = max(int(len(profiles) * rows / tallest), 1)
    if per >= len(profiles):
        return None
    copy = graph.copy()
    for start in range(0, len(profiles), per):
        chunk = profiles[start : start + per]
        label = f"profiles {start + 1:,}\u2013{start + len(chunk):,} by name"
        for node in chunk:
            copy.nodes[node]["group"] = label
    return copy


def drill_view(
    graph: EstateGraph,
    members: Iterable[Hashable],
    *,
    canvas: Canvas,
    focus: set[Hashable] | None = None,
) -> ViewData:
    """What opening a group shows: its members and their paths (`group_graph`'s part,
    read in place: its attributes shared with `graph`, not copied), drawn as `auto_view`
    says."""
    return auto_view(group_graph(graph, members, copy=False), canvas=canvas, focus=focus)


def neighbourhood_nodes(graph: EstateGraph, node: str, depth: int = 1) -> set[str]:
    """The nodes within `depth` steps of `node`, edges followed either way (`node` too)."""
    if node not in graph:
        raise KeyError(f"neighbourhood: no item {node!r} in this estate")
    if depth < 0:
        raise ValueError(f"neighbourhood: depth must be 0 or more, not {depth}")
    seen = {node}
    frontier = {node}
    for _ in range(depth):
        frontier = {
            other
            for item in frontier
            for other in (*graph.pred[item], *graph.succ[item])
            if other not in seen
        }
        if not frontier:
            break
        seen |= frontier
    return seen


def expand_nodes(graph: EstateGraph, shown: set[Hashable], node: str) -> set[Hashable]:
    """`shown` with `node`'s neighbours added (expanding it in place)."""
    return shown | neighbourhood_nodes(graph, node, 1)


def neighbourhood_view(
    graph: EstateGraph, shown: set[Hashable], centre: Hashable, *, canvas: Canvas
) -> ViewData:
    """The nodes shown, node by node, the centre ringed (its halo)."""
    from ..query.reach import induced_subgraph

    data = view_data(induced_subgraph(graph, shown), group_by=None, canvas=canvas)
    key = str(centre)
    if key in data.graph:
        ratio = data.camera["ratio"] if data.camera else 1.0
        data.graph.nodes[key]["halo"] = round(6.0 * ratio**0.5, 3)
    return data


PATH_CONTEXT = 120
"""Most nodes a paths view draws around its paths (faded, their neighbours): a path
through a partner of 500 channels shows the paths alone."""


def paths_view(graph: EstateGraph, found: Paths, *, canvas: Canvas) -> ViewData:
    """The paths of `found` node by node, what is off them faded (the highlight's fading),
    its two ends ringed."""
    from ..query.reach import induced_subgraph

    ends = found.nodes or [found.a, found.b]
    on_paths: set[Hashable] = set(ends)
    shown = set(on_paths)
    for node in ends:
        shown.update(graph.pred[node])
        shown.update(graph.succ[node])
    if len(shown) > PATH_CONTEXT:
        shown = on_paths
    data = view_data(induced_subgraph(graph, shown), group_by=None, focus=on_paths, canvas=canvas)
    ratio = data.camera["ratio"] if data.camera else 1.0
    for end in (found.a, found.b):
        if end in data.graph:
            data.graph.nodes[end]["halo"] = round(9.0 * ratio**0.5, 3)
    return data
