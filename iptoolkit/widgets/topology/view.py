"""`show_topology`: the estate's topology as an interactive WebGL view (sigma.js).

    view = ipt.show_topology(estate)                  # grouped when large, as plot_topology
    view = ipt.show_topology(estate, group_by=False)  # every node, even 31,000 of them
    view = ipt.show_topology(estate, highlight="partner:1001", on_select=print)
    view = ipt.show_topology(ipt.diff(last_week, today))  # what changed, on the map

The same picture as `plot_topology` (the views of `topology.view`, the layered layout,
colours and legend), drawn by `ipysigma.Sigma` so that it pans, zooms, finds a node by
name and answers a click: a node drawn on its own calls `on_select(node_id)` with the
estate's node id; a group opens in detail (its members and their paths), and "back to
overview" returns. ipysigma because it is the kept Jupyter widget for sigma.js, which
draws tens of thousands of nodes on WebGL and sends the clicked node back to Python.

A diff (`ipt.diff`) is drawn on the map of both snapshots, every level coloured as
`plot_diff` colours it, and a click on an item says what changed of it
(`viewmodel.change_marks`).

Where the widget cannot render (GitHub, nbviewer, a notebook reopened without its kernel)
the output shows the PNG of `plot_topology` (of a diff, `plot_diff`) instead, as the
Explorer does (its static copy: the selection's `plot_topology`, with or without `since`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, Literal

import ipywidgets as W

from ...plot.topology import check_options, grouping
from ...support.arguments import positive_number, whole_number
from ...topology.view import EstateOrGraph, GroupedViews, Highlight, focus_set, graph_of
from ...viewmodel.change_marks import ChangeMarks, MarkedMap, diff_map
from ...viewmodel.compare_marks import comparison_map
from ...viewmodel.drill import auto_view
from ...viewmodel.explorer_html import topology_fallback_html
from ...viewmodel.topology_data import ViewData, view_data
from ...viewmodel.topology_findings import FindingMarks
from ...viewmodel.topology_fit import Canvas
from ...viewmodel.topology_html import view_title
from ...viewmodel.topology_levels import MAX_DEPTH, GraphSource, Level, Levels, Neighbourhood
from ...viewmodel.topology_paths import PathFinder
from ...viewmodel.topology_wrap import LABEL_LINES
from ..css import topology_style
from ..key_guard import GUARDED_VIEW, KeyGuard
from ..progress_bar import WidgetProgress
from .canvas_width import CanvasWidth
from .controls import Controls
from .picture import Picture
from .sigma_box import SigmaBox
from .sigma_guard import SigmaGuard

if TYPE_CHECKING:
    from ipysigma import Sigma

    from ...auditing.finding import Finding
    from ...change.estate_diff import EstateDiff
    from ...comparing.comparison import Comparison
    from ...core.estate import Estate
    from ...query.graph import EstateGraph

__all__ = ["TopologyView", "show_topology", "Level", "Neighbourhood", "MAX_DEPTH"]

SelectCallback = Callable[[Hashable], Any]


def show_topology(
    estate_or_selection: EstateOrGraph | EstateDiff | Comparison,
    *,
    group_by: str | Literal[False] | None = None,
    highlight: Highlight = None,
    on_select: SelectCallback | None = None,
    height: int = 620,
    aspect: float = 1.6,
) -> TopologyView:
    """The topology of an estate (or a selection, or a graph from `build_graph`, or what
    changed: a diff from `ipt.diff`; how two installations differ: a comparison from
    `ipt.compare`) as an interactive view; display it as the last line of a cell.

    - `group_by`: as `plot_topology`: None groups by profile group when the graph has more
      than `MAX_DETAIL_NODES` nodes, `"group"`, `"agent_type"` or `"partner"` always,
      False never (WebGL draws the whole 10,000-profile demo estate node by node).
    - `highlight`: as `plot_topology`: a node (its paths stand out), nodes, a graph from
      `neighbourhood` or an `Impact`; the rest is faded.
    - `on_select`: called with the estate node id of a clicked (or searched) node.
    - `height`: of the canvas, in pixels; `aspect`: about how many times as wide as high
      the canvas will be, until the browser reports its width: the view is then laid out
      for the width it has, and again whenever it is resized (`CanvasWidth`). A view that
      does not fit at a readable size is drawn on a bigger canvas that scrolls.
    """
    _check_size(height, aspect, "show_topology")
    return TopologyView(
        estate_or_selection,
        group_by=group_by,
        highlight=highlight,
        on_select=on_select,
        height=height,
        aspect=aspect,
    )


def _check_size(height: Any, aspect: Any, what: str) -> None:
    """A canvas `height` of a pixel or more and an `aspect` above 0, or the error naming
    `what` and the value: a layout for a canvas of no size fails far inside, or hangs."""
    whole_number(height, f"{what}: height", 1)
    positive_number(aspect, f"{what}: aspect")


class TopologyView(W.VBox):  # type: ignore[misc]  # ipywidgets has no types: W.VBox is Any
    """The interactive topology view (see `show_topology`): a widget, placed as it is
    (`VBox([view, ...])`), as ipysigma's `Sigma` or ipyleaflet's `Map` are.

    Its jobs are its collaborators': `Levels` (topology_levels) is the drill navigation
    (the overview, the levels opened, the graph), `SigmaBox` (sigma_box) holds the canvas,
    `Controls` (topology_controls) the breadcrumb, status line and legend around it, and
    `Picture` (topology_picture) draws the level shown and answers clicks, `PathFinder`
    (topology_paths, `view.paths`) shows how one item reaches another. The view wires
    them: a move asked of it goes to the levels, which call back to draw.
    """

    def __init__(
        self,
        estate_or_graph: EstateOrGraph | EstateDiff | Comparison | None = None,
        *,
        group_by: str | Literal[False] | None = None,
        highlight: Highlight = None,
        on_select: SelectCallback | None = None,
        height: int = 620,
        aspect: float = 1.6,
    ) -> None:
        check_options("auto", group_by)
        _check_size(height, aspect, "TopologyView")
        super().__init__(layout=W.Layout(width="100%"))
        self.add_class("ipt-topology")
        self.aspect = aspect
        self.group_by = group_by
        self.on_select = on_select
        self.height = height
        self.canvas = Canvas(height, aspect, LABEL_LINES)
        self.selected: Hashable | None = None
        """The estate node last clicked or searched (None before any)."""
        self._highlight: Highlight = None
        self._levels = Levels(self.canvas, lambda: self._picture.draw())
        self.paths = PathFinder(self._levels, lambda text: self.say(text))
        """How one item reaches another: `view.paths.show(a, b)` draws the paths between
        them, the rest faded; `view.paths.shown` is what is drawn (see `PathFinder`)."""
        self.findings = FindingMarks()
        """Findings on the map: `view.findings.on` (the toggle above the canvas) outlines
        each item by the worst severity of its findings (see `FindingMarks`)."""
        self.changes: ChangeMarks | None = None
        """A diff or a comparison shown (`update` with an `EstateDiff`, a `Comparison`):
        the map of both sides, each level coloured by what differs (see `ChangeMarks`);
        None for an estate."""
        self._sigma_box = SigmaBox(height)
        self.progress = WidgetProgress()
        """What the kernel does for the view, above its canvas while it takes a while (laid
        out again for a new width, another selection: see `WidgetProgress`)."""
        self._width = CanvasWidth()
        self._width.observe(lambda change: _resized(self, change["new"]), "width")
        self._controls = Controls(
            on_back=self.back,
            on_crumb=self.go_to,
            on_depth=self._levels.set_depth,
            on_details=lambda: self._picture.report(self.selected),
            on_around=lambda: self.focus(self.selected) if self.selected else None,
            on_from=lambda: self.paths.from_here(self.selected),
            on_to=lambda: self.paths.to_here(self.selected),
            on_findings=lambda on: _show_findings(self, on),
            on_search=lambda key: self._picture.pick(key),
        )
        self._picture = Picture(self, self._levels, self._sigma_box, self._controls)
        self.children = (
            topology_style(),
            SigmaGuard(),  # no script error from ipysigma's `layout` trait
            KeyGuard(GUARDED_VIEW),  # the canvas's arrows are not the notebook's commands
            self._controls.above,
            self._controls.status,
            self.progress,
            self._width,
            self._sigma_box,
            self._controls.below,
        )
        if estate_or_graph is not None:
            self.update(estate_or_graph, highlight=highlight)

    @property
    def widget(self) -> TopologyView:
        """The view itself (older code placed `view.widget`)."""
        return self

    # -- what is shown --------------------------------------------------------------------

    @property
    def data(self) -> ViewData | None:
        """The view drawn now (its graph, the members of each key, the legend)."""
        return self._levels.data

    @property
    def graph(self) -> EstateGraph | None:
        """The estate graph whose overview is shown (node ids as `build_graph` names them)."""
        return self._levels.graph

    @property
    def sigma(self) -> Sigma | None:
        """The `ipysigma.Sigma` widget drawn now (a new one for every view)."""
        return self._sigma_box.sigma

    @property
    def trail(self) -> list[Level]:
        """The levels opened below the overview, the last one shown (the breadcrumb)."""
        return self._levels.trail

    @property
    def expanded(self) -> bool:
        """True while a group or a neighbourhood is shown (see `back`)."""
        return bool(self._levels.trail)

    @property
    def neighbourhood(self) -> Neighbourhood | None:
        """The neighbourhood shown now (None: a group or the overview)."""
        return self._levels.neighbourhood

    @property
    def drill_path(self) -> tuple[str, ...]:
        """The groups opened below the overview, as the breadcrumb names them, a subgroup
        standing for its parent groups (`("Finance/AP", "AS2 profiles")` for Overview >
        Finance > Finance/AP > AS2 profiles); a neighbourhood and what is below it are not
        part of it. `open_path` opens it again."""
        return self._levels.drill_path

    def open_path(self, path: Iterable[str]) -> tuple[str, ...]:
        """From the overview, open each group of `path` (a `drill_path`) in turn, through
        the parent groups a subgroup needs; the titles that name no group of the view
        reached (and those after them) are returned, and the view stays where it got."""
        return self._levels.open_path(path)

    def on_trail(self, callback: Callable[[], None]) -> None:
        """Call `callback()` whenever a group is opened or the view goes back up (the app
        keeps `drill_path` in its page address)."""
        self._levels.watch(callback)

    def update(
        self,
        estate_or_graph: EstateOrGraph | EstateDiff | Comparison | MarkedMap,
        *,
        highlight: Highlight = None,
        keep: bool = False,
    ) -> None:
        """Show another estate, selection, diff or comparison, or a map of change made
        already (`MarkedMap`): the overview, grouped as `group_by` says; `keep`: the groups
        opened and the item picked stay open and picked where the new map has them (a
        timeline's step)."""
        from ...change.estate_diff import EstateDiff
        from ...comparing.comparison import Comparison

        estate: Estate | None
        if isinstance(estate_or_graph, EstateDiff | Comparison | MarkedMap):
            if isinstance(estate_or_graph, MarkedMap):
                shown = estate_or_graph
            elif isinstance(estate_or_graph, EstateDiff):
                shown = diff_map(estate_or_graph)
            else:
                shown = comparison_map(estate_or_graph)
            self.changes = ChangeMarks(shown)
            graph, estate = self.changes.graph, shown.estates[0]
        else:
            self.changes = None
            graph, estate = graph_of(estate_or_graph)
        if estate is not None:
            self.findings.use(lambda: _audit(estate))
        self._highlight = highlight
        focus = focus_set(graph, highlight)
        self._levels.use(graph, focus)
        path, selected = self.drill_path, self.selected
        self._levels.start(
            self.overview_data(graph, focus),
            lambda canvas: self.overview_data(graph, focus, canvas=canvas),
        )
        if keep and path:
            self.open_path(path)
        if keep and selected is not None:
            self._picture.pick_item(selected)

    def overview_data(
        self,
        graph: EstateGraph,
        focus: set[Hashable] | None = None,
        *,
        canvas: Canvas | None = None,
        views: GroupedViews | None = None,
    ) -> ViewData:
        """The overview of a graph as this view draws it (the Explorer caches these):
        grouped as `group_by` says; left to choose (None), node by node when it fits the
        canvas, else grouped (`drill.auto_view`). `canvas`: the view's now, by default;
        `views`: the graph's grouped views, made once and shared."""
        canvas = canvas or self.canvas
        if self.group_by is None:
            return auto_view(graph, canvas=canvas, focus=focus, views=views)
        group_by = grouping(graph, self.group_by)
        return view_data(graph, group_by=group_by, focus=focus, canvas=canvas)

    def show(
        self,
        data: ViewData,
        graph: GraphSource | None = None,
        *,
        views: GroupedViews | Callable[[], GroupedViews] | None = None,
    ) -> None:
        """Draw prepared view data as the overview (of `graph`, or of what `graph()` builds
        when a group is opened or a node clicked); laid out again from the graph when the
        view is resized (from `views`, the graph's grouped views, or what `views()` gives,
        when given)."""
        self.changes = None  # prepared data is an estate's: no diff's marks on it
        if graph is not None:
            self._highlight = None
            self._levels.use(graph)
        levels = self._levels

        def remake(canvas: Canvas) -> ViewData:
            graph = levels.graph
            if graph is None:
                return data
            shared = views() if callable(views) else views
            return self.overview_data(graph, canvas=canvas, views=shared)

        levels.start(data, remake)

    def redraw(self) -> None:
        """Draw the view shown now afresh: sigma ignores a click on the node it has
        selected, so after a pick the same node could not be clicked again."""
        self._picture.redraw()

    def expand(self, key: str) -> None:
        """Open the group `key` of the view shown: its members and their paths, grouped by
        their subgroups (or agent type, or partner) while too many to draw one by one."""
        self._levels.expand(key)

    def focus(self, node: Hashable, depth: int | None = None) -> None:
        """Show the items within `depth` steps of `node` (the depth chosen in the view, 1 at
        first); a click on any of them then expands it in place (`expand_node`)."""
        self._levels.focus(node, self._controls.depth.value if depth is None else depth)

    def expand_node(self, node: Hashable) -> None:
        """In a neighbourhood: add `node`'s neighbours to what is shown."""
        self._levels.expand_node(node)

    def back(self) -> None:
        """Go one level up: from a subgroup to its group, from a group to the overview."""
        self._levels.back()

    def go_to(self, depth: int) -> None:
        """Show level `depth` of the breadcrumb (0: the overview)."""
        self._levels.go_to(depth)

    def say(self, text: str) -> None:
        """A line above the canvas (why a neighbourhood cannot be shown, say)."""
        self._controls.say(text)

    def close(self) -> None:
        """Close the view and every widget in it (front-end views go away)."""
        for child in _descendants(self):
            child.close()
        super().close()

    # -- display --------------------------------------------------------------------------

    def _ipython_display_(self) -> None:
        from IPython.display import HTML, display

        bundle = self._repr_mimebundle_()
        bundle["text/plain"] = f"iptoolkit topology view ({view_title(self.data)}; a live widget)"
        display(bundle, raw=True)
        display(HTML(topology_fallback_html(self.png(), view_title(self.data))))

    def png(self) -> bytes | None:
        """The static diagram of the overview (`plot_topology`), as PNG bytes. A view drawn
        node by node past `MAX_DETAIL_NODES` gets the grouped diagram: a PNG of thousands
        of rows is unreadable, and takes a minute to draw."""
        graph = self.graph
        if graph is None:
            return None
        if self.changes is not None:
            return self.changes.map.picture()
        from ...plot.topology import MAX_DETAIL_NODES
        from ...viewmodel.diagram import render_png

        group_by = self.group_by
        if group_by is False and graph.number_of_nodes() > MAX_DETAIL_NODES:
            group_by = None
        return render_png(graph, group_by=group_by, highlight=self._highlight)

    def __repr__(self) -> str:
        return f"<TopologyView: {view_title(self.data)}>"


def _resized(view: TopologyView, width: int | None) -> None:
    """The front end reports the view's width: lay it out for it (see `CanvasWidth`); 0 is
    a view not shown (a hidden tab), left as it is."""
    if not width or width <= 0:
        return
    view.canvas = Canvas.of(width, view.height, lines=LABEL_LINES)
    try:
        view._levels.relayout(view.canvas, view.progress)
    finally:
        view.progress.done()
        view._sigma_box.for_width()  # the first picture shows now, laid out for its width
        view._width.laid_out_for = width  # and the front end shows the map again


def _show_findings(view: TopologyView, on: bool) -> None:
    """The findings toggle: draw the level shown with its findings marked, or without."""
    if view.findings.on != on:
        view.findings.on = on
        view.redraw()


def _audit(estate: Estate) -> Iterable[Finding]:
    from ...auditing import findings

    return findings(estate)


def _descendants(box: W.Box) -> list[W.Widget]:
    """Every widget inside `box`, innermost first."""
    found: list[W.Widget] = []
    for child in box.children:
        if isinstance(child, W.Box):
            found += _descendants(child)
        found.append(child)
    return found
