"""Topology, diff and comparison diagrams, summary charts (matplotlib, loaded when drawn).

>>> import iptoolkit as ipt
>>> fig = ipt.plot_topology(ipt.demo_estate(n_profiles=20))  # doctest: +SKIP
>>> fig.savefig("topology.svg")  # doctest: +SKIP
"""

from __future__ import annotations

from ..topology.layout import LayeredLayout, layered_layout
from .compare_diagram import plot_comparison
from .diff_diagram import plot_diff
from .summary import plot_summary
from .topology import MAX_DETAIL_NODES, plot_topology

__all__ = [
    "plot_topology",
    "plot_summary",
    "plot_diff",
    "plot_comparison",
    "layered_layout",
    "LayeredLayout",
    "MAX_DETAIL_NODES",
]
