"""The levels an offline view can show, laid out in Python and shipped as compact data.

The Explorer lays out each level when it is opened (`drill.drill_view`, with the kernel's
`topology_fit` rules: columns as wide as their labels measured in the font's own metrics,
labels cut apart, rows never closer than a label). A file read without a kernel cannot ask
for that, and doing it again in JavaScript would be a second copy of the layout, so every
level a reader can reach is laid out here, once: the overview, and each profile group it
shows opened in turn, breadth first (`drill_levels`), until `MAX_NODES` nodes are laid out
(a group left past that is drawn but does not open: the file says so). A level that two
paths reach (the same members) is laid out once.

Each level is sent as arrays, not objects (a 10,000-profile estate has some 1,700
levels): a node is `[x, y, radius, fill, border, label colour, label, name, kind, item]`
in the pixels of the canvas it was laid out for (one unit one pixel, as the Explorer's
camera starts), colours as indices into one palette, texts into one table of strings
(`Interned`: a channel drawn in 300 levels is named once), `item` the index of the item
whose details a click opens (-1 for a group or a port), and `groups` maps a group node to
its counts and the level it opens. `uncut` lists the labels cut to fit the canvas, each as
`[node, label uncut, pixels its column gives it]`: the script keeps its type 12 px as it
zooms in while the columns move apart, so it draws more of each as the room grows.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..query.graph import release
from ..query.reach import group_graph, node_positions
from ..support.progress import NO_PROGRESS, Progress
from ..topology.style import KIND_LABELS
from ..viewmodel.drill import auto_view
from ..viewmodel.topology_data import ViewData, detail_node
from ..viewmodel.topology_fit import TALL_ROW_PX, Canvas

if TYPE_CHECKING:
    from ..query.graph import EstateGraph

Within = TypeVar("Within")
"""What a level is laid out of, as a `LevelOpener` keeps it (a part of the graph, say)."""

__all__ = [
    "MAX_NODES",
    "OPENS",
    "CUT",
    "KINDS",
    "Interned",
    "LevelOpener",
    "drill_levels",
    "drill_from",
    "level_json",
    "legend_entry",
    "frame",
]

MAX_NODES = 100_000
"""Nodes laid out over every level of one view, at most: what a 10,000-profile estate's
whole drill tree takes (some 76,000), and a bound on a bigger one's file and export time."""
OPENS = "group:profile:"
"""The groups that open in an offline view: profile groups (subgroups, agent types, name
ranges), the Explorer's drill path. A group of channels or partners shows its counts."""
CUT = -2
"""A profile group's level when it was left out (past `MAX_NODES`); -1: a group that does
not open (channels, partners)."""
KINDS = ("profile", "agent", "response", "channel", "partner", "port")


