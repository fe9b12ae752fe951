"""The layered layout: one column per kind, nodes ordered to cut crossings, then placed.

Columns follow the design card's reading, left to right: profiles | input agents and response
units | channels | partners. Every edge of the estate graph joins neighbouring columns, which
is what makes the classic Sugiyama steps simple here:

1. order: barycentre sweeps (a node moves to the mean position of its neighbours in the
   column before, then after), keeping the ordering with the fewest crossings seen;
2. place: the tallest column is stacked evenly; every other node goes as near as it can to
   the mean height of its neighbours, with the order kept and nodes at least their own
   height apart (an isotonic regression, pool-adjacent-violators).

Pure Python with no randomness: the same graph always gives the same layout, which keeps
diagrams and the positions written into GraphML and GEXF exports reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .style import COLUMN_OF_KIND

__all__ = ["LayeredLayout", "layered_layout", "place_view", "count_crossings"]

Node = Hashable


@dataclass
class LayeredLayout:
    """Where each node goes: `pos[node] = (column, row)`, rows growing downwards from 0.

    `columns` holds each column's nodes top to bottom; `rows` is the height of the whole
    layout in rows (one row is the room one ordinary node needs); `crossings` is the number
    of edge crossings of the chosen order (weighted by edge weight).
    """

    columns: list[list[Node]]
    pos: dict[Node, tuple[float, float]] = field(default_factory=dict)
    rows: float = 0.0
    crossings: int = 0


def layered_layout(
    graph: Any,
    *,
    column_of: Callable[[Node], int] | None = None,
    order_key: Callable[[Node], Any] | None = None,
    heights: Mapping[Node, float] | None = None,
    band_of: Callable[[Node], int] | None = None,
    weight: str = "weight",
    sweeps: int = 12,
) -> LayeredLayout:
    """Lay a networkx graph out in columns (see the module docstring).

    `column_of` maps a node to its column (default: by the node's `kind`); `order_key`
    gives the starting order within a column (default: the graph's node order);
    `heights` gives nodes that need more than one row (aggregated nodes drawn bigger);
    `band_of` splits a column into bands kept in order, top to bottom (say, input agents
    above response units), ordered within each band; `weight` names the edge attribute
    that counts an edge several times (default 1).
    """
    if column_of is None:
        kinds = graph.nodes

        def column_of(node: Node) -> int:
            return COLUMN_OF_KIND.get(kinds[node].get("kind"), 1)

    members: dict[int, list[Node]] = {}
    for node in graph.nodes:
        members.setdefault(column_of(node), []).append(node)
    if not members:
        return LayeredLayout(columns=[])
    count = max(members) + 1
    columns = [members.get(index, []) for index in range(count)]
    if order_key is not None:
        columns = [sorted(column, key=order_key) for column in columns]
    band = band_of or (lambda node: 0)
    columns = [sorted(column, key=band) for column in columns]  # stable: order kept in a band
    column_at = {node: index for index, column in enumerate(columns) for node in column}
    up, down = _adjacency(graph, column_at, weight)

    columns, crossings = _order(columns, up, down, sweeps, band)
    height = {node: float(heights.get(node, 1.0)) if heights else 1.0 for node in column_at}
    ys = _place(columns, up, down, height)
    top = min((ys[n] - height[n] / 2 for n in ys), default=0.0)
    bottom = max((ys[n] + height[n] / 2 for n in ys), default=0.0)
    pos = {node: (float(column_at[node]), ys[node] - top) for node in ys}
    return LayeredLayout(columns=columns, pos=pos, rows=bottom - top, crossings=crossings)


def place_view(view: Any, *, grouped: bool) -> LayeredLayout:
    """Where the items of a topology view go (`topology.view`): the one layout every
    picture of a view shares (the static diagrams and the interactive view).

    Profiles start in order of group then name, groups biggest first; in a grouped view
    input agents sit above response units, so the in and out fans stay apart.
    """
    nodes = view.nodes

    def order_key(node: Node) -> tuple[Any, ...]:
        data = nodes[node]
        if data["count"] > 1 or isinstance(node, tuple):
            return (-data["count"], data["label"])
        return (str(data.get("group") or ""), data["label"], str(node))

    def band(node: Node) -> int:
        return 1 if nodes[node]["kind"] == "response" else 0

    return layered_layout(view, order_key=order_key, band_of=band if grouped else None)


def count_crossings(columns: list[list[Node]], graph: Any, *, weight: str = "weight") -> float:
    """Edge crossings between neighbouring columns of an ordering (weighted)."""
    column_at = {node: index for index, column in enumerate(columns) for node in column}
    _, down = _adjacency(graph, column_at, weight)
    return _crossings(columns, down)


# -- adjacency ----------------------------------------------------------------------------

Adjacency = dict[Node, dict[Node, float]]


def _adjacency(graph: Any, column_at: dict[Node, int], weight: str) -> tuple[Adjacency, Adjacency]:
    """Neighbours in the column before (`up`) and after (`down`), with summed weights.

    Edges within a column or across more than one column do not take part in ordering.
    """
    up: Adjacency = {node: {} for node in column_at}
    down: Adjacency = {node: {} for node in column_at}
    for u, v, w in graph.edges(data=weight, default=1):
        if u not in column_at or v not in column_at:
            continue
        cu, cv = column_at[u], column_at[v]
        if cv == cu + 1:
            left, right = u, v
        elif cu == cv + 1:
            left, right = v, u
        else:
            continue
        w = float(w) if isinstance(w, int | float) and w > 0 else 1.0
        down[left][right] = down[left].get(right, 0.0) + w
        up[right][left] = up[right].get(left, 0.0) + w
    return up, down


# -- step 1: order ------------------------------------------------------------------------


def _order(
    columns: list[list[Node]],
    up: Adjacency,
    down: Adjacency,
    sweeps: int,
    band: Callable[[Node], int],
) -> tuple[list[list[Node]], int]:
    best = [list(column) for column in columns]
    best_crossings = _crossings(best, down)
    current = [list(column) for column in columns]
    stale = 0
    for sweep in range(sweeps):
        if best_crossings == 0:
            break
        if sweep % 2 == 0:
            for index in range(1, len(current)):
                current[index] = _by_barycentre(current[index], current[index - 1], up, band)
        else:
            for index in range(len(current) - 2, -1, -1):
                current[index] = _by_barycentre(current[index], current[index + 1], down, band)
        crossings = _crossings(current, down)
        if crossings < best_crossings:
            best = [list(column) for column in current]
            best_crossings = crossings
            stale = 0
        else:
            stale += 1
            if stale >= 4:
                break
    return best, int(round(best_crossings))


def _by_barycentre(
    column: list[Node],
    reference: list[Node],
    adjacency: Adjacency,
    band: Callable[[Node], int],
) -> list[Node]:
    """Sort a column by the mean position of each node's neighbours in `reference`.

    Positions are scaled to 0..1 so columns of different lengths compare; a node without
    neighbours there keeps its own relative place. Ties keep the current order (stable).
    """
    if len(column) < 2:
        return list(column)
    span = max(len(reference) - 1, 1)
    where = {node: index / span for index, node in enumerate(reference)}
    own_span = len(column) - 1
    keys: list[tuple[int, float, int]] = []
    for index, node in enumerate(column):
        total = weight = 0.0
        for other, w in adjacency[node].items():
            at = where.get(other)
            if at is not None:
                total += at * w
                weight += w
        keys.append((band(node), total / weight if weight else index / own_span, index))
    return [column[index] for *_, index in sorted(keys)]


def _crossings(columns: list[list[Node]], down: Adjacency) -> float:
    total = 0.0
    for left, right in zip(columns, columns[1:], strict=False):
        at = {node: index for index, node in enumerate(right)}
        edges = sorted(
            (i, at[other], w)
            for i, node in enumerate(left)
            for other, w in down[node].items()
            if other in at
        )
        total += _weighted_inversions(edges, len(right))
    return total


def _weighted_inversions(edges: list[tuple[int, int, float]], size: int) -> float:
    """Pairs of edges (sorted by left end) whose right ends are in the opposite order."""
    tree = [0.0] * (size + 1)
    seen = 0.0
    total = 0.0
    for _, j, w in edges:
        # weight of earlier edges ending at or above j: a Fenwick prefix sum
        k, below = j + 1, 0.0
        while k > 0:
            below += tree[k]
            k -= k & -k
        total += w * (seen - below)
        k = j + 1
        while k <= size:
            tree[k] += w
            k += k & -k
        seen += w
    return total


# -- step 2: place ------------------------------------------------------------------------


def _place(
    columns: list[list[Node]], up: Adjacency, down: Adjacency, height: dict[Node, float]
) -> dict[Node, float]:
    sizes = [sum(height[node] for node in column) for column in columns]
    anchor = max(range(len(columns)), key=lambda index: (sizes[index], -index))
    total = sizes[anchor]
    ys: dict[Node, float] = {}
    for index, column in enumerate(columns):
        # a first guess: stacked and spread evenly over the anchor column's height
        slack = (total - sizes[index]) / (len(column) + 1) if column else 0.0
        y = slack
        for node in column:
            ys[node] = y + height[node] / 2
            y += height[node] + slack
    # the columns in order of distance from the anchor, twice: each pass pulls a node
    # towards its neighbours on both sides
    others = sorted(
        (index for index in range(len(columns)) if index != anchor),
        key=lambda index: (abs(index - anchor), index),
    )
    for _ in range(3):
        for index in others:
            targets = []
            for node in columns[index]:
                total_w = sum_y = 0.0
                for adjacency in (up, down):
                    for other, w in adjacency[node].items():
                        sum_y += ys[other] * w
                        total_w += w
                targets.append(sum_y / total_w if total_w else ys[node])
            placed = _spaced(targets, [height[node] for node in columns[index]])
            for node, y in zip(columns[index], placed, strict=True):
                ys[node] = y
    return ys


def _spaced(targets: list[float], heights: list[float]) -> list[float]:
    """The positions closest to `targets` (least squares) that keep the order and leave
    each node its height: pool adjacent violators on the targets minus the offsets."""
    offsets = []
    offset = 0.0
    for index, h in enumerate(heights):
        if index:
            offset += (heights[index - 1] + h) / 2
        offsets.append(offset)
    blocks: list[list[float]] = []  # [sum of values, count]
    for target, offset in zip(targets, offsets, strict=True):
        blocks.append([target - offset, 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            value, count = blocks.pop()
            blocks[-1][0] += value
            blocks[-1][1] += count
    result: list[float] = []
    for value, count in blocks:
        result.extend([value / count] * int(count))
    return [z + offset for z, offset in zip(result, offsets, strict=True)]
