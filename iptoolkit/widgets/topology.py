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
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Literal

import ipywidgets as W
import networkx as nx

from ..plot.topology import check_options, grouping
from ..topology.legend import HIGHLIGHT_COLOUR
from ..topology.view import EstateOrGraph, Highlight, focus_set, graph_of
from .html import HIDE_FALLBACK_CSS, legend_html, topology_fallback_html
from .topology_data import ViewData, group_graph, start_camera, view_data

if TYPE_CHECKING:
    from ipysigma import Sigma

__all__ = ["TopologyView", "show_topology"]

SelectCallback = Callable[[Hashable], Any]
GraphSource = nx.MultiDiGraph | Callable[[], nx.MultiDiGraph]
"""A graph, or what builds it when first needed (the Explorer keeps no graph it reuses)."""
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
"""How sigma reads what `topology_data.view_data` writes: each node and edge attribute
taken as it is (colours, sizes, labels already computed), the same for every view."""
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
</style>"""


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
        self.selected: Hashable | None = None
        """The estate node last clicked or searched (None before any)."""
        self._graph: nx.MultiDiGraph | None = None
        self._graph_source: Callable[[], nx.MultiDiGraph] | None = None
        self._focus: set[Hashable] | None = None
        self._highlight: Highlight = None
        self._overview: ViewData | None = None
        self._data: ViewData | None = None
        self._sigma: Sigma | None = None
        self._title: str | None = None
        self._canvas = W.Box(layout=W.Layout(width="100%"))
        self._canvas.add_class("ipt-topology-canvas")
        # sigma measures its container once, when it is attached: it goes in only after the
        # front end reports the box displayed (its layout applied), else it draws 0 px wide
        self._canvas._view_count = 0
        self._canvas.observe(self._place_canvas, "_view_count")
        self._back = W.Button(
            description="back to overview",
            icon="arrow-left",
            layout=W.Layout(width="auto", display="none"),
        )
        self._back.add_class("ipt-topology-back")
        self._back.on_click(lambda _: self.back())
        self._status = W.HTML()
        self._status.add_class("ipt-topology-status")
        self._info = W.HTML()
        self._info.add_class("ipt-topology-info")
        self._legend = W.HTML()
        below = W.VBox([self._info, self._legend])
        below.add_class("ipt-topology-below")
        self.children = (
            W.HTML(_CSS + HIDE_FALLBACK_CSS),
            W.HBox([self._back, self._status], layout=W.Layout(align_items="center")),
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
        """True while a group is shown in detail (see `back`)."""
        return self._data is not None and self._data is not self._overview

    def update(self, estate_or_graph: EstateOrGraph, *, highlight: Highlight = None) -> None:
        """Show another estate or selection (the overview, grouped as `group_by` says)."""
        graph, _ = graph_of(estate_or_graph)
        self._graph, self._graph_source = graph, None
        self._highlight = highlight
        self._focus = focus_set(graph, highlight)
        self.show(self.overview_data(graph, self._focus))

    def overview_data(self, graph: nx.MultiDiGraph, focus: set[Hashable] | None = None) -> ViewData:
        """The overview of a graph as this view draws it (the Explorer caches these)."""
        return view_data(graph, group_by=grouping(graph, self.group_by), focus=focus)

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
        self._draw(data)

    def redraw(self) -> None:
        """Draw the view shown now afresh: sigma ignores a click on the node it has
        selected, so after a pick the same node could not be clicked again."""
        if self._data is not None:
            camera = self._sigma.camera_state if self._sigma is not None else None
            self._draw(self._data, title=self._title, camera=camera)  # the reader's place

    def expand(self, key: str) -> None:
        """Show the group `key` of the overview in detail: its members and their paths."""
        graph = self.graph
        if self._overview is None or graph is None:
            return
        members = self._overview.members.get(key)
        if not members:
            raise KeyError(f"expand: no group {key!r} in the overview")
        label = self._overview.graph.nodes[key]["label"]
        detail = view_data(group_graph(graph, members), group_by=None, focus=self._focus)
        self._draw(detail, title=f"{label}, in detail")

    def back(self) -> None:
        """Return from a group shown in detail to the overview."""
        if self._overview is not None and self.expanded:
            self._draw(self._overview)

    def close(self) -> None:
        """Close the view and every widget in it (front-end views go away)."""
        sigma = getattr(self, "_sigma", None)  # None too when __init__ refused its options
        if sigma is not None:
            sigma.close()
        for child in _descendants(self):
            child.close()
        super().close()

    # -- drawing --------------------------------------------------------------------------

    def _draw(
        self, data: ViewData, *, title: str | None = None, camera: dict[str, Any] | None = None
    ) -> None:
        from ipysigma import Sigma

        graph = data.graph
        sigma = Sigma(
            graph,
            name=title or _title(data),
            height=self.height,
            **_SIGMA_ATTRIBUTES,
            show_all_labels=data.group_by is not None,
            # node by node: labels where they have room (more as one zooms in)
            label_rendered_size_threshold=None if data.group_by else 3,
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
        if old is not None:
            old.close()
        self._place_canvas()
        self._back.layout.display = None if self.expanded else "none"
        self._status.value = _status_html(data, expanded=self.expanded, title=title)
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
        self.selected = node
        self._info.value = _info_html(self._data, key)
        if self.on_select is not None:
            self.on_select(node)

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
    nodes = data.graph.number_of_nodes()
    how = f"grouped by {data.group_by}" if data.group_by else "node by node"
    return f"{nodes:,} items, {how}"


def _status_html(data: ViewData, *, expanded: bool, title: str | None) -> str:
    if data.graph.number_of_nodes() == 0:
        return "<span class='ipt-topology-title'>Nothing selected</span>"
    hint = (
        "click a node for its details"
        if data.group_by is None
        else "click a group to see its members"
    )
    what = html.escape(title or _title(data))
    return (
        f"<span class='ipt-topology-title'>{what}</span> "
        f"<span class='ipt-topology-hint'>· scroll to zoom, drag to pan, {hint}</span>"
    )


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
