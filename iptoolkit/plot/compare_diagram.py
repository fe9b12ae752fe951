"""`plot_comparison`: the parts of two installations that differ, one above the other.

Two `plot_topology` panels, A above B (each the figure's width: side by side, names were
cut to some 20 characters), each drawing only the
profiles a difference names (a profile that differs, or one using a channel or partner
that differs; at most `limit` per panel) with the differing items highlighted, so that a
profile wired to another channel in B is seen next to its wiring in A. Only the differing
items a panel draws are highlighted in it: the differences of profiles past the limit name
items the panel does not hold.

>>> fig = plot_comparison(ipt.compare(test, prod))  # doctest: +SKIP
>>> fig.savefig("test-vs-prod.png")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
        nodes = {d.a if side == 0 else d.b for d in result.differences} - {None}
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


def _drawn(estate: Estate, positions: list[int], nodes: set[Any]) -> str:
    """`5 profiles that differ, 4 on a channel or partner that differs`: the profiles drawn
    only for what they use are not counted as differing themselves."""
    differ = sum(1 for n in positions if estate.records[n].node in nodes)
    text = f"{plural(differ, 'profile')} that {agreeing(differ, 'differ')}"
    if touched := len(positions) - differ:
        text += f", {touched:,} on a channel or partner that differs"
    return text


def _positions(estate: Estate, nodes: set[Any], limit: int) -> list[int]:
    """The positions of the profiles named, and of those using a channel or partner named."""
    found: list[int] = []
    for record in estate.records:
        if len(found) >= limit:
            break
        uses = {use.node for use in record.uses}
        partners = {f"partner:{key}" for key in record.partners}
        if record.node in nodes or not nodes.isdisjoint(uses) or not nodes.isdisjoint(partners):
            found.append(record.index)
    return found
