"""The topology explored without a kernel: one self-contained HTML file (`write_html`,
`ipt.export(estate, "topology.html")`) and the docs site's interactive diagrams. Levels
are laid out in Python as the Explorer lays them out and drawn by one small script of our
own (`assets/topology.js`, a 2D canvas), shipped inline or as one asset of the site."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["write_html"]

if TYPE_CHECKING:
    from .page import write_html


def __getattr__(name: str) -> Any:
    if name == "write_html":
        from .page import write_html

        return write_html
    raise AttributeError(f"module 'iptoolkit.offline' has no attribute {name!r}")
