"""`Controls`: the widgets around the topology view's canvas, and what they show.

Above the canvas: the way back up (an "up" button and the breadcrumb, each step a button),
the depth of a neighbourhood and the status line; below it: the line naming the node
picked, with its buttons (its details, its neighbourhood), and the legend. The controls
show what they are given and report each move to the callbacks they were built with:
they know nothing of the levels or the graph (`topology_levels`), nor of sigma.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

from .html import legend_html
from .topology_data import ViewData
from .topology_html import CRUMB_SEPARATOR, crumb_here_html, said_html, status_html
from .topology_levels import MAX_DEPTH

__all__ = ["Controls"]


class Controls:
    """The back button, breadcrumb, depth, status line (`above`, then `status`), the
    picked node's line and the legend (`below`); a click calls `on_back()`,
    `on_crumb(level)` (0: the overview), `on_depth(depth)`, `on_details()` or
    `on_around()`."""

    def __init__(
        self,
        *,
        on_back: Callable[[], None],
        on_crumb: Callable[[int], None],
        on_depth: Callable[[int], None],
        on_details: Callable[[], None],
        on_around: Callable[[], None],
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
        self.legend = W.HTML()
        self.above = W.HBox(
            [self.back, self.crumbs, self.depth],
            layout=W.Layout(align_items="center", flex_flow="row wrap"),
        )
        self.below = W.VBox(
            [
                W.HBox([self.info, self.details, self.around],
                       layout=W.Layout(align_items="center")),
                self.legend,
            ]
        )  # fmt: skip
        self.below.add_class("ipt-topology-below")

    def show(
        self, data: ViewData, titles: Sequence[str], *, around: bool, wider: bool = False
    ) -> None:
        """A new picture of `data`, the level the breadcrumb `titles` leads to (none: the
        overview), `around` an item's neighbourhood, `wider` than its pane (it scrolls
        sideways); nothing is picked in it yet."""
        self.info.value = ""
        self.details.layout.display = self.around.layout.display = "none"
        self.back.layout.display = None if titles else "none"
        self.depth.layout.display = None if around else "none"
        self._show_crumbs(titles)
        title = titles[-1] if titles else None
        self.status.value = status_html(
            data, expanded=bool(titles), title=title, around=around, wider=wider
        )
        self.legend.value = legend_html(data.legend)

    def picked(self, info: str, *, around: bool) -> None:
        """A node was picked: `info` names it, beside the button that applies (in a
        neighbourhood: its details; elsewhere: its neighbourhood)."""
        self.info.value = info
        (self.details if around else self.around).layout.display = None

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
