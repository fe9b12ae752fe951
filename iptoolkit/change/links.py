"""The graph's edges, read from the records: what a diff compares as links.

Building two networkx graphs to compare their edges costs seconds at 10,000 profiles; the
edges themselves are a few tuples per record. `edges` gives exactly the (source, target)
pairs `graph.build_graph` draws (a test holds them equal), with the same node-id helpers:

    profile -> agent -> channel -> partner
    profile -> response -> channel -> partner

Edges of the old snapshot are carried into the new one's names first (`Renames`): a
profile without an id is keyed by its position (`profile:#12`), and a response node by the
unit's index (`response:P1:0`), which move when profiles or units are reordered.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from ..core.nodes import agent_node, partner_node, partner_of, response_node
from .walk import moved

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord
    from .walk import Walk

__all__ = ["Edge", "edges", "profile_edges", "partner_edges", "key_of", "Renames", "UNPAIRED"]

Edge = tuple[str, str]

UNPAIRED = "\0old"
"""Appended to an old node with no counterpart in the new snapshot (a response unit
removed while another took its index), so its edges never equal a new one's; `key_of`
strips it."""


def edges(estate: Estate) -> set[Edge]:
    """Every (source, target) pair of `build_graph(estate)`."""
    return set(profile_edges(estate.records)) | partner_edges(estate)


def profile_edges(records: Iterable[ProfileRecord]) -> Iterator[Edge]:
    """The edges that start at these profiles, their agents and response units (a faulty
    profile has none). Each belongs to its profile: a diff reads them only for profiles
    whose JSON changed, or that were added or removed."""
    for record in records:
        if record.problem is not None:
            continue
        anode = agent_node(record.key)
        if record.agent is not None:
            yield (record.node, anode)
        for index in range(len(record.response_units)):
            yield (record.node, response_node(record.key, index))
        for use in record.uses:
            source = response_node(record.key, use.unit or 0) if use.role == "response" else anode
            yield (source, use.node)


def partner_edges(estate: Estate) -> set[Edge]:
    """channel -> partner edges: of each channel's registry content, and of every copy
    that conflicts with it (the graph links a channel to each partner its copies name)."""
    found = set()
    for key, channel in estate.channels.items():
        pkey, _ = partner_of(channel)
        if pkey is not None:
            found.add((f"channel:{key}", partner_node(pkey)))
    for conflict in estate.conflicts:
        if conflict.kind == "channel":
            for _, content in conflict.variants:
                pkey, _ = partner_of(content)
                if pkey is not None:
                    found.add((f"channel:{conflict.key}", partner_node(pkey)))
    return found


def key_of(edge: Edge) -> str:
    """A link's key: `"source -> target"` with the graph's node ids."""
    source, target = edge
    return f"{source.removesuffix(UNPAIRED)} -> {target.removesuffix(UNPAIRED)}"


class Renames:
    """Old node ids -> the new snapshot's ids, for profiles whose key or units moved.

    `add(old, new, walk)` records one pair of profiles; `walk` is their comparison, None
    when their JSON is equal.
    """

    def __init__(self) -> None:
        self._nodes: dict[str, str] = {}

    def add(
        self,
        old: ProfileRecord,
        new: ProfileRecord,
        walk: Walk | None,
    ) -> None:
        if old.key == new.key and walk is None:
            return
        self._nodes[old.node] = new.node
        self._nodes[agent_node(old.key)] = agent_node(new.key)
        for index in range(len(old.response_units)):
            path = moved(f"responseSettings.units[{index}]", walk)
            now = int(path.rsplit("[", 1)[1][:-1]) if path is not None else None
            self._nodes[response_node(old.key, index)] = (
                response_node(new.key, now)
                if now is not None
                else response_node(old.key, index) + UNPAIRED
            )
        for use in old.uses:
            prefix = f"channel:{old.key}:"
            if use.held is not None and use.node.startswith(prefix):  # an id-less channel
                path = moved(use.path, walk)
                self._nodes[use.node] = (
                    f"channel:{new.key}:{path}" if path is not None else use.node + UNPAIRED
                )

    def orphan(self, old: ProfileRecord) -> None:
        """A profile removed: its nodes may not meet a new profile's that took its key."""
        nodes = [old.node, agent_node(old.key)]
        nodes += [response_node(old.key, index) for index in range(len(old.response_units))]
        nodes += [use.node for use in old.uses if use.node.startswith(f"channel:{old.key}:")]
        for node in nodes:
            self._nodes[node] = node + UNPAIRED

    def edge(self, edge: Edge) -> Edge:
        nodes = self._nodes
        return (nodes.get(edge[0], edge[0]), nodes.get(edge[1], edge[1]))
