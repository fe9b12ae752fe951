"""`SigmaBox`: the box the topology view's `ipysigma.Sigma` is drawn in, and that widget.

Every picture is a new `Sigma` (`new_sigma`): ipysigma draws its graph once, and a view
laid out for the canvas sets what sigma shows of its labels. The box puts the widget in
only once the front end reports the box displayed (its layout applied): sigma measures
its container once, when it is attached, and would draw 0 px wide before that; and only
once the picture is laid out for the width the front end reported (`for_width`), so that
the first frame is already drawn for its canvas.

A view that does not fit its canvas at a readable size is drawn on a bigger one
(`ViewData.size`): the box is then a panel of the view's height that scrolls, the sigma
widget in it as wide and as high as its canvas; a view whose labels take two lines in a
narrow pane (`topology_wrap`) has a panel as tall as its canvas, which the page scrolls.
Its `HoverNames` gives a hovered node whose label is cut its whole name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as W

from ...topology.legend import HIGHLIGHT_COLOUR
from ...viewmodel.topology_data import ViewData
from ...viewmodel.topology_fit import SCROLLBAR_PX
from ...viewmodel.topology_wrap import two_lines
from ..scroll_home import ScrollHome
from .hover_names import HoverNames

if TYPE_CHECKING:
    from ipysigma import Sigma

__all__ = ["SIGMA_ATTRIBUTES", "SigmaBox", "new_sigma"]

SIGMA_ATTRIBUTES: dict[str, Any] = {
    "hide_info_panel": True,
    # the view's own search (`NodeSearch`) names items, never a port, and passes axe
    "hide_search": True,
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
"""How sigma reads the attributes `topology_data.view_data` writes on nodes and edges."""


def new_sigma(data: ViewData, *, name: str, height: int, camera: dict[str, Any]) -> Sigma:
    """The `Sigma` widget drawing `data`, `height` pixels high, starting at `camera`."""
    from ipysigma import Sigma

    graph = data.graph
    fitted = data.camera is not None
    extra: dict[str, Any] = {}
    if any("border_size" in attributes for attributes in graph.nodes.values()):
        extra["raw_node_border_size"] = "border_size"  # findings on the map
    sigma = Sigma(
        graph,
        name=name,
        height=height,
        **SIGMA_ATTRIBUTES,
        # laid out for the canvas (topology_fit): every label has its room
        show_all_labels=data.group_by is not None or fitted,
        # node by node past the canvas: labels where they have room (more zoomed in)
        label_rendered_size_threshold=None if (data.group_by or fitted) else 3,
        label_grid_cell_size=60,
        label_density=1,
        camera_state=camera,
        hide_edges_on_move=graph.number_of_edges() > 5000,
        **extra,
    )
    # drawn in a hidden tab, the container has no width yet: sigma must wait, not fail
    settings = {**sigma.renderer_settings, "allowInvalidContainer": True}
    if data.camera is not None and two_lines(graph.nodes):
        # a label's second line is a node of its own, as far below its first as the zoom
        # makes it: zoomed out past the start (which shows the whole view), they would meet
        settings["maxCameraRatio"] = data.camera["ratio"]
    sigma.renderer_settings = settings
    return sigma


class SigmaBox(W.Box):  # type: ignore[misc]  # ipywidgets has no types: W.Box is Any
    """Holds the `Sigma` shown now (`sigma`), placed once the box is displayed."""

    children: tuple[Any, ...]  # the trait W.Box declares (ipywidgets has no type information)

    def __init__(self, height: int = 620) -> None:
        super().__init__(
            # a canvas wider than the view: its scroll bar below it, within the panel
            layout=W.Layout(
                width="100%", max_height=f"{height + SCROLLBAR_PX + 2}px", overflow="auto"
            )
        )
        self.add_class("ipt-topology-canvas")
        self._height = height
        self._inner = W.Box(layout=W.Layout(width="100%", flex="none"))
        self._hover = HoverNames()
        self._home = ScrollHome(target=".ipt-topology-canvas")
        """Each picture starts at the top left of its panel, whatever the last one's scroll."""
        self.children = (self._hover, self._home, self._inner)
        self.sigma: Sigma | None = None
        self.laid_out = False
        """Whether the picture is laid out for the width the front end reported: until
        then none is placed (a first frame drawn for a default width cut its group nodes
        at the canvas's edge, and stayed for 20-60 s at 100,000 profiles: issue 42)."""
        self._view_count = 0  # counted from now: the front end reports each view shown
        self.observe(self._place, "_view_count")

    @property
    def camera(self) -> dict[str, Any] | None:
        """Where the reader is in the picture shown (None: nothing shown)."""
        return self.sigma.camera_state if self.sigma is not None else None

    def show(self, sigma: Sigma, data: ViewData, width: int | None = None) -> None:
        """Show `sigma` (drawing `data`) in place of the widget shown before, which is
        closed; `width`: the pixels of a canvas wider than the box (None: as wide as it)."""
        self._hover.names = data.hover
        old, self.sigma = self.sigma, sigma
        if old is not None:
            old.close()
        self._inner.layout.width = f"{width}px" if width else "100%"
        tall = data.size[1] if data.size and two_lines(data.graph.nodes) else 0  # no scroll inside
        self.layout.max_height = f"{max(self._height, tall) + SCROLLBAR_PX + 2}px"
        self._place()
        self._home.home()

    def for_width(self) -> None:
        """The picture shown now is laid out for the reported width: place it."""
        self.laid_out = True
        self._place()

    def close(self) -> None:
        """Close the box and the `Sigma` in it, placed or not."""
        sigma = getattr(self, "sigma", None)  # None too when __init__ did not finish
        if sigma is not None:
            sigma.close()
        parts = ("_inner", "_hover", "_home")
        for part in (getattr(self, name, None) for name in parts):
            if part is not None:
                part.close()
        super().close()

    def _place(self, change: dict[str, Any] | None = None) -> None:
        """Put the current sigma widget in the box, once the box is displayed."""
        sigma = self.sigma
        ready = sigma is not None and self._view_count and self.laid_out
        shown: tuple[Sigma, ...] = (sigma,) if ready else ()
        if self._inner.children != shown:
            self._inner.children = shown
