"""The legend of a topology diagram: only the kinds, channel types and styles it shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..topology.legend import legend_items
from ..topology.style import (
    BREAKING_COLOUR,
    KIND_LABELS,
    KIND_MARKERS,
    LINE_DASHES,
    STATUS_COLOURS,
    UNCHANGED_NODE,
)
from .backend import matplotlib_module

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.lines import Line2D

    from ..topology.view import ViewGraph

__all__ = ["legend_handles"]


def legend_handles(view: ViewGraph, *, grouped: bool, focused: bool) -> list[Artist]:
    """Legend entries for what the view holds, in a fixed order (`legend_items`)."""
    lines = matplotlib_module("lines")

    def marker(label: str, shape: str, colour: str, **extra: Any) -> Line2D:
        options = {"markeredgecolor": "white", "markersize": 8, **extra}
        line: Line2D = lines.Line2D(
            [], [], ls="none", marker=shape, color=colour, label=label, **options
        )
        return line

    kinds = {data["kind"] for data in view.nodes.values()}
    if any("status" in data for data in view.nodes.values()):
        return _diff_handles(view, kinds, grouped, marker)
    handles: list[Artist] = []
    for item in legend_items(view, grouped=grouped, focused=focused):
        if item.marker is not None:
            extra: dict[str, Any] = {"markeredgecolor": item.edge}
            if item.edge_width is not None:
                extra["markeredgewidth"] = item.edge_width
            handles.append(marker(item.label, item.marker, item.colour, **extra))
            continue
        line = lines.Line2D([], [], color=item.colour, lw=item.width, label=item.label)
        dashes = LINE_DASHES.get(item.style or "")
        if dashes:
            line.set_dashes(dashes)
        handles.append(line)
    return handles


def _diff_handles(view: ViewGraph, kinds: set[str], grouped: bool, marker: Any) -> list[Artist]:
    """A diff diagram's legend: what the colours mean, then the kinds by their shapes."""
    lines = matplotlib_module("lines")

    shown = {data["status"] for data in view.nodes.values()}
    shown |= {data["status"] for _, _, data in view.edges(data=True)}
    handles: list[Artist] = []
    words = {
        "added": "added",
        "removed": "removed",
        "changed": "changed, or a group with changes" if grouped else "changed",
        "unchanged": "unchanged",
    }
    for status, text in words.items():
        if status not in shown:
            continue
        colour = STATUS_COLOURS[status]
        if status == "unchanged":
            handles.append(marker(text, "o", UNCHANGED_NODE, markeredgecolor=colour))
        elif status == "removed":
            line = lines.Line2D(
                [], [], color=colour, lw=1.6, marker="o", markersize=8, label=text,
                markerfacecolor="#F0C2B8", markeredgecolor=colour,
            )  # fmt: skip
            line.set_dashes(LINE_DASHES["out"])
            handles.append(line)
        else:
            handles.append(
                lines.Line2D([], [], color=colour, lw=1.6, marker="o", markersize=8, label=text,
                       markeredgecolor="white")
            )  # fmt: skip
    breaking = any(data.get("breaking") for data in view.nodes.values())
    if breaking:
        handles.append(
            marker("breaking", "o", "none", markeredgecolor=BREAKING_COLOUR, markeredgewidth=2.0)
        )
    for kind in ("profile", "agent", "response", "channel", "partner"):
        if kind in kinds:
            label = KIND_LABELS[kind] + ("s" if grouped else "")
            handles.append(marker(label, KIND_MARKERS[kind], "#5A6470"))
    if grouped:
        signs = "+added −removed ~changed" + (" !breaking" if breaking else "")
        handles.append(lines.Line2D([], [], ls="none", label=f"label (total: {signs})"))
    return handles
