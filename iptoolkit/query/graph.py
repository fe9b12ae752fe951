"""The estate as a directed multigraph: profiles, their agents and response paths, channels
and partners, with edges pointing from the profile outward.

    profile -input-> agent -listens_on-> channel -belongs_to-> partner
                           -references-> channel            (named only by id)
    profile -delivers-> response -via-> channel -belongs_to-> partner

Node ids are described in `iptoolkit.core.records` (`profile:P1`, `channel:17`, ...). Every node
carries `kind` and flat scalar attributes to filter or colour by (`name`, `type`, `active`,
`group`, `partner`, `host`, `url`, ...) and, for drill-down, what it was read from: a
profile its index record under `record` (`record.raw`, `record.model`), a channel or
partner its registry model under `model`, an agent or response unit its JSON object under
`json`. (No profile model is built to draw a graph: they are built on first use.)

- A channel or partner met in many profiles is one node, with the content first seen (the
  estate's registry). When the same channel id names different partners in different
  profiles (a conflict, reported by `findings`), the channel gets an edge to each: a
  where-used question then over-reports rather than misses.
- A channel id named by a profile but held by no profile is a node with `resolved=False`
  (an unresolved channel id, `estate.unresolved`; not counted as a channel).
- Faulty profiles (`estate.problems`) are profile nodes with `problem=True`, the error in
  `error` and no edges: they could not be read, but nothing is hidden.

>>> import iptoolkit as ipt
>>> G = ipt.build_graph(ipt.Estate.from_raw([{"id": "P1"}]))
>>> dict(G.nodes(data="kind"))
{'profile:P1': 'profile'}
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import networkx as nx

from ..core.nodes import (
    agent_node,
    endpoint,
    is_active,
    label,
    partner_node,
    partner_of,
    response_node,
    type_of,
)
from ..models import field_value, gc_paused

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord

__all__ = [
    "build_graph",
    "registry_nodes",
    "EstateGraph",
    "NODE_KINDS",
    "RELATIONS",
    "release",
    "structural_copy",
    "graph_maps",
    "require_graph",
]

EstateGraph: TypeAlias = "nx.MultiDiGraph[str]"
"""The type of `build_graph`'s graph, for annotations: its node ids are strings. (A string:
networkx's graphs take no type arguments at run time.)"""

NODE_KINDS = ("profile", "agent", "response", "channel", "partner")
RELATIONS = ("input", "listens_on", "references", "delivers", "via", "belongs_to")

_ROLE_RELATION = {"input": "listens_on", "reference": "references", "response": "via"}


def build_graph(estate: Estate) -> EstateGraph:
    """The topology of an estate as a `networkx.MultiDiGraph` (see the module docstring).

    Anything but an `Estate` is a `TypeError` naming it (a snapshot's path: `ipt.load` it).
    """
    from ..core.estate import require_estate

    require_estate(estate, "build_graph")
    with gc_paused():
        return _build(estate)


def require_graph(graph: Any, what: str) -> EstateGraph:
    """`graph` if it is a networkx graph; else a `TypeError` naming `what` (the function)
    and what was given, for the questions asked of `build_graph`'s graph (`where_used`,
    `impact`, `paths`, ...): an Estate passed instead is pointed to `build_graph`."""
    if isinstance(graph, nx.Graph):
        return cast("EstateGraph", graph)
    hint = " (ipt.build_graph(estate) makes it)"
    raise TypeError(f"{what}: graph must be a networkx graph{hint}, not {type(graph).__name__}")


