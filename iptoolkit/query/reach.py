"""Questions an analyst asks of the estate graph: where is it used, what stops without it,
what is around it, what opening a group of it shows.

All three work on the graph `build_graph` returns, with its edges pointing from the profile
outward: the profiles that use a node are the profile nodes it can be reached from.

>>> import iptoolkit as ipt
>>> G = ipt.build_graph(ipt.demo_estate(n_profiles=50))  # doctest: +SKIP
>>> ipt.where_used(G, "partner:1001")  # doctest: +SKIP
['profile:P0001', 'profile:P0017']
>>> ipt.where_used(G, type="SFTPAgentSettings")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

import networkx as nx

from ..core.nodes import is_active
from ..support.arguments import whole_number
from ..support.names import agreeing, plural, type_matches
from .graph import EstateGraph, require_graph
from .resolve import resolve_node

__all__ = [
    "where_used",
    "impact",
    "neighbourhood",
    "induced_subgraph",
    "group_graph",
    "reached",
    "Impact",
    "graph_order",
    "node_positions",
]

Ref = TypeVar("Ref", bound=Hashable)
"""A node as `impact` is asked for it (a node id, bare id or name): alone or in a list."""


def where_used(
    graph: EstateGraph, node: Hashable | None = None, *, type: str | None = None
) -> list[str]:
    """The profile nodes whose input or response path reaches `node`, in graph order.

    `node` is a node id (`"channel:40003"`), a bare id (`"40003"`) or a partner's or
    channel's name, any case (see `resolve_node`); an ambiguous or unknown one is an error.

    With `type=` instead of a node: the profiles that reach any node of that type, e.g.
    `where_used(G, type="SFTPAgentSettings")`; a short name (`type="AS2"`) names the agent,
    channel and response unit types it is short for (see `nodes.type_matches`).
    A profile counts as using itself. Activity does not matter here; see `impact`.
    """
    require_graph(graph, "where_used")
    if (node is None) == (type is None):
        raise TypeError("where_used() takes a node or type=..., exactly one of them")
    if node is not None:
        targets = {resolve_node(graph, node)}
    else:
        targets = {n for n, kind in graph.nodes(data="type") if type_matches(kind, type)}
    return _in_order(graph, _profiles_reaching(graph, targets))


@dataclass
class Impact:
    """What stops if a node goes away. Only active profiles, units and channels stop.

    - `lose_input`: profiles that receive nothing any more: their agent is gone, or every
      active channel their agent listens on is.
    - `partial_input`: profiles that lose some, not all, of their active input channels.
    - `lose_response`: profiles that lose at least one active response path; the response
      nodes cut are in `responses`.
    - `partners`: partners whose every active channel is gone (the partner itself, when it
      is the node and has active channels).
    """

    node: str
    """The node gone, or the nodes gone together joined with " + "."""
    lose_input: list[str] = field(default_factory=list)
    partial_input: list[str] = field(default_factory=list)
    lose_response: list[str] = field(default_factory=list)
    responses: list[str] = field(default_factory=list)
    partners: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    """Every node gone (one, or the several asked together)."""

    @property
    def profiles(self) -> list[str]:
        """Every profile affected at all, input or response, without repeats."""
        return list(dict.fromkeys([*self.lose_input, *self.partial_input, *self.lose_response]))

    def __bool__(self) -> bool:
        return bool(self.profiles or self.partners)

    def __str__(self) -> str:
        inputs, parts, gone = (
            len(self.lose_input),
            len(self.partial_input),
            len(self.lose_response),
        )
        partners = len(self.partners)
        return (
            f"without {self.node}: {plural(inputs, 'profile')} {agreeing(inputs, 'lose')} "
            f"their input, {parts} {agreeing(parts, 'lose')} part of it, {gone} "
            f"{agreeing(gone, 'lose')} a response path ({plural(len(self.responses), 'path')}), "
            f"{plural(partners, 'partner')} {agreeing(partners, 'lose')} all their active "
            "channels"
        )


def impact(graph: EstateGraph, node: Ref | list[Ref] | tuple[Ref, ...]) -> Impact:
    """What stops if `node` (a channel, partner, agent, response or profile) goes away, or
    if the nodes of a list or tuple go away together (both AS2 channels of a partner, say:
    a profile listening on both loses its input, which neither alone takes).

    A partner takes its channels with it; a profile takes its agent and response paths.
    A node is named as `resolve_node` accepts: `"channel:40003"`, `"40003"`, a name.
    """
    require_graph(graph, "impact")
    asked = list(node) if isinstance(node, list | tuple) else [node]
    if not asked:
        raise ValueError("impact() needs at least one node")
    chosen = list(dict.fromkeys(resolve_node(graph, one) for one in asked))
    # networkx's own dicts, not its views: an HTML file asks this of every item
    given: Any = graph
    nodes, succ, pred = given._node, given._succ, given._pred
    gone = set(chosen)
    for one in chosen:
        kind = nodes[one].get("kind")
        if kind == "partner":
            gone.update(_neighbours(pred, one, nodes, "channel"))
        elif kind == "profile":
            gone.update(succ[one])
    result = Impact(" + ".join(map(str, chosen)), nodes=[str(one) for one in chosen])
    for profile in _in_order(graph, _profiles_reaching(graph, gone)):
        if not is_active(nodes[profile]):
            continue
        for agent in _neighbours(succ, profile, nodes, "agent"):
            live = [c for c in succ[agent] if is_active(nodes[c])]
            hit = [c for c in live if c in gone]
            if profile in gone or agent in gone or (hit and len(hit) == len(live)):
                result.lose_input.append(profile)
            elif hit:
                result.partial_input.append(profile)
        cut = [
            response
            for response in _neighbours(succ, profile, nodes, "response")
            if is_active(nodes[response])
            and (
                profile in gone
                or response in gone
                or any(c in gone and is_active(nodes[c]) for c in succ[response])
            )
        ]
        if cut:
            result.lose_response.append(profile)
            result.responses.extend(cut)
    partners = {one for one in chosen if nodes[one].get("kind") == "partner"}
    for channel in gone:
        if nodes[channel].get("kind") == "channel":
            partners.update(_neighbours(succ, channel, nodes, "partner"))
    for partner in _in_order(graph, partners):
        active = [c for c in _neighbours(pred, partner, nodes, "channel") if is_active(nodes[c])]
        if active and (partner in gone or all(c in gone for c in active)):
            result.partners.append(partner)
    return result


def neighbourhood(graph: EstateGraph, node: Hashable, depth: int = 1) -> EstateGraph:
    """The nodes within `depth` steps of `node`, edges followed either way, as a new graph.

    For drawing: around a partner, depth 1 gives its channels, 2 the agents and response
    paths on them, 3 their profiles. Attributes are kept; the copy is independent.
    """
    require_graph(graph, "neighbourhood")
    whole_number(depth, "depth", 0)
    found = resolve_node(graph, node)
    seen = {found}
    frontier = [found]
    for _ in range(depth):
        step = []
        for current in frontier:
            for other in (*graph.succ[current], *graph.pred[current]):
                if other not in seen:
                    seen.add(other)
                    step.append(other)
        frontier = step
    return induced_subgraph(graph, seen)


def induced_subgraph(
    graph: EstateGraph, nodes: Iterable[Hashable], *, ordered: bool = False, copy: bool = True
) -> EstateGraph:
    """The nodes and the edges between them, as a new graph in the graph's own order.

    Not `graph.subgraph(nodes)`: a subgraph view follows the set's hash order, and drawings
    and exports of a part of the graph must not change between runs. Attributes are copied
    (a level deep); the copy is independent. `ordered`: `nodes` are in the graph's order
    already, each once, so the whole graph is not walked to order them (a part of a part
    of the graph is in the graph's order: the docs site cuts 2,000 parts of a 10,000-profile
    estate's graph by their nodes). `copy=False`: the attribute dicts are the graph's own,
    for a part that is only read, and dropped soon (the levels of the docs site and of the
    HTML file, each laid out once: the copies were half the cut).
    """
    if ordered:
        order = list(nodes)
        chosen = set(order)
    else:
        chosen = set(nodes)
        order = [node for node in graph if node in chosen]
    result: EstateGraph = nx.MultiDiGraph(**graph.graph)
    # Filled as `add_nodes_from` and `add_edge` fill it (a node's dicts, then each edge's
    # key dict shared by both ends), without their checks per call, read from the dicts
    # behind the graph's views: an HTML file cuts 1,700 parts, and the calls were most of
    # the cut.
    inner: Any = result  # the adjacency dicts networkx documents as its data structure
    node_data, succ_out, pred_out = inner._node, inner._succ, inner._pred
    given: Any = graph
    node_in, succ_in = given._node, given._succ
    for node in order:
        node_data[node] = dict(node_in[node]) if copy else node_in[node]
        succ_out[node], pred_out[node] = {}, {}
    for source in order:
        out = succ_out[source]
        for target, edges in succ_in[source].items():
            if target in chosen:
                keyed = {key: dict(data) for key, data in edges.items()} if copy else edges
                out[target] = pred_out[target][source] = keyed
    return result


def group_graph(
    graph: EstateGraph,
    members: Iterable[Hashable],
    *,
    copy: bool = True,
    positions: Mapping[str, int] | None = None,
) -> EstateGraph:
    """What expanding a group shows: its members and everything on their paths (the
    profiles that reach them, the channels and partners they reach). `copy=False`: a part
    only read, holding the graph's attribute dicts (`induced_subgraph`). `positions`: the
    graph's `node_positions`, kept by a caller opening many of its groups: the part is
    put in the graph's order by them, not by a walk of the whole graph per group (at
    100,000 profiles, a sixteenth of an HTML file's levels)."""
    starts = [node for node in members if isinstance(node, str) and node in graph]
    adjacency: Any = graph  # walked in networkx's own dicts, not through its views
    chosen = reached(adjacency._succ, starts) | reached(adjacency._pred, starts)
    if positions is not None:
        order = sorted(chosen, key=positions.__getitem__)
        return induced_subgraph(graph, order, ordered=True, copy=copy)
    return induced_subgraph(graph, chosen, copy=copy)


def reached(adjacency: Mapping[Any, Iterable[Any]], starts: Iterable[Any]) -> set[Any]:
    """`starts` and every node reached from one of them along `adjacency` (a graph's
    `succ`: descendants; its `pred`: ancestors), in one walk for all of them, without
    `nx.descendants`' dispatch per call: a drill-down's group of 2,000 profiles once
    walked from each, a fifth of an HTML file's time."""
    seen = set(starts)
    stack = list(seen)
    while stack:
        for other in adjacency[stack.pop()]:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return seen


def _profiles_reaching(graph: EstateGraph, targets: Iterable[str]) -> set[str]:
    seen = set(targets)
    stack = list(seen)
    given: Any = graph  # networkx's own dicts, not its views
    pred, nodes = given._pred, given._node
    while stack:
        for other in pred[stack.pop()]:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return {n for n in seen if nodes[n].get("kind") == "profile"}


def _neighbours(
    adjacency: Mapping[str, Iterable[str]],
    node: str,
    nodes: Mapping[str, Mapping[str, Any]],
    kind: str,
) -> list[str]:
    """The neighbours of one kind, along `graph.succ` or `graph.pred`."""
    return [other for other in adjacency[node] if nodes[other].get("kind") == kind]


_ORDER: ContextVar[tuple[EstateGraph, dict[str, int]] | None] = ContextVar(
    "graph_order", default=None
)


@contextmanager
def graph_order(graph: EstateGraph, positions: dict[str, int] | None = None) -> Iterator[None]:
    """Within it, `where_used` and `impact` on `graph` put their answers in the graph's
    order by a table of positions made once, rather than a walk of the whole graph per
    question: for many questions of one graph (an HTML file asks two per item: 9 s of a
    10,000-profile estate's 35). The graph must not change inside; the answers are the
    same as without it. `positions`: that table (`node_positions`), when the caller keeps
    it for many blocks."""
    table = node_positions(graph) if positions is None else positions
    token = _ORDER.set((graph, table))
    try:
        yield
    finally:
        _ORDER.reset(token)


def node_positions(graph: EstateGraph) -> dict[str, int]:
    """Each node's position in the graph's order (which follows the listing)."""
    return {node: number for number, node in enumerate(graph)}


def _in_order(graph: EstateGraph, chosen: set[str]) -> list[str]:
    """`chosen` in the graph's node order, which follows the listing: stable output."""
    if not chosen:
        return []
    known = _ORDER.get()
    if known is not None and known[0] is graph and len(known[1]) == len(graph):
        return sorted(chosen, key=known[1].__getitem__)
    return [n for n in graph if n in chosen]
