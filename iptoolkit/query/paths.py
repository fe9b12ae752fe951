"""How does A reach B: every simple path between two items of the estate graph, shortest
first, bounded.

The graph's edges point from the profile outward (`query/graph.py`), so two profiles that
share a channel have no directed path between them; `paths` follows edges either way, as
`neighbourhood` does, and says of each step which way its edge points (`Step.forward`)
and what it is (`relation`). Between items in unrelated parts of the estate there is no
path: the answer is empty.

Simple paths can be very many (a partner reaches most of an estate through its channels),
so two bounds hold every answer: at most `limit` paths, each of at most `cutoff` steps.
The result says which bound it met: `more`, another path of at most `cutoff` steps exists;
`longer`, a path longer than `cutoff` exists. Only the nodes within `cutoff + 2` steps of
both ends together are searched, so a question about two items costs little in a large
estate; `longer` is said of a longer simple path through those nodes (which may well be
longer than `cutoff + 2` steps), or, when none lies within the cutoff, of the two items
being connected at all. A longer path that leaves those nodes is not looked for: `longer`
False means none was seen there, not that none exists.

>>> import iptoolkit as ipt
>>> G = ipt.build_graph(ipt.demo_estate(n_profiles=50))  # doctest: +SKIP
>>> found = ipt.paths(G, "P0001", "partner:1001")  # doctest: +SKIP
>>> found.paths[0]  # doctest: +SKIP
['profile:P0001', 'agent:P0001', 'channel:40003', 'partner:1001']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from itertools import islice

import networkx as nx

from ..support.arguments import whole_number
from ..support.names import plural
from .graph import EstateGraph, require_graph
from .resolve import resolve_node

__all__ = ["paths", "Paths", "Step", "DEFAULT_LIMIT", "DEFAULT_CUTOFF"]

DEFAULT_LIMIT = 20
"""Paths given unless asked: enough to see how two items are tied, few enough to read."""
DEFAULT_CUTOFF = 8
"""Steps a path may take unless asked: profile -> agent -> channel -> partner -> channel ->
agent -> profile is 6, two profiles' ties through a shared partner."""


@dataclass(frozen=True)
class Step:
    """One step of a path: from `source` to `target`, along an edge of `relation` that
    points that way (`forward`) or against it (the graph's edge is target -> source)."""

    source: str
    target: str
    relation: str
    forward: bool

    def __str__(self) -> str:
        return f"-{self.relation}->" if self.forward else f"<-{self.relation}-"


@dataclass
class Paths:
    """The paths between `a` and `b`, shortest first, each a list of node ids from `a`."""

    a: str
    b: str
    limit: int
    cutoff: int
    paths: list[list[str]] = field(default_factory=list)
    steps: list[list[Step]] = field(default_factory=list)
    """For each path, its steps, in order."""
    more: bool = False
    """The `limit` was met: another path of at most `cutoff` steps exists."""
    longer: bool = False
    """The `cutoff` was met: a path of more than `cutoff` steps exists."""

    @property
    def nodes(self) -> list[str]:
        """Every node on some path, without repeats, in the order first met."""
        return list(dict.fromkeys(node for path in self.paths for node in path))

    @property
    def edges(self) -> list[tuple[str, str]]:
        """Every edge on some path as the graph holds it (source, target), without repeats."""
        return list(
            dict.fromkeys(
                (step.source, step.target) if step.forward else (step.target, step.source)
                for steps in self.steps
                for step in steps
            )
        )

    @property
    def bounds(self) -> str:
        """What the bounds left out, in words ("" when the answer is whole)."""
        said = []
        if self.more:
            said.append(f"more than {self.limit:,} paths; the first {self.limit:,} are shown")
        if self.longer:
            said.append(f"longer paths than {self.cutoff:,} steps are left out")
        return "; ".join(said)

    def __bool__(self) -> bool:
        return bool(self.paths)

    def __len__(self) -> int:
        return len(self.paths)

    def __str__(self) -> str:
        if not self.paths:
            head = f"no path between {self.a} and {self.b}"
            return head + (f" of at most {self.cutoff} steps" if self.longer else "")
        count = plural(len(self.paths), "path")
        lines = [f"{count} between {self.a} and {self.b}, shortest first"]
        lines += [_written(path, steps) for path, steps in zip(self.paths, self.steps, strict=True)]
        if self.bounds:
            lines.append(f"({self.bounds})")
        return "\n".join(lines)


