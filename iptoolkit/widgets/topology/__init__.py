"""The interactive topology view (`view`: `TopologyView`, `show_topology`) and the widgets
it is built from: the canvas (`sigma_box`, `canvas_width`, `sigma_guard`, `hover_names`),
the controls around it (`controls`, with its search, `node_search`), the picture on it
(`picture`) and the Explorer's Topology tab (`tab`). What it draws is computed in
`iptoolkit.viewmodel`, without a widget."""

from __future__ import annotations

from .view import TopologyView, show_topology

__all__ = ["TopologyView", "show_topology"]
