"""The diagram formats (`DIAGRAM_FORMATS`, the one list) and saving a diagram in one of them
with fixed metadata, so two runs write the same bytes.

Its own module so that every writer of images (`export`, the diff's diagram, the docs
site) shares it without importing the package's `export` back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["DIAGRAM_FORMATS", "diagram_suffixes", "save_figure"]

DIAGRAM_FORMATS: tuple[str, ...] = ("png", "svg", "pdf")
"""The file formats a diagram is written as (the suffix without its dot), in the order
menus and messages name them: the exporters, `iptoolkit plot`, `iptoolkit diff --plot` and
the Explorer's export tab all read this list."""


def diagram_suffixes(last: str = ", ") -> str:
    """The diagram suffixes for a message: `.png, .svg, .pdf`; `last=" or "` gives
    `.png, .svg or .pdf`."""
    suffixes = [f".{name}" for name in DIAGRAM_FORMATS]
    return last.join([", ".join(suffixes[:-1]), suffixes[-1]])


def save_figure(figure: Any, path: Path, name: str, *, tight: bool = True) -> Path:
    """Save a diagram as `name` (png, svg, pdf) with fixed metadata, then close it.

    `tight=False` keeps the figure's own size, which diagrams of our own are made to
    fit: saving takes half the time (no drawing pass to measure what is inked)."""
    from ..plot.backend import matplotlib_module, pyplot

    metadata: dict[str, Any] = {
        "png": {"Software": None},
        "svg": {"Date": None},
        "pdf": {"CreationDate": None, "ModDate": None},
    }[name]
    try:
        with matplotlib_module().rc_context({"svg.hashsalt": "iptoolkit", "svg.fonttype": "none"}):
            figure.savefig(
                path,
                format=name,
                dpi=110,
                bbox_inches="tight" if tight else None,
                pad_inches=0.15,
                metadata=metadata,
                facecolor="white",
                # zlib level 3: as small as PIL's `optimize` on our diagrams (within 0.1%)
                # at a third of its time (benchmarks/bench_cli.py)
                **({"pil_kwargs": {"compress_level": 3}} if name == "png" else {}),
            )
    finally:
        pyplot().close(figure)
    return path
