"""The ipywidgets Explorer (see `explorer`). ipywidgets loads on first use of `Explorer`,
so importing this package, or `iptoolkit`, stays cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["Explorer"]

if TYPE_CHECKING:
    from .explorer import Explorer


def __getattr__(name: str) -> Any:
    if name == "Explorer":
        from .explorer import Explorer

        return Explorer
    raise AttributeError(f"module 'iptoolkit.widgets' has no attribute {name!r}")
