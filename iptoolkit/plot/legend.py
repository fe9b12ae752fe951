"""The legend of a topology or diff diagram: only the kinds, channel types, styles and
states it shows, as plain entries (`Entry`: a marker, a line, both, or text alone) that
matplotlib draws as handles (`legend_handles`) and the SVG writer as shapes
(`plot/topology_svg.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..topology.legend import legend_items
from ..topology.style import (
    BREAKING_COLOUR,
    KIND_LABELS,
    KIND_MARKERS,
    LINE_DASHES,
    STATUS_COLOURS,
    STATUS_LOOKS,
    STATUS_WORDS,
    UNCHANGED_NODE,
)
from .backend import matplotlib_module

if TYPE_CHECKING:
    from matplotlib.artist import Artist

    from ..topology.view import ViewGraph

__all__ = ["Entry", "legend_entries", "legend_handles", "MARKER_SIZE"]

MARKER_SIZE = 8.0
"""A legend marker's size in points."""


@dataclass(frozen=True)
class Entry:
    """One legend entry: a line (`line` its colour, `dashes` in line widths) and/or a
    marker (`marker` a matplotlib code); neither is a line of text alone."""

    label: str
    marker: str | None = None
    fill: str = "none"
    edge: str = "white"
    edge_width: float | None = None  # None: matplotlib's default, 1
    line: str | None = None
    width: float = 1.6
    dashes: tuple[float, float] | None = None


def legend_entries(view: ViewGraph, *, grouped: bool, focused: bool) -> list[Entry]:
    """Entries for what the view holds, in a fixed order (`legend_items`; a diff's own)."""
    if any("status" in data for data in view.nodes.values()):
        return _diff_entries(view, grouped)
    entries: list[Entry] = []
    for item in legend_items(view, grouped=grouped, focused=focused):
        if item.marker is not None:
            entries.append(Entry(item.label, item.marker, item.colour, item.edge, item.edge_width))
        else:
            dashes = LINE_DASHES.get(item.style or "")
            entries.append(Entry(item.label, line=item.colour, width=item.width, dashes=dashes))
    return entries


def _diff_entries(view: ViewGraph, grouped: bool) -> list[Entry]:
    """A diff diagram's legend: what the colours mean, then the kinds by their shapes."""
    shown = {data["status"] for data in view.nodes.values()}
    shown |= {data["status"] for _, _, data in view.edges(data=True)}
    entries: list[Entry] = []
    words = {**STATUS_WORDS, **({} if grouped else {"changed": "changed"})}
    for status, text in words.items():
        if status not in shown:
            continue
        colour = STATUS_COLOURS[status]
        if status == "unchanged":
            entries.append(Entry(text, "o", UNCHANGED_NODE, edge=colour))
        elif status == "removed":
            dashes = LINE_DASHES["out"]
            fill = STATUS_LOOKS[status][0]
            entries.append(Entry(text, "o", fill, colour, line=colour, dashes=dashes))
        else:
            entries.append(Entry(text, "o", colour, line=colour))
    breaking = any(data.get("breaking") for data in view.nodes.values())
    if breaking:
        entries.append(Entry("breaking", "o", "none", BREAKING_COLOUR, 2.0))
    kinds = {data["kind"] for data in view.nodes.values()}
    for kind in ("profile", "agent", "response", "channel", "partner"):
        if kind in kinds:
            label = KIND_LABELS[kind] + ("s" if grouped else "")
            entries.append(Entry(label, KIND_MARKERS[kind], "#5A6470"))
    if grouped:
        signs = "+added −removed ~changed" + (" !breaking" if breaking else "")
        entries.append(Entry(f"label (total: {signs})"))
    return entries


def legend_handles(view: ViewGraph, *, grouped: bool, focused: bool) -> list[Artist]:
    """The entries as matplotlib handles."""
    lines = matplotlib_module("lines")
    handles: list[Artist] = []
    for entry in legend_entries(view, grouped=grouped, focused=focused):
        options: dict[str, Any] = {"label": entry.label}
        if entry.line is not None:
            options.update(color=entry.line, lw=entry.width)
        else:
            options["ls"] = "none"
        if entry.marker is not None:
            options.update(
                marker=entry.marker,
                markersize=MARKER_SIZE,
                markerfacecolor=entry.fill,
                markeredgecolor=entry.edge,
            )
            if entry.line is None:
                options["color"] = entry.fill
            if entry.edge_width is not None:
                options["markeredgewidth"] = entry.edge_width
        line = lines.Line2D([], [], **options)
        if entry.dashes:
            line.set_dashes(entry.dashes)
        handles.append(line)
    return handles
