"""What a topology legend lists: the kinds, channel types, line styles and states a view
shows, in a fixed order, as plain data.

The static diagrams turn these entries into matplotlib handles (`plot/legend.py`); the
interactive view writes them as HTML beside its canvas (`viewmodel/explorer_html.py`).
One list for both, so the two pictures never explain themselves differently.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..auditing.finding import SEVERITIES
from ..support.names import type_label
from .finding_marks import SEVERITY_COLOURS, finding_label
from .style import (
    CHANNEL_COLOURS,
    KIND_COLOURS,
    KIND_LABELS,
    KIND_MARKERS,
    LINE_COLOURS,
    PROBLEM_COLOUR,
    UNRESOLVED_COLOUR,
    channel_colour,
)

if TYPE_CHECKING:
    from .view import ViewGraph

__all__ = [
    "LegendItem",
    "legend_items",
    "finding_legend",
    "EDGE_LABELS",
    "HIGHLIGHT_COLOUR",
    "INACTIVE_FILL",
]

EDGE_LABELS = {
    "in": "input: agent listens on channel",
    "ref": "input: channel named by id",
    "out": "output: response unit via channel",
    "link": "channel of partner",
}
HIGHLIGHT_COLOUR = "#FFD34D"
"""The halo around highlighted items (`plot_topology(highlight=...)`)."""
INACTIVE_FILL = "#E6E6E6"
WIDTH_COLOUR = "#9AA3AD"


@dataclass(frozen=True)
class LegendItem:
    """One entry: a marker (`marker` set, a matplotlib marker code) or a line (`style` set,
    a line style of `topology.style`, or neither for the grouped views' width entry)."""

    label: str
    colour: str
    marker: str | None = None
    edge: str = "white"
    edge_width: float | None = None
    style: str | None = None
    width: float = 1.6


def legend_items(view: ViewGraph, *, grouped: bool, focused: bool) -> list[LegendItem]:
    """The entries for what a (non-diff) view holds, in a fixed order."""
    nodes = list(view.nodes.values())
    kinds = {data["kind"] for data in nodes}
    channel_types = sorted(
        {
            type_label(data["type"])
            for data in nodes
            if data["kind"] == "channel" and not data["unresolved"] and data["type"]
        },
        key=lambda name: (
            list(CHANNEL_COLOURS).index(name) if name in CHANNEL_COLOURS else 99,
            name,
        ),
    )
    styles = {data["style"] for _, _, data in view.edges(data=True)}
    items: list[LegendItem] = []
    for kind in ("profile", "agent", "response", "partner"):
        if kind in kinds:
            label = KIND_LABELS[kind] + ("s" if grouped else "")
            items.append(LegendItem(label, KIND_COLOURS[kind], marker=KIND_MARKERS[kind]))
    for name in channel_types:
        items.append(LegendItem(f"{name} channel", channel_colour(name), marker="o"))
    for style in ("in", "ref", "out", "link"):
        if style in styles:
            items.append(LegendItem(EDGE_LABELS[style], LINE_COLOURS[style], style=style))
    if any(data["inactive"] >= data["count"] and not data["unresolved"] for data in nodes):
        items.append(
            LegendItem("inactive", INACTIVE_FILL, marker="o", edge="#7F7F7F", edge_width=1.0)
        )
    if any(data["unresolved"] for data in nodes):
        items.append(
            LegendItem(
                "channel id not found", UNRESOLVED_COLOUR, marker="X", edge=UNRESOLVED_COLOUR
            )
        )
    if any(data["problem"] for data in nodes):
        items.append(
            LegendItem(
                "unreadable profile", "white", marker="s", edge=PROBLEM_COLOUR, edge_width=1.4
            )
        )
    items += finding_legend({data.get("finding") for data in nodes})
    if focused:
        items.append(LegendItem("highlighted", HIGHLIGHT_COLOUR, marker="o", edge=HIGHLIGHT_COLOUR))
    if grouped:
        items.append(LegendItem("line width: number of links", WIDTH_COLOUR, width=4))
    return items


def finding_legend(severities: Iterable[str | None]) -> list[LegendItem]:
    """A ring per worst severity shown (findings on the map, `topology.finding_marks`)."""
    shown = set(severities)
    return [
        LegendItem(
            finding_label(severity),
            "white",
            marker="o",
            edge=SEVERITY_COLOURS[severity],
            edge_width=2.2,
        )
        for severity in SEVERITIES
        if severity in shown
    ]
