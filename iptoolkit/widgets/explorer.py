"""`Explorer`: filter an estate, see the counts, the topology, the table, details; export.

    explorer = ipt.Explorer(estate)                 # display it: last line of a cell
    explorer.filter = ipt.Filter(partners=["Acme"]) # or start from a saved filter
    explorer.selection                              # the chosen profiles, an Estate
    explorer = ipt.Explorer(estate, since=last_week) # what changed since, on the map
    explorer = ipt.Explorer(archive="estate.duckdb") # a timeline over an archive's snapshots
    saved = explorer.filter.to_json()               # what the analyst chose

A click or a pick in the panel applies at once; typed text after a pause in typing
(debounced). The counts, the table and the interactive topology view
(`topology.TopologyView`, grouped when large, its data cached per filter) follow; clicking
a node shows its details beside the map, or below it in a narrow pane (`map_details`),
never in its place. The static PNG
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

from ..core.estate import require_estate
from ..query.filters import Filter
from ..support.debounce import Debouncer
from ..support.long_lived import keep_out_of_gc
from ..support.names import plural
from ..support.progress import Progress
from ..support.shown_tab import ShownTab
from ..viewmodel.explorer_html import dead_end_html, header_html
from ..viewmodel.explorer_model import TABS, ExplorerModel, Selection
from ..viewmodel.saved_views import SavedView, SavedViews
from .css import explorer_style
from .detail import DetailPane
from .exporter import ExportPanel, suggested_name, write_selection
from .filter_fold import FOLD_CSS, FilterFold
from .findings import FindingsPane
from .key_guard import KeyGuard
from .map_details import MapDetails
from .panel import FilterPanel
from .progress_bar import cell_progress
from .scroll_home import ScrollHome
from .static_copy import StaticCopy
from .table import SelectionTable
from .timeline import TimelineBar
from .topology.tab import TopologyTab

if TYPE_CHECKING:
    from ..archive.lookup import At
    from ..archive.store import Archive
    from ..core.estate import Estate
    from ..query.paths import Paths
    from ..viewmodel.timeline import ArchiveTimeline

__all__ = ["Explorer"]

PNG_DELAY = 1.0
"""Seconds of quiet before the static PNG is drawn: it is only the notebook's fallback."""


def _model_for(estate: Estate, model: ExplorerModel | None) -> ExplorerModel:
    """`model` when it was built over this `estate` (the app's, held by its zygote: read
    and indexed once for every kernel), else a new one."""
    return model if model is not None and model.estate is estate else ExplorerModel(estate)


def _timeline_and_estate(
    estate: Estate | None, archive: Archive | str | os.PathLike[str] | None
) -> tuple[ArchiveTimeline | None, Estate, int | None]:
    """The archive's timeline (None without one), the estate the Explorer reads (the one
    given, else the archive's newest snapshot) and that snapshot's id when read here."""
    if estate is not None:
        require_estate(estate, "Explorer")
    if archive is None:
        if estate is None:
            raise TypeError("Explorer: an estate, or archive= (an ipt.Archive or its file)")
        return None, estate, None
    from ..viewmodel.timeline import ArchiveTimeline

    timeline = ArchiveTimeline(archive)
    if estate is not None:
        return timeline, estate, None
    newest = timeline.moments[-1].snapshot_id
    return timeline, timeline.archive.estate(newest), newest


def _opened(
    estate: Estate | None,
    model: ExplorerModel | None,
    archive: Archive | str | os.PathLike[str] | None,
    shown: Progress,
) -> tuple[ArchiveTimeline | None, ExplorerModel]:
    """The archive's timeline (None without one) and the Explorer's model of the estate
    it reads; the timeline holds that estate and the model's graph, when its snapshot is
    the archive's (the newest), rather than reading and building them again."""
    timeline, estate, newest = _timeline_and_estate(estate, archive)
    shown.stage(f"Indexing {plural(len(estate), 'profile')}")
    opened = _model_for(estate, model)
    if timeline is not None:
        timeline.hold(estate, lambda: opened.graph, newest)
    return timeline, opened


