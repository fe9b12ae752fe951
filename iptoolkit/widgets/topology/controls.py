"""`Controls`: the widgets around the topology view's canvas, and what they show.

Above the canvas: the way back up (an "up" button and the breadcrumb, each step a button),
the depth of a neighbourhood, the findings toggle, the search (`NodeSearch`: the
keyboard's way to every node) and the status line; below it: the line naming the node
picked, with its buttons (its details, its neighbourhood), and the legend. The controls
show what they are given and report each move to the callbacks they were built with:
they know nothing of the levels or the graph (`topology_levels`), nor of sigma.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

from ...viewmodel.explorer_html import legend_html
from ...viewmodel.topology_data import ViewData
from ...viewmodel.topology_html import CRUMB_SEPARATOR, crumb_here_html, said_html, status_html
from ...viewmodel.topology_levels import MAX_DEPTH
from ...viewmodel.topology_search import search_items
from .node_search import NodeSearch

__all__ = ["Controls"]


class Controls:
    """The back button, breadcrumb, depth, status line (`above`, then `status`), the
    picked node's line and the legend (`below`); a click calls `on_back()`,
    `on_crumb(level)` (0: the overview), `on_depth(depth)`, `on_details()`,
    `on_around()`, `on_from()` or `on_to()` (paths from the item picked, paths to it); an
    answer picked in the search calls `on_search(key)` (the node's key in the view)."""

    def __init__(
        self,
        *,
        on_back: Callable[[], None],
        on_crumb: Callable[[int], None],
        on_depth: Callable[[int], None],
        on_details: Callable[[], None],
        on_around: Callable[[], None],
        on_from: Callable[[], None] = lambda: None,
        on_to: Callable[[], None] = lambda: None,
        on_findings: Callable[[bool], None] = lambda _: None,
        on_search: Callable[[str], None] = lambda _: None,
    ) -> None:
        self._on_crumb = on_crumb
        self.back = _button(
            "ipt-topology-back",
            on_back,
            description="up",
            icon="arrow-left",
            tooltip="one level up",
        )
        self.crumbs = W.HBox(layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.crumbs.add_class("ipt-topology-crumbs")
        self.depth = W.Dropdown(
            options=[(f"depth {n}", n) for n in range(1, MAX_DEPTH + 1)],
            value=1,
            layout=W.Layout(width="90px", display="none"),
        )
        self.depth.add_class("ipt-topology-depth")
        self.depth.observe(lambda change: on_depth(change["new"]), "value")
        self.findings = W.ToggleButton(
            description="findings",
            icon="exclamation-triangle",
            tooltip="outline each item by the worst severity of the audit's findings on it",
            layout=W.Layout(width="auto", display="none"),
        )
        self.findings.add_class("ipt-topology-findings-toggle")
        self.findings.observe(lambda change: on_findings(bool(change["new"])), "value")
        self.search = NodeSearch(on_search)
        self.status = W.HTML()
        self.status.add_class("ipt-topology-status")
        self.info = W.HTML()
        self.info.add_class("ipt-topology-info")
        self.details = _button(
            "ipt-topology-details", on_details, description="details", icon="info"
        )
        self.around = _button(
            "ipt-topology-around",
            on_around,
            description="neighbourhood",
            icon="dot-circle-o",
            tooltip="show the items within the chosen depth of this one",
        )
        self.from_here = _button(
            "ipt-topology-from",
            on_from,
            description="paths from here",
            icon="share-alt",
            tooltip="pick another item next: the paths between the two are shown",
        )
        self.to_here = _button("ipt-topology-to", on_to, description="paths to here", icon="flag")
        self.legend = W.HTML()
        self.above = W.HBox(
            [self.back, self.crumbs, self.depth, self.findings, self.search],
            layout=W.Layout(align_items="center", flex_flow="row wrap"),
        )
        self.below = W.VBox(
            [
                W.HBox([self.info, self.details, self.around, self.from_here, self.to_here],
                       layout=W.Layout(align_items="center", flex_flow="row wrap")),
                self.legend,
            ]
        )  # fmt: skip
        self.below.add_class("ipt-topology-below")

    def show(
        self,
        data: ViewData,
        titles: Sequence[str],
        *,
        around: bool,
        wider: bool = False,
        findings: bool = False,
    ) -> None:
        """A new picture of `data`, the level the breadcrumb `titles` leads to (none: the
        overview), `around` an item's neighbourhood, `wider` than its pane (it scrolls
        sideways), `findings` offered (the toggle shown); nothing is picked in it yet."""
        self.findings.layout.display = None if findings else "none"
        self.info.value = ""
        for button in (self.details, self.around, self.from_here, self.to_here):
            button.layout.display = "none"
        self.back.layout.display = None if titles else "none"
        self.depth.layout.display = None if around else "none"
        self._show_crumbs(titles)
        title = titles[-1] if titles else None
        self.status.value = status_html(
            data, expanded=bool(titles), title=title, around=around, wider=wider
        )
        self.legend.value = legend_html(data.legend)
        self.search.show(search_items(data))

    def picked(self, info: str, *, around: bool, path_from: str | None = None) -> None:
        """A node was picked: `info` names it, beside the buttons that apply (in a
        neighbourhood: its details; elsewhere: its neighbourhood; paths from it, and to it
        from `path_from`, the item "paths from here" picked before)."""
        self.info.value = info
        (self.details if around else self.around).layout.display = None
        self.from_here.layout.display = None
        self.to_here.layout.display = None if path_from else "none"
        if path_from:
            self.to_here.tooltip = f"the paths from {path_from} to this item"

    def say(self, text: str) -> None:
        """Say `text` on the status line."""
        self.status.value = said_html(text)

    def _show_crumbs(self, titles: Sequence[str]) -> None:
        for child in self.crumbs.children:
            child.close()
        if not titles:
            self.crumbs.children = ()
            return
        crumbs: list[W.Widget] = []
        for index, title in enumerate(["Overview", *titles]):
            if index:
                crumbs.append(W.HTML(CRUMB_SEPARATOR))
            if index == len(titles):
                crumbs.append(W.HTML(crumb_here_html(title)))
            else:
                button = W.Button(description=title, tooltip=f"back to {title}",
                                  layout=W.Layout(width="auto"))  # fmt: skip
                button.add_class("ipt-crumb")
                button.on_click(lambda _, level=index: self._on_crumb(level))
                crumbs.append(button)
        self.crumbs.children = tuple(crumbs)


def _button(css_class: str, on_click: Callable[[], None], **options: Any) -> W.Button:
    """A button hidden until it applies; a click calls `on_click()`."""
    button = W.Button(layout=W.Layout(width="auto", display="none"), **options)
    button.add_class(css_class)
    button.on_click(lambda _: on_click())
    return button
