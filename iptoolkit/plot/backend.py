"""The door to matplotlib: it is loaded here, on first use, with a backend that works
everywhere, and no other module of the package imports it at run time (imports under
`if TYPE_CHECKING:` aside; `tests/test_layering.py` checks).

`import iptoolkit` must stay cheap, so nothing imports matplotlib at the top. When nobody
chose a backend (no `MPLBACKEND`, no `matplotlib.use`, not in Jupyter), `pyplot` selects
Agg: diagrams are for files, and a server or CI job has no display. Figures come from
`pyplot`/`new_figure`; what draws nothing on a screen (fonts, colours, artists, date
tickers, `rc_context`) from `matplotlib_module`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["pyplot", "matplotlib_module", "literal_text", "new_figure", "detach"]

P = ParamSpec("P")
R = TypeVar("R")


def pyplot() -> Any:
    """`matplotlib.pyplot`, with Agg selected when no backend was chosen."""
    import matplotlib

    # nobody chose one? (public only from matplotlib 3.10, as get_backend(auto_select=False))
    if matplotlib.rcParams._get_backend_or_none() is None:  # type: ignore[attr-defined]  # private
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def matplotlib_module(name: str = "") -> ModuleType:
    """matplotlib itself, or its module `name` (`"lines"`, `"dates"`, `"font_manager"`):
    for what needs no figure, so no backend is chosen (figures: `pyplot`)."""
    return importlib.import_module(f"matplotlib.{name}" if name else "matplotlib")


def literal_text(draw: Callable[P, R]) -> Callable[P, R]:
    """`draw` makes its texts with math parsing off: matplotlib reads `$...$` in a text as
    a formula, and the estate's names are hostile input (`$\\nosuch{$` stops the drawing,
    `$x^2$` draws as a formula). A text keeps the setting it was made with, so the figure
    draws the same when it is saved later; the user's own settings are left as they were."""

    @functools.wraps(draw)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> R:
        with matplotlib_module().rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return drawn


def new_figure(width: float, height: float, *, dpi: float = 100) -> Figure:
    """A figure of the given size in inches, made by pyplot so that it has a canvas."""
    figure: Figure = pyplot().figure(figsize=(width, height), dpi=dpi)
    return figure


def detach(figure: Figure) -> Figure:
    """Hand a figure back without pyplot keeping it open.

    Jupyter then shows it once (as the returned value, not again at the end of the cell),
    and loops that draw thousands of diagrams do not leak them. `savefig` still works.
    """
    pyplot().close(figure)
    return figure
