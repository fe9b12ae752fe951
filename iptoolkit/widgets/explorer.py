"""`Explorer`: filter an estate, see the counts, the table, the diagram, details; export.

    explorer = ipt.Explorer(estate)                 # display it: last line of a cell
    explorer.filter = ipt.Filter(partners=["Acme"]) # or start from a saved filter
    explorer.selection                              # the chosen profiles, an Estate
    saved = explorer.filter.to_json()               # what the analyst chose

Changes made in the front end are debounced: the counts and the table follow a pause in
typing or clicking, the diagram follows them (from a cache when the filter was seen
before). Changes made from code (`explorer.filter = ...`) apply at once, so the next line
sees them. After every change the notebook keeps a static copy (counts, agent types, the
diagram) that shows wherever the live widget cannot: GitHub, nbviewer, a reopened notebook.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import ipywidgets as W

from ..filters import Filter
from .debounce import Debouncer
from .detail import DetailPane
from .diagram import DiagramCache, render_png
from .exporter import ExportPanel, suggested_name, write_selection
from .findings import FindingsPane
from .html import HIDE_FALLBACK_CSS, fallback_html, header_html
from .model import ExplorerModel, Selection
from .panel import FilterPanel
from .table import SelectionTable

if TYPE_CHECKING:
    from IPython.display import DisplayHandle

    from ..estate import Estate

__all__ = ["Explorer"]

TABS = ("Diagram", "Table", "Details", "Findings", "Export")
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
.ipt-explorer .ipt-detail-body ul {margin: 0 0 4px 0; padding-left: 20px;
  max-height: 180px; overflow-y: auto;}
.ipt-explorer .ipt-diagram img {max-width: none;}
.ipt-explorer .ipt-diagram.ipt-fit img {max-width: 100%; height: auto;}
.ipt-explorer .widget-html-content {line-height: 1.45;}
.ipt-explorer .ipt-header .widget-html-content {line-height: 1.3;}
.ipt-explorer .ipt-f-partners {box-sizing: border-box;}
.ipt-explorer .ipt-f-partners .widget-text {width: 100%; margin: 0;}
.ipt-explorer .ipt-f-partners input.jupyter-widget-taginput {width: 100%; margin: 0;
  box-sizing: border-box;}
.ipt-explorer a {color: var(--jp-content-link-color, #1976d2); text-decoration: underline;}
.ipt-explorer .widget-select-multiple select {font-size: 0.92em;}
.ipt-explorer .ipt-facets {font-size: 0.85em; color: var(--jp-ui-font-color2, #616161);
  line-height: 1.35; margin-top: 2px;}
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
</style>"""


class Explorer:
    """An ipywidgets app over an estate: filters, counts, table, diagram, details, export.

    `folder` is where the export buttons write; `debounce` the pause (seconds) after which
    a change made in the front end is applied; `diagram=False` leaves the diagram out
    (for very large selections on slow machines).
    """

    def __init__(
        self,
        estate: Estate,
        filter: Filter | None = None,
        *,
        folder: str | os.PathLike[str] = "iptoolkit-export",
        debounce: float = 0.25,
        diagram: bool = True,
    ) -> None:
        self.model = ExplorerModel(estate)
        self._show_diagram = diagram
        self._diagrams = DiagramCache()
        self._png: bytes | None = None
        self._fallback: DisplayHandle | None = None
        self._changes = Debouncer(self._apply_change, debounce)
        self._drawing = Debouncer(self._draw, 0.05 if debounce > 0 else 0)
        self._selection: Selection = self.model.select(Filter())

        self.panel = FilterPanel(self.model.facets, self._changes.trigger)
        self.header = W.HTML()
        self.image = W.Image(format="png")
        self.fit = W.Checkbox(value=True, description="fit to width", indent=False)
        self.table = SelectionTable(self._picked_row)
        self.detail = DetailPane(self.model, lambda: self._selection, on_open=self.show_detail)
        self.findings = FindingsPane(self.model, lambda: self._selection, self.show_detail)
        self.exporter = ExportPanel(lambda: self.selection, folder=str(folder))
        scroller = W.Box([self.image], layout=W.Layout(overflow="auto", max_height="640px"))
        scroller.add_class("ipt-diagram")
        scroller.add_class("ipt-fit")
        self.fit.observe(
            lambda change: (scroller.add_class if change["new"] else scroller.remove_class)(
                "ipt-fit"
            ),
            "value",
        )
        diagram_box = W.VBox([self.fit, scroller])
        self.tabs = W.Tab(
            [
                diagram_box,
                self.table.widget,
                self.detail.widget,
                self.findings.widget,
                self.exporter.widget,
            ],
            titles=TABS,
            layout=W.Layout(flex="1 1 auto", min_width="0"),
        )
        self.detail.set_visible(False)
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
        """The diagram shown now, as PNG bytes (None before the first drawing)."""
        return self._png

    def refresh(self) -> None:
        """Apply any pending change and draw the diagram now."""
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
            folder if folder is not None else self.exporter.folder.value,
            name or self.exporter.file_name,
        )

    def show_detail(self, node: str) -> None:
        """Open the detail pane on a graph node (`partner:1001`, `channel:17`, ...)."""
        self.detail.show(node)
        self.tabs.selected_index = TABS.index("Details")

    def close(self) -> None:
        """Close every widget (front-end views go away) and stop pending work."""
        self._changes.cancel()
        self._drawing.cancel()
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

    def _apply_change(self) -> None:
        """The panel changed: new selection, counts, table; the diagram follows."""
        self._drawing.cancel()
        selection = self.model.select(self.panel.filter)
        self._selection = selection
        if selection.facets is not None:
            self.panel.show_facets(selection.facets)
        self.exporter.suggest(suggested_name(selection.filter))
        key = selection.filter.to_json()
        cached = self._diagrams.get(key) if self._show_diagram else None
        self.header.value = header_html(
            selection.counts_text(),
            selection.filter.describe(),
            busy=self._show_diagram and cached is None,
        )
        self.table.show(self.model.table(selection))
        self.detail.invalidate()
        self.findings.invalidate()
        if cached is not None:
            self._set_diagram(cached)
        elif self._show_diagram:
            self._drawing.trigger()
        else:
            self._update_fallback()

    def _draw(self) -> None:
        if not self._show_diagram:
            return
        key = self._selection.filter.to_json()
        png = self._diagrams.get(key)
        if png is None:
            png = render_png(self._selection.estate)
            self._diagrams.put(key, png)
        self._set_diagram(png)

    def _set_diagram(self, png: bytes) -> None:
        if self.image.value != png:
            self.image.value = png
        self._png = png
        self.header.value = header_html(
            self._selection.counts_text(), self._selection.filter.describe()
        )
        self._update_fallback()

    def _update_fallback(self) -> None:
        if self._fallback is not None:
            from IPython.display import HTML

            self._fallback.update(HTML(self._fallback_html()))

    def _tab_changed(self) -> None:
        """Details and findings are drawn only while their tab is shown (they cost time)."""
        shown = TABS[self.tabs.selected_index or 0]
        self.detail.set_visible(shown == "Details")
        self.findings.set_visible(shown == "Findings")

    def _picked_row(self, row: int) -> None:
        """A table row was selected: show that profile's details."""
        rows = self._selection.rows
        if 0 <= row < len(rows):
            self.show_detail(self.model.profile_nodes[rows[row]])


def _close_tree(widget: W.Widget) -> None:
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()
