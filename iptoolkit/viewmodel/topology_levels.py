"""The topology view's drill navigation: the overview, the levels opened below it, the graph.

`Levels` holds what the breadcrumb shows (the overview, then each group opened, item's
neighbourhood or paths between two items), the estate graph they are cut from (kept, or
built when first needed) and the nodes a highlight singles out. It moves between levels
(open a group, show or grow a neighbourhood, show paths, go back up, open a saved
`drill_path` again) and calls `draw()` whenever
the level shown changes, its watchers whenever the breadcrumb does. No widget here:
`TopologyView` draws what it says and offers its moves as its own methods.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeAlias

import networkx as nx

from ..query.paths import Paths
from ..query.resolve import resolve_node
from .drill import drill_view, expand_nodes, neighbourhood_nodes, neighbourhood_view, paths_view
from .topology_data import ViewData
from .topology_fit import Canvas

if TYPE_CHECKING:
    from ..query.graph import EstateGraph
    from ..support.progress import Progress

__all__ = ["MAX_DEPTH", "GraphSource", "Level", "Levels", "Neighbourhood"]

MAX_DEPTH = 4
"""Deepest neighbourhood offered (4 steps reach from a partner to its profiles' partners)."""

GraphSource: TypeAlias = "EstateGraph | Callable[[], EstateGraph]"
"""A graph, or what builds it when first needed (the Explorer keeps no graph it reuses)."""

_PROFILE_GROUP = "group:profile:"


@dataclass(frozen=True)
class Level:
    """One step below the overview: a group opened (`focus` and `paths` None), an item's
    neighbourhood (`focus` set) or the paths between two items (`paths` set); `title` is
    its breadcrumb."""

    title: str
    data: ViewData
    focus: Neighbourhood | None = None
    remake: Callable[[Canvas], ViewData] | None = None
    """Lays the level out again for another canvas (the view was resized)."""
    paths: Paths | None = None


@dataclass(frozen=True)
class Neighbourhood:
    """An item's neighbourhood as shown: its centre, the depth asked for, the nodes shown
    (the depth's, and every node expanded since)."""

    centre: Hashable
    depth: int
    shown: frozenset[Hashable]


class Levels:
    """The overview and the levels opened below it (`trail`, the last one shown), laid out
    for `canvas`; `draw()` is called when the level shown changes."""

    def __init__(self, canvas: Canvas, draw: Callable[[], None]) -> None:
        self.canvas = canvas
        self.overview: ViewData | None = None
        self.trail: list[Level] = []
        """The levels opened below the overview, the last one shown (the breadcrumb)."""
        self.highlighted: set[Hashable] | None = None
        """The nodes a highlight singles out (None: no highlight), faded around in a group."""
        self._draw = draw
        self._graph: EstateGraph | None = None
        self._source: Callable[[], EstateGraph] | None = None
        self._watchers: list[Callable[[], None]] = []
        self._remake_overview: Callable[[Canvas], ViewData] | None = None

    # -- what is shown --------------------------------------------------------------------

    @property
    def graph(self) -> EstateGraph | None:
        """The estate graph the levels are cut from (built now if only its source is kept)."""
        if self._graph is None and self._source is not None:
            self._graph = self._source()
        return self._graph

    @property
    def data(self) -> ViewData | None:
        """The level shown: the last one opened, else the overview."""
        return self.trail[-1].data if self.trail else self.overview

    @property
    def title(self) -> str | None:
        """The breadcrumb of the level shown (None: the overview)."""
        return self.trail[-1].title if self.trail else None

    @property
    def neighbourhood(self) -> Neighbourhood | None:
        """The neighbourhood shown now (None: a group or the overview)."""
        return self.trail[-1].focus if self.trail else None

    @property
    def paths(self) -> Paths | None:
        """The paths shown now (None: no paths level is shown)."""
        return self.trail[-1].paths if self.trail else None

    @property
    def drill_path(self) -> tuple[str, ...]:
        """The groups opened, a subgroup standing for its parent groups (see
        `TopologyView.drill_path`); a neighbourhood and what is below it are left out."""
        titles: list[str] = []
        for level in self.trail:
            if level.focus is not None or level.paths is not None:
                break
            if titles and level.title.startswith(titles[-1] + "/"):
                titles[-1] = level.title
            else:
                titles.append(level.title)
        return tuple(titles)

    # -- moves ----------------------------------------------------------------------------

    def use(self, graph: GraphSource, highlighted: set[Hashable] | None = None) -> None:
        """Cut the levels from `graph` (or from what `graph()` builds when first needed)."""
        if isinstance(graph, nx.Graph):
            self._graph, self._source = graph, None
        else:
            self._graph, self._source = None, graph
        self.highlighted = highlighted

    def start(self, overview: ViewData, remake: Callable[[Canvas], ViewData] | None = None) -> None:
        """Show `overview`, nothing opened below it (`remake`: lays it out for another
        canvas)."""
        self.overview = overview
        self._remake_overview = remake
        self.trail.clear()
        self._draw()
        self._trail_changed()

    def relayout(self, canvas: Canvas, progress: Progress | None = None) -> None:
        """Lay the overview and every level opened out for `canvas`, and draw the level
        shown again (the view was resized); each level is a step of `progress` ("Laying
        out level 2 of 3 for the map's width")."""
        if canvas == self.canvas:
            return
        self.canvas = canvas
        if self.overview is None:
            return
        levels = 1 + len(self.trail)

        def step(number: int) -> None:
            if progress is not None:
                progress.stage(f"Laying out level {number} of {levels} for the map's width")

        step(1)
        if self._remake_overview is not None:
            self.overview = self._remake_overview(canvas)
        trail = []
        for number, level in enumerate(self.trail, start=2):
            step(number)
            trail.append(replace(level, data=level.remake(canvas)) if level.remake else level)
        self.trail[:] = trail
        self._draw()

    def watch(self, callback: Callable[[], None]) -> None:
        """Call `callback()` whenever a level is opened or left."""
        self._watchers.append(callback)

    def expand(self, key: str) -> None:
        """Open the group `key` of the level shown (KeyError: no such group there)."""
        graph, data = self.graph, self.data
        if data is None or graph is None:
            return
        members = data.members.get(key)
        if not members or key not in data.graph or data.item(key) is not None:
            raise KeyError(f"expand: no group {key!r} in the view shown")
        crumb = str(data.graph.nodes[key].get("crumb") or key)
        highlighted = self.highlighted

        def remake(canvas: Canvas) -> ViewData:
            return drill_view(graph, members, canvas=canvas, focus=highlighted)

        self._push(Level(crumb, remake(self.canvas), remake=remake))

    def focus(self, node: Hashable, depth: int) -> None:
        """Open the neighbourhood of `node`: the items within `depth` steps of it."""
        graph = self.graph
        if graph is None:
            return
        node = resolve_node(graph, node, what="focus")
        shown = frozenset(neighbourhood_nodes(graph, node, depth))
        self._push(self._around(around_title(graph, node), Neighbourhood(node, depth, shown)))

    def show_paths(self, found: Paths) -> None:
        """Show the paths of `found` (`drill.paths_view`), one level below the level shown."""
        graph = self.graph
        if graph is None:
            return

        def remake(canvas: Canvas) -> ViewData:
            return paths_view(graph, found, canvas=canvas)

        title = f"paths: {item_name(graph, found.a)} \u2192 {item_name(graph, found.b)}"
        self._push(Level(title, remake(self.canvas), remake=remake, paths=found))

    def expand_node(self, node: Hashable) -> None:
        """In a neighbourhood: add `node`'s neighbours to what is shown (the same level)."""
        around, graph = self.neighbourhood, self.graph
        if around is None or graph is None or not isinstance(node, str) or node not in graph:
            return  # (the estate graph's nodes are strings)
        shown = frozenset(expand_nodes(graph, set(around.shown), node))
        if shown == around.shown:
            return
        self.trail[-1] = self._around(
            self.trail[-1].title, Neighbourhood(around.centre, around.depth, shown)
        )
        self._draw()

    def set_depth(self, depth: int) -> None:
        """Show the neighbourhood shown now at another depth (in its place on the trail)."""
        around = self.neighbourhood
        if around is not None and around.depth != depth:
            self.trail.pop()
            self.focus(around.centre, depth)

    def back(self) -> None:
        """Go one level up."""
        if self.trail:
            self.go_to(len(self.trail) - 1)

    def go_to(self, depth: int) -> None:
        """Show level `depth` of the breadcrumb (0: the overview)."""
        if self.overview is None or depth < 0:
            return
        del self.trail[depth:]
        self._draw()
        self._trail_changed()

    def open_path(self, path: Iterable[str]) -> tuple[str, ...]:
        """From the overview, open each group of `path` (a `drill_path`) in turn, through
        the parent groups a subgroup needs; the titles that name no group of the level
        reached (and those after them) are returned, and the levels stay where they got."""
        if self.overview is None:
            return tuple(path)
        if self.trail:
            self.go_to(0)
        wanted = list(path)
        for index, title in enumerate(wanted):
            while True:
                key = group_towards(self.data, title)
                if key is None:
                    return tuple(wanted[index:])
                self.expand(key)
                if self.trail[-1].title == title:
                    break
        return ()

    def _push(self, level: Level) -> None:
        self.trail.append(level)
        self._draw()
        self._trail_changed()

    def _trail_changed(self) -> None:
        for callback in self._watchers:
            callback()

    def _around(self, title: str, around: Neighbourhood) -> Level:
        graph = self.graph
        assert graph is not None

        def remake(canvas: Canvas) -> ViewData:
            return neighbourhood_view(graph, set(around.shown), around.centre, canvas=canvas)

        return Level(title, remake(self.canvas), around, remake)


def group_towards(data: ViewData | None, title: str) -> str | None:
    """The key of the profile group of `data` named `title`, else of the group whose
    subgroups lead to it (`Finance` towards `Finance/AP`, the longest such); None when none
    does."""
    if data is None:
        return None
    best: tuple[int, str] | None = None
    for key in data.members:
        if not key.startswith(_PROFILE_GROUP) or data.item(key) is not None:
            continue
        crumb = str(data.graph.nodes[key].get("crumb") or "")
        if crumb == title:
            return key
        if crumb and title.startswith(crumb + "/") and (best is None or len(crumb) > best[0]):
            best = (len(crumb), key)
    return best[1] if best else None


def around_title(graph: EstateGraph, node: str) -> str:
    """The breadcrumb of a neighbourhood: `around Acme Ltd`."""
    return f"around {item_name(graph, node)}"


def item_name(graph: EstateGraph, node: str) -> str:
    """How a breadcrumb names an item: its name, else its node id."""
    return str(graph.nodes[node].get("name") or node)
