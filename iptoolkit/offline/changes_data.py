"""A diff (or a comparison) on an offline view's map, as data (`ipt.export(diff,
"changes.html")`, `ipt.export(comparison, "test-vs-prod.html")`).

The map is the topology of both snapshots in one, drilled into as the estate's own file
is (`levels.drill_levels` over the union graph), each level painted with its marks
(`viewmodel.change_marks`: `plot_diff`'s colours) before it is written. Each level also
carries its news, `changes`: `[node index, status index, breaking items, news]` for every
node with some (`news` a group's `+2 −1 ~3 !1`, an index into the strings), and `near`,
the nodes "Changes only" leaves unfaded, which `assets/changes.js` reads: a ring in the
breaking colour, the news under a group, the toggle. An item's details open with what
changed (`MarkedMap.sections`), then the item as the newer snapshot holds it, or,
removed, as the older one held it (a comparison: as B holds it, or A). A comparison's
map speaks its own statuses (`MarkedMap.marked.marking`), which the script reads.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from ..models import gc_paused
from ..query.graph import release
from ..query.reach import graph_order
from ..topology.style import BREAKING_COLOUR
from ..viewmodel.change_marks import LevelMarks, MarkedMap, level_marks, paint
from ..viewmodel.item_html import detail_sections
from .details_data import ItemTable, section_json
from .levels import MAX_NODES, Interned, drill_levels, legend_entry
from .view import FILE_CANVAS, chosen_overview, drawn_items, levels_json, payload_dict

if TYPE_CHECKING:
    from ..viewmodel.explorer_model import ExplorerModel
    from ..viewmodel.topology_data import ViewData
    from ..viewmodel.topology_fit import Canvas

__all__ = ["map_payload", "level_news"]


def map_payload(
    changes: MarkedMap,
    *,
    title: str,
    lines: list[str],
    group_by: str | Literal[False] | None = None,
    canvas: Canvas = FILE_CANVAS,
    max_nodes: int = MAX_NODES,
    every_item: bool = True,
) -> dict[str, Any]:
    """The payload of a diff's or a comparison's HTML file (see the module docstring):
    the estate file's
    parts, laid out for `canvas` (a docs page's column: `docsite.diagrams.VIEW_CANVAS`),
    at most `max_nodes` nodes of levels, details of every item or (`every_item` False: a
    docs page) of those the levels draw, every level marked, and `changes` (the statuses'
    names and colours)."""
    from ..viewmodel.explorer_model import ExplorerModel

    with gc_paused():
        marked = changes.marked
        union = marked.graph
        overview = chosen_overview(union, group_by, canvas)
        levels, opens = drill_levels(union, canvas, overview=overview, max_nodes=max_nodes)
        marks = [level_marks(level.data, marked) for level in levels]
        for level, found in zip(levels, marks, strict=True):
            paint(level.data.graph, found)
        table = ItemTable(union, None if every_item else drawn_items(union, levels))
        palette, strings = Interned(), Interned()
        shown = levels_json(levels, opens, table, union, palette, strings)
        for level, found, out in zip(levels, marks, shown, strict=True):
            out.update(level_news(level.data, found, strings))
        graphs = changes.graphs or (None, None)
        models = (
            ExplorerModel(changes.estates[0], graphs[0]),
            ExplorerModel(changes.estates[1], graphs[1]),
        )
        details = _details(table, changes, models, strings)
        for level in levels:
            release(level.data.graph)
        release(union)
    payload = payload_dict(title, lines, canvas, palette, strings, shown, table, details)
    marking = marked.marking
    payload["changes"] = {
        "statuses": [[s, *marking.looks[s], marking.words[s]] for s in marking.statuses],
        "breaking": BREAKING_COLOUR,
    }
    return payload


def level_news(data: ViewData, marks: LevelMarks, strings: Interned) -> dict[str, Any]:
    """A level's `changes`, `near` and legend as the script reads them."""
    news = [
        [
            number,
            marks.marking.statuses.index(marks.status[key]),
            marks.breaking.get(key, 0),
            strings(marks.news.get(key, "")),
        ]
        for number, key in enumerate(data.graph.nodes)
        if marks.with_news(key)
    ]
    near = [number for number, key in enumerate(data.graph.nodes) if key in marks.near]
    legend = json.dumps([legend_entry(item) for item in marks.legend()])
    return {"changes": news, "near": near, "legend": strings(legend)}


def _details(
    table: ItemTable,
    shown: MarkedMap,
    models: tuple[ExplorerModel, ExplorerModel],
    strings: Interned,
) -> list[list[Any]]:
    """Each item's details: what changed, then the item as the newer snapshot (B) holds
    it, or, held by the other side only, as that side holds it (under its own id there)."""
    sides = [0 if node in models[0].graph else 1 for node in table.nodes]
    out: list[list[Any]] = [[] for _ in table.nodes]
    for side, model in enumerate(models):
        inside = frozenset(str(node) for node in model.graph.nodes)
        own_id = shown.other_ids if side else {}
        with graph_order(model.graph):  # two questions per item: sorted by a table
            for number, node in enumerate(table.nodes):
                if sides[number] != side:
                    continue
                sections = detail_sections(model, own_id.get(str(node), str(node)), inside)
                changed = shown.sections.get(str(node))
                if changed is not None:
                    sections.insert(0, changed)
                out[number] = [section_json(section, table, strings) for section in sections]
    return out
