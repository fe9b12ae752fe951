"""One way to name an item of the graph, everywhere: the command line, the queries, the
diagrams' `highlight`.

An item is named by its node id (`channel:40003`, what `findings` and the graph print), by
its bare id or key (`40003`), or, for partners and channels, by its name in any case
(`acme retail`). A name that fits items of several kinds is refused with the node ids it
could mean; an unknown one with the closest names and ids.

>>> import iptoolkit as ipt
>>> G = ipt.build_graph(ipt.demo_estate(n_profiles=50))  # doctest: +SKIP
>>> ipt.resolve_node(G, "40003")  # doctest: +SKIP
'channel:40003'
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

from .names import NODE_KINDS, close_matches

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["resolve_node", "UnknownItemError", "AmbiguousItemError", "NAMED_KINDS"]

NAMED_KINDS = ("partner", "channel")
"""The kinds an item may be named by its name (case-insensitive)."""


class UnknownItemError(nx.NodeNotFound):
    """No item of the graph has that node id, id or name; the message names close ones."""


class AmbiguousItemError(ValueError):
    """An id or name that fits items of several kinds; the message lists their node ids."""

    def __init__(self, ref: Any, nodes: Sequence[Hashable], head: str = "") -> None:
        self.ref = ref
        self.nodes = tuple(nodes)
        kinds = " or ".join(dict.fromkeys(str(node).partition(":")[0] for node in self.nodes))
        said = ", ".join(str(node) for node in self.nodes)
        super().__init__(f"{head}{ref!r} could be a {kinds}: {said}; give the node id")


ID_KINDS = ("profile", "channel", "partner")
"""The kinds an item may be named by its bare id or key. An agent or response unit has its
profile's key, so it is named by its node id only (`agent:P1`, `response:P1:0`)."""


def resolve_node(
    graph: nx.MultiDiGraph, ref: Hashable, *, kinds: Iterable[str] = ID_KINDS, what: str = ""
) -> Hashable:
    """The node id that `ref` names (node id, bare id, or partner or channel name).

    `kinds` narrows where a bare id or name is looked for; `what` (an option name, say)
    heads the error message. Raises `UnknownItemError` (a `networkx.NodeNotFound`) or
    `AmbiguousItemError` (a `ValueError`).
    """
    if ref in graph:
        return ref
    text = str(ref).strip()
    if text in graph:
        return text
    kinds = tuple(kinds)
    head = f"{what}: " if what else ""
    prefix, _, rest = text.partition(":")
    if rest and prefix.lower() in NODE_KINDS:
        # a node id of a known kind that is not in the graph: suggest ids of that kind
        kind = prefix.lower()
        if f"{kind}:{rest}" in graph:
            return f"{kind}:{rest}"
        nodes = [node for node, k in graph.nodes(data="kind") if k == kind]
        raise UnknownItemError(f"{head}no node {text!r} in the graph{_hint(text, nodes)}")
    found = [f"{kind}:{text}" for kind in kinds if f"{kind}:{text}" in graph]
    named = set(NAMED_KINDS) & set(kinds)
    if named:
        wanted = text.lower()
        found.extend(
            node
            for node, data in graph.nodes(data=True)
            if data.get("kind") in named
            and isinstance(data.get("name"), str)
            and data["name"].lower() == wanted
        )
    found = list(dict.fromkeys(found))
    if len(found) == 1:
        return found[0]
    if found:
        raise AmbiguousItemError(ref, found, head)
    raise UnknownItemError(f"{head}nothing in the graph is named {text!r}{_hint(text, graph)}")


def _hint(text: str, nodes: Iterable[Hashable]) -> str:
    """` (did you mean ...?)` over node ids, bare ids and partner and channel names."""
    graph_nodes = nodes if isinstance(nodes, nx.Graph) else None
    spelled: dict[str, str] = {}
    for node in nodes:
        node_id = str(node)
        spelled.setdefault(node_id, node_id)
        spelled.setdefault(node_id.partition(":")[2], node_id)
        if graph_nodes is not None:
            data = graph_nodes.nodes[node]
            if data.get("kind") in NAMED_KINDS and isinstance(data.get("name"), str):
                spelled.setdefault(data["name"], data["name"])
    found = close_matches(text, spelled)
    if not found:
        return " (name an item by node id, e.g. 'partner:17', id, or partner or channel name)"
    said = " or ".join(repr(spelled.get(match, match)) for match in found)
    return f" (did you mean {said}?)"
