"""`show_topology`: the estate's topology as an interactive WebGL view (sigma.js).

    view = ipt.show_topology(estate)                  # grouped when large, as plot_topology
    view = ipt.show_topology(estate, group_by=False)  # every node, even 31,000 of them
    view = ipt.show_topology(estate, highlight="partner:1001", on_select=print)

The same picture as `plot_topology` (the views of `topology.view`, the layered layout,
colours and legend), drawn by `ipysigma.Sigma` so that it pans, zooms, finds a node by
name and answers a click: a node drawn on its own calls `on_select(node_id)` with the
estate's node id; a group opens in detail (its members and their paths), and "back to
overview" returns. ipysigma because it is the kept Jupyter widget for sigma.js, which
draws tens of thousands of nodes on WebGL and sends the clicked node back to Python.

Where the widget cannot render (GitHub, nbviewer, a notebook reopened without its kernel)
the output shows the PNG of `plot_topology` instead, as the Explorer does.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import ipywidgets as W
import networkx as nx

from ..plot.topology import check_options, grouping
from ..query.resolve import resolve_node
from ..topology.legend import HIGHLIGHT_COLOUR
from ..topology.view import EstateOrGraph, Highlight, focus_set, graph_of
from .drill import auto_view, drill_view, expand_nodes, neighbourhood_nodes, neighbourhood_view
from .html import HIDE_FALLBACK_CSS, legend_html, topology_fallback_html
from .sigma_guard import SigmaGuard
from .topology_data import ViewData, start_camera, view_data
from .topology_fit import Canvas

if TYPE_CHECKING:
    from ipysigma import Sigma

__all__ = ["TopologyView", "show_topology", "Level", "Neighbourhood", "MAX_DEPTH"]

MAX_DEPTH = 4
"""Deepest neighbourhood offered (4 steps reach from a partner to its profiles' partners)."""

SelectCallback = Callable[[Hashable], Any]
GraphSource = nx.MultiDiGraph | Callable[[], nx.MultiDiGraph]
"""A graph, or what builds it when first needed (the Explorer keeps no graph it reuses)."""
_CSS = """<style>
.ipt-topology .ipysigma-layout-controls, .ipt-topology .ipysigma-graph-description,
.ipt-topology .ipysigma-download-gexf-button, .ipt-topology .ipysigma-download-json-button,
.ipt-topology .ipysigma-information-shadow-display {display: none !important;}
.ipt-topology .ipt-topology-below {font-size: 0.9em; margin-top: 4px;}
.ipt-topology .ipt-topology-legend {list-style: none; margin: 0; padding: 0; display: flex;
  flex-wrap: wrap; gap: 2px 16px;}
.ipt-topology .ipt-topology-legend li {display: flex; align-items: center; gap: 6px;
  line-height: 1.4;}
.ipt-topology .ipt-swatch {display: inline-block; flex: none; width: 11px; height: 11px;
  border-radius: 50%; box-sizing: border-box;}
.ipt-topology .ipt-swatch.ipt-line {width: 22px; border-radius: 0;}
.ipt-topology .ipt-topology-title {font-weight: 600;}
.ipt-topology .ipt-topology-info {word-break: break-word;}
.ipt-topology .ipt-topology-hint {color: var(--jp-ui-font-color2, #616161);}
.ipt-topology .ipt-crumb {border: none; background: none; color: var(--jp-content-link-color,
  #1976d2); text-decoration: underline; padding: 0 2px; min-width: 0;}
.ipt-topology .ipt-crumb-sep {color: var(--jp-ui-font-color2, #616161); margin: 0 4px;}
.ipt-topology .ipt-crumb-here {font-weight: 600;}
.ipt-topology .ipt-glyph {display: inline-block; width: 14px; text-align: center;
  font-size: 13px; line-height: 1;}
</style>"""

_SIGMA_ATTRIBUTES: dict[str, Any] = {
    "hide_info_panel": True,
    "raw_node_color": "color",
    "raw_node_size": "size",
    "raw_node_label": "label",
    "raw_node_label_color": "label_color",
    "raw_node_border_color": "border",
    "raw_node_halo_size": "halo",
    "default_node_halo_color": HIGHLIGHT_COLOUR,
    "node_zindex": "zindex",
    "raw_edge_color": "color",
    "raw_edge_size": "size",
    "default_edge_type": "rectangle",
    "edge_weight": None,
}


def show_topology(
    estate_or_selection: EstateOrGraph,
    *,
    group_by: str | Literal[False] | None = None,
    highlight: Highlight = None,
    on_select: SelectCallback | None = None,
    height: int = 620,
    aspect: float = 1.6,
) -> TopologyView:
    """The topology of an estate (or a selection, or a graph from `build_graph`) as an
    interactive view; display it as the last line of a cell.

    - `group_by`: as `plot_topology`: None groups by profile group when the graph has more
      than `MAX_DETAIL_NODES` nodes, `"group"`, `"agent_type"` or `"partner"` always,
      False never (WebGL draws the whole 10,000-profile demo estate node by node).
    - `highlight`: as `plot_topology`: a node (its paths stand out), nodes, a graph from
      `neighbourhood` or an `Impact`; the rest is faded.
    - `on_select`: called with the estate node id of a clicked (or searched) node.
    - `height`: of the canvas, in pixels; `aspect`: about how many times as wide as high
      the canvas will be (where a tall view starts zoomed in, see `start_camera`).
    """
    return TopologyView(
        estate_or_selection,
        group_by=group_by,
        highlight=highlight,
        on_select=on_select,
        height=height,
        aspect=aspect,
    )


@dataclass(frozen=True)
class Level:
    """One step below the overview: a group opened (`focus` None) or an item's
    neighbourhood (`focus` set); `title` is its breadcrumb."""

    title: str
    data: ViewData
    focus: Neighbourhood | None = None


@dataclass(frozen=True)
class Neighbourhood:
    """An item's neighbourhood as shown: its centre, the depth asked for, the nodes shown
    (the depth's, and every node expanded since)."""

    centre: Hashable
    depth: int
    shown: frozenset[Hashable]


class TopologyView(W.VBox):
    """The interactive topology view (see `show_topology`): a widget, placed as it is
    (`VBox([view, ...])`), as ipysigma's `Sigma` or ipyleaflet's `Map` are."""

    def __init__(
        self,
        estate_or_graph: EstateOrGraph | None = None,
        *,
        group_by: str | Literal[False] | None = None,
        highlight: Highlight = None,
        on_select: SelectCallback | None = None,
        height: int = 620,
        aspect: float = 1.6,
    ) -> None:
        check_options("auto", group_by)
        super().__init__(layout=W.Layout(width="100%"))
        self.add_class("ipt-topology")
        self.aspect = aspect
        self.group_by = group_by
        self.on_select = on_select
        self.height = height
        self.canvas = Canvas(height, aspect)
        self.selected: Hashable | None = None
        """The estate node last clicked or searched (None before any)."""
        self.trail: list[Level] = []
        """The levels opened below the overview, the last one shown (the breadcrumb)."""
        self._graph: nx.MultiDiGraph | None = None
        self._graph_source: Callable[[], nx.MultiDiGraph] | None = None
        self._focus: set[Hashable] | None = None
        self._highlight: Highlight = None
        self._overview: ViewData | None = None
        self._data: ViewData | None = None
        self._sigma: Sigma | None = None
        self._title: str | None = None
        self._trail_watchers: list[Callable[[], None]] = []
        self._canvas = W.Box(layout=W.Layout(width="100%"))
        self._canvas.add_class("ipt-topology-canvas")
        # sigma measures its container once, when it is attached: it goes in only after the
        # front end reports the box displayed (its layout applied), else it draws 0 px wide
        self._canvas._view_count = 0
        self._canvas.observe(self._place_canvas, "_view_count")
        self._back = W.Button(
            description="up",
            icon="arrow-left",
            tooltip="one level up",
            layout=W.Layout(width="auto", display="none"),
        )
        self._back.add_class("ipt-topology-back")
        self._back.on_click(lambda _: self.back())
        self._crumbs = W.HBox(layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self._crumbs.add_class("ipt-topology-crumbs")
        self._depth = W.Dropdown(
            options=[(f"depth {n}", n) for n in range(1, MAX_DEPTH + 1)],
            value=1,
            layout=W.Layout(width="90px", display="none"),
        )
        self._depth.add_class("ipt-topology-depth")
        self._depth.observe(lambda change: self._depth_changed(change["new"]), "value")
        self._status = W.HTML()
        self._status.add_class("ipt-topology-status")
        self._info = W.HTML()
        self._info.add_class("ipt-topology-info")
        self._details = W.Button(
            description="details", icon="info", layout=W.Layout(width="auto", display="none")
        )
        self._details.add_class("ipt-topology-details")
        self._details.on_click(lambda _: self._open_details())
        self._around = W.Button(
            description="neighbourhood",
            icon="dot-circle-o",
            tooltip="show the items within the chosen depth of this one",
            layout=W.Layout(width="auto", display="none"),
        )
        self._around.add_class("ipt-topology-around")
        self._around.on_click(lambda _: self.focus(self.selected) if self.selected else None)
        self._legend = W.HTML()
        below = W.VBox(
            [
                W.HBox([self._info, self._details, self._around],
                       layout=W.Layout(align_items="center")),
                self._legend,
            ]
        )  # fmt: skip
        below.add_class("ipt-topology-below")
        self._guard = SigmaGuard()  # no script error from ipysigma's `layout` trait
        self.children = (
            W.HTML(_CSS + HIDE_FALLBACK_CSS),
            self._guard,
            W.HBox(
                [self._back, self._crumbs, self._depth],
                layout=W.Layout(align_items="center", flex_flow="row wrap"),
            ),
            self._status,
            self._canvas,
            below,
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
        return self._data

    @property
    def graph(self) -> nx.MultiDiGraph | None:
        """The estate graph whose overview is shown (node ids as `build_graph` names them)."""
        if self._graph is None and self._graph_source is not None:
            self._graph = self._graph_source()
        return self._graph

    @property
    def sigma(self) -> Sigma | None:
        """The `ipysigma.Sigma` widget drawn now (a new one for every view)."""
        return self._sigma

    @property
    def expanded(self) -> bool:
        """True while a group or a neighbourhood is shown (see `back`)."""
        return bool(self.trail)

    @property
    def neighbourhood(self) -> Neighbourhood | None:
        """The neighbourhood shown now (None: a group or the overview)."""
        return self.trail[-1].focus if self.trail else None

    @property
    def drill_path(self) -> tuple[str, ...]:
        """The groups opened below the overview, as the breadcrumb names them, a subgroup
        standing for its parent groups (`("Finance/AP", "AS2 profiles")` for Overview >
        Finance > Finance/AP > AS2 profiles); a neighbourhood and what is below it are not
        part of it. `open_path` opens it again."""
        titles: list[str] = []
        for level in self.trail:
            if level.focus is not None:
                break
            if titles and level.title.startswith(titles[-1] + "/"):
                titles[-1] = level.title
            else:
                titles.append(level.title)
        return tuple(titles)

    def open_path(self, path: Iterable[str]) -> tuple[str, ...]:
        """From the overview, open each group of `path` (a `drill_path`) in turn, through
        the parent groups a subgroup needs; the titles that name no group of the view
        reached (and those after them) are returned, and the view stays where it got."""
        if self._overview is None:
            return tuple(path)
        if self.trail:
            self.go_to(0)
        wanted = list(path)
        for index, title in enumerate(wanted):
            while True:
                key = _group_towards(self._data, title)
                if key is None:
                    return tuple(wanted[index:])
                self.expand(key)
                if self.trail[-1].title == title:
                    break
        return ()

    def on_trail(self, callback: Callable[[], None]) -> None:
        """Call `callback()` whenever a group is opened or the view goes back up (the app
        keeps `drill_path` in its page address)."""
        self._trail_watchers.append(callback)

    def update(self, estate_or_graph: EstateOrGraph, *, highlight: Highlight = None) -> None:
        """Show another estate or selection (the overview, grouped as `group_by` says)."""
        graph, _ = graph_of(estate_or_graph)
        self._graph, self._graph_source = graph, None
        self._highlight = highlight
        self._focus = focus_set(graph, highlight)
        self.show(self.overview_data(graph, self._focus))

    def overview_data(self, graph: nx.MultiDiGraph, focus: set[Hashable] | None = None) -> ViewData:
        """The overview of a graph as this view draws it (the Explorer caches these):
        grouped as `group_by` says; left to choose (None), node by node when it fits the
        canvas, else grouped (`drill.auto_view`)."""
        if self.group_by is None:
            return auto_view(graph, canvas=self.canvas, focus=focus)
        group_by = grouping(graph, self.group_by)
        return view_data(graph, group_by=group_by, focus=focus, canvas=self.canvas)

    def show(self, data: ViewData, graph: GraphSource | None = None) -> None:
        """Draw prepared view data as the overview (of `graph`, or of what `graph()` builds
        when a group is opened or a node clicked)."""
        if graph is not None:
            self._focus, self._highlight = None, None
            if callable(graph) and not isinstance(graph, nx.Graph):
                self._graph, self._graph_source = None, graph
            else:
                self._graph, self._graph_source = graph, None
        self._overview = data
        self.trail = []
        self._draw(data)
        self._trail_changed()

    def redraw(self) -> None:
        """Draw the view shown now afresh: sigma ignores a click on the node it has
        selected, so after a pick the same node could not be clicked again."""
        if self._data is not None:
            camera = self._sigma.camera_state if self._sigma is not None else None
            self._draw(self._data, title=self._title, camera=camera)  # the reader's place

    def expand(self, key: str) -> None:
        """Open the group `key` of the view shown: its members and their paths, grouped by
        their subgroups (or agent type, or partner) while too many to draw one by one."""
        graph = self.graph
        if self._data is None or graph is None:
            return
        members = self._data.members.get(key)
        if not members or key not in self._data.graph or self._data.item(key) is not None:
            raise KeyError(f"expand: no group {key!r} in the view shown")
        crumb = str(self._data.graph.nodes[key].get("crumb") or key)
        detail = drill_view(graph, members, canvas=self.canvas, focus=self._focus)
        self._push(Level(crumb, detail))

    def focus(self, node: Hashable, depth: int | None = None) -> None:
        """Show the items within `depth` steps of `node` (the depth chosen in the view, 1 at
        first); a click on any of them then expands it in place (`expand_node`)."""
        graph = self.graph
        if graph is None:
            return
        depth = self._depth.value if depth is None else depth
        node = resolve_node(graph, node, what="focus")
        shown = frozenset(neighbourhood_nodes(graph, node, depth))
        self._push(Level(_around_title(graph, node), self._around_data(node, shown),
                         Neighbourhood(node, depth, shown)))  # fmt: skip

    def expand_node(self, node: Hashable) -> None:
        """In a neighbourhood: add `node`'s neighbours to what is shown."""
        around, graph = self.neighbourhood, self.graph
        if around is None or graph is None or node not in graph:
            return
        shown = frozenset(expand_nodes(graph, set(around.shown), node))
        if shown == around.shown:
            return
        level = self.trail[-1]
        self.trail[-1] = Level(
            level.title, self._around_data(around.centre, shown),
            Neighbourhood(around.centre, around.depth, shown),
        )  # fmt: skip
        self._draw(self.trail[-1].data, title=level.title)

    def back(self) -> None:
        """Go one level up: from a subgroup to its group, from a group to the overview."""
        if self.trail:
            self.go_to(len(self.trail) - 1)

    def go_to(self, depth: int) -> None:
        """Show level `depth` of the breadcrumb (0: the overview)."""
        if self._overview is None or depth < 0:
            return
        del self.trail[depth:]
        level = self.trail[-1] if self.trail else None
        self._draw(level.data if level else self._overview, title=level.title if level else None)
        self._trail_changed()

    def say(self, text: str) -> None:
        """A line above the canvas (why a neighbourhood cannot be shown, say)."""
        self._status.value = f"<span class='ipt-topology-title'>{html.escape(text)}</span>"

    def close(self) -> None:
        """Close the view and every widget in it (front-end views go away)."""
        sigma = getattr(self, "_sigma", None)  # None too when __init__ refused its options
        if sigma is not None:
            sigma.close()
        for child in _descendants(self):
            child.close()
        super().close()

    # -- levels ---------------------------------------------------------------------------

    def _push(self, level: Level) -> None:
        self.trail.append(level)
        self._draw(level.data, title=level.title)
        self._trail_changed()

    def _trail_changed(self) -> None:
        for callback in self._trail_watchers:
            callback()

    def _around_data(self, centre: Hashable, shown: frozenset[Hashable]) -> ViewData:
        graph = self.graph
        assert graph is not None
        return neighbourhood_view(graph, set(shown), centre, canvas=self.canvas)

    def _depth_changed(self, depth: int) -> None:
        around = self.neighbourhood
        if around is not None and around.depth != depth:
            self.trail.pop()
            self.focus(around.centre, depth)

    def _show_crumbs(self) -> None:
        for child in self._crumbs.children:
            child.close()
        if not self.trail:
            self._crumbs.children = ()
            return
        crumbs: list[W.Widget] = []
        for index, title in enumerate(["Overview", *(level.title for level in self.trail)]):
            if index:
                crumbs.append(W.HTML("<span class='ipt-crumb-sep'>›</span>"))
            if index == len(self.trail):
                current = W.HTML(f"<span class='ipt-crumb-here'>{html.escape(title)}</span>")
                crumbs.append(current)
            else:
                button = W.Button(description=title, tooltip=f"back to {title}",
                                  layout=W.Layout(width="auto"))  # fmt: skip
                button.add_class("ipt-crumb")
                button.on_click(lambda _, depth=index: self.go_to(depth))
                crumbs.append(button)
        self._crumbs.children = tuple(crumbs)

    # -- drawing --------------------------------------------------------------------------

    def _draw(
        self, data: ViewData, *, title: str | None = None, camera: dict[str, Any] | None = None
    ) -> None:
        from ipysigma import Sigma

        graph = data.graph
        fitted = data.camera is not None
        sigma = Sigma(
            graph,
            name=title or _title(data),
            height=self.height,
            **_SIGMA_ATTRIBUTES,
            # laid out for the canvas (topology_fit): every label has its room
            show_all_labels=data.group_by is not None or fitted,
            # node by node past the canvas: labels where they have room (more zoomed in)
            label_rendered_size_threshold=None if (data.group_by or fitted) else 3,
            label_grid_cell_size=60,
            label_density=1,
            camera_state=camera or start_camera(data, aspect=self.aspect),
            hide_edges_on_move=graph.number_of_edges() > 5000,
        )
        # drawn in a hidden tab, the container has no width yet: sigma must wait, not fail
        sigma.renderer_settings = {**sigma.renderer_settings, "allowInvalidContainer": True}
        sigma.observe(self._picked, "selected_node")
        old, self._sigma, self._data, self._title = self._sigma, sigma, data, title
        self.selected = None  # a new picture: nothing picked in it yet
        self._info.value = ""
        self._details.layout.display = self._around.layout.display = "none"
        if old is not None:
            old.close()
        self._place_canvas()
        self._back.layout.display = None if self.expanded else "none"
        self._depth.layout.display = None if self.neighbourhood is not None else "none"
        self._show_crumbs()
        self._status.value = _status_html(
            data, expanded=self.expanded, title=title, around=self.neighbourhood is not None
        )
        self._legend.value = legend_html(data.legend)

    def _place_canvas(self, change: dict[str, Any] | None = None) -> None:
        """Put the current sigma widget in its box, once the box is displayed."""
        if self._sigma is None or not self._canvas._view_count:
            self._canvas.children = ()
        elif self._canvas.children != (self._sigma,):
            self._canvas.children = (self._sigma,)

    def _picked(self, change: dict[str, Any]) -> None:
        key = change["new"]
        if key is None or self._data is None or key not in self._data.members:
            return
        node = self._data.item(key)
        if node is None:  # a group: open it
            self.expand(key)
            return
        if self.neighbourhood is not None:  # around an item: a click expands in place
            self.expand_node(node)
            self.selected = node
            self._info.value = _info_html(self._data, key)
            self._details.layout.display = None
            return
        self.selected = node
        self._info.value = _info_html(self._data, key)
        self._around.layout.display = None
        if self.on_select is not None:
            self.on_select(node)

    def _open_details(self) -> None:
        if self.selected is not None and self.on_select is not None:
            self.on_select(self.selected)

    # -- display --------------------------------------------------------------------------

    def _ipython_display_(self) -> None:
        from IPython.display import HTML, display

        bundle = self._repr_mimebundle_()
        bundle["text/plain"] = f"iptoolkit topology view ({_title(self._data)}; a live widget)"
        display(bundle, raw=True)
        display(HTML(topology_fallback_html(self.png(), _title(self._data))))

    def png(self) -> bytes | None:
        """The static diagram of the overview (`plot_topology`), as PNG bytes. A view drawn
        node by node past `MAX_DETAIL_NODES` gets the grouped diagram: a PNG of thousands
        of rows is unreadable, and takes a minute to draw."""
        graph = self.graph
        if graph is None:
            return None
        from ..plot.topology import MAX_DETAIL_NODES
        from .diagram import render_png

        group_by = self.group_by
        if group_by is False and graph.number_of_nodes() > MAX_DETAIL_NODES:
            group_by = None
        return render_png(graph, group_by=group_by, highlight=self._highlight)

    def __repr__(self) -> str:
        return f"<TopologyView: {_title(self._data)}>"


def _descendants(box: W.Box) -> list[W.Widget]:
    """Every widget inside `box`, innermost first."""
    found: list[W.Widget] = []
    for child in box.children:
        if isinstance(child, W.Box):
            found += _descendants(child)
        found.append(child)
    return found


def _title(data: ViewData | None) -> str:
    if data is None:
        return "nothing shown"
    nodes = sum(1 for _, kind in data.graph.nodes(data="kind") if kind != "port")  # drawn
    how = f"grouped by {data.group_by}" if data.group_by else "node by node"
    return f"{nodes:,} items, {how}"


def _status_html(data: ViewData, *, expanded: bool, title: str | None, around: bool = False) -> str:
    if data.graph.number_of_nodes() == 0:
        return "<span class='ipt-topology-title'>Nothing selected</span>"
    if around:
        hint = "click a node to add its neighbours"
    elif data.group_by is None:
        hint = "click a node for its details"
    else:
        hint = "click a group to open it"
    what = title or _title(data)
    if expanded and not around:
        how = f"by {_BY[data.group_by]}" if data.group_by else "node by node"
        what = f"{what}, in detail: {how}"
    what = html.escape(what)
    return (
        f"<span class='ipt-topology-title'>{what}</span> "
        f"<span class='ipt-topology-hint'>· scroll to zoom, drag to pan, {hint}</span>"
    )


_BY = {"group": "subgroup", "agent_type": "input agent type", "partner": "partner"}


_PROFILE_GROUP = "group:profile:"


def _group_towards(data: ViewData | None, title: str) -> str | None:
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


def _around_title(graph: nx.MultiDiGraph, node: Hashable) -> str:
    """The breadcrumb of a neighbourhood: `around Acme Ltd`."""
    name = graph.nodes[node].get("name") or str(node)
    return f"around {name}"


def _info_html(data: ViewData, key: str) -> str:
    """The line naming the node picked last: its label, kind, type, state and id."""
    attributes = data.graph.nodes[key]
    facts = [str(attributes[name]) for name in ("kind", "type") if name in attributes]
    if attributes.get("active") is False:
        facts.append("inactive")
    return (
        f"picked: <span class='ipt-topology-title'>"
        f"{html.escape(str(attributes.get('name', attributes['label'])))}"
        f"</span> · {html.escape(', '.join(facts))} "
        f"<span class='ipt-topology-hint'>({html.escape(key)})</span>"
    )
