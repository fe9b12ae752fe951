"""`Explorer`: filter an estate, see the counts, the topology, the table, details; export.

    explorer = ipt.Explorer(estate)                 # display it: last line of a cell
    explorer.filter = ipt.Filter(partners=["Acme"]) # or start from a saved filter
    explorer.selection                              # the chosen profiles, an Estate
    saved = explorer.filter.to_json()               # what the analyst chose

A click or a pick in the panel applies at once; typed text after a pause in typing
(debounced). The counts, the table and the interactive topology view
(`topology.TopologyView`, grouped when large, its data cached per filter) follow; clicking
a node opens its details. The static PNG
diagram is drawn after them (debounced again, cached per filter): it only feeds the
static copy the notebook keeps (counts, agent types, the diagram), which shows wherever
the live widget cannot: GitHub, nbviewer, a reopened notebook. Changes made from code
(`explorer.filter = ...`) apply at once, so the next line sees them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import ipywidgets as W
import networkx as nx

from ..query.filters import Filter
from .debounce import Debouncer
from .detail import DetailPane
from .diagram import DiagramCache, render_png
from .exporter import ExportPanel, suggested_name, write_selection
from .findings import FindingsPane
from .html import HIDE_FALLBACK_CSS, fallback_html, header_html
from .model import ExplorerModel, Selection
from .panel import FilterPanel
from .shown import ShownTab
from .table import SelectionTable
from .topology import TopologyView
from .topology_data import ViewData, detail_node

if TYPE_CHECKING:
    from IPython.display import DisplayHandle

    from ..core.estate import Estate

__all__ = ["Explorer"]

TABS = ("Topology", "Table", "Details", "Findings", "Export")
PNG_DELAY = 1.0
"""Seconds of quiet before the static PNG is drawn: it is only the notebook's fallback."""
_CSS = """<style>
.ipt-explorer .ipt-counts {font-size: 1.3em; font-weight: 600;}
.ipt-explorer .ipt-description {color: var(--jp-ui-font-color2, #616161); margin-top: 2px;}
.ipt-explorer .ipt-busy {color: var(--jp-ui-font-color2, #757575); font-size: 0.9em;
  margin-left: 8px;}
.ipt-explorer .ipt-header {margin: 2px 0 8px 0;}
.ipt-explorer .ipt-title {font-weight: 600; margin: 10px 0 4px 0;}
.ipt-explorer .ipt-none {color: var(--jp-ui-font-color2, #757575);}
.ipt-explorer .ipt-note {font-size: 0.9em; color: #8a5a00; margin-top: 6px;}
.ipt-explorer .ipt-error {color: #b00020;}
.ipt-explorer table.ipt-fields {border-collapse: collapse; font-size: 0.92em;}
.ipt-explorer table.ipt-fields th {text-align: left; padding: 2px 12px 2px 0;
  vertical-align: top; white-space: nowrap; font-weight: 600;}
.ipt-explorer table.ipt-fields td {padding: 2px 0; word-break: break-word;}
.ipt-explorer .ipt-detail-body ul {margin: 0 0 4px 0; padding-left: 20px;}
.ipt-explorer .ipt-more summary {cursor: pointer; color: var(--jp-content-link-color,
  #1976d2); margin: 0 0 4px 20px;}
.ipt-explorer .widget-html-content {line-height: 1.45;}
.ipt-explorer .ipt-header .widget-html-content {line-height: 1.3;}
.ipt-explorer .ipt-partner-search {margin-bottom: 2px;}
.ipt-explorer a {color: var(--jp-content-link-color, #1976d2); text-decoration: underline;}
.ipt-explorer .widget-select-multiple select {font-size: 0.92em;}
.ipt-explorer .ipt-f-active .widget-toggle-button {padding: 0 2px; margin: 0 3px 0 0;
  font-size: 0.88em; flex: 1 1 auto; min-width: 0; white-space: nowrap;}
.ipt-explorer .ipt-f-active > div {display: flex; flex-wrap: nowrap; width: 100%;}
.ipt-explorer a.ipt-link {cursor: pointer;}
.ipt-explorer a.ipt-link:focus-visible {outline: 2px solid var(--jp-brand-color1, #1976d2);
  outline-offset: 1px;}
.ipt-explorer a.ipt-outside {color: var(--jp-ui-font-color2, #616161);
  text-decoration-style: dotted;}
.ipt-explorer .ipt-outside-note {color: #8a5a00; margin: 2px 0;}
.ipt-explorer .ipt-findings-body ul {margin: 0 0 6px 0; padding-left: 20px;
  max-height: 420px; overflow-y: auto;}
.ipt-explorer .ipt-findings-body summary {cursor: pointer; margin: 6px 0 4px 0;}
.ipt-explorer .ipt-findings-body li {margin-bottom: 3px;}
.ipt-explorer .ipt-finding-items {font-size: 0.92em;}
.ipt-explorer .ipt-sev {display: inline-block; min-width: 52px; padding: 0 6px;
  border-radius: 3px; font-size: 0.8em; font-weight: 600; text-align: center;
  color: #fff; margin-right: 4px;}
.ipt-explorer .ipt-sev-error {background: #b00020;}
.ipt-explorer .ipt-sev-warning {background: #a15c00;}
.ipt-explorer .ipt-sev-info {background: #546e7a;}
.ipt-explorer .ipt-code {font-weight: 600; margin-right: 4px; cursor: help;}
.ipt-explorer .ipt-rule-help {margin: 0 0 4px 20px; font-size: 0.9em;
  color: var(--jp-ui-font-color1, #424242); max-width: 70em;}
</style>"""


