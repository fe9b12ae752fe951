"""What the interactive topology view draws, as plain data: no widget, no browser.

The view of `topology.view` (every node, or groups with counts), placed by the layered
layout every diagram uses (`topology.layout.place_view`), coloured by `topology.style`,
turned into a graph whose nodes carry what sigma.js reads: `x`, `y`, `label`, `color`,
`size`, `border` and `halo`, and what a reader is told on hover and selection (`kind`,
`type`, counts). Node keys are strings: an estate node id for a node drawn on its own
(`profile:1001`), `group:<kind>:<label>` for a group; `members` maps every key back to the
estate's node ids, so a click always names items of the estate.

Node shapes are not drawn: ipysigma fetches every shape as an icon from Google's font
servers, which an offline notebook cannot reach (and a private one should not). Kinds are
told apart by their column and colour instead, as the legend says.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, cast

import networkx as nx

from ..query.graph import EstateGraph, release
from ..support.names import type_label
from ..topology.layout import LayeredLayout, place_view
from ..topology.legend import INACTIVE_FILL, LegendItem, legend_items
from ..topology.style import (
    KIND_GLYPHS,
    KIND_LABELS,
    LINE_COLOURS,
    PROBLEM_COLOUR,
    UNRESOLVED_COLOUR,
    node_colour,
)
from ..topology.view import (
    GroupedViews,
    ViewGraph,
    detail_view,
    grouped_view,
    item_label,
)
from .label_names import hover_names, shared_path, told_apart
from .topology_fit import (
    SCROLLBAR_PX,
    TALL_ROW_PX,
    Canvas,
    column_x,
    cut_apart,
    fits,
    keep_circles_apart,
    label_budget,
    label_px,
    needed,
    port_offset,
    row_px,
)
from .topology_fit import camera as camera_at
from .topology_wrap import LINE_PX, second_line_nodes, wrapped_labels

__all__ = [
    "COLUMN_GAP",
    "ROWS_PER_CHARACTER",
    "ViewData",
    "view_data",
    "grouped_data",
    "start_camera",
    "detail_node",
    "shared_path",
    "told_apart",
    "hover_names",
    "line_colour",
    "mix",
]

COLUMN_GAP = 10.0
"""Rows between two columns: a grouped overview fills a landscape canvas, and at the zoom
where rows can be read a label has room before the next column."""
ROWS_PER_CHARACTER = 0.5
"""Node by node, a column is as far from the next as its longest label needs, in rows per
character (labels are cut to 48 characters): labels keep a fixed size in pixels while
sigma zooms the positions, so at the zoom that fits the view's width into the canvas they
end before the next column, and zooming in only spreads them."""
_LONGEST_LABEL = 48
FADED = 0.82
"""How far a highlight fades what it leaves out (0: not at all, 1: white)."""
_DETAIL_SIZE = {"profile": 3.5, "agent": 3.0, "response": 3.0, "channel": 3.5, "partner": 4.5}
_GROUP_SIZE = (4.0, 11.0)  # smallest and biggest grouped node, in pixels at the start zoom


@dataclass(frozen=True)
class ViewData:
    """A view ready for sigma.js: `graph` (string keys, drawing attributes), `members`
    (key -> estate node ids), the grouping (None: node by node), the legend."""

    graph: nx.DiGraph[str]
    members: dict[str, tuple[Hashable, ...]]
    group_by: str | None
    focused: bool
    legend: list[LegendItem]
    camera: dict[str, float] | None = None
    """Where the camera starts when the view was fitted to a canvas (`topology_fit`)."""
    size: tuple[int, int] | None = None
    """The canvas it is drawn on, width and height in pixels, when fitted: the canvas it
    was laid out for, or a bigger one when it does not fit that (the view scrolls)."""
    hover: dict[str, str] = field(default_factory=dict)
    """Drawn label -> the whole one, where it was cut (`hover_names`)."""
    uncut: dict[str, tuple[str, float]] = field(default_factory=dict)
    """Key -> its label uncut and the pixels its column gives it, for each label cut to fit
    the canvas: a front end whose type keeps its size as it zooms in (the offline view)
    has that room times the zoom, and draws more of the label (`offline/levels.py`)."""

    def item(self, key: str) -> Hashable | None:
        """The estate node a key stands for, or None for a group of several."""
        members = self.members.get(key, ())
        return members[0] if len(members) == 1 else None


def view_data(
    graph: EstateGraph,
    *,
    group_by: str | None,
    focus: set[Hashable] | None = None,
    canvas: Canvas | None = None,
) -> ViewData:
    """The estate graph as the interactive view shows it: grouped by `group_by` (as
    `plot_topology` decides it, see `plot.topology.grouping`) or node by node. Given the
    `canvas` it starts in, a view that fits is laid out in its pixels (`topology_fit`)."""
    view = grouped_view(graph, group_by, focus) if group_by else detail_view(graph, focus)
    data = _to_sigma(view, group_by, focused=focus is not None, canvas=canvas)
    release(view)
    return data


def grouped_data(
    graph: EstateGraph,
    *,
    group_by: str,
    focus: set[Hashable] | None = None,
    canvas: Canvas | None = None,
    min_profile_groups: int = 0,
    views: GroupedViews | None = None,
) -> ViewData | None:
    """`view_data` grouped by `group_by`, or None when the grouping makes fewer than
    `min_profile_groups` profile groups: a grouping tried and refused costs its view, not
    its layout, nor its view when counting its groups tells (`GroupedViews.profile_groups`):
    this was three quarters of an offline file's levels. `views`: this graph's grouped
    views, made once and shared (the Explorer's static copy and a docs page's SVG and
    Mermaid chart draw them), without a focus."""
    own = views is None or views.graph is not graph
    views = GroupedViews(graph) if own or views is None else views  # its groups made once
    if min_profile_groups > 1 and views.profile_groups(group_by, once=own) < min_profile_groups:
        return None
    view = views.view(group_by, focus)
    data = _to_sigma(view, group_by, focused=focus is not None, canvas=canvas)
    if own or focus is not None:
        release(view)
    return data


def start_camera(data: ViewData, *, aspect: float = 1.3) -> dict[str, float]:
    """Where the camera starts (sigma's `camera_state`) on a canvas `aspect` times as wide
    as high: the whole view, unless it is a tall view node by node; that one starts at its
    top, zoomed until its columns and the last column's labels fill the width (so that
    labels end before the next column, see `ROWS_PER_CHARACTER`), and the reader pans down.

    Sigma fits the whole graph in the canvas at `ratio` 1 (its longer side spanning 0..1
    of the camera's coordinates, centred); a smaller ratio zooms in.
    """
    if data.camera is not None:  # laid out for its canvas: the camera that goes with it
        return dict(data.camera)
    whole = {"x": 0.58, "y": 0.5, "ratio": 1.2, "angle": 0.0}
    nodes = data.graph.nodes
    xs = [a["x"] for a in nodes.values()]
    ys = [a["y"] for a in nodes.values()]
    if not xs or data.group_by is not None:
        return whole
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    right = max(xs)
    last = max((len(str(a["label"])) for a in nodes.values() if a["x"] == right), default=0)
    labels = (last + 2) * ROWS_PER_CHARACTER  # drawn labels, cut already: right of the column
    ratio = (width + labels) / max(height, 1e-9) / aspect
    if ratio >= 0.8:  # wider than the canvas, or nearly: the whole view reads
        return whole
    ratio = max(ratio, 0.002)
    # centred on the columns and the labels right of them, a little room kept on the left
    # for the canvas's buttons
    centre = 0.5 + (labels / 2 - 0.05 * (width + labels)) / height
    return {"x": centre, "y": 1.0 - ratio / 2, "ratio": ratio, "angle": 0.0}


def detail_node(graph: EstateGraph, node: Hashable) -> Hashable:
    """The item whose details a click on `node` opens: an input agent or response unit is
    part of its profile; anything else is itself."""
    if not isinstance(node, str) or node not in graph:  # estate nodes are strings
        return node
    if graph.nodes[node].get("kind") in ("agent", "response"):
        for owner in graph.pred[node]:
            if graph.nodes[owner].get("kind") == "profile":
                return owner
    return node


def _to_sigma(
    view: ViewGraph, group_by: str | None, *, focused: bool, canvas: Canvas | None = None
) -> ViewData:
    """`view` as sigma.js draws it: its names, laid out (in the canvas's pixels when it is
    fitted), nodes and edges with their looks, the camera, the legend."""
    grouped = group_by is not None
    placed = place_view(view, grouped=grouped)
    label_of, said = _names(view, group_by)
    on = _pixel_canvas(view, placed, canvas)
    room = _label_room(view, placed, said, on) if on else _row_room(placed, said, grouped)
    labels = {  # drawn and whole
        node: tuple(
            f"{KIND_GLYPHS.get(data['kind'], '')} {text}".strip()
            for text in (room.drawn[node], label_of[node])
        )
        for node, data in view.nodes(data=True)
    }
    keys = _keys(view)
    drawn = [label for label, _ in labels.values()]
    out = _sigma_nodes(view, placed, room, keys, label_of, drawn, grouped=grouped, focused=focused)
    framed = _frame(out, view, placed, room, keys)
    _sigma_edges(out, view, placed, keys, framed, grouped=grouped, focused=focused)
    members = {keys[node]: tuple(data["members"]) for node, data in view.nodes(data=True)}
    camera = framed.camera if framed else None
    size = framed.size if framed else None
    hover = hover_names((drawn, whole) for drawn, whole in labels.values())
    legend = _legend(view, grouped=grouped, focused=focused)
    uncut = _uncut(view, placed, room, said, keys)
    return ViewData(out, members, group_by, focused, legend, camera, size, hover, uncut)


def _uncut(
    view: ViewGraph,
    placed: LayeredLayout,
    room: _Room,
    said: dict[Hashable, str],
    keys: dict[Hashable, str],
) -> dict[str, tuple[str, float]]:
    """Each label cut to its column's room: key -> (its label uncut, that room)."""
    if not room.budget:
        return {}
    out: dict[str, tuple[str, float]] = {}
    for node, data in view.nodes(data=True):
        if room.drawn[node] != said[node]:
            glyph = KIND_GLYPHS.get(data["kind"], "")
            text = f"{glyph} {said[node]}".strip()
            out[keys[node]] = (text, room.budget[placed.pos[node][0]])
    return out


@dataclass(frozen=True)
class _Room:
    """Where the columns stand and what each label keeps: `drawn` (node -> its label as
    drawn, without its glyph), `x_of` (column -> x), `step` (y between rows) and, when laid
    out in pixels, `budget` (column -> pixels its labels may take) and the `canvas`."""

    drawn: dict[Hashable, str]
    x_of: dict[float, float]
    step: float
    budget: dict[float, float] = field(default_factory=dict)
    canvas: Canvas | None = None
    second: dict[Hashable, str] = field(default_factory=dict)
    """Node -> the second line of its label, where it is wrapped onto two (`topology_wrap`)."""
    indents: dict[Hashable, float] = field(default_factory=dict)
    """Node -> its glyph's width in pixels (and a space): where its name starts."""


@dataclass(frozen=True)
class _Frame:
    """A fitted view's camera, the canvas size it is drawn on, and its ports (node ->
    the key of the port its edges leave from)."""

    camera: dict[str, float]
    size: tuple[int, int]
    ports: dict[Hashable, str]


def _names(
    view: ViewGraph, group_by: str | None
) -> tuple[dict[Hashable, str], dict[Hashable, str]]:
    """Each node's whole name, and the name drawn: a group's count without its inactive
    (said on hover and in the details; an all-inactive node is drawn grey), a drilled
    group's subgroups without the path they share; node by node, names told apart where
    they would read the same."""
    grouped = group_by is not None
    label_of = {
        node: item_label(data) if grouped else str(data["label"])
        for node, data in view.nodes(data=True)
    }
    if not grouped:
        label_of = told_apart(view, label_of)
        return label_of, dict(label_of)
    said = {node: item_label(data, inactive=False) for node, data in view.nodes(data=True)}
    if group_by == "group":
        profiles = [node for node, data in view.nodes(data=True) if data["kind"] == "profile"]
        cut = len(shared_path([str(view.nodes[node]["label"]) for node in profiles]))
        for node in profiles:
            said[node] = said[node][cut:]
    return label_of, said


def _pixel_canvas(view: ViewGraph, placed: LayeredLayout, canvas: Canvas | None) -> Canvas | None:
    """The canvas the view is laid out on in pixels: `canvas` when the view fits it, or is
    not too big to pan through (less its scroll bar, as the panel then scrolls); None: the
    view keeps the layout in rows."""
    if canvas is None:
        return None
    if fits(placed.rows, canvas):
        return canvas
    if view.number_of_nodes() <= PIXEL_LAYOUT_NODES and placed.rows * TALL_ROW_PX <= MAX_CANVAS_PX:
        return Canvas.of(canvas.width - SCROLLBAR_PX, canvas.height, lines=canvas.lines)
    return None


def _label_room(
    view: ViewGraph, placed: LayeredLayout, said: dict[Hashable, str], canvas: Canvas
) -> _Room:
    """Columns in the canvas's pixels, each label cut to the room its column has (cut apart
    where two would read the same)."""
    glyphs = {n: f"{KIND_GLYPHS.get(view.nodes[n]['kind'], '')} " for n in view.nodes}
    texts: dict[float, list[str]] = {}
    for node, (column, _) in placed.pos.items():
        texts.setdefault(column, []).append(glyphs[node] + said[node])
    budget = label_budget(texts, canvas)
    indents = {n: label_px(glyphs[n]) for n in view.nodes}
    columns = {n: placed.pos[n][0] for n in view.nodes}
    two = wrapped_labels(said, indents, columns, placed.rows, budget, canvas)
    if two is not None:  # a narrow canvas: labels on two lines (topology_wrap)
        return _Room(two.first, two.x_of, two.step, two.budget, two.canvas, two.second, indents)
    # the name is cut to the room its glyph leaves: a cut never reaches into the glyph
    rooms = {n: budget[placed.pos[n][0]] - indents[n] for n in view.nodes}
    drawn = cut_apart(said, rooms)
    step = row_px(placed.rows, canvas)
    return _Room(drawn, column_x(budget), step, budget, canvas, indents=indents)


def _row_room(placed: LayeredLayout, said: dict[Hashable, str], grouped: bool) -> _Room:
    """Columns in rows, as far apart as their labels need; labels node by node cut short."""
    drawn = {node: text if grouped else _short(text) for node, text in said.items()}
    return _Room(drawn, _column_positions(placed.pos, drawn, grouped), 1.0)


def _sigma_nodes(
    view: ViewGraph,
    placed: LayeredLayout,
    room: _Room,
    keys: dict[Hashable, str],
    label_of: dict[Hashable, str],
    drawn: list[str],
    *,
    grouped: bool,
    focused: bool,
) -> nx.DiGraph[str]:
    """The sigma graph's nodes: placed, labelled, with their look and facts."""
    biggest: dict[str, int] = {}
    for _, data in view.nodes(data=True):
        biggest[data["kind"]] = max(biggest.get(data["kind"], 1), _weight(data))
    out: nx.DiGraph[str] = nx.DiGraph()
    shown = cast("Iterable[tuple[Hashable, dict[str, Any]]]", view.nodes(data=True))
    out.add_nodes_from(  # at once: a level of an HTML file is one of 1,700
        (
            keys[node],
            {
                "x": room.x_of[placed.pos[node][0]],
                # sigma's y grows upwards; the layout's rows grow downwards
                "y": -placed.pos[node][1] * room.step,
                "label": label,
                "name": label_of[node],  # the whole name, for the line under the canvas
                "crumb": str(data["label"]),  # the name without counts, for the breadcrumb
                **_node_look(data, grouped, focused, biggest),
                **_facts(data, grouped),
            },
        )
        for (node, data), label in zip(shown, drawn, strict=True)
    )
    return out


def _frame(
    out: nx.DiGraph[str],
    view: ViewGraph,
    placed: LayeredLayout,
    room: _Room,
    keys: dict[Hashable, str],
) -> _Frame | None:
    """A view laid out in pixels: the canvas it is drawn on (grown when it does not fit),
    the camera that shows it, node sizes kept apart in their columns and scaled to that
    camera, and a port right of each label for its edges to leave from. None for a view
    laid out in rows."""
    if room.canvas is None:
        return None
    xs = [a["x"] for _, a in out.nodes(data=True)]
    ys = [a["y"] for _, a in out.nodes(data=True)]
    last = max(room.x_of.values(), default=0.0)
    right = last + port_offset(_widest_drawn(placed, room, last))
    rows = placed.rows + (LINE_PX / room.step if room.second else 0.0)  # a last second line
    drawn_on = room.canvas.grown(*needed(min(xs, default=0.0), right, rows, room.step))
    keep_circles_apart((data for _, data in out.nodes(data=True)), _GROUP_SIZE[0])
    second = second_line_nodes(  # indented by the node's radius (unscaled) and its glyph
        {
            keys[n]: (text, out.nodes[keys[n]]["size"] + room.indents[n])
            for n, text in room.second.items()
        },
        out.nodes,
    )
    # sigma fits every node, the invisible ones that draw second lines too: the camera
    # counts them, or what is drawn sits off centre (by an indent, some 20 px)
    lines = second.values()
    camera = camera_at(
        xs + [line["x"] for line in lines], ys + [line["y"] for line in lines], right, drawn_on
    )
    _scale_sizes(out, camera["ratio"])
    ports = _add_ports(out, view, keys, placed.pos, room.x_of, room.budget)
    out.add_nodes_from(second.items())
    return _Frame(camera, (round(drawn_on.width), drawn_on.height), ports)


def _widest_drawn(placed: LayeredLayout, room: _Room, x: float) -> float:
    """The widest label drawn in the column at `x` (a second line indented by the glyph):
    where the drawing ends. Its `budget` may be wider than any label on two lines."""
    widths = [
        room.indents[node] + max(label_px(room.drawn[node]), label_px(room.second.get(node, "")))
        for node, (column, _) in placed.pos.items()
        if room.x_of[column] == x
    ]
    return max(widths, default=0.0)


def _sigma_edges(
    out: nx.DiGraph[str],
    view: ViewGraph,
    placed: LayeredLayout,
    keys: dict[Hashable, str],
    framed: _Frame | None,
    *,
    grouped: bool,
    focused: bool,
) -> None:
    """The sigma graph's edges, each as wide as its count; in a fitted view from the port
    of its left end, thinned to the camera's zoom."""
    weights: Iterable[tuple[Hashable, Hashable, int]] = view.edges(data="weight")  # counts
    widest = max((w for _, _, w in weights), default=1)
    edges: list[tuple[str, str, dict[str, Any]]] = []
    for u, v, data in view.edges(data=True):
        look = _edge_look(data, grouped, focused, widest)
        if framed is None:
            edges.append((keys[u], keys[v], look))
            continue
        left, right_end = (u, v) if placed.pos[u][0] <= placed.pos[v][0] else (v, u)
        look["size"] = round(look["size"] * framed.camera["ratio"] ** 0.5, 3)
        edges.append((framed.ports.get(left, keys[left]), keys[right_end], look))
    out.add_edges_from(edges)


def _legend(view: ViewGraph, *, grouped: bool, focused: bool) -> list[LegendItem]:
    """The legend's lines in the colours the canvas draws."""
    return [
        replace(item, colour=line_colour(item.style)) if item.style else item
        for item in legend_items(view, grouped=grouped, focused=focused)
    ]


PIXEL_LAYOUT_NODES = 4000
"""Past this many nodes a view too tall for its canvas keeps the layout in rows (the whole
10,000-profile estate node by node: 31,000 nodes, no room for labels anyway)."""
MAX_CANVAS_PX = 12_000
"""Tallest canvas a view is drawn on (WebGL's buffers stop at 16,384 px in most browsers):
a view taller than that node by node keeps the layout in rows."""
PORT_SUFFIX = " \u2192"
"""A port's key: its node's key and an arrow (`group:profile:Finance →`)."""
_INVISIBLE = "rgba(255,255,255,0)"


def _scale_sizes(out: nx.DiGraph[str], ratio: float) -> None:
    """sigma draws a node `size / sqrt(ratio)` pixels big: sizes meant in pixels at the start
    camera are scaled so (else a view zoomed in at its start has giant circles)."""
    factor = ratio**0.5
    for _, data in out.nodes(data=True):
        data["size"] = round(data["size"] * factor, 3)
        data["halo"] = round(data["halo"] * factor, 3)


def _add_ports(
    out: nx.DiGraph[str],
    view: ViewGraph,
    keys: dict[Hashable, str],
    pos: dict[Hashable, tuple[float, float]],
    x_of: dict[float, float],
    budget: dict[float, float],
) -> dict[Hashable, str]:
    """An invisible node after the label of every node with edges to its right: the edges
    leave from there, so no label is drawn over its own fan of edges."""
    ports: dict[Hashable, str] = {}
    for u, v in view.edges():
        for node, other in ((u, v), (v, u)):
            if pos[node][0] < pos[other][0] and node not in ports:
                column, _ = pos[node]
                key = keys[node] + PORT_SUFFIX
                data = out.nodes[keys[node]]
                out.add_node(
                    key,
                    x=x_of[column] + port_offset(budget[column]),
                    y=data["y"],
                    label="",
                    name="",
                    crumb="",
                    color=_INVISIBLE,
                    border=_INVISIBLE,
                    label_color=_INVISIBLE,
                    size=0.01,
                    halo=0.0,
                    zindex=0,
                    kind="port",
                )
                ports[node] = key
    return ports


def _short(text: str, longest: int = _LONGEST_LABEL) -> str:
    """A label as drawn: cut to `longest` characters, so that it ends before the next
    column (the whole name shows when the node is clicked)."""
    return text if len(text) <= longest else text[: max(longest - 1, 1)].rstrip() + "…"


def _column_positions(
    pos: dict[Hashable, tuple[float, float]], label_of: dict[Hashable, str], grouped: bool
) -> dict[float, float]:
    """Column -> x: `COLUMN_GAP` rows apart when grouped, else each column as far from the
    next as its longest label needs (`ROWS_PER_CHARACTER`); an empty column takes none."""
    if grouped:
        return {column: column * COLUMN_GAP for column, _ in pos.values()}
    longest: dict[float, int] = {}
    for node, (column, _) in pos.items():
        longest[column] = max(longest.get(column, 0), len(label_of[node]))
    x_of: dict[float, float] = {}
    x = 0.0
    for column in sorted(longest):
        x_of[column] = x
        x += (longest[column] + 4) * ROWS_PER_CHARACTER
    return x_of


def _keys(view: ViewGraph) -> dict[Hashable, str]:
    """String keys: estate node ids as they are, groups `group:<kind>:<label>` (unique)."""
    keys: dict[Hashable, str] = {}
    taken: set[str] = set()
    for node, data in view.nodes(data=True):
        key = f"group:{data['kind']}:{data['label']}" if isinstance(node, tuple) else str(node)
        base, number = key, 2
        while key in taken:
            key, number = f"{base} #{number}", number + 1
        taken.add(key)
        keys[node] = key
    return keys


def _weight(data: dict[str, Any]) -> int:
    """What a grouped node's size shows, as in the static diagrams: the profiles reaching it."""
    return max(int(data.get("reach", data["count"])), 1)


def _node_look(
    data: dict[str, Any], grouped: bool, focused: bool, biggest: dict[str, int]
) -> dict[str, Any]:
    kind = data["kind"]
    fill = node_colour(kind, data["type"])
    border = "#FFFFFF"
    if data["unresolved"]:
        fill = border = UNRESOLVED_COLOUR
    elif data["problem"]:
        fill, border = "#FFFFFF", PROBLEM_COLOUR
    elif data["inactive"] >= data["count"]:
        fill, border = INACTIVE_FILL, fill
    if grouped:
        small, large = _GROUP_SIZE
        size = small + (large - small) * (_weight(data) / biggest[kind]) ** 0.5
    else:
        size = _DETAIL_SIZE.get(kind, 3.0)
    in_focus = not focused or data["focus"]
    label_colour = "#1F2328"
    if data["unresolved"] or data["problem"]:
        label_colour = UNRESOLVED_COLOUR
    elif data["inactive"] >= data["count"]:
        label_colour = "#6E7781"
    if not in_focus:
        fill, border, label_colour = mix(fill, FADED), mix(border, FADED), mix(label_colour, 0.6)
    return {
        "color": fill,
        "border": border,
        "label_color": label_colour,
        "size": round(size, 2),
        "halo": 6.0 if focused and data["focus"] else 0.0,
        "zindex": 1 if in_focus else 0,
    }


def _facts(data: dict[str, Any], grouped: bool) -> dict[str, Any]:
    """What the reader is told about a node (its hover label says the name and counts)."""
    facts: dict[str, Any] = {"kind": KIND_LABELS.get(data["kind"], str(data["kind"]))}
    if data["type"] and data["kind"] not in ("partner", "profile"):
        facts["type"] = type_label(data["type"])
    if grouped:
        facts["count"] = data["count"]
        facts["inactive"] = data["inactive"]
        facts["profiles reaching it"] = data.get("reach", 0)
    else:
        facts["active"] = data["inactive"] == 0
    return facts


def _edge_look(data: dict[str, Any], grouped: bool, focused: bool, widest: int) -> dict[str, Any]:
    colour = line_colour(data["style"])
    if data["inactive"]:
        colour = mix(colour, 0.6)
    in_focus = not focused or data["focus"]
    if not in_focus:
        colour = mix(colour, FADED)
    size = 0.6 + 5.0 * (data["weight"] / widest) ** 0.5 if grouped else 0.7
    if focused and data["focus"]:
        size *= 1.8
    return {"color": colour, "size": round(size, 2), "weight": data["weight"]}


def line_colour(style: str) -> str:
    """A line style's colour on the canvas: sigma draws no dotted lines, so a channel
    named only by its id is a paler blue instead."""
    colour = LINE_COLOURS[style]
    return mix(colour, 0.55) if style == "ref" else colour


def mix(colour: str, share: float, other: str = "#FFFFFF") -> str:
    """`colour` (`#RRGGBB`) moved `share` of the way towards `other` (white: paler)."""
    a = [int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    b = [int(other.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(x + (y - x) * share):02X}" for x, y in zip(a, b, strict=True))