def _build(estate: Estate) -> EstateGraph:
    graph: EstateGraph = nx.MultiDiGraph(
        source_url=estate.info.source_url,
        fetched_at=estate.info.fetched_at.isoformat() if estate.info.fetched_at else None,
    )
    parts = _Parts(graph)
    add_node, add_edge = parts.node, parts.edge
    for record in estate.records:
        add_node(*_profile_node(record))
    for node, attrs in _partner_nodes(estate):
        add_node(node, attrs)
    belongs: dict[tuple[str, str], None] = {}  # a set's order changes from run to run
    for key, model in estate.channels.items():
        node = f"channel:{key}"
        add_node(node, _channel_attrs(model, key, resolved=True))
        pkey, _ = partner_of(model)
        if pkey is not None:
            belongs[node, partner_node(pkey)] = None
    for key in estate.unresolved:
        add_node(f"channel:{key}", _channel_attrs(None, key, resolved=False))
    for record in estate.valid_records:
        agent = record.agent
        if agent is not None:
            add_node(agent_node(record.key), _agent_attrs(agent, record))
        for index, unit in enumerate(record.response_units):
            add_node(response_node(record.key, index), _response_attrs(unit, index, record))

    for channel, partner in belongs:
        add_edge(channel, partner, {"relation": "belongs_to"})
    for record in estate.valid_records:
        pnode = record.node
        anode = agent_node(record.key)
        if record.agent is not None:
            add_edge(pnode, anode, {"relation": "input", "path": "inputAgentSettings"})
        for index in range(len(record.response_units)):
            path = f"responseSettings.units[{index}]"
            add_edge(
                pnode, response_node(record.key, index), {"relation": "delivers", "path": path}
            )
        for use in record.uses:
            source = response_node(record.key, use.unit or 0) if use.role == "response" else anode
            node = use.node
            add_edge(source, node, {"relation": _ROLE_RELATION[use.role], "path": use.path})
            if use.held is not None:
                # a conflicting copy may name another partner: link that one too
                pkey, _ = partner_of(use.held)
                if pkey is not None and (node, partner_node(pkey)) not in belongs:
                    belongs[node, partner_node(pkey)] = None
                    add_edge(node, partner_node(pkey), {"relation": "belongs_to"})
    return graph


def registry_nodes(estate: Estate, wanted: Collection[str]) -> dict[str, dict[str, Any]]:
    """The attributes `build_graph(estate)` gives those of the channel and partner nodes
    in `wanted` it has: from the estate's own first copies (the graph of a part of it,
    `Estate.take`, holds the part's, which differ where copies conflict)."""
    found: dict[str, dict[str, Any]] = {}
    if any(node.startswith("partner:") for node in wanted):
        found.update((node, attrs) for node, attrs in _partner_nodes(estate) if node in wanted)
    if any(node.startswith("channel:") for node in wanted):
        for key, model in estate.channels.items():
            if (node := f"channel:{key}") in wanted:
                found[node] = _channel_attrs(model, key, resolved=True)
        for key in estate.unresolved:
            if (node := f"channel:{key}") in wanted:
                found[node] = _channel_attrs(None, key, resolved=False)
    return found


class _Parts:
    """Fills a new graph's own maps as `add_nodes_from` and `add_edge` would (the same
    nodes, links, keys and order), without their per-call work: at 10,000 profiles they
    were some 40% of a build. Each attribute dict handed in is made for this graph and
    becomes its own (`add_nodes_from` copies it once more)."""

    def __init__(self, graph: EstateGraph) -> None:
        target: Any = graph  # networkx's own maps, which its public views only read
        self._node: dict[str, dict[str, Any]] = target._node
        self._succ: dict[str, dict[str, dict[int, dict[str, Any]]]] = target._succ
        self._pred: dict[str, dict[str, dict[int, dict[str, Any]]]] = target._pred

    def node(self, node: str, attrs: dict[str, Any]) -> None:
        """`add_nodes_from([(node, attrs)])`: a new node gets `attrs`, a known one is updated."""
        known = self._node.get(node)
        if known is None:
            self._node[node] = attrs
            self._succ[node] = {}
            self._pred[node] = {}
        else:
            known.update(attrs)

    def edge(self, source: str, target: str, attrs: dict[str, Any]) -> None:
        """`add_edge(source, target, **attrs)`: the next free key of the pair, nodes made
        (without attributes) when not there yet."""
        for node in (source, target):
            if node not in self._node:
                self.node(node, {})
        keyed = self._succ[source].get(target)
        if keyed is None:
            keyed = self._succ[source][target] = {}
            self._pred[target][source] = keyed
        key = len(keyed)
        while key in keyed:
            key += 1
        keyed[key] = attrs


def _profile_node(record: ProfileRecord) -> tuple[str, dict[str, Any]]:
    raw = record.raw if isinstance(record.raw, dict) else {}
    return (
        record.node,
        {
            "kind": "profile",
            "id": record.id,
            "name": record.name,
            "type": type_of(raw) if raw else None,
            "agent_type": record.agent_type,
            "group": record.group,
            "active": record.active,
            "tags": _raw_text(raw, "tags"),
            "description": record.description,
            "index": record.index,
            "problem": record.problem is not None,
            "error": record.problem.message if record.problem is not None else None,
            "record": record,
        },
    )


def _raw_text(raw: dict[str, Any], name: str) -> str | None:
    value = raw.get(name)
    return value if isinstance(value, str) else None


