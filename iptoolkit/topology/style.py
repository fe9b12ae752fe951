"""How each kind of node and edge looks: one place for colours, markers and line styles
(names as people read them are `iptoolkit.support.names.type_label`).

The diagrams, the Graphviz and Mermaid exports and the yEd/Gephi attributes all read from
here, so a profile is the same colour in a PNG, an SVG rendered by `dot` and a Mermaid chart.
Colours follow the Okabe-Ito palette (distinguishable with colour-vision deficiencies).

This module imports nothing heavy: exports use it without loading matplotlib.
"""

from __future__ import annotations

from typing import Any, Literal

from ..support.names import type_label

__all__ = [
    "BREAKING_COLOUR",
    "COLUMN_OF_KIND",
    "KIND_COLOURS",
    "KIND_MARKERS",
    "KIND_LABELS",
    "KIND_GLYPHS",
    "MARKER_GLYPHS",
    "CHANNEL_COLOURS",
    "IN_COLOUR",
    "OUT_COLOUR",
    "LINK_COLOUR",
    "UNRESOLVED_COLOUR",
    "PROBLEM_COLOUR",
    "LINE_COLOURS",
    "LINE_DASHES",
    "STATUS_COLOURS",
    "UNCHANGED_NODE",
    "Direction",
    "LineStyle",
    "direction_of",
    "line_style_of",
    "channel_colour",
    "node_colour",
    "text_colour",
    "pale",
    "STATUS_LOOKS",
    "STATUS_WORDS",
]

COLUMN_OF_KIND: dict[str, int] = {
    "profile": 0,
    "agent": 1,
    "response": 1,
    "channel": 2,
    "partner": 3,
}
"""The layered layout's columns, left to right, in the design card's reading."""

KIND_COLOURS: dict[str, str] = {
    "profile": "#4D5B6A",  # slate: the profile is the hub, not a signal colour
    "agent": "#0072B2",  # blue: the way data comes in
    "response": "#E69F00",  # orange: the way data goes out
    "channel": "#7F7F7F",  # overridden by the channel type's colour
    "partner": "#009E73",  # green
}
KIND_MARKERS: dict[str, str] = {
    "profile": "s",  # square
    "agent": "<",  # points at the profile: data comes in
    "response": ">",  # points away from the profile: data goes out
    "channel": "o",
    "partner": "h",  # hexagon
}
KIND_GLYPHS: dict[str, str] = {
    "profile": "\u25a0",  # ■ square
    "agent": "\u25c0",  # ◀
    "response": "\u25b6",  # ▶
    "channel": "\u25cf",  # ●
    "partner": "\u2b22",  # ⬢ hexagon
}
"""The same shapes as text: the interactive view writes one before each label (sigma draws
circles only, and its shapes come from a font server), so kinds differ by more than colour,
offline too. `MARKER_GLYPHS` maps the static markers to them, for the legend."""
MARKER_GLYPHS: dict[str, str] = {
    "s": "\u25a0",
    "<": "\u25c0",
    ">": "\u25b6",
    "o": "\u25cf",
    "h": "\u2b22",
    "X": "\u2716",  # ✖
}
KIND_LABELS: dict[str, str] = {
    "profile": "profile",
    "agent": "input agent",
    "response": "response unit",
    "channel": "channel",
    "partner": "partner",
}

IN_COLOUR = KIND_COLOURS["agent"]
OUT_COLOUR = "#D55E00"  # vermillion: a darker orange, visible as a thin dashed line
LINK_COLOUR = "#9AA3AD"  # channel -> partner
UNRESOLVED_COLOUR = "#CC0000"
PROBLEM_COLOUR = "#CC0000"

