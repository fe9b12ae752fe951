"""The Topology tab's map with the picked item's details beside it, or below it.

A click on the map used to bring the Details tab to the front: the map went away, and
with it what the reader was looking at (issue 42). The details now open beside the map
where the tab is at least `BESIDE_FROM_PX` wide, and below it where it is narrower, never
in its place. A CSS container query decides, in the browser, so the first paint is right
and a resized pane follows. Beside the map the column is always there (a line says what
a click shows), so that a click never narrows the map and lays it out again; below it,
the part appears with the first item picked.

The details shown are the Details tab's own widget (`DetailPane.content`, the same model
drawn twice): what the tab would show, no second impact query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as W

from ..viewmodel.explorer_html import DETAILS_BESIDE_FROM_PX

if TYPE_CHECKING:
    from .detail import DetailPane

__all__ = ["BESIDE_FROM_PX", "BESIDE_PX", "MAP_DETAILS_CSS", "MapDetails"]

BESIDE_FROM_PX = DETAILS_BESIDE_FROM_PX
BESIDE_PX = 360
"""The details' column beside the map."""

MAP_DETAILS_CSS = f"""
.ipt-map-details {{container: ipt-map / inline-size; width: 100%; min-width: 0;}}
.ipt-explorer .ipt-map-row {{display: flex; flex-direction: column; width: 100%;}}
.ipt-explorer .ipt-map-row > .ipt-topology {{flex: 1 1 auto; min-width: 0;}}
.ipt-explorer .ipt-beside {{flex: none; margin: 10px 0 0 0; padding: 8px 0 0 0;
  border-top: 1px solid var(--jp-border-color2, #e0e0e0); min-width: 0;}}
.ipt-explorer .ipt-beside.ipt-beside-empty {{display: none;}}
.ipt-explorer .ipt-beside-head {{display: flex; align-items: baseline; gap: 8px;
  flex-wrap: wrap;}}
.ipt-explorer .ipt-beside-head .widget-html {{margin: 0;}}
.ipt-explorer .ipt-beside-title {{font-weight: 600; font-size: 1.05em;}}
@container ipt-map (min-width: {BESIDE_FROM_PX}px) {{
  .ipt-explorer .ipt-map-row {{flex-direction: row; align-items: flex-start;}}
  .ipt-explorer .ipt-beside, .ipt-explorer .ipt-beside.ipt-beside-empty {{display: flex;
    width: {BESIDE_PX}px; max-height: 760px; overflow-y: auto; margin: 0 0 0 12px;
    padding: 0 0 0 12px; border-top: none;
    border-left: 1px solid var(--jp-border-color2, #e0e0e0);}}
}}
"""
"""Below the map by default; beside it in a tab at least `BESIDE_FROM_PX` wide."""

_HINT = (
    "<span class='ipt-none'>Click an item of the map, or pick one in its search: its "
    "details show here, beside the map.</span>"
)


class MapDetails:
    """The map (`view`) and the details' part (`side`: a title, a button that opens the
    item in the Details tab, `in_tab(node)`, and the `detail` pane's content), in one
    widget (`widget`). `show(node)` opens an item there; the part follows the pane's item
    whoever opened it. `front()` brings the Topology tab to the front, `shown()` says
    whether it is."""

    def __init__(
        self,
        view: W.Widget,
        detail: DetailPane,
        *,
        in_tab: Callable[[str], None],
        front: Callable[[], None],
        shown: Callable[[], bool],
    ) -> None:
        self._detail = detail
        self._in_tab = in_tab
        self._front = front
        self._shown = shown
        self.title = W.HTML("<span class='ipt-beside-title'>Details</span>")
        self.more = W.Button(
            description="Details tab",
            icon="external-link",
            tooltip="this item in the Details tab: back, search, where used, paths",
            layout=W.Layout(width="auto"),
        )
        self.more.add_class("ipt-beside-more")
        self.more.on_click(lambda _: self._in_tab(self.item) if self.item else None)
        self.hint = W.HTML(_HINT)
        head = W.HBox([self.title, self.more])
        head.add_class("ipt-beside-head")
        # the content's own layout is the Details tab's too: hidden here through its holder
        self._holder = W.Box([detail.content], layout=W.Layout(width="100%"))
        self.side = W.VBox([head, self.hint, self._holder])
        self.side.add_class("ipt-beside")
        row = W.Box([view, self.side])
        row.add_class("ipt-map-row")
        self.widget = W.Box([W.HTML(f"<style>{MAP_DETAILS_CSS}</style>"), row])
        self.widget.add_class("ipt-map-details")
        self.item: str | None = None
        """The item whose details show here (the pane's; None: none)."""
        self._follow(None)
        detail.on_item(self._follow)

    def show(self, node: str) -> None:
        """Show a graph node's details beside the map (below it in a narrow tab), the
        Topology tab in front: what a click on the map does."""
        self._detail.show(node)  # the part here follows the pane (`_follow`)
        if not self._shown():
            self._front()
        self._detail.tab.set_visible(True)

    def open_link(self, node: str) -> None:
        """A name linked in the details was clicked: here while the map is shown, else
        in the Details tab."""
        if self._shown():
            self.show(node)
        else:
            self._in_tab(node)

    def _follow(self, node: str | None) -> None:
        """The pane shows `node` now: beside the map, its details; no item, the hint (and
        below the map, nothing)."""
        self.item = node
        if node is None:
            self.side.add_class("ipt-beside-empty")
        else:
            self.side.remove_class("ipt-beside-empty")
        for part, shown in ((self.hint, node is None), (self.more, node is not None)):
            part.layout.display = None if shown else "none"
        self._holder.layout.display = None if node is not None else "none"
