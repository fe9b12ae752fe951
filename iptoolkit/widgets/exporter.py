"""The export panel: the selection to a chosen folder, in every format `ipt.export` writes.

The formats are the exporters' own table (`exporters.FAMILIES`: one button per format, a
row per family), so a format added there shows here. The file name follows the filter
(`suggested_name`: `partner-acme-ltd-kafka`) until the analyst types one of their own.
Each written file is listed with its path; the newest, when small enough to inline, with a
download link (a `data:` URL with the `download` attribute works in JupyterLab, Notebook,
VS Code and Binder alike, where a link into the server's file tree would depend on the
front end). Older entries drop their link: the log is sent again with every export, and
five inlined files would make each send megabytes.

In the app (`iptoolkit explore`) the page may be driven by anyone who reaches it, so the
panel can be `fixed` to its folder (the field is shown, not used: no path sent from the
page leaves the folder) and `masked` (the `.json` snapshot masks credentials field by field
as every other export does; `iptoolkit explore --unmasked-downloads` turns it off).
"""

from __future__ import annotations

import base64
import html
import mimetypes
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import ipywidgets as W

from ..exporters import ALIASES, FAMILIES
from ..exporters import FORMATS as RECORDS
from ..support.names import slug, strip_kind, type_label
from ..support.progress import NO_PROGRESS, reporting_to
from ..support.redact import redact_text

if TYPE_CHECKING:
    from ..core.estate import Estate
    from ..core.selection import Filter

__all__ = [
    "FORMATS",
    "ExportPanel",
    "write_selection",
    "suggested_name",
    "shown_path",
    "format_name",
]

FORMATS: tuple[str, ...] = tuple(name for names in FAMILIES.values() for name in names)
"""Every format the panel offers (`json`, `csv`, `xlsx`, `png`...), as `ipt.export` names them."""
_EARLIER_NAMES = {"snapshot": "json", "mermaid": "mmd"}
"""Names the panel used before it offered every format; still accepted."""
NAME_LIMIT = 48
"""Characters a suggested file name keeps at most (without its suffix)."""
DOWNLOAD_LIMIT = 2_000_000
"""Bytes above which no inline download link is offered (the path still is)."""
LOG_ENTRIES = 5
"""How many exports the log shows (the newest with its download link)."""


def format_name(fmt: str) -> str:
    """`fmt` as `ipt.export` names it (`.CSV` -> `csv`, `snapshot` -> `json`); a clear
    error naming the formats offered when it is none of them."""
    name = str(fmt).lower().lstrip(".")
    name = _EARLIER_NAMES.get(name, name)
    name = ALIASES.get(name, name)  # `gv` is the `dot` file
    if name not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return name


def write_selection(
    estate: Estate,
    fmt: str,
    folder: str | os.PathLike[str],
    name: str,
    *,
    masked: bool = False,
    confined: bool = False,
) -> Path:
    """Write `estate` in format `fmt` as `<folder>/<name>.<fmt>`; the folder is created.

    A name typed with the format's own suffix (`acme.csv` for CSV) keeps it, not doubled.
    `masked`: a snapshot (`.json`, `.json.gz`) has credentials masked field by field.
    `confined`: a file of the folder that is a symbolic link is refused, not written
    through (the app: whoever may create files in its folder must not steer its writes).
    """
    fmt = format_name(fmt)
    if Path(name).name != name or name in ("", ".", ".."):
        raise ValueError(f"file name {name!r}: a name only, without folders (the folder is set)")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = f".{fmt}"
    if name.lower().endswith(suffix) and len(name) > len(suffix):
        name = name[: -len(suffix)]
    from ..exporters import export

    path = folder / f"{name}{suffix}"
    if confined and path.is_symlink():
        raise ValueError(f"{path.name} in {folder} is a symbolic link: the app writes only there")
    if masked and fmt in ("json", "json.gz"):
        return _masked_snapshot(estate, path)
    with reporting_to(NO_PROGRESS):  # no tqdm bar in a widget's callback (the app's output)
        return Path(export(estate, path, fmt))


def _masked_snapshot(estate: Estate, path: Path) -> Path:
    """The snapshot with every secret-named field and credential in a URL masked; it
    still loads with `ipt.load`."""
    import dataclasses

    from ..core.snapshot import write_snapshot
    from ..support.redact import redact_fields

    info = estate.info
    if isinstance(info.source_url, str):
        info = dataclasses.replace(info, source_url=redact_text(info.source_url))
    return Path(write_snapshot(path, redact_fields(list(estate.raw_profiles)), info))


def suggested_name(selection: Filter) -> str:
    """A short, safe file name for what a filter selects, its values in a fixed order:
    `partner-acme-ltd-kafka`, `finance-ap-sftp-active`; `estate` for everything."""
    if selection.is_empty():
        return "estate"
    words: list[Any] = []
    if selection.partners:
        words += ["partner", *(strip_kind(item, "partner") for item in selection.partners)]
    if selection.channels:
        words += ["channel", *(strip_kind(item, "channel") for item in selection.channels)]
    words += selection.groups
    words += [type_label(kind) for kind in (*selection.agent_types, *selection.channel_types)]
    if selection.tags:
        words += ["tag", *selection.tags]
    words.append({True: "active", False: "inactive", None: ""}[selection.active])
    words.append(selection.text or "")
    text = redact_text(" ".join(str(word) for word in words))
    made = slug(text, limit=4 * NAME_LIMIT, default="selection")
    if len(made) > NAME_LIMIT:  # whole words only
        made = made[: NAME_LIMIT + 1].rsplit("-", 1)[0][:NAME_LIMIT]
    return made