class Explorer:
    """An ipywidgets app over an estate: filters, counts, topology, table, details, export.

    `folder` is where the export buttons write; `debounce` the pause (seconds) after which
    a change made in the front end is applied; `diagram=False` leaves the topology view
    and the static diagram out (for very large selections on slow machines);
    `static_copy=False` draws no static diagram for the copy a notebook keeps for GitHub
    (the app, whose page is always live: at 10,000 profiles that drawing holds the kernel
    for about a second after each change). `fixed_folder=True` writes into `folder`
    whatever the folder field says, `masked_exports=True` masks credentials in the `.json`
    snapshot too (the app, which anyone reaching its page could drive).
    """

    def __init__(
        self,
        estate: Estate,
        filter: Filter | None = None,
        *,
        folder: str | os.PathLike[str] = "iptoolkit-export",
        debounce: float = 0.25,
        diagram: bool = True,
        static_copy: bool = True,
        fixed_folder: bool = False,
        masked_exports: bool = False,
    ) -> None:
        self.model = ExplorerModel(estate)
        self._show_diagram = diagram
        self._draw_png = diagram and static_copy
        self._diagrams: DiagramCache[bytes] = DiagramCache()
        self._views: DiagramCache[ViewData] = DiagramCache()
        self._png: bytes | None = None
        self._fallback: DisplayHandle | None = None
        self._changes = Debouncer(self._apply_change, debounce)
        self._drawing = Debouncer(self._draw, PNG_DELAY if debounce > 0 else 0)
        self._selection: Selection = self.model.select(Filter())
        self._watchers: list[Callable[[], None]] = []

        self.panel = FilterPanel(self.model.facets, self._panel_changed)
        self.header = W.HTML()
        self.topology = TopologyView(on_select=self._picked_node, height=600, aspect=2.0)
        self.table = SelectionTable(self._picked_row)
        self.detail = DetailPane(
            self.model, lambda: self._selection, on_open=self.show_detail, on_focus=self.focus_on
        )
        self.detail.on_item(lambda _: self._changed())
        self.topology.on_trail(self._changed)
        self.findings = FindingsPane(self.model, lambda: self._selection, self.show_detail)
        self.exporter = ExportPanel(
            lambda: self.selection, folder=str(folder), fixed=fixed_folder, masked=masked_exports
        )
        topology = self.topology if diagram else W.HTML("(diagram=False: no topology)")
        self.tabs = W.Tab(
            [
                topology,
                self.table.widget,
                self.detail.widget,
                self.findings.widget,
                self.exporter.widget,
            ],
            titles=TABS,
            layout=W.Layout(flex="1 1 auto", min_width="0"),
        )
        self._topology_tab = ShownTab(self._show_topology, stale=False)
        self._shown_tabs = {
            "Topology": self._topology_tab,
            "Details": self.detail.tab,
            "Findings": self.findings.tab,
        }
        self._tab_changed()
        self.tabs.observe(lambda _: self._tab_changed(), "selected_index")
        self.widget = W.VBox(
            [
                W.HTML(_CSS + HIDE_FALLBACK_CSS),
                self.header,
                W.HBox([self.panel.widget, self.tabs], layout=W.Layout(width="100%")),
            ],
            layout=W.Layout(width="100%"),
        )
        self.widget.add_class("ipt-explorer")
        self.panel.set(filter or Filter())  # calls back through the debouncer...
        self._changes.flush()  # ...so apply now: the constructor returns a ready explorer
        self.refresh()

    # -- the public surface ---------------------------------------------------------------

    @property
    def filter(self) -> Filter:
        """The current filter; set it to show another selection (applies at once)."""
        self._changes.flush()
        return self._selection.filter

    @filter.setter
    def filter(self, value: Filter) -> None:
        self.panel.set(value)
        self._changes.flush()
        self.refresh()

    @property
    def selection(self) -> Estate:
        """The selected profiles as an `Estate` (with their channels and partners)."""
        self._changes.flush()
        return self._selection.estate

    @property
    def counts(self) -> str:
        """ "128 of 10,000 profiles, 14 partners, 31 channels"."""
        self._changes.flush()
        return self._selection.counts_text()

    @property
    def diagram_png(self) -> bytes | None:
        """The selection's static diagram (`plot_topology`), as PNG bytes (None before the
        first drawing)."""
        return self._png

    def refresh(self) -> None:
        """Apply any pending change and draw the static diagram now."""
        self._changes.flush()
        self._drawing.cancel()
        self._draw()

    def export(
        self,
        fmt: str,
        folder: str | os.PathLike[str] | None = None,
        *,
        name: str | None = None,
    ) -> Path:
        """Write the selection in any format `ipt.export` writes (`json`, `json.gz`, `csv`,
        `xlsx`, `graphml`, `gexf`, `dot`, `mmd`, `md`, `png`, `svg`, `pdf`) to the export
        tab's folder and file name (the one typed, else made from the filter); the path."""
        return write_selection(
            self.selection,
            fmt,
            folder if folder is not None else self.exporter.target_folder,
            name or self.exporter.file_name,
            masked=self.exporter.masked,
        )

    def show_detail(self, node: str) -> None:
        """Open the detail pane on a graph node (`partner:1001`, `channel:17`, ...)."""
        self.detail.show(node)
        self.tabs.selected_index = TABS.index("Details")

    def focus_on(self, node: str, depth: int | None = None) -> None:
        """Show a node's neighbourhood in the Topology tab (`TopologyView.focus`): the
        selection's items within `depth` steps of it; a click there expands a node."""
        self.tabs.selected_index = TABS.index("Topology")
        if self._topology_tab.stale:
            self._topology_tab.draw()
        try:
            self.topology.focus(node, depth)
        except (ValueError, nx.NodeNotFound):  # not in this selection's graph
            self.topology.say(f"{node} is not in this selection: widen the filter to see it")

    def drill_to(self, path: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        """Open the topology's groups of `path` (a `drill` value) from its overview; the
        titles that name no group on the way (`TopologyView.open_path`)."""
        if self._topology_tab.stale:
            self._topology_tab.draw()
        return self.topology.open_path(path)

    @property
    def drill(self) -> tuple[str, ...]:
        """The groups the topology has opened (`TopologyView.drill_path`)."""
        return self.topology.drill_path

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call `callback()` after the filter changes, Details shows another item or the
        topology opens a group or goes back up (the app keeps its page address in step, see
        `app.address`)."""
        self._watchers.append(callback)

    @property
    def item(self) -> str | None:
        """The node id Details shows (None: none)."""
        return self.detail.node

    def _changed(self) -> None:
        for callback in self._watchers:
            callback()

    def close(self) -> None:
        """Close every widget (front-end views go away) and stop pending work."""
        self._changes.cancel()
        self._drawing.cancel()
        self.topology.close()
        _close_tree(self.widget)

    # -- display --------------------------------------------------------------------------

    def _ipython_display_(self) -> None:
        from IPython.display import HTML, display

        bundle = self.widget._repr_mimebundle_()
        # shown where the widget cannot be; the counts would go stale, the static copy won't
        bundle["text/plain"] = "iptoolkit Explorer (a live widget: it needs a running kernel)"
        display(bundle, raw=True)
        self._fallback = display(HTML(self._fallback_html()), display_id=True)

    def __repr__(self) -> str:
        return f"<Explorer: {self._selection.counts_text()}; filter: {self._selection.filter}>"

    def _fallback_html(self) -> str:
        estate = self._selection.estate
        return fallback_html(
            self._selection.counts_text(),
            self._selection.filter.describe(),
            estate.summary()["agent_types"],
            self._png,
        )

    # -- changes --------------------------------------------------------------------------

    def _panel_changed(self) -> None:
        """Typing waits for a pause (a change per key would queue work); a click or a pick
        applies at once, so its counts show without the pause."""
        self._changes.trigger()
        if not self.panel.typing:
            self._changes.flush()

    def _apply_change(self) -> None:
        """The panel changed: new selection, counts, table, topology; the PNG follows."""
        self._drawing.cancel()
        selection = self.model.select(self.panel.filter)
        self._selection = selection
        if selection.facets is not None:
            self.panel.show_facets(selection.facets)
        self.exporter.suggest(suggested_name(selection.filter))
        self.header.value = header_html(selection.counts_text(), selection.filter.describe())
        self.table.show(self.model.table(selection))
        self.detail.invalidate()
        self.findings.tab.invalidate()
        self._changed()
        if self._show_diagram:
            self._topology_tab.invalidate()
        if not self._draw_png:
            self._update_fallback()  # the counts and the filter, without a diagram
            return
        cached = self._diagrams.get(selection.filter.to_json())
        if cached is not None:
            self._set_diagram(cached)
        else:
            self._drawing.trigger()

    def _show_topology(self) -> None:
        """The selection in the topology view, its data from the cache when seen before."""
        from ..query.graph import build_graph

        key = self._selection.filter.to_json()
        estate = self._selection.estate
        whole = self._selection.filter.is_empty()

        def selection_graph() -> nx.MultiDiGraph:
            # the whole estate's graph is the one Details already holds (44 MB at 10k):
            # one copy per session, not two
            return self.model.graph if whole else build_graph(estate)

        data = self._views.get(key)
        if data is None:
            graph = selection_graph()
            data = self.topology.overview_data(graph)
            self._views.put(key, data)
            self.topology.show(data, graph)
        else:  # a selection's graph is not kept: built again if a click needs it
            self.topology.show(data, selection_graph)

    def _picked_node(self, node: object) -> None:
        """A node of the topology was clicked: its details (an agent's: its profile's)."""
        graph = self.topology.graph
        self.show_detail(str(detail_node(graph, node) if graph is not None else node))

    def _draw(self) -> None:
        if not self._draw_png:
            return
        key = self._selection.filter.to_json()
        png = self._diagrams.get(key)
        if png is None:
            png = render_png(self._selection.estate)
            self._diagrams.put(key, png)
        self._set_diagram(png)

    def _set_diagram(self, png: bytes) -> None:
        self._png = png
        self._update_fallback()

    def _update_fallback(self) -> None:
        if self._fallback is not None:
            from IPython.display import HTML

            self._fallback.update(HTML(self._fallback_html()))

    def _tab_changed(self) -> None:
        """Details, findings and the topology are drawn only while their tab is shown: they
        cost time, and a view drawn in a hidden tab measures 0 px."""
        shown = TABS[self.tabs.selected_index or 0]
        topology = self._topology_tab
        if shown == "Topology" and not topology.stale and self.topology.selected is not None:
            self.topology.redraw()  # so that the node picked last can be clicked again
        for name, tab in self._shown_tabs.items():
            tab.set_visible(name == shown)

    def _picked_row(self, row: int) -> None:
        """A table row was selected: show that profile's details."""
        rows = self._selection.rows
        if 0 <= row < len(rows):
            self.show_detail(self.model.profile_nodes[rows[row]])


def _close_tree(widget: W.Widget) -> None:
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()