def paths(
    graph: EstateGraph,
    a: Hashable,
    b: Hashable,
    *,
    limit: int = DEFAULT_LIMIT,
    cutoff: int = DEFAULT_CUTOFF,
) -> Paths:
    """Every simple path between items `a` and `b` (named as `resolve_node` reads them),
    edges followed either way, shortest first: at most `limit` paths of at most `cutoff`
    steps. The result says which bound it met (`more`, `longer`; see the module docstring).
    """
    require_graph(graph, "paths")
    whole_number(limit, "limit", 1)
    whole_number(cutoff, "cutoff", 0)
    start = resolve_node(graph, a, what="from")
    end = resolve_node(graph, b, what="to")
    result = Paths(start, end, limit, cutoff)
    if start == end:
        result.paths, result.steps = [[start]], [[]]
        return result
    near = _between(graph, start, end, cutoff + 2)
    if near is None:  # none within reach: a longer path, or none at all?
        result.longer = nx.has_path(graph.to_undirected(as_view=True), start, end)
        return result
    for path in islice(_simple_paths(near, start, end), limit + 1):
        if len(path) - 1 > cutoff:
            result.longer = True
            break
        if len(result.paths) == limit:
            result.more = True
            break
        result.paths.append(path)
        result.steps.append([_step(graph, u, v) for u, v in zip(path[:-1], path[1:], strict=True)])
    return result


def _between(graph: EstateGraph, a: str, b: str, most: int) -> nx.Graph[str] | None:
    """The undirected graph of the nodes on some walk of at most `most` steps from `a` to
    `b` (their distances from both ends add up to `most` or less), or None when no such
    walk exists. Nodes in the graph's order, so that ties come out the same every run."""
    from_a = _distances(graph, a, most)
    if b not in from_a:
        return None
    from_b = _distances(graph, b, most)
    keep = {node for node, d in from_a.items() if d + from_b.get(node, most + 1) <= most}
    near: nx.Graph[str] = nx.Graph()
    near.add_nodes_from(node for node in graph if node in keep)
    near.add_edges_from(
        (source, target)
        for source in near
        for target in graph.succ[source]
        if target in keep and target != source
    )
    return near


def _distances(graph: EstateGraph, start: str, most: int) -> dict[str, int]:
    """Steps from `start` to every node within `most` steps, edges followed either way."""
    seen = {start: 0}
    frontier = [start]
    for depth in range(1, most + 1):
        step = []
        for current in frontier:
            for other in (*graph.succ[current], *graph.pred[current]):
                if other not in seen:
                    seen[other] = depth
                    step.append(other)
        frontier = step
    return seen


def _simple_paths(near: nx.Graph[str], a: str, b: str) -> Iterator[list[str]]:
    try:
        yield from nx.shortest_simple_paths(near, a, b)
    except nx.NetworkXNoPath:
        return


def _step(graph: EstateGraph, source: str, target: str) -> Step:
    """The step from `source` to `target`: the graph's edge that way if there is one."""
    forward = target in graph.succ[source]
    edges = graph.succ[source][target] if forward else graph.succ[target][source]
    relations = dict.fromkeys(str(data.get("relation")) for data in edges.values())
    return Step(source, target, "/".join(relations), forward)


def _written(path: list[str], steps: list[Step]) -> str:
    """`  profile:P1 -input-> agent:P1 -listens_on-> channel:7`: one path, one line."""
    parts = [path[0]]
    for step in steps:
        parts += [str(step), step.target]
    return "  " + " ".join(parts)
