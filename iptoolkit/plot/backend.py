"""matplotlib, loaded on first use, with a backend that works everywhere.

`import iptoolkit` must stay cheap, so no module of the package imports matplotlib at the
top. When nobody chose a backend (no `MPLBACKEND`, no `matplotlib.use`, not in Jupyter),
Agg is selected: diagrams are for files, and a server or CI job has no display.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["pyplot", "new_figure", "detach"]


def pyplot() -> Any:
    """`matplotlib.pyplot`, with Agg selected when no backend was chosen."""
    import matplotlib

    # nobody chose one? (public only from matplotlib 3.10, as get_backend(auto_select=False))
    if matplotlib.rcParams._get_backend_or_none() is None:  # type: ignore[attr-defined]  # private
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def new_figure(width: float, height: float, *, dpi: float = 100) -> Figure:
    """A figure of the given size in inches, made by pyplot so that it has a canvas."""
    return pyplot().figure(figsize=(width, height), dpi=dpi)


def detach(figure: Figure) -> Figure:
    """Hand a figure back without pyplot keeping it open.

    Jupyter then shows it once (as the returned value, not again at the end of the cell),
    and loops that draw thousands of diagrams do not leak them. `savefig` still works.
    """
    pyplot().close(figure)
    return figure