CHANNEL_COLOURS: dict[str, str] = {
    "AS2": "#CC6677",
    "AS4": "#882255",
    "SFTP": "#88CCEE",
    "FTP": "#44AA99",
    "Mail": "#DDCC77",
    "HTTP": "#332288",
    "OFTP": "#AA4499",
    "X.400": "#999933",
    "SMB": "#117733",
    "Fax": "#A0A0A0",
    "IoT": "#6699CC",
}
"""Channel type (short name) -> colour; other types are grey."""

STATUS_COLOURS: dict[str, str] = {
    "added": "#009E73",  # bluish green
    "removed": "#CC3311",  # red
    "changed": "#E69F00",  # amber
    "unchanged": "#B4BBC3",  # faded grey: the context, not the news
}
"""Diff status (`topology.diffstatus`) -> colour of nodes and links in `plot_diff`."""
BREAKING_COLOUR = "#882255"
"""Ring, link and label colour of what a breaking change names in `plot_diff` (wine: apart
from the removed red and the changed amber)."""
UNCHANGED_NODE = "#E3E6EA"
"""Fill of an unchanged node in a diff diagram (its outline is `STATUS_COLOURS`)."""

Direction = Literal["in", "out", "link"]
_IN_RELATIONS = frozenset({"input", "listens_on", "references"})
_OUT_RELATIONS = frozenset({"delivers", "via"})

LineStyle = Literal["in", "ref", "out", "link"]
LINE_COLOURS: dict[str, str] = {
    "in": IN_COLOUR,
    "ref": IN_COLOUR,
    "out": OUT_COLOUR,
    "link": LINK_COLOUR,
}
"""Line style (`line_style_of`) -> colour, in diagrams and every graph export."""
LINE_DASHES: dict[str, tuple[float, float]] = {"ref": (1.0, 1.6), "out": (4.0, 2.0)}
"""Line style -> (dash, gap) in points for the dotted and dashed lines; others are solid."""


def direction_of(relation: Any) -> Direction:
    """`in` for the input path, `out` for response paths, `link` for channel -> partner."""
    if relation in _IN_RELATIONS:
        return "in"
    if relation in _OUT_RELATIONS:
        return "out"
    return "link"


def line_style_of(relation: Any) -> LineStyle:
    """How an edge is drawn: `in`, `ref` (a channel named by id only), `out` or `link`."""
    return "ref" if relation == "references" else direction_of(relation)


def channel_colour(type_name: Any) -> str:
    """The colour of a channel type (full or short name); grey when unknown."""
    return CHANNEL_COLOURS.get(type_label(type_name), "#7F7F7F")


def node_colour(kind: Any, type_name: Any = None) -> str:
    """Fill colour of a node: by kind, and by type for channels."""
    if kind == "channel":
        return channel_colour(type_name)
    return KIND_COLOURS.get(kind, "#7F7F7F")


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (a `#RRGGBB` colour)."""
    red, green, blue = (int(fill.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "#1F2328" if luminance > 0.5 else "#FFFFFF"


def pale(colour: str) -> str:
    """The colour (`#RRGGBB`) mixed with white: an inactive item's fill."""
    red, green, blue = (int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return "#" + "".join(f"{round((0.3 * c + 0.7) * 255):02x}" for c in (red, green, blue))


STATUS_LOOKS: dict[str, tuple[str, str]] = {
    "added": (STATUS_COLOURS["added"], "#FFFFFF"),
    "removed": (pale(STATUS_COLOURS["removed"]), STATUS_COLOURS["removed"]),
    "changed": (STATUS_COLOURS["changed"], "#FFFFFF"),
    "unchanged": (UNCHANGED_NODE, STATUS_COLOURS["unchanged"]),
}
"""Diff status -> (fill, outline) of a node: `plot_diff`'s, the interactive map's and the
HTML file's (a removed one is also drawn dashed where the drawing can)."""
STATUS_WORDS = {
    "added": "added",
    "removed": "removed",
    "changed": "changed, or a group with changes",
    "unchanged": "unchanged",
}
"""What a legend says of each status (of a view node by node, `changed` alone)."""
