"""A diff on the topology's map, for every front end (issue 43).

The map of a diff is the topology of both snapshots in one (`diffstatus.diff_graph`: what
was removed is drawn too), drilled into as an estate's is. `level_marks` says what each
node of a level shows, read from the items it stands for: its status (`status_of_tally`:
a group by its members), how many of them a breaking change names, a group's news
(`+2 −1 ~3 !1`), each link's status (the links it stands for), and which nodes "changes
only" keeps (those with news, those a link joins to one, the ports those links leave
from). `paint` colours a level's nodes and links as `plot_diff` colours them. A
`MarkedMap` is all a front end needs of a map of change, whatever made it (`diff_map`; a
comparison's, `compare_marks.comparison_map`, speaks its own statuses). The interactive
view draws with `ChangeMarks` (a marked copy of each level, an item's changes as HTML
under the canvas); the HTML file writes the same marks (`offline/changes_data`).

An item's changes (`change_section`): each field path the diff names with its values
before and after as the diff's text says them (`said`, masked as the diff masks them),
an item or a link added or removed by its op (a link under the item whose change made
it), each with its severity.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from ..change.render import said
from ..support.printable import escape_unprintable
from ..support.redact import redact_text
from ..topology.diffstatus import (
    DiffGraph,
    Marking,
    diff_graph,
    news_text,
    status_of_tally,
    tally_of,
)
from ..topology.legend import LegendItem
from ..topology.style import BREAKING_COLOUR
from .explorer_html import fields_html
from .item_html import Section
from .topology_data import ViewData, detail_node
from .topology_search import picked_key

if TYPE_CHECKING:
    import networkx as nx

    from ..change.estate_diff import EstateDiff
    from ..change.record import Change
    from ..core.estate import Estate
    from ..query.graph import EstateGraph

__all__ = [
    "BREAKING_RING_PX",
    "LevelMarks",
    "level_marks",
    "paint",
    "MarkedMap",
    "diff_map",
    "ChangeMarks",
    "changes_by_item",
    "change_section",
]

BREAKING_RING_PX = 3.0
"""The outline of an item a breaking change names, on the live map (others keep 1 px)."""


@dataclass(frozen=True)
class LevelMarks:
    """What each node and link of one level shows of a diff (see the module docstring)."""

    marking: Marking
    """The statuses' vocabulary (a diff's, a comparison's)."""
    status: dict[str, str]
    """Node key -> its status (nodes standing for items; not ports)."""
    breaking: dict[str, int]
    """Node key -> how many of its items a breaking change names (only those with some)."""
    news: dict[str, str]
    """Group key -> its news, `+2 −1 ~3 !1` (only groups with some)."""
    links: dict[tuple[str, str], str]
    """Each link of the level (as drawn: from a port) -> its status."""
    near: frozenset[str]
    """The nodes "changes only" leaves unfaded."""

    def with_news(self, key: str) -> bool:
        """Whether the node changed, or stands for items a breaking change names."""
        plain = self.marking.plain
        return self.status.get(key, plain) != plain or key in self.breaking

    def legend(self) -> list[LegendItem]:
        """The legend: the statuses the level shows (unchanged always) and breaking."""
        marking = self.marking
        shown = {status for key, status in self.status.items() if self.with_news(key)}
        items = [
            LegendItem(marking.words[name], marking.looks[name][0], "o", marking.looks[name][1])
            for name in marking.statuses
            if name in shown or name == marking.plain
        ]
        if self.breaking:
            items.append(LegendItem("breaking", "#FFFFFF", "o", BREAKING_COLOUR, 2.2))
        return items


def level_marks(data: ViewData, marked: DiffGraph) -> LevelMarks:
    """The marks of one level of the union's map (see `LevelMarks`)."""
    marking = marked.marking
    status: dict[str, str] = {}
    breaking: dict[str, int] = {}
    news: dict[str, str] = {}
    group_of: dict[Hashable, str] = {}
    for key in data.graph.nodes:
        members = data.members.get(key)
        if not members:  # a port, or a label's second line: no items of its own
            continue
        tally, named = tally_of(members, marked)
        status[key] = status_of_tally(tally, marking)
        if named:
            breaking[key] = named
        if len(members) > 1 and (status[key] != marking.plain or named):
            news[key] = news_text(tally, named, marking)
        group_of.update(dict.fromkeys(members, key))
    tallies = _link_tallies(marked, group_of)
    links: dict[tuple[str, str], str] = {}
    near = {key for key in status if status[key] != marking.plain or key in breaking}
    touching = set(near)
    for u, v in data.graph.edges:
        ends = (picked_key(data, u), picked_key(data, v))  # a link leaves from a port
        link = tallies.get(ends) or tallies.get(ends[::-1])
        links[(u, v)] = status_of_tally(link, marking) if link else marking.plain
        if ends[0] in near or ends[1] in near:
            touching.update(ends)
    ports = {key for key in data.graph.nodes if picked_key(data, key) in touching}
    return LevelMarks(marking, status, breaking, news, links, frozenset(touching | ports))


def paint(graph: nx.DiGraph[str], marks: LevelMarks) -> None:
    """Colour a level's nodes and links by their status (their drawing attributes)."""
    looks, colours = marks.marking.looks, marks.marking.colours
    for key, status in marks.status.items():
        attributes = graph.nodes[key]
        attributes["color"], attributes["border"] = looks[status]
    for (u, v), status in marks.links.items():
        graph.edges[u, v]["color"] = colours[status]