class Interned:
    """Texts as indices into one list, each text once: a colour, a label or a field's name
    written a thousand times is written once (the file of a 10,000-profile estate halves)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: object) -> int:
        key = text if type(text) is str else str(text)  # asked a million times a file
        number = self._index.get(key)
        if number is None:
            number = self._index[key] = len(self.texts)
            self.texts.append(key)
        return number


@dataclass(frozen=True)
class Level:
    """One level: its breadcrumb title and its view data."""

    title: str
    data: ViewData


def drill_levels(
    graph: EstateGraph,
    canvas: Canvas,
    *,
    overview: ViewData | None = None,
    max_nodes: int = MAX_NODES,
    progress: Progress = NO_PROGRESS,
) -> tuple[list[Level], dict[tuple[int, str], int]]:
    """The overview (`drill.auto_view`, or `overview` when given) and every profile group
    opened below it, breadth first, while at most `max_nodes` nodes are laid out in all;
    and (level, group key) -> the level that group opens (`drill_from`).

    A group is opened as `drill.drill_view` opens it, cut from its level's part of the
    graph rather than the whole: a profile has no ancestors, and a level's part holds
    every descendant of its profiles, so the part gives the same level, at the cost of
    the part (the whole 31,000-node graph copied per level took a third of the time)."""
    first = overview if overview is not None else auto_view(graph, canvas=canvas)
    return drill_from(first, graph, _PartOpener(graph, canvas), max_nodes, progress)


class LevelOpener(Protocol[Within]):
    """How `drill_from` opens a group: from what its level was laid out of (`within`), the
    group's members and their set, what the group's level is laid out of and its view."""

    def open(
        self, within: Within, members: tuple[Hashable, ...], sign: frozenset[Hashable]
    ) -> tuple[Within, ViewData]: ...

    def done(self, within: Within) -> None:
        """Every group of the level laid out of `within` is opened."""


def drill_from(
    first: ViewData,
    root: Within,
    opener: LevelOpener[Within],
    max_nodes: int,
    progress: Progress = NO_PROGRESS,
) -> tuple[list[Level], dict[tuple[int, str], int]]:
    """The levels below `first` (laid out of `root`), each profile group opened once,
    breadth first, while at most `max_nodes` nodes are laid out; (level, group key) -> the
    level it opens. The one loop of the HTML file and the docs site (`docsite.views`).
    `progress` is told of each level laid out (how many there are is known at the end)."""
    levels = [Level("Overview", first)]
    opens: dict[tuple[int, str], int] = {}
    known: dict[frozenset[Hashable], int] = {}
    total = first.graph.number_of_nodes()
    queue: deque[tuple[int, Within]] = deque([(0, root)])
    while queue:
        index, within = queue.popleft()
        data = levels[index].data
        for key, members in data.members.items():
            if len(members) < 2 or not key.startswith(OPENS):
                continue
            sign = frozenset(members)
            if sign not in known:
                if total >= max_nodes:
                    continue
                inner, child = opener.open(within, members, sign)
                total += child.graph.number_of_nodes()
                known[sign] = len(levels)
                crumb = str(data.graph.nodes[key].get("crumb") or key)
                levels.append(Level(crumb, child))
                queue.append((known[sign], inner))
                progress.advance()
            opens[(index, key)] = known[sign]
        opener.done(within)
    return levels, opens


class _PartOpener:
    """Groups opened from their level's part of the graph (`group_graph`, sharing the
    graph's attribute dicts: no level changes its part, and put in its order by its
    positions, kept while its groups are opened), each part released once its groups are
    opened (the whole graph is the caller's)."""

    def __init__(self, graph: EstateGraph, canvas: Canvas) -> None:
        self.graph, self.canvas = graph, canvas
        self._positions: tuple[EstateGraph, dict[str, int]] | None = None

    def open(
        self, within: EstateGraph, members: tuple[Hashable, ...], sign: frozenset[Hashable]
    ) -> tuple[EstateGraph, ViewData]:
        if self._positions is None or self._positions[0] is not within:
            self._positions = (within, node_positions(within))
        inner = group_graph(within, members, copy=False, positions=self._positions[1])
        return inner, auto_view(inner, canvas=self.canvas)

    def done(self, within: EstateGraph) -> None:
        self._positions = None  # `within`'s: every group of it is opened
        if within is not self.graph:
            release(within)


def frame(data: ViewData) -> tuple[float, float, float, float, float]:
    """Where a level is drawn: the centre of the canvas it was laid out for (x, y in the
    page's direction: y down), its width and height in pixels, and the pixels a unit of
    its layout takes (1 when laid out for a canvas; rows `TALL_ROW_PX` apart otherwise)."""
    nodes = data.graph.nodes
    xs = [float(a["x"]) for a in nodes.values()] or [0.0]
    ys = [float(a["y"]) for a in nodes.values()] or [0.0]
    extent = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    if data.camera is not None and data.size is not None:  # as first_view.overview_svg
        centre_x = (min(xs) + max(xs)) / 2 + (data.camera["x"] - 0.5) * extent
        centre_y = (min(ys) + max(ys)) / 2 + (data.camera["y"] - 0.5) * extent
        return centre_x, -centre_y, float(data.size[0]), float(data.size[1]), 1.0
    unit = TALL_ROW_PX
    width = (max(xs) - min(xs)) * unit + 400  # the last column's labels
    height = (max(ys) - min(ys)) * unit + 80
    return (min(xs) * unit + width / 2 - 30, -max(ys) * unit + height / 2 - 40, width, height, unit)


def level_json(
    level: Level,
    opens: Callable[[str], int | None],
    item_of: Callable[[Hashable], int],
    palette: Interned,
    strings: Interned,
    graph: EstateGraph,
) -> dict[str, Any]:
    """A level as the script reads it (see the module docstring); `opens(key)` is the level
    a group opens (None: none), `item_of(node)` the index of an estate node's details;
    colours are indices into `palette`, labels and names into `strings`."""
    data = level.data
    centre_x, centre_y, width, height, unit = frame(data)
    scale = 1 / math.sqrt(data.camera["ratio"]) if data.camera else 1.0
    index = {key: number for number, key in enumerate(data.graph.nodes)}
    nodes: list[list[Any]] = []
    groups: dict[str, list[int]] = {}
    for key, attrs in data.graph.nodes(data=True):
        kind = str(attrs.get("kind", "port"))
        item = data.item(key)
        label = str(attrs.get("label", ""))
        name = str(attrs.get("name", ""))
        nodes.append(
            [
                round(float(attrs["x"]) * unit),  # whole pixels of the canvas laid out for
                round(-float(attrs["y"]) * unit),
                round(float(attrs.get("size", 3.0)) * scale, 1),
                palette(attrs.get("color", "#999999")),
                palette(attrs.get("border", "#FFFFFF")),
                palette(attrs.get("label_color", "#1F2328")),
                strings(label),
                -1 if name == label or label.endswith(" " + name) else strings(name),
                _kind_index(kind),
                -1 if item is None else item_of(detail_node(graph, item)),
            ]
        )
        if item is None and kind != "port" and key in data.members:
            members = data.members[key]
            opened = opens(key)
            groups[str(index[key])] = [
                int(attrs.get("count", len(members))),
                int(attrs.get("inactive", 0)),
                int(attrs.get("profiles reaching it", 0)),
                opened if opened is not None else CUT if key.startswith(OPENS) else -1,
            ]
    edges = [
        [
            index[u],
            index[v],
            palette(attrs.get("color", "#999999")),
            round(float(attrs.get("size", 1.0)) * scale, 2),
        ]
        for u, v, attrs in data.graph.edges(data=True)
    ]
    out = {
        "title": strings(level.title),
        "by": data.group_by,
        "frame": [round(centre_x, 1), round(centre_y, 1), round(width), round(height)],
        "nodes": nodes,
        "edges": edges,
        "groups": groups,
        "legend": strings(json.dumps([legend_entry(item) for item in data.legend])),
    }
    if data.uncut:  # labels cut for the canvas: the script draws more of them zoomed in
        out["uncut"] = [
            [index[key], strings(text), math.floor(room * unit)]
            for key, (text, room) in data.uncut.items()
        ]
    return out


_KIND_OF_LABEL = {label: kind for kind, label in KIND_LABELS.items()}


def _kind_index(kind: str) -> int:
    """The index in `KINDS` of a node's kind (view data holds the kind's label)."""
    return KINDS.index(_KIND_OF_LABEL.get(kind, kind if kind in KINDS else "profile"))


def legend_entry(item: Any) -> list[Any]:
    """A legend entry: its label, colour, border colour, whether it is a marker, whether it
    is a line, and the line's width. A level's legend is one string of these, as JSON
    (most levels share theirs)."""
    marker = item.marker is not None
    return [item.label, item.colour, item.edge, marker, item.style is not None, item.width]
