"""The ipywidgets Explorer (see `explorer`) and the interactive topology view
(`topology`). ipywidgets loads on first use of a name, so importing this package, or
`iptoolkit`, stays cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["Explorer", "TopologyView", "show_topology"]

if TYPE_CHECKING:
    from .explorer import Explorer
    from .topology import TopologyView, show_topology


def __getattr__(name: str) -> Any:
    if name == "Explorer":
        from .explorer import Explorer

        return Explorer
    if name in ("TopologyView", "show_topology"):
        from . import topology

        return getattr(topology, name)
    raise AttributeError(f"module 'iptoolkit.widgets' has no attribute {name!r}")
