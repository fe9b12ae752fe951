"""`plot_comparison`: the parts of two installations that differ, one above the other.

Two `plot_topology` panels, A above B (each the figure's width: side by side, names were
cut to some 20 characters), each drawing only the profiles a difference names (a profile
that differs, the worst first, then one using a channel or partner that differs; at most
`limit` per panel, the title saying of how many) with the differing items highlighted, so
that a profile wired to another channel in B is seen next to its wiring in A. Only the
differing items a panel draws are highlighted in it: the differences of profiles past the
limit name items the panel does not hold.

>>> fig = plot_comparison(ipt.compare(test, prod))  # doctest: +SKIP
>>> fig.savefig("test-vs-prod.png")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..change.record import SEVERITIES
from ..query.graph import build_graph
from ..support.names import agreeing, plural
from ..topology.comparestatus import Comparison
from .backend import literal_text, pyplot
from .topology import plot_topology

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..core.estate import Estate


__all__ = ["plot_comparison", "SUFFIXES"]

SUFFIXES = (".png", ".svg", ".pdf")


@literal_text
def plot_comparison(
    result: Comparison, *, path: str | os.PathLike[str] | None = None, limit: int = 12
) -> Figure:
    """Draw the differing parts of A and B, A above B; write the figure to `path` (PNG,
    SVG or PDF) when given. Returns the figure."""
    if path is not None and Path(path).suffix.lower() not in SUFFIXES:
        raise ValueError(f"{Path(path).name}: the picture is written as {', '.join(SUFFIXES)}")
    plt = pyplot()
    fig: Figure
    fig, axes = plt.subplots(2, 1, figsize=(14, 14))  # one above the other: names read whole
    names = result.names
    for side, (ax, estate, name) in enumerate(zip(axes, (result.a, result.b), names, strict=True)):
        nodes = _ranks(result, side)
        positions = _positions(estate, nodes, limit)
        if not positions:
            ax.set_axis_off()
            ax.set_title(f"{name}: nothing that differs", fontsize=10)
            continue
        graph = build_graph(estate.take(positions))
        shown = sorted(node for node in nodes if node and node in graph)
        title = f"{name}: {_drawn(estate, positions, nodes)}"
        plot_topology(graph, ax=ax, highlight=shown or None, title=title)
    if path is not None:
        fig.savefig(path, bbox_inches="tight")
    return fig


def _ranks(result: Comparison, side: int) -> dict[Any, int]:
    """Each node a difference names on this side, with its worst severity's rank (0:
    breaking), so that a panel with too little room draws the worst first."""
    ranks: dict[Any, int] = {}
    for d in result.differences:
        node = d.a if side == 0 else d.b
        if node is not None:
            ranks[node] = min(ranks.get(node, len(SEVERITIES)), SEVERITIES.index(d.severity))
    return ranks


def _drawn(estate: Estate, positions: list[int], nodes: dict[Any, int]) -> str:
    """`5 profiles that differ, 4 on a channel or partner that differs`: the profiles drawn
    only for what they use are not counted as differing themselves; `12 of 115 profiles
    that differ` when the limit left some out."""
    differ = sum(1 for n in positions if estate.records[n].node in nodes)
    total = sum(1 for record in estate.records if record.node in nodes)
    if differ < total:
        text = f"{differ:,} of {plural(total, 'profile')} that {agreeing(total, 'differ')}"
    else:
        text = f"{plural(differ, 'profile')} that {agreeing(differ, 'differ')}"
    if touched := len(positions) - differ:
        text += f", {touched:,} on a channel or partner that differs"
    return text


def _positions(estate: Estate, nodes: dict[Any, int], limit: int) -> list[int]:
    """The positions, in listing order, of at most `limit` profiles: those named, the worst
    difference first, then those using a channel or partner named."""
    named = sorted((nodes[r.node], r.index) for r in estate.records if r.node in nodes)
    found = [index for _, index in named[:limit]]
    for record in estate.records:
        if len(found) >= limit:
            break
        uses = {use.node for use in record.uses}
        partners = {f"partner:{key}" for key in record.partners}
        if record.node not in nodes and not (nodes.keys().isdisjoint(uses | partners)):
            found.append(record.index)
    return sorted(found)