def shown_path(path: Path) -> str:
    """The path relative to the working directory when inside it (shorter, no temp dirs)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class ExportPanel:
    """Folder and name fields, a row of buttons per family of formats, and a log."""

    def __init__(
        self,
        current: Callable[[], Estate],
        *,
        folder: str = "iptoolkit-export",
        fixed: bool = False,
        masked: bool = False,
    ) -> None:
        self._current = current
        self._fixed = Path(folder).resolve() if fixed else None
        self.masked = masked
        self._suggested = "estate"
        self._typed = False
        self.folder = W.Text(
            value=str(self._fixed or folder),
            description="Folder",
            disabled=fixed,
            layout=W.Layout(width="420px"),
        )
        self.name = W.Text(
            value=self._suggested,
            description="File name",
            placeholder="from the filter",
            layout=W.Layout(width="420px"),
        )
        self.name.observe(self._name_changed, "value")
        self.buttons = {
            fmt: W.Button(
                description=f".{fmt}",
                tooltip=f"Write the selection as {RECORDS[fmt].what}",
                layout=W.Layout(width="88px"),
            )
            for fmt in FORMATS
        }
        for fmt, button in self.buttons.items():
            button.on_click(lambda _b, fmt=fmt: self.write(fmt))
        rows = [
            W.HBox(
                [
                    W.HTML(html.escape(family.capitalize()), layout=W.Layout(width="150px")),
                    *(self.buttons[fmt] for fmt in names),
                ],
                layout=W.Layout(align_items="center"),
            )
            for family, names in FAMILIES.items()
        ]
        self.log = W.HTML()
        self._entries: list[_Written | str] = []
        """Newest first: a written file's entry, or an error's HTML."""
        hint = W.HTML(
            "<span class='ipt-none' style='white-space: nowrap'>from the filter, "
            "until you type one</span>",
            layout=W.Layout(margin="0 0 0 10px"),
        )
        self.widget = W.VBox(
            [
                self.folder,
                W.HBox([self.name, hint], layout=W.Layout(align_items="center")),
                *rows,
                self.log,
            ],
            layout=W.Layout(width="100%"),
        )
        self.widget.add_class("ipt-export")
        self.written: list[Path] = []

    @property
    def target_folder(self) -> str | Path:
        """Where the next file goes: the fixed folder, whatever the field says; else the
        field's folder."""
        return self._fixed if self._fixed is not None else (self.folder.value or ".")

    @property
    def file_name(self) -> str:
        """The name the next file gets: the one typed, else the suggestion."""
        return self.name.value.strip() or self._suggested

    def suggest(self, name: str) -> None:
        """Offer `name` (made from the filter) unless the analyst typed their own; clearing
        the field hands it back to the suggestions."""
        self._suggested = name
        if not self._typed and self.name.value != name:
            self.name.value = name

    def _name_changed(self, change: dict[str, Any]) -> None:
        if change["new"] != self._suggested:
            self._typed = bool(change["new"].strip())

    def write(self, fmt: str) -> Path | None:
        """Write the current selection; errors are shown in the panel, not raised."""
        button = self.buttons[format_name(fmt)]
        button.disabled = True
        try:
            path = write_selection(
                self._current(),
                fmt,
                self.target_folder,
                self.file_name,
                masked=self.masked,
                confined=self._fixed is not None,
            )
        except Exception as exc:  # shown to the analyst; the widget must keep working
            said = html.escape(f".{format_name(fmt)}: {exc}")
            self._add(f"<li class='ipt-error'>{said}</li>")
            return None
        finally:
            button.disabled = False
        self.written.append(path)
        self._add(
            _Written(
                path,
                f"wrote <code>{html.escape(shown_path(path))}</code> "
                f"({path.stat().st_size:,} bytes)",
            )
        )
        return path

    def _add(self, entry: _Written | str) -> None:
        """Newest first, and only the last few; only the newest file carries its bytes
        inline (read once, now: a file deleted since never breaks the log)."""
        if isinstance(entry, _Written):
            entry = _Written(entry.path, entry.said, _download(entry.path))
            self._entries = [
                _Written(e.path, e.said) if isinstance(e, _Written) else e for e in self._entries
            ]
        self._entries = [entry, *self._entries][:LOG_ENTRIES]
        self.log.value = "<ul>" + "".join(_item(e) for e in self._entries) + "</ul>"


class _Written(NamedTuple):
    """A log entry for a written file: what it says, and its download link while newest."""

    path: Path
    said: str
    link: str = ""


def _item(entry: _Written | str) -> str:
    if isinstance(entry, str):  # an error, already HTML
        return entry
    return f"<li>{entry.said} {entry.link}</li>" if entry.link else f"<li>{entry.said}</li>"


def _download(path: Path) -> str:
    """A `download` link holding the file; when it is too big to travel inline, a line
    saying so and where it is (no link without a word why); nothing when it is gone."""
    try:
        if path.stat().st_size > DOWNLOAD_LIMIT:
            return (
                f"<span class='ipt-none'>(over {DOWNLOAD_LIMIT / 1e6:g} MB: too big for a "
                "download link in the page; the file is in the folder named above)</span>"
            )
        data = base64.b64encode(path.read_bytes()).decode()
    except OSError:
        return ""
    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return f"<a download='{html.escape(path.name)}' href='data:{mime};base64,{data}'>download</a>"