def _partner_nodes(estate: Estate) -> list[tuple[str, dict[str, Any]]]:
    channels: dict[Any, int] = {}
    active: dict[Any, int] = {}
    for channel in estate.channels.values():
        pkey, _ = partner_of(channel)
        channels[pkey] = channels.get(pkey, 0) + 1
        active[pkey] = active.get(pkey, 0) + is_active(channel)
    return [
        (
            partner_node(key),
            {
                "kind": "partner",
                "id": _scalar(field_value(partner, "id")),
                "name": label(partner, key),
                "type": type_of(partner) or "IntegrationPartner",
                "channels": channels.get(key, 0),
                "active_channels": active.get(key, 0),
                "active": active.get(key, 0) > 0,
                "model": partner,
            },
        )
        for key, partner in estate.partners.items()
    ]


def _channel_attrs(channel: Any, key: Any, *, resolved: bool) -> dict[str, Any]:
    pkey, partner = partner_of(channel)
    where = endpoint(channel)
    return {
        "kind": "channel",
        "id": _scalar(field_value(channel, "id")) if channel is not None else key,
        "name": _scalar(field_value(channel, "name")),
        "type": type_of(channel),
        "active": is_active(channel),
        "partner": label(partner, pkey) if pkey is not None else None,
        "partner_id": _scalar(field_value(partner, "id")),
        "host": where.host,
        "url": where.url,
        "resolved": resolved,
        "model": channel,
    }


def _agent_attrs(agent: Any, record: ProfileRecord) -> dict[str, Any]:
    where = record.agent_endpoint
    own = field_value(agent, "active")  # told only whether it is set: `is_active` reads it
    type_name = record.agent_type
    return {
        "kind": "agent",
        "type": type_name,
        "name": record.agent_name or type_name,
        "active": is_active(agent) if isinstance(own, bool) else record.active,
        "group": record.group,
        "profile": record.node,
        "host": where.host,
        "url": where.url,
        "topic": where.topic,
        "json": agent,
    }


def _response_attrs(unit: Any, index: int, record: ProfileRecord) -> dict[str, Any]:
    where = record.response_endpoints[index]
    type_name = type_of(unit)
    return {
        "kind": "response",
        "type": type_name,
        "name": f"{type_name or 'response'} #{index}",
        "index": index,
        "active": is_active(unit),
        "content_type": type_of(field_value(unit, "contentType")),
        "target": record.response_targets[index],
        "group": record.group,
        "profile": record.node,
        "host": where.host,
        "url": where.url,
        "json": unit,
    }


def _scalar(value: Any) -> Any:
    """Keep node attributes flat: lists and objects of unknown types become None."""
    return value if isinstance(value, str | int | float | bool) else None


_VIEWS_OF_ITSELF = ("edges", "out_edges", "in_edges", "degree", "in_degree", "out_degree")
"""The views networkx caches in a graph on first use that hold the graph itself."""


def release(graph: nx.Graph[Any]) -> None:
    """Forget the views a graph keeps of itself (`_VIEWS_OF_ITSELF`), when it is dropped:
    with them it is a cycle, and so is every attribute dict it holds, freed only by the
    collector's full passes; an HTML file drops some 5,000 graphs while it lays out its
    levels, and those passes over the estate took a quarter of its time. The graph still
    works: a view asked for again is made again."""
    for name in _VIEWS_OF_ITSELF:
        graph.__dict__.pop(name, None)


def graph_maps(graph: EstateGraph) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """networkx's own node and successor maps, to read (its public views cost a call per
    item: a diff's marks read every node and link of a 10,000-profile union)."""
    inner: Any = graph
    return inner._node, inner._succ


def structural_copy(graph: EstateGraph) -> EstateGraph:
    """A copy of `graph` whose nodes and links are its own, their attribute dicts the
    graph's: for a copy that only gains nodes and links (a diff's union over a timeline's
    kept graph, `diffstatus.diff_graph`). `graph.copy()` copies every attribute dict too:
    at 10,000 profiles 0.22 s against 0.10 s, the collector paused. A `MultiDiGraph`'s
    successor and predecessor maps share each pair's key dict, and so do the copy's."""
    copy: EstateGraph = nx.MultiDiGraph()
    copy.graph.update(graph.graph)
    source: Any = graph  # networkx's own maps, which its public views only read
    target: Any = copy
    target._node.update(source._node)
    successors = {
        u: {v: dict(keyed) for v, keyed in near.items()} for u, near in source._succ.items()
    }
    target._succ.update(successors)  # `_adj` is the same dict
    target._pred.update(
        {v: {u: successors[u][v] for u in near} for v, near in source._pred.items()}
    )
    return copy
