"""The standalone Explorer app: `iptoolkit explore` serves it with Voila, no code shown.

The app is a notebook shipped inside the package (`NOTEBOOK`, one cell calling `show()`),
so `pip install 'iptoolkit[app]'` has it; `notebooks/app.ipynb` is the same notebook for
Binder (a test holds the two equal). `show` needs no Voila: the kernel only builds the
Explorer. Voila itself (the `app` extra) is needed by the command alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

__all__ = ["NOTEBOOK", "TITLE", "show"]

NOTEBOOK = Path(__file__).with_name("explorer.ipynb")
"""The app's notebook, which Voila runs."""
TITLE = "iptoolkit Explorer"
"""The app's title: the page's, the notebook's metadata, the heading above the Explorer."""

if TYPE_CHECKING:
    from .page import show


def __getattr__(name: str) -> Any:
    if name == "show":
        from .page import show

        return show
    raise AttributeError(f"module 'iptoolkit.app' has no attribute {name!r}")
