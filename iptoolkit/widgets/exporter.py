"""The export panel: the selection to a chosen folder, one button per format.

Each written file is listed with its path and, when small enough to inline, a download
link (a `data:` URL with the `download` attribute works in JupyterLab, Notebook, VS Code
and Binder alike, where a link into the server's file tree would depend on the front end).
"""

from __future__ import annotations

import base64
import html
import mimetypes
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import ipywidgets as W

if TYPE_CHECKING:
    from ..estate import Estate

__all__ = ["FORMATS", "ExportPanel", "write_selection", "shown_path"]

FORMATS: dict[str, tuple[str, str]] = {
    "snapshot": ("Snapshot JSON", ".json"),
    "csv": ("CSV", ".csv"),
    "graphml": ("GraphML", ".graphml"),
    "mermaid": ("Mermaid", ".mmd"),
    "svg": ("SVG", ".svg"),
}
"""Format -> (button label, file suffix)."""
DOWNLOAD_LIMIT = 5_000_000
"""Bytes above which no inline download link is offered (the path still is)."""
LOG_ENTRIES = 5
"""How many exports the log shows (and keeps, with their download links)."""


def write_selection(estate: Estate, fmt: str, folder: str | os.PathLike[str], name: str) -> Path:
    """Write `estate` in format `fmt` as `<folder>/<name><suffix>`; the folder is created.

    A name typed with the format's own suffix (`acme.csv` for CSV) keeps it, not doubled.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = FORMATS[fmt][1]
    if name.lower().endswith(suffix) and len(name) > len(suffix):
        name = name[: -len(suffix)]
    path = folder / f"{name}{suffix}"
    from ..exporters import export

    return Path(export(estate, path))


def shown_path(path: Path) -> str:
    """The path relative to the working directory when inside it (shorter, no temp dirs)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class ExportPanel:
    """Folder and name fields, a button per format, and a log of what was written."""

    def __init__(self, current: Callable[[], Estate], *, folder: str = "iptoolkit-export") -> None:
        self._current = current
        self.folder = W.Text(value=folder, description="Folder", layout=W.Layout(width="420px"))
        self.name = W.Text(
            value="selection", description="File name", layout=W.Layout(width="420px")
        )
        self.buttons = {
            fmt: W.Button(description=label, tooltip=f"Write the selection as {label}")
            for fmt, (label, _) in FORMATS.items()
        }
        for fmt, button in self.buttons.items():
            button.on_click(lambda _b, fmt=fmt: self.write(fmt))
        self.log = W.HTML()
        self._entries: list[str] = []
        self.widget = W.VBox(
            [self.folder, self.name, W.HBox(list(self.buttons.values())), self.log],
            layout=W.Layout(width="100%"),
        )
        self.widget.add_class("ipt-export")
        self.written: list[Path] = []

    def write(self, fmt: str) -> Path | None:
        """Write the current selection; errors are shown in the panel, not raised."""
        button = self.buttons[fmt]
        button.disabled = True
        try:
            path = write_selection(
                self._current(), fmt, self.folder.value or ".", self.name.value or "selection"
            )
        except Exception as exc:  # shown to the analyst; the widget must keep working
            said = html.escape(f"{FORMATS[fmt][0]}: {exc}")
            self._add(f"<li class='ipt-error'>{said}</li>")
            return None
        finally:
            button.disabled = False
        self.written.append(path)
        self._add(f"<li>{_link(path)}</li>")
        return path

    def _add(self, item: str) -> None:
        """Newest first, and only the last few: each entry may carry its file inline."""
        self._entries = [item, *self._entries][:LOG_ENTRIES]
        self.log.value = "<ul>" + "".join(self._entries) + "</ul>"


def _link(path: Path) -> str:
    shown = html.escape(shown_path(path))
    size = path.stat().st_size
    if size > DOWNLOAD_LIMIT:
        return f"wrote <code>{shown}</code> ({size:,} bytes)"
    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    data = base64.b64encode(path.read_bytes()).decode()
    return (
        f"wrote <code>{shown}</code> ({size:,} bytes) "
        f"<a download='{html.escape(path.name)}' href='data:{mime};base64,{data}'>download</a>"
    )
