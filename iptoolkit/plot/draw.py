"""Drawing a view onto matplotlib axes: edges as a few line collections, nodes as a few
scatters, labels where they fit. Batching by look keeps a thousand-node diagram fast to
draw and small to save. What each mark looks like is decided in `plot/looks.py`, which the
docs site's SVG writer (`plot/topology_svg.py`) reads too.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ..topology.layout import LayeredLayout
from ..topology.legend import HIGHLIGHT_COLOUR
from .backend import matplotlib_module
from .canvas import Geometry
from .looks import (
    edge_batches,
    label_marks,
    label_text,
    node_batches,
    node_sizes,
    rings,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..topology.view import ViewGraph

__all__ = ["draw_edges", "draw_nodes", "draw_labels", "label_text"]


def draw_edges(
    ax: Axes, view: ViewGraph, placed: LayeredLayout, geometry: Geometry, focused: bool
) -> None:
    """Each batch of `looks.edge_batches` as one line collection of sampled curves."""
    import numpy as np

    artists = matplotlib_module("collections")
    t = np.linspace(0.0, 1.0, 18)[:, None]
    # Bezier weights of a cubic with both control points halfway, at the ends' heights
    b0, b1, b2, b3 = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3
    for batch in edge_batches(view, placed, geometry, focused):
        segments = []
        for x0, y0, x1, y1 in batch.ends:
            middle = (x0 + x1) / 2
            xs = b0 * x0 + b1 * middle + b2 * middle + b3 * x1
            ys = b0 * y0 + b1 * y0 + b2 * y1 + b3 * y1
            segments.append(np.hstack([xs, ys]))
        if batch.dashes is None:
            linestyles: Any = "solid"
        else:  # matplotlib stretches dashes with the line width; keep them the same length
            on, off = batch.dashes
            linestyles = [(0, (on / w, off / w)) for w in batch.widths]
        collection = artists.LineCollection(
            segments,
            linewidths=batch.widths,
            alpha=batch.alpha,
            zorder=batch.zorder,
            capstyle="butt",
            colors=batch.colour,
            linestyles=linestyles,
        )
        ax.add_collection(collection)


def draw_nodes(
    ax: Axes, view: ViewGraph, placed: LayeredLayout, geometry: Geometry, focused: bool
) -> dict[Hashable, float]:
    """Scatter the nodes, one call per look; returns each marker's size in points."""
    sizes = node_sizes(view, geometry)
    for batch in node_batches(view, placed, sizes, focused):
        style: dict[str, Any] = {
            "marker": batch.marker,
            "c": batch.fill,
            "edgecolors": batch.edge,
            "linewidths": batch.edge_width,
            "alpha": batch.alpha,
        }
        if batch.dashed:
            style["linestyles"] = "--"
        area = [size**2 for size in batch.sizes]
        ax.scatter(batch.xs, batch.ys, s=area, zorder=batch.zorder, **style)
        if batch.halo:
            halo = [(size + 7) ** 2 for size in batch.sizes]
            ax.scatter(
                batch.xs, batch.ys, s=halo, marker="o", c=HIGHLIGHT_COLOUR, alpha=0.55,
                zorder=2.5, lw=0,
            )  # fmt: skip
    for ring in rings(view, placed, sizes):
        extra: dict[str, Any] = {"gid": ring.gid} if ring.gid else {}
        ax.scatter(
            ring.xs,
            ring.ys,
            s=[size**2 for size in ring.sizes],
            marker="o",
            facecolors="none",
            edgecolors=ring.colour,
            linewidths=ring.width,
            zorder=ring.zorder,
            **extra,
        )
    return sizes


def draw_labels(
    ax: Axes,
    view: ViewGraph,
    placed: LayeredLayout,
    geometry: Geometry,
    sizes: dict[Hashable, float],
    ids: bool,
) -> None:
    for mark in label_marks(view, placed, geometry, sizes, ids):
        ax.annotate(
            mark.text,
            xy=(mark.x, mark.y),
            xytext=(mark.dx, 0),
            textcoords="offset points",
            ha="right" if mark.anchor == "end" else "left",
            va="center",
            fontsize=geometry.font,
            color=mark.colour,
            alpha=mark.alpha,
            fontstyle="italic" if mark.italic else "normal",
            fontweight="bold" if mark.bold else "normal",
            zorder=4,
            annotation_clip=False,
            bbox=(
                {"boxstyle": "square,pad=0.08", "fc": "white", "ec": "none", "alpha": 0.78}
                if mark.boxed
                else None
            ),
        )