def _timeline_bar(
    timeline: ArchiveTimeline | None,
    tab: TopologyTab,
    detail: DetailPane,
    at: At,
    since: object,
) -> TimelineBar | None:
    """The timeline's bar over `tab`'s map at the snapshot `at` (its changes since the
    snapshot `since` names, else the one before), Details ending with an item's history."""
    if timeline is None:
        return None
    from ..viewmodel.explorer_html import fields_html

    def history(node: str) -> str:
        section = timeline.history(node)
        return "" if section is None else fields_html(section.fields or {}, title=section.title)

    detail.extra = history
    index = timeline.index_of(at)
    older = timeline.index_of(since) if isinstance(since, str | int) else None
    return TimelineBar(timeline, tab.show_moment, index=index, since=older)


def _with_bar(bar: TimelineBar | None, view: W.Widget) -> W.Widget:
    """The map, under the timeline's bar when there is one."""
    return view if bar is None else W.VBox([bar.widget, view], layout=W.Layout(width="100%"))


class Explorer:
    """An ipywidgets app over an estate: filters, counts, topology, table, details, export.

    `folder` is where the export buttons write; `debounce` the pause (seconds) after which
    a change made in the front end is applied; `diagram=False` leaves the topology view
    and the static diagram out (for very large selections on slow machines);
    `static_copy=False` draws no static diagram for the copy a notebook keeps for GitHub
    (the app, whose page is always live: at 10,000 profiles that drawing holds the kernel
    for about a second after each change). `fixed_folder=True` writes into `folder`
    whatever the folder field says, `masked_exports=True` masks credentials in the `.json`
    snapshot too (the app, which anyone reaching its page could drive). `progress`: as
    `ipt.load`'s, a bar in the cell while the Explorer is built (indexing, the graph, the
    map's layout), gone once it is (`progress_bar.cell_progress`); later work for the page
    (a new width, another selection) shows in the view itself (`WidgetProgress`).
    `model`: an `ExplorerModel` built already over `estate` (the app's, held by the
    process its kernels are forked from: `app.held`), used instead of a new one.
    `since`: an older estate (or its snapshot's path): the map then shows what changed
    from it to the selection (the same filter on both), as `show_topology(diff)` does.
    `archive`: an `ipt.Archive` (or its file): a timeline above the map (`TimelineBar`,
    `explorer.timeline`) shows its snapshot `at` (default: the newest; `since`: the
    earlier one its changes are counted from, default the one before), and an item's
    Details end with its history; `estate` defaults to the archive's newest snapshot,
    which the filters, the table and Details read.

    The Explorer wires its panes and keeps them in step with the filter; each job is a
    collaborator's: `FilterPanel` (the filters), `SelectionTable`, `TopologyTab` (the
    interactive view, cached per filter), `DetailPane`, `FindingsPane`, `ExportPanel` and
    `StaticCopy` (what the notebook keeps for where the widget cannot render).
    """

    def __init__(
        self,
        estate: Estate | None = None,
        filter: Filter | None = None,
        *,
        folder: str | os.PathLike[str] = "iptoolkit-export",
        debounce: float = 0.25,
        diagram: bool = True,
        static_copy: bool = True,
        fixed_folder: bool = False,
        masked_exports: bool = False,
        views: str | os.PathLike[str] | None = None,
        progress: Progress | bool | None = None,
        model: ExplorerModel | None = None,
        since: Estate | str | os.PathLike[str] | None = None,
        archive: Archive | str | os.PathLike[str] | None = None,
        at: At = None,
    ) -> None:
        with cell_progress(progress) as shown:
            timeline, self.model = _opened(estate, model, archive, shown)
            estate = self.model.estate
            self.views = SavedViews(views) if views is not None else None
            """The named views' file (`viewmodel.saved_views`; None: none given, `save_view`
            refuses)."""
            self._selection: Selection = self.model.select(Filter())
            self._watchers: list[Callable[[], None]] = []
            self._changes = Debouncer(self._apply_change, debounce)
            self._static_copy = StaticCopy(
                lambda: self._selection,
                diagram=diagram and static_copy,
                delay=PNG_DELAY if debounce > 0 else 0,
                views=self.model.views,  # the live topology's graph and grouped view: once
            )
            self.panel = FilterPanel(self.model.facets, self._panel_changed)
            self.header = W.HTML()
            self.message = W.HTML()
            """What the filter got wrong (`html.dead_end_html`): a value that matches no
            profile, said at the top with what was perhaps meant; empty otherwise."""
            self.message.add_class("ipt-message")
            self._topology_tab = TopologyTab(
                self.model,
                lambda: self._selection,
                lambda node: self.beside.show(node),
                enabled=diagram,
                since=since if timeline is None else None,
            )
            self.topology = self._topology_tab.view
            self.topology.on_trail(self._changed)
            self.table = SelectionTable(self._picked_row)
            self.detail = DetailPane(
                self.model,
                lambda: self._selection,
                on_open=lambda node: self.beside.open_link(node),
                on_focus=self.focus_on,
                on_paths=self.show_paths,
            )
            self.detail.on_item(lambda _: self._changed())
            self.findings = FindingsPane(self.model, lambda: self._selection, self.show_detail)
            self._topology_tab.findings = lambda: self.findings.findings  # the map says as the tab
            self.timeline = _timeline_bar(timeline, self._topology_tab, self.detail, at, since)
            """The timeline over `archive` (a `TimelineBar`), else None."""
            self.beside = MapDetails(
                _with_bar(self.timeline, self._topology_tab.widget),
                self.detail,
                in_tab=self.show_detail,
                front=lambda: setattr(self.tabs, "selected_index", TABS.index("Topology")),
                shown=lambda: _shown(self.tabs) == "Topology",
            )
            """The Topology tab: the map, and the item picked there beside it (or below it)."""
            self.exporter = ExportPanel(
                lambda: self.selection,
                folder=str(folder),
                fixed=fixed_folder,
                masked=masked_exports,
            )
            panes = (self.beside, self.table, self.detail, self.findings, self.exporter)
            self.tabs = _tabs(*(pane.widget for pane in panes))
            self._shown_tabs: dict[str, ShownTab | TopologyTab] = {
                "Topology": self._topology_tab,
                "Table": self.table.tab,
                "Findings": self.findings.tab,
            }
            self._tab_changed()
            self.tabs.observe(lambda _: self._tab_changed(), "selected_index")
            self.fold = FilterFold()
            """The filter panel's fold: open by default only where the page is wide enough."""
            self._home = ScrollHome()
            """A tab shown starts at the left edge, whatever the tab before was scrolled to."""
            self.tabs.observe(lambda _: self._home.home(), "selected_index")
            self.widget = _page(
                self.fold, self.header, self.message, self.panel.widget, self.tabs, self._home
            )
            self.panel.set(filter or Filter())  # calls back through the debouncer...
            self._changes.flush()  # ...so apply now: the constructor returns a ready explorer
            if static_copy and diagram:
                shown.stage("Drawing the notebook's static copy")
            self.refresh()
            keep_out_of_gc(len(estate))  # the estate, its graph and views: never swept again

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
        return self._static_copy.png

    def refresh(self) -> None:
        """Apply any pending change and draw the static diagram now."""
        self._changes.flush()
        self._static_copy.draw()

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
        self._topology_tab.focus_on(node, depth)

    def show_paths(self, a: str, b: str) -> Paths | None:
        """Show in the Topology tab how item `a` reaches item `b` (`ipt.paths` over the
        selection: every path, shortest first, bounded), the rest faded; the paths, or
        None when the selection does not hold both (the tab says so)."""
        self.tabs.selected_index = TABS.index("Topology")
        return self._topology_tab.show_paths(a, b)

    def save_view(self, name: str) -> str:
        """Save the filter, the topology's drill level and the item shown under `name` in
        the views file (`Explorer(views=...)`, the app's: beside the snapshot); the name
        as kept. `open_view(name)` (the app: `?view=NAME`) shows it again."""
        if self.views is None:
            raise ValueError("no file for views: Explorer(estate, views='snapshot.views.json')")
        return self.views.save(name, SavedView(self.filter, self.drill, self.item))

    def open_view(self, name: str) -> tuple[str, ...]:
        """Show the view saved as `name`: its filter, drill level and item; the drill
        titles that name no group of the view reached (`drill_to`)."""
        saved = self.views.get(name) if self.views is not None else None
        if saved is None:
            known = ", ".join(map(repr, self.views.names())) if self.views else "none"
            raise ValueError(f"no view named {name!r} (saved: {known})")
        self.filter = saved.filter
        missing = self.drill_to(saved.drill) if saved.drill else ()
        if saved.item:
            self.show_detail(saved.item)
        return missing

    def drill_to(self, path: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        """Open the topology's groups of `path` (a `drill` value) from its overview; the
        titles that name no group on the way (`TopologyView.open_path`)."""
        return self._topology_tab.drill_to(path)

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
        self._static_copy.cancel()
        if self.timeline is not None:
            self.timeline.timeline.close()
        self.topology.close()
        _close_tree(self.widget)

    # -- display --------------------------------------------------------------------------

    def _ipython_display_(self) -> None:
        from IPython.display import display

        bundle = self.widget._repr_mimebundle_()
        # shown where the widget cannot be; the counts would go stale, the static copy won't
        bundle["text/plain"] = "iptoolkit Explorer (a live widget: it needs a running kernel)"
        display(bundle, raw=True)
        self._static_copy.display()

    def __repr__(self) -> str:
        return f"<Explorer: {self._selection.counts_text()}; filter: {self._selection.filter}>"

    # -- changes --------------------------------------------------------------------------

    def _panel_changed(self) -> None:
        """Typing waits for a pause (a change per key would queue work); a click or a pick
        applies at once, so its counts show without the pause."""
        self._changes.trigger()
        if not self.panel.typing:
            self._changes.flush()

    def _apply_change(self) -> None:
        """The panel changed: new selection, counts, table, topology; the PNG follows."""
        self._static_copy.cancel()
        selection = self.model.select(self.panel.filter)
        self._selection = selection
        if selection.facets is not None:
            self.panel.show_facets(selection.facets)
        self.exporter.suggest(suggested_name(selection.filter))
        self.header.value = header_html(selection.counts_text(), selection.filter.describe())
        self.message.value = dead_end_html(
            self.model.dead_ends(selection), selected=selection.profiles, total=selection.total
        )
        self.table.show(lambda: self.model.table(selection))  # made once its tab is shown
        self.detail.invalidate()
        self.findings.tab.invalidate()
        self._changed()
        self._topology_tab.invalidate()
        if self.timeline is not None:
            self.timeline.narrowed(not selection.filter.is_empty())
        self._static_copy.follow()

    def _tab_changed(self) -> None:
        """Details, findings and the topology are drawn only while their tab is shown: they
        cost time, and a view drawn in a hidden tab measures 0 px."""
        shown = _shown(self.tabs)
        for name, tab in self._shown_tabs.items():
            tab.set_visible(name == shown)
        # the details are drawn beside the map too, once an item is shown there
        beside = shown == "Topology" and self.detail.node is not None
        self.detail.tab.set_visible(shown == "Details" or beside)

    def _picked_row(self, row: int) -> None:
        """A table row was selected: show that profile's details."""
        rows = self._selection.rows
        if 0 <= row < len(rows):
            self.show_detail(self.model.profile_nodes[rows[row]])


MIN_TABS_PX = 520
"""The tabs' narrowest width beside the filter panel: less, and they go below it, where the
topology has the whole width. The overview fits a pane of 528 px with its labels on two
lines (`topology_wrap`), so filters shown on a laptop keep the map beside them (at 720 px
it went below them, a screen down, in JupyterLab at 1,280 px and the app at 1,000 px)."""


def _tabs(*panes: W.Widget) -> W.Tab:
    """The panes in their tabs (`TABS`, in order). Narrower than `MIN_TABS_PX` beside the
    filter panel, the tabs go below it (`_page`); never wider than the page, their 2 px
    margins included (no sideways scroll)."""
    layout = W.Layout(
        flex=f"1 1 {MIN_TABS_PX}px", min_width=f"min({MIN_TABS_PX}px, calc(100% - 4px))"
    )
    return W.Tab(list(panes), titles=TABS, layout=layout)


def _page(
    fold: FilterFold,
    header: W.Widget,
    message: W.Widget,
    panel: W.Widget,
    tabs: W.Tab,
    home: W.Widget,
) -> W.VBox:
    """The Explorer's page: its styles, the header (after the button that folds the
    filters) and its message, the filter panel beside the tabs, or folded away where the
    page is too narrow for both (`filter_fold`): the topology then has the page's width."""
    page = W.VBox(
        [
            explorer_style(),
            W.HTML(f"<style>{FOLD_CSS}</style>"),
            fold.width,
            home,
            KeyGuard(),  # a letter typed on a filter list is not a notebook command
            W.HBox([fold.button, header], layout=W.Layout(align_items="flex-start")),
            message,
            W.HBox([panel, tabs], layout=W.Layout(width="100%", flex_flow="row wrap")),
        ],
        layout=W.Layout(width="100%"),
    )
    page.add_class("ipt-explorer")
    fold.attach(page)
    return page


def _shown(tabs: W.Tab) -> str:
    """The title of the tab in front."""
    return TABS[tabs.selected_index or 0]


def _close_tree(widget: W.Widget) -> None:
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()
