"""What a topology diagram shows: the estate graph turned into a small graph of drawn items.

Two views share one shape (a `networkx.DiGraph` whose nodes and edges carry what the
drawing needs), so layout and drawing do not care which one they get:

- `detail_view`: every node once, parallel edges merged;
- `grouped_view`: nodes merged into groups with counts, so a 10,000-profile estate gives a
  legible overview. Profiles are grouped by `group_by` (`group`, `agent_type` or
  `partner`); agents, response units and channels by their type; partners stay
  themselves up to a limit, the rest become one "other partners" node.

Node attributes: `kind`, `label`, `type`, `count`, `inactive` (how many of `count` are
not active), `unresolved`, `problem`, `focus`, `members`, and in the grouped view `reach`
(how many profiles have a path to the group). Edge attributes: `direction`
(`in`, `out`, `link`), `style` (the direction, or `ref` for a channel named only by its
id), `weight` (underlying edges), `inactive` (true when every
underlying edge touches an inactive node), `focus`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from collections.abc import Set as AbstractSet
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeAlias

import networkx as nx

from ..core.estate import Estate
from ..core.nodes import is_active
from ..models import gc_paused
from ..query.paths import Paths
from ..query.reach import Impact
from ..query.resolve import resolve_node
from ..support.names import type_label
from ..support.printable import drop_unprintable
from ..support.redact import redact_text
from .grouping import MAX_PER_COLUMN, Key, Reach, cap_groups, group_keys
from .style import direction_of, line_style_of

if TYPE_CHECKING:
    from ..query.graph import EstateGraph

__all__ = [
    "EstateOrGraph",
    "Highlight",
    "ViewGraph",
    "graph_of",
    "GROUP_BY",
    "MAX_PER_COLUMN",
    "detail_view",
    "grouped_view",
    "GroupedViews",
    "profile_group_count",
    "focus_set",
    "node_label",
    "item_label",
    "channel_counts",
]

EstateOrGraph: TypeAlias = "Estate | EstateGraph"
"""What diagrams and exports draw: an estate (or a subset), or a graph built from one."""
Highlight: TypeAlias = "str | Impact | Paths | nx.Graph[str] | Iterable[Hashable] | None"
"""What `plot_topology(highlight=...)` accepts (see `focus_set`)."""
ViewGraph: TypeAlias = "nx.DiGraph[Hashable]"
"""What `detail_view` and `grouped_view` give: nodes are the graph's node ids (detail) or
`(kind, label, type)` keys (grouped). (The aliases are strings: networkx's graphs take no
type arguments at run time.)"""
GROUP_BY: tuple[str, ...] = ("group", "agent_type", "partner")


def graph_of(estate_or_graph: EstateOrGraph) -> tuple[EstateGraph, Estate | None]:
    """(graph, estate) from an estate or a graph; the estate is None for a graph."""
    if isinstance(estate_or_graph, nx.Graph):
        return estate_or_graph, None
    if isinstance(estate_or_graph, Estate):
        from ..query.graph import build_graph

        return build_graph(estate_or_graph), estate_or_graph
    raise TypeError(f"expected an Estate or a networkx graph, not {type(estate_or_graph).__name__}")


# -- focus (highlight) --------------------------------------------------------------------


def focus_set(graph: EstateGraph, highlight: Highlight) -> set[Hashable] | None:
    """The nodes to emphasise, from what `plot_topology(highlight=...)` accepts.

    - a node id, bare id or name (see `resolve_node`): the node and everything on its
      paths, upstream (the profiles and agents that use a channel) and downstream (the
      channels and partners a profile reaches);
    - an `Impact` (from `ipt.impact`): the node and everything it stops, with the paths
      that are cut (a partner's channels, the agents of profiles that lose input);
    - `Paths` (from `ipt.paths`): the nodes on the paths;
    - a graph (e.g. from `ipt.neighbourhood`): its nodes;
    - any other iterable: exactly those items.
    """
    if highlight is None:
        return None
    if isinstance(highlight, str):
        node = resolve_node(graph, highlight, what="highlight")
        return {node, *nx.ancestors(graph, node), *nx.descendants(graph, node)}
    if isinstance(highlight, Impact):
        gone = highlight.node
        chosen = {gone, *highlight.profiles, *highlight.responses, *highlight.partners}
        if gone in graph and _kind(graph, gone) == "partner":  # its channels go with it
            chosen.update(c for c in graph.pred[gone] if _kind(graph, c) == "channel")
        for profile in [*highlight.lose_input, *highlight.partial_input]:
            chosen.update(v for v in graph.succ.get(profile, ()) if _kind(graph, v) == "agent")
        return {node for node in chosen if node in graph}
    if isinstance(highlight, Paths):
        return {node for node in highlight.nodes if node in graph}
    if isinstance(highlight, nx.Graph):
        return {node for node in highlight if node in graph}
    if isinstance(highlight, Iterable):
        return {resolve_node(graph, node, what="highlight") for node in highlight}
    raise TypeError(f"highlight: expected a node id, ids, a graph or an Impact, not {highlight!r}")


# -- one node per node --------------------------------------------------------------------


def node_label(graph: EstateGraph, node: str) -> str:
    """The words a reader wants next to a node, before shortening; masked
    (`redact_text`), since names and response targets may hold a URL with a password, and
    without control characters (`drop_unprintable`), which no font draws."""
    return redact_text(drop_unprintable(_plain_label(graph, node)))


def _plain_label(graph: EstateGraph, node: str) -> str:
    data = graph.nodes[node]
    kind = data.get("kind")
    name = data.get("name")
    if isinstance(name, str) and not name.strip():
        name = None  # a name of white space only draws as no label: the id stands in
    if kind == "agent":
        return f"{name or type_label(data.get('type'))} agent"
    if kind == "response":
        where = data.get("target") or data.get("url") or data.get("host")
        text = type_label(data.get("type"))
        return f"{text} → {where}" if where else f"{text} response"
    if kind == "channel" and data.get("resolved") is False:
        return f"id {data.get('id', node)} not found"
    if isinstance(name, str) and name:
        return name
    ident = data.get("id")
    return str(ident) if ident is not None else str(node).partition(":")[2] or str(node)


def item_label(data: dict[str, Any], *, inactive: bool = True) -> str:
    """A grouped item's label with its count, as diagrams and Mermaid charts show it:
    `SFTP (12, 3 inactive)`; a partner standing alone keeps its bare name. Without
    `inactive`, the count alone (`SFTP (12)`): the interactive view's label, which says
    the inactive on hover and in the details, and draws an all-inactive node grey."""
    count = data["count"]
    if data["kind"] == "partner" and count == 1:
        return str(data["label"])
    off = data["inactive"] if inactive else 0
    if data["unresolved"] or off == 0:
        detail = f"{count:,}"
    elif off >= count:
        detail = f"{count:,}, all inactive"
    else:
        detail = f"{count:,}, {off:,} inactive"
    return f"{data['label']} ({detail})"


def channel_counts(graph: EstateGraph) -> tuple[int, int]:
    """(channels, unresolved channel ids) among the graph's channel nodes, counted apart as
    `Estate.summary` counts them: an id that no profile holds is not a channel."""
    channels = unresolved = 0
    for _, data in graph.nodes(data=True):
        if data.get("kind") == "channel":
            if data.get("resolved") is False:
                unresolved += 1
            else:
                channels += 1
    return channels, unresolved


def detail_view(graph: EstateGraph, focus: AbstractSet[Hashable] | None = None) -> ViewGraph:
    """Every node of the graph once; parallel edges merged, counted in `weight`."""
    view: ViewGraph = nx.DiGraph()
    nodes = {
        node: {
            "kind": data.get("kind"),
            "label": node_label(graph, node),
            "type": data.get("type"),
            "group": data.get("group"),
            "count": 1,
            "inactive": 0 if _counts_active(data) else 1,
            "unresolved": data.get("resolved") is False,
            "problem": bool(data.get("problem")),
            "focus": focus is None or node in focus,
            "members": [node],
            "owner": _owner_name(graph, data),
        }
        for node, data in graph.nodes(data=True)
    }
    view.add_nodes_from(nodes.items())
    edges: dict[tuple[str, str], dict[str, Any]] = {}  # made in plain dicts, added at once
    relations: Iterable[tuple[str, str, str | None]] = graph.edges(data="relation")
    for u, v, relation in relations:
        if (u, v) in edges:
            edges[u, v]["weight"] += 1
            continue
        edges[u, v] = {
            "direction": direction_of(relation),
            "style": line_style_of(relation),
            "weight": 1,
            "inactive": bool(nodes[u]["inactive"] or nodes[v]["inactive"]),
            "focus": focus is not None and u in focus and v in focus,
        }
    view.add_edges_from((u, v, edge) for (u, v), edge in edges.items())
    return view


def _owner_name(graph: EstateGraph, data: dict[str, Any]) -> str | None:
    """The name of the profile an agent or response unit belongs to, or its id when the
    graph does not hold it (None for other kinds): it tells apart the six "AS2 agent"s
    around one channel."""
    owner = data.get("profile") if data.get("kind") in ("agent", "response") else None
    if owner is None:
        return None
    if owner in graph:
        return node_label(graph, owner)
    return str(owner).partition(":")[2] or str(owner)  # its id: the profile is not shown


def _counts_active(data: dict[str, Any]) -> bool:
    """Drawn as active? Unresolved references say nothing about activity: not faded."""
    if data.get("resolved") is False:
        return True
    return is_active(data)


# -- groups -------------------------------------------------------------------------------


def grouped_view(
    graph: EstateGraph,
    group_by: str = "group",
    focus: AbstractSet[Hashable] | None = None,
    *,
    max_per_column: dict[str, int] | None = None,
) -> ViewGraph:
    """Nodes merged into groups (see the module docstring); counts on nodes and edges."""
    _check_group_by(group_by)
    limits = max_per_column or MAX_PER_COLUMN
    with gc_paused():  # hundreds of thousands of keys and sets, none in a cycle
        reach = _reach(graph)
        keys = cap_groups(group_keys(graph, group_by), reach, limits, group_by)
        return _merged(graph, keys, reach, focus)


def _check_group_by(group_by: str) -> None:
    if group_by not in GROUP_BY:
        raise ValueError(f"group_by must be one of {', '.join(GROUP_BY)}, not {group_by!r}")


def _merged(
    graph: EstateGraph,
    keys: dict[str, Key],
    reach: Reach,
    focus: AbstractSet[Hashable] | None,
) -> ViewGraph:
    """The grouped view of `graph`, each node merged into its group of `keys` (the
    counts gathered in plain dicts, the view made at the end: 400,000 nodes and 600,000
    edges at 100,000 profiles)."""
    items: dict[Key, dict[str, Any]] = {}
    active: dict[str, bool] = {}  # read once per node: edges ask again for both ends
    for node, data in graph.nodes(data=True):
        on = active[node] = _counts_active(data)
        key = keys[node]
        item = items.get(key)
        if item is None:
            kind, label, type_name = key
            item = items[key] = {
                "kind": kind,
                "label": redact_text(drop_unprintable(label)),
                "type": type_name,
                "count": 0,
                "inactive": 0,
                "unresolved": False,
                "problem": False,
                "focus": focus is None,
                "members": [],
            }
        item["count"] += 1
        if not on:
            item["inactive"] += 1
        if data.get("resolved") is False:
            item["unresolved"] = True
        if data.get("problem"):
            item["problem"] = True
        if focus is not None and node in focus:
            item["focus"] = True
        item["members"].append(node)
    nothing: frozenset[int] = frozenset()
    for item in items.values():
        item["unresolved"] = item["unresolved"] and item["kind"] == "channel"
        # a tuple: what every layout of the view hands on (`tuple()` of it is itself, so a
        # kernel forked from the app's zygote copies no page to lay a kept view out again)
        members = item["members"] = tuple(item["members"])
        if len(members) == 1:
            item["reach"] = len(reach.get(members[0], nothing))
        else:
            item["reach"] = len(nothing.union(*(reach.get(node, nothing) for node in members)))
    view: ViewGraph = nx.DiGraph()
    view.add_nodes_from(items.items())
    view.add_edges_from(
        (a, b, edge) for (a, b), edge in _merged_edges(graph, keys, active, focus).items()
    )
    return view


def _merged_edges(
    graph: EstateGraph,
    keys: dict[str, Key],
    active: dict[str, bool],
    focus: AbstractSet[Hashable] | None,
) -> dict[tuple[Key, Key], dict[str, Any]]:
    """The grouped view's edges by their ends, in the order first met; parallel edges of
    one pair of the graph count once (the first one's relation stands for them)."""
    merged: dict[tuple[Key, Key], dict[str, Any]] = {}
    looks: dict[Any, tuple[str, str]] = {}  # relation -> (direction, line style)
    multi = graph.is_multigraph()
    # the dicts behind graph.succ: walking its views cost a second over 600,000 edges
    succ: dict[str, dict[str, Any]] = graph._succ  # type: ignore[attr-defined]  # untyped
    for u, targets in succ.items():
        a, u_on = keys[u], active[u]
        for v, attrs in targets.items():
            relation = (next(iter(attrs.values()), {}) if multi else attrs).get("relation")
            look = looks.get(relation)
            if look is None:
                look = looks[relation] = (direction_of(relation), line_style_of(relation))
            ends = (a, keys[v])
            edge = merged.get(ends)
            if edge is None:
                edge = merged[ends] = {
                    "direction": look[0],
                    "style": "ref",
                    "weight": 0,
                    "focus": False,
                    "inactive": True,
                }
            if look[1] != "ref":  # a group edge is dotted only if all of it is
                edge["style"] = look[1]
            edge["weight"] += 1
            if u_on and active[v]:
                edge["inactive"] = False
            if focus is not None and u in focus and v in focus:
                edge["focus"] = True
    return merged


def profile_group_count(
    graph: EstateGraph, group_by: str, *, max_per_column: dict[str, int] | None = None
) -> int:
    """How many profile groups `grouped_view(graph, group_by)` draws, without drawing it:
    a drill-down tries groupings in turn and takes the first that splits its profiles."""
    _check_group_by(group_by)
    limits = max_per_column or MAX_PER_COLUMN
    with gc_paused():
        keys = group_keys(graph, group_by, profiles_only=group_by == "group")
        return _profile_groups(keys, limits, group_by)


def _profile_groups(keys: dict[str, Key], limits: dict[str, int], group_by: str) -> int:
    """The profile groups of `keys` once merged as `grouped_view` merges them (`_cap`),
    whose ranking of profile, agent and response groups by size needs no reach (only
    partners are ranked by it)."""
    capped = cap_groups(keys, {}, limits, group_by)
    return len({key for key in capped.values() if key[0] == "profile"})


class GroupedViews:
    """The grouped views of one graph, without a focus, each grouping's groups and view
    made once: the Explorer's live overview and the static copy of one selection draw
    the same view, a drill-down counts a grouping's profile groups before it draws it,
    and a canvas resized lays the same view out again. A view handed out is shared: read
    it, never change it. The graph must not change either."""

    def __init__(self, graph: EstateGraph, *, max_per_column: dict[str, int] | None = None):
        self.graph = graph
        self._limits = max_per_column or MAX_PER_COLUMN
        self._keys: dict[str, dict[str, Key]] = {}
        self._views: dict[str, ViewGraph] = {}

    def profile_groups(self, group_by: str, *, once: bool = False) -> int:
        """`profile_group_count(graph, group_by)`: from its view once made, else from its
        groups, kept for `view`. `once`: asked once, the view drawn only if enough, so
        subgroups are counted from the profiles alone (a drill-down refuses them at most
        of its levels, and their other groups were a tenth of its time)."""
        view = self._views.get(group_by)
        if view is not None:
            return sum(1 for kind in view.nodes.values() if kind["kind"] == "profile")
        if once and group_by == "group" and group_by not in self._keys:
            return profile_group_count(self.graph, group_by, max_per_column=self._limits)
        return _profile_groups(self._group_keys(group_by), self._limits, group_by)

    def view(self, group_by: str, focus: AbstractSet[Hashable] | None = None) -> ViewGraph:
        """`grouped_view(graph, group_by, focus)`: without a focus, made on first use and
        kept; with one, made anew (from the groups kept)."""
        view = self._views.get(group_by) if focus is None else None
        if view is None:
            with gc_paused():
                reach = _reach(self.graph)
                keys = cap_groups(self._group_keys(group_by), reach, self._limits, group_by)
                view = _merged(self.graph, keys, reach, focus)
            if focus is None:
                self._views[group_by] = view
                self._keys.pop(group_by, None)  # 400,000 keys at 100k: the view says it all
        return view

    def _group_keys(self, group_by: str) -> dict[str, Key]:
        _check_group_by(group_by)
        keys = self._keys.get(group_by)
        if keys is None:
            with gc_paused():
                keys = self._keys[group_by] = group_keys(self.graph, group_by)
        return keys


def _reach(graph: EstateGraph) -> Reach:
    """For every node, the profiles whose paths reach it (a profile reaches itself), as
    sets of profile numbers, a node with one predecessor sharing its set: as bits of an
    int, one per profile, each agent and partner held an int of 100,000 bits (gigabytes
    at 100,000 profiles, seconds to merge), where a profile reaches a few nodes only.

    Edges point from the profile outward, so one pass over the kinds in column order
    carries each profile along its paths.
    """
    reach: Reach = {}
    order: dict[str | None, int] = {
        "profile": 0,
        "agent": 1,
        "response": 1,
        "channel": 2,
        "partner": 3,
    }
    columns: list[list[str]] = [[], [], [], [], []]
    for node, data in graph.nodes(data=True):
        columns[order.get(data.get("kind"), 4)].append(node)
    for number, node in enumerate(columns[0]):  # every profile before what it reaches
        reach[node] = frozenset((number,))
    nothing: frozenset[int] = frozenset()
    pred: dict[str, dict[str, Any]] = graph._pred  # type: ignore[attr-defined]  # no views
    for node in chain.from_iterable(columns[1:]):
        before = pred[node]
        if len(before) == 1:
            reach[node] = reach.get(next(iter(before)), nothing)
            continue
        found: set[int] = set()
        for other in before:
            found.update(reach.get(other, nothing))
        reach[node] = found
    return reach


def _kind(graph: EstateGraph, node: str) -> Any:
    return graph.nodes[node].get("kind")
