"""The estate as a directed multigraph: profiles, their agents and response paths, channels
and partners, with edges pointing from the profile outward.

    profile -input-> agent -listens_on-> channel -belongs_to-> partner
                           -references-> channel            (named only by id)
    profile -delivers-> response -via-> channel -belongs_to-> partner

Node ids are described in `iptoolkit.nodes` (`profile:P1`, `channel:17`, ...). Every node
carries `kind` and flat scalar attributes to filter or colour by (`name`, `type`, `active`,
`group`, `partner`, `host`, `url`, ...), and its model under `model` for drill-down.

- A channel or partner met in many profiles is one node, with the content first seen (the
  estate's registry). When the same channel id names different partners in different
  profiles (a conflict, reported by `findings`), the channel gets an edge to each: a
  where-used question then over-reports rather than misses.
- A channel named by id that no profile holds is a node with `resolved=False`.
- Faulty profiles (`estate.problems`) are profile nodes with `problem=True`, the error in
  `error` and no edges: they could not be read, but nothing is hidden.

>>> import iptoolkit as ipt
>>> G = ipt.build_graph(ipt.Estate.from_raw([{"id": "P1"}]))
>>> dict(G.nodes(data="kind"))
{'profile:P1': 'profile'}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import networkx as nx

from .models import field_value, gc_paused
from .nodes import (
    agent_node,
    endpoint,
    label,
    partner_node,
    partner_of,
    profile_keys,
    profile_node,
    profile_uses,
    raw_field,
    response_node,
    target,
    type_of,
)

if TYPE_CHECKING:
    from .estate import Estate

__all__ = ["build_graph", "NODE_KINDS", "RELATIONS"]

NODE_KINDS = ("profile", "agent", "response", "channel", "partner")
RELATIONS = ("input", "listens_on", "references", "delivers", "via", "belongs_to")

_ROLE_RELATION = {"input": "listens_on", "reference": "references", "response": "via"}


def build_graph(estate: Estate) -> nx.MultiDiGraph:
    """The topology of an estate as a `networkx.MultiDiGraph` (see the module docstring)."""
    with gc_paused():
        return _build(estate)


def _build(estate: Estate) -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph(
        source_url=estate.info.source_url,
        fetched_at=estate.info.fetched_at.isoformat() if estate.info.fetched_at else None,
    )
    keys = profile_keys(estate.raw_profiles)
    graph.add_nodes_from(_profile_nodes(estate, keys))
    graph.add_nodes_from(_partner_nodes(estate))
    channel_nodes, belongs = _channel_nodes(estate)
    graph.add_nodes_from(channel_nodes)

    nodes: list[tuple[str, dict[str, Any]]] = []
    edges: list[tuple[str, str, dict[str, Any]]] = [
        (channel, partner, {"relation": "belongs_to"}) for channel, partner in belongs
    ]
    unresolved: dict[str, Any] = {}
    for profile, uses, raw_index in zip(
        estate.profiles, profile_uses(estate), estate.raw_index, strict=True
    ):
        key = keys[raw_index]
        pnode = profile_node(key)
        anode = agent_node(key)
        agent = profile.input_agent_settings
        if agent is not None:
            nodes.append((anode, _agent_attrs(agent, profile, pnode)))
            edges.append((pnode, anode, {"relation": "input", "path": "inputAgentSettings"}))
        for index, unit in enumerate(profile.response_units):
            rnode = response_node(key, index)
            nodes.append((rnode, _response_attrs(unit, index, profile, pnode)))
            path = f"responseSettings.units[{index}]"
            edges.append((pnode, rnode, {"relation": "delivers", "path": path}))
        for use in uses:
            role = use.use.role
            unit = use.use.unit if use.use.unit is not None else 0
            source = response_node(key, unit) if role == "response" else anode
            relation = _ROLE_RELATION[role]
            edges.append((source, use.node, {"relation": relation, "path": use.use.path}))
            if not use.resolved and role == "reference":
                unresolved.setdefault(use.node, use.key)
            elif use.use.channel is not None:
                # a conflicting copy may name another partner: link that one too
                pkey, _ = partner_of(use.use.channel)
                if pkey is not None and (use.node, partner_node(pkey)) not in belongs:
                    belongs.add((use.node, partner_node(pkey)))
                    edges.append((use.node, partner_node(pkey), {"relation": "belongs_to"}))
    graph.add_nodes_from(nodes)
    graph.add_nodes_from(
        (node, _channel_attrs(None, key, resolved=False)) for node, key in unresolved.items()
    )
    graph.add_edges_from(edges)
    return graph


def _profile_nodes(estate: Estate, keys: list[str]) -> list[tuple[str, dict[str, Any]]]:
    model_at = dict(zip(estate.raw_index, estate.profiles, strict=True))
    problem_at = {problem.index: problem for problem in estate.problems}
    nodes = []
    for index, raw in enumerate(estate.raw_profiles):
        model = model_at.get(index)
        problem = problem_at.get(index)
        agent = raw_field(raw, "inputAgentSettings", dict)
        nodes.append(
            (
                profile_node(keys[index]),
                {
                    "kind": "profile",
                    "id": raw_field(raw, "id", (str, int)),
                    "name": raw_field(raw, "name", str),
                    "type": type_of(raw) if isinstance(raw, dict) else None,
                    "agent_type": model.agent_type if model else type_of(agent or {}),
                    "group": raw_field(raw, "group", str),
                    "active": raw_field(raw, "active", bool),
                    "tags": raw_field(raw, "tags", str),
                    "description": raw_field(raw, "description", str),
                    "index": index,
                    "problem": model is None,
                    "error": problem.message if problem is not None else None,
                    "model": model,
                },
            )
        )
    return nodes


def _partner_nodes(estate: Estate) -> list[tuple[str, dict[str, Any]]]:
    channels: dict[Any, int] = {}
    active: dict[Any, int] = {}
    for channel in estate.channels.values():
        pkey, _ = partner_of(channel)
        channels[pkey] = channels.get(pkey, 0) + 1
        active[pkey] = active.get(pkey, 0) + (getattr(channel, "active", None) is True)
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


def _channel_nodes(
    estate: Estate,
) -> tuple[list[tuple[str, dict[str, Any]]], set[tuple[str, str]]]:
    nodes = []
    belongs: set[tuple[str, str]] = set()
    for key, channel in estate.channels.items():
        node = f"channel:{key}"
        nodes.append((node, _channel_attrs(channel, key, resolved=True)))
        pkey, _ = partner_of(channel)
        if pkey is not None:
            belongs.add((node, partner_node(pkey)))
    return nodes, belongs


def _channel_attrs(channel: Any, key: Any, *, resolved: bool) -> dict[str, Any]:
    pkey, partner = partner_of(channel)
    where = endpoint(channel)
    return {
        "kind": "channel",
        "id": _scalar(field_value(channel, "id")) if channel is not None else key,
        "name": _scalar(field_value(channel, "name")),
        "type": type_of(channel),
        "active": _flag(channel),
        "partner": label(partner, pkey) if pkey is not None else None,
        "partner_id": _scalar(field_value(partner, "id")),
        "host": where.host,
        "url": where.url,
        "resolved": resolved,
        "model": channel,
    }


def _agent_attrs(agent: Any, profile: Any, pnode: str) -> dict[str, Any]:
    where = endpoint(agent)
    own = _flag(agent)
    type_name = type_of(agent)
    return {
        "kind": "agent",
        "type": type_name,
        "name": _scalar(field_value(agent, "type_name")) or type_name,
        "active": own if own is not None else profile.active,
        "group": profile.group,
        "profile": pnode,
        "host": where.host,
        "url": where.url,
        "topic": where.topic,
        "model": agent,
    }


def _response_attrs(unit: Any, index: int, profile: Any, pnode: str) -> dict[str, Any]:
    where = endpoint(unit)
    type_name = type_of(unit)
    return {
        "kind": "response",
        "type": type_name,
        "name": f"{type_name or 'response'} #{index}",
        "index": index,
        "active": _flag(unit),
        "content_type": type_of(
            field_value(unit, "content_type") or field_value(unit, "contentType")
        ),
        "target": target(unit),
        "group": profile.group,
        "profile": pnode,
        "host": where.host,
        "url": where.url,
        "model": unit,
    }


def _flag(model: Any) -> bool | None:
    value = field_value(model, "active")
    return value if isinstance(value, bool) else None


def _scalar(value: Any) -> Any:
    """Keep node attributes flat: lists and objects of unknown types become None."""
    return value if isinstance(value, str | int | float | bool) else None