def _link_tallies(
    marked: DiffGraph, group_of: dict[Hashable, str]
) -> dict[tuple[str, str], Counter[str]]:
    """Statuses of the union's links, counted between the level's nodes holding their ends:
    the links leaving the level's items, not every link of the union for every level (a
    10,000-profile file has some 1,700 levels and the union 40,000 links)."""
    tallies: dict[tuple[str, str], Counter[str]] = {}
    successors = marked.graph.succ
    for u, a in group_of.items():
        for v in successors[str(u)]:
            b = group_of.get(v)
            if b is not None and b != a:
                tallies.setdefault((a, b), Counter())[marked.edges[(str(u), str(v))]] += 1
    return tallies


@dataclass(frozen=True)
class MarkedMap:
    """A map of change, whatever made it: the union `marked`, what differs of each item
    (`sections`, by the union's node), and where an item's own details come from: the
    first of `estates` (the newer snapshot, installation B) holds those it has, the second
    the rest, under `other_ids` where its id differs; `picture` draws the static diagram
    (`plot_diff`, `plot_comparison`) as PNG bytes, for where no widget renders;
    `graphs`: the two estates' own graphs, in the order of `estates`, when they were
    built for it (a file's details are read from them, not built again)."""

    marked: DiffGraph
    sections: Mapping[str, Section]
    estates: tuple[Estate, Estate]
    other_ids: Mapping[str, str]
    picture: Callable[[], bytes]
    graphs: tuple[EstateGraph, EstateGraph] | None = None


def diff_map(
    diff: EstateDiff,
    graphs: tuple[EstateGraph, EstateGraph] | Literal["build"] | None = None,
    *,
    shared: EstateGraph | Literal[True] | None = None,
) -> MarkedMap:
    """The map of a diff: both snapshots' union, each item's changes (`change_section`);
    `graphs`: both snapshots' graphs (old, new) built already (`diff_graph`), or "build"
    them here; either way they are kept with the map (a file reads its details from
    them). None: the union is made of graphs dropped after (less to hold: a widget's).
    `shared`: the snapshots share their unchanged profiles (`diff_graph`'s; a timeline's)."""
    from ..query.graph import build_graph
    from .diagram import diff_png

    sections = {node: change_section(found) for node, found in changes_by_item(diff).items()}
    if graphs == "build":
        graphs = build_graph(diff.old), build_graph(diff.new)
    marked = diff_graph(diff, graphs, shared=shared)
    kept = (graphs[1], graphs[0]) if graphs is not None else None  # in the estates' order
    return MarkedMap(marked, sections, (diff.new, diff.old), {}, lambda: diff_png(diff), kept)


class ChangeMarks:
    """A map of change on the interactive view: `graph` the union to draw, `marked(data)`
    a level coloured, `listed(data, key)` what differs of the item a node stands for."""

    def __init__(self, shown: MarkedMap) -> None:
        self.map = shown
        self.marked_graph = shown.marked

    @property
    def graph(self) -> EstateGraph:
        """The union of both sides' graphs (what the view draws)."""
        return self.marked_graph.graph

    def marked(self, data: ViewData) -> ViewData:
        """`data` coloured by status, what a breaking change names ringed in its colour
        (a copy: the cached view data stays as it was), its legend the statuses'."""
        marks = level_marks(data, self.marked_graph)
        graph = data.graph.copy()
        paint(graph, marks)
        for key, attributes in graph.nodes(data=True):
            attributes["border_size"] = BREAKING_RING_PX if key in marks.breaking else 1.0
            if key in marks.breaking:
                attributes["border"] = BREAKING_COLOUR
        return replace(data, graph=graph, legend=marks.legend())

    def listed(self, data: ViewData, key: str) -> str:
        """What differs of the item `key` stands for (an agent's or a unit's: its
        profile's), as HTML (empty: nothing)."""
        node = data.item(key)
        if node is not None:
            node = detail_node(self.graph, node)
        section = self.map.sections.get(str(node)) if node is not None else None
        if section is None:
            return ""
        return fields_html(section.fields or {}, title=section.title)


def changes_by_item(diff: EstateDiff) -> dict[str, list[Change]]:
    """The diff's changes by the node of the item they belong to (a link: the item whose
    change made it)."""
    found: dict[str, list[Change]] = {}
    for change in diff.changes:
        owner = change.cause if change.kind == "link" and change.cause else change.key
        found.setdefault(owner, []).append(change)
    return found


def change_section(changes: list[Change]) -> Section:
    """What changed of one item, as a table (see the module docstring)."""
    rows: dict[str, str] = {}
    for change in changes:
        if change.kind == "link":
            field = f"link {change.key} {change.op}"
            text = change.reason or change.op
        elif change.path is None:
            field = f"{change.kind} {change.op}"
            text = change.reason or change.op
        else:
            field = change.path
            text = f"{said(change.old, change.path)} \u2192 {said(change.new, change.path)}"
        shown = escape_unprintable(redact_text(field))  # a hostile id or key in a path
        rows[shown] = escape_unprintable(redact_text(f"{text} ({change.severity})"))
    return Section("Changes", fields=rows)
