"""`TopologyTab`: the Explorer's Topology tab, the selection's interactive topology.

The tab holds a `TopologyView` and draws the selection into it only while the tab is
shown (a view drawn in a hidden tab measures 0 px; see `shown.ShownTab`). The overview of
each filter seen is cached (`DiagramCache`), without its graph: a selection's graph is
built again only when a click needs it, and the whole estate's is the one the model
already holds. A click on an item opens its details (an agent's: its profile's).

Given an older estate (`since`), the tab shows what changed from it to the selection, the
same filter applied to both (`ipt.diff`, drawn as `show_topology(diff)` draws it), each
filter's diff made when it is drawn. A timeline's moment (`show_moment`: an archive's
snapshot and its changes since an earlier one) is drawn the same way, the filter applied
to both of its sides, keeping the drill level and the item picked from moment to moment.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING

import ipywidgets as W
import networkx as nx

from ...query.filters import subset
from ...support.names import plural
from ...support.progress import reported_to
from ...support.shown_tab import ShownTab
from ...viewmodel.diagram import DiagramCache
from ...viewmodel.explorer_model import ExplorerModel, Selection
from ...viewmodel.topology_data import ViewData, detail_node
from .view import TopologyView

if TYPE_CHECKING:
    from ...auditing.finding import Finding
    from ...change.estate_diff import EstateDiff
    from ...core.estate import Estate
    from ...viewmodel.change_marks import MarkedMap

    Moment = tuple[Estate, EstateDiff | None, Callable[[], MarkedMap | None] | None]
    """A timeline's moment: its estate, its changes, what makes (or finds made) its map."""
    from ...query.paths import Paths

__all__ = ["TopologyTab"]


