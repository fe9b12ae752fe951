"""What an offline view carries: its levels, its items and their details, as one payload.

`view_payload` gathers it for a graph (the whole estate's, or a docs page's part of it):
the levels a reader can reach (`levels.drill_levels`), laid out for `canvas`, the table of
items with their details (`items.ItemTable`), the palette and the title lines. Details are
asked of the whole estate's graph (`model.graph`), as in the Explorer: what stops if a
channel goes away does not depend on the part drawn. An HTML file also carries the audit's
findings on the map (`findings_data`) and the graph its script walks for paths
(`item_graph`); a docs page's view neither (the site has its findings page).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from ..models import gc_paused
from ..query.graph import release
from ..query.paths import DEFAULT_CUTOFF, DEFAULT_LIMIT
from ..query.reach import graph_order
from ..support.progress import NO_PROGRESS, Progress
from ..topology.finding_marks import worst_by_node
from ..viewmodel.topology_data import detail_node
from ..viewmodel.topology_fit import Canvas
from .details_data import ItemTable
from .findings_data import findings_json, level_marks
from .item_graph import graph_json, level_members
from .levels import CUT, KINDS, MAX_NODES, Interned, Level, drill_levels, level_json

if TYPE_CHECKING:
    from ..auditing.finding import Finding
    from ..query.graph import EstateGraph
    from ..viewmodel.explorer_model import ExplorerModel
    from ..viewmodel.topology_data import ViewData

__all__ = [
    "FORMAT",
    "FILE_CANVAS",
    "view_payload",
    "chosen_overview",
    "levels_json",
    "payload_dict",
    "drawn_items",
]

FORMAT = 1
"""The payload's version, for the script (`payload.v`)."""
FILE_CANVAS = Canvas.of(860, 620)
"""The canvas an HTML file's levels are laid out for: a 1,280 px window less the details
beside it. A wider window shows them at that scale with room around; a narrower one
scales them down, type and all, so nothing overlaps (the script)."""


def view_payload(
    part: EstateGraph,
    model: ExplorerModel,
    *,
    canvas: Canvas = FILE_CANVAS,
    title: str,
    lines: list[str],
    overview: ViewData | None = None,
    max_nodes: int = MAX_NODES,
    every_item: bool = True,
    findings: Iterable[Finding] | None = None,
    paths: bool = False,
    progress: Progress = NO_PROGRESS,
) -> dict[str, Any]:
    """The payload of a view of `part` (see the module docstring): `title` and `lines` head
    it (a count line, where the estate comes from), `overview` is the first level when the
    caller chose its grouping (else `drill.auto_view`'s). Details and search cover every
    item of the part, or (`every_item` False: a docs page) those its levels draw.
    `findings` (the audit's, of the estate drawn) mark the map; `paths` embeds the graph
    for the script's path view. `progress` hears of its two long steps: the levels laid
    out, counted, and every item's details, counted to their total.

    The collector is paused meanwhile (`gc_paused`): the thousands of graphs laid out
    make no garbage in cycles (each is `release`d), and the collector's full passes
    over the estate at every few hundred of them were a quarter of the time."""
    with gc_paused():
        return _payload(
            part,
            model,
            canvas=canvas,
            title=title,
            lines=lines,
            overview=overview,
            max_nodes=max_nodes,
            every_item=every_item,
            findings=findings,
            paths=paths,
            progress=progress,
        )


def chosen_overview(
    graph: EstateGraph, group_by: str | Literal[False] | None, canvas: Canvas
) -> ViewData | None:
    """The first level as `group_by` asks for it (as `show_topology` takes it: a grouping,
    False for every node), or None: the view chooses (`drill.auto_view`)."""
    from ..plot.topology import grouping
    from ..viewmodel.topology_data import view_data

    if group_by is None:
        return None
    chosen = grouping(graph, group_by) if group_by is not False else None
    return view_data(graph, group_by=chosen, canvas=canvas)


def _payload(
    part: EstateGraph,
    model: ExplorerModel,
    *,
    canvas: Canvas,
    title: str,
    lines: list[str],
    overview: ViewData | None,
    max_nodes: int,
    every_item: bool,
    findings: Iterable[Finding] | None,
    paths: bool,
    progress: Progress,
) -> dict[str, Any]:
    """`view_payload`, the collector paused."""
    progress.stage("Laying out the map's levels")
    levels, opens = drill_levels(
        part, canvas, overview=overview, max_nodes=max_nodes, progress=progress
    )
    chosen = list(part.nodes) if every_item else drawn_items(part, levels)
    table = ItemTable(model.graph, chosen)
    palette, strings = Interned(), Interned()
    shown = levels_json(levels, opens, table, model.graph, palette, strings)
    progress.stage("Writing each item's details", total=len(table.nodes))
    with graph_order(model.graph):  # two questions per item: sorted by a table, not a walk
        details = table.details(model, strings, progress)
    progress.stage("Packing the file")
    extra: dict[str, Any] = {}
    if findings is not None:
        found = list(findings)
        worst = worst_by_node(found)
        for level, out in zip(levels, shown, strict=True):
            out["marks"] = level_marks(level.data, worst)
        extra["findings"] = findings_json(found, table, model.graph, strings)
    if paths:
        extra["graph"], index = graph_json(part, table, strings)
        extra["limits"] = [DEFAULT_LIMIT, DEFAULT_CUTOFF]
        for level, out in zip(levels, shown, strict=True):
            out["g"] = level_members(level.data, index)
    for level in levels:
        release(level.data.graph)
    return {**payload_dict(title, lines, canvas, palette, strings, shown, table, details), **extra}


def levels_json(
    levels: list[Level],
    opens: dict[tuple[int, str], int],
    table: ItemTable,
    graph: EstateGraph,
    palette: Interned,
    strings: Interned,
) -> list[dict[str, Any]]:
    """Each level as the script reads it (`level_json`), its groups' levels numbered."""
    return [
        level_json(level, functools.partial(_opened, opens, number), table, palette, strings, graph)
        for number, level in enumerate(levels)
    ]


def payload_dict(
    title: str,
    lines: list[str],
    canvas: Canvas,
    palette: Interned,
    strings: Interned,
    shown: list[dict[str, Any]],
    table: ItemTable,
    details: list[list[Any]],
) -> dict[str, Any]:
    """The payload the script reads, of its parts (the HTML file's and a docs page's)."""
    return {
        "v": FORMAT,
        "title": title,
        "lines": lines,
        "canvas": [round(canvas.width), canvas.height],
        "kinds": list(KINDS),
        "palette": palette.texts,
        "strings": strings.texts,
        "levels": shown,
        "items": table.rows(),
        "details": details,
        "cut": any(g[3] == CUT for level in shown for g in level["groups"].values()),
    }


def _opened(opens: dict[tuple[int, str], int], level: int, key: str) -> int | None:
    """The level a group `key` of level `level` opens (None: none)."""
    return opens.get((level, key))


def drawn_items(part: EstateGraph, levels: list[Level]) -> list[str]:
    """The items some level draws on its own (an agent or unit: its profile), in the
    part's order."""
    drawn: set[Hashable] = set()
    for level in levels:
        for key in level.data.members:
            node = level.data.item(key)
            if node is not None:
                drawn.add(detail_node(part, node))
    return [node for node in part.nodes if node in drawn]
