"""The legend of a topology diagram: only the kinds, channel types and styles it shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..names import type_label
from ..topology.style import (
    CHANNEL_COLOURS,
    KIND_COLOURS,
    KIND_LABELS,
    KIND_MARKERS,
    LINE_COLOURS,
    LINE_DASHES,
    PROBLEM_COLOUR,
    STATUS_COLOURS,
    UNCHANGED_NODE,
    UNRESOLVED_COLOUR,
    channel_colour,
)

if TYPE_CHECKING:
    import networkx as nx
    from matplotlib.artist import Artist

__all__ = ["legend_handles"]

_EDGE_LABELS = {
    "in": "input: agent listens on channel",
    "ref": "input: channel named by id",
    "out": "output: response unit via channel",
    "link": "channel of partner",
}


def legend_handles(view: nx.DiGraph, *, grouped: bool, focused: bool) -> list[Artist]:
    """Legend entries for what the view holds, in a fixed order."""
    from matplotlib.lines import Line2D

    kinds = {data["kind"] for data in view.nodes.values()}
    channel_types = sorted(
        {
            type_label(data["type"])
            for data in view.nodes.values()
            if data["kind"] == "channel" and not data["unresolved"] and data["type"]
        },
        key=lambda name: (
            list(CHANNEL_COLOURS).index(name) if name in CHANNEL_COLOURS else 99,
            name,
        ),
    )
    styles = {data["style"] for _, _, data in view.edges(data=True)}

    def marker(label: str, shape: str, colour: str, **extra: Any) -> Line2D:
        options = {"markeredgecolor": "white", "markersize": 8, **extra}
        return Line2D([], [], ls="none", marker=shape, color=colour, label=label, **options)

    if any("status" in data for data in view.nodes.values()):
        return _diff_handles(view, kinds, grouped, marker)
    handles: list[Artist] = []
    for kind in ("profile", "agent", "response", "partner"):
        if kind in kinds:
            label = KIND_LABELS[kind] + ("s" if grouped else "")
            handles.append(marker(label, KIND_MARKERS[kind], KIND_COLOURS[kind]))
    for name in channel_types:
        handles.append(marker(f"{name} channel", "o", channel_colour(name)))
    for style in ("in", "ref", "out", "link"):
        if style in styles:
            dashes = LINE_DASHES.get(style)
            line = Line2D([], [], color=LINE_COLOURS[style], lw=1.6, label=_EDGE_LABELS[style])
            if dashes:
                line.set_dashes(dashes)
            handles.append(line)
    nodes = list(view.nodes.values())
    if any(data["inactive"] >= data["count"] and not data["unresolved"] for data in nodes):
        handles.append(
            marker("inactive", "o", "#E6E6E6", markeredgecolor="#7F7F7F", markeredgewidth=1.0)
        )
    if any(data["unresolved"] for data in nodes):
        handles.append(
            marker(
                "channel id not found", "X", UNRESOLVED_COLOUR, markeredgecolor=UNRESOLVED_COLOUR
            )
        )
    if any(data["problem"] for data in nodes):
        handles.append(
            marker(
                "unreadable profile",
                "s",
                "white",
                markeredgecolor=PROBLEM_COLOUR,
                markeredgewidth=1.4,
            )
        )
    if focused:
        handles.append(marker("highlighted", "o", "#FFD34D", markeredgecolor="#FFD34D"))
    if grouped:
        handles.append(Line2D([], [], color="#9AA3AD", lw=4, label="line width: number of links"))
    return handles


def _diff_handles(view: nx.DiGraph, kinds: set[str], grouped: bool, marker: Any) -> list[Artist]:
    """A diff diagram's legend: what the colours mean, then the kinds by their shapes."""
    from matplotlib.lines import Line2D

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
            line = Line2D(
                [], [], color=colour, lw=1.6, marker="o", markersize=8, label=text,
                markerfacecolor="#F0C2B8", markeredgecolor=colour,
            )  # fmt: skip
            line.set_dashes(LINE_DASHES["out"])
            handles.append(line)
        else:
            handles.append(
                Line2D([], [], color=colour, lw=1.6, marker="o", markersize=8, label=text,
                       markeredgecolor="white")
            )  # fmt: skip
    for kind in ("profile", "agent", "response", "channel", "partner"):
        if kind in kinds:
            label = KIND_LABELS[kind] + ("s" if grouped else "")
            handles.append(marker(label, KIND_MARKERS[kind], "#5A6470"))
    if grouped:
        handles.append(Line2D([], [], ls="none", label="label (total: +added −removed ~changed)"))
    return handles
