"""The interactive views of the site's pages, with the work pages share done once a run.

A page's view is the offline view's payload of its part of the graph
(`offline.view.view_payload` with `every_item=False`: no findings, no path graph), built
here from the same pieces, the offline view's and the Explorer's, but with what pages have
in common done once (`SharedWork`): a group's page opens the levels its parent's page
opens below that group (the same profiles, so the same part of the graph and the same
layout), and an item's details are asked of the whole estate's graph, the same on every
page. At 10,000 profiles the pages laid out 2,503 levels, 2,084 of them distinct, and
gathered 21,232 items' details, 8,900 distinct. A test holds each page's payload equal to
`view_payload`'s; where the time still goes is `viewmodel.drill.auto_view` (its
`view_data`: `topology.view.grouped_view`, the layout) and `viewmodel.topology_data.group_graph`
for levels, `viewmodel.item_html.detail_sections` for details.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ..offline.details_data import ItemTable, section_json
from ..offline.levels import CUT, KINDS, OPENS, Interned, Level, level_json
from ..offline.view import FORMAT
from ..query.reach import graph_order
from ..viewmodel.drill import auto_view
from ..viewmodel.item_html import detail_sections
from ..viewmodel.topology_data import ViewData, detail_node, group_graph

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from ..viewmodel.explorer_model import ExplorerModel
    from ..viewmodel.item_html import Section
    from ..viewmodel.topology_fit import Canvas

__all__ = ["SharedWork", "page_payload", "drill_levels", "item_details"]

_Nodes = tuple[str, ...]
"""A part of the estate graph by its nodes in the graph's order: every part is an induced
subgraph of the estate graph (`query.reach.induced_subgraph`), so its nodes name it,
edges and attributes included."""


class SharedWork:
    """What the views of one site's pages share, kept for the run: levels laid out, by the
    part of the graph they draw; groups opened, by the part and the members; each item's
    details. The estate's graph must not change meanwhile (it is frozen)."""

    def __init__(self, model: ExplorerModel, canvas: Canvas) -> None:
        self.model = model
        self.canvas = canvas
        self.inside = frozenset(str(node) for node in model.graph.nodes)
        self._levels: dict[_Nodes, ViewData] = {}
        self._opened: dict[tuple[_Nodes, frozenset[Hashable]], tuple[_Nodes, EstateGraph]] = {}
        self._sections: dict[str, list[Section]] = {}

    def level(self, nodes: _Nodes, part: EstateGraph) -> ViewData:
        """The part laid out for the canvas (`drill.auto_view`), once a run."""
        if nodes not in self._levels:
            self._levels[nodes] = auto_view(part, canvas=self.canvas)
        return self._levels[nodes]

    def opened(
        self, nodes: _Nodes, part: EstateGraph, members: frozenset[Hashable]
    ) -> tuple[_Nodes, EstateGraph]:
        """What opening a group of `members` in `part` shows (`group_graph`), once a run."""
        key = (nodes, members)
        if key not in self._opened:
            inner = group_graph(part, members)
            self._opened[key] = (tuple(inner.nodes), inner)
        return self._opened[key]

    def sections(self, node: str) -> list[Section]:
        """The item's details as the Explorer's Details tab has them, once a run."""
        if node not in self._sections:
            self._sections[node] = detail_sections(self.model, node, self.inside)
        return self._sections[node]


def drill_levels(
    part: EstateGraph, work: SharedWork, max_nodes: int
) -> tuple[list[Level], dict[tuple[int, str], int]]:
    """`offline.levels.drill_levels` of the part (the overview and each profile group
    opened, breadth first, while at most `max_nodes` nodes are laid out), each level and
    each group opened taken from `work` when another page has it."""
    nodes = tuple(part.nodes)
    first = work.level(nodes, part)
    levels = [Level("Overview", first)]
    opens: dict[tuple[int, str], int] = {}
    known: dict[frozenset[Hashable], int] = {}
    total = first.graph.number_of_nodes()
    queue: deque[tuple[int, _Nodes, EstateGraph]] = deque([(0, nodes, part)])
    while queue:
        index, nodes, part = queue.popleft()
        data = levels[index].data
        for key, members in data.members.items():
            if len(members) < 2 or not key.startswith(OPENS):
                continue
            sign = frozenset(members)
            if sign not in known:
                if total >= max_nodes:
                    continue
                inner_nodes, inner = work.opened(nodes, part, sign)
                child = work.level(inner_nodes, inner)
                total += child.graph.number_of_nodes()
                known[sign] = len(levels)
                crumb = str(data.graph.nodes[key].get("crumb") or key)
                levels.append(Level(crumb, child))
                queue.append((known[sign], inner_nodes, inner))
            opens[(index, key)] = known[sign]
    return levels, opens


def item_details(table: ItemTable, work: SharedWork, strings: Interned) -> list[list[Any]]:
    """`ItemTable.details`: each item's sections as the script reads them, the sections
    taken from `work` when another page has them."""
    graph = work.model.graph
    with graph_order(graph):  # two questions per new item: sorted by a table, not a walk
        return [
            [section_json(section, table, strings) for section in work.sections(str(node))]
            for node in table.nodes
        ]


def page_payload(part: EstateGraph, work: SharedWork, max_nodes: int) -> dict[str, Any]:
    """The payload `offline.view.view_payload(part, model, canvas=work.canvas, title="",
    lines=[], max_nodes=max_nodes, every_item=False)` gives, the shared work done once."""
    graph = work.model.graph
    levels, opens = drill_levels(part, work, max_nodes)
    table = ItemTable(graph, _drawn_items(part, levels))
    palette, strings = Interned(), Interned()
    shown = [
        level_json(level, functools.partial(_opened, opens, number), table, palette, strings, graph)
        for number, level in enumerate(levels)
    ]
    details = item_details(table, work, strings)
    return {
        "v": FORMAT,
        "title": "",
        "lines": [],
        "canvas": [round(work.canvas.width), work.canvas.height],
        "kinds": list(KINDS),
        "palette": palette.texts,
        "strings": strings.texts,
        "levels": shown,
        "items": table.rows(),
        "details": details,
        "cut": any(g[3] == CUT for level in shown for g in level["groups"].values()),
    }


def _opened(opens: dict[tuple[int, str], int], level: int, key: str) -> int | None:
    return opens.get((level, key))


def _drawn_items(part: EstateGraph, levels: list[Level]) -> list[str]:
    """The items some level draws on its own (an agent or unit: its profile), in the
    part's order (as `offline.view` chooses them for a docs page)."""
    drawn: set[Hashable] = set()
    for level in levels:
        for key in level.data.members:
            node = level.data.item(key)
            if node is not None:
                drawn.add(detail_node(part, node))
    return [node for node in part.nodes if node in drawn]