class TopologyTab:
    """The selection's `TopologyView` (`view`), drawn while its tab is shown (`widget`
    is what the tab holds: the view, or a note with `enabled=False`); a click on an item
    calls `on_item(node)` with the node whose details it opens."""

    def __init__(
        self,
        model: ExplorerModel,
        selection: Callable[[], Selection],
        on_item: Callable[[str], None],
        *,
        enabled: bool = True,
        since: Estate | str | os.PathLike[str] | None = None,
    ) -> None:
        from ...core.estate import as_estate

        self._model = model
        self._since = as_estate(since, "Explorer: since") if since is not None else None
        self._moment: Moment | None = None
        """The timeline's moment shown (`show_moment`), else None."""
        self._selection = selection
        self._on_item = on_item
        self._enabled = enabled
        self._views: DiagramCache[ViewData] = DiagramCache()
        self.view = TopologyView(on_select=self._picked, height=600, aspect=2.0)
        self.findings: Callable[[], Iterable[Finding]] | None = None
        """Where the findings on the map come from (the Explorer: its Findings tab's)."""
        self.widget: W.Widget = self.view if enabled else W.HTML("(diagram=False: no topology)")
        self.tab = ShownTab(self._draw, stale=False)

    def invalidate(self) -> None:
        """The selection changed: drawn now if the tab is shown, else when it is next."""
        if self._enabled:
            self.tab.invalidate()

    def set_visible(self, visible: bool) -> None:
        """The tab was opened (True) or left: opened, it draws what changed meanwhile, and
        draws afresh a picture in which a node was picked, so that it can be clicked again."""
        if visible and not self.tab.stale and self.view.selected is not None:
            self.view.redraw()
        self.tab.set_visible(visible)

    def focus_on(self, node: str, depth: int | None = None) -> None:
        """Show a node's neighbourhood (`TopologyView.focus`), or say that the selection
        does not hold it."""
        self._draw_if_stale()
        try:
            self.view.focus(node, depth)
        except (ValueError, nx.NodeNotFound):  # not in this selection's graph
            self.view.say(f"{node} is not in this selection: widen the filter to see it")

    def show_paths(self, a: str, b: str) -> Paths | None:
        """Show the paths between two items (`PathFinder.show`), or say that the selection
        does not hold one of them (None)."""
        self._draw_if_stale()
        try:
            return self.view.paths.show(a, b)
        except (ValueError, nx.NodeNotFound):  # not in this selection's graph
            self.view.say(f"{a} or {b} is not in this selection: widen the filter to see it")
            return None

    def drill_to(self, path: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        """Open the groups of `path` from the overview (`TopologyView.open_path`)."""
        self._draw_if_stale()
        return self.view.open_path(path)

    def show_moment(
        self,
        estate: Estate,
        changes: EstateDiff | None,
        marked: Callable[[], MarkedMap | None] | None = None,
    ) -> None:
        """Show a timeline's moment: `estate` as it was then, marked with what changed
        since an earlier snapshot (`changes`; None: drawn plain, nothing before it), the
        whole map from `marked()` when nothing is filtered (`ArchiveTimeline.marked_map`:
        made ahead); the drill level and the item picked stay as they are where the new
        map has them."""
        self._moment = (estate, changes, marked)
        self.invalidate()

    def _draw_if_stale(self) -> None:
        if self.tab.stale:
            self.tab.draw()

    def _draw(self) -> None:
        """The selection in the view, its data from the cache when seen before; its graph
        and grouped views are the model's (`ExplorerModel.views`), which the static copy
        draws too: the whole estate's graph is the one Details already holds (44 MB at
        10k), one copy per session, not two."""
        model, selection = self._model, self._selection()
        if self._since is not None or self._moment is not None:
            self._draw_changes(selection)
            return
        key = f"{selection.filter.to_json()}@{self.view.canvas.width:.0f}"  # laid out for it
        self.view.findings.use(self.findings)
        data = self._views.get(key)
        if data is not None:  # a selection's graph is not kept: built again if a click needs it
            self.view.show(
                data, lambda: model.views(selection).graph, views=lambda: model.views(selection)
            )
            return
        # the cell building the Explorer has its bar (`reported_to`); later, the view's
        progress = reported_to() or self.view.progress
        try:
            progress.stage(f"Building the graph of {plural(selection.profiles, 'profile')}")
            views = model.views(selection)
            progress.stage("Laying out the map")
            data = self.view.overview_data(views.graph, views=views)
            self._views.put(key, data)
            progress.stage("Drawing the map")
            self.view.show(data, views.graph, views=views)
        finally:
            if progress is self.view.progress:
                self.view.progress.done()

    def _draw_changes(self, selection: Selection) -> None:
        """What changed to the selection, the filter on both sides: from the older estate
        (`since`), or the timeline's moment (`show_moment`), whose stored changes serve
        as they are while nothing is filtered."""
        from ...change.diff import diff
        from ...viewmodel.change_marks import diff_map

        chosen = selection.filter
        progress = reported_to() or self.view.progress
        try:
            compared = plural(selection.profiles, "profile")
            progress.stage(f"Comparing {compared} with the older estate")
            shown: Estate | EstateDiff | MarkedMap
            if self._moment is None:
                assert self._since is not None
                shown = diff(subset(self._since, chosen), selection.estate)
            elif (stored := self._moment[1]) is None:
                shown = subset(self._moment[0], chosen)
            elif chosen.is_empty():
                made = self._moment[2]() if self._moment[2] is not None else None
                shown = made if made is not None else diff_map(stored)
            else:
                shown = diff(subset(stored.old, chosen), subset(stored.new, chosen))
            progress.stage("Laying out the map")
            self.view.update(shown, keep=self._moment is not None)
        finally:
            if progress is self.view.progress:
                self.view.progress.done()

    def _picked(self, node: Hashable) -> None:
        """An item of the view was clicked: its details (an agent's: its profile's). An
        item the older estate alone holds has none in the Explorer (its estate is the
        newer): what changed of it is listed under the map."""
        graph = self.view.graph
        item = str(detail_node(graph, node) if graph is not None else node)
        changes = self._since is not None or self._moment is not None
        if changes and item not in self._model.graph:
            return
        self._on_item(item)
