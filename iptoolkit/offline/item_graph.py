"""The estate graph an offline view walks for paths, and what each level node stands for.

A file has no kernel to ask `query.paths`, so the script walks the graph itself
(`assets/paths.js`: every simple path between two items, edges followed either way,
shortest first, bounded as `ipt.paths` is). It gets the graph as arrays: each node
`[kind, item, unit]` (its kind's index in `levels.KINDS`, the item whose details it opens,
a response unit's number), each pair of linked nodes `[source, target, relation]`
(the relations of parallel edges joined with "/", as `paths` names a step). At 10,000
profiles that is 31,000 nodes and as many edges, some 300 KB of the compressed file.

To fade what is off the paths, each level says which graph nodes each of its nodes
stands for (`level_members`): one index for an item, the sorted indices as differences
from the one before for a group (they compress to a third), -1 for none.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from ..viewmodel.topology_data import PORT_SUFFIX, detail_node
from .levels import KINDS, Interned

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from ..viewmodel.topology_data import ViewData

__all__ = ["graph_json", "level_members"]


def graph_json(
    part: EstateGraph, item_of: Callable[[Hashable], int], strings: Interned
) -> tuple[dict[str, Any], dict[Hashable, int]]:
    """The payload's `graph` (`nodes` and `edges` flattened, three numbers each; see the
    module docstring) and each node's index in it."""
    index: dict[Hashable, int] = {node: number for number, node in enumerate(part.nodes)}
    nodes: list[int] = []
    for node, attrs in part.nodes(data=True):
        kind = str(attrs.get("kind"))
        unit = attrs.get("index", 0) if kind == "response" else 0
        nodes += [
            KINDS.index(kind) if kind in KINDS else 0,
            item_of(detail_node(part, node)),
            unit if isinstance(unit, int) else 0,
        ]
    relations: dict[tuple[str, str], dict[str, None]] = {}
    for source, target, attrs in part.edges(data=True):
        relations.setdefault((source, target), {})[str(attrs.get("relation"))] = None
    edges: list[int] = []
    for (source, target), named in relations.items():
        edges += [index[source], index[target], strings("/".join(named))]
    return {"nodes": nodes, "edges": edges}, index


def level_members(data: ViewData, index: dict[Hashable, int]) -> list[int | list[int]]:
    """For each node of a level, the graph nodes it stands for (a port: its node's)."""
    out: list[int | list[int]] = []
    for key in data.graph.nodes:
        members = data.members.get(str(key).removesuffix(PORT_SUFFIX), ())
        numbers = sorted(index[m] for m in members if m in index)
        if not numbers:
            out.append(-1)
        elif len(numbers) == 1:
            out.append(numbers[0])
        else:
            out.append([numbers[0], *(b - a for a, b in zip(numbers, numbers[1:], strict=False))])
    return out
