"""The interactive views of the site's pages, with the work pages share done once a run.

A page's view is the offline view's payload of its part of the graph
(`offline.view.view_payload` with `every_item=False`: no findings, no path graph), built
here from the same pieces, the offline view's and the Explorer's, but with what pages have
in common done once (`SharedWork`): a group's page opens the levels its parent's page
opens below that group (the same profiles, so the same part of the graph and the same
layout), and an item's details are asked of the whole estate's graph, the same on every
page. At 10,000 profiles the pages laid out 2,503 levels, 2,084 of them distinct, and
gathered 21,232 items' details, 8,900 distinct. An item's details are kept as the texts
they write (masked, fields as JSON), so that a page only numbers them in its own tables
(`offline.details_data.section_json`, in two steps). A level's part is kept as its nodes:
a group is opened by walking the estate graph within them, and a part is cut (sharing the
estate graph's attributes) only to be laid out. A test holds each page's payload equal to
`view_payload`'s. Where the time still goes (10,000 profiles, CPU seconds of about 14 in
all, on a busy machine): levels laid out by `viewmodel.drill.auto_view` 4.5 (its layout and
labels 2.7, grouped views and their groups counted 1.5), details 2.6
(`viewmodel.item_html.detail_sections` 1.1, their texts and numbering per page 1.5).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from ..offline.details_data import ItemTable, SectionTexts, numbered, section_texts
from ..offline.levels import Interned, Level, drill_from
from ..offline.view import drawn_items, levels_json, payload_dict
from ..query.graph import release
from ..query.reach import graph_order, induced_subgraph, node_positions
from ..viewmodel.drill import auto_view
from ..viewmodel.item_html import detail_sections
from ..viewmodel.topology_data import ViewData

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from ..topology.view import GroupedViews
    from ..viewmodel.explorer_model import ExplorerModel
    from ..viewmodel.topology_fit import Canvas

__all__ = ["SharedWork", "page_payload", "drill_levels", "item_details"]

_Nodes = tuple[str, ...]
"""A part of the estate graph by its nodes in the graph's order: every part is an induced
subgraph of the estate graph (`query.reach.induced_subgraph`), so its nodes name it,
edges and attributes included, and make it again. A part is made only to be laid out,
and released then: groups are opened by walking the estate graph within the part's nodes
(parts kept held millions of objects the collector walked again and again; parts made
to open groups were a tenth of the levels' time)."""


class SharedWork:
    """What the views of one site's pages share, kept for the run: levels laid out, by the
    part of the graph they draw; groups opened, by the part and the members; each item's
    details. The estate's graph must not change meanwhile (it is frozen)."""

    def __init__(self, model: ExplorerModel, canvas: Canvas) -> None:
        self.model = model
        self.canvas = canvas
        graph = model.graph
        self.inside = frozenset(str(node) for node in graph.nodes)
        self._positions = node_positions(graph)  # a part's order, and the details' answers'
        self._levels: dict[_Nodes, ViewData] = {}
        self._opened: dict[tuple[_Nodes, frozenset[Hashable]], _Nodes] = {}
        self._sections: dict[str, list[SectionTexts]] = {}

    def level(
        self, nodes: _Nodes, part: EstateGraph | None = None, views: GroupedViews | None = None
    ) -> ViewData:
        """The part `nodes` name laid out for the canvas (`drill.auto_view`, with the
        part's grouped `views` when its page has them), once a run; `part`: the part
        itself, when its page made it."""
        if nodes not in self._levels:
            graph = (
                induced_subgraph(self.model.graph, nodes, ordered=True, copy=False)
                if part is None
                else part
            )
            self._levels[nodes] = auto_view(graph, canvas=self.canvas, views=views)
            if part is None:
                release(graph)  # read, dropped now: no cycle for the collector to find
        return self._levels[nodes]

    def opened(self, within: _Within, members: frozenset[Hashable]) -> _Nodes:
        """The nodes of what opening a group of `members` in the part `within` shows, as
        `query.reach.group_graph` finds them in the part (its members and every node on
        their paths within the part), once a run."""
        key = (within.nodes, members)
        found = self._opened.get(key)
        if found is None:
            inside = within.inside
            starts = [node for node in members if isinstance(node, str) and node in inside]
            whole: Any = self.model.graph  # the dicts behind its views: no view per step
            chosen = _reached_within(whole._succ, starts, inside)
            chosen |= _reached_within(whole._pred, starts, inside)
            found = self._opened[key] = tuple(sorted(chosen, key=self._positions.__getitem__))
        return found

    def sections(self, nodes: list[str]) -> list[list[SectionTexts]]:
        """The items' details as the Explorer's Details tab has them, as the texts they
        write, each item's once a run."""
        known = self._sections
        new = [node for node in nodes if node not in known]
        if new:
            # two questions an item: answers sorted by the positions kept, not walked
            with graph_order(self.model.graph, self._positions):
                for node in new:
                    sections = detail_sections(self.model, node, self.inside)
                    known[node] = [section_texts(section) for section in sections]
        return [known[node] for node in nodes]


def _reached_within(
    adjacency: dict[str, dict[str, Any]], starts: list[str], inside: AbstractSet[str]
) -> set[str]:
    """`starts` and every node of `inside` reached from them along `adjacency` without
    leaving `inside` (`query.reach.reached` over the part's own adjacency)."""
    seen = set(starts)
    stack = list(seen)
    while stack:
        for other in adjacency[stack.pop()]:
            if other not in seen and other in inside:
                seen.add(other)
                stack.append(other)
    return seen


def drill_levels(
    part: EstateGraph, work: SharedWork, max_nodes: int, views: GroupedViews | None = None
) -> tuple[list[Level], dict[tuple[int, str], int]]:
    """`offline.levels.drill_levels` of the part (`drill_from`: the overview and each
    profile group opened, breadth first, while at most `max_nodes` nodes are laid out),
    each level and each group opened taken from `work` when another page has it; the
    part's grouped `views` (its SVG's) not made again."""
    nodes = tuple(part.nodes)
    first = work.level(nodes, part, views)
    return drill_from(first, _Within(nodes), _SharedOpener(work), max_nodes)


class _Within:
    """A level's part by its nodes, and their set once asked for (for all its groups)."""

    def __init__(self, nodes: _Nodes) -> None:
        self.nodes = nodes

    @functools.cached_property
    def inside(self) -> frozenset[str]:
        return frozenset(self.nodes)


class _SharedOpener:
    """Groups opened through `work`, by their parts' nodes: no part is made to open one."""

    def __init__(self, work: SharedWork) -> None:
        self.work = work

    def open(
        self, within: _Within, members: tuple[Hashable, ...], sign: frozenset[Hashable]
    ) -> tuple[_Within, ViewData]:
        inner = self.work.opened(within, sign)
        return _Within(inner), self.work.level(inner)

    def done(self, within: _Within) -> None:
        """Parts are not kept (`_Nodes`): nothing to release."""


def item_details(table: ItemTable, work: SharedWork, strings: Interned) -> list[list[Any]]:
    """`ItemTable.details`: each item's sections as the script reads them, the sections
    taken from `work` when another page has them."""
    return [
        [numbered(texts, table, strings) for texts in sections]
        for sections in work.sections([str(node) for node in table.nodes])
    ]


def page_payload(
    part: EstateGraph, work: SharedWork, max_nodes: int, views: GroupedViews | None = None
) -> dict[str, Any]:
    """The payload `offline.view.view_payload(part, model, canvas=work.canvas, title="",
    lines=[], max_nodes=max_nodes, every_item=False)` gives, the shared work done once
    (and the part's grouped `views`, those its SVG drew, not made again)."""
    graph = work.model.graph
    levels, opens = drill_levels(part, work, max_nodes, views)
    table = ItemTable(graph, drawn_items(part, levels))
    palette, strings = Interned(), Interned()
    shown = levels_json(levels, opens, table, graph, palette, strings)
    details = item_details(table, work, strings)
    return payload_dict("", [], work.canvas, palette, strings, shown, table, details)
