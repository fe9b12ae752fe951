"""The standalone Explorer app: `iptoolkit explore` serves it with Voila, no code shown.

The app is a notebook shipped inside the package (`NOTEBOOK`, one cell calling `show()`),
so `pip install -e '.[app]'` has it; `notebooks/app.ipynb` is the same notebook for
Binder (a test holds the two equal). `show` needs no Voila: the kernel only builds the
Explorer. Voila itself (the `app` extra) is needed by the command alone.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = ["NOTEBOOK", "TITLE", "show"]

_EXPORTS = {"NOTEBOOK": "runner", "TITLE": "page", "show": "page"}
"""Public name -> the module of this package defining it (loaded on first use)."""

if TYPE_CHECKING:
    from .page import TITLE, show
    from .runner import NOTEBOOK


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'iptoolkit.app' has no attribute {name!r}")
