"""The union of two snapshots that share their unchanged profiles, made from the newer
one's graph and the graphs of the profiles that differ, without the older one's graph.

A timeline's snapshots are read with their versions shared (`archive/shared_reads.py`):
a profile the day did not change is the same JSON object, under the same key, in both.
Every node and link of an estate's graph comes from its profiles (a profile's own nodes,
the channels it holds or names, the partners of the channels it holds), so what is in one
graph and not the other comes from the profiles that differ: those are drawn small
(`Estate.take`) and compared, and what the unchanged profiles reach is in both. A channel
or partner only the older snapshot has is drawn as its estate's graph draws it
(`registry_nodes`: from its first copy there, not the part's, where copies conflict).
`diffstatus.diff_graph(shared=True)` marks the union the same way as from both graphs (a
test holds them equal), and builds one graph, not two (at 10,000 profiles 0.2 s each; the
union is the new graph itself when it was not built).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.nodes import partner_node, partner_of

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.records import ProfileRecord
    from ..query.graph import EstateGraph

__all__ = ["UNIT_KINDS", "json_differs", "shared_union"]

Edge = tuple[str, str]
UNIT_KINDS = frozenset({"agent", "response"})
"""The nodes whose JSON a diff compares (it names the profile, not the unit): here, the
module `diffstatus` calls, so that neither imports the other both ways."""


def shared_union(
    old: Estate, new: Estate, graph: EstateGraph | None = None
) -> tuple[EstateGraph, dict[str, str], dict[Edge, str]]:
    """The union of `old` and `new`, and each of its nodes and node pairs added, removed,
    changed (a unit's JSON) or unchanged. `graph`: the new estate's, built already (left
    as it is: the union grows on a copy of its structure); None: built here, as the union."""
    from ..models import gc_paused
    from ..query.graph import build_graph, graph_maps, registry_nodes, structural_copy

    same = _unchanged(old, new)
    with gc_paused():
        was = build_graph(old.take([r.index for r in old.records if r.key not in same]))
        now = build_graph(new.take([r.index for r in new.records if r.key not in same]))
        union = build_graph(new) if graph is None else structural_copy(graph)
    kept = [record for record in new.records if record.key in same]
    used = {use.node for record in kept for use in record.uses}
    belongs = {pair for record in kept for pair in _held_partners(record)}
    also_old = used | {partner for _, partner in belongs}
    was_nodes, was_links = graph_maps(was)
    union_nodes, union_links = graph_maps(union)
    nodes: dict[str, str] = {}
    for node, data in union_nodes.items():
        before = was_nodes.get(node)
        if node not in now:
            nodes[node] = "unchanged"  # only what the unchanged profiles reach
        elif before is None:
            nodes[node] = "unchanged" if node in also_old else "added"
        elif data.get("kind") in UNIT_KINDS and json_differs(before.get("json"), data.get("json")):
            nodes[node] = "changed"
        else:
            nodes[node] = "unchanged"
    now_links = graph_maps(now)[1]
    edges: dict[Edge, str] = {}
    for u, near in union_links.items():
        fresh, linked = now_links.get(u, {}), was_links.get(u, {})
        for v in near:
            new_only = v in fresh and v not in linked and (u, v) not in belongs
            edges[(u, v)] = "added" if new_only else "unchanged"
    gone = [node for node in was_nodes if node not in nodes]
    own = registry_nodes(old, frozenset(gone))  # the old estate's first copies, not the part's
    for node in gone:
        union.add_node(node, **own.get(node, was_nodes[node]))
        nodes[node] = "removed"
    for u, v, key, data in was.edges(keys=True, data=True):
        if (u, v) not in edges or edges[(u, v)] == "removed":
            union.add_edge(u, v, key, **data)
            edges[(u, v)] = "removed"
    return union, nodes, edges


def _unchanged(old: Estate, new: Estate) -> set[str]:
    """The keys of the valid profiles that are the same in both: the same JSON object
    under the same key, its channel uses resolved the same (a channel named by id
    resolves against the whole listing)."""
    before = {(id(r.raw), r.key): r for r in old.records if r.ok}
    same: set[str] = set()
    for record in new.records:
        was = before.get((id(record.raw), record.key)) if record.ok else None
        if was is not None and (was.uses is record.uses or was.uses == record.uses):
            same.add(record.key)
    return same


def _held_partners(record: ProfileRecord) -> list[Edge]:
    """(channel, partner) of each channel copy the profile holds: a graph links each."""
    pairs = []
    for use in record.uses:
        if use.held is not None:
            pkey, _ = partner_of(use.held)
            if pkey is not None:
                pairs.append((use.node, partner_node(pkey)))
    return pairs


def json_differs(old: Any, new: Any) -> bool:
    """JSON that differs (a timeline's snapshots share the objects of what did not)."""
    return old is not new and old != new
